import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatDate, RECEIPT_REVOKED_MESSAGE } from '@kodi/domain';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { TestClient } from '../../test/client.ts';
import { buildCompany, buildUser } from '../../test/factories.ts';
import { validTenant, validUnit } from '../../test/entities.ts';
import { RECEIPT_FLOOR_MS, RECEIPT_LOOKUPS_PER_MINUTE } from './routes.ts';

const PUBLIC_URL = 'https://kodi.example';
// a 1×1 PNG
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
};

describe(`receipts anyone can verify (${testDriver})`, () => {
  let t: TestContext;
  let admin: TestClient;
  let companyId: number;
  let tenant: { id: number };
  let unit: { id: number };

  beforeEach(async () => {
    t = await setupApp({ publicUrl: PUBLIC_URL, publicUrlSet: true });
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
    expect(lease.statusCode).toBe(201);
  });
  afterEach(async () => {
    await t.app.close();
  });

  const pay = async (overrides: Record<string, unknown> = {}) => {
    const res = await admin.post('/payments', {
      tenant_id: tenant.id,
      unit_id: unit.id,
      payment_date: '2026-11-05',
      amount_paid: 1500000,
      payment_method: 'mobilemoney',
      status: 'completed',
      effective_start_date: '2026-11-01',
      effective_end_date: '2026-11-30',
      ...overrides,
    });
    expect(res.statusCode).toBe(201);
    const p = res.json<{ id: number; version: number }>();
    const link = await admin.get(`/payments/${p.id}/receipt-link`);
    expect(link.statusCode).toBe(200);
    const { receipt_code: code, receipt_url: url } = link.json<{
      receipt_code: string;
      receipt_url: string;
    }>();
    return { ...p, code, url };
  };

  it('answers a receipt to anyone with its code: what it says, the tenant’s initials only, no ids', async () => {
    const p = await pay();
    expect(p.code).toMatch(/^[0-9a-f]{64}$/);
    expect(p.url).toBe(`${PUBLIC_URL}/r/${p.code}`);

    const anyone = new TestClient(t.app);
    const res = await anyone.get(`/public/receipts/${p.code}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body).toEqual({
      status: 'completed',
      title: 'Receipt verified',
      message: 'This receipt is valid: the payment was received.',
      company: { name: 'Kampala Homes', logo_url: null },
      receipt_number: 'RCT-000001',
      date: '2026-11-05',
      amount: 1500000,
      voided_on: null,
      currency: 'UGX',
      currency_decimals: 0,
      unit_name: 'Kololo Heights A1',
      tenant_initials: 'G. N.',
    });
    // nothing else: not the tenant's name, not a record's id, not the code's own payment
    expect(res.body).not.toMatch(/Grace|Namuli|"id"|_id"/);
    expect(res.body).not.toContain(`"${p.id}"`);

    // the logo, once the company has one, through a URL of this receipt that needs no session either
    const saved = await admin.put('/company-settings', { logo: PNG.toString('base64'), version: 1 });
    expect(saved.statusCode).toBe(200);
    const withLogo = (await anyone.get(`/public/receipts/${p.code}`)).json();
    expect(withLogo.company.logo_url).toBe(`/rentapi/api/public/receipts/${p.code}/logo`);
    const logo = await anyone.get(withLogo.company.logo_url);
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toBe('image/png');
    expect(logo.rawPayload.equals(PNG)).toBe(true);
    expect((await anyone.get(`/public/receipts/${'0'.repeat(64)}/logo`)).statusCode).toBe(404);
  });

  it('says when a payment is pending or failed', async () => {
    const pending = await pay({ status: 'pending' });
    const failed = await pay({ status: 'failed' });
    const anyone = new TestClient(t.app);
    const a = (await anyone.get(`/public/receipts/${pending.code}`)).json();
    expect(a).toMatchObject({
      status: 'pending',
      title: 'Payment pending',
      message: 'This payment is pending: it has not been confirmed yet.',
      receipt_number: null,
      amount: 1500000,
      tenant_initials: 'G. N.',
    });
    const b = (await anyone.get(`/public/receipts/${failed.code}`)).json();
    expect(b).toMatchObject({ status: 'failed', message: 'This payment failed: it was not received.' });
    expect(pending.code).not.toBe(failed.code);
  });

  it('says a voided payment’s receipt was voided, and on which day, without confirming its amount', async () => {
    const p = await pay();
    const anyone = new TestClient(t.app);
    expect((await anyone.get(`/public/receipts/${p.code}`)).json().amount).toBe(1500000);
    expect((await admin.post(`/payments/${p.id}/void`, { reason: 'Wrong tenant' })).statusCode).toBe(200);
    const tz = await t.database.query<{ day: string }>(
      "SELECT ((now() AT TIME ZONE 'Africa/Kampala')::date)::text AS day",
    );
    const day = String(tz[0]?.day);
    const res = await anyone.get(`/public/receipts/${p.code}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'void',
      title: 'Receipt voided',
      message: `This receipt was voided on ${formatDate(day)}.`,
      company: { name: 'Kampala Homes', logo_url: null },
      receipt_number: 'RCT-000001',
      date: '2026-11-05',
      amount: null,
      voided_on: day,
      currency: 'UGX',
      currency_decimals: 0,
      unit_name: 'Kololo Heights A1',
      tenant_initials: 'G. N.',
    });
    // DELETE of a completed payment is the same void: the receipt says voided, never "not valid"
    const q = await pay();
    expect((await admin.delete(`/payments/${q.id}`)).statusCode).toBe(204);
    expect((await anyone.get(`/public/receipts/${q.code}`)).json()).toMatchObject({
      status: 'void',
      message: `This receipt was voided on ${formatDate(day)}.`,
      amount: null,
    });
  });

  it('says a deleted payment’s receipt is no longer valid, however it was deleted', async () => {
    // a pending payment is deleted (a completed one is voided instead)
    const p = await pay({ status: 'pending' });
    const anyone = new TestClient(t.app);
    expect((await anyone.get(`/public/receipts/${p.code}`)).json().status).toBe('pending');
    expect((await admin.delete(`/payments/${p.id}`)).statusCode).toBe(204);
    const res = await anyone.get(`/public/receipts/${p.code}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'revoked',
      title: 'Receipt not valid',
      message: RECEIPT_REVOKED_MESSAGE,
      company: { name: 'Kampala Homes', logo_url: null },
      receipt_number: null,
      date: null,
      amount: null,
      voided_on: null,
      currency: null,
      currency_decimals: null,
      unit_name: null,
      tenant_initials: null,
    });
    // the trail is the database's: a payment deleted by a statement of its own leaves one too
    const q = await pay();
    await t.database.query('DELETE FROM payments WHERE company_id = $1 AND id = $2', [companyId, q.id]);
    expect((await anyone.get(`/public/receipts/${q.code}`)).json().message).toBe(RECEIPT_REVOKED_MESSAGE);
    const trail = await t.database.query<{ payment_id: number; company_id: number }>(
      'SELECT payment_id, company_id FROM revoked_receipts ORDER BY payment_id',
    );
    expect(trail.map((r) => [Number(r.company_id), Number(r.payment_id)])).toEqual([
      [companyId, p.id],
      [companyId, q.id],
    ]);
  });

  it('answers an unknown code 404, no sooner than a known one', async () => {
    const p = await pay();
    const anyone = new TestClient(t.app);
    const unknown = [`${'a'.repeat(63)}b`, 'short', p.code.toUpperCase(), `${p.code}0`];
    for (const code of unknown) {
      const res = await anyone.get(`/public/receipts/${code}`);
      expect(res.statusCode, code).toBe(404);
      expect(res.json()).toEqual({ error: 'Receipt not found.', code: 'not_found' });
    }
    const known: number[] = [];
    const wrong: number[] = [];
    const timed = async (code: string, into: number[]) => {
      const started = performance.now();
      await anyone.get(`/public/receipts/${code}`);
      into.push(performance.now() - started);
    };
    for (let i = 0; i < 9; i++) {
      await timed(p.code, known);
      await timed(randomBytes(32).toString('hex'), wrong);
    }
    for (const ms of [...known, ...wrong]) expect(ms).toBeGreaterThanOrEqual(RECEIPT_FLOOR_MS - 1);
    // the floor is what both take: their medians within half of it
    expect(Math.abs(median(known) - median(wrong))).toBeLessThan(RECEIPT_FLOOR_MS / 2);
  });

  it(`limits look-ups to ${RECEIPT_LOOKUPS_PER_MINUTE} a minute from one address`, async () => {
    const p = await pay();
    // all in one window of the fixed-window counter
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 50_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 100));
    const anyone = new TestClient(t.app);
    const answers = await Promise.all(
      Array.from({ length: RECEIPT_LOOKUPS_PER_MINUTE }, (_, i) =>
        anyone.get(i % 2 ? `/public/receipts/${p.code}` : `/public/receipts/unknown-${i}`),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual(
      Array.from({ length: RECEIPT_LOOKUPS_PER_MINUTE }, (_, i) =>
        i < RECEIPT_LOOKUPS_PER_MINUTE / 2 ? 200 : 404,
      ),
    );
    const over = await anyone.get(`/public/receipts/${p.code}`);
    expect(over.statusCode).toBe(429);
    expect(over.json().code).toBe('rate_limited');
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect((await anyone.get(`/public/receipts/${p.code}/logo`)).statusCode).toBe(429);
    // another address is not held back
    expect((await new TestClient(t.app).get(`/public/receipts/${p.code}`)).statusCode).toBe(200);
  });

  it('gives the receipt link to staff of the payment’s company only', async () => {
    const p = await pay();
    const viewerUser = await buildUser(t.database, { company_id: companyId, roles: ['viewer'] });
    const viewer = new TestClient(t.app);
    await viewer.login(viewerUser.email, viewerUser.password);
    const seen = await viewer.get(`/payments/${p.id}/receipt-link`);
    expect(seen.statusCode).toBe(200);
    expect(seen.json().receipt_url).toBe(p.url);

    const other = await buildCompany(t.database);
    const strangerUser = await buildUser(t.database, { company_id: other.id, roles: ['admin'] });
    const stranger = new TestClient(t.app);
    await stranger.login(strangerUser.email, strangerUser.password);
    expect((await stranger.get(`/payments/${p.id}/receipt-link`)).statusCode).toBe(404);

    const noRoleUser = await buildUser(t.database, { company_id: companyId, roles: [] });
    const noRole = new TestClient(t.app);
    await noRole.login(noRoleUser.email, noRoleUser.password);
    expect((await noRole.get(`/payments/${p.id}/receipt-link`)).json().code).toBe('no_role');
    expect((await new TestClient(t.app).get(`/payments/${p.id}/receipt-link`)).statusCode).toBe(401);

    // the payment's own answers and lists do not carry the code
    expect((await admin.get(`/payments/${p.id}`)).body).not.toContain(p.code);
    expect((await admin.get('/payments')).body).not.toContain(p.code);
  });

  it('links to the request’s own origin when PUBLIC_URL is not set', async () => {
    await t.app.close();
    t = await setupApp({ publicUrl: 'http://localhost:3000', publicUrlSet: false });
    const c = await buildCompany(t.database);
    const u = await buildUser(t.database, { company_id: c.id, roles: ['admin'] });
    admin = new TestClient(t.app);
    await admin.login(u.email, u.password);
    unit = (await admin.post('/units', validUnit())).json();
    tenant = (await admin.post('/tenants', validTenant())).json();
    await admin.post('/occupancy', {
      tenant_id: tenant.id,
      unit_id: unit.id,
      start_date: '2026-01-01',
      rate: 10,
    });
    const p = await pay();
    const res = await admin.get(`/payments/${p.id}/receipt-link`, { host: 'rent.example.org:8443' });
    expect(res.json().receipt_url).toBe(`http://rent.example.org:8443/r/${p.code}`);
  });
});
