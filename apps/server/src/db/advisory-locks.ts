/**
 * Every PostgreSQL advisory lock Kodi takes, named once and used by name (`writers.test.ts` refuses a
 * lock number written anywhere else). A lock of one key (`pg_advisory_lock(key)`) and one of two keys
 * (`pg_advisory_xact_lock(key, id)`) are different locks even when their first number is the same.
 */
export const advisoryLocks = {
  /** session lock, one key: one server migrates the database at a time (db/client.ts) */
  migrations: 4241,
  /**
   * transaction lock, one key: start-up's writes take turns between servers starting together (the
   * first run's reference data and administrator, modules/first-run.ts; the derived triggers' install and
   * rebuild, db/derived.ts)
   */
  startUp: 4242,
  /** session lock, one key: one server installs pg-boss's schema at a time (the daily run's scheduler) */
  jobQueueInstall: 4243,
  /** transaction lock, two keys (this and the company's id): one company's daily run writes at a time */
  rentCycleRun: 4243,
  /** transaction lock, two keys (this and the lease's id): one lease's rent is posted by one writer at a time */
  rentPosting: 4244,
  /** transaction lock, two keys (this and the company's id): one server posts a company's history (the upgrade) */
  booksHistory: 4245,
  /** transaction lock, two keys (this and the unit's id): one lease of a unit is written at a time (a unit is let once) */
  unitLetting: 4246,
  /** transaction lock, two keys (this and the company's id): one billing run of a company's meters at a time */
  utilityBilling: 4247,
} as const;
