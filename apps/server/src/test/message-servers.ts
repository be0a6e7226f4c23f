import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/**
 * Local stand-ins for where messages go, for the messages' tests: a real SMTP receiver, and HTTP
 * servers that implement the documented requests and answers of Africa's Talking
 * (`POST /version1/messaging`) and Twilio (`POST /2010-04-01/Accounts/{sid}/Messages.json`).
 */

export type ReceivedMail = { from: string; to: string[]; raw: string };

const waitUntil = async (done: () => boolean, what: string, ms = 5000) => {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** A real SMTP receiver on 127.0.0.1 (no TLS, no auth) that keeps what it is sent. */
export const startSmtpReceiver = async () => {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        raw += chunk;
      });
      stream.on('end', () => {
        const from = session.envelope.mailFrom;
        received.push({
          from: from ? from.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    waitFor: async (count: number) => {
      await waitUntil(() => received.length >= count, `${count} e-mails`);
      return received;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

/** An e-mail's text with quoted-printable soft breaks and escapes undone. */
export const decodedMail = (raw: string) =>
  Buffer.from(
    raw
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

export type SmsRequest = {
  path: string;
  headers: http.IncomingHttpHeaders;
  form: Record<string, string>;
};

/** How the server answers the next request: a status and body, or no answer at all (a timeout). */
export type Scripted = { status: number; body?: unknown } | 'hang';

export type SmsServer = {
  kind: 'africastalking' | 'twilio';
  /** SMS_URL for it */
  url: string;
  requests: SmsRequest[];
  /** the answers of the next requests, in order (then: success) */
  script: Scripted[];
  waitFor: (count: number) => Promise<SmsRequest[]>;
  stop: () => Promise<void>;
};

const USER = 'kodi-user';
const KEY = 'secret-key';
const SID = 'AC0123456789abcdef';
const TOKEN = 'auth-token';

/** Africa's Talking's answer for one recipient with `statusCode`. */
export const atAnswer = (to: string, statusCode = 101, status = 'Success') => ({
  SMSMessageData: {
    Message: statusCode < 200 ? 'Sent to 1/1 Total Cost: UGX 30.0000' : 'Sent to 0/1 Total Cost: 0',
    Recipients: [{ statusCode, number: to, status, cost: 'UGX 30.0000', messageId: `ATXid_${Date.now()}` }],
  },
});

export const startSmsServer = async (kind: 'africastalking' | 'twilio'): Promise<SmsServer> => {
  const requests: SmsRequest[] = [];
  const script: Scripted[] = [];
  const hanging: http.ServerResponse[] = [];
  let n = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(body));
      requests.push({ path: req.url ?? '', headers: req.headers, form });
      const send = (status: number, answer: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(answer));
      };
      // the provider's own checks: its path, its credentials
      if (kind === 'africastalking') {
        if (req.method !== 'POST' || req.url !== '/version1/messaging') return send(404, 'Not found');
        if (req.headers.apikey !== KEY || form.username !== USER)
          return send(401, 'The supplied authentication is invalid');
        if (req.headers.accept !== 'application/json') return send(406, 'Accept must be application/json');
      } else {
        if (req.method !== 'POST' || req.url !== `/2010-04-01/Accounts/${SID}/Messages.json`)
          return send(404, { code: 20404, message: 'The requested resource was not found', status: 404 });
        const auth = `Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`;
        if (req.headers.authorization !== auth)
          return send(401, { code: 20003, message: 'Authenticate', status: 401 });
        if (!form.To || !form.Body)
          return send(400, { code: 21604, message: "A 'To' phone number is required.", status: 400 });
      }
      const next = script.shift();
      if (next === 'hang') {
        hanging.push(res);
        return;
      }
      if (next) return send(next.status, next.body ?? { message: 'scripted' });
      n += 1;
      if (kind === 'africastalking') return send(201, atAnswer(form.to ?? ''));
      return send(201, {
        sid: `SM${String(n).padStart(32, '0')}`,
        account_sid: SID,
        to: form.To,
        from: form.From ?? null,
        body: form.Body,
        status: 'queued',
        num_segments: '1',
        error_code: null,
        error_message: null,
        api_version: '2010-04-01',
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const url =
    kind === 'africastalking'
      ? `africastalking+http://${USER}:${KEY}@127.0.0.1:${port}`
      : `twilio+http://${SID}:${TOKEN}@127.0.0.1:${port}`;
  return {
    kind,
    url,
    requests,
    script,
    waitFor: async (count) => {
      await waitUntil(() => requests.length >= count, `${count} SMS requests`);
      return requests;
    },
    stop: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
