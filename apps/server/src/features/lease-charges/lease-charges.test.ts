import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { TestClient } from '../../test/client.ts';
import {
  companyWith,
  createLease,
  expectStatus,
  lateFee,
  ledgerOf,
  pay,
  runCycle,
  setSettings,
} from '../../test/rent-cycle.ts';

type Charge = {
  id: number;
  kind: string;
  category: string | null;
  amount: number;
  date: string;
  waiver: unknown;
};

describe(`a lease's charges, waivers, rate changes and deposit settlement (${testDriver})`, () => {
  let t: TestContext;
  beforeEach(async () => {
    t = await setupApp();
  });
  afterEach(async () => {
    await t.app.close();
  });

  it('adds charges beyond rent that the ledger, the arrears and the balance count; payments pay the oldest first', async () => {
    const { client } = await companyWith(t);
    const lease = await createLease(client, {
      start_date: '2026-03-01',
      end_date: '2026-03-31',
      rate: 1_000_000,
    });
    const water = expectStatus(
      await client.post(`/occupancy/${lease.id}/charges`, {
        date: '2026-03-10',
        category: 'utility',
        description: 'Water, March',
        amount: 45_000.5,
      }),
      201,
    ).json<Charge>();
    expect(water).toMatchObject({
      kind: 'charge',
      category: 'utility',
      amount: 45_000.5,
      waiver: null,
      rent_due_date: null,
    });
    // 1,000,000 pays the rent (the oldest), the water stays owed
    await pay(client, lease, '2026-03-12', 1_000_000);
    const ledger = await ledgerOf(client, lease.id, '2026-04-15');
    expect(ledger.balance).toBe(45_000.5);
    expect(ledger.entries.map((e) => [e.date, e.kind, e.description, e.amount, e.charge_id])).toEqual([
      ['2026-03-01', 'rent', 'Rent Mar 1, 2026 – Mar 31, 2026', 1_000_000, null],
      ['2026-03-10', 'charge', 'Utility: Water, March', 45_000.5, water.id],
      ['2026-03-12', 'payment', expect.stringMatching(/^Payment RCT-/), -1_000_000, null],
    ]);
    const arrears = expectStatus(await client.get('/arrears?as_of=2026-04-15'), 200).json();
    expect(arrears).toEqual([
      expect.objectContaining({ occupancy_id: lease.id, balance: 45_000.5, days_31_60: 45_000.5 }),
    ]);
    // each charge's entry says what it is, as the charges list does (issue 26); a late fee has none
    const damage = expectStatus(
      await client.post(`/occupancy/${lease.id}/charges`, {
        date: '2026-03-20',
        category: 'damage',
        description: 'Broken window',
        amount: 80_000,
      }),
      201,
    ).json<Charge>();
    const categories = (await ledgerOf(client, lease.id, '2026-04-15')).entries.map((e) => [
      e.kind,
      e.charge_id,
      e.category,
    ]);
    expect(categories).toEqual([
      ['rent', null, null],
      ['charge', water.id, 'utility'],
      ['payment', null, null],
      ['charge', damage.id, 'damage'],
    ]);
    expect(
      expectStatus(await client.get(`/occupancy/${lease.id}/charges`), 200)
        .json<Charge[]>()
        .map((c) => [c.id, c.category]),
    ).toEqual(expect.arrayContaining([[damage.id, 'damage']]));
    // the statement lists it too
    const pdf = await client.get(`/occupancy/${lease.id}/statement.pdf?as_of=2026-04-15`);
    expect(pdf.statusCode).toBe(200);
    // rules: a date before the lease, a category not listed, a negative amount
    const bad = await client.post(`/occupancy/${lease.id}/charges`, {
      date: '2026-02-01',
      category: 'parking',
      description: '',
      amount: -1,
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json<{ fields: object }>().fields).sort()).toEqual([
      'amount',
      'category',
      'description',
    ]);
    const early = await client.post(`/occupancy/${lease.id}/charges`, {
      date: '2026-02-01',
      category: 'other',
      description: 'Keys',
      amount: 1,
    });
    expect(early.json()).toMatchObject({
      fields: { date: 'The date must not be before the lease start date.' },
    });
  });

  it('waives a fee with a waiver of its own (admins and company admins), never twice, the fee kept', async () => {
    const a = await companyWith(t, ['company_admin']);
    const admin = await a.signIn(['admin']);
    const editor = await a.signIn(['editor']);
    await setSettings(admin, { late_fee: lateFee() });
    const lease = await createLease(editor, { start_date: '2026-03-01', rate: 1_000_000 });
    await runCycle(admin, '2026-03-07');
    const [fee] = expectStatus(await editor.get(`/occupancy/${lease.id}/charges`), 200).json<Charge[]>();
    expect(fee).toMatchObject({ kind: 'late_fee', amount: 50_000, date: '2026-03-07', waiver: null });
    const id = (fee as Charge).id;
    // editors and viewers may not waive
    for (const c of [editor, await a.signIn(['viewer'])]) {
      expect((await c.post(`/charges/${id}/waive`, { reason: 'Goodwill' })).json()).toMatchObject({
        code: 'forbidden',
      });
    }
    expect((await a.client.post(`/charges/${id}/waive`, { reason: '' })).statusCode).toBe(400);
    const waiver = expectStatus(
      await a.client.post(`/charges/${id}/waive`, { reason: 'First late payment' }),
      201,
    ).json();
    expect(waiver).toMatchObject({
      charge_id: id,
      occupancy_id: lease.id,
      amount: 50_000,
      reason: 'First late payment',
    });
    expect((await admin.post(`/charges/${id}/waive`, { reason: 'Again' })).json()).toMatchObject({
      code: 'duplicate',
      error: 'This charge is waived already.',
    });
    const [after] = expectStatus(await editor.get(`/occupancy/${lease.id}/charges`), 200).json<Charge[]>();
    expect(after).toMatchObject({
      id,
      amount: 50_000,
      waiver: expect.objectContaining({ reason: 'First late payment' }),
    });
    // the ledger shows the fee and its waiver; the balance is the rent alone
    const today = (waiver as { date: string }).date;
    const ledger = await ledgerOf(editor, lease.id, today);
    expect(ledger.entries.filter((e) => e.charge_id === id).map((e) => [e.kind, e.amount])).toEqual([
      ['late_fee', 50_000],
      ['waiver', -50_000],
    ]);
    // another company's charge is not found
    const b = await companyWith(t);
    expect((await b.client.post(`/charges/${id}/waive`, { reason: 'x' })).statusCode).toBe(404);
    expect((await b.client.get(`/occupancy/${lease.id}/charges`)).statusCode).toBe(404);
    // and the charges list is for every role of the company
    expect((await (await a.signIn(['viewer'])).get(`/occupancy/${lease.id}/charges`)).statusCode).toBe(200);
    expect((await new TestClient(t.app).get(`/occupancy/${lease.id}/charges`)).statusCode).toBe(401);
  });

  it('changes a lease’s rate from a day on: each period at the rate in force on its first day', async () => {
    const { client, signIn } = await companyWith(t);
    const lease = await createLease(client, { start_date: '2026-01-15', rate: 1_000_000 });
    const body = { effective_date: '2026-03-01', rate: 1_200_000 };
    const change = expectStatus(await client.post(`/occupancy/${lease.id}/rate-changes`, body), 201).json();
    expect(change).toMatchObject({ effective_date: '2026-03-01', rate: 1_200_000, source: 'manual' });
    expect((await client.post(`/occupancy/${lease.id}/rate-changes`, body)).json()).toMatchObject({
      code: 'duplicate',
    });
    expect(
      (
        await client.post(`/occupancy/${lease.id}/rate-changes`, { effective_date: '2026-01-15', rate: 5 })
      ).json(),
    ).toMatchObject({ fields: { effective_date: 'The change must come after the lease start date.' } });
    const ledger = await ledgerOf(client, lease.id, '2026-04-20');
    expect(ledger.entries.map((e) => [e.date, e.amount])).toEqual([
      ['2026-01-15', 1_000_000],
      ['2026-02-15', 1_000_000], // the period of Feb 15 – Mar 14 started before the change
      ['2026-03-15', 1_200_000],
      ['2026-04-15', 1_200_000],
    ]);
    const arrears = expectStatus(await client.get('/arrears/summary?as_of=2026-04-20'), 200).json();
    expect(arrears).toEqual({ total: 4_400_000, leases: 1 });
    expect(expectStatus(await client.get(`/occupancy/${lease.id}/rate-changes`), 200).json()).toHaveLength(1);
    const viewer = await signIn(['viewer']);
    expect((await viewer.get(`/occupancy/${lease.id}/rate-changes`)).statusCode).toBe(200);
    expect(
      (await viewer.post(`/occupancy/${lease.id}/rate-changes`, { ...body, effective_date: '2026-05-01' }))
        .statusCode,
    ).toBe(403);
  });

  it('settles a deposit once: deductions become charges, the deposit pays the balance, the rest is refunded', async () => {
    const { client } = await companyWith(t);
    const lease = await createLease(client, {
      start_date: '2026-01-01',
      end_date: '2026-03-31',
      rate: 1_000_000,
      deposit_amount: 2_000_000,
      deposit_status: 'held',
    });
    await pay(client, lease, '2026-01-01', 2_000_000); // January and February: March unpaid
    const needsMethod = await client.post(`/occupancy/${lease.id}/deposit-settlement`, {
      date: '2026-04-02',
      deductions: [{ description: 'Broken window', amount: 150_000 }],
      applied_to_balance: true,
    });
    expect(needsMethod.json()).toMatchObject({ fields: { refund_method: expect.any(String) } });
    const settled = expectStatus(
      await client.post(`/occupancy/${lease.id}/deposit-settlement`, {
        date: '2026-04-02',
        deductions: [{ description: 'Broken window', amount: 150_000 }],
        applied_to_balance: true,
        refund_method: 'mobilemoney',
      }),
      201,
    ).json();
    expect(settled).toMatchObject({
      deposit_amount: 2_000_000,
      deductions_total: 150_000,
      applied_amount: 1_150_000,
      refund_amount: 850_000,
      refund_method: 'mobilemoney',
      deposit_status: 'returned',
      deductions: [expect.objectContaining({ description: 'Broken window', amount: 150_000 })],
    });
    expect(
      (
        await client.post(`/occupancy/${lease.id}/deposit-settlement`, {
          date: '2026-04-02',
          refund_method: 'cash',
        })
      ).json(),
    ).toMatchObject({
      code: 'duplicate',
    });
    const ledger = await ledgerOf(client, lease.id, '2026-04-30');
    expect(ledger.balance).toBe(0);
    expect(ledger.entries.slice(-3).map((e) => [e.kind, e.description, e.amount])).toEqual([
      ['charge', 'Damage: Broken window', 150_000],
      ['deposit_applied', 'Deposit applied to the balance', -1_150_000],
      ['deposit_refund', 'Deposit refunded (Mobile money)', 850_000],
    ]);
    const record = expectStatus(await client.get(`/occupancy/${lease.id}`), 200).json();
    expect(record).toMatchObject({ deposit_status: 'returned' });
    expect(
      expectStatus(await client.get(`/occupancy/${lease.id}/deposit-settlement`), 200).json(),
    ).toMatchObject({ id: (settled as { id: number }).id });
    // the refund is cash going out of its method's account (the journal's money accounts); the
    // deductions are income of April (on the accrual basis), not cash
    const flow = expectStatus(await client.get('/cash-flow?from=2026-04&to=2026-04'), 200).json();
    expect(flow).toEqual([
      expect.objectContaining({ outflows: { deposit_refund: 850_000 }, total_outflow: 850_000 }),
    ]);
    const income = expectStatus(
      await client.get('/income-statement?from=2026-04&to=2026-04&basis=accrual'),
      200,
    ).json();
    expect(income).toEqual([expect.objectContaining({ other_income: 150_000, late_fees: 0 })]);
    // a lease without a deposit has nothing to settle; another company's is not found
    const none = await createLease(client, { start_date: '2026-01-01', rate: 1 });
    expect(
      (await client.post(`/occupancy/${none.id}/deposit-settlement`, { date: '2026-04-02' })).json(),
    ).toMatchObject({
      error: 'This lease has no deposit to settle.',
    });
    const b = await companyWith(t);
    expect(
      (await b.client.post(`/occupancy/${lease.id}/deposit-settlement`, { date: '2026-04-02' })).statusCode,
    ).toBe(404);
  });

  it('forfeits a deposit that the deductions use up', async () => {
    const { client } = await companyWith(t);
    const lease = await createLease(client, { start_date: '2026-01-01', rate: 100, deposit_amount: 500 });
    const settled = expectStatus(
      await client.post(`/occupancy/${lease.id}/deposit-settlement`, {
        date: '2026-01-31',
        deductions: [
          { description: 'Cleaning', amount: 200 },
          { description: 'Repainting', amount: 400 },
        ],
      }),
      201,
    ).json();
    expect(settled).toMatchObject({
      applied_amount: 500,
      refund_amount: 0,
      refund_method: null,
      deposit_status: 'forfeited',
    });
  });

  it('shows late fees and other income, less their waivers, by month in the income statement', async () => {
    const { client } = await companyWith(t);
    await setSettings(client, { late_fee: lateFee({ repeat: 'monthly', amount: 30_000 }) });
    const lease = await createLease(client, { start_date: '2026-01-01', rate: 1_000_000 });
    await runCycle(client, '2026-01-07');
    await runCycle(client, '2026-02-07'); // Jan's second fee and Feb's first, both on Feb 7
    const utility = expectStatus(
      await client.post(`/occupancy/${lease.id}/charges`, {
        date: '2026-02-03',
        category: 'utility',
        description: 'Power',
        amount: 80_000,
      }),
      201,
    ).json<Charge>();
    expectStatus(
      await client.post(`/occupancy/${lease.id}/charges`, {
        date: '2026-01-20',
        category: 'other',
        description: 'Keys',
        amount: 5_000,
      }),
      201,
    );
    const charges = expectStatus(await client.get(`/occupancy/${lease.id}/charges`), 200).json<Charge[]>();
    expect(charges.filter((c) => c.kind === 'late_fee').map((c) => c.date)).toEqual([
      '2026-01-07',
      '2026-02-07',
      '2026-02-07',
    ]);
    await client.post(`/charges/${utility.id}/waive`, { reason: 'Meter fault' });
    const waivedOn = (
      await t.database.query<{ month: string }>(
        `SELECT to_char(date, 'YYYY-MM') AS month FROM charge_waivers`,
      )
    )[0]?.month as string;
    // on the accrual basis: as the fees and charges fell due, less waivers (the journal's income accounts)
    const report = expectStatus(
      await client.get(`/income-statement?from=2026-01&to=${waivedOn}&basis=accrual`),
      200,
    ).json<
      { month: string; late_fees: number; other_income: number; rental_income: number; net_income: number }[]
    >();
    // the waiver (dated today) takes the power charge off in its own month
    const lines = report
      .map((m) => [m.month, m.late_fees, m.other_income])
      .filter(([, f, o]) => f !== 0 || o !== 0);
    expect(lines).toEqual(
      waivedOn === '2026-02'
        ? [
            ['2026-01', 30_000, 5_000],
            ['2026-02', 60_000, 0],
          ]
        : [
            ['2026-01', 30_000, 5_000],
            ['2026-02', 60_000, 80_000],
            [waivedOn, 0, -80_000],
          ],
    );
    // and January's rent as it fell due (posted to the journal as Rental income)
    expect(report[0]?.rental_income).toBeGreaterThanOrEqual(1_000_000);
    expect(report[0]?.net_income).toBe(35_000 + (report[0]?.rental_income ?? 0));
    const xlsx = await client.get('/income-statement/export?from=2026-01&to=2026-02&fmt=xlsx');
    expect(xlsx.statusCode).toBe(200);
  });
});

describe(`the rent cycle's routes: roles and company scope (${testDriver})`, () => {
  let t: TestContext;
  beforeEach(async () => {
    t = await setupApp();
  });
  afterEach(async () => {
    await t.app.close();
  });

  it('answers each role as its route says, and another company’s lease or charge is not found', async () => {
    const a = await companyWith(t);
    const b = await companyWith(t);
    const lease = await createLease(a.client, {
      start_date: '2026-01-01',
      end_date: '2026-12-31',
      rate: 1_000,
      deposit_amount: 500,
    });
    const charge = expectStatus(
      await a.client.post(`/occupancy/${lease.id}/charges`, {
        date: '2026-01-05',
        category: 'other',
        description: 'Keys',
        amount: 10,
      }),
      201,
    ).json<Charge>();
    let day = 0;
    const routes: {
      method: 'GET' | 'POST' | 'PUT';
      path: string;
      body?: () => unknown;
      allowed: string[];
    }[] = [
      {
        method: 'GET',
        path: `/occupancy/${lease.id}/charges`,
        allowed: ['viewer', 'editor', 'company_admin', 'admin'],
      },
      {
        method: 'POST',
        path: `/occupancy/${lease.id}/charges`,
        body: () => ({ date: '2026-02-01', category: 'utility', description: 'Water', amount: 5 }),
        allowed: ['editor', 'admin'],
      },
      {
        method: 'GET',
        path: `/occupancy/${lease.id}/rate-changes`,
        allowed: ['viewer', 'editor', 'company_admin', 'admin'],
      },
      {
        method: 'POST',
        path: `/occupancy/${lease.id}/rate-changes`,
        body: () => ({ effective_date: `2026-03-${String(++day).padStart(2, '0')}`, rate: 1_100 }),
        allowed: ['editor', 'admin'],
      },
      {
        method: 'GET',
        path: `/occupancy/${lease.id}/late-fee`,
        allowed: ['viewer', 'editor', 'company_admin', 'admin'],
      },
      {
        method: 'PUT',
        path: `/occupancy/${lease.id}/late-fee`,
        body: () => ({ late_fee: null }),
        allowed: ['editor', 'admin'],
      },
      { method: 'GET', path: '/company-settings', allowed: ['viewer', 'editor', 'company_admin', 'admin'] },
      {
        method: 'POST',
        path: '/rent-cycle/run',
        body: () => ({ as_of: '2026-01-02' }),
        allowed: ['company_admin', 'admin'],
      },
    ];
    for (const role of ['viewer', 'editor', 'company_admin', 'admin'] as const) {
      const c = await a.signIn([role]);
      for (const r of routes) {
        const res = await c.request(r.method, r.path, r.body?.());
        const expected = r.allowed.includes(role) ? [200, 201] : [403];
        expect(expected, `${role} ${r.method} ${r.path}: ${res.statusCode} ${res.body}`).toContain(
          res.statusCode,
        );
      }
    }
    // the waiver and the settlement last (each once): refused roles first, then the one allowed
    for (const role of ['viewer', 'editor'] as const) {
      const c = await a.signIn([role]);
      expect((await c.post(`/charges/${charge.id}/waive`, { reason: 'x' })).statusCode, role).toBe(403);
    }
    expect(
      (
        await (
          await a.signIn(['viewer'])
        ).post(`/occupancy/${lease.id}/deposit-settlement`, { date: '2026-12-31' })
      ).statusCode,
    ).toBe(403);
    // another company: every lease route and the charge are not found
    for (const r of routes.filter((x) => x.path.startsWith('/occupancy/'))) {
      const res = await b.client.request(r.method, r.path, r.body?.());
      expect(res.statusCode, `other company ${r.method} ${r.path}`).toBe(404);
    }
    expect((await b.client.get(`/occupancy/${lease.id}/deposit-settlement`)).statusCode).toBe(404);
    expect((await b.client.post(`/charges/${charge.id}/waive`, { reason: 'x' })).statusCode).toBe(404);
    expect((await b.client.get('/company-settings/logo')).statusCode).toBe(404);
    expectStatus(
      await (await a.signIn(['company_admin'])).post(`/charges/${charge.id}/waive`, { reason: 'ok' }),
      201,
    );
    expectStatus(
      await (
        await a.signIn(['editor'])
      ).post(`/occupancy/${lease.id}/deposit-settlement`, {
        date: '2026-12-31',
        refund_method: 'cash',
      }),
      201,
    );
    // signed out: 401 on reads; a change without a session's CSRF token is refused first
    const anonymous = new TestClient(t.app);
    for (const r of routes.filter((x) => x.method === 'GET')) {
      expect((await anonymous.get(r.path)).statusCode, r.path).toBe(401);
    }
  });
});
