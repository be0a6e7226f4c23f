import { randomUUID } from 'node:crypto';
import { AppError, type PaymentProviderName, type PaymentRequestStatus } from '@kodi/domain';
import type { Config } from '../../config.ts';

/**
 * The providers' APIs as their documentation describes them (issue 29): Safaricom Daraja (OAuth
 * `GET /oauth/v1/generate`, Lipa na M-Pesa Online `POST /mpesa/stkpush/v1/processrequest` and its query
 * `POST /mpesa/stkpushquery/v1/query`, C2B `POST /mpesa/c2b/v1/registerurl`), MTN MoMo collections
 * (`POST /collection/token/`, `POST /collection/v1_0/requesttopay`, `GET /collection/v1_0/requesttopay/{id}`)
 * and Airtel Money (`POST /auth/oauth2/token`, `POST /merchant/v1/payments/`, `GET /standard/v1/payments/{id}`).
 * Tests run them against local servers (src/test/providers/) speaking the same requests and answers.
 */

/** What a provider says of a request: still pending, or its end (with the money moved when completed). */
export type ProviderOutcome = {
  status: PaymentRequestStatus;
  reason: string | null;
  /** the provider's id of the money moved, when it says it */
  transaction_id: string | null;
  /** the amount moved, when it says it */
  amount: string | null;
};

export type PromptInput = {
  /** whole units of the company's currency */
  amount: string;
  /** the payer's number, digits with the country code (2547…) */
  msisdn: string;
  /** the lease's account number (Daraja's AccountReference) */
  reference: string;
  currency: string;
  callbackUrl: string;
};

export type ProviderClient = {
  /** sends the prompt; answers the provider's id of the request */
  start: (input: PromptInput) => Promise<string>;
  /** asks the provider where the request is */
  status: (providerRequestId: string) => Promise<ProviderOutcome>;
};

export type Credentials = Record<string, string>;

const TIMEOUT_MS = 15_000;

const providerDown = (what: string, detail?: string) =>
  new AppError('provider_unavailable', `${what} did not answer as expected${detail ? `: ${detail}` : ''}.`);

const call = async (
  what: string,
  url: string,
  init: RequestInit,
): Promise<{ status: number; body: Record<string, unknown> }> => {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch {
    throw providerDown(what);
  }
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    body = {};
  }
  return { status: res.status, body };
};

const need = (c: Credentials, keys: readonly string[], provider: string): void => {
  const missing = keys.filter((k) => !c[k]);
  if (missing.length > 0)
    throw new AppError(
      'provider_not_configured',
      `${provider} is missing its ${missing.join(', ').replace(/_/g, ' ')} (Company settings, Payment providers).`,
    );
};

const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;

const str = (v: unknown): string | null => (v === undefined || v === null || v === '' ? null : String(v));

// ------------------------------------------------------------------- Safaricom Daraja

/** Daraja's timestamp: YYYYMMDDHHmmss in Kenya's time (UTC+3). */
export const darajaTimestamp = (now = new Date()) =>
  new Date(now.getTime() + 3 * 3600_000).toISOString().replace(/[-:T]/g, '').slice(0, 14);

/** The STK password: base64 of shortcode + passkey + timestamp. */
export const darajaPassword = (shortcode: string, passkey: string, timestamp: string) =>
  Buffer.from(`${shortcode}${passkey}${timestamp}`, 'utf8').toString('base64');

/** What an STK push's ResultCode means (Daraja's documented codes). */
export const stkOutcomeOf = (
  code: number | string,
  desc: string | null,
): Omit<ProviderOutcome, 'transaction_id' | 'amount'> => {
  const n = Number(code);
  if (n === 0) return { status: 'completed', reason: null };
  // 1032: cancelled by the user; 1037: the phone could not be reached / no answer; 1019: expired
  if (n === 1032) return { status: 'cancelled', reason: desc ?? 'Request cancelled by user' };
  return { status: 'failed', reason: desc ?? `M-Pesa result ${n}` };
};

export const mpesaClient = (baseUrl: string, c: Credentials): ProviderClient => {
  need(c, ['shortcode', 'consumer_key', 'consumer_secret', 'passkey'], 'M-Pesa');
  const shortcode = c.shortcode ?? '';
  const token = async () => {
    const r = await call('M-Pesa', `${baseUrl}/oauth/v1/generate?grant_type=client_credentials`, {
      headers: { Authorization: basic(c.consumer_key ?? '', c.consumer_secret ?? '') },
    });
    const t = str(r.body.access_token);
    if (r.status !== 200 || !t) throw providerDown('M-Pesa', 'its credentials were refused');
    return t;
  };
  const signed = () => {
    const timestamp = darajaTimestamp();
    return {
      BusinessShortCode: shortcode,
      Password: darajaPassword(shortcode, c.passkey ?? '', timestamp),
      Timestamp: timestamp,
    };
  };
  return {
    start: async (input) => {
      const auth = `Bearer ${await token()}`;
      const r = await call('M-Pesa', `${baseUrl}/mpesa/stkpush/v1/processrequest`, {
        method: 'POST',
        headers: { Authorization: auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          ...signed(),
          TransactionType: c.till_number ? 'CustomerBuyGoodsOnline' : 'CustomerPayBillOnline',
          Amount: Math.ceil(Number(input.amount)),
          PartyA: input.msisdn,
          PartyB: c.till_number || shortcode,
          PhoneNumber: input.msisdn,
          CallBackURL: input.callbackUrl,
          AccountReference: input.reference.slice(0, 12),
          TransactionDesc: 'Rent',
        }),
      });
      const id = str(r.body.CheckoutRequestID);
      if (r.status !== 200 || String(r.body.ResponseCode) !== '0' || !id)
        throw providerDown(
          'M-Pesa',
          str(r.body.errorMessage) ?? str(r.body.ResponseDescription) ?? undefined,
        );
      return id;
    },
    status: async (checkoutRequestId) => {
      const auth = `Bearer ${await token()}`;
      const r = await call('M-Pesa', `${baseUrl}/mpesa/stkpushquery/v1/query`, {
        method: 'POST',
        headers: { Authorization: auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ ...signed(), CheckoutRequestID: checkoutRequestId }),
      });
      // still with the customer: Daraja answers 500.001.1001 'The transaction is being processed'
      if (str(r.body.errorCode) === '500.001.1001')
        return { status: 'pending', reason: null, transaction_id: null, amount: null };
      if (r.status !== 200 || r.body.ResultCode === undefined)
        throw providerDown('M-Pesa', str(r.body.errorMessage) ?? undefined);
      return {
        ...stkOutcomeOf(String(r.body.ResultCode), str(r.body.ResultDesc)),
        transaction_id: null,
        amount: null,
      };
    },
  };
};

// ------------------------------------------------------------------- MTN MoMo collections

const momoOutcome = (body: Record<string, unknown>): ProviderOutcome => {
  const status = String(body.status ?? '').toUpperCase();
  const reasonOf = () => {
    const r = body.reason;
    if (r && typeof r === 'object')
      return str((r as Record<string, unknown>).message) ?? str((r as Record<string, unknown>).code);
    return str(r);
  };
  if (status === 'SUCCESSFUL')
    return {
      status: 'completed',
      reason: null,
      transaction_id: str(body.financialTransactionId),
      amount: str(body.amount),
    };
  if (status === 'FAILED' || status === 'REJECTED' || status === 'TIMEOUT') {
    const reason = reasonOf();
    const cancelled = /REJECTED|CANCEL/i.test(reason ?? '');
    return {
      status: cancelled ? 'cancelled' : 'failed',
      reason: reason ?? status,
      transaction_id: null,
      amount: null,
    };
  }
  return { status: 'pending', reason: null, transaction_id: null, amount: null };
};

export const momoClient = (baseUrl: string, c: Credentials): ProviderClient => {
  need(c, ['subscription_key', 'api_user', 'api_key'], 'MTN MoMo');
  const env = c.target_environment || 'sandbox';
  const common = { 'Ocp-Apim-Subscription-Key': c.subscription_key ?? '', 'X-Target-Environment': env };
  const token = async () => {
    const r = await call('MTN MoMo', `${baseUrl}/collection/token/`, {
      method: 'POST',
      headers: {
        Authorization: basic(c.api_user ?? '', c.api_key ?? ''),
        'Ocp-Apim-Subscription-Key': c.subscription_key ?? '',
      },
    });
    const t = str(r.body.access_token);
    if (r.status !== 200 || !t) throw providerDown('MTN MoMo', 'its credentials were refused');
    return t;
  };
  return {
    start: async (input) => {
      const id = randomUUID();
      const r = await call('MTN MoMo', `${baseUrl}/collection/v1_0/requesttopay`, {
        method: 'POST',
        headers: {
          ...common,
          Authorization: `Bearer ${await token()}`,
          'X-Reference-Id': id,
          // the request's own callback: the provider's callback path, then its reference
          'X-Callback-Url': `${input.callbackUrl}/${id}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({
          amount: input.amount,
          currency: input.currency,
          externalId: input.reference,
          payer: { partyIdType: 'MSISDN', partyId: input.msisdn },
          payerMessage: `Rent ${input.reference}`,
          payeeNote: `Rent ${input.reference}`,
        }),
      });
      if (r.status !== 202) throw providerDown('MTN MoMo', str(r.body.message) ?? undefined);
      return id;
    },
    status: async (id) => {
      const r = await call('MTN MoMo', `${baseUrl}/collection/v1_0/requesttopay/${encodeURIComponent(id)}`, {
        headers: { ...common, Authorization: `Bearer ${await token()}` },
      });
      if (r.status === 404)
        return { status: 'failed', reason: 'Unknown to MTN MoMo', transaction_id: null, amount: null };
      if (r.status !== 200) throw providerDown('MTN MoMo', str(r.body.message) ?? undefined);
      return momoOutcome(r.body);
    },
  };
};

// ------------------------------------------------------------------- Airtel Money

/**
 * Airtel Money's countries: the currency its X-Currency header and transaction carry, and the calling
 * code its msisdn is sent without (Airtel's documentation: "do not send country code in msisdn").
 */
export const AIRTEL_COUNTRIES: Record<string, { currency: string; callingCode: string }> = {
  KE: { currency: 'KES', callingCode: '254' },
  UG: { currency: 'UGX', callingCode: '256' },
  TZ: { currency: 'TZS', callingCode: '255' },
  RW: { currency: 'RWF', callingCode: '250' },
  ZM: { currency: 'ZMW', callingCode: '260' },
  MW: { currency: 'MWK', callingCode: '265' },
  MG: { currency: 'MGA', callingCode: '261' },
  CD: { currency: 'CDF', callingCode: '243' },
  CG: { currency: 'XAF', callingCode: '242' },
  GA: { currency: 'XAF', callingCode: '241' },
  TD: { currency: 'XAF', callingCode: '235' },
  NE: { currency: 'XOF', callingCode: '227' },
  NG: { currency: 'NGN', callingCode: '234' },
  SC: { currency: 'SCR', callingCode: '248' },
};

export const airtelClient = (baseUrl: string, c: Credentials): ProviderClient => {
  need(c, ['client_id', 'client_secret', 'country'], 'Airtel Money');
  const country = (c.country ?? '').trim().toUpperCase();
  const known = AIRTEL_COUNTRIES[country];
  if (!known)
    throw new AppError(
      'provider_not_configured',
      `Airtel Money's country is one of ${Object.keys(AIRTEL_COUNTRIES).join(', ')} (Company settings, Payment providers).`,
    );
  const token = async () => {
    const r = await call('Airtel Money', `${baseUrl}/auth/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        client_id: c.client_id,
        client_secret: c.client_secret,
        grant_type: 'client_credentials',
      }),
    });
    const t = str(r.body.access_token);
    if (r.status !== 200 || !t) throw providerDown('Airtel Money', 'its credentials were refused');
    return t;
  };
  // the prompt and the status enquiry carry the country's currency
  const headers = async (currency: string) => ({
    Authorization: `Bearer ${await token()}`,
    'X-Country': country,
    'X-Currency': currency,
    'Content-Type': 'application/json',
  });
  return {
    start: async (input) => {
      const { currency, callingCode } = known;
      const id = randomUUID().replace(/-/g, '').slice(0, 20);
      const msisdn = input.msisdn.startsWith(callingCode)
        ? input.msisdn.slice(callingCode.length)
        : input.msisdn;
      const r = await call('Airtel Money', `${baseUrl}/merchant/v1/payments/`, {
        method: 'POST',
        headers: await headers(currency),
        body: JSON.stringify({
          reference: input.reference,
          subscriber: { country, currency, msisdn },
          transaction: { amount: Number(input.amount), country, currency, id },
        }),
      });
      const status = r.body.status as Record<string, unknown> | undefined;
      if (r.status !== 200 || status?.success !== true)
        throw providerDown('Airtel Money', str(status?.message) ?? undefined);
      return id;
    },
    status: async (id) => {
      const r = await call('Airtel Money', `${baseUrl}/standard/v1/payments/${encodeURIComponent(id)}`, {
        headers: await headers(known.currency),
      });
      const tx = ((r.body.data as Record<string, unknown> | undefined)?.transaction ?? {}) as Record<
        string,
        unknown
      >;
      if (r.status !== 200) throw providerDown('Airtel Money');
      return airtelOutcome(String(tx.status ?? ''), str(tx.message), str(tx.airtel_money_id));
    },
  };
};

/** Airtel's transaction statuses: TS succeeded, TF failed, TA/TIP in progress (its documentation). */
export const airtelOutcome = (
  code: string,
  message: string | null,
  moneyId: string | null,
): ProviderOutcome => {
  if (code === 'TS') return { status: 'completed', reason: null, transaction_id: moneyId, amount: null };
  if (code === 'TF')
    return {
      status: /cancel|declin|reject/i.test(message ?? '') ? 'cancelled' : 'failed',
      reason: message ?? 'Failed',
      transaction_id: null,
      amount: null,
    };
  return { status: 'pending', reason: null, transaction_id: null, amount: null };
};

/** The client of a provider, at its base URL of the configuration. */
export const providerClient = (
  config: Config,
  provider: PaymentProviderName,
  c: Credentials,
): ProviderClient =>
  provider === 'mpesa'
    ? mpesaClient(config.mpesaBaseUrl, c)
    : provider === 'mtn_momo'
      ? momoClient(config.mtnMomoBaseUrl, c)
      : airtelClient(config.airtelBaseUrl, c);

export const baseUrlOf = (config: Config, provider: PaymentProviderName) =>
  provider === 'mpesa'
    ? config.mpesaBaseUrl
    : provider === 'mtn_momo'
      ? config.mtnMomoBaseUrl
      : config.airtelBaseUrl;
