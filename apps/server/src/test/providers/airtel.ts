import { randomBytes } from 'node:crypto';
import { listenLocal, oauthTokens, readJson, sendJson, type JsonBody } from './local-server.ts';

/**
 * A local Airtel Money (Airtel Africa Open API), from its published documentation, for the tests:
 * - `POST /auth/oauth2/token` `{ client_id, client_secret, grant_type: 'client_credentials' }` →
 *   `{ access_token, expires_in, token_type: 'bearer' }` (wrong credentials: 401 `invalid_client`);
 * - Collection, USSD push: `POST /merchant/v1/payments/` (Bearer, `X-Country`, `X-Currency`; body
 *   `{ reference, subscriber: { country, currency, msisdn }, transaction: { amount, country, currency, id } }`,
 *   the msisdn without its country code; the id the partner's, unique) → `{ data: { transaction: { id,
 *   status: 'SUCCESS' } }, status: { code: '200', message: 'SUCCESS', result_code: 'ESB000010', success: true } }`;
 * - Transaction enquiry: `GET /standard/v1/payments/{id}` (same headers) → `{ data: { transaction: {
 *   airtel_money_id, id, message, status: TS | TF | TA | TIP } }, status: {...} }` (TS succeeded, TF failed,
 *   TA ambiguous, TIP in progress);
 * - its callback, to the URL the merchant set in Airtel's portal (not in the request):
 *   `{ transaction: { id, message, status_code: 'TS' | 'TF', airtel_money_id } }`.
 * A wrong country or currency header, a msisdn with its country code or an id used twice is refused.
 * The test says how each prompt ends (`settle`), and gets the callback Airtel would send.
 */
export type AirtelAccount = {
  clientId: string;
  clientSecret: string;
  /** ISO country (UG) and its currency (UGX): the X-Country and X-Currency headers */
  country: string;
  currency: string;
  /** the country's calling code, which the msisdn must not carry (256) */
  callingCode: string;
};

export type AirtelStatus = 'TS' | 'TF' | 'TA' | 'TIP';

export type AirtelPayment = {
  id: string;
  body: JsonBody;
  headers: { country: string; currency: string };
  status: AirtelStatus;
  message: string;
  airtelMoneyId: string | null;
};

const ok = (responseCode: string) => ({
  code: '200',
  message: 'SUCCESS',
  result_code: 'ESB000010',
  response_code: responseCode,
  success: true,
});

const refused = (code: string, message: string, resultCode = 'ESB000001') => ({
  code,
  message,
  result_code: resultCode,
  success: false,
});

export const startAirtel = async (account: AirtelAccount) => {
  const tokens = oauthTokens();
  const payments = new Map<string, AirtelPayment>();
  const local = await listenLocal(async (req, res, url) => {
    const send = (status: number, body: unknown) => sendJson(res, status, body);
    const b = await readJson(req);
    if (req.method === 'POST' && url.pathname === '/auth/oauth2/token') {
      if (
        b.grant_type !== 'client_credentials' ||
        b.client_id !== account.clientId ||
        b.client_secret !== account.clientSecret
      )
        return send(401, { error_description: 'Invalid client credentials', error: 'invalid_client' });
      return send(200, { access_token: tokens.issue(), expires_in: '180', token_type: 'bearer' });
    }
    if (!tokens.bearerOk(req))
      return send(401, { status: refused('401', 'Authorization failed', 'ESB000033') });
    if (req.headers['x-country'] !== account.country || req.headers['x-currency'] !== account.currency)
      return send(400, { status: refused('400', 'Invalid country or currency', 'ESB000045') });
    if (req.method === 'POST' && url.pathname === '/merchant/v1/payments/') {
      const subscriber = (b.subscriber ?? {}) as JsonBody;
      const transaction = (b.transaction ?? {}) as JsonBody;
      const id = typeof transaction.id === 'string' ? transaction.id : '';
      const msisdn = String(subscriber.msisdn ?? '');
      if (!id) return send(400, { status: refused('400', 'Transaction id is mandatory') });
      if (payments.has(id))
        return send(200, { status: refused('400', 'Duplicate transaction id', 'ESB000041') });
      if (!/^\d{8,10}$/.test(msisdn) || msisdn.startsWith(account.callingCode))
        return send(200, { status: refused('400', 'Invalid msisdn: send it without its country code') });
      if (typeof transaction.amount !== 'number' || transaction.amount <= 0)
        return send(200, { status: refused('400', 'Invalid amount') });
      if (transaction.country !== account.country || transaction.currency !== account.currency)
        return send(200, { status: refused('400', 'Invalid country or currency', 'ESB000045') });
      payments.set(id, {
        id,
        body: b,
        headers: { country: account.country, currency: account.currency },
        status: 'TIP',
        message: 'In process',
        airtelMoneyId: null,
      });
      return send(200, { data: { transaction: { id, status: 'SUCCESS' } }, status: ok('DP00800001006') });
    }
    const m = /^\/standard\/v1\/payments\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && m) {
      const p = payments.get(decodeURIComponent(m[1] ?? ''));
      if (!p) return send(404, { status: refused('404', 'Transaction not found', 'ESB000008') });
      return send(200, {
        data: {
          transaction: {
            airtel_money_id: p.airtelMoneyId ?? '',
            id: p.id,
            message: p.message,
            status: p.status,
          },
        },
        status: ok('DP00800001001'),
      });
    }
    return send(404, { status: refused('404', 'Resource not found') });
  });

  return {
    url: local.url,
    payments,
    last: (): AirtelPayment => {
      const all = [...payments.values()];
      const p = all[all.length - 1];
      if (!p) throw new Error('no USSD push received');
      return p;
    },
    /**
     * The subscriber answers the USSD push: the payment ends so (TS paid, TF failed with `message`);
     * answers the callback Airtel sends to the URL set in its portal.
     */
    settle: (id: string, status: 'TS' | 'TF', message?: string) => {
      const p = payments.get(id);
      if (!p) throw new Error(`no payment ${id}`);
      p.status = status;
      p.message = message ?? (status === 'TS' ? 'Paid' : 'Transaction failed');
      if (status === 'TS') p.airtelMoneyId ??= `MP${randomBytes(5).toString('hex').toUpperCase()}`;
      return {
        transaction: {
          id: p.id,
          message: p.message,
          status_code: status,
          airtel_money_id: p.airtelMoneyId ?? '',
        },
      };
    },
    /** posts a callback to the URL set in Airtel's portal (for a server that listens: the e2e run) */
    deliver: async (callbackUrl: string, body: unknown) => {
      await fetch(callbackUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    },
    stop: local.stop,
  };
};

export type LocalAirtel = Awaited<ReturnType<typeof startAirtel>>;
