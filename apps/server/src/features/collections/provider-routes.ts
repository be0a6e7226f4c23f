import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AppError,
  paymentProviderBody,
  paymentProviderNames,
  paymentProviderSchema,
  paymentRequestBody,
  paymentRequestSchema,
  providerOfPhone,
  type PaymentProviderName,
} from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import type { ServerEntity } from '../../crud/server-entity.ts';
import { currentUser } from '../../plugins/guard.ts';
import { errors, json, named } from '../../plugins/openapi.ts';
import { airtelOutcome, stkOutcomeOf, type ProviderOutcome } from './provider-clients.ts';
import { C2B_ACCEPTED, C2B_INVALID_ACCOUNT, confirmC2b, leaseOfAccount, type C2bPayload } from './c2b.ts';
import { presentProvider, providerOfCallback, readProviderRow, saveProvider } from './providers.ts';
import { checkPaymentRequest, readPaymentRequest, startPaymentRequest } from './payment-requests.ts';
import { sql } from 'drizzle-orm';
import { execRows } from '../../db/client.ts';
import { companyCallingCode, toE164 } from '../../modules/companies/phones.ts';

const tags = ['payment-providers'];
const Provider = named(paymentProviderSchema, 'PaymentProvider');
const Request = named(paymentRequestSchema, 'PaymentRequest');
const Options = named(
  z.object({
    providers: z.array(z.enum(paymentProviderNames)),
    phone: z.string().nullable(),
    provider: z.enum(paymentProviderNames).nullable(),
  }),
  'PaymentOptions',
);
const providerParams = z.object({ provider: z.enum(paymentProviderNames) });
const id32 = z.coerce.number().int().positive().max(2147483647);
const keyParams = z.object({ key: z.string().max(64) });
const anyBody = z.record(z.string(), z.unknown());

/** What Daraja's STK callback says (`Body.stkCallback`, with CallbackMetadata items when paid). */
const stkCallbackOf = (body: Record<string, unknown>) => {
  const cb = ((body.Body as Record<string, unknown> | undefined)?.stkCallback ?? {}) as Record<
    string,
    unknown
  >;
  const items = (
    ((cb.CallbackMetadata as Record<string, unknown> | undefined)?.Item ?? []) as unknown[]
  ).filter((i): i is { Name: string; Value?: unknown } => !!i && typeof i === 'object' && 'Name' in i);
  const item = (name: string) => {
    const v = items.find((i) => i.Name === name)?.Value;
    return v === undefined || v === null ? null : String(v);
  };
  const checkout = typeof cb.CheckoutRequestID === 'string' ? cb.CheckoutRequestID : null;
  const outcome: ProviderOutcome = {
    ...stkOutcomeOf(String(cb.ResultCode ?? ''), typeof cb.ResultDesc === 'string' ? cb.ResultDesc : null),
    transaction_id: item('MpesaReceiptNumber'),
    amount: item('Amount'),
  };
  return { checkout, outcome };
};

/**
 * Mobile-money providers (issue 29): each company's settings of M-Pesa, MTN MoMo and Airtel Money
 * (company admins), the prompts staff and tenants send to a phone, and the providers' callbacks
 * (no session: a secret path segment per company and provider; nothing is posted before the provider
 * itself confirms it by its status query).
 */
export const paymentProvidersRoutes = (app: FastifyInstance, ctx: AppContext, payments: ServerEntity) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx.database;

  r.get(
    '/payment-providers/:provider',
    {
      config: { access: 'companyAdmin' },
      schema: {
        operationId: 'getPaymentProvider',
        tags,
        summary:
          'A mobile-money provider of the company: on or off, which credentials are set (never their values), the callback URLs to paste in the provider’s portal',
        params: providerParams,
        response: { 200: json(Provider, 'The provider'), ...errors(404, 503) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const row = await readProviderRow(db, user.company_id, request.params.provider);
      return presentProvider(ctx, request.params.provider, row);
    },
  );

  r.put(
    '/payment-providers/:provider',
    {
      config: { access: 'companyAdmin' },
      schema: {
        operationId: 'putPaymentProvider',
        tags,
        summary:
          'Turn a provider on or off and set its credentials (sealed; a credential left out is kept, null clears it)',
        params: providerParams,
        body: paymentProviderBody,
        response: { 200: json(Provider, 'Saved'), ...errors(404, 409, 503) },
      },
    },
    async (request) => saveProvider(ctx, currentUser(request), request.params.provider, request.body),
  );

  // ------------------------------------------------------------ prompts on a phone
  r.post(
    '/occupancy/:id/payment-requests',
    {
      config: { access: 'canEdit' },
      schema: {
        operationId: 'requestLeasePayment',
        tags,
        summary:
          'Send a payment prompt (M-Pesa STK push, MoMo request-to-pay, Airtel) to a phone for a lease',
        params: z.object({ id: id32 }),
        body: paymentRequestBody,
        response: { 201: json(Request, 'Sent: pending'), ...errors(404, 422, 502) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const made = await startPaymentRequest(
        ctx,
        { companyId: user.company_id, userId: user.id },
        request.params.id,
        request.body,
      );
      return reply.code(201).send(made);
    },
  );

  r.get(
    '/occupancy/:id/payment-requests/:requestId',
    {
      config: { access: 'anyRole' },
      schema: {
        operationId: 'getLeasePaymentRequest',
        tags,
        summary:
          'A payment prompt: pending, completed (its payment and receipt), failed or cancelled (the reason)',
        params: z.object({ id: id32, requestId: id32 }),
        response: { 200: json(Request, 'The request'), ...errors(404) },
      },
    },
    async (request) =>
      readPaymentRequest(
        ctx,
        db,
        currentUser(request).company_id,
        request.params.requestId,
        request.params.id,
      ),
  );

  const tenantLease = async (companyId: number, tenantId: number, occupancyId: number | undefined) => {
    const [lease] = await execRows<{ id: number }>(
      db,
      sql`SELECT id FROM occupancy WHERE company_id = ${companyId} AND tenant_id = ${tenantId}
            ${occupancyId === undefined ? sql`` : sql`AND id = ${occupancyId}`}
          ORDER BY is_active DESC, start_date DESC, id DESC LIMIT 1`,
    );
    if (!lease) throw new AppError('not_found', 'Occupancy record not found.');
    return Number(lease.id);
  };

  /** The providers the company has on. */
  const enabledProviders = async (companyId: number) =>
    (
      await execRows<{ provider: PaymentProviderName }>(
        db,
        sql`SELECT provider FROM payment_providers WHERE company_id = ${companyId} AND enabled ORDER BY provider`,
      )
    ).map((p) => p.provider);

  /** A prompt's choices: the providers on, the phone as E.164, the provider of its network when on. */
  const choicesOf = async (companyId: number, rawPhone: string | null | undefined) => {
    const phone = toE164(rawPhone, await companyCallingCode(db, companyId)) ?? null;
    const providers = await enabledProviders(companyId);
    const own = phone ? providerOfPhone(phone) : null;
    return { providers, phone, provider: own && providers.includes(own) ? own : (providers[0] ?? null) };
  };

  r.get(
    '/payment-requests/providers',
    {
      config: { access: 'canEdit' },
      schema: {
        operationId: 'paymentRequestProviders',
        tags,
        summary:
          'The providers the company has on (staff may send a payment prompt only when one is): no credentials, no settings',
        response: { 200: json(z.object({ providers: z.array(z.enum(paymentProviderNames)) }), 'On') },
      },
    },
    async (request) => ({ providers: await enabledProviders(currentUser(request).company_id) }),
  );

  r.get(
    '/occupancy/:id/payment-requests/options',
    {
      config: { access: 'canEdit' },
      schema: {
        operationId: 'leasePaymentOptions',
        tags,
        summary:
          'Request payment’s choices for a lease: the providers the company has on, its tenant’s phone (E.164) and the provider of its network',
        params: z.object({ id: id32 }),
        response: { 200: json(Options, 'The choices'), ...errors(404) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const [lease] = await execRows<{ phone: string | null }>(
        db,
        sql`SELECT t.phone FROM occupancy o
              JOIN tenants t ON t.company_id = o.company_id AND t.id = o.tenant_id
             WHERE o.company_id = ${user.company_id} AND o.id = ${request.params.id}`,
      );
      if (!lease) throw new AppError('not_found', 'Occupancy record not found.');
      return choicesOf(user.company_id, lease.phone);
    },
  );

  r.get(
    '/portal/payments/options',
    {
      config: { access: 'tenant' },
      schema: {
        operationId: 'portalPaymentOptions',
        tags: ['portal'],
        summary:
          'Pay now’s choices: the providers the company has on, the tenant’s phone (E.164) and the provider of its network',
        response: {
          200: json(Options, 'The choices'),
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      if (!user.tenant_id) throw new AppError('forbidden');
      const [tenant] = await execRows<{ phone: string | null }>(
        db,
        sql`SELECT phone FROM tenants WHERE company_id = ${user.company_id} AND id = ${user.tenant_id}`,
      );
      return choicesOf(user.company_id, tenant?.phone);
    },
  );

  r.post(
    '/portal/payments/request',
    {
      config: { access: 'tenant' },
      schema: {
        operationId: 'portalRequestPayment',
        tags: ['portal'],
        summary:
          'Pay now: a payment prompt to the tenant’s phone for its own lease (its current one unless given)',
        body: paymentRequestBody.extend({ occupancy_id: id32.optional() }),
        response: { 201: json(Request, 'Sent: pending'), ...errors(404, 422, 502) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      if (!user.tenant_id) throw new AppError('forbidden');
      const { occupancy_id, ...body } = request.body;
      const lease = await tenantLease(user.company_id, user.tenant_id, occupancy_id);
      const made = await startPaymentRequest(
        ctx,
        { companyId: user.company_id, userId: user.id },
        lease,
        body,
      );
      return reply.code(201).send(made);
    },
  );

  r.get(
    '/portal/payments/requests/:id',
    {
      config: { access: 'tenant' },
      schema: {
        operationId: 'portalGetPaymentRequest',
        tags: ['portal'],
        summary: 'The tenant’s own payment prompt and where it is',
        params: z.object({ id: id32 }),
        response: { 200: json(Request, 'The request'), ...errors(404) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      if (!user.tenant_id) throw new AppError('forbidden');
      const found = await readPaymentRequest(ctx, db, user.company_id, request.params.id);
      // another tenant's request: not found
      await tenantLease(user.company_id, user.tenant_id, found.occupancy_id);
      return found;
    },
  );

  // ------------------------------------------------------------ the providers' callbacks (no session)
  const callbackConfig = { access: 'public' as const, sessionless: true };
  const companyOf = async (provider: PaymentProviderName, key: string) => {
    const row = await providerOfCallback(db, provider, key);
    // an unknown path (forged, or a provider turned off): not found, nothing done
    if (!row?.enabled) throw new AppError('not_found');
    return row;
  };
  const pendingByProviderId = async (
    companyId: number,
    provider: PaymentProviderName,
    providerId: string,
  ) => {
    const [row] = await execRows<{ id: number }>(
      db,
      sql`SELECT id FROM payment_requests
           WHERE company_id = ${companyId} AND provider = ${provider} AND provider_request_id = ${providerId}`,
    );
    return row ? Number(row.id) : undefined;
  };
  const darajaAck = z.object({ ResultCode: z.union([z.string(), z.number()]), ResultDesc: z.string() });

  r.post(
    '/pay-callbacks/lipa/:key/validation',
    {
      config: callbackConfig,
      schema: {
        operationId: 'darajaValidation',
        tags,
        summary:
          'Daraja’s C2B validation: accepted, or C2B00012 (invalid account number) when the company refuses unknown account numbers',
        security: [],
        params: keyParams,
        body: anyBody,
        response: { 200: json(darajaAck, 'Daraja’s answer'), ...errors(404) },
      },
    },
    async (request) => {
      const row = await companyOf('mpesa', request.params.key);
      if (!row.refuse_unknown_accounts) return C2B_ACCEPTED;
      const account = request.body.BillRefNumber;
      const lease = await leaseOfAccount(
        db,
        row.company_id,
        typeof account === 'string' ? account : undefined,
      );
      return lease ? C2B_ACCEPTED : C2B_INVALID_ACCOUNT;
    },
  );

  const c2bBody = z
    .object({
      TransID: z.string().trim().min(1).max(100),
      TransTime: z.string().max(20).optional(),
      TransAmount: z.coerce.number().positive().max(1e11),
      BillRefNumber: z.string().max(100).optional(),
      MSISDN: z.union([z.string(), z.number()]).optional(),
      FirstName: z.string().max(100).optional(),
      MiddleName: z.string().max(100).optional(),
      LastName: z.string().max(100).optional(),
    })
    .passthrough();

  r.post(
    '/pay-callbacks/lipa/:key/confirmation',
    {
      config: callbackConfig,
      schema: {
        operationId: 'darajaConfirmation',
        tags,
        summary:
          'Daraja’s C2B confirmation: the payment posted on the lease of its account number (once per TransID), else an unmatched line in Collections',
        security: [],
        params: keyParams,
        body: c2bBody,
        response: { 200: json(darajaAck, 'Received'), ...errors(400, 404) },
      },
    },
    async (request) => {
      const row = await companyOf('mpesa', request.params.key);
      await confirmC2b(ctx, payments, Number(row.company_id), request.body as C2bPayload);
      return { ResultCode: 0, ResultDesc: 'Success' };
    },
  );

  r.post(
    '/pay-callbacks/lipa/:key/prompt',
    {
      config: callbackConfig,
      schema: {
        operationId: 'darajaStkCallback',
        tags,
        summary: 'Daraja’s STK push callback: believed only after Kodi’s own status query to Daraja agrees',
        security: [],
        params: keyParams,
        body: anyBody,
        response: { 200: json(darajaAck, 'Received'), ...errors(404) },
      },
    },
    async (request) => {
      const row = await companyOf('mpesa', request.params.key);
      const { checkout, outcome } = stkCallbackOf(request.body);
      const id = checkout ? await pendingByProviderId(Number(row.company_id), 'mpesa', checkout) : undefined;
      if (id !== undefined) await checkPaymentRequest(ctx, payments, Number(row.company_id), id, outcome);
      return { ResultCode: 0, ResultDesc: 'Accepted' };
    },
  );

  // MTN MoMo calls back with the request's final state (PUT or POST); the reference is the request's X-Reference-Id
  for (const method of ['POST', 'PUT'] as const)
    r.route({
      method,
      url: '/pay-callbacks/momo/:key/:reference',
      config: callbackConfig,
      schema: {
        operationId: `momoCallback${method === 'PUT' ? 'Put' : ''}`,
        tags,
        summary:
          'MTN MoMo’s request-to-pay callback: believed only after Kodi asks MoMo for the request’s status',
        security: [],
        params: keyParams.extend({ reference: z.string().max(100) }),
        body: anyBody,
        response: { 200: json(z.object({ received: z.boolean() }), 'Received'), ...errors(404) },
      },
      handler: async (request) => {
        const row = await companyOf('mtn_momo', request.params.key);
        const id = await pendingByProviderId(Number(row.company_id), 'mtn_momo', request.params.reference);
        if (id !== undefined) await checkPaymentRequest(ctx, payments, Number(row.company_id), id);
        return { received: true };
      },
    });

  r.post(
    '/pay-callbacks/airtel/:key',
    {
      config: callbackConfig,
      schema: {
        operationId: 'airtelCallback',
        tags,
        summary:
          'Airtel Money’s payment callback: believed only after Kodi asks Airtel for the transaction’s status',
        security: [],
        params: keyParams,
        body: anyBody,
        response: { 200: json(z.object({ received: z.boolean() }), 'Received'), ...errors(404) },
      },
    },
    async (request) => {
      const row = await companyOf('airtel_money', request.params.key);
      const tx = (request.body.transaction ?? {}) as Record<string, unknown>;
      const providerId = typeof tx.id === 'string' ? tx.id : null;
      const id = providerId
        ? await pendingByProviderId(Number(row.company_id), 'airtel_money', providerId)
        : undefined;
      const said = airtelOutcome(
        String(tx.status_code ?? ''),
        typeof tx.message === 'string' ? tx.message : null,
        typeof tx.airtel_money_id === 'string' ? tx.airtel_money_id : null,
      );
      if (id !== undefined) await checkPaymentRequest(ctx, payments, Number(row.company_id), id, said);
      return { received: true };
    },
  );
};
