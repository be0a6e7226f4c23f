import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { buildApp } from '../app.ts';
import { resetDatabase, testConfig, testDatabase, testDriver } from '../test/harness.ts';
import { TestClient } from '../test/client.ts';
import { buildCompany, buildUser } from '../test/factories.ts';
import { RECEIPT_LOOKUPS_PER_MINUTE } from '../features/public-receipts/routes.ts';

/** the reverse proxy on Kodi's machine (nginx), and the browser's real address it appends */
const PROXY = '127.0.0.1';
const CLIENT = '203.0.113.7';
/** sign-in attempts one address may make in a minute (features/auth/routes.ts) */
const SIGN_IN_LIMIT = 30;

/**
 * A browser behind the proxy: every request reaches Kodi from the proxy, with the X-Forwarded-For
 * the browser wrote itself (`written`, if any) and the browser's address appended, as nginx's
 * `$proxy_add_x_forwarded_for` does.
 */
class BehindProxy extends TestClient {
  constructor(
    app: FastifyInstance,
    readonly clientAddress: string,
    readonly written: () => string | undefined = () => undefined,
    peer = PROXY,
  ) {
    super(app, peer);
  }
  override request(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> {
    const own = this.written();
    return super.request(method, path, body, {
      ...headers,
      'x-forwarded-for': own === undefined ? this.clientAddress : `${own}, ${this.clientAddress}`,
    });
  }
}

/** What a client may write into its own X-Forwarded-For to pass for someone new at every request. */
const SHAPES = [
  (n: number) => `198.51.100.${n % 250}`,
  (n: number) => `1.2.3.4, 198.51.100.${n % 250}`,
  (n: number) => `198.51.100.${n % 250}, 1.2.3.4`,
  (n: number) => `2001:db8::${n.toString(16)}, unknown`,
];

/** Waits, if need be, so that the next few seconds fall in one window of the fixed-window counters. */
const sameMinute = async () => {
  const into = Date.now() % 60_000;
  if (into > 45_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - into + 100));
};

describe(`TRUST_PROXY: the client's address behind a reverse proxy (${testDriver})`, () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  /** An app with TRUST_PROXY as given, and a route answering what it takes the request's address for. */
  const proxiedApp = async (TRUST_PROXY: string) => {
    const database = await testDatabase();
    await resetDatabase(database);
    app = await buildApp(testConfig({ trustProxy: loadConfig({ TRUST_PROXY }).trustProxy }), database);
    app.get('/test/address', async (request) => ({
      ip: request.ip,
      protocol: request.protocol,
      host: request.host,
    }));
    await app.ready();
    return { app, database };
  };

  const addressOf = async (
    a: FastifyInstance,
    remoteAddress: string,
    headers: Record<string, string>,
  ): Promise<{ ip: string; protocol: string; host: string }> =>
    (await a.inject({ method: 'GET', url: '/test/address', remoteAddress, headers })).json();

  it('TRUST_PROXY=1: the address is the last of X-Forwarded-For, the one the proxy added', async () => {
    const { app: a } = await proxiedApp('1');
    for (const [i, shape] of SHAPES.entries()) {
      const written = shape(i + 1);
      expect((await addressOf(a, PROXY, { 'x-forwarded-for': `${written}, ${CLIENT}` })).ip, written).toBe(
        CLIENT,
      );
    }
    // two X-Forwarded-For headers (the client's and the proxy's): still the last address
    const twice = await a.inject({
      method: 'GET',
      url: '/test/address',
      remoteAddress: PROXY,
      headers: { 'x-forwarded-for': ['9.9.9.9', CLIENT] },
    });
    expect(twice.json().ip).toBe(CLIENT);
    // the proxy on a private network, or reached over IPv6 loopback / IPv4-mapped
    for (const peer of ['10.0.0.5', '172.17.0.1', '192.168.1.2', '::1', '::ffff:127.0.0.1', 'fd00::2']) {
      expect((await addressOf(a, peer, { 'x-forwarded-for': `6.6.6.6, ${CLIENT}` })).ip, peer).toBe(CLIENT);
    }
    // no X-Forwarded-For: the connection's address
    expect((await addressOf(a, PROXY, {})).ip).toBe(PROXY);
    // what other headers say is never read
    expect((await addressOf(a, PROXY, { forwarded: 'for=6.6.6.6', 'x-real-ip': '6.6.6.6' })).ip).toBe(PROXY);
  });

  it('TRUST_PROXY=1: a client reaching Kodi from a public address is not believed', async () => {
    const { app: a } = await proxiedApp('1');
    const direct = '198.51.100.77';
    const seen = await addressOf(a, direct, {
      'x-forwarded-for': CLIENT,
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'evil.example',
      host: 'kodi.example',
    });
    expect(seen).toEqual({ ip: direct, protocol: 'http', host: 'kodi.example' });
    // through the proxy, its X-Forwarded-Proto and -Host count (links made from the request's origin)
    const proxied = await addressOf(a, PROXY, {
      'x-forwarded-for': CLIENT,
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'kodi.example',
      host: 'upstream:3000',
    });
    expect(proxied).toEqual({ ip: CLIENT, protocol: 'https', host: 'kodi.example' });
  });

  it('TRUST_PROXY=2: the second address from the end (a proxy in front of the proxy)', async () => {
    const { app: a } = await proxiedApp('2');
    expect((await addressOf(a, PROXY, { 'x-forwarded-for': `6.6.6.6, ${CLIENT}, 10.0.0.9` })).ip).toBe(
      CLIENT,
    );
    expect((await addressOf(a, PROXY, { 'x-forwarded-for': CLIENT })).ip).toBe(CLIENT);
  });

  it('TRUST_PROXY=10.0.0.1,127.0.0.1: exactly those proxies, the first address from the end not one of them', async () => {
    const { app: a } = await proxiedApp('10.0.0.1,127.0.0.1');
    // the client wrote 6.6.6.6; a balancer at 10.0.0.1 added the client's address, nginx its own
    expect((await addressOf(a, PROXY, { 'x-forwarded-for': `6.6.6.6, ${CLIENT}, 10.0.0.1` })).ip).toBe(
      CLIENT,
    );
    // a client writing a trusted address itself gains nothing
    expect((await addressOf(a, PROXY, { 'x-forwarded-for': `10.0.0.1, ${CLIENT}` })).ip).toBe(CLIENT);
    expect((await addressOf(a, '10.0.0.1', { 'x-forwarded-for': CLIENT })).ip).toBe(CLIENT);
    // any other peer, private or not, is the client
    for (const peer of ['10.0.0.2', '198.51.100.77'])
      expect((await addressOf(a, peer, { 'x-forwarded-for': CLIENT })).ip, peer).toBe(peer);
    // CIDRs and named ranges
    const { app: b } = await proxiedApp('10.0.0.0/8, loopback');
    expect((await addressOf(b, '10.1.2.3', { 'x-forwarded-for': `6.6.6.6, ${CLIENT}, 10.9.9.9` })).ip).toBe(
      CLIENT,
    );
  });

  it(`TRUST_PROXY=1: a client writing X-Forwarded-For cannot escape the sign-in limit (${SIGN_IN_LIMIT} a minute)`, async () => {
    const { app: a } = await proxiedApp('1');
    await sameMinute();
    let n = 0;
    const client = new BehindProxy(a, CLIENT, () => SHAPES[n % SHAPES.length]?.(n++));
    await client.get('/auth/status');
    const statuses: number[] = [];
    for (let i = 0; i < SIGN_IN_LIMIT + 10; i++) {
      const res = await client.post('/auth/login', {
        email: 'someone@example.com',
        password: 'not-the-password',
        captcha_answer: 'wrong',
      });
      statuses.push(res.statusCode);
    }
    // every attempt counted against the one address: the 31st and later are refused
    expect(statuses.slice(0, SIGN_IN_LIMIT).every((s) => s === 400)).toBe(true);
    expect(statuses.slice(SIGN_IN_LIMIT)).toEqual(Array(10).fill(429));
    // and another browser behind the same proxy is not: its own address, its own count
    const other = new BehindProxy(a, '203.0.113.8');
    await other.get('/auth/status');
    const res = await other.post('/auth/login', {
      email: 'x@example.com',
      password: 'x',
      captcha_answer: 'x',
    });
    expect(res.statusCode).toBe(400);
  });

  it(`TRUST_PROXY=1: a client writing X-Forwarded-For cannot escape the receipt look-up limit (${RECEIPT_LOOKUPS_PER_MINUTE} a minute)`, async () => {
    const { app: a } = await proxiedApp('1');
    await sameMinute();
    let n = 0;
    const client = new BehindProxy(a, CLIENT, () => SHAPES[n % SHAPES.length]?.(n++));
    const statuses: number[] = [];
    for (let i = 0; i < RECEIPT_LOOKUPS_PER_MINUTE + 20; i++) {
      statuses.push((await client.get(`/public/receipts/${'ab'.repeat(32)}`)).statusCode);
    }
    expect(statuses.slice(0, RECEIPT_LOOKUPS_PER_MINUTE).every((s) => s === 404)).toBe(true);
    expect(statuses.slice(RECEIPT_LOOKUPS_PER_MINUTE)).toEqual(Array(20).fill(429));
  });

  it('TRUST_PROXY=1: the audit log and the session list show the address the proxy added', async () => {
    const { app: a, database } = await proxiedApp('1');
    const company = await buildCompany(database);
    const user = await buildUser(database, { company_id: company.id, roles: ['admin'] });
    const spoofed = '9.9.9.9';
    // a failed sign-in, then a successful one, each writing its own X-Forwarded-For
    const failed = new BehindProxy(a, CLIENT, () => spoofed);
    expect((await failed.login(user.email, 'not-the-password')).statusCode).toBe(401);
    const browser = new BehindProxy(a, CLIENT, () => `${spoofed}, 10.0.0.1`);
    expect((await browser.login(user.email, user.password)).statusCode).toBe(200);

    const sessions = (await browser.get('/auth/sessions')).json<{ ip_address: string; current: boolean }[]>();
    expect(sessions.find((s) => s.current)?.ip_address).toBe(CLIENT);
    const log = (await browser.get('/audit-log?entity=users')).json<{ action: string; summary: string }[]>();
    const signIns = log.filter((r) => r.action === 'sign_in' || r.action === 'sign_in_failed');
    expect(signIns.map((r) => [r.action, r.summary]).sort()).toEqual([
      ['sign_in', `Password from ${CLIENT}`],
      ['sign_in_failed', `Password from ${CLIENT}`],
    ]);
    expect(JSON.stringify(sessions) + JSON.stringify(log)).not.toContain(spoofed);
  });
});
