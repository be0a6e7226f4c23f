import type { RoleName } from '@kodi/domain';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { addMonths, agingBuckets, localTime, type ArrearsRow, type ArrearsSummary } from '@kodi/domain';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import type { TestClient } from '../../test/client.ts';
import { signInAs } from '../../test/sign-in.ts';
import { buildCompany } from '../../test/factories.ts';
import { execRows } from '../../db/client.ts';
import { pdfText } from '../../test/pdf-text.ts';
import { leaseFixtures } from './ledger-fixtures.ts';

/**
 * Issue 26, 'Arrears you can act on': the tenant's phone on each row, the list of one age bucket (the
 * dashboard's links), the totals by age (the page's and the exports' totals row) and the overdue
 * reminder sent from the page (`POST /arrears/remind`), once a day per lease and channel. The leases
 * are in arrears today (the company's day), as the reminder is sent today.
 */
describe(`acting on arrears (${testDriver})`, () => {
  let t: TestContext;
  let admin: TestClient;
  let companyId: number;
  let grace: { id: number; tenant_id: number; unit_id: number };
  let joseph: { id: number; tenant_id: number; unit_id: number };
  let amina: { id: number; tenant_id: number; unit_id: number };
  const today = localTime('Africa/Kampala', new Date()).date;

  const signIn = (roles: RoleName[], company = companyId) => signInAs(t, company, roles);

  const reminders = () =>
    execRows<{
      occupancy_id: number;
      channel: string;
      to: string | null;
      body: string;
      status: string;
      error: string | null;
    }>(
      t.database.db,
      sql`SELECT occupancy_id, channel, "to", body, status, error FROM messages
           WHERE company_id = ${companyId} AND kind = 'reminder' ORDER BY id`,
    );

  beforeEach(async () => {
    t = await setupApp();
    companyId = (await buildCompany(t.database, { name: 'Kampala Homes' })).id;
    admin = await signIn(['admin']);
    const fx = leaseFixtures(admin);
    // three monthly rents unpaid (about 0, 30 and 60 days old) and one paid in part
    grace = await fx.lease('Grace', 'Namuli', 'Kololo A1', {
      start_date: addMonths(today, -3),
      rate: 1_000_000,
    });
    await fx.pay(grace, addMonths(today, -3), 1_500_000);
    joseph = await fx.lease('Joseph', 'Okello', 'Ntinda B2', {
      start_date: addMonths(today, -1),
      rate: 400_000,
    });
    amina = await fx.lease('Amina', 'Nansubuga', 'Bukoto C3', {
      start_date: addMonths(today, -2),
      rate: 300_000,
    });
    // Amina has no e-mail
    const a = (await admin.get(`/tenants/${amina.tenant_id}`)).json<Record<string, unknown>>();
    expect((await admin.put(`/tenants/${amina.tenant_id}`, { ...a, email: null })).statusCode).toBe(200);
    // paid up: not in arrears
    const sarah = await fx.lease('Sarah', 'Nakato', 'Bugolobi D4', {
      start_date: addMonths(today, -1),
      rate: 500_000,
    });
    await fx.pay(sarah, addMonths(today, -1), 5_000_000);
  });
  afterEach(async () => {
    await t.app.close();
  });

  it('shows each tenant’s phone, lists one age bucket and totals the balances by age', async () => {
    const res = await admin.get('/arrears');
    expect(res.statusCode).toBe(200);
    const rows = res.json<ArrearsRow[]>();
    expect(rows.map((r) => r.tenant_name).sort()).toEqual([
      'Amina Nansubuga',
      'Grace Namuli',
      'Joseph Okello',
    ]);
    expect(rows.every((r) => r.tenant_phone === '+256772123456')).toBe(true);
    expect(rows.find((r) => r.tenant_name === 'Amina Nansubuga')?.tenant_email).toBeNull();

    const summary = (await admin.get('/arrears/summary?by_age=true')).json<ArrearsSummary>();
    expect(summary.leases).toBe(3);
    const sum = (f: keyof ArrearsRow) => rows.reduce((s, r) => s + Number(r[f]), 0);
    expect(summary.by_age?.balance).toBe(sum('balance'));
    for (const b of agingBuckets) expect(summary.by_age?.[b], b).toBe(sum(b));
    expect(agingBuckets.reduce((s, b) => s + (summary.by_age?.[b] ?? 0), 0)).toBe(summary.by_age?.balance);
    // without by_age: as before
    expect((await admin.get('/arrears/summary')).json()).toEqual({ total: summary.total, leases: 3 });

    // of one bucket: only the leases that owe something in it, counted
    for (const b of agingBuckets) {
      const page = await admin.get(`/arrears?bucket=${b}`);
      expect(page.statusCode).toBe(200);
      const expected = rows
        .filter((r) => r[b] > 0)
        .map((r) => r.occupancy_id)
        .sort();
      expect(
        page
          .json<ArrearsRow[]>()
          .map((r) => r.occupancy_id)
          .sort(),
        b,
      ).toEqual(expected);
      expect(Number(page.headers['x-total-count']), b).toBe(expected.length);
    }
    const byName = await admin.get('/arrears?bucket=current&sort=tenant_name');
    const names = byName.json<ArrearsRow[]>().map((r) => r.tenant_name);
    expect(names).toEqual([...names].sort());
    expect((await admin.get('/arrears?bucket=days_7')).statusCode).toBe(400);

    // the exports end with the totals row
    const pdf = await admin.get('/arrears/export?fmt=pdf');
    expect(pdf.statusCode).toBe(200);
    const text = pdfText(pdf.rawPayload);
    expect(text).toContain('+256772123456');
    expect(text).toMatch(/Total \(3 leases\)/);
    expect(text.indexOf('Total (3 leases)')).toBeGreaterThan(text.indexOf('Grace Namuli'));
    const xlsx = await admin.get('/arrears/export?fmt=xlsx&bucket=days_31_60');
    expect(xlsx.statusCode).toBe(200);
  });

  it('reminds the chosen leases by SMS once a day, every lease by e-mail, and logs what had no address', async () => {
    const sms = await admin.post('/arrears/remind', { occupancy_ids: [grace.id], channel: 'sms' });
    expect(sms.statusCode).toBe(200);
    expect(sms.json()).toMatchObject({
      queued: 1,
      skipped: 0,
      already: 0,
      results: [
        { occupancy_id: grace.id, tenant_name: 'Grace Namuli', status: 'queued', to: '+256772123456' },
      ],
    });
    let sent = await reminders();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      occupancy_id: grace.id,
      channel: 'sms',
      to: '+256772123456',
      status: 'queued',
    });
    // the company's overdue SMS template, with the oldest unpaid rent's due date and the balance
    expect(sent[0]?.body).toMatch(
      /^Hi Grace, your rent for Kololo A1 due \w{3} \d{1,2}, \d{4} is overdue\. Balance: UGX\s*[\d,]+\. Kampala Homes$/,
    );

    // again today: not sent twice
    const again = await admin.post('/arrears/remind', { occupancy_ids: [grace.id], channel: 'sms' });
    expect(again.json()).toMatchObject({ queued: 0, already: 1 });
    expect(await reminders()).toHaveLength(1);

    // every lease in arrears by e-mail: Amina has no e-mail (logged as skipped); a paid-up lease is not one
    const all = await admin.post('/arrears/remind', { all: true, channel: 'email' });
    expect(all.json()).toMatchObject({ queued: 2, skipped: 1, already: 0 });
    sent = await reminders();
    expect(
      sent
        .filter((m) => m.channel === 'email')
        .map((m) => m.occupancy_id)
        .sort(),
    ).toEqual([grace.id, joseph.id, amina.id].sort());
    expect(sent.find((m) => m.occupancy_id === amina.id && m.channel === 'email')).toMatchObject({
      status: 'skipped',
      error: 'no_address',
    });
    const stray = await admin.post('/arrears/remind', { occupancy_ids: [999_999], channel: 'sms' });
    expect(stray.json()).toMatchObject({ queued: 0, results: [{ status: 'not_in_arrears' }] });
  });

  it('is for editors and admins of the company, with the CSRF token, and asks for leases', async () => {
    const viewer = await signIn(['viewer']);
    expect((await viewer.post('/arrears/remind', { all: true, channel: 'sms' })).statusCode).toBe(403);
    const editor = await signIn(['editor']);
    expect(
      (await editor.post('/arrears/remind', { occupancy_ids: [joseph.id], channel: 'sms' })).json(),
    ).toMatchObject({
      queued: 1,
    });
    const noCsrf = await admin.post('/arrears/remind', { all: true, channel: 'sms' }, { 'x-csrf-token': '' });
    expect(noCsrf.statusCode).toBe(403);
    expect(noCsrf.json()).toMatchObject({ code: 'csrf_missing' });
    const empty = await admin.post('/arrears/remind', { channel: 'sms' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ fields: { occupancy_ids: 'Choose the leases to remind.' } });
    expect((await admin.post('/arrears/remind', { all: true, channel: 'fax' })).statusCode).toBe(400);
    // another company's admin reminds none of these leases
    const otherCompany = (await buildCompany(t.database, { name: 'Other' })).id;
    const stranger = await signIn(['admin'], otherCompany);
    expect(
      (await stranger.post('/arrears/remind', { occupancy_ids: [grace.id], channel: 'sms' })).json(),
    ).toMatchObject({
      queued: 0,
      results: [{ status: 'not_in_arrears' }],
    });
    expect((await reminders()).map((m) => m.occupancy_id)).toEqual([joseph.id]);
  });
});
