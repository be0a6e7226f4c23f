import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addDays, addMonths, formatDate, rentCharges } from '@kodi/domain';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { TestClient } from '../../test/client.ts';
import { buildCompany, buildUser } from '../../test/factories.ts';
import { validTenant, validUnit } from '../../test/entities.ts';
import { companyDay } from './post.ts';
import { postCompanyRent, postLeaseRent } from './rent.ts';

type Entry = { date: string; memo: string; source: string; key: string | null; amount: string };

describe(`books: rent posted as it falls due (${testDriver})`, () => {
  let t: TestContext;
  let admin: TestClient;
  let companyId: number;
  let unit: { id: number };
  let tenant: { id: number };
  let today: string;

  beforeEach(async () => {
    t = await setupApp();
    companyId = (await buildCompany(t.database, { name: 'Rent Homes' })).id;
    const u = await buildUser(t.database, { company_id: companyId, roles: ['admin'] });
    admin = new TestClient(t.app);
    await admin.login(u.email, u.password);
    unit = (await admin.post('/units', validUnit())).json();
    tenant = (await admin.post('/tenants', validTenant())).json();
    today = await companyDay(t.database.db, companyId);
  });
  afterEach(async () => {
    await t.app.close();
  });

  const lease = async (body: Record<string, unknown>) => {
    const res = await admin.post('/occupancy', { tenant_id: tenant.id, unit_id: unit.id, ...body });
    expect(res.statusCode, res.body).toBe(201);
    return Number(res.json().id);
  };

  /** The lease's rent, adjustment and opening entries: date, memo, source, key and receivable amount. */
  const entries = async (leaseId: number): Promise<Entry[]> =>
    t.database.query<Entry>(
      `SELECT to_char(e.date, 'YYYY-MM-DD') AS date, e.memo, e.source, e.key, sum(l.debit - l.credit)::text AS amount
         FROM journal_entries e JOIN journal_lines l ON l.company_id = e.company_id AND l.entry_id = e.id
         JOIN ledger_accounts a ON a.company_id = l.company_id AND a.id = l.account_id AND a.role = 'receivable'
        WHERE e.company_id = $1 AND e.source_id = $2 AND e.source IN ('rent', 'rent_adjustment', 'opening_balance')
        GROUP BY e.company_id, e.id ORDER BY e.id`,
      [companyId, leaseId],
    );
  const receivable = async (leaseId: number) =>
    (
      await t.database.query<{ r: string }>(
        'SELECT receivable::text AS r FROM lease_balances WHERE company_id = $1 AND occupancy_id = $2',
        [companyId, leaseId],
      )
    )[0]?.r;
  const ledgerBalance = async (leaseId: number) => {
    const res = await admin.get(`/occupancy/${leaseId}/ledger`);
    expect(res.statusCode, res.body).toBe(200);
    return Number(res.json().balance);
  };

  it('posts every period due through today when a lease is created, once, with its memo and key', async () => {
    const start = addMonths(today, -3);
    const id = await lease({ start_date: start, rate: 1000000, rent_cycle: 'monthly' });
    const due = rentCharges({ start_date: start, rate: '1000000', rent_cycle: 'monthly' }, today);
    expect(due.length).toBe(4);
    const posted = await entries(id);
    expect(posted).toEqual(
      due.map((c) => ({
        date: c.due_date,
        memo: `Rent due ${formatDate(c.due_date)}`,
        source: 'rent',
        key: `rent:${id}:${c.due_date}`,
        amount: '1000000.00',
      })),
    );
    expect(await receivable(id)).toBe('4000000.00');
    expect(await ledgerBalance(id)).toBe(4000000);
    // run again (the daily run, twice): nothing more
    expect(await postCompanyRent(t.database, companyId, today)).toBe(0);
    expect(await t.database.db.transaction((tx) => postLeaseRent(tx, companyId, [id], today))).toEqual([]);
    expect(await entries(id)).toHaveLength(4);
    // the days to come: the daily run posts each as it falls due, missed days caught up
    const later = addMonths(start, 5);
    expect(await postCompanyRent(t.database, companyId, later)).toBe(2);
    expect(await postCompanyRent(t.database, companyId, later)).toBe(0);
    expect(await receivable(id)).toBe('6000000.00');
  });

  it('adjusts periods already posted when the rate, a rate change, the end or the start change, saying why', async () => {
    const start = addMonths(today, -3);
    const id = await lease({ start_date: start, rate: 1000000, rent_cycle: 'monthly' });
    // a rate change from the third period on
    const change = await admin.post(`/occupancy/${id}/rate-changes`, {
      effective_date: addMonths(start, 2),
      rate: 1200000,
    });
    expect(change.statusCode, change.body).toBe(201);
    let adj = (await entries(id)).filter((e) => e.source === 'rent_adjustment');
    expect(adj).toEqual([
      {
        date: addMonths(start, 2),
        memo: 'Rate changed from 1,000,000 to 1,200,000',
        source: 'rent_adjustment',
        key: `rent_adjustment:${id}:${addMonths(start, 2)}:1`,
        amount: '200000.00',
      },
      {
        date: addMonths(start, 3),
        memo: 'Rate changed from 1,000,000 to 1,200,000',
        source: 'rent_adjustment',
        key: `rent_adjustment:${id}:${addMonths(start, 3)}:1`,
        amount: '200000.00',
      },
    ]);
    expect(await receivable(id)).toBe('4400000.00');
    expect(Number(await receivable(id))).toBe(await ledgerBalance(id));
    // the lease's rate changed: the first two periods
    const current = (await admin.get(`/occupancy/${id}`)).json();
    const put = await admin.put(`/occupancy/${id}`, { ...current, rate: 900000 });
    expect(put.statusCode, put.body).toBe(200);
    adj = (await entries(id)).filter((e) => e.source === 'rent_adjustment').slice(2);
    expect(adj.map((e) => [e.date, e.memo, e.amount])).toEqual([
      [start, 'Rate changed from 1,000,000 to 900,000', '-100000.00'],
      [addMonths(start, 1), 'Rate changed from 1,000,000 to 900,000', '-100000.00'],
    ]);
    expect(Number(await receivable(id))).toBe(await ledgerBalance(id));
    // ended after its second period: the third and fourth taken off
    const end = addDays(addMonths(start, 2), -1);
    const current2 = (await admin.get(`/occupancy/${id}`)).json();
    const ended = await admin.put(`/occupancy/${id}`, { ...current2, end_date: end });
    expect(ended.statusCode, ended.body).toBe(200);
    adj = (await entries(id)).filter((e) => e.source === 'rent_adjustment').slice(4);
    expect(adj.map((e) => [e.memo, e.amount])).toEqual([
      [`Lease ended ${formatDate(end)}`, '-1200000.00'],
      [`Lease ended ${formatDate(end)}`, '-1200000.00'],
    ]);
    expect(await receivable(id)).toBe('1800000.00');
    expect(Number(await receivable(id))).toBe(await ledgerBalance(id));
    // the start moved a week later: every period falls due on other days
    const current3 = (await admin.get(`/occupancy/${id}`)).json();
    const moved = await admin.put(`/occupancy/${id}`, { ...current3, start_date: addDays(start, 7) });
    expect(moved.statusCode, moved.body).toBe(200);
    const all = await entries(id);
    expect(
      all.some(
        (e) =>
          e.memo === `Lease starts ${formatDate(addDays(start, 7))}: rent due ${formatDate(start)} taken off`,
      ),
    ).toBe(true);
    expect(all.some((e) => e.key === `rent:${id}:${addDays(start, 7)}`)).toBe(true);
    expect(Number(await receivable(id))).toBe(await ledgerBalance(id));
    // every period: Σ posted = what the terms charge now
    const sums = await t.database.query<{ due: string; s: string }>(
      `SELECT to_char(due_date, 'YYYY-MM-DD') AS due, amount::text AS s FROM lease_rent_posted
        WHERE company_id = $1 AND occupancy_id = $2 AND amount <> 0 ORDER BY due_date`,
      [companyId, id],
    );
    expect(sums).toEqual([
      { due: addDays(start, 7), s: '900000.00' },
      { due: addMonths(addDays(start, 7), 1), s: '900000.00' },
    ]);
  });

  it('posts the opening balance on its date and no rent due on or before it; a change adjusts it', async () => {
    const start = addMonths(today, -4);
    const openedOn = addDays(addMonths(start, 2), 3);
    const id = await lease({
      start_date: start,
      rate: 500000,
      rent_cycle: 'monthly',
      opening_balance: 700000,
      opening_balance_date: openedOn,
    });
    const posted = await entries(id);
    expect(posted.find((e) => e.source === 'opening_balance')).toEqual({
      date: openedOn,
      memo: 'Opening balance',
      source: 'opening_balance',
      key: `opening:${id}`,
      amount: '700000.00',
    });
    const lines = await t.database.query<{ code: string; debit: string; credit: string }>(
      `SELECT a.code, l.debit::text AS debit, l.credit::text AS credit FROM journal_lines l
         JOIN journal_entries e ON e.company_id = l.company_id AND e.id = l.entry_id
         JOIN ledger_accounts a ON a.company_id = l.company_id AND a.id = l.account_id
        WHERE e.company_id = $1 AND e.key = $2 ORDER BY l.id`,
      [companyId, `opening:${id}`],
    );
    expect(lines).toEqual([
      { code: '1100', debit: '700000.00', credit: '0.00' },
      { code: '3000', debit: '0.00', credit: '700000.00' },
    ]);
    // rent from the period after the opening date only
    expect(posted.filter((e) => e.source === 'rent').map((e) => e.date)).toEqual([
      addMonths(start, 3),
      addMonths(start, 4),
    ]);
    expect(Number(await receivable(id))).toBe(await ledgerBalance(id));
    // a credit instead: the difference, saying so
    const current = (await admin.get(`/occupancy/${id}`)).json();
    const put = await admin.put(`/occupancy/${id}`, { ...current, opening_balance: -100000 });
    expect(put.statusCode, put.body).toBe(200);
    const last = (await entries(id)).at(-1);
    expect(last).toMatchObject({
      memo: 'Opening balance changed from 700,000 to -100,000',
      source: 'opening_balance',
      amount: '-800000.00',
      date: openedOn,
    });
    expect(await receivable(id)).toBe('900000.00');
    expect(Number(await receivable(id))).toBe(await ledgerBalance(id));
  });

  it('posts rent due in a closed period on the first open day', async () => {
    const closedOn = addDays(today, -10);
    const close = await admin.post('/books/close', { through: closedOn });
    expect(close.statusCode, close.body).toBe(200);
    const start = addDays(today, -40);
    const id = await lease({ start_date: start, rate: 300000, rent_cycle: 'weekly' });
    const posted = await entries(id);
    const due = rentCharges({ start_date: start, rate: '300000', rent_cycle: 'weekly' }, today);
    expect(posted).toHaveLength(due.length);
    expect(posted.map((e) => e.date)).toEqual(
      due.map((c) => (c.due_date <= closedOn ? addDays(closedOn, 1) : c.due_date)),
    );
    // the memo still names the day it fell due
    expect(posted[0]?.memo).toBe(`Rent due ${formatDate(start)}`);
    expect(Number(await receivable(id))).toBe(await ledgerBalance(id));
    // a rate change back in the closed period adjusts on the first open day too
    const change = await admin.post(`/occupancy/${id}/rate-changes`, {
      effective_date: addDays(start, 7),
      rate: 350000,
    });
    expect(change.statusCode, change.body).toBe(201);
    const adj = (await entries(id)).filter((e) => e.source === 'rent_adjustment');
    expect(adj.length).toBe(due.length - 1);
    expect(adj.every((e) => e.date > closedOn && e.memo === 'Rate changed from 300,000 to 350,000')).toBe(
      true,
    );
    expect(Number(await receivable(id))).toBe(await ledgerBalance(id));
  });

  it('takes off what a deleted lease posted', async () => {
    const id = await lease({ start_date: addMonths(today, -1), rate: 400000, rent_cycle: 'monthly' });
    expect(await receivable(id)).toBe('800000.00');
    const del = await admin.delete(`/occupancy/${id}`);
    expect(del.statusCode, del.body).toBe(204);
    expect(await receivable(id)).toBe('0.00');
    const adj = (await entries(id)).filter((e) => e.source === 'rent_adjustment');
    expect(adj).toHaveLength(2);
    expect(adj[0]?.memo).toMatch(/^Lease deleted/);
  });
});
