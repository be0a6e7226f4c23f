import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compileMessage } from '@lingui/message-utils/compileMessage';

const PREFIX = 'virtual:kodi-catalogue/';
const LANGUAGE = /^(en|sw|fr)$/;
const folder = fileURLToPath(new URL('../../packages/domain/src/i18n/catalogues/', import.meta.url));

/**
 * One language's catalogue as a module of its own (issue 30): `import('virtual:kodi-catalogue/fr')`
 * answers `messages`, packages/domain/src/i18n/catalogues/fr.json flattened ('auth.signIn') and
 * compiled by Lingui's compiler at build time, so the page ships neither the ICU parser nor the other
 * languages (src/lib/i18n.ts loads the one it needs); `namespaces`: only those (the tenant portal's
 * build). The error messages are not in it: the server answers them translated.
 */
export const catalogues = (namespaces?: readonly string[]) => ({
  name: 'kodi-catalogues',
  resolveId(id: string) {
    return id.startsWith(PREFIX) ? `\0${id}` : undefined;
  },
  load(this: { addWatchFile: (file: string) => void }, id: string) {
    if (!id.startsWith(`\0${PREFIX}`)) return undefined;
    const language = id.slice(PREFIX.length + 1);
    if (!LANGUAGE.test(language)) throw new Error(`kodi-catalogues: no catalogue ${language}`);
    const file = `${folder}${language}.json`;
    this.addWatchFile(file);
    const all = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, string>>;
    const messages = Object.fromEntries(
      Object.entries(all)
        .filter(([ns]) => !namespaces || namespaces.includes(ns))
        .flatMap(([ns, texts]) =>
          Object.entries(texts).map(([key, text]) => [`${ns}.${key}`, compileMessage(text)]),
        ),
    );
    return `export const messages = ${JSON.stringify(messages)};`;
  },
});
