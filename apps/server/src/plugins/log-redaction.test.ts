import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { resetDatabase, testConfig, testDatabase, testDriver } from '../test/harness.ts';
import { TestClient } from '../test/client.ts';
import { buildCompany, buildUser } from '../test/factories.ts';
import { REDACTED, redactSecrets } from './log-redaction.ts';

describe('redactSecrets', () => {
  it('hides the values of secret query parameters, whatever their case or prefix', () => {
    expect(redactSecrets('/portal/welcome?token=abc123')).toBe(`/portal/welcome?token=${REDACTED}`);
    expect(redactSecrets('/reset?page=2&token=abc&q=rent')).toBe(`/reset?page=2&token=${REDACTED}&q=rent`);
    expect(redactSecrets('/cb?code=4%2F0Ab&state=xyz#done')).toBe(
      `/cb?code=${REDACTED}&state=${REDACTED}#done`,
    );
    for (const name of [
      'Token',
      'access_token',
      'id_token',
      'password',
      'new_password',
      'secret',
      'client_secret',
      'key',
      'apiKey',
      'api_key',
      'signature',
      'X-Amz-Signature',
      'sig',
      'otp',
      'auth',
      '%74oken',
    ])
      expect(redactSecrets(`/x?a=1&${name}=s3cr3t&b=2`), name).toBe(`/x?a=1&${name}=${REDACTED}&b=2`);
    // ordinary parameters stay as they are
    for (const url of ['/units?page=2&page_size=25&sort=-name&q=Kampala', '/r?x=', '/a=b', 'no query at all'])
      expect(redactSecrets(url)).toBe(url);
  });

  it('works on a log line as JSON: escapes inside a value never end it early', () => {
    const line = `${JSON.stringify({
      msg: 'e-mail not sent',
      mail: { text: 'Open this link:\n\nhttps://kodi.example/reset?token=ab"c\\d\n\nThe link works once.' },
      req: { url: '/portal/welcome?token=t0k&lang=en' },
    })}\n`;
    const redacted = redactSecrets(line);
    expect(JSON.parse(redacted)).toEqual({
      msg: 'e-mail not sent',
      mail: { text: `Open this link:\n\nhttps://kodi.example/reset?token=${REDACTED} link works once.` },
      req: { url: `/portal/welcome?token=${REDACTED}&lang=en` },
    });
    expect(redacted).not.toMatch(/ab|t0k/);
  });
});

describe(`the server log: no secret of a URL (${testDriver})`, () => {
  let app: FastifyInstance;
  let webDir: string;
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });

  beforeAll(async () => {
    webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kodi-log-'));
    for (const name of ['index.html', 'portal.html'])
      fs.writeFileSync(path.join(webDir, name), '<!doctype html><title>Kodi</title>');
    const database = await testDatabase();
    await resetDatabase(database);
    app = await buildApp(testConfig({ logLevel: 'info', publicUrl: 'https://kodi.example' }), database, {
      logStream,
      webDir,
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  /** The lines logged while `run` ran. */
  const logged = async (run: () => Promise<unknown>): Promise<string> => {
    const from = lines.length;
    await run();
    return lines.slice(from).join('\n');
  };

  it('logs the paths of the links with a token, not their tokens', async () => {
    const secrets = [
      'Inv1tat10nT0ken',
      'Res3tT0ken',
      'G00gleC0de',
      'G00gleSt4te',
      'Pa55w0rd',
      'Encod3dT0ken',
    ];
    const [invitation, reset, code, state, password, encoded] = secrets;
    const urls = [
      `/portal/welcome?token=${invitation}`,
      `/reset?token=${reset}`,
      `/rentapi/api/auth/google/callback?code=${code}&state=${state}`,
      `/rentapi/api/units?q=Kampala&password=${password}`,
      `/reset?%74oken=${encoded}`,
    ];
    const log = await logged(async () => {
      for (const url of urls) await app.inject({ method: 'GET', url });
    });
    for (const p of ['/portal/welcome?token=', '/reset?token=', '/auth/google/callback?code=', 'q=Kampala'])
      expect(log).toContain(p);
    expect(log).toContain(`token=${REDACTED}`);
    for (const secret of secrets) expect(log).not.toContain(secret);
    // every request was logged (the paths are there, only the values are gone)
    expect(lines.filter((l) => l.includes('"incoming request"')).length).toBeGreaterThanOrEqual(urls.length);
  });

  it('logs the reset mail it could not send (no SMTP_URL) without the link’s token', async () => {
    const company = await buildCompany(await testDatabase());
    const user = await buildUser(await testDatabase(), { company_id: company.id });
    const c = new TestClient(app);
    await c.get('/auth/status');
    const log = await logged(async () => {
      expect((await c.post('/auth/forgot-password', { email: user.email })).statusCode).toBe(200);
      // the mail leaves after the answer
      for (let i = 0; i < 50 && !lines.some((l) => l.includes('e-mail not sent')); i++)
        await new Promise((resolve) => setTimeout(resolve, 20));
    });
    expect(log).toContain('e-mail not sent');
    expect(log).toContain(`https://kodi.example/reset?token=${REDACTED}`);
    expect(log).not.toMatch(/token=(?!\[redacted\])/);
  });
});
