// The import layers, enforced by eslint-plugin-import-x (docs/architecture.md, "Layers"). On the server:
// platform -> db -> plugins -> modules -> features -> the wiring, each importing only what comes before
// it; on the web: shared code -> features -> the wiring. A feature never imports another feature, and
// no module imports itself back through others (no-cycle).
import fs from 'node:fs';
import path from 'node:path';
import tseslint from 'typescript-eslint';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

export const SERVER = 'apps/server/src';
export const WEB = 'apps/web/src';

/**
 * The server's shared code, in order: each level imports only the levels before it (and itself).
 * `platform` is code any program could use (tokens, passwords, secrets, PDF and xlsx writing, QR codes,
 * SMS and SMTP, images by their bytes): it imports nothing of Kodi's own, not even @kodi/domain; `db`
 * the schema, the client and the configuration; `plugins` what every request goes through (session,
 * guard, errors, rate limits, OpenAPI) and the routes' context; `modules` the shared modules, each
 * named by what it owns (modules/identity, leases, messaging, ...), and the generic records (crud/).
 */
export const serverLevels = [
  { name: 'platform', entries: ['platform'] },
  { name: 'db', entries: ['config.ts', 'db'] },
  { name: 'plugins', entries: ['plugins', 'context.ts', 'types.d.ts'] },
  { name: 'modules', entries: ['modules', 'crud'] },
];

/**
 * Every top-level entry of the two `src` folders, by layer (a new one must be added here: a test
 * fails until it is). `shared` may be imported by anything and imports neither a feature nor the
 * wiring (on the server, in the order of `serverLevels`); `features` holds one folder per feature;
 * `wiring` brings the features together (only what sits at the top imports it); `top` is the rest of
 * the programs and test support, which may import anything.
 */
export const layers = {
  server: {
    shared: serverLevels.flatMap((level) => level.entries),
    features: 'features',
    // modules.ts: the composition root, the one list of the modules
    wiring: ['app.ts', 'main.ts', 'modules.ts'],
    top: ['bench', 'tools', 'test', 'reliability'],
  },
  web: {
    shared: ['lib', 'components'],
    features: 'features',
    wiring: ['app', 'main.tsx', 'receipt-main.tsx', 'portal-main.tsx'],
    top: [],
  },
};

const TEST_FILES = ['**/*.test.ts', '**/*.test.tsx'];

/** The folders under `<src>/features` of the tree at `root`. */
const featureNames = (root, src) => {
  const dir = path.join(root, src, 'features');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
};

/** One zone per feature: it may import its own folder only, of all the features. */
const featureZones = (root, src) =>
  featureNames(root, src).map((name) => ({
    target: `${src}/features/${name}`,
    from: `${src}/features`,
    except: [`./${name}`],
    message: `Features never import each other: move what both need into shared code (${src === SERVER ? `${src}/modules/` : `${src}/lib/`}).`,
  }));

const sharedTargets = (src, layer) => layer.shared.map((entry) => `${src}/${entry}`);

const serverZones = () => {
  const { server } = layers;
  const wiring = server.wiring.map((entry) => `${SERVER}/${entry}`);
  const top = server.top.filter((entry) => entry !== 'test').map((entry) => `${SERVER}/${entry}`);
  const at = (entries) => entries.map((entry) => `${SERVER}/${entry}`);
  const order = serverLevels.map((level) => level.name).join(' -> ');
  const levels = serverLevels.map((level, i) => ({
    target: at(level.entries),
    from: at(serverLevels.slice(i + 1).flatMap((later) => later.entries)),
    message: `Shared server code imports only the levels before its own (${order}): ${level.name} (${level.entries.join(', ')}) imports none of ${serverLevels
      .slice(i + 1)
      .map((later) => later.name)
      .join(', ')}.`,
  }));
  return [
    ...levels.filter((zone) => zone.from.length > 0),
    {
      target: sharedTargets(SERVER, server),
      from: `${SERVER}/features`,
      message:
        'Shared server code imports no feature: src/modules.ts lists the modules and app.ts wires them in.',
    },
    {
      target: [...sharedTargets(SERVER, server), `${SERVER}/features`],
      from: [...wiring, ...top],
      message:
        'Shared code and features import neither the wiring (app.ts, main.ts, modules.ts) nor bench/, tools/, reliability/: only main.ts, tests, bench and tools do. AppContext is in context.ts.',
    },
  ];
};

const webZones = () => {
  const { web } = layers;
  const shared = sharedTargets(WEB, web);
  const wiring = web.wiring.map((entry) => `${WEB}/${entry}`);
  return [
    {
      target: shared,
      from: [`${WEB}/features`, ...wiring],
      message: 'Shared web code (lib/, components/) imports no feature and nothing of app/.',
    },
    {
      target: `${WEB}/features`,
      from: wiring,
      message: 'Features never import app/: it wires them; move what they need into lib/ or components/.',
    },
  ];
};

/**
 * The flat-config entries that enforce the layers of the tree at `root` (the repository; a test
 * passes a small tree of its own).
 */
export const layersConfig = (root) => {
  const features = [...featureZones(root, SERVER), ...featureZones(root, WEB)];
  const restricted = (zones) => ['error', { basePath: root, zones }];
  return [
    {
      files: ['**/*.ts', '**/*.tsx'],
      languageOptions: { parser: tseslint.parser },
      plugins: { 'import-x': importX },
      settings: {
        // imports name their files with the extension (allowImportingTsExtensions): the plugin's own
        // resolver finds them as they are, and @kodi/domain through its package.json exports
        'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json'] })],
        'import-x/extensions': ['.ts', '.tsx', '.js'],
        'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      },
      rules: {
        // cycles of value imports (`import type` ones erase at build; the zones keep them within a layer)
        'import-x/no-cycle': ['error', { ignoreExternal: true }],
        'import-x/no-restricted-paths': restricted([...features, ...serverZones(), ...webZones()]),
      },
    },
    {
      // platform/ imports nothing of Kodi's own: not @kodi/domain either (the zones keep the server's folders out)
      files: [`${SERVER}/platform/**/*.ts`],
      ignores: TEST_FILES,
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              {
                group: ['@kodi/*'],
                message:
                  "platform/ imports nothing of Kodi's own (not @kodi/domain): what needs it belongs in modules/.",
              },
            ],
          },
        ],
      },
    },
    {
      // tests sit at the top, with the wiring; a feature's tests still keep to their feature
      files: TEST_FILES,
      rules: { 'import-x/no-restricted-paths': restricted(features) },
    },
  ];
};
