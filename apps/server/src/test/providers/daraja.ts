import { randomBytes } from 'node:crypto';
import { basicAuth, listenLocal, oauthTokens, readJson, sendJson } from './local-server.ts';

/**
 * A local Safaricom Daraja, from its published documentation, for the tests (API and e2e):
 * - `GET /oauth/v1/generate?grant_type=client_credentials` with Basic consumer key:secret → `{ access_token, expires_in }`;
 * - `POST /mpesa/stkpush/v1/processrequest` (Bearer; BusinessShortCode, Password = base64(shortcode +
 *   passkey + Timestamp), Timestamp YYYYMMDDHHmmss, TransactionType, Amount, PartyA, PartyB, PhoneNumber,
 *   CallBackURL, AccountReference ≤ 12, TransactionDesc) → `{ MerchantRequestID, CheckoutRequestID,
 *   ResponseCode: '0', ResponseDescription, CustomerMessage }`;
 * - `POST /mpesa/stkpushquery/v1/query` (BusinessShortCode, Password, Timestamp, CheckoutRequestID) →
 *   `{ ResponseCode, ResponseDescription, MerchantRequestID, CheckoutRequestID, ResultCode, ResultDesc }`,
 *   or, while the customer has not answered, HTTP 500 `{ errorCode: '500.001.1001', errorMessage: 'The transaction is being processed' }`;
 * - `POST /mpesa/c2b/v1/registerurl` (ShortCode, ResponseType, ConfirmationURL, ValidationURL).
 * Its rules: a callback URL holding 'mpesa', 'safaricom', 'exe', 'cmd', 'sql' or 'query' (any case)
 * is refused (`400.002.02 Bad Request - Invalid CallBackURL`), as are a wrong password or token.
 * The test says how each prompt ends (`settle`), and gets the callback Daraja would send.
 */

export type DarajaAccount = {
  consumerKey: string;
  consumerSecret: string;
  shortcode: string;
  passkey: string;
};

export type StkPush = {
  checkoutRequestId: string;
  merchantRequestId: string;
  body: Record<string, unknown>;
  /** how the customer answered: not yet, paid, cancelled, failed */
  outcome: 'pending' | 'completed' | 'cancelled' | 'failed';
  receipt: string | null;
  amount: number;
};

export const FORBIDDEN_CALLBACK_WORDS = ['mpesa', 'safaricom', 'exe', 'cmd', 'sql', 'query'];

const RESULTS = {
  completed: { code: 0, desc: 'The service request is processed successfully.' },
  cancelled: { code: 1032, desc: 'Request cancelled by user' },
  failed: { code: 1, desc: 'The balance is insufficient for the transaction.' },
} as const;

export const startDaraja = async (account: DarajaAccount) => {
  const tokens = oauthTokens();
  const pushes = new Map<string, StkPush>();
  const registered: Record<string, unknown>[] = [];
  const requests: { method: string; path: string }[] = [];
  const badCallback = (url: unknown) =>
    typeof url !== 'string' ||
    !/^https?:\/\//.test(url) ||
    FORBIDDEN_CALLBACK_WORDS.some((w) => url.toLowerCase().includes(w));
  const passwordOk = (b: Record<string, unknown>) =>
    typeof b.Timestamp === 'string' &&
    /^\d{14}$/.test(b.Timestamp) &&
    String(b.BusinessShortCode) === account.shortcode &&
    b.Password === Buffer.from(`${account.shortcode}${account.passkey}${b.Timestamp}`).toString('base64');

  const local = await listenLocal(async (req, res, url) => {
    requests.push({ method: req.method ?? '', path: url.pathname });
    const send = (status: number, body: unknown) => sendJson(res, status, body);
    const bad = (code: string, message: string, status = 400) =>
      send(status, { requestId: randomBytes(6).toString('hex'), errorCode: code, errorMessage: message });
    if (req.method === 'GET' && url.pathname === '/oauth/v1/generate') {
      if (
        url.searchParams.get('grant_type') !== 'client_credentials' ||
        req.headers.authorization !== basicAuth(account.consumerKey, account.consumerSecret)
      )
        return bad('400.008.01', 'Invalid Authentication passed');
      return send(200, { access_token: tokens.issue(), expires_in: '3599' });
    }
    if (!tokens.bearerOk(req)) return bad('404.001.03', 'Invalid Access Token', 401);
    const b = await readJson(req);
    if (req.method === 'POST' && url.pathname === '/mpesa/stkpush/v1/processrequest') {
      if (!passwordOk(b)) return bad('400.002.02', 'Bad Request - Invalid Password');
      if (badCallback(b.CallBackURL)) return bad('400.002.02', 'Bad Request - Invalid CallBackURL');
      if (!/^2547\d{8}$|^2541\d{8}$/.test(String(b.PhoneNumber)))
        return bad('400.002.02', 'Bad Request - Invalid PhoneNumber');
      if (!Number.isInteger(b.Amount) || Number(b.Amount) < 1)
        return bad('400.002.02', 'Bad Request - Invalid Amount');
      if (typeof b.AccountReference !== 'string' || b.AccountReference.length > 12)
        return bad('400.002.02', 'Bad Request - Invalid AccountReference');
      const checkoutRequestId = `ws_CO_${Date.now()}${randomBytes(4).toString('hex')}`;
      const merchantRequestId = `${randomBytes(3).toString('hex')}-${Date.now()}-1`;
      pushes.set(checkoutRequestId, {
        checkoutRequestId,
        merchantRequestId,
        body: b,
        outcome: 'pending',
        receipt: null,
        amount: Number(b.Amount),
      });
      return send(200, {
        MerchantRequestID: merchantRequestId,
        CheckoutRequestID: checkoutRequestId,
        ResponseCode: '0',
        ResponseDescription: 'Success. Request accepted for processing',
        CustomerMessage: 'Success. Request accepted for processing',
      });
    }
    if (req.method === 'POST' && url.pathname === '/mpesa/stkpushquery/v1/query') {
      if (!passwordOk(b)) return bad('400.002.02', 'Bad Request - Invalid Password');
      const push = pushes.get(String(b.CheckoutRequestID));
      if (!push) return bad('400.002.02', 'Bad Request - Invalid CheckoutRequestID');
      if (push.outcome === 'pending') return bad('500.001.1001', 'The transaction is being processed', 500);
      const r = RESULTS[push.outcome];
      return send(200, {
        ResponseCode: '0',
        ResponseDescription: 'The service request has been accepted successsfully',
        MerchantRequestID: push.merchantRequestId,
        CheckoutRequestID: push.checkoutRequestId,
        ResultCode: String(r.code),
        ResultDesc: r.desc,
      });
    }
    if (req.method === 'POST' && url.pathname === '/mpesa/c2b/v1/registerurl') {
      if (badCallback(b.ConfirmationURL) || badCallback(b.ValidationURL))
        return bad('400.003.02', 'Bad Request - Invalid ConfirmationURL or ValidationURL');
      registered.push(b);
      return send(200, {
        OriginatorCoversationID: randomBytes(6).toString('hex'),
        ResponseCode: '0',
        ResponseDescription: 'success',
      });
    }
    return bad('404.001.01', 'Resource not found', 404);
  });

  /** The callback Daraja sends for a push that ended (its documented `Body.stkCallback`). */
  const callbackOf = (push: StkPush, amount = push.amount) => {
    const r = push.outcome === 'pending' ? RESULTS.completed : RESULTS[push.outcome];
    return {
      Body: {
        stkCallback: {
          MerchantRequestID: push.merchantRequestId,
          CheckoutRequestID: push.checkoutRequestId,
          ResultCode: r.code,
          ResultDesc: r.desc,
          ...(push.outcome === 'completed'
            ? {
                CallbackMetadata: {
                  Item: [
                    { Name: 'Amount', Value: amount },
                    { Name: 'MpesaReceiptNumber', Value: push.receipt },
                    { Name: 'Balance' },
                    { Name: 'TransactionDate', Value: 20260115102115 },
                    { Name: 'PhoneNumber', Value: Number(push.body.PhoneNumber) },
                  ],
                },
              }
            : {}),
        },
      },
    };
  };

  return {
    url: local.url,
    pushes,
    registered,
    requests,
    /** the last push received */
    last: (): StkPush => {
      const all = [...pushes.values()];
      const p = all[all.length - 1];
      if (!p) throw new Error('no STK push received');
      return p;
    },
    /**
     * The customer answers the prompt: the push ends so; answers the callback Daraja sends (to the
     * push's CallBackURL) with the amount paid (the push's unless given).
     */
    settle: (checkoutRequestId: string, outcome: 'completed' | 'cancelled' | 'failed', amount?: number) => {
      const push = pushes.get(checkoutRequestId);
      if (!push) throw new Error(`no push ${checkoutRequestId}`);
      push.outcome = outcome;
      if (outcome === 'completed') push.receipt ??= `T${randomBytes(5).toString('hex').toUpperCase()}`;
      return { url: String(push.body.CallBackURL), body: callbackOf(push, amount) };
    },
    /** sends the callback to the push's CallBackURL itself (for a server that listens: the e2e run) */
    deliver: async (callback: { url: string; body: unknown }) => {
      await fetch(callback.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(callback.body),
      });
    },
    stop: local.stop,
  };
};

export type LocalDaraja = Awaited<ReturnType<typeof startDaraja>>;
