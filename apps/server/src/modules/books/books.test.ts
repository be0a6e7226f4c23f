import { beforeEach, describe, expect, it } from 'vitest';
import { AppError, defaultAccountNames } from '@kodi/domain';
import { resetDatabase, testDatabase, testDriver } from '../../test/harness.ts';
import { buildCompany } from '../../test/factories.ts';
import { findPgError } from '../../plugins/errors.ts';
import type { Database } from '../../db/client.ts';
import { books, type PostEntry } from './post.ts';

const pgCode = async (p: Promise<unknown>): Promise<string | undefined> => {
  try {
    await p;
    return undefined;
  } catch (err) {
    return findPgError(err)?.code;
  }
};

describe(`books: the journal's rules (${testDriver})`, () => {
  let database: Database;
  let company: number;

  const accountId = async (role: string, c = company) =>
    Number(
      (
        await database.query<{ id: number }>(
          'SELECT id FROM ledger_accounts WHERE company_id = $1 AND role = $2',
          [c, role],
        )
      )[0]?.id,
    );

  const rent = (amount: string, extra: Partial<PostEntry> = {}): PostEntry => ({
    date: '2026-03-01',
    memo: 'Rent',
    source: 'rent',
    source_id: 7,
    lines: [
      { role: 'receivable', debit: amount, occupancy_id: 7 },
      { role: 'rental_income', credit: amount, occupancy_id: 7 },
    ],
    ...extra,
  });

  const postNow = (entries: PostEntry[], opts?: { whenClosed?: 'refuse' | 'next_open_day' }) =>
    database.db.transaction((tx) => books.post(tx, company, entries, opts));

  beforeEach(async () => {
    database = await testDatabase();
    await resetDatabase(database);
    company = (await buildCompany(database)).id;
  });

  it('gives every new company the default chart', async () => {
    const rows = await database.query<{ code: string; name: string; type: string; role: string }>(
      'SELECT code, name, type, role FROM ledger_accounts WHERE company_id = $1 ORDER BY code',
      [company],
    );
    // 23 of issue 25, and the agency's four of issue 27
    expect(rows).toHaveLength(27);
    expect(rows.find((r) => r.role === 'owner_funds')).toMatchObject({ code: '2200', type: 'liability' });
    expect(rows.find((r) => r.role === 'management_fee_income')).toMatchObject({
      code: '4300',
      type: 'income',
    });
    expect(rows[0]).toMatchObject({ code: '1000', name: 'Cash on hand', type: 'asset', role: 'cash' });
    expect(rows.find((r) => r.role === 'receivable')?.code).toBe('1100');
    expect(rows.find((r) => r.role === 'expense:condo_fees')?.name).toBe('Condominium fees');
    expect(rows.find((r) => r.role === 'wages')).toMatchObject({ code: '5900', type: 'expense' });
    // the names the pages translate by role (issue 30, packages/domain/src/account-names.ts) are the chart's
    expect(Object.fromEntries(rows.map((r) => [r.role, r.name]))).toEqual(defaultAccountNames);
  });

  it('posts many entries at once, keeping day totals and lease balances; keys make it idempotent', async () => {
    const ids = await postNow([
      rent('100.50', { key: 'rent:7:2026-03-01' }),
      rent('200', { date: '2026-03-01', key: 'rent:7:x' }),
      rent('0'),
    ]);
    expect(ids).toHaveLength(2);
    const again = await postNow([rent('100.50', { key: 'rent:7:2026-03-01' })]);
    expect(again).toEqual([]);
    const totals = await database.query<{ debit: string; credit: string }>(
      `SELECT debit::text, credit::text FROM account_day_totals WHERE company_id = $1 AND account_id = $2`,
      [company, await accountId('receivable')],
    );
    expect(totals).toEqual([{ debit: '300.50', credit: '0.00' }]);
    const [balance] = await database.query<{ receivable: string }>(
      'SELECT receivable::text FROM lease_balances WHERE company_id = $1 AND occupancy_id = 7',
      [company],
    );
    expect(balance?.receivable).toBe('300.50');
    const [lines] = await database.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM journal_lines WHERE company_id = $1',
      [company],
    );
    expect(lines?.n).toBe(4);
  });

  it('reverses what a source posted once, back to zero', async () => {
    await postNow([rent('100')]);
    const reversal = await database.db.transaction((tx) =>
      books.reverse(tx, company, { source: 'rent', source_id: 7 }, { date: '2026-03-02', memo: 'Undone' }),
    );
    expect(reversal).toHaveLength(1);
    const twice = await database.db.transaction((tx) =>
      books.reverse(tx, company, { source: 'rent', source_id: 7 }, { date: '2026-03-02', memo: 'Undone' }),
    );
    expect(twice).toEqual([]);
    const [balance] = await database.query<{ receivable: string }>(
      'SELECT receivable::text FROM lease_balances WHERE company_id = $1 AND occupancy_id = 7',
      [company],
    );
    expect(balance?.receivable).toBe('0.00');
  });

  it('refuses, in the database, an entry that does not balance', async () => {
    const cash = await accountId('cash');
    const income = await accountId('rental_income');
    const code = await pgCode(
      database.db.transaction(async (tx) => {
        await tx.execute(
          `INSERT INTO journal_entries (company_id, id, date, memo, source) VALUES (${company}, 900, '2026-01-01', 'x', 'manual')`,
        );
        await tx.execute(
          `INSERT INTO journal_lines (company_id, entry_id, account_id, debit, credit, date) VALUES
             (${company}, 900, ${cash}, 10, 0, '2026-01-01'), (${company}, 900, ${income}, 0, 9, '2026-01-01')`,
        );
      }),
    );
    expect(code).toBe('23514');
    const lonely = await pgCode(
      database.query(
        `INSERT INTO journal_entries (company_id, id, date, memo, source) VALUES ($1, 901, '2026-01-01', 'x', 'manual')`,
        [company],
      ),
    );
    expect(lonely).toBe('23514');
    expect(
      await database.query('SELECT id FROM journal_entries WHERE company_id = $1', [company]),
    ).toHaveLength(0);
  });

  it("refuses, in the database, a line of another company's entry (the lines' key is the entry's id alone)", async () => {
    const other = (await buildCompany(database)).id;
    const [id] = await postNow([rent('100')]);
    const cash = await accountId('cash', other);
    const income = await accountId('rental_income', other);
    // a stray line of the other company on this company's entry, balanced among the other company's lines
    const code = await pgCode(
      database.db.transaction(async (tx) => {
        await tx.execute(
          `INSERT INTO journal_lines (company_id, entry_id, account_id, debit, credit, date) VALUES
             (${other}, ${id}, ${cash}, 5, 0, '2026-03-01'), (${other}, ${id}, ${income}, 0, 5, '2026-03-01')`,
        );
      }),
    );
    expect(code).toBe('23514');
    expect(await database.query('SELECT id FROM journal_lines WHERE entry_id = $1', [id])).toHaveLength(2);
    // the check of each line inserted reads journal_entries by its unique id (docs/performance.md,
    // "Rent posting: quadratic"), and the balance check reads journal_lines by the entry alone
    const fk = await database.query<{ def: string }>(
      `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint
        WHERE conrelid = 'journal_lines'::regclass AND confrelid = 'journal_entries'::regclass`,
    );
    expect(fk.map((r) => r.def)).toEqual([
      'FOREIGN KEY (entry_id) REFERENCES journal_entries(id) ON DELETE CASCADE',
    ]);
    const leading = await database.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        WHERE i.indrelid = 'journal_lines'::regclass
          AND i.indkey[0] = (SELECT attnum FROM pg_attribute WHERE attrelid = 'journal_lines'::regclass AND attname = 'entry_id')`,
    );
    expect(leading.map((r) => r.name)).toEqual(['journal_lines_entry_idx']);
  });

  it('refuses UPDATE and DELETE of posted entries and lines, but a company deleted takes its books', async () => {
    const [id] = await postNow([rent('100')]);
    for (const statement of [
      `UPDATE journal_entries SET memo = 'changed' WHERE id = ${id}`,
      `DELETE FROM journal_entries WHERE id = ${id}`,
      `UPDATE journal_lines SET debit = debit + 1 WHERE entry_id = ${id} AND debit > 0`,
      `DELETE FROM journal_lines WHERE entry_id = ${id}`,
    ])
      expect(await pgCode(database.query(statement)), statement).toBe('55000');
    // a purge (kodi.purge = 'on' for its transaction) may delete them
    await database.db.transaction(async (tx) => {
      await tx.execute(`SELECT set_config('kodi.purge', 'on', true)`);
      await tx.execute(`DELETE FROM journal_entries WHERE id = ${id}`);
    });
    expect(await database.query('SELECT id FROM journal_lines WHERE entry_id = $1', [id])).toHaveLength(0);
    await postNow([rent('100')]);
    await database.query('DELETE FROM companies WHERE id = $1', [company]);
    expect(await database.query('SELECT id FROM journal_entries')).toHaveLength(0);
    expect(await database.query('SELECT id FROM ledger_accounts')).toHaveLength(0);
  });

  it('refuses a posting on or before the close, or moves it to the next open day', async () => {
    await database.query(`INSERT INTO books_closings (company_id, through) VALUES ($1, '2026-03-31')`, [
      company,
    ]);
    expect(await database.db.transaction((tx) => books.closedThrough(tx, company))).toBe('2026-03-31');
    const refused = await postNow([rent('100')]).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('period_closed');
    expect((refused as AppError).message).toBe('The books are closed through Mar 31, 2026.');
    const [id] = await postNow([rent('100')], { whenClosed: 'next_open_day' });
    const [entry] = await database.query<{ date: string }>(
      `SELECT to_char(date, 'YYYY-MM-DD') AS date FROM journal_entries WHERE id = $1`,
      [id],
    );
    expect(entry?.date).toBe('2026-04-01');
    expect(await postNow([rent('100', { date: '2026-04-02' })])).toHaveLength(1);
  });
});
