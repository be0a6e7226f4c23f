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
 * kept fact costs one string comparison. Each server process keeps its own, up to MAX_KEPT facts
 * (the least recently used go first).
 */
export type Kept<T> = { versions: string; value: T };

const MAX_KEPT = 5000;

export type KeptFacts = {
  get: <T>(key: string) => Kept<T> | undefined;
  set: <T>(key: string, versions: string, value: T) => void;
};

const keptFacts = (): KeptFacts => {
  const facts = new Map<string, Kept<unknown>>();
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
    set: <T>(key: string, versions: string, value: T) => {
      facts.delete(key);
      facts.set(key, { versions, value });
      if (facts.size > MAX_KEPT) {
        const oldest = facts.keys().next();
        if (!oldest.done) facts.delete(oldest.value);
      }
    },
  };
};

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
