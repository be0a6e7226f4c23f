import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ESLint, type Linter } from 'eslint';

// The import layers of docs/architecture.md are ESLint rules (eslint.layers.js): these tests break
// them on purpose and check that `npm run lint` would fail.

const root = path.resolve(import.meta.dirname, '..', '..', '..');

type Layer = { shared: string[]; features: string; wiring: string[]; top: string[] };
type LayersModule = {
  SERVER: string;
  WEB: string;
  layers: { server: Layer; web: Layer };
  layersConfig: (root: string) => Linter.Config[];
};
const loadLayers = async (): Promise<LayersModule> =>
  (await import(pathToFileURL(path.join(root, 'eslint.layers.js')).href)) as LayersModule;

type Problem = { rule: string | null; message: string };

/** The problems of the layer rules in `code` as if it were the file at `file` in the repository. */
const lintAs = async (eslint: ESLint, file: string, code: string): Promise<Problem[]> => {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId?.startsWith('import-x/') || m.ruleId === 'no-restricted-imports' || m.fatal)
    .map((m) => ({ rule: m.ruleId, message: m.message }));
};

const zone = (message: string) => ({
  rule: 'import-x/no-restricted-paths',
  message: expect.stringContaining(message),
});

describe('import layers (the repository ESLint config)', () => {
  // the repository's own eslint.config.js, as `npm run lint` runs it
  const eslint = new ESLint({ cwd: root });

  it('refuses a server feature importing another feature, and allows shared code and its own files', async () => {
    expect(
      await lintAs(
        eslint,
        'apps/server/src/features/payments/zz-layers.ts',
        "import { unitsServer } from '../units/server.ts';\nexport const x = unitsServer;\n",
      ),
    ).toEqual([zone('Features never import each other')]);
    expect(
      await lintAs(
        eslint,
        'apps/server/src/features/occupancy/zz-layers.ts',
        "import { sniffImage } from '../../platform/image-sniffing.ts';\nimport { occupancyServer } from './server.ts';\n" +
          'export const x = [sniffImage, occupancyServer];\n',
      ),
    ).toEqual([]);
  });

  it('refuses shared server code importing a feature, crud/registry.ts too; the composition root may', async () => {
    for (const file of ['apps/server/src/crud/zz-layers.ts', 'apps/server/src/crud/registry.ts']) {
      expect(
        await lintAs(
          eslint,
          file,
          "import { unitsServer } from '../features/units/server.ts';\nexport const x = unitsServer;\n",
        ),
      ).toEqual([zone('Shared server code imports no feature')]);
    }
    expect(
      await lintAs(
        eslint,
        'apps/server/src/modules/leases/zz-layers.ts',
        "import { ledgerRoutes } from '../../features/ledger/routes.ts';\nexport const x = ledgerRoutes;\n",
      ),
    ).toEqual([zone('Shared server code imports no feature')]);
    for (const file of ['apps/server/src/modules.ts', 'apps/server/src/crud/registry.ts']) {
      expect(await lintAs(eslint, file, fs.readFileSync(path.join(root, file), 'utf8'))).toEqual([]);
    }
  });

  it('keeps the order platform -> db -> plugins -> modules: each level imports only those before it', async () => {
    const level = (name: string) => zone(`${name} (`);
    // platform imports nothing of Kodi's own: no db/, config.ts, plugins/, modules/, crud/, nor @kodi/domain
    expect(
      await lintAs(
        eslint,
        'apps/server/src/platform/zz-layers.ts',
        "import type { Database } from '../db/client.ts';\nimport type { Config } from '../config.ts';\n" +
          "import { currentUser } from '../plugins/guard.ts';\nimport { recordAuditEntry } from '../modules/audit/audit.ts';\n" +
          "import { AppError } from '@kodi/domain';\n" +
          'export const x = [currentUser, recordAuditEntry, AppError];\nexport type Y = [Database, Config];\n',
      ),
    ).toEqual([
      level('platform'),
      level('platform'),
      level('platform'),
      level('platform'),
      {
        rule: 'no-restricted-imports',
        message: expect.stringContaining("platform/ imports nothing of Kodi's own"),
      },
    ]);
    expect(
      await lintAs(
        eslint,
        'apps/server/src/db/zz-layers.ts',
        "import { randomToken } from '../platform/tokens.ts';\nimport { findPgError } from '../plugins/errors.ts';\n" +
          'export const x = [randomToken, findPgError];\n',
      ),
    ).toEqual([level('db')]);
    expect(
      await lintAs(
        eslint,
        'apps/server/src/plugins/zz-layers.ts',
        "import type { Database } from '../db/client.ts';\nimport { emailTaken } from '../modules/identity/users.ts';\n" +
          "import { scopeCondition } from '../crud/server-entity.ts';\n" +
          'export const x = [emailTaken, scopeCondition];\nexport type Y = Database;\n',
      ),
    ).toEqual([level('plugins'), level('plugins')]);
    // a shared module may use another one, the levels before it and crud/
    expect(
      await lintAs(
        eslint,
        'apps/server/src/modules/receipts/zz-layers.ts',
        "import { companyMoney } from '../companies/company.ts';\nimport { currentUser } from '../../plugins/guard.ts';\n" +
          "import { scopeCondition } from '../../crud/server-entity.ts';\n" +
          'export const x = [companyMoney, currentUser, scopeCondition];\n',
      ),
    ).toEqual([]);
  });

  it('refuses a route importing app.ts (AppContext is in context.ts), type-only imports too; a test may', async () => {
    expect(
      await lintAs(
        eslint,
        'apps/server/src/features/units/zz-layers.ts',
        "import type { buildApp } from '../../app.ts';\nexport type X = typeof buildApp;\n",
      ),
    ).toEqual([zone('Shared code and features import neither the wiring')]);
    expect(
      await lintAs(
        eslint,
        'apps/server/src/modules/identity/zz-layers.ts',
        "import { kodiModules } from '../../modules.ts';\nexport const x = kodiModules;\n",
      ),
    ).toEqual([zone('Shared code and features import neither the wiring')]);
    expect(
      await lintAs(
        eslint,
        'apps/server/src/features/units/zz-layers.test.ts',
        "import { buildApp } from '../../app.ts';\nimport { paymentsServer } from '../payments/server.ts';\n" +
          'export const x = [buildApp, paymentsServer];\n',
      ),
    ).toEqual([zone('Features never import each other')]);
  });

  it('refuses on the web a feature importing another feature or app/, and lib/ importing a feature', async () => {
    expect(
      await lintAs(
        eslint,
        'apps/web/src/features/about/zz-layers.tsx',
        "import { helpTopics } from '../help/help-topics.ts';\nimport { theme } from '../../app/theme.ts';\n" +
          'export const x = [helpTopics, theme];\n',
      ),
    ).toEqual([zone('Features never import each other'), zone('Features never import app/')]);
    expect(
      await lintAs(
        eslint,
        'apps/web/src/lib/zz-layers.ts',
        "import { helpTopics } from '../features/help/help-topics.ts';\nexport const x = helpTopics;\n",
      ),
    ).toEqual([zone('Shared web code (lib/, components/) imports no feature')]);
  });

  it('places every top-level folder and file of the two src folders in a layer', async () => {
    const { SERVER, WEB, layers } = await loadLayers();
    for (const [src, layer] of [
      [SERVER, layers.server],
      [WEB, layers.web],
    ] as const) {
      const known = new Set(
        [...layer.shared, layer.features, ...layer.wiring, ...layer.top].map((entry) => entry.split('/')[0]),
      );
      const entries = fs.readdirSync(path.join(root, src)).filter((name) => !/\.test\.tsx?$/.test(name));
      expect(entries.filter((name) => !known.has(name))).toEqual([]);
    }
  });
});

describe('import layers (the same rules on a small tree of their own)', () => {
  let tree: string;
  let eslint: ESLint;
  const write = (file: string, code: string) => {
    fs.mkdirSync(path.dirname(path.join(tree, file)), { recursive: true });
    fs.writeFileSync(path.join(tree, file), code);
  };
  const lintFile = async (file: string): Promise<Problem[]> => {
    const [result] = await eslint.lintFiles([path.join(tree, file)]);
    return (result?.messages ?? []).map((m) => ({ rule: m.ruleId, message: m.message }));
  };

  beforeAll(async () => {
    tree = fs.mkdtempSync(path.join(os.tmpdir(), 'kodi-layers-'));
    // a cycle of three shared modules, and two features, one reaching into the other
    write('apps/server/src/modules/z/a.ts', "import { b } from './b.ts';\nexport const a = () => b();\n");
    write('apps/server/src/modules/z/b.ts', "import { c } from './c.ts';\nexport const b = () => c();\n");
    write(
      'apps/server/src/modules/z/c.ts',
      "import { a } from './a.ts';\nexport const c = (): unknown => a;\n",
    );
    write('apps/server/src/modules/z/d.ts', "import { a } from './a.ts';\nexport const d = () => a();\n");
    write('apps/server/src/features/alpha/x.ts', "import { y } from '../beta/y.ts';\nexport const x = y;\n");
    write(
      'apps/server/src/features/beta/y.ts',
      "import { d } from '../../modules/z/d.ts';\nexport const y = d;\n",
    );
    const { layersConfig } = await loadLayers();
    eslint = new ESLint({ cwd: tree, overrideConfigFile: true, overrideConfig: layersConfig(tree) });
  });
  afterAll(() => {
    fs.rmSync(tree, { recursive: true, force: true });
  });

  it('refuses an import cycle, however long, and only on the modules in it', async () => {
    const cycle = { rule: 'import-x/no-cycle', message: expect.stringContaining('Dependency cycle') };
    expect(await lintFile('apps/server/src/modules/z/a.ts')).toEqual([cycle]);
    expect(await lintFile('apps/server/src/modules/z/c.ts')).toEqual([cycle]);
    expect(await lintFile('apps/server/src/modules/z/d.ts')).toEqual([]);
  });

  it('makes a zone for every feature folder it finds', async () => {
    expect(await lintFile('apps/server/src/features/alpha/x.ts')).toEqual([
      zone('Features never import each other'),
    ]);
    expect(await lintFile('apps/server/src/features/beta/y.ts')).toEqual([]);
  });
});
