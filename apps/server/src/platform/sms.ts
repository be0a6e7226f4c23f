/**
 * SMS through a provider's HTTP API, chosen by `SMS_URL` (issue 17): the scheme names the adapter,
 * the rest is the provider's base address with the account's credentials as its user and password:
 *
 * - `africastalking+https://USERNAME:API_KEY@api.africastalking.com`: `POST {base}/version1/messaging`,
 *   form-encoded `username`, `to`, `message` and `from` (the sender id), headers `apiKey` and
 *   `Accept: application/json`; the answer's `SMSMessageData.Recipients[]` carry each number's
 *   `status` and `statusCode` (100 Processed, 101 Sent, 102 Queued; 4xx refused; 5xx the gateway's failure).
 * - `twilio+https://ACCOUNT_SID:AUTH_TOKEN@api.twilio.com`: `POST {base}/2010-04-01/Accounts/{sid}/Messages.json`,
 *   form-encoded `To`, `From`, `Body`, HTTP basic auth; `201` with the message's `sid` and `status`,
 *   else `{ code, message, status }`.
 *
 * A failure says whether it may be retried: a timeout, a network error and a 5xx may; a 4xx never.
 */

export type SmsMessage = { to: string; body: string; from: string | null };
export type SmsResult = { id: string | null };

export class SendFailure extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    /** the provider's own error code, when it gave one (WhatsApp's 132001: no template in that language) */
    readonly code?: number,
  ) {
    super(message);
  }
}

export type SmsProvider = { name: 'africastalking' | 'twilio'; send: (m: SmsMessage) => Promise<SmsResult> };

const TIMEOUT_MS = 15_000;

/** One HTTP request: its status and JSON answer, or a retryable failure (timeout, network). */
const post = async (
  url: string,
  headers: Record<string, string>,
  form: Record<string, string>,
  timeoutMs: number,
): Promise<{ status: number; body: unknown }> => {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(form).toString(),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    const name = (err as Error).name;
    throw new SendFailure(
      name === 'TimeoutError' || name === 'AbortError'
        ? `The SMS provider did not answer within ${Math.round(timeoutMs / 1000)} s.`
        : `The SMS provider could not be reached: ${(err as Error).message}`,
      true,
    );
  }
  const text = await res.text().catch(() => '');
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  return { status: res.status, body };
};

const httpFailure = (status: number, detail: string) =>
  new SendFailure(
    `The SMS provider answered ${status}${detail ? `: ${detail}` : ''}.`,
    status >= 500 || status === 429,
  );

const describe = (body: unknown): string => {
  if (typeof body === 'string') return body.slice(0, 200);
  if (body && typeof body === 'object' && 'message' in body) return String(body.message).slice(0, 200);
  return '';
};

type AtRecipient = { status?: string; statusCode?: number; number?: string; messageId?: string };

const africasTalking = (base: URL, username: string, apiKey: string, timeoutMs: number): SmsProvider => ({
  name: 'africastalking',
  send: async ({ to, body, from }) => {
    const form: Record<string, string> = { username, to, message: body };
    if (from) form.from = from;
    const res = await post(
      `${base.origin}${base.pathname.replace(/\/$/, '')}/version1/messaging`,
      { apiKey, Accept: 'application/json' },
      form,
      timeoutMs,
    );
    if (res.status < 200 || res.status >= 300) throw httpFailure(res.status, describe(res.body));
    const data = (res.body as { SMSMessageData?: { Message?: string; Recipients?: AtRecipient[] } } | null)
      ?.SMSMessageData;
    const recipient = data?.Recipients?.[0];
    if (!recipient)
      throw new SendFailure(`The SMS provider sent it to nobody: ${data?.Message ?? 'no answer'}.`, false);
    const code = Number(recipient.statusCode);
    if (code >= 100 && code < 200) return { id: recipient.messageId ?? null };
    throw new SendFailure(
      `The SMS provider refused it: ${recipient.status ?? 'unknown'} (${code}).`,
      code >= 500,
    );
  },
});

const twilio = (base: URL, sid: string, token: string, timeoutMs: number): SmsProvider => ({
  name: 'twilio',
  send: async ({ to, body, from }) => {
    const form: Record<string, string> = { To: to, Body: body };
    if (from) form.From = from;
    const res = await post(
      `${base.origin}${base.pathname.replace(/\/$/, '')}/2010-04-01/Accounts/${encodeURIComponent(sid)}/Messages.json`,
      {
        Authorization: `Basic ${Buffer.from(`${sid}:${token}`).toString('base64')}`,
        Accept: 'application/json',
      },
      form,
      timeoutMs,
    );
    if (res.status !== 201 && res.status !== 200) throw httpFailure(res.status, describe(res.body));
    const answer = res.body as { sid?: string; status?: string } | null;
    if (answer?.status === 'failed' || answer?.status === 'undelivered')
      throw new SendFailure(`The SMS provider refused it: ${answer.status}.`, false);
    return { id: answer?.sid ?? null };
  },
});

/** The provider `SMS_URL` names, or undefined without one; a URL it cannot read throws at start-up. */
export const smsProvider = (smsUrl: string | undefined, timeoutMs = TIMEOUT_MS): SmsProvider | undefined => {
  if (!smsUrl) return undefined;
  const m = /^(africastalking|twilio)\+(https?:\/\/.*)$/.exec(smsUrl);
  if (!m) throw new Error('SMS_URL must start with africastalking+https:// or twilio+https://');
  const url = new URL(m[2] ?? '');
  const user = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  if (!user || !password) throw new Error('SMS_URL must carry the account as USER:KEY@');
  const base = new URL(url.toString());
  base.username = '';
  base.password = '';
  return m[1] === 'twilio'
    ? twilio(base, user, password, timeoutMs)
    : africasTalking(base, user, password, timeoutMs);
};
