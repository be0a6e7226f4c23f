import { AppError, type ErrorCode } from '@kodi/domain';
import type { Database } from '../db/client.ts';

export class RateLimitError extends AppError {
  readonly retryAfterSeconds: number;
  constructor(code: ErrorCode, retryAfterSeconds: number, message?: string) {
    super(code, message);
    this.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds));
  }
}

/**
 * A fixed-window counter in PostgreSQL, so that every server process shares it.
 * Throws 429 `rate_limited` with Retry-After once `limit` hits fall in one window.
 */
export const hitRateLimit = async (
  database: Database,
  key: string,
  limit: number,
  windowSeconds = 60,
): Promise<void> => {
  const now = Date.now();
  const windowMs = windowSeconds * 1000;
  const windowStart = new Date(Math.floor(now / windowMs) * windowMs);
  const rows = await database.query<{ count: number }>(
    `INSERT INTO rate_limits (key, window_start, count) VALUES ($1, $2, 1)
     ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + 1, updated_at = now()
     RETURNING count`,
    [key, windowStart.toISOString()],
  );
  if (Math.random() < 0.01) {
    await database.query(`DELETE FROM rate_limits WHERE window_start < now() - interval '1 hour'`);
  }
  if (Number(rows[0]?.count ?? 0) > limit) {
    throw new RateLimitError('rate_limited', (windowStart.getTime() + windowMs - now) / 1000);
  }
};

/**
 * A write on a key's counters that counts nothing: what an answer does instead of a write of its own
 * when it must take as long as one that wrote (a commit flushed to disk takes longer than a read).
 */
export const touchRateLimit = async (database: Database, key: string): Promise<void> => {
  await database.query('UPDATE rate_limits SET updated_at = now() WHERE key = $1', [key]);
};
