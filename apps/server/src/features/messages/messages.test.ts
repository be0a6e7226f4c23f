import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { defaultTemplates, NO_SMS_PROVIDER, SMS_PARTS_WARNING } from '@kodi/domain';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { TestClient } from '../../test/client.ts';
import {
  atAnswer,
  decodedMail,
  startSmsServer,
  startSmtpReceiver,
  type SmsServer,
} from '../../test/message-servers.ts';
import { companyWith, createLease, expectStatus, pay, runCycle, setSettings } from '../../test/rent-cycle.ts';
import { createMessageSender, type MessageSender } from '../../modules/messaging/sender.ts';

type MessageRow = {
  id: number;
  kind: string;
  channel: string;
  to: string | null;
  tenant_name: string | null;
  subject: string | null;
  body: string;
  status: string;
  attempts: number;
  error: string | null;
  reason: string | null;
};

const PUBLIC_URL = 'https://kodi.example';
/** the sender's today (the tests' runs travel in time) */
let clock = new Date().toISOString().slice(0, 10);

const messagesOf = async (client: TestClient, query = '') =>
  expectStatus(await client.get(`/messages?sort=id${query}`), 200).json<MessageRow[]>();

/** A queued SMS of the company, written as the daily run writes one. */
const queueSms = async (t: TestContext, companyId: number, to: string, body = 'Hello from Kodi') => {
  const rows = await t.database.query<{ id: number }>(
    `INSERT INTO messages (company_id, kind, channel, "to", body, status) VALUES ($1, 'test', 'sms', $2, $3, 'queued') RETURNING id`,
    [companyId, to, body],
  );
  return Number(rows[0]?.id);
};

describe(`messages through SMTP and Africa's Talking (${testDriver})`, () => {
  let t: TestContext;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let sms: SmsServer;
  let sender: MessageSender;

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    sms = await startSmsServer('africastalking');
    t = await setupApp({ smtpUrl: smtp.url, smsUrl: sms.url, publicUrl: PUBLIC_URL });
    sender = createMessageSender(t.database, t.config, {
      intervalMs: 0,
      retryBaseSeconds: 0,
      smsTimeoutMs: 300,
      today: () => clock,
    });
  });
  afterAll(async () => {
    await sender.stop();
    await t.app.close();
    await smtp.stop();
    await sms.stop();
  });
  afterEach(() => {
    clock = new Date().toISOString().slice(0, 10);
    smtp.received.length = 0;
    sms.requests.length = 0;
    sms.script.length = 0;
  });

  it('sends the daily run’s reminders, rendered from the templates, by e-mail and SMS', async () => {
    const { client } = await companyWith(t);
    await setSettings(client, {
      sms_sender_id: 'KodiRent',
      reminders: [{ event: 'overdue', days: 2, channels: ['email', 'sms'] }],
      receipt_notification: { email: false, sms: false },
    });
    clock = '2026-03-03';
    const lease = await createLease(
      client,
      { start_date: '2026-03-01', rate: 250_000 },
      { first: 'Amina', unit: 'Flat 7', email: 'amina@example.com' },
    );
    await pay(client, lease, '2026-03-01', 100_000);
    expect((await runCycle(client, '2026-03-03')).reminders_queued).toBe(2);
    // saving and running send nothing: the sender does
    expect(smtp.received).toHaveLength(0);
    expect(sms.requests).toHaveLength(0);
    const round = await sender.drain();
    expect(round).toMatchObject({ sent: 2, failed: 0 });

    const [mail] = await smtp.waitFor(1);
    expect(mail?.to).toEqual(['amina@example.com']);
    const text = decodedMail(mail?.raw ?? '');
    expect(text).toContain('Subject: Rent overdue: Flat 7');
    expect(text).toMatch(/Dear Amina,\r?\n\r?\nYour rent of UGX\s*150,000 for Flat 7 was due on Mar 1, 2026/);
    expect(text).toMatch(/Your balance is UGX\s*150,000\./);

    const [req] = await sms.waitFor(1);
    expect(req?.path).toBe('/version1/messaging');
    expect(req?.headers.apikey).toBe('secret-key');
    expect(req?.headers.accept).toBe('application/json');
    expect(req?.form).toMatchObject({ username: 'kodi-user', to: '+256772123456', from: 'KodiRent' });
    expect(req?.form.message).toMatch(
      /^Hi Amina, your rent for Flat 7 due Mar 1, 2026 is overdue\. Balance: UGX\s*150,000\. Company \d+$/,
    );

    const log = await messagesOf(client);
    expect(log.map((m) => [m.kind, m.channel, m.status, m.attempts])).toEqual([
      ['reminder', 'email', 'sent', 1],
      ['reminder', 'sms', 'sent', 1],
    ]);
    expect(log[1]?.body).toBe(req?.form.message);
    expect(log[0]?.tenant_name).toMatch(/^Amina /);
  });

  it('queues a receipt e-mail with the PDF and an SMS when a payment becomes completed', async () => {
    const { client, company } = await companyWith(t);
    await setSettings(client, { receipt_notification: { email: true, sms: true } });
    const lease = await createLease(client, { start_date: '2026-03-01', rate: 300_000 }, { first: 'Joel' });
    const pending = expectStatus(
      await client.post('/payments', {
        tenant_id: lease.tenant_id,
        unit_id: lease.unit_id,
        occupancy_id: lease.id,
        payment_date: '2026-03-02',
        amount_paid: 300_000,
        payment_method: 'cash',
        status: 'pending',
        effective_start_date: '2026-03-02',
        effective_end_date: '2026-03-31',
      }),
      201,
    ).json<Record<string, unknown> & { id: number; version: number }>();
    expect((await sender.drain()).receipts).toBe(0); // pending: no receipt
    // completed by an update
    const { id: _id, version, ...rest } = pending;
    const done = expectStatus(
      await client.put(`/payments/${pending.id}`, {
        ...Object.fromEntries(
          Object.entries(rest).filter(([k]) =>
            [
              'tenant_id',
              'unit_id',
              'occupancy_id',
              'payment_date',
              'amount_paid',
              'payment_method',
              'effective_start_date',
              'effective_end_date',
            ].includes(k),
          ),
        ),
        status: 'completed',
        version,
      }),
      200,
    ).json<{ receipt_number: string }>();
    const code = (
      await t.database.query<{ receipt_code: string }>(`SELECT receipt_code FROM payments WHERE id = $1`, [
        pending.id,
      ])
    )[0]?.receipt_code;
    const round = await sender.drain();
    expect(round).toMatchObject({ receipts: 1, sent: 2 });
    expect((await sender.drain()).receipts).toBe(0); // once

    const [mail] = await smtp.waitFor(1);
    const text = decodedMail(mail?.raw ?? '');
    expect(text).toMatch(new RegExp(`Subject: .*Receipt.${done.receipt_number}:.UGX`));
    expect(text).toMatch(/We have received your payment of UGX\s*300,000 for Unit \d+\./);
    // the receipt's PDF, attached
    expect(text).toContain('Content-Type: application/pdf');
    expect(text).toMatch(/filename=receipt_RCT-\d+\.pdf\r?\n\r?\nJVBERi0/);
    expect(text).toContain(`receipt_${done.receipt_number}.pdf`);
    expect(text).toContain(`${PUBLIC_URL}/r/${code}`);
    const [req] = await sms.waitFor(1);
    expect(req?.form.message).toMatch(
      new RegExp(
        `^Payment of UGX\\s*300,000 received, receipt ${done.receipt_number}: ${PUBLIC_URL}/r/${code} ${`Company`}`,
      ),
    );
    const rows = await t.database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM messages WHERE company_id = $1 AND kind = 'receipt'`,
      [company.id],
    );
    expect(rows[0]?.n).toBe(2);
  });

  it('sends receipts as the company’s settings and the tenant’s choices say', async () => {
    const { client, company } = await companyWith(t);
    await setSettings(client, { receipt_notification: { email: false, sms: true } });
    const lease = await createLease(client, { start_date: '2026-03-01', rate: 100_000 });
    const tenant = expectStatus(await client.get(`/tenants/${lease.tenant_id}`), 200).json<
      Record<string, unknown>
    >();
    expect(tenant).toMatchObject({ notify_email: true, notify_sms: true });
    await pay(client, lease, '2026-03-01', 100_000);
    await sender.drain();
    const first = await t.database.query<{ channel: string }>(
      `SELECT channel FROM messages WHERE company_id = $1 ORDER BY id`,
      [company.id],
    );
    expect(first.map((m) => m.channel)).toEqual(['sms']);
    // the tenant wants no SMS: nothing more
    const { id: _i, full_name: _f, external_ref: _e, created_at: _c, updated_at: _u, ...editable } = tenant;
    expectStatus(await client.put(`/tenants/${lease.tenant_id}`, { ...editable, notify_sms: false }), 200);
    await pay(client, lease, '2026-03-05', 50_000);
    await sender.drain();
    const after = await t.database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM messages WHERE company_id = $1`,
      [company.id],
    );
    expect(after[0]?.n).toBe(1);
  });

  it('texts every spelling of a tenant’s phone to the same E.164 number, and none that is not a number', async () => {
    const { client, company } = await companyWith(t);
    await setSettings(client, { receipt_notification: { email: false, sms: true } });
    // phones as typed before they were saved in E.164 (a form saves E.164 now: tenants/phones.test.ts)
    const written: [phone: string, code: string | null, to: string | null][] = [
      ['0772 123 456', '+256', '+256772123456'],
      ['0772123456', null, '+256772123456'],
      ['256772123456', '+256', '+256772123456'],
      ['+256 772 123456', null, '+256772123456'],
      ['772123456', '+256', '+256772123456'],
      ['0712 345 678', '+254', '+254712345678'],
      ['0772 99887', '+256', null],
    ];
    for (const [i, [phone, code]] of written.entries()) {
      const lease = await createLease(
        client,
        { start_date: '2026-03-01', rate: 100_000 },
        { first: `Spelling${i}` },
      );
      await t.database.query('UPDATE tenants SET phone = $2, country_code = $3 WHERE id = $1', [
        lease.tenant_id,
        phone,
        code,
      ]);
      await pay(client, lease, '2026-03-01', 100_000);
    }
    await sender.drain();
    const requests = await sms.waitFor(written.length - 1);
    expect(requests.map((r) => r.form.to).sort()).toEqual(
      written.flatMap(([, , to]) => (to ? [to] : [])).sort(),
    );
    const log = await t.database.query<{ to: string | null; status: string; error: string | null }>(
      `SELECT "to", status, error FROM messages WHERE company_id = $1 ORDER BY id`,
      [company.id],
    );
    expect(log.map((m) => m.to)).toEqual(written.map(([, , to]) => to));
    expect(log.at(-1)).toMatchObject({ status: 'skipped', error: 'no_address' });
    const answered = await messagesOf(client, '&status=skipped');
    expect(answered.at(-1)).toMatchObject({
      channel: 'sms',
      error: 'no_address',
      reason: 'The tenant has no phone number.',
    });
  });

  it('queues receipts of payments completed by any path (here written straight to the table, as an import does)', async () => {
    const { client, company } = await companyWith(t);
    await setSettings(client, { receipt_notification: { email: false, sms: true } });
    const lease = await createLease(
      client,
      { start_date: '2026-03-01', rate: 80_000 },
      { first: 'Imported' },
    );
    await t.database.query(
      `INSERT INTO payments (company_id, unit_id, tenant_id, occupancy_id, payment_date, payment_serial, amount_paid,
                             effective_start_date, effective_end_date, payment_method, status, receipt_number)
       VALUES ($1, $2, $3, $4, '2026-03-02', 'PAY-IMP-1', 80000, '2026-03-02', '2026-03-31', 'cash', 'completed', 'RCT-IMP-1'),
              ($1, $2, $3, $4, '2026-03-03', 'PAY-IMP-2', 10000, '2026-03-03', '2026-03-31', 'cash', 'pending', NULL)`,
      [company.id, lease.unit_id, lease.tenant_id, lease.id],
    );
    const round = await sender.drain();
    expect(round).toMatchObject({ receipts: 1, sent: 1 });
    const [req] = await sms.waitFor(1);
    expect(req?.form.message).toMatch(
      /^Payment of UGX\s*80,000 received, receipt RCT-IMP-1: https:\/\/kodi\.example\/r\/[0-9a-f]{64} /,
    );
    expect((await messagesOf(client)).map((m) => [m.kind, m.channel, m.status])).toEqual([
      ['receipt', 'sms', 'sent'],
    ]);
  });

  it('retries on a 503 with backoff and sends; never retries a 400; at most 5 attempts', async () => {
    const { client, company } = await companyWith(t);
    const a = await queueSms(t, company.id, '+256700000001');
    sms.script.push(
      { status: 503, body: 'Service Unavailable' },
      { status: 503, body: 'Service Unavailable' },
    );
    let round = await sender.runOnce();
    expect(round.retried).toBe(1);
    await sender.drain();
    expect(sms.requests).toHaveLength(3);
    const [m1] = await messagesOf(client);
    expect(m1).toMatchObject({ id: a, status: 'sent', attempts: 3, error: null });

    sms.requests.length = 0;
    const b = await queueSms(t, company.id, '+256700000002');
    sms.script.push({ status: 400, body: 'Invalid phone number' });
    round = await sender.drain();
    expect(round).toMatchObject({ failed: 1, retried: 0, sent: 0 });
    expect(sms.requests).toHaveLength(1);
    let log = await messagesOf(client, '&status=failed');
    expect(log).toEqual([expect.objectContaining({ id: b, status: 'failed', attempts: 1 })]);
    expect(log[0]?.error).toContain('400');
    expect(log[0]?.reason).toBe(log[0]?.error); // the provider's own words

    // a refusal in the answer itself (Africa's Talking's 403 InvalidPhoneNumber): failed, once
    sms.requests.length = 0;
    const c = await queueSms(t, company.id, '+256700000003');
    sms.script.push({ status: 201, body: atAnswer('+256700000003', 403, 'InvalidPhoneNumber') });
    await sender.drain();
    expect(sms.requests).toHaveLength(1);
    log = await messagesOf(client, '&status=failed');
    expect(log.find((m) => m.id === c)?.error).toContain('InvalidPhoneNumber');

    // five 503s: failed after the fifth attempt
    sms.requests.length = 0;
    const d = await queueSms(t, company.id, '+256700000004');
    for (let i = 0; i < 6; i++) sms.script.push({ status: 503 });
    await sender.drain();
    expect(sms.requests).toHaveLength(5);
    log = await messagesOf(client, '&status=failed');
    expect(log.find((m) => m.id === d)).toMatchObject({ attempts: 5 });
    sms.script.length = 0;

    // sent again when asked: its attempts start over
    sms.requests.length = 0;
    const retried = expectStatus(await client.post(`/messages/${b}/retry`), 200).json<MessageRow>();
    expect(retried).toMatchObject({ status: 'queued', attempts: 0, error: null });
    await sender.drain();
    expect(sms.requests.map((r) => r.form.to)).toEqual(['+256700000002']);
    // a sent message is not sent again
    expect(expectStatus(await client.post(`/messages/${b}/retry`), 409).json()).toMatchObject({
      code: 'not_retryable',
    });
  });

  it('retries a send that timed out', async () => {
    const { client, company } = await companyWith(t);
    const id = await queueSms(t, company.id, '+256700000009');
    sms.script.push('hang');
    await sender.drain();
    const [m] = await messagesOf(client);
    expect(m).toMatchObject({ id, status: 'sent', attempts: 2 });
    expect(sms.requests).toHaveLength(2);
  });

  it('sends a test message to an address (admins and company admins)', async () => {
    const { client, signIn } = await companyWith(t);
    const queued = expectStatus(
      await client.post('/messages/test', { channel: 'sms', to: '+256700000050' }),
      201,
    ).json<MessageRow>();
    expect(queued).toMatchObject({ kind: 'test', channel: 'sms', status: 'queued', attempts: 0 });
    expectStatus(await client.post('/messages/test', { channel: 'email', to: 'someone@example.com' }), 201);
    const refused = expectStatus(
      await client.post('/messages/test', { channel: 'sms', to: '0772' }),
      400,
    ).json<{
      fields: Record<string, string>;
    }>();
    expect(refused.fields.to).toContain('country code');
    await sender.drain();
    expect(sms.requests.map((r) => r.form.message)).toEqual([
      expect.stringMatching(/^This is a test message from Company \d+, sent by Kodi\.$/),
    ]);
    const [mail] = await smtp.waitFor(1);
    expect(mail?.to).toEqual(['someone@example.com']);
    expectStatus(
      await (await signIn(['company_admin'])).post('/messages/test', { channel: 'sms', to: '+256700000051' }),
      201,
    );
    for (const role of ['editor', 'viewer'] as const) {
      expectStatus(
        await (await signIn([role])).post('/messages/test', { channel: 'sms', to: '+256700000052' }),
        403,
      );
    }
    await sender.drain(); // the company admin's, sent before the next test
  });

  it('skips a reminder more than 2 days late instead of sending it', async () => {
    const { client, company } = await companyWith(t);
    await t.database.query(
      `INSERT INTO messages (company_id, kind, channel, "to", body, status, send_date)
       VALUES ($1, 'reminder', 'sms', '+256700000010', 'late', 'queued', current_date - 3),
              ($1, 'reminder', 'sms', '+256700000011', 'on time', 'queued', current_date - 1)`,
      [company.id],
    );
    await sender.drain();
    const log = await messagesOf(client);
    expect(log.map((m) => [m.to, m.status, m.error, m.reason])).toEqual([
      [
        '+256700000010',
        'skipped',
        'stale',
        'Too late: more than 2 days after its send date (a reminder is never sent late).',
      ],
      ['+256700000011', 'sent', null, null],
    ]);
    expect(sms.requests.map((r) => r.form.to)).toEqual(['+256700000011']);
  });

  it('takes back a message whose sender died while sending it', async () => {
    const { client, company } = await companyWith(t);
    await t.database.query(
      `INSERT INTO messages (company_id, kind, channel, "to", body, status, attempts, claimed_until)
       VALUES ($1, 'test', 'sms', '+256700000040', 'lapsed', 'sending', 1, now() - interval '1 second'),
              ($1, 'test', 'sms', '+256700000041', 'still claimed', 'sending', 1, now() + interval '1 minute')`,
      [company.id],
    );
    await sender.drain();
    expect((await messagesOf(client)).map((m) => [m.to, m.status, m.attempts])).toEqual([
      ['+256700000040', 'sent', 2],
      ['+256700000041', 'sending', 1],
    ]);
    expect(sms.requests.map((r) => r.form.to)).toEqual(['+256700000040']);
  });

  it('lists the log paged, filtered and searched, only the company’s, only to admins', async () => {
    const { client, company, signIn } = await companyWith(t);
    const other = await companyWith(t);
    for (let i = 0; i < 3; i++) await queueSms(t, company.id, `+25670000010${i}`);
    const foreign = await queueSms(t, other.company.id, '+256700000199');
    await sender.drain();
    await t.database.query(`UPDATE messages SET status = 'failed', error = 'x' WHERE id = $1`, [foreign]);
    const page = await client.get('/messages?page=1&page_size=2&sort=-id');
    expect(page.headers['x-total-count']).toBe('3');
    expect(page.json<MessageRow[]>().map((m) => m.to)).toEqual(['+256700000102', '+256700000101']);
    expect((await messagesOf(client, '&q=0101')).map((m) => m.to)).toEqual(['+256700000101']);
    expect(await messagesOf(client, '&channel=email')).toEqual([]);
    expect(expectStatus(await client.get('/messages?status=nope'), 400).json()).toMatchObject({
      code: 'validation_failed',
    });
    expect(expectStatus(await client.get('/messages?sort=body'), 400).json()).toMatchObject({
      code: 'validation_failed',
    });
    // another company's message: 404
    expectStatus(await client.post(`/messages/${foreign}/retry`), 404);
    // roles: admins and company admins
    const companyAdmin = await signIn(['company_admin']);
    expectStatus(await companyAdmin.get('/messages'), 200);
    for (const role of ['editor', 'viewer'] as const) {
      const user = await signIn([role]);
      expectStatus(await user.get('/messages'), 403);
      expectStatus(await user.post(`/messages/${foreign}/retry`), 403);
    }
    expectStatus(await new TestClient(t.app).get('/messages'), 401);
    // CSRF on the retry
    expectStatus(
      await client.post(`/messages/${foreign}/retry`, undefined, { 'x-csrf-token': 'wrong' }),
      403,
    );
  });
});

describe(`messages through Twilio, and without providers (${testDriver})`, () => {
  it('speaks Twilio’s Messages API', async () => {
    const sms = await startSmsServer('twilio');
    const t = await setupApp({ smsUrl: sms.url, smtpUrl: undefined });
    const sender = createMessageSender(t.database, t.config, { intervalMs: 0, retryBaseSeconds: 0 });
    try {
      const { client, company } = await companyWith(t);
      await setSettings(client, { sms_sender_id: 'KodiRent' });
      await queueSms(t, company.id, '+256700000020', 'Twilio says hi');
      sms.script.push({ status: 500, body: { code: 20500, message: 'Internal Server Error', status: 500 } });
      await sender.drain();
      expect(sms.requests).toHaveLength(2);
      const req = sms.requests[1];
      expect(req?.path).toBe('/2010-04-01/Accounts/AC0123456789abcdef/Messages.json');
      expect(req?.headers.authorization).toBe(
        `Basic ${Buffer.from('AC0123456789abcdef:auth-token').toString('base64')}`,
      );
      expect(req?.form).toEqual({ To: '+256700000020', From: 'KodiRent', Body: 'Twilio says hi' });
      expect((await messagesOf(client))[0]).toMatchObject({ status: 'sent', attempts: 2 });
      // a 400 (Twilio's 21211 invalid 'To'): failed at once
      sms.requests.length = 0;
      await queueSms(t, company.id, 'not-a-number');
      sms.script.push({
        status: 400,
        body: { code: 21211, message: "The 'To' number is not valid.", status: 400 },
      });
      await sender.drain();
      expect(sms.requests).toHaveLength(1);
      expect((await messagesOf(client))[1]).toMatchObject({ status: 'failed', attempts: 1 });
      expect((await messagesOf(client))[1]?.error).toContain("The 'To' number is not valid.");
      // no SMTP server: e-mails are skipped
      await t.database.query(
        `INSERT INTO messages (company_id, kind, channel, "to", subject, body, status) VALUES ($1, 'test', 'email', 'a@b.c', 'S', 'B', 'queued')`,
        [company.id],
      );
      await sender.drain();
      expect((await messagesOf(client, '&channel=email'))[0]).toMatchObject({
        status: 'skipped',
        error: 'No SMTP server configured',
        reason: 'No e-mail server is set up on this server (SMTP_URL).',
      });
    } finally {
      await sender.stop();
      await t.app.close();
      await sms.stop();
    }
  });

  it('skips SMS without a provider, and says so', async () => {
    const t = await setupApp({ smsUrl: undefined, smtpUrl: undefined });
    const sender = createMessageSender(t.database, t.config, { intervalMs: 0 });
    try {
      const { client, company } = await companyWith(t);
      expect(expectStatus(await client.get('/messages/providers'), 200).json()).toEqual({
        email: false,
        sms: false,
        whatsapp: false,
      });
      await queueSms(t, company.id, '+256700000030');
      await sender.drain();
      expect((await messagesOf(client))[0]).toMatchObject({
        status: 'skipped',
        error: NO_SMS_PROVIDER,
        reason: 'No SMS provider is set up on this server (SMS_URL).',
        attempts: 1,
      });
    } finally {
      await sender.stop();
      await t.app.close();
    }
  });
});

describe(`message templates (${testDriver})`, () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await setupApp({ publicUrl: PUBLIC_URL });
  });
  afterAll(async () => {
    await t.app.close();
  });

  type Template = {
    id: number;
    name: string;
    channel: string;
    kind: string;
    body: string;
    version: number;
    warnings: string[];
  };

  it('starts each company with a template per event and channel, once', async () => {
    const { client } = await companyWith(t);
    const list = expectStatus(await client.get('/message-templates'), 200).json<Template[]>();
    expect(list.map((x) => [x.kind, x.channel]).sort()).toEqual(
      defaultTemplates.map((d) => [d.kind, d.channel]).sort(),
    );
    expect(list.every((x) => x.warnings.length === 0)).toBe(true);
    // deleted ones do not come back
    expectStatus(await client.delete(`/message-templates/${list[0]?.id}`), 204);
    expect(expectStatus(await client.get('/message-templates'), 200).json<Template[]>()).toHaveLength(
      defaultTemplates.length - 1,
    );
  });

  it('refuses an unknown variable, warns about a long SMS, and previews on a lease', async () => {
    const { client } = await companyWith(t);
    const bad = expectStatus(
      await client.post('/message-templates', {
        name: 'Bad',
        channel: 'sms',
        kind: 'due',
        body: 'Hi {{tenant_first_name}}, pay {{amount_owed}} now',
      }),
      400,
    ).json<{ code: string; fields: Record<string, string> }>();
    expect(bad.code).toBe('validation_failed');
    expect(bad.fields.body).toContain('{{amount_owed}}');
    expectStatus(
      await client.post('/message-templates', {
        name: 'No subject',
        channel: 'email',
        kind: 'due',
        body: 'Hi',
      }),
      400,
    );
    const long = expectStatus(
      await client.post('/message-templates', {
        name: 'Long',
        channel: 'sms',
        kind: 'overdue',
        body: `Dear {{tenant_first_name}}, ${'please pay your rent. '.repeat(8)}Balance {{balance}}.`,
      }),
      201,
    ).json<Template>();
    expect(long.warnings).toEqual([SMS_PARTS_WARNING]);
    const changed = expectStatus(
      await client.put(`/message-templates/${long.id}`, {
        name: 'Short',
        channel: 'sms',
        kind: 'overdue',
        body: '{{tenant_first_name}} owes {{balance}} for {{unit_name}}; next {{amount_due}} on {{due_date}}. {{company_name}}',
        version: long.version,
      }),
      200,
    ).json<Template>();
    expect(changed.warnings).toEqual([]);
    // each change audited, with what it was and became
    const audits = await t.database.query<{
      action: string;
      before: { body: string } | null;
      after: { name: string } | null;
    }>(
      `SELECT action, before, after FROM audit_entries WHERE entity = 'message_templates' AND record_id = $1 ORDER BY id`,
      [long.id],
    );
    expect(audits.map((a) => [a.action, a.before?.body.startsWith('Dear') ?? null, a.after?.name])).toEqual([
      ['create', null, 'Long'],
      ['update', true, 'Short'],
    ]);
    // a field it does not know: refused
    expectStatus(
      await client.put(`/message-templates/${long.id}`, {
        name: 'Short',
        channel: 'sms',
        kind: 'overdue',
        body: 'x',
        colour: 'red',
        version: changed.version,
      }),
      400,
    );
    expect(
      expectStatus(
        await client.put(`/message-templates/${long.id}`, {
          name: 'Again',
          channel: 'sms',
          kind: 'overdue',
          body: 'x',
          version: long.version,
        }),
        409,
      ).json(),
    ).toMatchObject({ code: 'conflict' });

    const lease = await createLease(
      client,
      { start_date: '2026-01-10', rate: 200_000 },
      { first: 'Ruth', unit: 'B2' },
    );
    const preview = expectStatus(
      await client.post(`/message-templates/${long.id}/preview`, { occupancy_id: lease.id }),
      200,
    ).json<{ body: string; subject: string | null; warnings: string[] }>();
    expect(preview.body).toMatch(
      /^Ruth owes UGX\s*[\d,]+ for B2; next UGX\s*200,000 on \w{3} 10, \d{4}\. Company \d+$/,
    );
    expect(preview.subject).toBeNull();
  });

  it('checks roles and the company on every template route', async () => {
    const { client, signIn } = await companyWith(t);
    const other = await companyWith(t);
    const theirs = expectStatus(await other.client.get('/message-templates'), 200).json<
      Template[]
    >()[0] as Template;
    const body = { name: 'Mine', channel: 'sms', kind: 'due', body: 'Due {{due_date}}' };
    expectStatus(await client.get(`/message-templates/${theirs.id}`), 404);
    expectStatus(
      await client.put(`/message-templates/${theirs.id}`, { ...body, version: theirs.version }),
      404,
    );
    expectStatus(await client.delete(`/message-templates/${theirs.id}`), 404);
    const lease = await createLease(client, { start_date: '2026-01-10', rate: 200_000 });
    const otherLease = await createLease(other.client, { start_date: '2026-01-10', rate: 200_000 });
    expectStatus(
      await client.post(`/message-templates/${theirs.id}/preview`, { occupancy_id: lease.id }),
      404,
    );
    const mine = expectStatus(await client.get('/message-templates'), 200).json<Template[]>()[0] as Template;
    expectStatus(
      await client.post(`/message-templates/${mine.id}/preview`, { occupancy_id: otherLease.id }),
      404,
    );

    const companyAdmin = await signIn(['company_admin']);
    expectStatus(await companyAdmin.post('/message-templates', body), 201);
    for (const role of ['editor', 'viewer'] as const) {
      const user = await signIn([role]);
      expectStatus(await user.get('/message-templates'), 200);
      expectStatus(await user.post(`/message-templates/${mine.id}/preview`, { occupancy_id: lease.id }), 200);
      expectStatus(await user.post('/message-templates', body), 403);
      expectStatus(await user.put(`/message-templates/${mine.id}`, { ...body, version: mine.version }), 403);
      expectStatus(await user.delete(`/message-templates/${mine.id}`), 403);
    }
    const noRole = await signIn([]);
    expectStatus(await noRole.get('/message-templates'), 403);
    expectStatus(await new TestClient(t.app).get('/message-templates'), 401);
  });
});
