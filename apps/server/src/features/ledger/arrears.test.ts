import type { RoleName } from '@kodi/domain';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addMonths, localTime } from '@kodi/domain';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { TestClient } from '../../test/client.ts';
import { signInAs } from '../../test/sign-in.ts';
import { buildCompany } from '../../test/factories.ts';
import { leaseFixtures } from './ledger-fixtures.ts';
import { pdfText } from '../../test/pdf-text.ts';

const AS_OF = '2026-06-15';

describe(`the arrears report (${testDriver})`, () => {
  let t: TestContext;
  let admin: TestClient;
  let companyId: number;
  let fx: ReturnType<typeof leaseFixtures>;
  let grace: { id: number; tenant_id: number; unit_id: number };
  let joseph: { id: number; tenant_id: number; unit_id: number };

  const signIn = (roles: RoleName[], company = companyId) => signInAs(t, company, roles);

  const arrears = (client: TestClient, query = '') => client.get(`/arrears?as_of=${AS_OF}${query}`);

  beforeEach(async () => {
    t = await setupApp();
    companyId = (await buildCompany(t.database, { name: 'Kampala Homes' })).id;
    admin = await signIn(['admin']);
    fx = leaseFixtures(admin);

    // 6 monthly charges (Jan 1 … Jun 1) of 1,000,000, 3,500,000 paid: Apr half unpaid (75 days),
    // May (45 days) and Jun (14 days) unpaid.
    grace = await fx.lease('Grace', 'Namuli', 'Kololo A1', { start_date: '2026-01-01', rate: 1_000_000 });
    await fx.pay(grace, '2026-01-02', 2_000_000);
    await fx.pay(grace, '2026-03-03', 1_500_000);
    await fx.pay(grace, '2026-04-01', 9_000_000, { status: 'failed' });
    // weekly from Jun 1: Jun 1 and 8 overdue, Jun 15 due today (current)
    joseph = await fx.lease('Joseph', 'Okello', 'Ntinda B2', {
      start_date: '2026-06-01',
      rate: 100_000,
      rent_cycle: 'weekly',
    });
    // paid up
    const sarah = await fx.lease('Sarah', 'Nakato', 'Bugolobi C3', {
      start_date: '2026-05-01',
      rate: 500_000,
    });
    await fx.pay(sarah, '2026-05-01', 1_000_000);
    // a credit
    const moses = await fx.lease('Moses', 'Mugisha', 'Muyenga D4', {
      start_date: '2026-04-10',
      rate: 200_000,
    });
    await fx.pay(moses, '2026-04-10', 2_000_000);
    // only today's charge unpaid: not overdue, not in arrears
    const ruth = await fx.lease('Ruth', 'Auma', 'Naguru E5', { start_date: '2026-03-15', rate: 300_000 });
    await fx.pay(ruth, '2026-03-15', 900_000);
    // ended before its unpaid charges: two charges (Jan 20, Feb 20), nothing paid
    await fx.lease('Peter', 'Kintu', 'Kyanja F6', {
      start_date: '2026-01-20',
      end_date: '2026-03-19',
      rate: 250_000,
      occupancy_status: 'terminated',
    });
    // another company's lease in arrears: never seen
    const other = (await buildCompany(t.database, { name: 'Other Landlord' })).id;
    const stranger = await signIn(['admin'], other);
    await leaseFixtures(stranger).lease('Esther', 'Ssempa', 'Elsewhere', {
      start_date: '2026-01-01',
      rate: 5_000_000,
    });
  });
  afterEach(async () => {
    await t.app.close();
  });

  const graceRow = () => ({
    occupancy_id: grace.id,
    tenant_id: grace.tenant_id,
    tenant_first_name: 'Grace',
    tenant_last_name: 'Namuli',
    tenant_name: 'Grace Namuli',
    unit_id: grace.unit_id,
    unit_name: 'Kololo A1',
    balance: 2_500_000,
    current: 0,
    days_1_30: 1_000_000,
    days_31_60: 1_000_000,
    days_61_90: 500_000,
    days_over_90: 0,
    last_payment_date: '2026-03-03',
    last_payment_amount: 1_500_000,
    tenant_phone: '+256772123456',
    tenant_email: expect.any(String),
  });

  it('answers one row per lease with an overdue balance, aged, biggest balance first', async () => {
    const res = await arrears(admin);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-count']).toBe('3');
    expect(res.json()).toEqual([
      graceRow(),
      {
        occupancy_id: expect.any(Number),
        tenant_id: expect.any(Number),
        tenant_first_name: 'Peter',
        tenant_last_name: 'Kintu',
        tenant_name: 'Peter Kintu',
        unit_id: expect.any(Number),
        unit_name: 'Kyanja F6',
        balance: 500_000,
        current: 0,
        days_1_30: 0,
        days_31_60: 0,
        days_61_90: 0,
        days_over_90: 500_000,
        last_payment_date: null,
        last_payment_amount: null,
        tenant_phone: '+256772123456',
        tenant_email: expect.any(String),
      },
      {
        occupancy_id: joseph.id,
        tenant_id: joseph.tenant_id,
        tenant_first_name: 'Joseph',
        tenant_last_name: 'Okello',
        tenant_name: 'Joseph Okello',
        unit_id: joseph.unit_id,
        unit_name: 'Ntinda B2',
        balance: 300_000,
        current: 100_000,
        days_1_30: 200_000,
        days_31_60: 0,
        days_61_90: 0,
        days_over_90: 0,
        last_payment_date: null,
        last_payment_amount: null,
        tenant_phone: '+256772123456',
        tenant_email: expect.any(String),
      },
    ]);
  });

  it('searches tenant and unit names, sorts by known fields and pages like every list', async () => {
    const names = async (query: string) =>
      (await arrears(admin, query)).json<{ tenant_name: string }[]>().map((r) => r.tenant_name);
    expect(await names('&q=okello')).toEqual(['Joseph Okello']);
    expect(await names('&q=kololo')).toEqual(['Grace Namuli']);
    expect(await names('&q=nobody')).toEqual([]);
    expect(await names('&q=%25')).toEqual([]);
    expect(await names('&sort=tenant_name')).toEqual(['Grace Namuli', 'Joseph Okello', 'Peter Kintu']);
    expect(await names('&sort=-unit_name')).toEqual(['Joseph Okello', 'Peter Kintu', 'Grace Namuli']);
    expect(await names('&sort=-days_1_30')).toEqual(['Grace Namuli', 'Joseph Okello', 'Peter Kintu']);
    expect(await names('&sort=-days_over_90')).toEqual(['Peter Kintu', 'Grace Namuli', 'Joseph Okello']);
    expect(await names('&sort=last_payment_date')).toEqual(['Grace Namuli', 'Joseph Okello', 'Peter Kintu']);
    expect(await names('&sort=-last_payment_amount')).toEqual([
      'Grace Namuli',
      'Joseph Okello',
      'Peter Kintu',
    ]);
    expect(await names('&sort=balance')).toEqual(['Joseph Okello', 'Peter Kintu', 'Grace Namuli']);

    const page2 = await arrears(admin, '&page_size=1&page=2');
    expect(page2.headers['x-total-count']).toBe('3');
    expect(page2.json<{ tenant_name: string }[]>().map((r) => r.tenant_name)).toEqual(['Peter Kintu']);
    const beyond = await arrears(admin, '&page_size=2&page=5');
    expect(beyond.headers['x-total-count']).toBe('3');
    expect(beyond.json()).toEqual([]);
    const searched = await arrears(admin, '&q=u&page_size=1');
    expect(searched.headers['x-total-count']).toBe('2');

    const bad = await arrears(admin, '&sort=tenant_id');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'validation_failed', fields: { sort: 'Unknown field.' } });
    expect((await arrears(admin, '&page_size=501')).statusCode).toBe(400);
    expect((await admin.get('/arrears?as_of=15-06-2026')).statusCode).toBe(400);
  });

  it('changes when a payment is recorded, and sums the overdue amounts for the dashboard', async () => {
    const summary = await admin.get(`/arrears/summary?as_of=${AS_OF}`);
    expect(summary.statusCode).toBe(200);
    // overdue: Grace 2,500,000 + Peter 500,000 + Joseph 200,000 (Jun 15 is due today, not overdue)
    expect(summary.json()).toEqual({ total: 3_200_000, leases: 3 });

    await fx.pay(grace, '2026-06-10', 2_000_000);
    expect((await arrears(admin, '&q=grace')).json()).toEqual([
      {
        ...graceRow(),
        balance: 500_000,
        days_1_30: 500_000,
        days_31_60: 0,
        days_61_90: 0,
        last_payment_date: '2026-06-10',
        last_payment_amount: 2_000_000,
        tenant_phone: '+256772123456',
        tenant_email: expect.any(String),
      },
    ]);
    await fx.pay(joseph, '2026-06-15', 200_000);
    expect((await arrears(admin, '&q=joseph')).json()).toEqual([]);
    expect((await admin.get(`/arrears/summary?as_of=${AS_OF}`)).json()).toEqual({
      total: 1_000_000,
      leases: 2,
    });
  });

  it('uses today when no day is given', async () => {
    const start = addMonths(localTime('Africa/Kampala').date, -3);
    const eve = await fx.lease('Eve', 'Today', 'Kisaasi G7', { start_date: start, rate: 100_000 });
    const rows = (await admin.get('/arrears?q=Today')).json<{ occupancy_id: number; balance: number }[]>();
    expect(rows).toEqual([expect.objectContaining({ occupancy_id: eve.id, balance: 400_000 })]);
    expect((await admin.get('/arrears/summary')).json<{ leases: number }>().leases).toBeGreaterThanOrEqual(3);
  });

  it('is for admins and editors only', async () => {
    const editor = await signIn(['editor']);
    expect((await arrears(editor)).statusCode).toBe(200);
    for (const roles of [['viewer'], ['company_admin']] as const) {
      const c = await signIn([...roles]);
      for (const path of ['/arrears', '/arrears/summary', '/arrears/export?fmt=xlsx']) {
        const res = await c.get(path);
        expect(res.statusCode, `${roles[0]} ${path}`).toBe(403);
        expect(res.json()).toMatchObject({ code: 'forbidden' });
      }
    }
    expect((await new TestClient(t.app).get('/arrears')).statusCode).toBe(401);
  });

  it('exports the report to xlsx and pdf in the visible columns', async () => {
    const headers = encodeURIComponent(
      JSON.stringify(['Tenant', 'Unit', 'Balance', 'Over 90 days', 'Actions']),
    );
    const xlsx = await admin.get(`/arrears/export?fmt=xlsx&as_of=${AS_OF}&headers=${headers}`);
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    expect(xlsx.headers['x-suggested-filename']).toBe('arrears.xlsx');
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');

    const pdf = await admin.get(
      `/arrears/export?fmt=pdf&as_of=${AS_OF}&q=o&sort=tenant_name&headers=${headers}`,
    );
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['x-suggested-filename']).toBe('arrears.pdf');
    const text = pdfText(pdf.rawPayload);
    expect(text).toContain('Kampala Homes');
    expect(text).toMatch(/Grace Namuli\s+Kololo A1\s+UGX\s*2,500,000/);
    expect(text).toContain('Joseph Okello');
    expect(text).not.toContain('Esther');
    expect(text).not.toContain('Last Payment');
    expect(text.indexOf('Grace Namuli')).toBeLessThan(text.indexOf('Joseph Okello'));

    const unknown = await admin.get(`/arrears/export?fmt=pdf&headers=${encodeURIComponent('["Rent"]')}`);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ fields: { headers: 'Unknown column: Rent.' } });
    expect((await admin.get('/arrears/export?fmt=csv')).statusCode).toBe(400);
  });
});
