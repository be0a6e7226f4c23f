import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoleName } from '@kodi/domain';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { TestClient } from '../../test/client.ts';
import { buildCompany, buildUser } from '../../test/factories.ts';
import { validTenant, validUnit } from '../../test/entities.ts';
import { ownerStatement } from '../../modules/owner-money/owner-money.ts';
import { postMonthlyFees } from '../../modules/books/owner-fees.ts';

type Row = Record<string, unknown>;
type Line = { code: string; debit: string; credit: string; owner_id: number | null };

/**
 * Issue 27, the books of an agency (docs/decisions.md "What money events post for an owned
 * property"): rent, payments, expenses, voids, fees, rental tax, payouts and statements of owned
 * properties, and the company's own property posting as before.
 */
describe(`the books of an agency (${testDriver})`, () => {
  let t: TestContext;
  let companyId: number;
  let admin: TestClient;
  let stranger: TestClient;
  const c: Partial<Record<RoleName, TestClient>> = {};
  let o1: number;
  let o2: number;
  let p1: number;
  let p2: number;
  let p3: number;
  let p4: number;
  let u1: number;
  let u2: number;
  let u3: number;
  let t1: number;
  let t2: number;
  let t3: number;
  let pay1: number;
  let l3: number;

  const as = async (role: RoleName, company = companyId) => {
    const u = await buildUser(t.database, { company_id: company, roles: [role] });
    const client = new TestClient(t.app);
    expect((await client.login(u.email, u.password)).statusCode).toBe(200);
    return client;
  };
  const make = async (path: string, body: Row): Promise<number> => {
    const res = await admin.post(path, body);
    if (res.statusCode !== 201) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
    return Number(res.json<Row>().id);
  };
  /** owners from long ago (a PUT sets them from today: the test moves the set back in time) */
  const own = async (property: number, shares: { owner_id: number; share_percent: number }[]) => {
    expect((await admin.put(`/properties/${property}/owners`, shares)).statusCode).toBe(200);
    await t.database.query(
      `UPDATE property_owner_sets SET effective_from = '2026-01-01' WHERE company_id = $1 AND property_id = $2`,
      [companyId, property],
    );
  };
  const agree = async (property: number, terms: Row) =>
    expect((await admin.put(`/properties/${property}/agreement`, terms)).statusCode).toBe(200);
  /** The lines of the entries of a source and source id, oldest first. */
  const lines = async (source: string, sourceId?: number): Promise<Line[]> =>
    t.database.query<Line>(
      `SELECT a.code, l.debit::text AS debit, l.credit::text AS credit, l.owner_id
         FROM journal_entries e JOIN journal_lines l ON l.company_id = e.company_id AND l.entry_id = e.id
         JOIN ledger_accounts a ON a.company_id = l.company_id AND a.id = l.account_id
        WHERE e.company_id = $1 AND e.source = $2 AND ($3::int IS NULL OR e.source_id = $3)
        ORDER BY l.entry_id, l.id`,
      [companyId, source, sourceId ?? null],
    );
  /** Σ credit − debit of an owner's funds held lines (the journal's own figure). */
  const held = async (owner: number): Promise<string> =>
    (
      await t.database.query<{ s: string }>(
        `SELECT coalesce(sum(l.credit - l.debit), 0)::numeric(18,2)::text AS s FROM journal_lines l
           JOIN ledger_accounts a ON a.company_id = l.company_id AND a.id = l.account_id AND a.role = 'owner_funds'
          WHERE l.company_id = $1 AND l.owner_id = $2`,
        [companyId, owner],
      )
    )[0]?.s ?? '';
  type Period = { from: string; to: string };
  const statement = async (owner: number, client = admin) => {
    const res = await client.get(`/owners/${owner}/statement?from=2026-11-01&to=2099-12-31`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{
      from: string;
      to: string;
      properties: (Row & { property_id: number; arrears: Row[] })[];
      totals: Record<string, string>;
    }>();
  };
  const D = (n: number) => `${n.toFixed(2)}`;

  beforeAll(async () => {
    t = await setupApp();
    companyId = (await buildCompany(t.database, { name: 'Acacia Agency' })).id;
    const other = (await buildCompany(t.database, { name: 'Other Agency' })).id;
    admin = await as('admin');
    stranger = await as('admin', other);
    for (const role of ['company_admin', 'editor', 'viewer'] as const) c[role] = await as(role);
    o1 = await make('/owners', { first_name: 'Grace', last_name: 'Namuli', payout_method: 'bank' });
    o2 = await make('/owners', { company_name: 'Diaspora Ltd', payout_method: 'mobilemoney' });
    p1 = await make('/properties', { name: 'Kololo Court', address: 'Kololo' });
    p2 = await make('/properties', { name: 'Own Block', address: 'Ntinda' });
    p3 = await make('/properties', { name: 'Bugolobi Flats', address: 'Bugolobi' });
    p4 = await make('/properties', { name: 'Empty Plot', address: 'Gulu' });
    u1 = await make('/units', validUnit({ name: 'K1', property_id: p1 }));
    u2 = await make('/units', validUnit({ name: 'N1', property_id: p2 }));
    u3 = await make('/units', validUnit({ name: 'B1', property_id: p3 }));
    await own(p1, [
      { owner_id: o1, share_percent: 60 },
      { owner_id: o2, share_percent: 40 },
    ]);
    await own(p3, [{ owner_id: o2, share_percent: 100 }]);
    await own(p4, [{ owner_id: o1, share_percent: 100 }]);
    await agree(p1, {
      fee_kind: 'percent_of_collected',
      fee_amount: 10,
      minimum_fee: 150000,
      reserve: 100000,
      withhold_rental_tax: true,
      rental_tax_rate: 7.5,
    });
    await agree(p3, { fee_kind: 'per_occupied_unit', fee_amount: 20000 });
    await agree(p4, { fee_kind: 'fixed_monthly', fee_amount: 30000, minimum_fee: 35000 });
    t1 = await make(
      '/tenants',
      validTenant({ first_name: 'Tom', phone: '+256772000001', email: 't1@example.com' }),
    );
    t2 = await make(
      '/tenants',
      validTenant({ first_name: 'Ann', phone: '+256772000002', email: 't2@example.com' }),
    );
    t3 = await make(
      '/tenants',
      validTenant({ first_name: 'Bob', phone: '+256772000003', email: 't3@example.com' }),
    );
    const lease = (tenant: number, unit: number, rate: number, end: string | null) =>
      make('/occupancy', { tenant_id: tenant, unit_id: unit, start_date: '2026-11-01', end_date: end, rate });
    await lease(t1, u1, 1000000, '2026-11-30');
    await lease(t2, u2, 700000, '2026-11-30');
    l3 = await lease(t3, u3, 500000, null);
  }, 180_000);
  afterAll(async () => {
    await t?.app.close();
  });

  const payment = (tenant: number, unit: number, amount: number, date: string, method = 'cash') =>
    make('/payments', {
      tenant_id: tenant,
      unit_id: unit,
      payment_date: date,
      amount_paid: amount,
      payment_method: method,
      status: 'completed',
      effective_start_date: '2026-11-01',
      effective_end_date: '2026-11-30',
    });

  it("posts an owned property's rent as due to its owners, never income; the company's own as before", async () => {
    const rent = await t.database.query<{ code: string; credit: string; property_id: number }>(
      `SELECT a.code, l.credit::text AS credit, l.property_id FROM journal_entries e
         JOIN journal_lines l ON l.company_id = e.company_id AND l.entry_id = e.id
         JOIN ledger_accounts a ON a.company_id = l.company_id AND a.id = l.account_id
        WHERE e.company_id = $1 AND e.source = 'rent' AND e.date = '2026-11-01' AND l.credit > 0
        ORDER BY l.property_id`,
      [companyId],
    );
    expect(rent).toEqual([
      { code: '2210', credit: '1000000.00', property_id: p1 },
      { code: '4000', credit: '700000.00', property_id: p2 },
      { code: '2210', credit: '500000.00', property_id: p3 },
    ]);
  });

  it("credits the owners' funds by their shares for a payment, less the fee and the rental tax; an expense debits them", async () => {
    pay1 = await payment(t1, u1, 1000000, '2026-11-05');
    expect(await lines('payment', pay1)).toEqual([
      { code: '1000', debit: '1000000.00', credit: '0.00', owner_id: null },
      { code: '1100', debit: '0.00', credit: '1000000.00', owner_id: null },
      { code: '2210', debit: '1000000.00', credit: '0.00', owner_id: null },
      { code: '2200', debit: '0.00', credit: '600000.00', owner_id: o1 },
      { code: '2200', debit: '0.00', credit: '400000.00', owner_id: o2 },
    ]);
    expect(await lines('management_fee', pay1)).toEqual([
      { code: '4300', debit: '0.00', credit: '100000.00', owner_id: null },
      { code: '2200', debit: '60000.00', credit: '0.00', owner_id: o1 },
      { code: '2200', debit: '40000.00', credit: '0.00', owner_id: o2 },
    ]);
    expect(await lines('rental_tax', pay1)).toEqual([
      { code: '2300', debit: '0.00', credit: '75000.00', owner_id: null },
      { code: '2200', debit: '45000.00', credit: '0.00', owner_id: o1 },
      { code: '2200', debit: '30000.00', credit: '0.00', owner_id: o2 },
    ]);
    // the company's own property: as before, two lines
    const own = await payment(t2, u2, 700000, '2026-11-05');
    expect(await lines('payment', own)).toEqual([
      { code: '1000', debit: '700000.00', credit: '0.00', owner_id: null },
      { code: '1100', debit: '0.00', credit: '700000.00', owner_id: null },
    ]);
    expect(await lines('management_fee', own)).toEqual([]);
    // an expense of the owned property is paid from the owners' funds; of the own one, an expense
    const exp = await make('/expenses', {
      unit_id: u1,
      expense_date: '2026-11-10',
      amount: 200000,
      category: 'repairs',
    });
    expect(await lines('expense', exp)).toEqual([
      { code: '1000', debit: '0.00', credit: '200000.00', owner_id: null },
      { code: '2200', debit: '120000.00', credit: '0.00', owner_id: o1 },
      { code: '2200', debit: '80000.00', credit: '0.00', owner_id: o2 },
    ]);
    const ownExp = await make('/expenses', {
      unit_id: u2,
      expense_date: '2026-11-10',
      amount: 5000,
      category: 'repairs',
    });
    expect((await lines('expense', ownExp)).map((l) => l.code)).toEqual(['5050', '1000']);
    expect(await held(o1)).toBe('375000.00');
    expect(await held(o2)).toBe('250000.00');
    // the journal answers each line's owner, and finds an owner's entries
    const journal = await c.viewer!.get(`/journal?owner_id=${o1}&source=expense`);
    expect(
      journal.json<{ lines: { owner_id: number | null }[] }[]>().map((e) => e.lines.map((l) => l.owner_id)),
    ).toEqual([[null, o1, o2]]);
  });

  it('answers a statement that reconciles and equals the journal, with occupancy and arrears', async () => {
    const s = await statement(o1, c.viewer);
    const k1 = s.properties.find((p) => p.property_id === p1);
    expect(k1).toMatchObject({
      property_name: 'Kololo Court',
      share_percent: 60,
      opening_balance: '0.00',
      collected: '600000.00',
      expenses: '120000.00',
      management_fees: '60000.00',
      rental_tax: '45000.00',
      payouts: '0.00',
      adjustments: '0.00',
      closing_balance: '375000.00',
      reserve: '60000.00',
      available: '315000.00',
      units: 1,
    });
    expect(s.properties.find((p) => p.property_id === p4)).toMatchObject({
      closing_balance: '0.00',
      units: 0,
    });
    expect(s.totals).toMatchObject({ closing_balance: '375000.00', available: '315000.00' });
    // the owner portal's way in: the same function
    const direct = await ownerStatement(t.database.db, companyId, o2, '2026-11-01', '2099-12-31');
    expect(direct.totals.closing_balance).toBe(await held(o2));
    const b1 = direct.properties.find((p) => p.property_id === p3);
    // Bob owes his rent on the property (names and amounts only)
    expect(b1?.arrears[0]).toMatchObject({ tenant_name: 'Bob Namuli', unit_name: 'B1' });
    expect(Object.keys(b1?.arrears[0] ?? {}).sort()).toEqual(['amount', 'tenant_name', 'unit_name']);
    // a later window opens with what the earlier closed
    const dec = (await admin.get(`/owners/${o1}/statement?from=2026-12-01&to=2026-12-31`)).json<typeof s>();
    expect(dec.totals).toMatchObject({
      opening_balance: '375000.00',
      collected: '0.00',
      closing_balance: '375000.00',
    });
    expect((await stranger.get(`/owners/${o1}/statement`)).statusCode).toBe(404);
    expect((await admin.get(`/owners/${o1}/statement?from=2026-12-01&to=2026-11-01`)).statusCode).toBe(400);
    // `from` alone (what the web sends): through the month's end, or the company's today if sooner
    const oct = (await admin.get(`/owners/${o1}/statement?from=2026-10-01`)).json<Period>();
    expect([oct.from, oct.to]).toEqual(['2026-10-01', '2026-10-31']);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Kampala' }).format(new Date());
    const now = (await admin.get(`/owners/${o1}/statement?from=${today.slice(0, 7)}-01`)).json<Period>();
    expect([now.from, now.to]).toEqual([`${today.slice(0, 7)}-01`, today]);
  });

  it('pays owners out up to what is available, above it only overridden with a reason; lists and proposes', async () => {
    const body = { owner_id: o1, date: '2026-11-30', amount: 400000, method: 'bank', reference: 'TRX-1' };
    const above = await admin.post('/owner-payouts', body);
    expect(above.statusCode).toBe(409);
    expect(above.json<Row>()).toMatchObject({ code: 'above_available' });
    expect(String(above.json<Row>().error)).toContain('315,000');
    const noReason = await admin.post('/owner-payouts', { ...body, override: true });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json<{ fields: Row }>().fields.reason).toBeDefined();
    expect((await c.editor!.post('/owner-payouts', { ...body, amount: 1000 })).statusCode).toBe(403);
    expect((await stranger.post('/owner-payouts', { ...body, amount: 1000 })).statusCode).toBe(404);

    const ok = await c.company_admin!.post('/owner-payouts', { ...body, amount: 300000 });
    expect(ok.statusCode, ok.body).toBe(201);
    const payout = ok.json<Row>();
    expect(payout).toMatchObject({ owner_name: 'Grace Namuli', amount: '300000.00', override_reason: null });
    expect(await lines('owner_payout', Number(payout.id))).toEqual([
      { code: '2200', debit: '300000.00', credit: '0.00', owner_id: o1 },
      { code: '1020', debit: '0.00', credit: '300000.00', owner_id: null },
    ]);
    const over = await admin.post('/owner-payouts', {
      ...body,
      amount: 20000,
      method: 'mobilemoney',
      override: true,
      reason: 'School fees, agreed by phone',
    });
    expect(over.statusCode, over.body).toBe(201);
    expect(over.json<Row>().override_reason).toBe('School fees, agreed by phone');
    const audit = await t.database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_entries WHERE company_id = $1 AND entity = 'owner_payouts'`,
      [companyId],
    );
    expect(audit[0]?.n).toBe(2);

    const s = await statement(o1);
    expect(s.properties.find((p) => p.property_id === p1)).toMatchObject({
      payouts: '320000.00',
      closing_balance: '55000.00',
      available: '0.00',
    });
    expect(await held(o1)).toBe('55000.00');

    const list = await c.viewer!.get(`/owner-payouts?owner_id=${o1}&from=2026-11-01&to=2026-11-30`);
    expect(list.statusCode).toBe(200);
    expect(list.headers['x-total-count']).toBe('2');
    expect(list.json<Row[]>().map((p) => p.amount)).toEqual(['20000.00', '300000.00']);
    expect((await admin.get(`/owner-payouts?owner_id=${o2}`)).json<Row[]>()).toEqual([]);
    expect((await stranger.get('/owner-payouts')).json<Row[]>()).toEqual([]);
    const xlsx = await admin.get(`/owner-payouts/export?fmt=xlsx&owner_id=${o1}`);
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');

    const proposal = await admin.post('/owner-payouts/propose', { as_of: '2099-12-31' });
    expect(proposal.statusCode).toBe(200);
    expect(proposal.json<Row[]>()).toEqual([
      expect.objectContaining({
        owner_id: o2,
        held: '250000.00',
        reserve: '40000.00',
        available: '210000.00',
      }),
      expect.objectContaining({ owner_id: o1, held: '55000.00', reserve: '60000.00', available: '0.00' }),
    ]);
    expect((await c.editor!.post('/owner-payouts/propose', {})).statusCode).toBe(403);
  });

  it('reverses exactly on a void: the owners’ funds, the fee and the tax', async () => {
    const before = await statement(o1);
    const p = await payment(t1, u1, 50000, '2026-11-20', 'mobilemoney');
    expect(await held(o1)).toBe(D(55000 + 30000 - 3000 - 2250));
    expect((await admin.post(`/payments/${p}/void`, { reason: 'Bounced' })).statusCode).toBe(200);
    expect(await held(o1)).toBe('55000.00');
    const voids = await t.database.query<{ source: string; reverses: string }>(
      `SELECT e.source, r.source AS reverses FROM journal_entries e
         JOIN journal_entries r ON r.company_id = e.company_id AND r.id = e.reverses_id
        WHERE e.company_id = $1 AND r.source_id = $2 AND r.source IN ('payment', 'management_fee', 'rental_tax')
        ORDER BY r.id`,
      [companyId, p],
    );
    expect(voids).toEqual([
      { source: 'payment_void', reverses: 'payment' },
      { source: 'payment_void', reverses: 'management_fee' },
      { source: 'payment_void', reverses: 'rental_tax' },
    ]);
    expect((await statement(o1)).totals).toEqual(before.totals);
  });

  it("shows the owners' funds in the trial balance and the balance sheet", async () => {
    const tb = (await admin.get('/reports/trial-balance?as_of=2099-12-31')).json<{
      accounts: { code: string; debit: string; credit: string }[];
      total_debit: string;
      total_credit: string;
    }>();
    expect(tb.accounts.find((a) => a.code === '2200')).toMatchObject({ credit: '305000.00' });
    expect(tb.accounts.find((a) => a.code === '4300')).toMatchObject({ credit: '100000.00' });
    expect(tb.accounts.find((a) => a.code === '2300')).toMatchObject({ credit: '75000.00' });
    expect(tb.accounts.find((a) => a.code === '4000')).toMatchObject({ credit: '700000.00' });
    expect(tb.total_debit).toBe(tb.total_credit);
    // every owner's statement adds up to the account
    const sum = (await statement(o1)).totals.closing_balance;
    const sum2 = (await statement(o2)).totals.closing_balance;
    expect(Number(sum) + Number(sum2)).toBe(305000);
    const bs = (await admin.get('/reports/balance-sheet?as_of=2099-12-31')).json<{
      liabilities: { name: string; balance: string }[];
      total_assets: string;
      total_liabilities_and_equity: string;
    }>();
    expect(bs.liabilities).toContainEqual(
      expect.objectContaining({ name: 'Owner funds held', balance: '305000.00' }),
    );
    expect(bs.total_assets).toBe(bs.total_liabilities_and_equity);
  });

  it('posts the monthly fees on the first of the month by the daily run, once, honouring the minimum', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await admin.post('/rent-cycle/run', { as_of: '2026-12-01' });
      expect(res.statusCode, res.body).toBe(200);
    }
    const fees = await t.database.query<{
      key: string;
      date: string;
      property_id: number;
      owner_id: number;
      debit: string;
    }>(
      `SELECT e.key, to_char(e.date, 'YYYY-MM-DD') AS date, l.property_id, l.owner_id, l.debit::text AS debit
         FROM journal_entries e JOIN journal_lines l ON l.company_id = e.company_id AND l.entry_id = e.id
        WHERE e.company_id = $1 AND e.source = 'monthly_fee' AND l.owner_id IS NOT NULL
        ORDER BY e.key, l.owner_id`,
      [companyId],
    );
    expect(fees).toEqual(
      [
        // Kololo Court's 10% earned 100,000 in November: 50,000 more for its minimum of 150,000
        {
          key: `monthly_fee:${p3}:2026-12`,
          date: '2026-12-01',
          property_id: p3,
          owner_id: o2,
          debit: '20000.00',
        },
        {
          key: `monthly_fee:${p4}:2026-12`,
          date: '2026-12-01',
          property_id: p4,
          owner_id: o1,
          debit: '35000.00',
        },
        {
          key: `monthly_fee:min:${p1}:2026-11`,
          date: '2026-12-01',
          property_id: p1,
          owner_id: o1,
          debit: '30000.00',
        },
        {
          key: `monthly_fee:min:${p1}:2026-11`,
          date: '2026-12-01',
          property_id: p1,
          owner_id: o2,
          debit: '20000.00',
        },
      ].sort((a, b) => a.key.localeCompare(b.key) || a.owner_id - b.owner_id),
    );
    const s = await statement(o1);
    expect(s.totals).toMatchObject({ management_fees: D(60000 + 30000 + 35000) });
    expect(s.totals.closing_balance).toBe(await held(o1));
  });

  it('posts each monthly fee once when two runs post at once', async () => {
    const [a, b] = await Promise.all([
      postMonthlyFees(t.database, companyId, '2027-01-01', '2027-01-01'),
      postMonthlyFees(t.database, companyId, '2027-01-01', '2027-01-01'),
    ]);
    expect((a ?? 0) + (b ?? 0)).toBe(3); // Bugolobi's and Empty Plot's fees, Kololo Court's minimum for December
    const [n] = await t.database.query<{ n: number; keys: number }>(
      `SELECT count(*)::int AS n, count(DISTINCT key)::int AS keys FROM journal_entries
        WHERE company_id = $1 AND source = 'monthly_fee' AND date = '2027-01-01'`,
      [companyId],
    );
    expect(n).toEqual({ n: 3, keys: 3 });
  });

  it("posts an owned property's charges and their waivers against the rent due to owners", async () => {
    const charge = await admin.post(`/occupancy/${l3}/charges`, {
      date: '2026-12-05',
      category: 'utility',
      description: 'Water',
      amount: 40000,
    });
    expect(charge.statusCode, charge.body).toBe(201);
    const id = Number(charge.json<Row>().id);
    expect((await lines('charge', id)).map((l) => [l.code, l.debit, l.credit])).toEqual([
      ['1100', '40000.00', '0.00'],
      ['2210', '0.00', '40000.00'],
    ]);
    expect((await admin.post(`/charges/${id}/waive`, { reason: 'Leak' })).statusCode).toBe(201);
    const waiver = await t.database.query<{ code: string; debit: string }>(
      `SELECT a.code, l.debit::text AS debit FROM journal_entries e
         JOIN journal_lines l ON l.company_id = e.company_id AND l.entry_id = e.id
         JOIN ledger_accounts a ON a.company_id = l.company_id AND a.id = l.account_id
        WHERE e.company_id = $1 AND e.source = 'waiver' AND l.debit > 0`,
      [companyId],
    );
    expect(waiver).toEqual([{ code: '2210', debit: '40000.00' }]);
  });

  it('answers the statement as a PDF of real text', async () => {
    const res = await c.viewer!.get(`/owners/${o2}/statement.pdf?from=2026-11-01&to=2026-12-31`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain(`owner_statement_${o2}_2026-11-01_2026-12-31.pdf`);
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    if (process.env.OWNER_PDF_OUT)
      (await import('node:fs')).writeFileSync(process.env.OWNER_PDF_OUT, res.rawPayload);
    expect((await stranger.get(`/owners/${o2}/statement.pdf`)).statusCode).toBe(404);
  });
});
