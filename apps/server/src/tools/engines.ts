/**
 * The production dependencies of package-lock.json (what `npm ci --omit=dev` installs: every entry
 * not marked `dev`) whose `engines.node` leaves out part of the oldest Node line the project
 * supports (the root's `engines.node`, `>=20.19`: 20.19 and every later 20.x). `npm ci` prints
 * EBADENGINE for those on Node 20; the test beside this file keeps the lockfile free of them.
 * `npx tsx apps/server/src/tools/engines.ts` prints them and exits non-zero.
 */
import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';

type Engines = Record<string, string> | string[];
type LockEntry = { version?: string; dev?: boolean; link?: boolean; engines?: Engines };
export type LockFile = { packages: Record<string, LockEntry> };

export type EngineProblem = { path: string; version: string; node: string };

/** The engines' `node` range of a lockfile entry (old packages list engines as an array of `node >=x`). */
const nodeRange = (engines: Engines | undefined): string | null => {
  if (!engines) return null;
  if (Array.isArray(engines)) {
    const entry = engines.find((e) => e.trim().startsWith('node'));
    return entry ? entry.trim().slice('node'.length).trim() : null;
  }
  return engines.node ?? null;
};

/** The oldest line of Node the root supports: `>=20.19` → `>=20.19.0 <21.0.0-0`. */
export const oldestNodeLine = (lock: LockFile): string => {
  const root = nodeRange(lock.packages['']?.engines);
  const min = root ? semver.minVersion(root) : null;
  if (!min) throw new Error('package-lock.json: the root package has no engines.node');
  return `>=${min.version} <${min.major + 1}.0.0-0`;
};

/** The production packages whose `engines.node` does not take every version of `line`. */
export const engineProblems = (lock: LockFile, line = oldestNodeLine(lock)): EngineProblem[] =>
  Object.entries(lock.packages).flatMap(([key, entry]) => {
    const node = nodeRange(entry.engines);
    if (key === '' || entry.dev || entry.link || !node) return [];
    const ok = semver.validRange(node) !== null && semver.subset(line, node, { includePrerelease: false });
    return ok ? [] : [{ path: key, version: entry.version ?? '?', node }];
  });

export const readLockFile = (file: string): LockFile => JSON.parse(fs.readFileSync(file, 'utf8')) as LockFile;

const isMain = process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]));
if (isMain) {
  const file = path.resolve(process.argv[2] ?? 'package-lock.json');
  const lock = readLockFile(file);
  const problems = engineProblems(lock);
  for (const p of problems) console.error(`${p.path}@${p.version} needs node ${p.node}`);
  if (problems.length > 0) {
    console.error(`${problems.length} production dependencies leave out Node ${oldestNodeLine(lock)}.`);
    process.exit(1);
  }
  console.log(`Every production dependency installs on Node ${oldestNodeLine(lock)}.`);
}
