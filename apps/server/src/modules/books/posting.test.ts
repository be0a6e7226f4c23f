import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { TestClient } from '../../test/client.ts';
import { buildCompany, buildUser } from '../../test/factories.ts';
import { validTenant, validUnit } from '../../test/entities.ts';
import { validCommissionWage, validEmployee, validExpense } from '../../test/operations-bodies.ts';

type Line = {
  code: string;
  debit: string;
  credit: string;
  occupancy_id: number | null;
  unit_id: number | null;
};

/**
 * A lease's receivable less its rent (the lease starts before today: its rent is posted too, issue 25
 * "Rent posting"), so that these tests read what the other sources post.
 */
const RECEIVABLE_BUT_RENT = `SELECT (b.receivable - coalesce((
    SELECT sum(l.debit - l.credit) FROM journal_lines l
      JOIN journal_entries e ON e.company_id = l.company_id AND e.id = l.entry_id
      JOIN ledger_accounts a ON a.company_id = l.company_id AND a.id = l.account_id
     WHERE l.company_id = b.company_id AND l.occupancy_id = b.occupancy_id AND a.role = 'receivable'
       AND e.source IN ('rent', 'rent_adjustment', 'opening_balance')), 0))::text AS receivable
  FROM lease_balances b WHERE b.company_id = $1 AND b.occupancy_id = $2`;

describe(`books: what each money event posts (${testDriver})`, () => {
  let t: TestContext;
  let admin: TestClient;
  let companyId: number;
  let unit: { id: number };
  let tenant: { id: number };
  let leaseId: number;

  beforeEach(async () => {
    t = await setupApp();
    companyId = (await buildCompany(t.database, { name: 'Kampala Homes' })).id;
    const u = await buildUser(t.database, { company_id: companyId, roles: ['admin'] });
    admin = new TestClient(t.app);
    await admin.login(u.email, u.password);
    unit = (await admin.post('/units', validUnit())).json();
    tenant = (await admin.post('/tenants', validTenant())).json();
    const lease = await admin.post('/occupancy', {
      tenant_id: tenant.id,
      unit_id: unit.id,
      start_date: '2026-01-01',
      rate: 1500000,
    });
    expect(lease.statusCode, lease.body).toBe(201);
    leaseId = Number(lease.json().id);
  });
  afterEach(async () => {
    await t.app.close();
  });

  /** Each entry of a source: its lines (account code, amounts, dimensions), in order. */
  const entries = async (source: string) => {
    const rows = await t.database.query<Line & { entry_id: number; source_id: number }>(
      `SELECT l.entry_id, e.source_id, a.code, l.debit::text AS debit, l.credit::text AS credit, l.occupancy_id, l.unit_id
         FROM journal_entries e JOIN journal_lines l ON l.company_id = e.company_id AND l.entry_id = e.id
         JOIN ledger_accounts a ON a.company_id = l.company_id AND a.id = l.account_id
        WHERE e.company_id = $1 AND e.source = $2 ORDER BY l.entry_id, l.id`,
      [companyId, source],
    );
    const out = new Map<number, { source_id: number; lines: Line[] }>();
    for (const r of rows) {
      const e = out.get(r.entry_id) ?? { source_id: r.source_id, lines: [] };
      e.lines.push({
        code: r.code,
        debit: r.debit,
        credit: r.credit,
        occupancy_id: r.occupancy_id,
        unit_id: r.unit_id,
      });
      out.set(r.entry_id, e);
    }
    return [...out.values()];
  };

  const payment = (overrides: Record<string, unknown> = {}) => ({
    tenant_id: tenant.id,
    unit_id: unit.id,
    payment_date: '2026-02-05',
    amount_paid: 1500000,
    payment_method: 'mobilemoney',
    status: 'completed',
    effective_start_date: '2026-02-01',
    effective_end_date: '2026-02-28',
    ...overrides,
  });

  it('posts a completed payment once (Dr mobile money, Cr receivable) and reverses it when it stops being completed', async () => {
    const res = await admin.post('/payments', payment());
    expect(res.statusCode, res.body).toBe(201);
    const p = res.json();
    expect(await entries('payment')).toEqual([
      {
        source_id: p.id,
        lines: [
          { code: '1010', debit: '1500000.00', credit: '0.00', occupancy_id: leaseId, unit_id: unit.id },
          { code: '1100', debit: '0.00', credit: '1500000.00', occupancy_id: leaseId, unit_id: unit.id },
        ],
      },
    ]);
    const [balance] = await t.database.query<{ receivable: string }>(RECEIVABLE_BUT_RENT, [
      companyId,
      leaseId,
    ]);
    expect(balance?.receivable).toBe('-1500000.00');
    // completed → void: the reversal ('payment_void'); its figures cannot be changed instead
    const changed = await admin.put(`/payments/${p.id}`, {
      ...payment({ status: 'failed' }),
      version: p.version,
    });
    expect(changed.statusCode, changed.body).toBe(409);
    const voided = await admin.post(`/payments/${p.id}/void`, { reason: 'Entered twice' });
    expect(voided.statusCode, voided.body).toBe(200);
    const voids = await entries('payment_void');
    expect(voids).toHaveLength(1);
    expect(voids[0]?.lines.map((l) => [l.code, l.debit, l.credit])).toEqual([
      ['1010', '0.00', '1500000.00'],
      ['1100', '1500000.00', '0.00'],
    ]);
    // deleting it now is refused and posts nothing more
    expect((await admin.delete(`/payments/${p.id}`)).statusCode).toBe(409);
    expect(await entries('payment_void')).toHaveLength(1);
  });

  it('posts a pending payment once, when it is completed; a completed one deleted is reversed', async () => {
    const p = (await admin.post('/payments', payment({ status: 'pending', payment_method: 'cash' }))).json();
    expect(await entries('payment')).toEqual([]);
    const done = await admin.put(`/payments/${p.id}`, {
      ...payment({ status: 'completed', payment_method: 'cash' }),
      version: p.version,
    });
    expect(done.statusCode, done.body).toBe(200);
    const again = await admin.put(`/payments/${p.id}`, {
      ...payment({ status: 'completed', payment_method: 'cash', payment_details: 'noted' }),
      version: done.json().version,
    });
    expect(again.statusCode, again.body).toBe(200);
    const posted = await entries('payment');
    expect(posted).toHaveLength(1);
    expect(posted[0]?.lines[0]?.code).toBe('1000');
    expect((await admin.delete(`/payments/${p.id}`)).statusCode).toBe(204);
    expect(await entries('payment_void')).toHaveLength(1);
  });

  it('posts every payment of a batch sent at once and of an import', async () => {
    const sent = await Promise.all(
      Array.from({ length: 12 }, (_, i) => admin.post('/payments', payment({ amount_paid: 1000 + i }))),
    );
    expect(sent.map((r) => r.statusCode)).toEqual(Array(12).fill(201));
    const rows = [
      ['Tenant', 'Unit', 'Date', 'Amount', 'Method', 'Status', 'Period start', 'Period end'],
      [
        'Grace Namuli',
        'Kololo Heights A1',
        '2026-03-05',
        '700',
        'cash',
        'completed',
        '2026-03-01',
        '2026-03-31',
      ],
      [
        'Grace Namuli',
        'Kololo Heights A1',
        '2026-03-06',
        '800',
        'cash',
        'completed',
        '2026-03-01',
        '2026-03-31',
      ],
      [
        'Grace Namuli',
        'Kololo Heights A1',
        '2026-03-07',
        '900',
        'cash',
        'pending',
        '2026-03-01',
        '2026-03-31',
      ],
    ];
    const boundary = '----kodiBooks';
    const body = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="entity"\r\n\r\npayments\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.csv"\r\n` +
        `Content-Type: application/octet-stream\r\n\r\n${rows.map((r) => r.join(',')).join('\r\n')}\r\n--${boundary}--\r\n`,
    );
    const preview = await admin.post('/imports', body, {
      'content-type': `multipart/form-data; boundary=${boundary}`,
    });
    expect(preview.statusCode, preview.body).toBe(201);
    const commit = await admin.post(`/imports/${preview.json().id}/commit`);
    expect(commit.json()).toMatchObject({ created: 3 });
    const posted = await entries('payment');
    expect(posted).toHaveLength(14);
    const [sum] = await t.database.query<{ receivable: string }>(RECEIVABLE_BUT_RENT, [companyId, leaseId]);
    // 12 × 1000 + (0 + … + 11) + 700 + 800
    expect(sum?.receivable).toBe(`-${12 * 1000 + 66 + 1500}.00`);
  });

  it('posts an expense from its paying account, re-posts a change and refuses an account that is no active asset', async () => {
    const vendor = (
      await admin.post('/vendors', { name: 'V', service_offered: 'Plumbing', phone: '+256 772 000111' })
    ).json();
    const refs = {
      unit_id: unit.id,
      other_unit_id: unit.id,
      tenant_id: tenant.id,
      vendor_id: vendor.id,
      employee_id: 0,
    };
    const [bank] = await t.database.query<{ id: number }>(
      `SELECT id FROM ledger_accounts WHERE company_id = $1 AND role = 'bank'`,
      [companyId],
    );
    const [income] = await t.database.query<{ id: number }>(
      `SELECT id FROM ledger_accounts WHERE company_id = $1 AND role = 'rental_income'`,
      [companyId],
    );
    const wrong = await admin.post('/expenses', validExpense(refs, { paid_from_account_id: income?.id }));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fields).toEqual({
      paid_from_account_id: 'The account paid from must be an active asset account.',
    });
    const e = (await admin.post('/expenses', validExpense(refs))).json();
    expect(e.paid_from_account_id).toBeGreaterThan(0);
    expect((await entries('expense'))[0]?.lines.map((l) => [l.code, l.debit, l.credit, l.unit_id])).toEqual([
      ['5000', '45000.00', '0.00', unit.id],
      ['1000', '0.00', '45000.00', unit.id],
    ]);
    const changed = await admin.put(`/expenses/${e.id}`, {
      ...validExpense(refs, { amount: 50_000, paid_from_account_id: bank?.id }),
      version: e.version,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const posted = await entries('expense');
    expect(posted).toHaveLength(2);
    expect(posted[1]?.lines.map((l) => [l.code, l.debit, l.credit])).toEqual([
      ['5000', '50000.00', '0.00'],
      ['1020', '0.00', '50000.00'],
    ]);
    expect(await entries('reversal')).toHaveLength(1);
    const [total] = await t.database.query<{ net: string }>(
      `SELECT sum(d.debit - d.credit)::text AS net FROM account_day_totals d
         JOIN ledger_accounts a ON a.company_id = d.company_id AND a.id = d.account_id
        WHERE d.company_id = $1 AND a.role = 'expense:plumbing'`,
      [companyId],
    );
    expect(total?.net).toBe('50000.00');
  });

  it("posts a paid wage to Wages and reverses it when voided; a lease's deposit held posts once", async () => {
    const employee = (await admin.post('/employees', validEmployee())).json();
    const refs = {
      unit_id: unit.id,
      other_unit_id: unit.id,
      tenant_id: tenant.id,
      vendor_id: 0,
      employee_id: employee.id,
    };
    const w = (await admin.post('/commission_wages', validCommissionWage(refs))).json();
    expect((await entries('wage'))[0]?.lines.map((l) => [l.code, l.debit, l.credit])).toEqual([
      ['5900', '800000.00', '0.00'],
      ['1020', '0.00', '800000.00'],
    ]);
    const voided = await admin.put(`/commission_wages/${w.id}`, {
      ...validCommissionWage(refs, { status: 'voided' }),
      version: w.version,
    });
    expect(voided.statusCode, voided.body).toBe(200);
    expect(await entries('wage_void')).toHaveLength(1);

    const lease = (await admin.get(`/occupancy/${leaseId}`)).json();
    const held = await admin.put(`/occupancy/${leaseId}`, {
      tenant_id: tenant.id,
      unit_id: unit.id,
      start_date: '2026-01-01',
      rate: 1500000,
      deposit_amount: 3000000,
      deposit_status: 'held',
      version: lease.version,
    });
    expect(held.statusCode, held.body).toBe(200);
    const deposits = await entries('deposit');
    expect(deposits).toEqual([
      {
        source_id: leaseId,
        lines: [
          { code: '1000', debit: '3000000.00', credit: '0.00', occupancy_id: leaseId, unit_id: unit.id },
          { code: '2100', debit: '0.00', credit: '3000000.00', occupancy_id: leaseId, unit_id: unit.id },
        ],
      },
    ]);
  });

  it('posts charges, their waivers and a settlement of the deposit', async () => {
    const charge = await admin.post(`/occupancy/${leaseId}/charges`, {
      date: '2026-02-10',
      category: 'utility',
      description: 'Water',
      amount: 20000,
    });
    expect(charge.statusCode, charge.body).toBe(201);
    expect(
      (await entries('charge'))[0]?.lines.map((l) => [l.code, l.debit, l.credit, l.occupancy_id]),
    ).toEqual([
      ['1100', '20000.00', '0.00', leaseId],
      ['4200', '0.00', '20000.00', leaseId],
    ]);
    const waived = await admin.post(`/charges/${charge.json().id}/waive`, { reason: 'Leak was ours' });
    expect(waived.statusCode, waived.body).toBe(201);
    expect((await entries('waiver'))[0]?.lines.map((l) => [l.code, l.debit, l.credit])).toEqual([
      ['4200', '20000.00', '0.00'],
      ['1100', '0.00', '20000.00'],
    ]);
    const [balance] = await t.database.query<{ receivable: string }>(RECEIVABLE_BUT_RENT, [
      companyId,
      leaseId,
    ]);
    expect(balance?.receivable).toBe('0.00');
    // the deposit held, then settled with a deduction: Security deposits held back to zero
    const lease = (await admin.get(`/occupancy/${leaseId}`)).json();
    const held = await admin.put(`/occupancy/${leaseId}`, {
      tenant_id: tenant.id,
      unit_id: unit.id,
      start_date: '2026-01-01',
      rate: 1500000,
      deposit_amount: 100000,
      deposit_status: 'held',
      version: lease.version,
    });
    expect(held.statusCode, held.body).toBe(200);
    const settled = await admin.post(`/occupancy/${leaseId}/deposit-settlement`, {
      date: '2026-03-01',
      deductions: [{ description: 'Broken window', amount: 30000 }],
      applied_to_balance: false,
      refund_method: 'cash',
    });
    expect(settled.statusCode, settled.body).toBeLessThan(300);
    const [held2] = await t.database.query<{ net: string }>(
      `SELECT sum(d.credit - d.debit)::text AS net FROM account_day_totals d
         JOIN ledger_accounts a ON a.company_id = d.company_id AND a.id = d.account_id
        WHERE d.company_id = $1 AND a.role = 'deposits_held'`,
      [companyId],
    );
    expect(held2?.net).toBe('0.00');
    const refunds = await entries('deposit_refund');
    const applied = await entries('deposit_applied');
    expect(refunds.length + applied.length).toBeGreaterThan(0);
    expect((await entries('charge')).length).toBe(2);
  });
});
