import { sql } from 'drizzle-orm';
import type { Database, Tx } from '../db/client.ts';

/**
 * At most this many creations share one transaction: each savepoint that writes takes a
 * subtransaction id, and PostgreSQL keeps 64 of them per backend before every snapshot gets slower.
 */
export const MAX_BATCH = 32;

type Job<I, T> = {
  input: I;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
};

/** One creation's outcome in `many`: its value, or the error it answers alone. */
export type Outcome<T> = { value: T } | { error: unknown };

export type BatchWork<I, T> = {
  /** one creation inside the transaction (a lone request, or a batch's fallback in a savepoint) */
  one: (tx: Tx, input: I) => Promise<T>;
  /**
   * Several creations at once (a few statements for all of them), answering each one's outcome in
   * order. When it throws, the batch's savepoint is rolled back and every creation runs on its own.
   */
  many?: (tx: Tx, inputs: I[]) => Promise<Outcome<T>[]>;
  /** before the commit, with the values of the creations that succeeded */
  finish?: (tx: Tx, values: T[]) => Promise<void>;
};

/** The longest a batch waits for the rest of the last batch's crowd (gather). */
const CROWD_WAIT_MS = 4;
/** A last batch older than this says nothing of who is coming. */
const CROWD_WINDOW_MS = 50;

const ITEM = 'kodi_item';
const BATCH = 'kodi_batch';

/**
 * Creations of one company, coalesced: while one transaction of the company's creations runs, the
 * next ones wait in a queue, and then all of them run in a single transaction. Each request is
 * answered only after that transaction's COMMIT, so nothing is acknowledged before it is on disk.
 *
 * A batch first tries `many` (one statement per step for all of its creations) inside a savepoint;
 * if that fails, it rolls back to the savepoint and runs each creation inside its own savepoint, so
 * that a creation that fails rolls back alone (its numbers are given back, no gap) and answers its
 * own error while the others go on (each creation writes its audit entry with it: records.ts;
 * `many`'s for all of them in one statement). `finish`, when given, runs once per transaction with
 * the values of the creations that succeeded, before the commit.
 *
 * Why: a payment takes its company's counter rows (gapless PAY-/RCT- numbers) and the kept totals'
 * rows, and holds them until its commit, so one company's creations run one transaction at a time:
 * their throughput is the batch's size over the batch's time. Sharing the commit lifts the disk's
 * flush from each creation; `many` lifts the round trips and statements from each creation (a
 * batch of 16 payments is one lookup of leases and numbers and one INSERT of 16 rows). A lone
 * request runs at once, in its own transaction, without a savepoint. Only when the company's last
 * batch, ended a moment ago, held a crowd does the next one wait a few milliseconds for the rest of
 * it (`gather`): without that, a steady crowd splits into a large batch and a small one that cost
 * the same time, and half the throughput is lost.
 */
export const createBatcher = <I, T>(database: Database, work: BatchWork<I, T>) => {
  const queues = new Map<string, Job<I, T>[]>();
  const running = new Set<string>();
  // pg takes "RELEASE ...; SAVEPOINT ..." as one simple query (one round trip); PGlite one at a time
  const between =
    database.driver === 'pg'
      ? [sql.raw(`RELEASE SAVEPOINT ${ITEM}; SAVEPOINT ${ITEM}`)]
      : [sql.raw(`RELEASE SAVEPOINT ${ITEM}`), sql.raw(`SAVEPOINT ${ITEM}`)];

  /** Each job in its own savepoint: a failed one rolls back alone. */
  const oneByOne = async (tx: Tx, jobs: Job<I, T>[]): Promise<Outcome<T>[]> => {
    const out: Outcome<T>[] = [];
    for (const [i, job] of jobs.entries()) {
      for (const s of i === 0 ? [sql.raw(`SAVEPOINT ${ITEM}`)] : between) await tx.execute(s);
      try {
        out.push({ value: await work.one(tx, job.input) });
      } catch (error) {
        await tx.execute(sql.raw(`ROLLBACK TO SAVEPOINT ${ITEM}`));
        out.push({ error });
      }
    }
    return out;
  };

  /** All jobs at once when `many` succeeds; one by one when it throws. */
  const together = async (tx: Tx, jobs: Job<I, T>[]): Promise<Outcome<T>[]> => {
    const { many } = work;
    if (!many) return oneByOne(tx, jobs);
    await tx.execute(sql.raw(`SAVEPOINT ${BATCH}`));
    try {
      return await many(
        tx,
        jobs.map((j) => j.input),
      );
    } catch {
      await tx.execute(sql.raw(`ROLLBACK TO SAVEPOINT ${BATCH}`));
      return oneByOne(tx, jobs);
    }
  };

  const runBatch = async (jobs: Job<I, T>[]) => {
    let outcomes: Outcome<T>[] = [];
    try {
      await database.db.transaction(async (tx) => {
        const [only] = jobs;
        outcomes =
          jobs.length === 1 && only ? [{ value: await work.one(tx, only.input) }] : await together(tx, jobs);
        const values = outcomes.flatMap((o) => ('value' in o ? [o.value] : []));
        if (values.length > 0 && work.finish) await work.finish(tx, values);
      });
    } catch (error) {
      // the transaction itself failed (the lone job, the finish or the commit): nothing was kept
      for (const [i, job] of jobs.entries()) {
        const o = outcomes[i];
        job.reject(o && 'error' in o ? o.error : error);
      }
      return;
    }
    for (const [i, job] of jobs.entries()) {
      const o = outcomes[i];
      if (o && 'value' in o) job.resolve(o.value);
      else job.reject(o ? o.error : new Error('creation lost its outcome'));
    }
  };

  // group commit's crowd: each company's last batch (its size, when it ended, how long it ran)
  const last = new Map<string, { size: number; ended: number; ms: number }>();
  const wakers = new Map<string, { target: number; wake: () => void }>();

  /**
   * Before a batch: when the company's last batch, just ended, held more creations than wait now,
   * the rest of that crowd is a moment away (its answers have just gone out, its next requests are
   * on their way), so wait for them, at most half that batch's time and never over CROWD_WAIT_MS,
   * as PostgreSQL's commit_delay does. A lone creation, or one after a quiet moment, never waits.
   */
  const gather = async (key: string, queued: number) => {
    const before = last.get(key);
    const now = performance.now();
    if (!before || before.size < 2 || queued * 2 > before.size || now - before.ended > CROWD_WINDOW_MS)
      return;
    const ms = Math.min(CROWD_WAIT_MS, Math.max(0.5, before.ms / 2));
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakers.delete(key);
        resolve();
      }
      wakers.set(key, { target: before.size, wake: done });
    });
  };

  const drain = async (key: string) => {
    running.add(key);
    try {
      for (;;) {
        await gather(key, queues.get(key)?.length ?? 0);
        const queue = queues.get(key);
        if (!queue || queue.length === 0) break;
        const jobs = queue.splice(0, MAX_BATCH);
        const started = performance.now();
        await runBatch(jobs);
        const ended = performance.now();
        last.set(key, { size: jobs.length, ended, ms: ended - started });
      }
    } finally {
      queues.delete(key);
      running.delete(key);
    }
  };

  /** Queues a creation of the company `key`; answers after its transaction's commit. */
  return (key: string, input: I): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const queue = queues.get(key) ?? [];
      queues.set(key, queue);
      queue.push({ input, resolve, reject });
      const waiting = wakers.get(key);
      if (waiting && queue.length >= waiting.target) waiting.wake();
      if (!running.has(key)) void drain(key);
    });
};
