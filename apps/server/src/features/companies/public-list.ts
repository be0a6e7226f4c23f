import { sql } from 'drizzle-orm';
import { execRows, type DbOrTx } from '../../db/client.ts';
import type { ListQuery } from '../../crud/server-entity.ts';
import { likePattern } from '../../crud/sql.ts';

/**
 * `GET /companies` for a signed-out caller (the register page's company picker): only the id and name of
 * the active companies, by name, `q` matching the name. Set as the companies ServerEntity's `publicList`.
 */
export const companiesPublicList = async (
  db: DbOrTx,
  query: ListQuery,
): Promise<{ rows: Record<string, unknown>[]; total: number }> => {
  const q = query.q?.trim();
  const where = q ? sql`c.status AND c.name ILIKE ${likePattern(q)}` : sql`c.status`;
  const [rows, count] = await Promise.all([
    execRows<{ id: number; name: string }>(
      db,
      sql`SELECT c.id, c.name FROM companies c WHERE ${where} ORDER BY lower(c.name), c.id
          LIMIT ${query.page_size} OFFSET ${(query.page - 1) * query.page_size}`,
    ),
    execRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM companies c WHERE ${where}`),
  ]);
  return {
    rows: rows.map((r) => ({ id: Number(r.id), name: r.name })),
    total: Number(count[0]?.n ?? 0),
  };
};
