import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rentalTaxDefaults } from '@kodi/domain';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { TestClient } from '../../test/client.ts';
import { buildCompany, buildUser } from '../../test/factories.ts';
import { validTenant, validUnit } from '../../test/entities.ts';
import { pdfText } from '../../test/pdf-text.ts';
import { sendMonthlyOwnerStatements } from '../../modules/owner-money/statement-send.ts';

type Row = Record<string, unknown>;
type Landlord = Row & { kind: string; owner_id: number | null };

/**
 * Issue 27, the landlords' rental-tax figures: `GET /reports/rental-tax?month=` and `?tax_year=`,
 * their exports, the company settings they follow (the country's defaults until set), roles and scope.
 */
describe(`the rental-tax report, certificates and owner statements sent (${testDriver})`, () => {
  let t: TestContext;
  let companyId: number;
  let admin: TestClient;
  let viewer: TestClient;
  let stranger: TestClient;
  let o1: number;
  let o2: number;

  const as = async (role: 'admin' | 'viewer', company = companyId) => {
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
  const report = async (q: string, client = admin) => {
    const res = await client.get(`/reports/rental-tax?${q}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Row & { landlords: Landlord[]; totals: Row }>();
  };
  const settings = async (body: Row) => {
    const now = (await admin.get('/company-settings')).json<{ version: number }>();
    const res = await admin.put('/company-settings', { ...body, version: now.version });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Row>();
  };

  beforeAll(async () => {
    t = await setupApp();
    companyId = (
      await buildCompany(t.database, { name: 'Nairobi Homes', country_code: 'KEN', currency_code: 'KES' })
    ).id;
    const other = (await buildCompany(t.database, { name: 'Kampala Homes', country_code: 'UGA' })).id;
    admin = await as('admin');
    viewer = await as('viewer');
    stranger = await as('admin', other);
    o1 = await make('/owners', {
      first_name: 'Grace',
      last_name: 'Wanjiru',
      tax_id: 'A001234567Z',
      email: 'grace@example.com',
      phone: '0712345678',
    });
    o2 = await make('/owners', { company_name: 'Idle Estates Ltd' });
    const p1 = await make('/properties', { name: 'Kilimani Court', address: 'Kilimani' });
    const p2 = await make('/properties', { name: 'Own Block', address: 'Westlands' });
    const u1 = await make('/units', validUnit({ name: 'K1', property_id: p1 }));
    const u2 = await make('/units', validUnit({ name: 'W1', property_id: p2 }));
    expect(
      (await admin.put(`/properties/${p1}/owners`, [{ owner_id: o1, share_percent: 100 }])).statusCode,
    ).toBe(200);
    await t.database.query(
      `UPDATE property_owner_sets SET effective_from = '2026-01-01' WHERE company_id = $1 AND property_id = $2`,
      [companyId, p1],
    );
    const agreed = await admin.put(`/properties/${p1}/agreement`, {
      fee_kind: 'percent_of_collected',
      fee_amount: 10,
      withhold_rental_tax: true,
      rental_tax_rate: 7.5,
    });
    expect(agreed.statusCode, agreed.body).toBe(200);
    const t1 = await make('/tenants', validTenant({ first_name: 'Tom', phone: '+254712000001' }));
    const t2 = await make('/tenants', validTenant({ first_name: 'Ann', phone: '+254712000002' }));
    for (const [tenant, unit, rate] of [
      [t1, u1, 100000],
      [t2, u2, 40000],
    ] as const) {
      await make('/occupancy', { tenant_id: tenant, unit_id: unit, start_date: '2026-11-01', rate });
      await make('/payments', {
        tenant_id: tenant,
        unit_id: unit,
        payment_date: '2026-11-05',
        amount_paid: rate,
        payment_method: 'cash',
        status: 'completed',
        effective_start_date: '2026-11-01',
        effective_end_date: '2026-11-30',
      });
    }
    await make('/expenses', { unit_id: u1, expense_date: '2026-11-10', amount: 20000, category: 'repairs' });
    await make('/expenses', { unit_id: u2, expense_date: '2026-11-12', amount: 5000, category: 'repairs' });
  }, 180_000);
  afterAll(async () => {
    await t?.app.close();
  });

  it("defaults follow the company's country: Kenya 7.5% due the 20th, calendar year; Uganda from July", () => {
    expect(rentalTaxDefaults('KEN')).toEqual({ rate: 7.5, due_day: 20, year_start_month: 1 });
    expect(rentalTaxDefaults('UGA').year_start_month).toBe(7);
  });

  it("answers each landlord's month: gross rent received, the tax at the rate, the due date, nil ones too", async () => {
    const nov = await report('month=2026-11', viewer);
    expect(nov).toMatchObject({ month: '2026-11', rate: 7.5, due_date: '2026-12-20' });
    expect(nov.landlords.map((l) => [l.kind, l.owner_id])).toEqual([
      ['company', null],
      ['owner', o1],
      ['owner', o2],
    ]);
    expect(nov.landlords[0]).toMatchObject({ name: 'Nairobi Homes', gross_rent: '40000.00', tax: '3000.00' });
    expect(nov.landlords[0]?.withheld).toBeNull();
    expect(nov.landlords[1]).toMatchObject({
      name: 'Grace Wanjiru',
      tax_id: 'A001234567Z',
      gross_rent: '100000.00',
      tax: '7500.00',
      withheld: '7500.00',
      due_date: '2026-12-20',
    });
    expect(nov.landlords[2]).toMatchObject({ gross_rent: '0.00', tax: '0.00', withheld: '0.00' });
    expect(nov.totals).toEqual({ gross_rent: '140000.00', tax: '10500.00', withheld: '7500.00' });
    // a nil month lists every landlord with nothing
    const oct = await report('month=2026-10');
    expect(oct.landlords).toHaveLength(3);
    expect(oct.totals).toEqual({ gross_rent: '0.00', tax: '0.00', withheld: '0.00' });
    expect(oct.due_date).toBe('2026-11-20');
  });

  it("answers a tax year from the company's first month: gross rent, expenses, net", async () => {
    const y = await report('tax_year=2026');
    expect(y).toMatchObject({ tax_year: 2026, from: '2026-01', to: '2026-12' });
    expect(y.landlords[0]).toMatchObject({ gross_rent: '40000.00', expenses: '5000.00', net: '35000.00' });
    expect(y.landlords[1]).toMatchObject({ gross_rent: '100000.00', expenses: '20000.00', net: '80000.00' });
    expect(y.totals).toEqual({ gross_rent: '140000.00', expenses: '25000.00', net: '115000.00' });
  });

  it('follows the settings: another rate, due day and first month of the year', async () => {
    const s = await settings({ rental_tax: { rate: 10, due_day: 15, year_start_month: 7 } });
    expect(s.rental_tax).toEqual({ rate: 10, due_day: 15, year_start_month: 7 });
    const nov = await report('month=2026-11');
    expect(nov).toMatchObject({ rate: 10, due_date: '2026-12-15' });
    expect(nov.landlords[1]).toMatchObject({ tax: '10000.00', withheld: '7500.00' });
    // July 2026 to June 2027 holds November; July 2025 to June 2026 does not
    expect((await report('tax_year=2026')).from).toBe('2026-07');
    expect((await report('tax_year=2026')).totals).toMatchObject({ net: '115000.00' });
    expect((await report('tax_year=2025')).totals).toMatchObject({ gross_rent: '0.00' });
    // null goes back to the country's default
    const back = await settings({ rental_tax: { rate: null, due_day: null, year_start_month: null } });
    expect(back.rental_tax).toEqual({ rate: null, due_day: null, year_start_month: null });
    expect((await report('month=2026-11')).rate).toBe(7.5);
    const bad = await admin.put('/company-settings', {
      rental_tax: { rate: 101, due_day: 31, year_start_month: 13 },
      version: (await admin.get('/company-settings')).json<{ version: number }>().version,
    });
    expect(bad.statusCode).toBe(400);
  });

  it('exports the month and the year as xlsx and pdf', async () => {
    for (const q of ['month=2026-11', 'tax_year=2026'])
      for (const fmt of ['xlsx', 'pdf']) {
        const res = await viewer.get(`/reports/rental-tax/export?${q}&fmt=${fmt}`);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.headers['content-disposition']).toMatch(new RegExp(`rental-tax_.*\\.${fmt}`));
        expect(res.rawPayload.subarray(0, 4).toString()).toBe(fmt === 'pdf' ? '%PDF' : 'PK\u0003\u0004');
      }
  });

  it("refuses a bad month or both at once; another company's report knows none of these owners", async () => {
    expect((await admin.get('/reports/rental-tax?month=2026-13')).statusCode).toBe(400);
    expect((await admin.get('/reports/rental-tax?month=2026-11&tax_year=2026')).statusCode).toBe(400);
    const theirs = await report('month=2026-11', stranger);
    expect(theirs.landlords.map((l) => l.kind)).toEqual(['company']);
    expect(theirs).toMatchObject({ rate: 0, totals: { gross_rent: '0.00' } });
    // Uganda: the year from July by default
    expect((await report('tax_year=2026', stranger)).from).toBe('2026-07');
    expect((await new TestClient(t.app).get('/reports/rental-tax?month=2026-11')).statusCode).toBe(401);
  });

  it("answers an owner's certificate of the tax withheld in a month, per property, as a PDF", async () => {
    await t.database.query(
      `UPDATE companies SET address = 'Ngong Road 1, Nairobi', phone_number = '+254700000000' WHERE id = $1`,
      [companyId],
    );
    const res = await viewer.get(`/owners/${o1}/tax-certificate?month=2026-11`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain(`rental_tax_certificate_${o1}_2026-11.pdf`);
    if (process.env.OWNER_PDF_OUT)
      (await import('node:fs')).writeFileSync(process.env.OWNER_PDF_OUT, res.rawPayload);
    const text = pdfText(res.rawPayload).replace(/\s+/g, ' ');
    expect(text).toContain('Certificate of Rental Tax Withheld');
    expect(text).toContain('Ngong Road 1, Nairobi');
    expect(text).toContain('A001234567Z');
    expect(text).toContain('November 2026');
    expect(text).toMatch(/Kilimani Court KES 100,000\.00 KES 7,500\.00/);
    expect(text).toMatch(/Total KES 100,000\.00 KES 7,500\.00/);
    // a nil month says so
    const nil = pdfText((await viewer.get(`/owners/${o2}/tax-certificate?month=2026-11`)).rawPayload);
    expect(nil).toContain('nil');
    expect((await stranger.get(`/owners/${o1}/tax-certificate?month=2026-11`)).statusCode).toBe(404);
    expect((await viewer.get(`/owners/${o1}/tax-certificate?month=2026-1`)).statusCode).toBe(400);
  });

  /** The owner's statements in the message log (the amounts' no-break spaces read as spaces). */
  const statementMessages = async (owner: number) =>
    (
      await t.database.query<{ channel: string; to: string | null; status: string; body: string }>(
        `SELECT channel, "to", status, body FROM messages
          WHERE company_id = $1 AND kind = 'owner_statement' AND tenant_name = (
            SELECT display_name FROM owners WHERE company_id = $1 AND id = $2)
          ORDER BY id`,
        [companyId, owner],
      )
    ).map((m) => ({ ...m, body: m.body.replace(/\u00a0/g, ' ') }));

  it("sends an owner's statement by e-mail and SMS through the message log, once a day per period", async () => {
    const res = await admin.post(`/owners/${o1}/statement/send`, { from: '2026-11-01', to: '2026-11-30' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ sent: Row[] }>();
    expect(body.sent.map((x) => [x.channel, x.to, x.status])).toEqual([
      ['email', 'grace@example.com', 'queued'],
      ['sms', '+254712345678', 'queued'],
    ]);
    const log = await statementMessages(o1);
    expect(log).toHaveLength(2);
    expect(log[0]?.body).toContain('Collected: KES 100,000.00');
    expect(log[0]?.body).toContain('Rental tax withheld: KES 7,500.00');
    expect(log[0]?.body).toMatch(/https?:\/\/[^ ]+\/owner/);
    expect(log[1]?.body).toMatch(/held KES 62,500\.00.*\/owner$/);
    // asked again the same day: already
    const again = await admin.post(`/owners/${o1}/statement/send`, { from: '2026-11-01', to: '2026-11-30' });
    expect(again.json<{ sent: Row[] }>().sent.map((x) => x.status)).toEqual(['already', 'already']);
    expect(await statementMessages(o1)).toHaveLength(2);
    // an owner without addresses: logged as skipped
    const none = await admin.post(`/owners/${o2}/statement/send`, {});
    expect(none.json<{ sent: Row[] }>().sent.map((x) => x.status)).toEqual(['skipped', 'skipped']);
    expect((await statementMessages(o2)).map((m) => m.status)).toEqual(['skipped', 'skipped']);
    // roles and scope
    expect((await viewer.post(`/owners/${o1}/statement/send`, {})).statusCode).toBe(403);
    expect((await stranger.post(`/owners/${o1}/statement/send`, {})).statusCode).toBe(404);
    expect(
      (await admin.post(`/owners/${o1}/statement/send`, { from: '2026-12-01', to: '2026-11-01' })).statusCode,
    ).toBe(400);
  });

  it("sends every owner's statement of the month before on the company's day, once, whatever runs twice", async () => {
    await settings({ owner_statements_day: 2 });
    const keyed = async () =>
      (
        await t.database.query<{ dedup_key: string }>(
          `SELECT dedup_key FROM messages WHERE company_id = $1 AND dedup_key LIKE 'owner-statement:%:2026-11:%'
            ORDER BY dedup_key`,
          [companyId],
        )
      ).map((r) => r.dedup_key);
    // the day before: nothing
    expect((await admin.post('/rent-cycle/run', { as_of: '2026-12-01' })).statusCode).toBe(200);
    expect(await keyed()).toEqual([]);
    expect((await admin.post('/rent-cycle/run', { as_of: '2026-12-02' })).statusCode).toBe(200);
    expect(await keyed()).toEqual(
      [
        `owner-statement:${o1}:2026-11:email`,
        `owner-statement:${o1}:2026-11:sms`,
        `owner-statement:${o2}:2026-11:email`,
        `owner-statement:${o2}:2026-11:sms`,
      ].sort(),
    );
    // run again, and two servers at once: still once
    expect((await admin.post('/rent-cycle/run', { as_of: '2026-12-02' })).statusCode).toBe(200);
    const twice = await Promise.all(
      [1, 2].map(() =>
        sendMonthlyOwnerStatements(t.database, companyId, 2, '2026-12-01', '2026-12-02', 'http://x'),
      ),
    );
    expect(twice).toEqual([0, 0]);
    expect(await keyed()).toHaveLength(4);
    const [grace] = await t.database.query<{ body: string }>(
      `SELECT body FROM messages WHERE company_id = $1 AND dedup_key = $2`,
      [companyId, `owner-statement:${o1}:2026-11:email`],
    );
    expect(grace?.body).toMatch(/Nov 1, 2026 – Nov 30, 2026/);
  });
});
