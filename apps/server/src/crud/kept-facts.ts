import type { Database } from '../db/client.ts';

/**
 * What the lists derive from a company's rows and keep between requests, each with the versions of
 * the tables it was derived from (the company's `row_counts.data_version`, a new one at every
 * statement that writes them; migration 0014_row_versions):
 * - a search's matches: which tenants and units match the words, and the total they make;
 * - the positions of deep pages: which row starts the page at a given offset of a list's order.
 *
 * Nothing kept is answered unchecked: the statement that uses a kept fact reads the current versions
 * in its own snapshot, and when they are not the kept ones its result is thrown away and the fact
 * is derived again. So a write on any server is seen by the next request on every server, and a
 * kept fact costs one string comparison. Each server process keeps its own, up to MAX_WEIGHT (a
 * fact weighs 1 plus the ids it holds: about 1,000,000 ids, some 10 MB; the least recently used go
 * first; a fact of more than a tenth of that is not kept).
 */
export type Kept<T> = { versions: string; value: T; weight: number };

/** How much is kept per database and process, in weight (a fact weighs 1 plus the ids it holds). */
const MAX_WEIGHT = 1_000_000;

export type KeptFacts = {
  get: <T>(key: string) => Kept<T> | undefined;
  /** keeps `value` under `key`; `weight`: 1 plus the number of ids or positions it holds */
  set: <T>(key: string, versions: string, value: T, weight?: number) => void;
};

const keptFacts = (): KeptFacts => {
  const facts = new Map<string, Kept<unknown>>();
  let weight = 0;
  const drop = (key: string) => {
    const old = facts.get(key);
    if (old) {
      weight -= old.weight;
      facts.delete(key);
    }
  };
  return {
    get: <T>(key: string) => {
      const kept = facts.get(key) as Kept<T> | undefined;
      if (kept) {
        // most recently used last
        facts.delete(key);
        facts.set(key, kept);
      }
      return kept;
    },
    set: <T>(key: string, versions: string, value: T, w = 1) => {
      drop(key);
      if (w > MAX_WEIGHT / 10) return; // too big to keep: derived again each time
      facts.set(key, { versions, value, weight: w });
      weight += w;
      // the least recently used go first
      for (const oldest of facts.keys()) {
        if (weight <= MAX_WEIGHT) break;
        drop(oldest);
      }
    },
  };
};

/**
 * An answer kept under the versions of what it is read from: `current()` reads the versions now
 * (one small statement, which may confirm the session too); an answer kept under those very
 * versions is answered again as it was kept, without being read, presented or serialised anew.
 * Otherwise `read()` reads it and it is kept under the versions read before it: a write between
 * the two statements can only make the kept answer newer than its versions say, so at worst it is
 * read once more. A write on any server changes the versions, so nothing stale is ever answered.
 * `keep` false (KEEP_PAGES=0): always read, nothing kept.
 */
export const keptAnswer = async <T>(
  kept: KeptFacts,
  key: string,
  current: () => Promise<{ versions: unknown; session?: unknown }>,
  read: () => Promise<T>,
  weight: (value: T) => number,
  keep = true,
): Promise<{ value: T; session?: unknown }> => {
  const now = await current();
  if (!keep) return { value: await read(), session: now.session };
  const known = kept.get<T>(key);
  if (known && typeof now.versions === 'string' && known.versions === now.versions)
    return { value: known.value, session: now.session };
  const value = await read();
  if (typeof now.versions === 'string') kept.set(key, now.versions, value, weight(value));
  return { value, session: now.session };
};

/** The weight of kept JSON text: its bytes, as 8 bytes an id. */
export const jsonWeight = ({ json }: { json: string }): number => 1 + Math.ceil(json.length / 8);

const byDatabase = new WeakMap<Database, KeptFacts>();

/** The facts kept for a database (one set per database a process talks to). */
export const keptFactsOf = (database: Database): KeptFacts => {
  let kept = byDatabase.get(database);
  if (!kept) {
    kept = keptFacts();
    byDatabase.set(database, kept);
  }
  return kept;
};

/** Lets `to` (a view of the same database, such as the benchmark's explaining one) use `from`'s facts. */
export const shareKeptFacts = (from: Database, to: Database): void => {
  byDatabase.set(to, keptFactsOf(from));
};
