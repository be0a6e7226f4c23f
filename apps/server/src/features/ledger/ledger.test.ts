import type { RoleName } from '@kodi/domain';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { localTime } from '@kodi/domain';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { TestClient } from '../../test/client.ts';
import { signInAs } from '../../test/sign-in.ts';
import { buildCompany } from '../../test/factories.ts';
import { leaseFixtures } from './ledger-fixtures.ts';
import { pdfText } from '../../test/pdf-text.ts';
import { companyDay } from '../../modules/books/post.ts';

describe(`the ledger and the tenant statement of a lease (${testDriver})`, () => {
  let t: TestContext;
  let admin: TestClient;
  let companyId: number;
  let fx: ReturnType<typeof leaseFixtures>;

  const signIn = (roles: RoleName[], company = companyId) => signInAs(t, company, roles);

  beforeEach(async () => {
    t = await setupApp();
    companyId = (await buildCompany(t.database, { name: 'Kampala Homes' })).id;
    admin = await signIn(['admin']);
    fx = leaseFixtures(admin);
  });
  afterEach(async () => {
    await t.app.close();
  });

  /** Jan 15 monthly lease of 1,000,000 with a deposit; one payment in full, one partial, one pending. */
  const leaseWithPayments = async () => {
    const l = await fx.lease('Grace', 'Namuli', 'Kololo A1', {
      start_date: '2026-01-15',
      rate: 1_000_000,
      rent_cycle: 'monthly',
      deposit_amount: 2_000_000,
      deposit_status: 'held',
    });
    const first = await fx.pay(l, '2026-01-15', 1_000_000);
    await fx.pay(l, '2026-02-20', 500_000, { payment_method: 'mobilemoney' });
    await fx.pay(l, '2026-03-01', 700_000, { status: 'pending' });
    return { ...l, first: first as { id: number; receipt_number?: string } };
  };

  it('lists charges, the deposit and completed payments in date order with the running balance', async () => {
    const l = await leaseWithPayments();
    const res = await admin.get(`/occupancy/${l.id}/ledger?as_of=2026-03-20`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      occupancy_id: l.id,
      as_of: '2026-03-20',
      balance: 1_500_000,
      entries: [
        {
          date: '2026-01-15',
          kind: 'rent',
          description: 'Rent Jan 15, 2026 – Feb 14, 2026',
          amount: 1_000_000,
          balance: 1_000_000,
          charge_id: null,
          category: null,
        },
        {
          date: '2026-01-15',
          kind: 'deposit',
          description: 'Deposit received (held)',
          amount: 2_000_000,
          balance: 1_000_000,
          charge_id: null,
          category: null,
        },
        {
          date: '2026-01-15',
          kind: 'payment',
          description: 'Payment RCT-000001 (Cash)',
          amount: -1_000_000,
          balance: 0,
          charge_id: null,
          category: null,
        },
        {
          date: '2026-02-15',
          kind: 'rent',
          description: 'Rent Feb 15, 2026 – Mar 14, 2026',
          amount: 1_000_000,
          balance: 1_000_000,
          charge_id: null,
          category: null,
        },
        {
          date: '2026-02-20',
          kind: 'payment',
          description: 'Payment RCT-000002 (Mobile money)',
          amount: -500_000,
          balance: 500_000,
          charge_id: null,
          category: null,
        },
        {
          date: '2026-03-15',
          kind: 'rent',
          description: 'Rent Mar 15, 2026 – Apr 14, 2026',
          amount: 1_000_000,
          balance: 1_500_000,
          charge_id: null,
          category: null,
        },
      ],
    });
  });

  it('is computed for today by default, and refuses a day that is not a date', async () => {
    const l = await leaseWithPayments();
    const res = await admin.get(`/occupancy/${l.id}/ledger`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ occupancy_id: l.id, as_of: localTime('Africa/Kampala').date });
    const before = await admin.get(`/occupancy/${l.id}/ledger?as_of=2026-01-14`);
    expect(before.json()).toMatchObject({ balance: 0, entries: [] });
    const bad = await admin.get(`/occupancy/${l.id}/ledger?as_of=2026-02-30`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'validation_failed', fields: { as_of: expect.any(String) } });
  });

  it('follows a void of a payment: a voided payment no longer counts (a completed one is never edited to failed)', async () => {
    const l = await leaseWithPayments();
    const p = await admin.get(`/payments/${l.first.id}`);
    const body = p.json<Record<string, unknown>>();
    const put = await admin.put(`/payments/${l.first.id}`, { ...body, status: 'failed' });
    expect(put.statusCode).toBe(409);
    const voided = await admin.post(`/payments/${l.first.id}/void`, { reason: 'Bounced' });
    expect(voided.statusCode).toBe(200);
    const res = await admin.get(`/occupancy/${l.id}/ledger?as_of=2026-03-20`);
    expect(res.json()).toMatchObject({ balance: 2_500_000 });
  });

  it('reads the rent the books posted, not the terms: the ledger, the arrears and the summary (issue 25)', async () => {
    const today = await companyDay(t.database.db, companyId);
    const start = `${Number(today.slice(0, 4)) - 1}-${today.slice(5, 7)}-01`;
    const l = await fx.lease('Posted', 'Rent', 'Ntinda B2', {
      start_date: start,
      rate: 100_000,
      rent_cycle: 'monthly',
    });
    const before = (await admin.get(`/occupancy/${l.id}/ledger`)).json<{
      balance: number;
      entries: unknown[];
    }>();
    expect(before.balance).toBe(1_300_000);
    const summary = (await admin.get('/arrears/summary')).json<{ total: number; leases: number }>();
    // a rate written behind the books' back (no posting): what was posted stays what is owed
    await t.database.query('UPDATE occupancy SET rate = 900000 WHERE company_id = $1 AND id = $2', [
      companyId,
      l.id,
    ]);
    const after = (await admin.get(`/occupancy/${l.id}/ledger`)).json<{
      balance: number;
      entries: unknown[];
    }>();
    expect(after).toEqual(before);
    const [row] = (await admin.get('/arrears')).json<
      { occupancy_id: number; balance: number; current: number }[]
    >();
    expect(row).toMatchObject({ occupancy_id: l.id, balance: 1_300_000 });
    expect((await admin.get('/arrears/summary')).json()).toEqual(summary);
    expect(summary).toEqual({ total: 1_300_000 - (today.endsWith('-01') ? 100_000 : 0), leases: 1 });
    // a payment pays the oldest posted rent first: the kept ageing follows at once
    await fx.pay(l, today, 1_250_000);
    const paid = (await admin.get('/arrears')).json<Record<string, number>[]>();
    if (today.endsWith('-01')) expect(paid).toEqual([]);
    else expect(paid[0]).toMatchObject({ balance: 50_000, days_1_30: 50_000, days_over_90: 0 });
  });

  it('is open to every role of the company and to nobody else', async () => {
    const l = await leaseWithPayments();
    const viewer = await signIn(['viewer']);
    expect((await viewer.get(`/occupancy/${l.id}/ledger?as_of=2026-03-20`)).json()).toMatchObject({
      balance: 1_500_000,
    });
    const companyAdmin = await signIn(['company_admin']);
    expect((await companyAdmin.get(`/occupancy/${l.id}/ledger`)).statusCode).toBe(200);
    const noRole = await signIn([]);
    expect((await noRole.get(`/occupancy/${l.id}/ledger`)).json()).toMatchObject({ code: 'no_role' });
    const anonymous = new TestClient(t.app);
    expect((await anonymous.get(`/occupancy/${l.id}/ledger`)).statusCode).toBe(401);

    const other = (await buildCompany(t.database, { name: 'Other Landlord' })).id;
    const stranger = await signIn(['admin'], other);
    const res = await stranger.get(`/occupancy/${l.id}/ledger`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'not_found' });
    expect((await stranger.get(`/occupancy/${l.id}/statement.pdf`)).statusCode).toBe(404);
    expect((await admin.get('/occupancy/999999/ledger')).statusCode).toBe(404);
  });

  it('prints the tenant statement as an A4 PDF with real text', async () => {
    const l = await leaseWithPayments();
    const res = await admin.get(`/occupancy/${l.id}/statement.pdf?as_of=2026-03-20`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/pdf');
    expect(res.headers['x-suggested-filename']).toBe(`statement_${l.id}.pdf`);
    expect(res.headers['content-disposition']).toContain(`statement_${l.id}.pdf`);
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // A4: 595.28 × 841.89 points
    expect(res.rawPayload.toString('latin1')).toMatch(/MediaBox \[0 0 595\.28 841\.89\]/);
    const text = pdfText(res.rawPayload);
    for (const expected of [
      'Kampala Homes',
      'Tenant Statement',
      'Grace Namuli',
      'Kololo A1',
      'Jan 15, 2026 – Mar 20, 2026',
      'Rent Jan 15, 2026 – Feb 14, 2026',
      'Payment RCT-000002 (Mobile money)',
      'Deposit received (held)',
      'Balance due',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).toMatch(/Balance due\s+UGX\s*1,500,000/);
    expect(text).not.toContain('700,000');
  });
});
