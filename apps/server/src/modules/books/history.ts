import { sql, type SQL } from 'drizzle-orm';
import { execRows, type Database, type DbOrTx } from '../../db/client.ts';
import { advisoryLocks } from '../../db/advisory-locks.ts';
import { books, companyDay, methodRole, type PostEntry } from './post.ts';
import { expensePosted, paymentPosted, wagePosted } from './hooks.ts';
import { postCompanyRent } from './rent.ts';

/**
 * The upgrade (issue 25, docs/decisions.md "Rent posting"): a company that had records before its
 * books has its history posted once, at start-up: rent due up to the day and opening balances
 * (modules/books/rent.ts), charges, waivers, completed payments (voided ones with their void),
 * deposits held and settled, expenses and paid wages, each as its own event would have posted it,
 * with the same keys. A record that posted already (the books were there when it was written) is
 * left out; `books_state.history_posted_at` marks a company done, under a lock per company, so two
 * servers starting together post it once, and a run cut short is finished by the next start.
 */

type Row = Record<string, unknown>;
const CHUNK = 2000;

const chunks = <T>(rows: readonly T[]): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += CHUNK) out.push(rows.slice(i, i + CHUNK));
  return out;
};

const dims = (r: Row) => ({
  property_id: r.property_id === null || r.property_id === undefined ? null : Number(r.property_id),
  unit_id: r.unit_id === null || r.unit_id === undefined ? null : Number(r.unit_id),
  occupancy_id: Number(r.occupancy_id),
  tenant_id: r.tenant_id === null || r.tenant_id === undefined ? null : Number(r.tenant_id),
});

/** Not posted yet: no entry of these sources for the record. */
const unposted = (alias: string, sources: readonly string[], id = `${alias}.id`) =>
  sql.raw(`NOT EXISTS (SELECT 1 FROM journal_entries j WHERE j.company_id = ${alias}.company_id
    AND j.source IN (${sources.map((s) => `'${s}'`).join(', ')}) AND j.source_id = ${id})`);

/**
 * A query's rows a page at a time in the order of `key` (a whole table is never held in memory):
 * `handle` gets each page; the query has no ORDER BY of its own.
 */
const paged = async (tx: DbOrTx, query: SQL, key: string, handle: (rows: Row[]) => Promise<void>) => {
  let after = 0;
  for (;;) {
    const rows = await execRows<Row>(
      tx,
      sql`SELECT * FROM (${query}) q WHERE q.${sql.raw(key)} > ${after} ORDER BY q.${sql.raw(key)} LIMIT ${CHUNK}`,
    );
    if (rows.length > 0) await handle(rows);
    if (rows.length < CHUNK) return;
    after = Number(rows[rows.length - 1]?.[key]);
  }
};

const postAll = async (tx: DbOrTx, companyId: number, entries: PostEntry[]) => {
  for (const c of chunks(entries)) await books.post(tx, companyId, c, { whenClosed: 'next_open_day' });
};

/** The history of one company but its rent, in the caller's transaction. */
const postRecords = async (tx: DbOrTx, companyId: number) => {
  const actor = { company_id: companyId, id: null };
  const leaseDims = `o.property_id, o.unit_id, o.tenant_id`;
  const income = (kind: unknown, category: unknown) =>
    kind === 'late_fee' ? 'late_fee_income' : `charge_income:${String(category ?? 'other')}`;
  // charges and late fees: Dr receivable / Cr their income account
  await paged(
    tx,
    sql`SELECT c.id, c.occupancy_id, to_char(c.date, 'YYYY-MM-DD') AS date, c.kind, c.category, c.description,
               c.amount::text AS amount, c.user_id, ${sql.raw(leaseDims)}
          FROM charges c JOIN occupancy o ON o.company_id = c.company_id AND o.id = c.occupancy_id
         WHERE c.company_id = ${companyId} AND ${unposted('c', ['charge', 'late_fee'])}`,
    'id',
    async (charges) => {
      await postAll(
        tx,
        companyId,
        charges.map((r) => ({
          date: String(r.date),
          memo: String(r.description),
          source: r.kind === 'late_fee' ? 'late_fee' : 'charge',
          source_id: Number(r.id),
          user_id: r.user_id === null ? null : Number(r.user_id),
          key: `charge:${Number(r.id)}`,
          lines: [
            { role: 'receivable', debit: String(r.amount), ...dims(r), due_date: String(r.date) },
            { role: income(r.kind, r.category), credit: String(r.amount), ...dims(r) },
          ],
        })),
      );
    },
  );
  // waivers: Dr the charge's income account / Cr receivable
  await paged(
    tx,
    sql`SELECT w.id, w.occupancy_id, to_char(w.date, 'YYYY-MM-DD') AS date, w.charge_kind, c.category, w.reason,
               to_char(c.date, 'YYYY-MM-DD') AS charge_date,
               w.amount::text AS amount, w.user_id, ${sql.raw(leaseDims)}
          FROM charge_waivers w JOIN charges c ON c.company_id = w.company_id AND c.id = w.charge_id
          JOIN occupancy o ON o.company_id = w.company_id AND o.id = w.occupancy_id
         WHERE w.company_id = ${companyId} AND ${unposted('w', ['waiver'])}`,
    'id',
    async (waivers) => {
      await postAll(
        tx,
        companyId,
        waivers.map((r) => ({
          date: String(r.date),
          memo: `Waived: ${String(r.reason ?? '')}`.slice(0, 1000),
          source: 'waiver',
          source_id: Number(r.id),
          user_id: r.user_id === null ? null : Number(r.user_id),
          key: `waiver:${Number(r.id)}`,
          lines: [
            { role: income(r.charge_kind, r.category), debit: String(r.amount), ...dims(r) },
            { role: 'receivable', credit: String(r.amount), ...dims(r), due_date: String(r.charge_date) },
          ],
        })),
      );
    },
  );
  // deposits held (and those settled since): Dr cash / Cr deposits held, on the lease's start
  await paged(
    tx,
    sql`SELECT o.id AS occupancy_id, to_char(o.start_date, 'YYYY-MM-DD') AS date,
               coalesce(s.deposit_amount, o.deposit_amount)::text AS amount, ${sql.raw(leaseDims)}
          FROM occupancy o LEFT JOIN deposit_settlements s ON s.company_id = o.company_id AND s.occupancy_id = o.id
         WHERE o.company_id = ${companyId} AND coalesce(s.deposit_amount, o.deposit_amount) > 0
           AND (s.id IS NOT NULL OR o.deposit_status = 'held') AND ${unposted('o', ['deposit'])}`,
    'occupancy_id',
    async (deposits) => {
      await postAll(
        tx,
        companyId,
        deposits.map((r) => ({
          date: String(r.date),
          memo: 'Deposit held',
          source: 'deposit',
          source_id: Number(r.occupancy_id),
          key: `deposit:${Number(r.occupancy_id)}`,
          lines: [
            { role: 'cash', debit: String(r.amount), ...dims(r) },
            { role: 'deposits_held', credit: String(r.amount), ...dims(r) },
          ],
        })),
      );
    },
  );
  // settlements: applied (Dr deposits held / Cr receivable) and refunded (Cr the refund's money account)
  await paged(
    tx,
    sql`SELECT s.id, s.occupancy_id, to_char(s.date, 'YYYY-MM-DD') AS date, s.applied_amount::text AS applied,
               s.refund_amount::text AS refund, s.refund_method, s.user_id, ${sql.raw(leaseDims)}
          FROM deposit_settlements s JOIN occupancy o ON o.company_id = s.company_id AND o.id = s.occupancy_id
         WHERE s.company_id = ${companyId} AND ${unposted('s', ['deposit_applied', 'deposit_refund'])}`,
    'id',
    async (settlements) => {
      await postAll(
        tx,
        companyId,
        settlements.flatMap((r): PostEntry[] => [
          {
            date: String(r.date),
            memo: 'Deposit applied to the balance',
            source: 'deposit_applied',
            source_id: Number(r.id),
            key: `deposit_applied:${Number(r.id)}`,
            lines: [
              { role: 'deposits_held', debit: String(r.applied), ...dims(r) },
              { role: 'receivable', credit: String(r.applied), ...dims(r) },
            ],
          },
          {
            date: String(r.date),
            memo: 'Deposit refunded',
            source: 'deposit_refund',
            source_id: Number(r.id),
            key: `deposit_refund:${Number(r.id)}`,
            lines: [
              { role: 'deposits_held', debit: String(r.refund), ...dims(r) },
              { role: methodRole(r.refund_method as string | null), credit: String(r.refund), ...dims(r) },
            ],
          },
        ]),
      );
    },
  );
  // payments completed, and voided ones (posted, then reversed on their void's day)
  await paged(
    tx,
    sql`SELECT p.id, p.occupancy_id, p.tenant_id, p.unit_id, p.property_id, to_char(p.payment_date, 'YYYY-MM-DD') AS payment_date,
               p.amount_paid::text AS amount_paid, p.payment_method, p.payment_serial, p.receipt_number, p.status,
               to_char(p.voided_at AT TIME ZONE coalesce(cs.timezone, 'UTC'), 'YYYY-MM-DD') AS void_day
          FROM payments p LEFT JOIN company_settings cs ON cs.company_id = p.company_id
         WHERE p.company_id = ${companyId} AND p.status IN ('completed', 'void') AND ${unposted('p', ['payment'])}`,
    'id',
    async (payments) => {
      for (const c of chunks(payments))
        await paymentPosted(
          tx,
          actor,
          c.map((r) => ({ after: { ...r, status: 'completed' } })),
        );
      for (const r of payments.filter((p) => p.status === 'void'))
        await books.reverse(
          tx,
          companyId,
          { source: 'payment', source_id: Number(r.id) },
          {
            date: String(r.void_day ?? r.payment_date),
            memo: `Payment ${String(r.payment_serial ?? '')} voided`,
            source: 'payment_void',
          },
        );
    },
  );
  // expenses and paid wages
  await paged(
    tx,
    sql`SELECT x.id, x.unit_id, x.property_id, to_char(x.expense_date, 'YYYY-MM-DD') AS expense_date, x.amount::text AS amount,
               x.category, x.description, x.paid_from_account_id
          FROM expenses x WHERE x.company_id = ${companyId} AND x.paid_from_account_id IS NOT NULL
           AND ${unposted('x', ['expense'])}`,
    'id',
    async (expenses) => {
      for (const c of chunks(expenses))
        await expensePosted(
          tx,
          actor,
          c.map((r) => ({ after: r })),
        );
    },
  );
  await paged(
    tx,
    sql`SELECT w.id, to_char(w.payment_date, 'YYYY-MM-DD') AS payment_date, w.amount::text AS amount, w.payment_method,
               w.description, w.status
          FROM commission_wages w WHERE w.company_id = ${companyId} AND w.status = 'paid'
           AND ${unposted('w', ['wage'])}`,
    'id',
    async (wages) => {
      for (const c of chunks(wages))
        await wagePosted(
          tx,
          actor,
          c.map((r) => ({ after: r })),
        );
    },
  );
};

/**
 * Posts the history of one company unless it is posted already: its rent through its today (a page
 * of leases per transaction), then its records and the mark, in one transaction under its lock.
 * Answers whether this call posted it.
 */
export const postCompanyHistory = async (database: Database, companyId: number): Promise<boolean> => {
  const done = async (tx: DbOrTx) =>
    (
      await execRows(
        tx,
        sql`SELECT 1 FROM books_state WHERE company_id = ${companyId} AND history_posted_at IS NOT NULL`,
      )
    ).length > 0;
  if (await done(database.db)) return false;
  // its chart first: a company written with the database's triggers off (a bulk load) has none yet
  await database.db.execute(sql`SELECT books_default_chart(${companyId})`);
  const today = await companyDay(database.db, companyId);
  await postCompanyRent(database, companyId, today);
  return database.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${advisoryLocks.booksHistory}, ${companyId})`);
    if (await done(tx)) return false;
    // the ageing of the leases touched allocated once, after all their records
    books.deferAgeing(tx);
    await postRecords(tx, companyId);
    await books.flushAgeing(tx, companyId);
    await tx.execute(
      sql`INSERT INTO books_state AS b (company_id, history_posted_at) VALUES (${companyId}, now())
          ON CONFLICT (company_id) DO UPDATE SET history_posted_at = now(), updated_at = now(), version = b.version + 1`,
    );
    return true;
  });
};

/** Start-up: the history of every company not posted yet (the upgrade; new companies post nothing). */
export const postBooksHistory = async (database: Database): Promise<number> => {
  const companies = await database.query<{ id: number }>(
    `SELECT c.id FROM companies c
      WHERE NOT EXISTS (SELECT 1 FROM books_state b WHERE b.company_id = c.id AND b.history_posted_at IS NOT NULL)
      ORDER BY c.id`,
  );
  let posted = 0;
  for (const c of companies) if (await postCompanyHistory(database, Number(c.id))) posted += 1;
  return posted;
};
