import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { TestClient } from '../../test/client.ts';
import { buildUser } from '../../test/factories.ts';
import { expectStatus, setSettings } from '../../test/rent-cycle.ts';
import { queueReceipts } from '../../modules/messaging/sender.ts';
import { portalCompany, portalTenant, tenantWithLease } from '../../test/portal.ts';
import { FORBIDDEN_CALLBACK_WORDS, startDaraja, type LocalDaraja } from '../../test/providers/daraja.ts';
import { startMomo } from '../../test/providers/momo.ts';
import { checkPaymentRequest, overdueRequests } from './payment-requests.ts';
import {
  paymentsServerPart,
  providerTestContext,
  type PaymentRequestAnswer,
} from '../../test/payment-providers.ts';

const ACCOUNT = {
  consumerKey: 'ck-local-123',
  consumerSecret: 'cs-local-456',
  shortcode: '174379',
  passkey: 'bfb279f9aa9bdbcf158e97dd71a467cd2e0c893059b10f78e6b72ada1ed2c919',
};
const CREDENTIALS = {
  shortcode: ACCOUNT.shortcode,
  consumer_key: ACCOUNT.consumerKey,
  consumer_secret: ACCOUNT.consumerSecret,
  passkey: ACCOUNT.passkey,
};
const PUBLIC_URL = 'https://rent.example.co.ke';
const PHONE = '0712 345 678';

type Provider = {
  enabled: boolean;
  credentials_set: Record<string, boolean>;
  callback_urls: Record<string, string> | null;
  refuse_unknown_accounts: boolean;
  version: number;
};
type Request = PaymentRequestAnswer;

const ctxOf = providerTestContext;

const paymentsServer = paymentsServerPart();

/** The path of a callback URL under the API (what the provider posts to). */
const pathOf = (url: string) => url.replace(PUBLIC_URL, '');

/**
 * Issue 29: M-Pesa through a local Daraja (src/test/providers/daraja.ts): the company's provider
 * settings, C2B validation and confirmation, and STK push prompts followed to their end.
 */
describe(`mobile-money providers (${testDriver})`, () => {
  let t: TestContext;
  let daraja: LocalDaraja;
  beforeAll(async () => {
    daraja = await startDaraja(ACCOUNT);
  });
  afterAll(async () => {
    await daraja.stop();
  });
  beforeEach(async () => {
    t = await setupApp({ mpesaBaseUrl: daraja.url, publicUrl: PUBLIC_URL });
  });
  afterEach(async () => {
    await t.app.close();
  });

  /** A Kenyan company with M-Pesa on, a tenant and lease: the staff client and the callback URLs. */
  const mpesaCompany = async (opts: { refuse?: boolean } = {}) => {
    const c = await portalCompany(t);
    await t.database.query(`UPDATE companies SET country_code = 'KEN', currency_code = 'KES' WHERE id = $1`, [
      c.company.id,
    ]);
    const saved = expectStatus(
      await c.staff.put('/payment-providers/mpesa', {
        enabled: true,
        credentials: CREDENTIALS,
        refuse_unknown_accounts: opts.refuse ?? false,
      }),
      200,
    ).json<Provider>();
    const lease = await tenantWithLease(c.staff);
    const { account_reference } = expectStatus(await c.staff.get(`/occupancy/${lease.leaseId}`), 200).json<{
      account_reference: string;
    }>();
    return { ...c, lease, account: account_reference, urls: saved.callback_urls ?? {} };
  };

  /** The receipt messages of a payment, once the sender has queued every receipt due (SMS chosen). */
  const receiptMessagesOf = async (paymentId: number | undefined) => {
    for (let queued = 1; queued > 0;) queued = await queueReceipts(t.database, t.config);
    return t.database.query<{ channel: string; body: string }>(
      `SELECT channel, body FROM messages WHERE kind = 'receipt' AND payment_id = $1 ORDER BY id`,
      [paymentId],
    );
  };
  const smsReceipts = (staff: TestClient) =>
    setSettings(staff, { receipt_notification: { email: false, sms: true, whatsapp: false } });

  const paymentsOf = (leaseId: number) =>
    t.database.query<{
      id: number;
      amount_paid: string;
      reference_number: string;
      status: string;
      receipt_number: string;
    }>(
      `SELECT id, amount_paid::text AS amount_paid, reference_number, status, receipt_number FROM payments
        WHERE occupancy_id = $1 AND payment_method = 'mobilemoney' ORDER BY id`,
      [leaseId],
    );

  it('keeps each provider’s credentials sealed, answers only whether each is set, for company admins only', async () => {
    const { company, staff } = await portalCompany(t);
    const before = expectStatus(await staff.get('/payment-providers/mpesa'), 200).json<Provider>();
    expect(before).toMatchObject({ enabled: false, callback_urls: null });
    expect(Object.values(before.credentials_set).every((v) => !v)).toBe(true);
    // turning it on needs its credentials
    const missing = await staff.put('/payment-providers/mpesa', {
      enabled: true,
      credentials: { shortcode: '174379' },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json<{ error: string }>().error).toContain('consumer key');
    // a credential another provider has: refused
    expect(
      (await staff.put('/payment-providers/mpesa', { enabled: false, credentials: { api_key: 'x' } }))
        .statusCode,
    ).toBe(400);

    const saved = expectStatus(
      await staff.put('/payment-providers/mpesa', { enabled: true, credentials: CREDENTIALS }),
      200,
    );
    expect(saved.body).not.toContain(ACCOUNT.consumerSecret);
    expect(saved.body).not.toContain(ACCOUNT.passkey);
    const got = expectStatus(await staff.get('/payment-providers/mpesa'), 200);
    expect(got.body).not.toContain(ACCOUNT.consumerSecret);
    expect(got.json<Provider>().credentials_set).toEqual({
      shortcode: true,
      till_number: false,
      consumer_key: true,
      consumer_secret: true,
      passkey: true,
    });
    // stored sealed when the server has a key
    const [row] = await t.database.query<{ credentials: string }>(
      'SELECT credentials FROM payment_providers WHERE company_id = $1',
      [company.id],
    );
    if ((await ctxOf(t)).secrets.keyId) expect(row?.credentials).toMatch(/^v1\./);
    expect(row?.credentials.startsWith('v1.') ? row.credentials : '').not.toContain(ACCOUNT.consumerSecret);
    // a credential left out is kept; null clears it
    const cleared = expectStatus(
      await staff.put('/payment-providers/mpesa', { enabled: false, credentials: { passkey: null } }),
      200,
    ).json<Provider>();
    expect(cleared.credentials_set).toMatchObject({ consumer_secret: true, passkey: false });
    // the audit log says which changed, never the values
    const audit = await t.database.query<{ after: unknown }>(
      `SELECT after FROM audit_entries WHERE company_id = $1 AND entity = 'payment_providers' ORDER BY id`,
      [company.id],
    );
    expect(audit.length).toBe(2);
    expect(JSON.stringify(audit)).not.toContain(ACCOUNT.consumerSecret);

    // roles: an editor and a viewer neither read nor change it; a company admin does
    for (const roles of [['editor'], ['viewer']] as const) {
      const u = await buildUser(t.database, { company_id: company.id, roles: [...roles] });
      const c = new TestClient(t.app);
      expectStatus(await c.login(u.email, u.password), 200);
      expect((await c.get('/payment-providers/mpesa')).statusCode).toBe(403);
      expect((await c.put('/payment-providers/mpesa', { enabled: false, credentials: {} })).statusCode).toBe(
        403,
      );
    }
    const ca = await buildUser(t.database, { company_id: company.id, roles: ['company_admin'] });
    const caClient = new TestClient(t.app);
    expectStatus(await caClient.login(ca.email, ca.password), 200);
    expectStatus(await caClient.get('/payment-providers/mtn_momo'), 200);
    expect((await caClient.get('/payment-providers/paypal')).statusCode).toBe(400);
    // another company sees its own settings, not these
    const other = await portalCompany(t);
    const theirs = expectStatus(await other.staff.get('/payment-providers/mpesa'), 200).json<Provider>();
    expect(theirs.credentials_set.consumer_key).toBe(false);
  }, 120_000);

  it('answers callback URLs Daraja accepts: none holds a word Daraja refuses', async () => {
    const { urls } = await mpesaCompany();
    expect(Object.keys(urls).sort()).toEqual(['confirmation', 'stk', 'validation']);
    for (const url of Object.values(urls)) {
      expect(url.startsWith(`${PUBLIC_URL}/rentapi/api/pay-callbacks/`)).toBe(true);
      for (const word of FORBIDDEN_CALLBACK_WORDS) expect(url.toLowerCase()).not.toContain(word);
    }
    // the local Daraja applies its rule: Kodi's URLs are registered, one with 'mpesa' is not
    const token = (await (
      await fetch(`${daraja.url}/oauth/v1/generate?grant_type=client_credentials`, {
        headers: {
          Authorization: `Basic ${Buffer.from(`${ACCOUNT.consumerKey}:${ACCOUNT.consumerSecret}`).toString('base64')}`,
        },
      })
    ).json()) as { access_token: string };
    const register = (confirmation: string) =>
      fetch(`${daraja.url}/mpesa/c2b/v1/registerurl`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token.access_token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          ShortCode: ACCOUNT.shortcode,
          ResponseType: 'Completed',
          ConfirmationURL: confirmation,
          ValidationURL: urls.validation,
        }),
      });
    expect((await register(urls.confirmation ?? '')).status).toBe(200);
    expect((await register(`${PUBLIC_URL}/mpesa/confirmation`)).status).toBe(400);
  });

  it('C2B: validates account numbers as the company chose, posts a known one once, keeps an unknown one for Collections', async () => {
    const { staff, lease, account, urls } = await mpesaCompany({ refuse: true });
    await smsReceipts(staff);
    const daraja = new TestClient(t.app);
    const payload = (transId: string, bill: string, amount = '250000.00') => ({
      TransactionType: 'Pay Bill',
      TransID: transId,
      TransTime: '20260115063845',
      TransAmount: amount,
      BusinessShortCode: ACCOUNT.shortcode,
      BillRefNumber: bill,
      InvoiceNumber: '',
      OrgAccountBalance: '49197.00',
      ThirdPartyTransID: '',
      MSISDN: '254712345678',
      FirstName: 'Jane',
      MiddleName: '',
      LastName: 'Wanjiru',
    });
    const validation = pathOf(urls.validation ?? '');
    const confirmation = pathOf(urls.confirmation ?? '');
    // validation: the lease's account number (any case) accepted; another refused as invalid (C2B00012)
    expect(
      expectStatus(await daraja.post(validation, payload('SKA1', account.toLowerCase())), 200).json(),
    ).toEqual({
      ResultCode: '0',
      ResultDesc: 'Accepted',
    });
    expect(expectStatus(await daraja.post(validation, payload('SKA2', 'NOSUCH')), 200).json()).toEqual({
      ResultCode: 'C2B00012',
      ResultDesc: 'Rejected',
    });
    // a company that takes every account number accepts it
    expectStatus(
      await staff.put('/payment-providers/mpesa', {
        enabled: true,
        credentials: {},
        refuse_unknown_accounts: false,
      }),
      200,
    );
    expect(expectStatus(await daraja.post(validation, payload('SKA2', 'NOSUCH')), 200).json()).toMatchObject({
      ResultCode: '0',
    });

    // confirmation of a known account: one completed payment, the TransID its reference, twice = once
    for (let i = 0; i < 2; i += 1)
      expect(
        expectStatus(await daraja.post(confirmation, payload('SKA1', account)), 200).json(),
      ).toMatchObject({ ResultCode: 0 });
    const paid = await paymentsOf(lease.leaseId);
    expect(paid).toHaveLength(1);
    expect(paid[0]).toMatchObject({
      amount_paid: '250000.00',
      reference_number: 'SKA1',
      status: 'completed',
    });
    expect(paid[0]?.receipt_number).toMatch(/^RCT/);
    // its receipt sent as for any payment (the company sends receipts by SMS), once
    const receipts = await receiptMessagesOf(paid[0]?.id);
    expect(receipts.map((m) => m.channel)).toEqual(['sms']);
    expect(receipts[0]?.body).toContain(paid[0]?.receipt_number);
    // posted to the books: the lease's balance went down by it
    const entries = await t.database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM journal_entries WHERE source = 'payment' AND source_id = $1`,
      [paid[0]?.id],
    );
    expect(entries[0]?.n).toBe(1);

    // an unknown account: no payment, an unmatched line in Collections
    expectStatus(await daraja.post(confirmation, payload('SKA3', 'NOSUCH', '1000')), 200);
    expect(await paymentsOf(lease.leaseId)).toHaveLength(1);
    const lines = expectStatus(await staff.get('/statement-lines?q=SKA3'), 200).json<
      { transaction_id: string; status: string }[]
    >();
    expect(lines.map((l) => [l.transaction_id, l.status])).toEqual([['SKA3', 'unmatched']]);

    // a forged call (a path no company has): not found, nothing kept
    const forged = confirmation.replace(/\/lipa\/[0-9a-f]{32}\//, `/lipa/${'0'.repeat(32)}/`);
    expect((await daraja.post(forged, payload('SKA4', account))).statusCode).toBe(404);
    expect(
      (await daraja.post(validation.replace(/[0-9a-f]{32}/, 'abc'), payload('SKA4', account))).statusCode,
    ).toBe(404);
    const [kept] = await t.database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM statement_lines WHERE transaction_id = 'SKA4'`,
    );
    expect(kept?.n).toBe(0);
  });

  it('STK push: completed (payment and receipt), failed and cancelled with the reason, a replayed callback once', async () => {
    const { staff, lease, urls } = await mpesaCompany();
    await smsReceipts(staff);
    const daraja2 = new TestClient(t.app);
    const start = async (amount = 150000) =>
      expectStatus(
        await staff.post(`/occupancy/${lease.leaseId}/payment-requests`, {
          amount,
          phone: PHONE,
          provider: 'mpesa',
        }),
        201,
      ).json<Request>();
    const follow = async (id: number) =>
      expectStatus(
        await staff.get(`/occupancy/${lease.leaseId}/payment-requests/${id}`),
        200,
      ).json<Request>();

    const a = await start();
    expect(a.status).toBe('pending');
    const push = daraja.last();
    expect(push.body).toMatchObject({
      PhoneNumber: '254712345678',
      Amount: 150000,
      TransactionType: 'CustomerPayBillOnline',
    });
    expect(push.body.CallBackURL).toBe(urls.stk);
    const paid = daraja.settle(push.checkoutRequestId, 'completed');
    for (let i = 0; i < 2; i += 1) expectStatus(await daraja2.post(pathOf(paid.url), paid.body), 200);
    const done = await follow(a.id);
    expect(done).toMatchObject({ status: 'completed', transaction_id: push.receipt, flagged: false });
    expect(done.receipt_number).toMatch(/^RCT/);
    const payments = await paymentsOf(lease.leaseId);
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({
      id: done.payment_id,
      amount_paid: '150000.00',
      reference_number: push.receipt,
    });
    // its receipt message, once for the replayed callback
    const receipts = await receiptMessagesOf(done.payment_id ?? undefined);
    expect(receipts.map((m) => m.channel)).toEqual(['sms']);
    expect(receipts[0]?.body).toContain(done.receipt_number);

    // failed and cancelled: the provider's reason, nothing posted
    for (const [outcome, reason] of [
      ['failed', 'The balance is insufficient for the transaction.'],
      ['cancelled', 'Request cancelled by user'],
    ] as const) {
      const r = await start();
      const cb = daraja.settle(daraja.last().checkoutRequestId, outcome);
      expectStatus(await daraja2.post(pathOf(cb.url), cb.body), 200);
      expect(await follow(r.id)).toMatchObject({ status: outcome, reason, payment_id: null });
    }
    expect(await paymentsOf(lease.leaseId)).toHaveLength(1);

    // an amount other than the request's: posted as received, flagged
    const c = await start(100000);
    const less = daraja.settle(daraja.last().checkoutRequestId, 'completed', 90000);
    expectStatus(await daraja2.post(pathOf(less.url), less.body), 200);
    expect(await follow(c.id)).toMatchObject({
      status: 'completed',
      flagged: true,
      received_amount: '90000.00',
    });
    expect((await paymentsOf(lease.leaseId)).map((p) => p.amount_paid)).toEqual(['150000.00', '90000.00']);
  });

  it('STK push: a forged callback posts nothing; without a callback Kodi asks Daraja after two minutes', async () => {
    const { company, staff, lease, urls } = await mpesaCompany();
    const caller = new TestClient(t.app);
    const r = expectStatus(
      await staff.post(`/occupancy/${lease.leaseId}/payment-requests`, {
        amount: 5000,
        phone: PHONE,
        provider: 'mpesa',
      }),
      201,
    ).json<Request>();
    const push = daraja.last();
    // a callback saying 'paid' for a push the customer has not answered: Daraja's query says pending
    const forged = {
      Body: {
        stkCallback: {
          MerchantRequestID: push.merchantRequestId,
          CheckoutRequestID: push.checkoutRequestId,
          ResultCode: 0,
          ResultDesc: 'The service request is processed successfully.',
          CallbackMetadata: {
            Item: [
              { Name: 'Amount', Value: 5000 },
              { Name: 'MpesaReceiptNumber', Value: 'FORGED1' },
            ],
          },
        },
      },
    };
    expectStatus(await caller.post(pathOf(urls.stk ?? ''), forged), 200);
    // at a path no company has: 404
    expect((await caller.post(`/pay-callbacks/lipa/${'a'.repeat(32)}/prompt`, forged)).statusCode).toBe(404);
    // for a CheckoutRequestID Daraja never made: nothing
    expectStatus(
      await caller.post(pathOf(urls.stk ?? ''), {
        Body: { stkCallback: { ...forged.Body.stkCallback, CheckoutRequestID: 'ws_CO_unknown' } },
      }),
      200,
    );
    const still = expectStatus(
      await staff.get(`/occupancy/${lease.leaseId}/payment-requests/${r.id}`),
      200,
    ).json<Request>();
    expect(still.status).toBe('pending');
    expect(await paymentsOf(lease.leaseId)).toHaveLength(0);

    // no callback: not overdue before two minutes, overdue after; the check asks Daraja (still pending), then paid
    expect((await overdueRequests(t.database.db, 120)).some((o) => o.id === r.id)).toBe(false);
    const later = new Date(Date.now() + 121_000);
    const due = await overdueRequests(t.database.db, 120, later);
    expect(due).toContainEqual({ company_id: company.id, id: r.id });
    await checkPaymentRequest(await ctxOf(t), paymentsServer, company.id, r.id);
    expect(
      expectStatus(
        await staff.get(`/occupancy/${lease.leaseId}/payment-requests/${r.id}`),
        200,
      ).json<Request>().status,
    ).toBe('pending');
    daraja.settle(push.checkoutRequestId, 'completed');
    await checkPaymentRequest(await ctxOf(t), paymentsServer, company.id, r.id);
    await checkPaymentRequest(await ctxOf(t), paymentsServer, company.id, r.id);
    const done = expectStatus(
      await staff.get(`/occupancy/${lease.leaseId}/payment-requests/${r.id}`),
      200,
    ).json<Request>();
    // Daraja's query does not say the receipt number: the payment is keyed by the CheckoutRequestID
    expect(done).toMatchObject({ status: 'completed', transaction_id: push.checkoutRequestId });
    expect(await paymentsOf(lease.leaseId)).toHaveLength(1);
    expect((await overdueRequests(t.database.db, 120, later)).some((o) => o.id === r.id)).toBe(false);
  });

  it('portal Pay now: a tenant prompts its own lease only; a viewer cannot send prompts; another company’s lease is not found', async () => {
    const { company, staff, lease } = await mpesaCompany();
    const tenant = await portalTenant(t, staff, lease.tenantId);
    // the choices: M-Pesa on; the tenant's Ugandan number has no M-Pesa network, the company's one provider is offered
    expect(expectStatus(await tenant.get('/portal/payments/options'), 200).json()).toEqual({
      providers: ['mpesa'],
      phone: lease.phone,
      provider: 'mpesa',
    });
    const made = expectStatus(
      await tenant.post('/portal/payments/request', { amount: 1000, phone: PHONE, provider: 'mpesa' }),
      201,
    ).json<Request>();
    expect(made.status).toBe('pending');
    const cb = daraja.settle(daraja.last().checkoutRequestId, 'completed');
    expectStatus(await new TestClient(t.app).post(pathOf(cb.url), cb.body), 200);
    const seen = expectStatus(await tenant.get(`/portal/payments/requests/${made.id}`), 200).json<Request>();
    expect(seen.status).toBe('completed');
    expect(seen.receipt_number).toMatch(/^RCT/);

    const b = await tenantWithLease(staff);
    expect(
      (
        await tenant.post('/portal/payments/request', {
          amount: 1000,
          phone: PHONE,
          provider: 'mpesa',
          occupancy_id: b.leaseId,
        })
      ).statusCode,
    ).toBe(404);
    // a staff request of another tenant is not the tenant's to read
    const staffMade = expectStatus(
      await staff.post(`/occupancy/${b.leaseId}/payment-requests`, {
        amount: 1000,
        phone: PHONE,
        provider: 'mpesa',
      }),
      201,
    ).json<Request>();
    expect((await tenant.get(`/portal/payments/requests/${staffMade.id}`)).statusCode).toBe(404);
    // staff routes are not the tenant's
    expect(
      (
        await tenant.post(`/occupancy/${lease.leaseId}/payment-requests`, {
          amount: 1,
          phone: PHONE,
          provider: 'mpesa',
        })
      ).statusCode,
    ).toBe(403);

    const viewer = await buildUser(t.database, { company_id: company.id, roles: ['viewer'] });
    const v = new TestClient(t.app);
    expectStatus(await v.login(viewer.email, viewer.password), 200);
    expect(
      (
        await v.post(`/occupancy/${lease.leaseId}/payment-requests`, {
          amount: 1,
          phone: PHONE,
          provider: 'mpesa',
        })
      ).statusCode,
    ).toBe(403);
    expectStatus(await v.get(`/occupancy/${lease.leaseId}/payment-requests/${made.id}`), 200);
    // MoMo is not on for this company: 422
    expect(
      (
        await staff.post(`/occupancy/${lease.leaseId}/payment-requests`, {
          amount: 1,
          phone: PHONE,
          provider: 'mtn_momo',
        })
      ).statusCode,
    ).toBe(422);
    // another company: not found
    const other = await portalCompany(t);
    expect(
      (
        await other.staff.post(`/occupancy/${lease.leaseId}/payment-requests`, {
          amount: 1,
          phone: PHONE,
          provider: 'mpesa',
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await other.staff.get(`/occupancy/${lease.leaseId}/payment-requests/${made.id}`)).statusCode,
    ).toBe(404);
  }, 120_000);
});

/** Issue 29: MTN MoMo request-to-pay through a local MoMo collections API (src/test/providers/momo.ts). */
describe(`MTN MoMo request-to-pay (${testDriver})`, () => {
  const MOMO = {
    subscriptionKey: 'sub-key-1',
    apiUser: 'a8b1c2d3-0000-4000-8000-000000000001',
    apiKey: 'api-key-1',
    environment: 'sandbox',
  };
  let t: TestContext;
  let momo: Awaited<ReturnType<typeof startMomo>>;
  beforeAll(async () => {
    momo = await startMomo(MOMO);
  });
  afterAll(async () => {
    await momo.stop();
  });
  beforeEach(async () => {
    t = await setupApp({ mtnMomoBaseUrl: momo.url, publicUrl: PUBLIC_URL });
  });
  afterEach(async () => {
    await t.app.close();
  });

  it('completed and rejected prompts, believed only from MoMo’s own status; a forged callback posts nothing', async () => {
    const { staff } = await portalCompany(t);
    const saved = expectStatus(
      await staff.put('/payment-providers/mtn_momo', {
        enabled: true,
        credentials: {
          subscription_key: MOMO.subscriptionKey,
          api_user: MOMO.apiUser,
          api_key: MOMO.apiKey,
          target_environment: MOMO.environment,
        },
      }),
      200,
    ).json<Provider>();
    const callback = saved.callback_urls?.callback ?? '';
    const lease = await tenantWithLease(staff);
    const caller = new TestClient(t.app);
    const start = async () =>
      expectStatus(
        await staff.post(`/occupancy/${lease.leaseId}/payment-requests`, {
          amount: 300000,
          phone: '0772 123456',
          provider: 'mtn_momo',
        }),
        201,
      ).json<Request>();
    const follow = async (id: number) =>
      expectStatus(
        await staff.get(`/occupancy/${lease.leaseId}/payment-requests/${id}`),
        200,
      ).json<Request>();

    const a = await start();
    const sent = momo.last();
    expect(sent.body).toMatchObject({
      amount: '300000.00',
      currency: 'UGX',
      payer: { partyIdType: 'MSISDN', partyId: '256772123456' },
    });
    expect(sent.callbackUrl).toBe(`${callback}/${sent.reference}`);
    // a callback saying SUCCESSFUL while MoMo still says PENDING: nothing
    expectStatus(
      await caller.put(pathOf(`${callback}/${sent.reference}`), {
        status: 'SUCCESSFUL',
        financialTransactionId: 'FORGED',
      }),
      200,
    );
    expect((await follow(a.id)).status).toBe('pending');
    // at a path no company has: 404
    expect((await caller.put(`/pay-callbacks/momo/${'b'.repeat(32)}/${sent.reference}`, {})).statusCode).toBe(
      404,
    );
    // at the company's path, for a request MoMo never made: nothing
    expectStatus(
      await caller.put(pathOf(`${callback}/c0ffee00-0000-4000-8000-000000000000`), {
        status: 'SUCCESSFUL',
        financialTransactionId: 'FORGED2',
      }),
      200,
    );
    const posted = await t.database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM payments WHERE occupancy_id = $1 AND payment_method = 'mobilemoney'`,
      [lease.leaseId],
    );
    expect(posted[0]?.n).toBe(0);
    // paid: the callback (replayed) makes one payment, keyed by MoMo's financialTransactionId
    const paid = momo.settle(sent.reference, 'SUCCESSFUL');
    for (let i = 0; i < 2; i += 1) expectStatus(await caller.put(pathOf(paid.url), paid.body), 200);
    const done = await follow(a.id);
    expect(done).toMatchObject({
      status: 'completed',
      transaction_id: paid.body.financialTransactionId,
      flagged: false,
    });
    expect(done.receipt_number).toMatch(/^RCT/);
    const rows = await t.database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM payments WHERE occupancy_id = $1 AND reference_number = $2`,
      [lease.leaseId, paid.body.financialTransactionId],
    );
    expect(rows[0]?.n).toBe(1);

    // the payer rejects: cancelled with MoMo's reason
    const b = await start();
    const rejected = momo.settle(momo.last().reference, 'FAILED', 'APPROVAL_REJECTED');
    expectStatus(await caller.post(pathOf(rejected.url), rejected.body), 200);
    expect(await follow(b.id)).toMatchObject({
      status: 'cancelled',
      reason: 'APPROVAL_REJECTED',
      payment_id: null,
    });
  });

  it('failed with MoMo’s reason; no callback: after two minutes Kodi asks MoMo (pending, then paid) and posts once', async () => {
    const { company, staff } = await portalCompany(t);
    expectStatus(
      await staff.put('/payment-providers/mtn_momo', {
        enabled: true,
        credentials: {
          subscription_key: MOMO.subscriptionKey,
          api_user: MOMO.apiUser,
          api_key: MOMO.apiKey,
          target_environment: MOMO.environment,
        },
      }),
      200,
    );
    const lease = await tenantWithLease(staff);
    const caller = new TestClient(t.app);
    const start = async () =>
      expectStatus(
        await staff.post(`/occupancy/${lease.leaseId}/payment-requests`, {
          amount: 120000,
          phone: '0772 123456',
          provider: 'mtn_momo',
        }),
        201,
      ).json<Request>();
    const follow = async (id: number) =>
      expectStatus(
        await staff.get(`/occupancy/${lease.leaseId}/payment-requests/${id}`),
        200,
      ).json<Request>();
    const momoPayments = async () =>
      (
        await t.database.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM payments WHERE occupancy_id = $1 AND payment_method = 'mobilemoney'`,
          [lease.leaseId],
        )
      )[0]?.n;

    // failed (not a rejection): failed with MoMo's reason, nothing posted
    const a = await start();
    const failed = momo.settle(momo.last().reference, 'FAILED', 'NOT_ENOUGH_FUNDS');
    expectStatus(await caller.put(pathOf(failed.url), failed.body), 200);
    expect(await follow(a.id)).toMatchObject({
      status: 'failed',
      reason: 'NOT_ENOUGH_FUNDS',
      payment_id: null,
    });
    expect(await momoPayments()).toBe(0);

    // timed out: no callback; overdue only after two minutes, then Kodi's own status query settles it
    const b = await start();
    const sent = momo.last();
    expect((await overdueRequests(t.database.db, 120)).some((o) => o.id === b.id)).toBe(false);
    const later = new Date(Date.now() + 121_000);
    expect(await overdueRequests(t.database.db, 120, later)).toContainEqual({
      company_id: company.id,
      id: b.id,
    });
    const ctx = await ctxOf(t);
    await checkPaymentRequest(ctx, paymentsServer, company.id, b.id);
    expect((await follow(b.id)).status).toBe('pending');
    const paid = momo.settle(sent.reference, 'SUCCESSFUL');
    await checkPaymentRequest(ctx, paymentsServer, company.id, b.id);
    await checkPaymentRequest(ctx, paymentsServer, company.id, b.id);
    const done = await follow(b.id);
    expect(done).toMatchObject({
      status: 'completed',
      transaction_id: paid.body.financialTransactionId,
      received_amount: '120000.00',
      flagged: false,
    });
    expect(done.receipt_number).toMatch(/^RCT/);
    expect(await momoPayments()).toBe(1);
    expect((await overdueRequests(t.database.db, 120, later)).some((o) => o.id === b.id)).toBe(false);
    // its callback arriving late: still one payment
    expectStatus(await caller.put(pathOf(paid.url), paid.body), 200);
    expect(await momoPayments()).toBe(1);
  });
});
