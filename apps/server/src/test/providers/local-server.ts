import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';

/**
 * What the local provider servers (daraja.ts, momo.ts, airtel.ts) share: reading a JSON body,
 * HTTP Basic credentials, the OAuth client-credentials tokens each issues and checks, and listening
 * on a free port of 127.0.0.1.
 */

export type JsonBody = Record<string, unknown>;

/** The request's JSON body ({} when empty or not JSON). */
export const readJson = (req: http.IncomingMessage) =>
  new Promise<JsonBody>((resolve) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (text += c));
    req.on('end', () => {
      try {
        const parsed: unknown = text ? JSON.parse(text) : {};
        resolve(parsed && typeof parsed === 'object' ? (parsed as JsonBody) : {});
      } catch {
        resolve({});
      }
    });
  });

/** The `Authorization` header of HTTP Basic for a user and password. */
export const basicAuth = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/**
 * The OAuth client-credentials tokens a provider issues: `issue()` makes one (answered by the
 * provider's token endpoint in its own shape), `bearerOk(req)` says whether the request carries one.
 */
export const oauthTokens = () => {
  const tokens = new Set<string>();
  return {
    issue: (): string => {
      const token = randomBytes(12).toString('base64url');
      tokens.add(token);
      return token;
    },
    bearerOk: (req: http.IncomingMessage): boolean =>
      tokens.has((req.headers.authorization ?? '').replace(/^Bearer /, '')),
    /** every token issued so far stops working (as when they expire) */
    expireAll: () => tokens.clear(),
  };
};

/** Answers JSON (no body when `body` is undefined). */
export const sendJson = (res: http.ServerResponse, status: number, body?: unknown) => {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(body === undefined ? '' : JSON.stringify(body));
};

/** Listens on a free port of 127.0.0.1: its base URL and how to stop it. */
export const listenLocal = async (
  handle: (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => Promise<void>,
) => {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://local');
    handle(req, res, url).catch(() => {
      if (!res.headersSent) sendJson(res, 500, { error: 'local provider failed' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
