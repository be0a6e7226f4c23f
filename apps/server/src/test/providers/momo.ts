import { basicAuth, listenLocal, oauthTokens, readJson, sendJson } from './local-server.ts';

/**
 * A local MTN MoMo collections API, from its published documentation, for the tests:
 * - `POST /collection/token/` (Basic api user:api key, `Ocp-Apim-Subscription-Key`) → `{ access_token, token_type, expires_in }`;
 * - `POST /collection/v1_0/requesttopay` (Bearer, `X-Reference-Id` a UUID, `X-Target-Environment`,
 *   `X-Callback-Url`, body `{ amount, currency, externalId, payer: { partyIdType: 'MSISDN', partyId }, payerMessage, payeeNote }`)
 *   → 202 (a reference used twice: 409 `RESOURCE_ALREADY_EXIST`);
 * - `GET /collection/v1_0/requesttopay/{referenceId}` → `{ amount, currency, financialTransactionId,
 *   externalId, payer, status: PENDING | SUCCESSFUL | FAILED, reason }` (unknown: 404 `RESOURCE_NOT_FOUND`).
 */
export type MomoAccount = { subscriptionKey: string; apiUser: string; apiKey: string; environment: string };

type Payment = {
  reference: string;
  callbackUrl: string | null;
  body: Record<string, unknown>;
  status: 'PENDING' | 'SUCCESSFUL' | 'FAILED';
  reason: string | null;
  financialTransactionId: string | null;
};

export const startMomo = async (account: MomoAccount) => {
  const tokens = oauthTokens();
  const payments = new Map<string, Payment>();
  const local = await listenLocal(async (req, res, url) => {
    const send = (status: number, body?: unknown) => sendJson(res, status, body);
    if (req.headers['ocp-apim-subscription-key'] !== account.subscriptionKey)
      return send(401, { statusCode: 401, message: 'Access denied due to invalid subscription key.' });
    if (req.method === 'POST' && url.pathname === '/collection/token/') {
      if (req.headers.authorization !== basicAuth(account.apiUser, account.apiKey))
        return send(401, { error: 'login_failed' });
      return send(200, { access_token: tokens.issue(), token_type: 'access_token', expires_in: 3600 });
    }
    if (!tokens.bearerOk(req)) return send(401, { code: 'UNAUTHORIZED', message: 'Invalid token' });
    if (req.headers['x-target-environment'] !== account.environment)
      return send(400, { code: 'INVALID_TARGET_ENVIRONMENT', message: 'Unknown target environment' });
    const b = await readJson(req);
    if (req.method === 'POST' && url.pathname === '/collection/v1_0/requesttopay') {
      const reference = String(req.headers['x-reference-id'] ?? '');
      if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(reference))
        return send(400, { code: 'REFERENCE_ID_INVALID', message: 'X-Reference-Id is not a UUID' });
      if (payments.has(reference))
        return send(409, { code: 'RESOURCE_ALREADY_EXIST', message: 'Duplicated reference id' });
      const payer = b.payer as { partyIdType?: string; partyId?: string } | undefined;
      if (payer?.partyIdType !== 'MSISDN' || !/^\d{9,15}$/.test(payer.partyId ?? ''))
        return send(400, { code: 'PAYER_NOT_FOUND', message: 'Payer not found' });
      const cb = req.headers['x-callback-url'];
      payments.set(reference, {
        reference,
        callbackUrl: typeof cb === 'string' ? cb : null,
        body: b,
        status: 'PENDING',
        reason: null,
        financialTransactionId: null,
      });
      return send(202);
    }
    const m = /^\/collection\/v1_0\/requesttopay\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && m) {
      const p = payments.get(decodeURIComponent(m[1] ?? ''));
      if (!p) return send(404, { code: 'RESOURCE_NOT_FOUND', message: 'Requested resource was not found.' });
      return send(200, statusOf(p));
    }
    return send(404, { code: 'RESOURCE_NOT_FOUND', message: 'Not found' });
  });
  const statusOf = (p: Payment) => ({
    amount: p.body.amount,
    currency: p.body.currency,
    ...(p.financialTransactionId ? { financialTransactionId: p.financialTransactionId } : {}),
    externalId: p.body.externalId,
    payer: p.body.payer,
    payerMessage: p.body.payerMessage,
    payeeNote: p.body.payeeNote,
    status: p.status,
    ...(p.reason ? { reason: p.reason } : {}),
  });
  return {
    url: local.url,
    payments,
    last: () => {
      const all = [...payments.values()];
      const p = all[all.length - 1];
      if (!p) throw new Error('no request-to-pay received');
      return p;
    },
    /** the payer answers: the request ends so; answers the callback MoMo sends to its X-Callback-Url */
    settle: (reference: string, status: 'SUCCESSFUL' | 'FAILED', reason?: string) => {
      const p = payments.get(reference);
      if (!p) throw new Error(`no request ${reference}`);
      p.status = status;
      if (status === 'SUCCESSFUL') p.financialTransactionId = String(Date.now()).slice(-9);
      else p.reason = reason ?? 'APPROVAL_REJECTED';
      return { url: p.callbackUrl ?? '', body: statusOf(p) };
    },
    stop: local.stop,
  };
};
