import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { catalogueGroups, type CatalogueGroup } from '../../packages/domain/src/i18n/groups.ts';

const PREFIX = 'virtual:kodi-catalogue/';
const ID = /^(en|sw|fr)(?:\/([a-z]+))?$/;
const folder = fileURLToPath(new URL('../../packages/domain/src/i18n/catalogues/', import.meta.url));

/**
 * The groups only some pages load (issue 30): a module of the app that names one of their keys
 * ('auth.signIn', or builds `entity.${key}`) uses the group. Their chunks, found at build time, are
 * written to `.vite/catalogue-users.json`, and scripts/check-bundle.mjs counts the group's catalogue
 * for the pages that can load one of those chunks, and only those; the other groups count for every
 * page that can load them.
 */
const scanned: readonly CatalogueGroup[] = [
  'auth',
  'entity',
  'dashboard',
  'arrears',
  'help',
  'books',
  'reports',
  'imports',
  'collections',
  'messages',
  'users',
  'audit',
  'security',
  'utilities',
  'requests',
  'settings',
  'templates',
  'domain',
  'accounts',
];
const keyOf = (group: CatalogueGroup) => new RegExp(`['"\`](?:${catalogueGroups[group].join('|')})\\.[\\w$]`);
/** A module asking for a group by name (`useTexts('accounts')`: its keys are made elsewhere, in @kodi/domain). */
const askFor = (group: CatalogueGroup) => new RegExp(`\\buseTexts(?:Ready)?\\(\\s*['"]${group}['"]`);
/** Namespaces whose English is the code's own words (the entities' definitions): no English chunk. */
const derivedInEnglish: readonly string[] = ['entity'];
const appModule = /[\\/]apps[\\/]web[\\/]src[\\/].*\.tsx?$/;

type Bundle = Record<string, { type: string; fileName: string; moduleIds?: readonly string[] }>;
type Emitter = { emitFile: (file: { type: 'asset'; fileName: string; source: string }) => void };

/**
 * One language's catalogue as modules of its own (issue 30): `import('virtual:kodi-catalogue/fr')`
 * answers `messages` of the `base` group (packages/domain/src/i18n/groups.ts), and
 * `virtual:kodi-catalogue/fr/entity` those of another group; fr.json's namespaces flattened
 * ('auth.signIn') and compiled by Lingui's compiler at build time, so the page ships neither the ICU
 * parser nor the other languages (src/lib/i18n.ts loads the ones it needs); `namespaces`: the base's
 * (the tenant portal's build). The error messages are not in it: the server answers them translated.
 */
export const catalogues = (namespaces?: readonly string[]) => {
  const users = new Map<CatalogueGroup, Set<string>>(scanned.map((g) => [g, new Set<string>()]));
  return {
    name: 'kodi-catalogues',
    resolveId(id: string) {
      return id.startsWith(PREFIX) ? `\0${id}` : undefined;
    },
    load(this: { addWatchFile: (file: string) => void }, id: string) {
      if (!id.startsWith(`\0${PREFIX}`)) return undefined;
      const [, language, group = 'base'] = ID.exec(id.slice(PREFIX.length + 1)) ?? [];
      if (!language || !(group in catalogueGroups))
        throw new Error(`kodi-catalogues: no catalogue ${id.slice(PREFIX.length + 1)}`);
      const wanted: readonly string[] =
        namespaces && group === 'base' ? namespaces : catalogueGroups[group as CatalogueGroup];
      const file = `${folder}${language}.json`;
      this.addWatchFile(file);
      const all = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, string>>;
      const messages = Object.fromEntries(
        Object.entries(all)
          .filter(([ns]) => wanted.includes(ns) && !(language === 'en' && derivedInEnglish.includes(ns)))
          .flatMap(([ns, texts]) =>
            Object.entries(texts).map(([key, text]) => [`${ns}.${key}`, compileMessage(text)]),
          ),
      );
      return `export const messages = ${JSON.stringify(messages)};`;
    },
    transform(code: string, id: string) {
      if (!appModule.test(id)) return undefined;
      // its code without its comments (which may name keys as examples)
      const bare = code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
      for (const group of scanned)
        if (keyOf(group).test(bare) || askFor(group).test(bare)) users.get(group)?.add(id);
      return undefined;
    },
    generateBundle(this: Emitter, _options: unknown, bundle: Bundle) {
      if (namespaces) return; // the portal's build: one base, no other group
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const byGroup = Object.fromEntries(
        [...users].map(([group, ids]) => [
          group,
          chunks.filter((c) => (c.moduleIds ?? []).some((m) => ids.has(m))).map((c) => c.fileName),
        ]),
      );
      this.emitFile({
        type: 'asset',
        fileName: '.vite/catalogue-users.json',
        source: JSON.stringify(byGroup),
      });
    },
  };
};
