import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { TestClient } from '../../test/client.ts';
import { buildUser } from '../../test/factories.ts';
import { expectStatus } from '../../test/rent-cycle.ts';
import { portalCompany, tenantWithLease } from '../../test/portal.ts';
import { startAirtel, type LocalAirtel } from '../../test/providers/airtel.ts';
import { checkPaymentRequest, overdueRequests } from './payment-requests.ts';
import {
  paymentsServerPart,
  providerTestContext,
  type PaymentRequestAnswer,
} from '../../test/payment-providers.ts';

const AIRTEL = {
  clientId: 'airtel-client-1',
  clientSecret: 'airtel-secret-1',
  country: 'UG',
  currency: 'UGX',
  callingCode: '256',
};
const CREDENTIALS = { client_id: AIRTEL.clientId, client_secret: AIRTEL.clientSecret, country: 'ug' };
const PUBLIC_URL = 'https://rent.example.co.ug';
/** an Airtel Uganda number (075…) */
const PHONE = '0752 123456';

type Provider = { enabled: boolean; callback_urls: Record<string, string> | null };
type Request = PaymentRequestAnswer;

const ctxOf = providerTestContext;
const paymentsServer = paymentsServerPart();
const pathOf = (url: string) => url.replace(PUBLIC_URL, '');

/**
 * Issue 29: Airtel Money collections (USSD push) through a local Airtel Open API
 * (src/test/providers/airtel.ts): prompts followed to their end by Airtel's callback, believed only
 * when Airtel's transaction enquiry agrees, or by Kodi's own enquiry when no callback comes.
 */
describe(`Airtel Money prompts (${testDriver})`, () => {
  let t: TestContext;
  let airtel: LocalAirtel;
  beforeAll(async () => {
    airtel = await startAirtel(AIRTEL);
  });
  afterAll(async () => {
    await airtel.stop();
  });
  beforeEach(async () => {
    t = await setupApp({ airtelBaseUrl: airtel.url, publicUrl: PUBLIC_URL });
  });
  afterEach(async () => {
    await t.app.close();
  });

  /** A Ugandan company with Airtel Money on, a tenant and lease; the callback URL for Airtel's portal. */
  const airtelCompany = async () => {
    const c = await portalCompany(t);
    const saved = expectStatus(
      await c.staff.put('/payment-providers/airtel_money', { enabled: true, credentials: CREDENTIALS }),
      200,
    ).json<Provider>();
    const lease = await tenantWithLease(c.staff);
    const callback = saved.callback_urls?.callback ?? '';
    const start = async (client = c.staff, amount = 250000) =>
      expectStatus(
        await client.post(`/occupancy/${lease.leaseId}/payment-requests`, {
          amount,
          phone: PHONE,
          provider: 'airtel_money',
        }),
        201,
      ).json<Request>();
    const follow = async (id: number) =>
      expectStatus(
        await c.staff.get(`/occupancy/${lease.leaseId}/payment-requests/${id}`),
        200,
      ).json<Request>();
    return { ...c, lease, callback, start, follow };
  };

  const airtelPayments = (leaseId: number) =>
    t.database.query<{ id: number; amount_paid: string; reference_number: string; receipt_number: string }>(
      `SELECT id, amount_paid::text AS amount_paid, reference_number, receipt_number FROM payments
        WHERE occupancy_id = $1 AND payment_method = 'mobilemoney' ORDER BY id`,
      [leaseId],
    );

  it('answers the callback URL to paste in Airtel’s portal; a country Airtel is not in is refused', async () => {
    const { staff, callback } = await airtelCompany();
    expect(callback).toMatch(new RegExp(`^${PUBLIC_URL}/rentapi/api/pay-callbacks/airtel/[0-9a-f]{32}$`));
    const got = expectStatus(await staff.get('/payment-providers/airtel_money'), 200).json<Provider>();
    expect(got.callback_urls).toEqual({ callback });
    const res = await staff.put('/payment-providers/airtel_money', {
      enabled: true,
      credentials: { country: 'FR' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: string }>().error).toContain('country');
  });

  it('completed: the USSD push as Airtel documents it, one payment and its receipt for a replayed callback', async () => {
    const { lease, callback, start, follow } = await airtelCompany();
    const a = await start();
    expect(a.status).toBe('pending');
    const push = airtel.last();
    // the msisdn without its country code, the country's currency, the lease's account number
    expect(push.body).toMatchObject({
      subscriber: { country: 'UG', currency: 'UGX', msisdn: '752123456' },
      transaction: { amount: 250000, country: 'UG', currency: 'UGX', id: push.id },
    });
    expect(typeof push.body.reference).toBe('string');
    const paid = airtel.settle(push.id, 'TS');
    const caller = new TestClient(t.app);
    for (let i = 0; i < 2; i += 1)
      expect(expectStatus(await caller.post(pathOf(callback), paid), 200).json()).toEqual({ received: true });
    const done = await follow(a.id);
    expect(done).toMatchObject({
      status: 'completed',
      transaction_id: paid.transaction.airtel_money_id,
      flagged: false,
      received_amount: '250000.00',
    });
    expect(done.receipt_number).toMatch(/^RCT/);
    const rows = await airtelPayments(lease.leaseId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: done.payment_id,
      amount_paid: '250000.00',
      reference_number: paid.transaction.airtel_money_id,
      receipt_number: done.receipt_number,
    });
    // posted to the books once
    const [entries] = await t.database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM journal_entries WHERE source = 'payment' AND source_id = $1`,
      [done.payment_id],
    );
    expect(entries?.n).toBe(1);
  });

  it('failed with Airtel’s reason, a declined prompt cancelled; nothing posted', async () => {
    const { lease, callback, start, follow } = await airtelCompany();
    const caller = new TestClient(t.app);
    const a = await start();
    const failed = airtel.settle(airtel.last().id, 'TF', 'Insufficient funds in the subscriber wallet');
    expectStatus(await caller.post(pathOf(callback), failed), 200);
    expect(await follow(a.id)).toMatchObject({
      status: 'failed',
      reason: 'Insufficient funds in the subscriber wallet',
      payment_id: null,
    });
    const b = await start();
    const declined = airtel.settle(airtel.last().id, 'TF', 'Transaction declined by the subscriber');
    expectStatus(await caller.post(pathOf(callback), declined), 200);
    expect(await follow(b.id)).toMatchObject({ status: 'cancelled', payment_id: null });
    // a late 'paid' callback for a failed request: Airtel says TF, nothing changes
    expectStatus(
      await caller.post(pathOf(callback), {
        transaction: { ...failed.transaction, status_code: 'TS', airtel_money_id: 'MPLATE' },
      }),
      200,
    );
    expect((await follow(a.id)).status).toBe('failed');
    expect(await airtelPayments(lease.leaseId)).toHaveLength(0);
  });

  it('no callback: after two minutes Kodi asks Airtel (in progress, then paid) and posts once', async () => {
    const { company, lease, start, follow } = await airtelCompany();
    const a = await start();
    const push = airtel.last();
    expect((await overdueRequests(t.database.db, 120)).some((o) => o.id === a.id)).toBe(false);
    const later = new Date(Date.now() + 121_000);
    expect(await overdueRequests(t.database.db, 120, later)).toContainEqual({
      company_id: company.id,
      id: a.id,
    });
    const ctx = await ctxOf(t);
    // Airtel says TIP: still pending
    await checkPaymentRequest(ctx, paymentsServer, company.id, a.id);
    expect((await follow(a.id)).status).toBe('pending');
    // the subscriber paid, the callback was lost: the enquiry says TS
    const paid = airtel.settle(push.id, 'TS');
    await checkPaymentRequest(ctx, paymentsServer, company.id, a.id);
    await checkPaymentRequest(ctx, paymentsServer, company.id, a.id);
    const done = await follow(a.id);
    expect(done).toMatchObject({ status: 'completed', transaction_id: paid.transaction.airtel_money_id });
    expect(done.receipt_number).toMatch(/^RCT/);
    expect(await airtelPayments(lease.leaseId)).toHaveLength(1);
    expect((await overdueRequests(t.database.db, 120, later)).some((o) => o.id === a.id)).toBe(false);

    // a failure found by the enquiry: failed with Airtel's reason
    const b = await start();
    airtel.settle(airtel.last().id, 'TF', 'Subscriber did not enter the PIN in time');
    await checkPaymentRequest(ctx, paymentsServer, company.id, b.id);
    expect(await follow(b.id)).toMatchObject({
      status: 'failed',
      reason: 'Subscriber did not enter the PIN in time',
    });
    expect(await airtelPayments(lease.leaseId)).toHaveLength(1);
  });

  it('a forged callback posts nothing: a wrong path, a transaction Airtel does not confirm, one it never made', async () => {
    const { lease, callback, start, follow } = await airtelCompany();
    const caller = new TestClient(t.app);
    const a = await start();
    const push = airtel.last();
    const forged = {
      transaction: { id: push.id, message: 'Paid', status_code: 'TS', airtel_money_id: 'MPFORGED' },
    };
    // at a path no company has (a well-formed key, a malformed one): 404
    expect((await caller.post(`/pay-callbacks/airtel/${'c'.repeat(32)}`, forged)).statusCode).toBe(404);
    expect((await caller.post('/pay-callbacks/airtel/not-a-key', forged)).statusCode).toBe(404);
    // at the right path, 'paid' while Airtel still says TIP: nothing
    expectStatus(await caller.post(pathOf(callback), forged), 200);
    // a transaction Airtel never made: nothing
    expectStatus(
      await caller.post(pathOf(callback), {
        transaction: { ...forged.transaction, id: 'NOSUCHTRANSACTION' },
      }),
      200,
    );
    // a body that is no Airtel callback: nothing
    expectStatus(await caller.post(pathOf(callback), { hello: 'world' }), 200);
    expect((await follow(a.id)).status).toBe('pending');
    expect(await airtelPayments(lease.leaseId)).toHaveLength(0);
    const [lines] = await t.database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM statement_lines WHERE transaction_id = 'MPFORGED'`,
    );
    expect(lines?.n).toBe(0);
  });

  it('company scope and roles: editors prompt, viewers only follow, another company sees nothing', async () => {
    const { company, staff, lease, callback, start, follow } = await airtelCompany();
    const as = async (roles: ('editor' | 'viewer' | 'company_admin')[]) => {
      const u = await buildUser(t.database, { company_id: company.id, roles });
      const c = new TestClient(t.app);
      expectStatus(await c.login(u.email, u.password), 200);
      return c;
    };
    const editor = await as(['editor']);
    const viewer = await as(['viewer']);
    // an editor sends a prompt; a viewer cannot, but follows it
    const a = await start(editor, 1000);
    const body = { amount: 1000, phone: PHONE, provider: 'airtel_money' };
    expect((await viewer.post(`/occupancy/${lease.leaseId}/payment-requests`, body)).statusCode).toBe(403);
    expect(
      expectStatus(
        await viewer.get(`/occupancy/${lease.leaseId}/payment-requests/${a.id}`),
        200,
      ).json<Request>().id,
    ).toBe(a.id);
    // Request payment's choices, for those who may send prompts: the providers on, the tenant's phone
    expect(expectStatus(await editor.get('/payment-requests/providers'), 200).json()).toEqual({
      providers: ['airtel_money'],
    });
    expect(
      expectStatus(await editor.get(`/occupancy/${lease.leaseId}/payment-requests/options`), 200).json(),
    ).toEqual({ providers: ['airtel_money'], phone: lease.phone, provider: 'airtel_money' });
    expect((await viewer.get('/payment-requests/providers')).statusCode).toBe(403);
    expect((await viewer.get(`/occupancy/${lease.leaseId}/payment-requests/options`)).statusCode).toBe(403);
    // only company admins see or change the provider's settings
    for (const c of [editor, viewer]) {
      expect((await c.get('/payment-providers/airtel_money')).statusCode).toBe(403);
      expect(
        (await c.put('/payment-providers/airtel_money', { enabled: false, credentials: {} })).statusCode,
      ).toBe(403);
    }
    expectStatus(await (await as(['company_admin'])).get('/payment-providers/airtel_money'), 200);
    // the request under another lease of the company: not found
    const other = await tenantWithLease(staff);
    expect((await staff.get(`/occupancy/${other.leaseId}/payment-requests/${a.id}`)).statusCode).toBe(404);

    // another company with Airtel on: neither this lease nor this request; its callback path does not settle ours
    const them = await portalCompany(t);
    // a company with no provider on: none to offer
    expect(expectStatus(await them.staff.get('/payment-requests/providers'), 200).json()).toEqual({
      providers: [],
    });
    const theirs = expectStatus(
      await them.staff.put('/payment-providers/airtel_money', { enabled: true, credentials: CREDENTIALS }),
      200,
    ).json<Provider>();
    expect(theirs.callback_urls?.callback).not.toBe(callback);
    expect((await them.staff.post(`/occupancy/${lease.leaseId}/payment-requests`, body)).statusCode).toBe(
      404,
    );
    expect((await them.staff.get(`/occupancy/${lease.leaseId}/payment-requests/options`)).statusCode).toBe(
      404,
    );
    expect((await them.staff.get(`/occupancy/${lease.leaseId}/payment-requests/${a.id}`)).statusCode).toBe(
      404,
    );
    const paid = airtel.settle(airtel.last().id, 'TS');
    expectStatus(await new TestClient(t.app).post(pathOf(theirs.callback_urls?.callback ?? ''), paid), 200);
    expect((await follow(a.id)).status).toBe('pending');
    expect(await airtelPayments(lease.leaseId)).toHaveLength(0);
    // its own path does
    expectStatus(await new TestClient(t.app).post(pathOf(callback), paid), 200);
    expect((await follow(a.id)).status).toBe('completed');
    // a provider turned off takes no callback
    expectStatus(
      await staff.put('/payment-providers/airtel_money', { enabled: false, credentials: {} }),
      200,
    );
    expect((await new TestClient(t.app).post(pathOf(callback), paid)).statusCode).toBe(404);
  }, 120_000);
});
