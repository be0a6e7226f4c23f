import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { TestClient } from '../../test/client.ts';
import { buildUser } from '../../test/factories.ts';
import { startSmsServer, type SmsServer } from '../../test/message-servers.ts';
import { companyWith, createLease, expectStatus, pay, runCycle, setSettings } from '../../test/rent-cycle.ts';
import { startWhatsapp, type LocalWhatsapp } from '../../test/providers/whatsapp.ts';
import { createMessageSender, type MessageSender } from '../../modules/messaging/sender.ts';
import { createSecretBox, loadSecretKeys } from '../../platform/secrets.ts';
import fc from 'fast-check';
import { hostileBody } from '../../reliability/hostile.ts';
import { errorShapeProblem } from '../../reliability/world.ts';

const PUBLIC_URL = 'https://rent.example.co.ug';
const ACCOUNT = {
  phoneNumberId: '106540352242922',
  token: 'EAAJB-local-token-123',
  appSecret: 'app-secret-local-456',
  templates: {
    kodi_overdue: { languages: ['en'], variables: 6 },
    kodi_receipt: { languages: ['en'], variables: 5 },
    hello_world: { languages: ['en_US'], variables: 0 },
    kodi_notice: { languages: ['en'], variables: 1 },
  },
};
const SETTINGS = {
  enabled: true,
  phone_number_id: ACCOUNT.phoneNumberId,
  access_token: ACCOUNT.token,
  app_secret: ACCOUNT.appSecret,
  language: 'en',
  templates: { overdue: 'kodi_overdue', receipt: 'kodi_receipt' },
};

type Settings = {
  enabled: boolean;
  phone_number_id: string | null;
  access_token_set: boolean;
  app_secret_set: boolean;
  templates: Record<string, string | null>;
  fallback_sms: boolean;
  webhook_url: string | null;
  verify_token: string | null;
  version: number;
};
type MessageRow = {
  id: number;
  kind: string;
  channel: string;
  to: string | null;
  status: string;
  error: string | null;
  reason: string | null;
  delivery_status: string | null;
  external_id: string | null;
};

let clock = new Date().toISOString().slice(0, 10);

/**
 * Issue 29: WhatsApp as a channel, through a local Cloud API (src/test/providers/whatsapp.ts): the
 * company's settings, reminders and receipts sent as template messages, the signed status webhook,
 * and the SMS sent when a WhatsApp message fails.
 */
describe(`WhatsApp (${testDriver})`, () => {
  let t: TestContext;
  let wa: LocalWhatsapp;
  let sms: SmsServer;
  let sender: MessageSender;

  beforeAll(async () => {
    wa = await startWhatsapp(ACCOUNT);
    sms = await startSmsServer('africastalking');
    t = await setupApp({ publicUrl: PUBLIC_URL, whatsappBaseUrl: wa.url, smsUrl: sms.url });
    sender = createMessageSender(t.database, t.config, {
      intervalMs: 0,
      retryBaseSeconds: 0,
      smsTimeoutMs: 2000,
      today: () => clock,
      secrets: createSecretBox(await loadSecretKeys(t.config)),
    });
  });
  afterAll(async () => {
    await sender.stop();
    await t.app.close();
    await wa.stop();
    await sms.stop();
  });
  afterEach(() => {
    clock = new Date().toISOString().slice(0, 10);
    wa.sent.length = 0;
    wa.script.length = 0;
    sms.requests.length = 0;
  });

  const messagesOf = async (client: TestClient) =>
    expectStatus(await client.get('/messages?sort=id'), 200).json<MessageRow[]>();

  /** The tenant agrees to WhatsApp (its record's `notify_whatsapp`, through the API). */
  const optIn = async (client: TestClient, tenantId: number, on = true) => {
    const tenant = expectStatus(await client.get(`/tenants/${tenantId}`), 200).json<
      Record<string, unknown>
    >();
    expect(tenant.notify_whatsapp).toBe(false); // off until the tenant agrees
    const { id: _i, full_name: _f, external_ref: _e, created_at: _c, updated_at: _u, ...editable } = tenant;
    expectStatus(await client.put(`/tenants/${tenantId}`, { ...editable, notify_whatsapp: on }), 200);
  };

  /** A company with WhatsApp set up: its admin client and the webhook's path. */
  const whatsappCompany = async (extra: Record<string, unknown> = {}) => {
    const c = await companyWith(t);
    const saved = expectStatus(
      await c.client.put('/whatsapp-settings', { ...SETTINGS, ...extra }),
      200,
    ).json<Settings>();
    const path = (saved.webhook_url ?? '').replace(PUBLIC_URL, '');
    return { ...c, saved, path };
  };

  const postStatuses = (path: string, call: { body: string; signature: string }) =>
    t.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': call.signature },
      payload: call.body,
    });

  /** A receipt sent by WhatsApp: the company, its client, the message and what Meta received. */
  const sentReceipt = async (extra: Record<string, unknown> = {}) => {
    const c = await whatsappCompany(extra);
    await setSettings(c.client, { receipt_notification: { email: false, sms: false, whatsapp: true } });
    const lease = await createLease(c.client, { start_date: '2026-03-01', rate: 300_000 }, { first: 'Joel' });
    await optIn(c.client, lease.tenant_id);
    await pay(c.client, lease, '2026-03-02', 300_000);
    await sender.drain();
    const [message] = (await messagesOf(c.client)).filter((m) => m.channel === 'whatsapp');
    return { ...c, lease, message: message as MessageRow };
  };

  it('keeps the token and app secret sealed, answers only whether each is set, for company admins only', async () => {
    const { company, client } = await companyWith(t);
    const before = expectStatus(await client.get('/whatsapp-settings'), 200).json<Settings>();
    expect(before).toMatchObject({
      enabled: false,
      access_token_set: false,
      app_secret_set: false,
      webhook_url: null,
      verify_token: null,
    });
    // turning it on needs the account
    const missing = await client.put('/whatsapp-settings', { enabled: true, phone_number_id: '1065' });
    expect(missing.statusCode).toBe(400);
    expect(Object.keys(missing.json<{ fields: Record<string, string> }>().fields).sort()).toEqual([
      'access_token',
      'app_secret',
    ]);
    // a template name WhatsApp Manager would not take: refused
    expect(
      (await client.put('/whatsapp-settings', { enabled: false, templates: { overdue: 'Rent Overdue!' } }))
        .statusCode,
    ).toBe(400);

    const saved = expectStatus(await client.put('/whatsapp-settings', SETTINGS), 200);
    expect(saved.body).not.toContain(ACCOUNT.token);
    expect(saved.body).not.toContain(ACCOUNT.appSecret);
    const got = expectStatus(await client.get('/whatsapp-settings'), 200);
    expect(got.body).not.toContain(ACCOUNT.token);
    const settings = got.json<Settings>();
    expect(settings).toMatchObject({
      enabled: true,
      phone_number_id: ACCOUNT.phoneNumberId,
      access_token_set: true,
      app_secret_set: true,
      templates: { overdue: 'kodi_overdue', receipt: 'kodi_receipt', before_due: null },
    });
    // the URL and verify token to paste in Meta's portal
    expect(settings.webhook_url).toMatch(
      new RegExp(`^${PUBLIC_URL}/rentapi/api/whatsapp-callbacks/[0-9a-f]{32}$`),
    );
    expect(settings.verify_token).toMatch(/^[0-9a-f]{32}$/);
    // stored sealed when the server has a key
    const [row] = await t.database.query<{ credentials: string }>(
      'SELECT credentials FROM whatsapp_settings WHERE company_id = $1',
      [company.id],
    );
    if ((await loadSecretKeys(t.config)).length > 0) expect(row?.credentials).toMatch(/^v1\./);
    expect(row?.credentials.startsWith('v1.') ? row.credentials : '').not.toContain(ACCOUNT.token);
    // a secret left out is kept; null clears it
    const cleared = expectStatus(
      await client.put('/whatsapp-settings', { enabled: false, app_secret: null, fallback_sms: true }),
      200,
    ).json<Settings>();
    expect(cleared).toMatchObject({ access_token_set: true, app_secret_set: false, fallback_sms: true });
    expect(cleared.webhook_url).toBe(settings.webhook_url); // the URL stays
    // the audit log says which changed, never the values
    const audit = await t.database.query<{ after: unknown }>(
      `SELECT after FROM audit_entries WHERE company_id = $1 AND entity = 'whatsapp_settings' ORDER BY id`,
      [company.id],
    );
    expect(audit.length).toBe(2);
    expect(JSON.stringify(audit)).not.toContain(ACCOUNT.token);
    expect(JSON.stringify(audit)).not.toContain(ACCOUNT.appSecret);

    // roles: an editor and a viewer neither read nor change it; a company admin does
    for (const roles of [['editor'], ['viewer']] as const) {
      const u = await buildUser(t.database, { company_id: company.id, roles: [...roles] });
      const c = new TestClient(t.app);
      expectStatus(await c.login(u.email, u.password), 200);
      expect((await c.get('/whatsapp-settings')).statusCode).toBe(403);
      expect((await c.put('/whatsapp-settings', { enabled: false })).statusCode).toBe(403);
    }
    const ca = await buildUser(t.database, { company_id: company.id, roles: ['company_admin'] });
    const caClient = new TestClient(t.app);
    expectStatus(await caClient.login(ca.email, ca.password), 200);
    expect(expectStatus(await caClient.get('/whatsapp-settings'), 200).json<Settings>().fallback_sms).toBe(
      true,
    );
    // another company sees its own settings, and saving them leaves these as they are
    const other = await companyWith(t);
    const theirs = expectStatus(await other.client.get('/whatsapp-settings'), 200).json<Settings>();
    expect(theirs).toMatchObject({ access_token_set: false, webhook_url: null, phone_number_id: null });
    const theirsSaved = expectStatus(
      await other.client.put('/whatsapp-settings', { enabled: false, phone_number_id: '999' }),
      200,
    ).json<Settings>();
    expect(theirsSaved.webhook_url).not.toBe(settings.webhook_url);
    const ours = expectStatus(await client.get('/whatsapp-settings'), 200).json<Settings>();
    expect(ours).toMatchObject({ phone_number_id: ACCOUNT.phoneNumberId, access_token_set: true });
  }, 120_000);

  it('takes random settings bodies without a 5xx; a refused one changes nothing', async () => {
    const { client } = await whatsappCompany();
    const read = async () => expectStatus(await client.get('/whatsapp-settings'), 200).json<Settings>();
    const base = () => ({ ...SETTINGS, fallback_sms: false, version: 0 });
    await fc.assert(
      fc.asyncProperty(hostileBody(Object.keys(base()), base), async (raw) => {
        const was = await read();
        const text = raw.replace(/"version":0\b/, `"version":${was.version}`);
        const res = await client.request('PUT', '/whatsapp-settings', text, {
          'content-type': 'application/json',
        });
        expect([200, 400, 409, 413, 415], res.body.slice(0, 300)).toContain(res.statusCode);
        if (res.statusCode >= 400) {
          expect(errorShapeProblem(res), res.body.slice(0, 200)).toBeUndefined();
          expect(await read()).toEqual(was);
        } else expect(res.body).not.toContain(ACCOUNT.token);
      }),
      { numRuns: 40, seed: 20261128 },
    );
  }, 180_000);

  it('answers Meta’s check of the webhook URL with the challenge only for the company’s verify token', async () => {
    const { saved, path } = await whatsappCompany();
    const check = (token: string, mode = 'subscribe') =>
      t.app.inject({
        method: 'GET',
        url: `${path}?hub.mode=${mode}&hub.verify_token=${token}&hub.challenge=1158201444`,
      });
    const ok = await check(saved.verify_token ?? '');
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('1158201444');
    expect((await check('not-the-token')).statusCode).toBe(403);
    expect((await check(saved.verify_token ?? '', 'unsubscribe')).statusCode).toBe(403);
    // another company's token does not open this URL
    const other = await whatsappCompany();
    expect((await check(other.saved.verify_token ?? '')).statusCode).toBe(403);
  }, 60_000);

  it('sends a reminder as the company’s template with its variables, only to tenants who agreed', async () => {
    const { client, company } = await whatsappCompany();
    await setSettings(client, {
      reminders: [{ event: 'overdue', days: 2, channels: ['whatsapp'] }],
      receipt_notification: { email: false, sms: false, whatsapp: false },
    });
    clock = '2026-03-03';
    const lease = await createLease(
      client,
      { start_date: '2026-03-01', rate: 250_000 },
      { first: 'Amina', unit: 'Flat 7' },
    );
    await optIn(client, lease.tenant_id);
    // a second tenant who did not agree to WhatsApp gets nothing by it
    const other = await createLease(client, { start_date: '2026-03-01', rate: 200_000 }, { first: 'Brian' });
    await pay(client, lease, '2026-03-01', 100_000);
    expect((await runCycle(client, '2026-03-03')).reminders_queued).toBe(1);
    expect(wa.sent).toHaveLength(0); // the sender sends, not the run
    expect(await sender.drain()).toMatchObject({ sent: 1, failed: 0 });

    expect(wa.sent).toHaveLength(1);
    const [sent] = wa.sent;
    expect(sent).toMatchObject({
      to: '256772123456',
      name: 'kodi_overdue',
      language: 'en',
      version: 'v21.0',
    });
    expect(sent?.parameters[0]).toBe('Amina');
    expect(sent?.parameters[1]).toMatch(/^UGX\s*150,000$/);
    expect(sent?.parameters[2]).toBe('Flat 7');
    expect(sent?.parameters[3]).toBe('Mar 1, 2026');
    expect(sent?.parameters[4]).toMatch(/^UGX\s*150,000$/);
    expect(sent?.parameters[5]).toMatch(/^Company \d+$/);

    const log = await messagesOf(client);
    expect(log.map((m) => [m.kind, m.channel, m.status, m.to])).toEqual([
      ['reminder', 'whatsapp', 'sent', '+256772123456'],
    ]);
    expect(log[0]?.external_id).toBe(sent?.id);
    const brian = await t.database.query(`SELECT 1 FROM messages WHERE company_id = $1 AND tenant_id = $2`, [
      company.id,
      other.tenant_id,
    ]);
    expect(brian).toHaveLength(0);

    // a test message by WhatsApp: Meta's sample template
    expectStatus(await client.post('/messages/test', { channel: 'whatsapp', to: '+256772000111' }), 201);
    await sender.drain();
    expect(wa.sent.at(-1)).toMatchObject({
      name: 'hello_world',
      language: 'en_US',
      parameters: [],
      to: '256772000111',
    });
  }, 120_000);

  it('sends the Arrears page’s reminder by WhatsApp, once a day, only to tenants who agreed', async () => {
    const { client } = await whatsappCompany();
    const agreed = await createLease(
      client,
      { start_date: '2026-03-01', rate: 120_000 },
      { first: 'Rehema' },
    );
    await optIn(client, agreed.tenant_id);
    const other = await createLease(client, { start_date: '2026-03-01', rate: 90_000 }, { first: 'Said' });
    const ask = { occupancy_ids: [agreed.id, other.id], channel: 'whatsapp' };
    const answer = expectStatus(await client.post('/arrears/remind', ask), 200).json<{
      queued: number;
      skipped: number;
      results: { occupancy_id: number; status: string }[];
    }>();
    expect(answer).toMatchObject({ queued: 1, skipped: 1 });
    expect(answer.results.find((r) => r.occupancy_id === other.id)?.status).toBe('skipped');
    await sender.drain();
    expect(wa.sent).toHaveLength(1);
    expect(wa.sent[0]).toMatchObject({ name: 'kodi_overdue', to: '256772123456' });
    expect(wa.sent[0]?.parameters[0]).toBe('Rehema');
    expect(wa.sent[0]?.parameters[4]).toMatch(/^UGX\s*[\d,]+$/);
    // asked again the same day: already sent
    expect(expectStatus(await client.post('/arrears/remind', ask), 200).json()).toMatchObject({
      queued: 0,
      already: 1,
    });
    await sender.drain();
    expect(wa.sent).toHaveLength(1);
    const log = (await messagesOf(client)).filter((m) => m.channel === 'whatsapp');
    expect(log.map((m) => [m.kind, m.status])).toEqual([['reminder', 'sent']]);
  }, 120_000);

  it('sends a receipt by WhatsApp with its variables; a tenant who did not agree gets none', async () => {
    const { client, message, lease } = await sentReceipt();
    expect(wa.sent).toHaveLength(1);
    const [sent] = wa.sent;
    expect(sent?.name).toBe('kodi_receipt');
    expect(sent?.parameters[0]).toBe('Joel');
    expect(sent?.parameters[1]).toMatch(/^UGX\s*300,000$/);
    const [payment] = await t.database.query<{ receipt_number: string; receipt_code: string }>(
      `SELECT receipt_number, receipt_code FROM payments WHERE occupancy_id = $1`,
      [lease.id],
    );
    expect(sent?.parameters[2]).toBe(payment?.receipt_number);
    expect(sent?.parameters[3]).toBe(`${PUBLIC_URL}/r/${payment?.receipt_code}`);
    expect(message).toMatchObject({ kind: 'receipt', status: 'sent', external_id: sent?.id });

    // notify_whatsapp off: no WhatsApp receipt
    const later = await createLease(client, { start_date: '2026-03-01', rate: 100_000 }, { first: 'Zawadi' });
    await pay(client, later, '2026-03-02', 100_000);
    await sender.drain();
    expect(wa.sent).toHaveLength(1);
    expect((await messagesOf(client)).filter((m) => m.channel === 'whatsapp')).toHaveLength(1);
  }, 120_000);

  it('shows the statuses of the signed webhook in the message log; a forged one changes nothing', async () => {
    const { client, message, path } = await sentReceipt();
    const wamid = message.external_id ?? '';
    expect(wamid).toMatch(/^wamid\./);

    // forged: signed with another secret, unsigned, or a body changed after signing
    const forged = wa.statusCall([{ id: wamid, status: 'read' }], 'not-the-app-secret');
    const refused = await postStatuses(path, forged);
    expect(refused.statusCode).toBe(401);
    expect(refused.json<{ code: string }>().code).toBe('bad_signature');
    const real = wa.statusCall([{ id: wamid, status: 'read' }]);
    expect((await postStatuses(path, { body: real.body, signature: '' })).statusCode).toBe(401);
    expect(
      (await postStatuses(path, { body: real.body.replace('"read"', '"failed"'), signature: real.signature }))
        .statusCode,
    ).toBe(401);
    // another company's webhook URL (its own app secret), with this signature: refused
    const other = await whatsappCompany({ app_secret: 'another-company-app-secret' });
    expect((await postStatuses(other.path, real)).statusCode).toBe(401);
    // an unknown key: the same answer
    expect((await postStatuses('/rentapi/api/whatsapp-callbacks/' + '0'.repeat(32), real)).statusCode).toBe(
      401,
    );
    expect((await messagesOf(client)).find((m) => m.id === message.id)?.delivery_status).toBeNull();

    // signed: sent, then delivered, then read
    const sentCall = await postStatuses(path, wa.statusCall([{ id: wamid, status: 'sent' }]));
    expect(sentCall.statusCode).toBe(200);
    expect((await postStatuses(path, wa.statusCall([{ id: wamid, status: 'delivered' }]))).json()).toEqual({
      updated: 1,
    });
    let shown = (await messagesOf(client)).find((m) => m.id === message.id);
    expect(shown).toMatchObject({ status: 'sent', delivery_status: 'delivered' });
    expect((await postStatuses(path, real)).json()).toEqual({ updated: 1 });
    // a late 'delivered' does not take it back; an unknown wamid is ignored
    const late = await postStatuses(
      path,
      wa.statusCall([
        { id: wamid, status: 'delivered' },
        { id: 'wamid.unknown', status: 'read' },
      ]),
    );
    expect(late.json()).toEqual({ updated: 0 });
    shown = (await messagesOf(client)).find((m) => m.id === message.id);
    expect(shown).toMatchObject({ status: 'sent', delivery_status: 'read' });
    // the log filters by the channel
    const onlyWhatsapp = expectStatus(await client.get('/messages?channel=whatsapp'), 200).json<
      MessageRow[]
    >();
    expect(onlyWhatsapp.map((m) => m.id)).toEqual([message.id]);
    // another company's signed call naming this wamid changes nothing here
    const theirs = wa.statusCall([{ id: wamid, status: 'failed' }], 'another-company-app-secret');
    expect((await postStatuses(other.path, theirs)).json()).toEqual({ updated: 0 });
    expect((await messagesOf(client)).find((m) => m.id === message.id)?.delivery_status).toBe('read');
  }, 120_000);

  it('sends a failed WhatsApp message by SMS once, when the company chose so', async () => {
    const { client, message, path } = await sentReceipt({ fallback_sms: true });
    const failed = wa.statusCall([
      {
        id: message.external_id ?? '',
        status: 'failed',
        errors: [
          {
            code: 131026,
            title: 'Message undeliverable',
            message: 'Message undeliverable',
            error_data: { details: 'Message Undeliverable.' },
          },
        ],
      },
    ]);
    expect((await postStatuses(path, failed)).json()).toEqual({ updated: 1 });
    // Meta calls again with the same status: still one SMS
    expect((await postStatuses(path, failed)).json()).toEqual({ updated: 0 });
    await sender.drain();
    const log = await messagesOf(client);
    const shown = log.find((m) => m.id === message.id);
    expect(shown).toMatchObject({ status: 'failed', delivery_status: 'failed' });
    expect(shown?.reason).toContain('131026');
    const smsRows = log.filter((m) => m.channel === 'sms');
    expect(smsRows.map((m) => [m.kind, m.status, m.to])).toEqual([['receipt', 'sent', '+256772123456']]);
    expect(sms.requests).toHaveLength(1);
    expect(sms.requests[0]?.form.message).toMatch(/^Payment of UGX\s*300,000 received, receipt /);

    // refused when sent (a template Meta does not have): failed at once, and by SMS once
    wa.script.push({
      status: 400,
      body: {
        error: {
          message: '(#132001) Template name does not exist in the translation',
          type: 'OAuthException',
          code: 132001,
          fbtrace_id: 'AbC',
        },
      },
    });
    const lease = await createLease(client, { start_date: '2026-03-01', rate: 100_000 }, { first: 'Imani' });
    await optIn(client, lease.tenant_id);
    await pay(client, lease, '2026-03-02', 100_000);
    await sender.drain();
    const after = await messagesOf(client);
    const refused = after.filter((m) => m.channel === 'whatsapp').at(-1);
    expect(refused).toMatchObject({ status: 'failed', external_id: null });
    expect(refused?.error).toContain('132001');
    expect(after.filter((m) => m.channel === 'sms')).toHaveLength(2);
    // sent again from the log and refused again: no second SMS
    wa.script.push({ status: 400, body: { error: { message: 'Invalid parameter', code: 100 } } });
    expectStatus(await client.post(`/messages/${refused?.id}/retry`), 200);
    await sender.drain();
    expect((await messagesOf(client)).filter((m) => m.channel === 'sms')).toHaveLength(2);
  }, 120_000);

  it('sends any other message (an announcement) as the company’s other template, its text the one variable', async () => {
    const { client, company } = await whatsappCompany({ templates: { other: 'kodi_notice' } });
    // queued through the outbox as any feature queues one (here an owner's statement, by WhatsApp)
    await t.database.query(
      `INSERT INTO messages (company_id, kind, channel, "to", body, status)
       VALUES ($1, 'owner_statement', 'whatsapp', '+256772555666', $2, 'queued')`,
      [company.id, 'Water off on Tuesday.\n\nThe\tmanagement,      Kodi'],
    );
    expect(await sender.drain()).toMatchObject({ sent: 1 });
    expect(wa.sent).toHaveLength(1);
    expect(wa.sent[0]).toMatchObject({
      name: 'kodi_notice',
      to: '256772555666',
      // no new lines, tabs or more than 4 spaces: WhatsApp refuses them in a variable
      parameters: ['Water off on Tuesday. The management,   Kodi'],
    });
    // without an 'other' template: skipped, with the reason
    expectStatus(await client.put('/whatsapp-settings', { enabled: true, templates: { other: null } }), 200);
    await t.database.query(
      `INSERT INTO messages (company_id, kind, channel, "to", body, status)
       VALUES ($1, 'owner_statement', 'whatsapp', '+256772555666', 'Hello', 'queued')`,
      [company.id],
    );
    await sender.drain();
    const last = (await messagesOf(client)).at(-1);
    expect(last).toMatchObject({ status: 'skipped', channel: 'whatsapp' });
    expect(last?.reason).toContain('no WhatsApp template');
  }, 120_000);

  it('sends an announcement by WhatsApp (POST /announcements) to the tenants who agreed, counted per status', async () => {
    const { client } = await whatsappCompany({ templates: { other: 'kodi_notice' } });
    const agreed = await createLease(
      client,
      { start_date: '2026-03-01', rate: 100_000 },
      { first: 'Zawadi' },
    );
    await optIn(client, agreed.tenant_id);
    // a tenant who did not agree to WhatsApp: logged skipped, never sent
    await createLease(client, { start_date: '2026-03-01', rate: 100_000 }, { first: 'Yusuf' });
    type Sent = { id: number; recipients: number; counts: Record<string, Record<string, number>> };
    const sent = expectStatus(
      await client.post('/announcements', {
        channels: ['whatsapp'],
        subject: 'Water off',
        body: 'No water on Saturday from 9 to 12.',
        idempotency_key: 'whatsapp-announcement-0001',
      }),
      201,
    ).json<Sent>();
    expect(sent.recipients).toBe(2);
    expect(sent.counts).toEqual({ whatsapp: { queued: 1, sent: 0, failed: 0, skipped: 1 } });
    expect(wa.sent).toHaveLength(0); // the sender sends, not the request
    expect(await sender.drain()).toMatchObject({ sent: 1, failed: 0 });
    expect(wa.sent).toEqual([
      expect.objectContaining({
        name: 'kodi_notice',
        to: '256772123456',
        parameters: ['Water off: No water on Saturday from 9 to 12.'],
      }),
    ]);
    const log = (await messagesOf(client)).filter((m) => m.kind === 'announcement');
    expect(log.map((m) => [m.channel, m.status, m.error]).sort()).toEqual([
      ['whatsapp', 'sent', null],
      ['whatsapp', 'skipped', 'opted_out'],
    ]);
    const [listed] = expectStatus(await client.get('/announcements'), 200).json<Sent[]>();
    expect(listed).toMatchObject({
      id: sent.id,
      counts: { whatsapp: { queued: 0, sent: 1, failed: 0, skipped: 1 } },
    });
  }, 120_000);

  it('sends a WhatsApp message once with two senders draining at once', async () => {
    const { client } = await whatsappCompany();
    await setSettings(client, { receipt_notification: { email: false, sms: false, whatsapp: true } });
    const leases = [];
    for (const first of ['Asha', 'Baraka', 'Chiku']) {
      const lease = await createLease(client, { start_date: '2026-03-01', rate: 100_000 }, { first });
      await optIn(client, lease.tenant_id);
      leases.push(lease);
    }
    for (const lease of leases) await pay(client, lease, '2026-03-02', 100_000);
    const second = createMessageSender(t.database, t.config, {
      intervalMs: 0,
      retryBaseSeconds: 0,
      secrets: createSecretBox(await loadSecretKeys(t.config)),
    });
    try {
      await Promise.all([sender.drain(), second.drain(), sender.drain()]);
    } finally {
      await second.stop();
    }
    expect(wa.sent.map((m) => m.parameters[0]).sort()).toEqual(['Asha', 'Baraka', 'Chiku']);
    const log = (await messagesOf(client)).filter((m) => m.channel === 'whatsapp');
    expect(log.map((m) => m.status)).toEqual(['sent', 'sent', 'sent']);
    expect(new Set(log.map((m) => m.external_id)).size).toBe(3);
  }, 120_000);

  it('refuses any webhook call not signed with the app secret, whatever its body, and changes nothing', async () => {
    const { client, message, path } = await sentReceipt();
    const before = JSON.stringify(await messagesOf(client));
    const bodies = [
      wa.statusCall([{ id: message.external_id ?? '', status: 'failed' }]).body,
      '{}',
      '{"entry":[{"changes":[{"value":{"statuses":[{"id":"x","status":"read"}]}}]}]}',
      JSON.stringify({ entry: 'x'.repeat(5000) }),
    ];
    const signatures = [
      '',
      'sha256=',
      'sha1=abcdef',
      `sha256=${'0'.repeat(64)}`,
      `sha256=${'f'.repeat(63)}`,
      `sha256=${'a'.repeat(200)}`,
      wa.statusCall([{ id: 'other', status: 'read' }]).signature,
    ];
    for (const body of bodies)
      for (const signature of signatures) {
        const res = await postStatuses(path, { body, signature });
        expect(res.statusCode, `${signature} ${body.slice(0, 40)}`).toBe(401);
        expect(res.json()).toMatchObject({ code: 'bad_signature', error: expect.any(String) });
      }
    // not JSON at all: refused as well, nothing changes
    const notJson = await t.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': 'sha256=00' },
      payload: '{"entry":',
    });
    expect([400, 401]).toContain(notJson.statusCode);
    expect(JSON.stringify(await messagesOf(client))).toBe(before);
  }, 120_000);

  it('sends no SMS when the company did not choose so; a company without WhatsApp skips it', async () => {
    const { client, message, path } = await sentReceipt();
    const failed = wa.statusCall([
      { id: message.external_id ?? '', status: 'failed', errors: [{ code: 131047 }] },
    ]);
    expect((await postStatuses(path, failed)).json()).toEqual({ updated: 1 });
    await sender.drain();
    expect((await messagesOf(client)).filter((m) => m.channel === 'sms')).toHaveLength(0);

    // WhatsApp turned off: a WhatsApp receipt is skipped, with the reason
    expectStatus(await client.put('/whatsapp-settings', { enabled: false }), 200);
    const lease = await createLease(client, { start_date: '2026-03-01', rate: 100_000 }, { first: 'Neema' });
    await optIn(client, lease.tenant_id);
    await pay(client, lease, '2026-03-02', 100_000);
    await sender.drain();
    const skipped = (await messagesOf(client)).filter((m) => m.channel === 'whatsapp').at(-1);
    expect(skipped).toMatchObject({ status: 'skipped' });
    expect(skipped?.reason).toContain('WhatsApp is off');
  }, 120_000);
});
