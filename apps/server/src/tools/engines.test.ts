import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serverRoot } from '../db/client.ts';
import { engineProblems, oldestNodeLine, readLockFile, type LockFile } from './engines.ts';

const lockFile = path.resolve(serverRoot, '..', '..', 'package-lock.json');

describe('production dependencies and Node 20', () => {
  it('package-lock.json holds no production dependency whose engines leave out Node 20', () => {
    const lock = readLockFile(lockFile);
    expect(oldestNodeLine(lock)).toBe('>=20.19.0 <21.0.0-0');
    expect(engineProblems(lock)).toEqual([]);
  });

  it('finds a production package needing Node 22, not a dev one nor one taking 20', () => {
    const lock: LockFile = {
      packages: {
        '': { engines: { node: '>=20.19' } },
        'node_modules/cookie': { version: '2.0.2', engines: { node: '>=22' } },
        'node_modules/old': { version: '1.0.0', engines: ['node >= 21'] },
        'node_modules/vitest': { version: '4.0.0', dev: true, engines: { node: '>=22' } },
        'node_modules/glob': { version: '14.0.6', engines: { node: '18 || 20 || >=22' } },
        'node_modules/late': { version: '1.0.0', engines: { node: '^20.20.0 || >=22' } },
        'node_modules/plain': { version: '1.0.0' },
      },
    };
    expect(engineProblems(lock)).toEqual([
      { path: 'node_modules/cookie', version: '2.0.2', node: '>=22' },
      { path: 'node_modules/old', version: '1.0.0', node: '>= 21' },
      { path: 'node_modules/late', version: '1.0.0', node: '^20.20.0 || >=22' },
    ]);
  });
});
