import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { TestClient } from '../../test/client.ts';
import { buildCompany, buildUser } from '../../test/factories.ts';
import { validTenant, validUnit } from '../../test/entities.ts';
import { pdfText } from '../../test/pdf-text.ts';

const validPayment = (tenantId: number, unitId: number, overrides: Record<string, unknown> = {}) => ({
  tenant_id: tenantId,
  unit_id: unitId,
  payment_date: '2026-11-05',
  amount_paid: 1500000,
  payment_method: 'mobilemoney',
  status: 'completed',
  effective_start_date: '2026-11-01',
  effective_end_date: '2026-11-30',
  reference_number: '',
  invoice_id: '',
  payment_details: 'November rent',
  ...overrides,
});

describe(`occupancy, payments, receipts and the dashboard (${testDriver})`, () => {
  let t: TestContext;
  let admin: TestClient;
  let companyId: number;
  let unit: { id: number; version: number; name: string };
  let tenant: { id: number };

  beforeEach(async () => {
    t = await setupApp();
    companyId = (await buildCompany(t.database, { name: 'Kampala Homes' })).id;
    const u = await buildUser(t.database, { company_id: companyId, roles: ['admin'] });
    admin = new TestClient(t.app);
    await admin.login(u.email, u.password);
    unit = (await admin.post('/units', validUnit())).json();
    tenant = (await admin.post('/tenants', validTenant())).json();
  });
  afterEach(async () => {
    await t.app.close();
  });

  const lease = async (overrides: Record<string, unknown> = {}) =>
    admin.post('/occupancy', {
      tenant_id: tenant.id,
      unit_id: unit.id,
      start_date: '2026-01-01',
      rate: 1500000,
      ...overrides,
    });

  it('creates an occupancy with joined names and defaults, and checks its dates', async () => {
    const res = await lease();
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      tenant_first_name: 'Grace',
      tenant_last_name: 'Namuli',
      tenant_name: 'Grace Namuli',
      unit_name: 'Kololo Heights A1',
      occupancy_status: 'active',
      rent_cycle: 'monthly',
      is_active: true,
      utilities_included: false,
      start_date: '2026-01-01',
      end_date: null,
      rate: 1500000,
    });
    const bad = await lease({ end_date: '2025-12-31', start_date: '2026/01/01', notice_period_days: -1 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toMatchObject({
      start_date: 'Invalid date format (YYYY-MM-DD).',
      notice_period_days: 'Must be a positive number >= 0.',
    });
    const order = await lease({ end_date: '2025-12-31' });
    expect(order.json().fields).toEqual({ end_date: 'End date must be after start date.' });
    const list = await admin.get('/occupancy?q=namuli');
    expect(list.headers['x-total-count']).toBe('1');
  });

  it('uploads a lease document checked by content and downloads it', async () => {
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF').toString('base64');
    const res = await lease({
      lease_doc: `data:application/pdf;base64,${pdf}`,
      lease_doc_name: 'Grace lease.pdf',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ has_lease_doc: true, lease_doc_name: 'Grace lease.pdf' });
    expect(res.json()).not.toHaveProperty('lease_doc');
    const dl = await admin.get(`/occupancy/${res.json().id}/lease_doc`);
    expect(dl.statusCode).toBe(200);
    expect(dl.headers['content-type']).toBe('application/pdf');
    expect(dl.headers['x-suggested-filename']).toBe('Grace_lease.pdf');
    expect(dl.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const fake = await lease({
      lease_doc: Buffer.from('MZ not a pdf').toString('base64'),
      lease_doc_name: 'x.pdf',
    });
    expect(fake.statusCode).toBe(400);
    expect(fake.json().fields.lease_doc).toBe('The lease document must be a PDF, PNG or JPEG file.');
  });

  it('refuses a payment without an occupancy for that tenant and unit, on the server', async () => {
    const res = await admin.post('/payments', validPayment(tenant.id, unit.id));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      error: 'No matching occupancy found for this tenant and unit combination.',
      code: 'validation_failed',
    });
  });

  it('numbers payments and receipts, defaults N/A, and keeps a receipt number once given', async () => {
    const occ = (await lease()).json();
    const pending = await admin.post('/payments', validPayment(tenant.id, unit.id, { status: 'pending' }));
    expect(pending.statusCode).toBe(201);
    expect(pending.json()).toMatchObject({
      payment_serial: 'PAY-000001',
      receipt_number: null,
      occupancy_id: occ.id,
      reference_number: 'N/A',
      invoice_id: 'N/A',
      tenant_first_name: 'Grace',
      unit_name: 'Kololo Heights A1',
      amount_paid: 1500000,
    });
    const done = await admin.post(
      '/payments',
      validPayment(tenant.id, unit.id, { reference_number: 'MM-1' }),
    );
    expect(done.json()).toMatchObject({
      payment_serial: 'PAY-000002',
      receipt_number: 'RCT-000001',
      reference_number: 'MM-1',
    });
    const p = pending.json();
    const completed = await admin.put(`/payments/${p.id}`, {
      ...p,
      status: 'completed',
      payment_serial: 'PAY-999999',
    });
    expect(completed.json()).toMatchObject({ payment_serial: 'PAY-000001', receipt_number: 'RCT-000002' });
    // a completed payment stays completed (issue 25: void it instead); its receipt number is kept
    const failedAgain = await admin.put(`/payments/${p.id}`, {
      ...(completed.json() as Record<string, unknown>),
      status: 'failed',
    });
    expect(failedAgain.statusCode).toBe(409);
    expect(failedAgain.json().code).toBe('receipt_issued');
    const voided = await admin.post(`/payments/${p.id}/void`, { reason: 'Recorded twice' });
    expect(voided.json()).toMatchObject({ status: 'void', receipt_number: 'RCT-000002' });
    const again = await admin.get(`/payments/${p.id}`);
    expect(again.json().receipt_number).toBe('RCT-000002');
    const search = await admin.get(
      `/payments?q=rct-000002&filter=${encodeURIComponent(JSON.stringify({ field: 'status', value: 'void' }))}`,
    );
    expect(search.json().map((x: { id: number }) => x.id)).toEqual([p.id]);
  });

  it('gives 50 payments saved at once 50 distinct receipt numbers with no gap', async () => {
    await lease();
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        admin.post('/payments', validPayment(tenant.id, unit.id, { amount_paid: 1000 + i })),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(50).fill(201));
    const receipts = results.map((r) => r.json().receipt_number as string).sort();
    expect(receipts).toEqual(Array.from({ length: 50 }, (_, i) => `RCT-${String(i + 1).padStart(6, '0')}`));
    const serials = new Set(results.map((r) => r.json().payment_serial));
    expect(serials.size).toBe(50);
    const sum = await t.database.query<{ s: string }>('SELECT sum(amount_paid)::text AS s FROM payments');
    expect(sum[0]?.s).toBe(String(50 * 1000 + (49 * 50) / 2) + '.00');
  });

  it('saves payments sent together in shared transactions; a refused one gives its numbers back', async () => {
    await lease();
    const other = (await admin.post('/units', validUnit({ name: 'No lease here' }))).json();
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        admin.post(
          '/payments',
          validPayment(tenant.id, i % 4 === 3 ? other.id : unit.id, { amount_paid: 10 + i }),
        ),
      ),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes).toEqual(Array.from({ length: 40 }, (_, i) => (i % 4 === 3 ? 400 : 201)));
    expect(results[3]?.json()).toMatchObject({ code: 'validation_failed' });
    const saved = results.filter((r) => r.statusCode === 201).map((r) => r.json());
    expect(saved.map((p) => p.receipt_number as string).sort()).toEqual(
      Array.from({ length: 30 }, (_, i) => `RCT-${String(i + 1).padStart(6, '0')}`),
    );
    expect(saved.map((p) => p.payment_serial as string).sort()).toEqual(
      Array.from({ length: 30 }, (_, i) => `PAY-${String(i + 1).padStart(6, '0')}`),
    );
    // each answered payment is in the database with its own audit entry, and they shared
    // transactions (now() is the transaction's start: one created_at per transaction)
    const rows = await t.database.query<{ n: number; tx: number; audits: number }>(
      `SELECT count(*)::int AS n, count(DISTINCT created_at)::int AS tx,
              (SELECT count(*)::int FROM audit_entries WHERE entity = 'payments' AND action = 'create') AS audits
         FROM payments`,
    );
    expect(rows[0]).toMatchObject({ n: 30, audits: 30 });
    // (PGlite has one connection: the next requests' session lookups wait for the running
    // transaction, so there they arrive one at a time and nothing is shared)
    if (testDriver === 'pg') expect(rows[0]?.tx).toBeLessThan(30);
    else expect(rows[0]?.tx).toBeLessThanOrEqual(30);
  });

  it('makes a receipt PDF with the receipt number, company and currency in its text', async () => {
    await lease();
    const pay = (await admin.post('/payments', validPayment(tenant.id, unit.id))).json();
    const res = await admin.get(`/payments/${pay.id}/receipt.pdf`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['x-suggested-filename']).toBe('receipt_RCT-000001.pdf');
    const text = pdfText(res.rawPayload);
    expect(text).toContain('RCT-000001');
    expect(text).toContain('Kampala Homes');
    expect(text).toContain('Grace Namuli');
    expect(text).toMatch(/UGX\s*1,500,000/);
    const other = await buildCompany(t.database);
    const stranger = await buildUser(t.database, { company_id: other.id, roles: ['admin'] });
    const c = new TestClient(t.app);
    await c.login(stranger.email, stranger.password);
    expect((await c.get(`/payments/${pay.id}/receipt.pdf`)).statusCode).toBe(404);
  });

  it('counts and lists on the dashboard in one call', async () => {
    await lease();
    // the let unit is occupied (its lease lets it today): the other one alone is available
    const free = (await admin.post('/units', validUnit({ name: 'Ntinda B2' }))).json();
    const today = new Date().toISOString().slice(0, 10);
    await admin.post(
      '/payments',
      validPayment(tenant.id, unit.id, { payment_date: today, status: 'completed' }),
    );
    await admin.post(
      '/payments',
      validPayment(tenant.id, unit.id, { payment_date: today, status: 'pending' }),
    );
    await admin.post(
      '/payments',
      validPayment(tenant.id, unit.id, { payment_date: '2020-01-01', status: 'failed' }),
    );
    const res = await admin.get('/dashboard');
    expect(res.statusCode).toBe(200);
    const d = res.json();
    expect(d.counts).toEqual({
      available_units: 1,
      pending_repairs: 0,
      payments_this_month: 1,
      incomplete_payments: 1,
    });
    expect(d.available_units).toEqual([
      {
        id: free.id,
        name: 'Ntinda B2',
        address: 'Plot 4, Kololo Hill Drive, Kampala',
        monthly_rate: 1500000,
      },
    ]);
    expect(d.recent_payments).toHaveLength(1);
    expect(d.pending_payments[0]).toMatchObject({
      tenant_first_name: 'Grace',
      unit_name: 'Kololo Heights A1',
      amount_paid: 1500000,
    });
    expect(d.currency_code).toBe('UGX');
  });
});
