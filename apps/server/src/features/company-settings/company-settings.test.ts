import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { TestClient } from '../../test/client.ts';
import { FAKE_PNG, PNG_1PX } from '../../test/entities.ts';
import { companyWith, createLease, expectStatus, lateFee, pay } from '../../test/rent-cycle.ts';

type Settings = {
  timezone: string;
  logo: string | null;
  logo_type: string | null;
  daily_run_hour: number;
  late_fee: Record<string, unknown>;
  reminders: unknown[];
  receipt_notification: { email: boolean; sms: boolean };
  sms_sender_id: string | null;
  version: number;
  last_run: unknown;
};

describe(`company settings (${testDriver})`, () => {
  let t: TestContext;
  beforeEach(async () => {
    t = await setupApp();
  });
  afterEach(async () => {
    await t.app.close();
  });

  it('answers the defaults until first changed, to every role of the company', async () => {
    const { signIn } = await companyWith(t);
    for (const roles of [['viewer'], ['editor'], ['company_admin'], ['admin']] as const) {
      const c = await signIn([...roles]);
      expect(expectStatus(await c.get('/company-settings'), 200).json()).toEqual({
        timezone: 'Africa/Kampala',
        logo: null,
        logo_type: null,
        daily_run_hour: 6,
        late_fee: { enabled: false, grace_days: 5, kind: 'flat', amount: 0, repeat: 'once', cap: null },
        reminders: [],
        receipt_notification: { email: false, sms: false, whatsapp: false },
        sms_sender_id: null,
        auto_post_matches: false,
        webhook_url: null,
        require_mfa: false,
        payment_instructions: {
          mpesa_paybill: null,
          mtn_momo_code: null,
          airtel_money_code: null,
          bank_details: null,
          other: null,
        },
        rental_tax: { rate: null, due_day: null, year_start_month: null },
        owner_statements_day: null,
        utility_billing_day: null,
        service_charge_amount: 0,
        service_charge_description: 'Service charge',
        version: 1,
        last_run: null,
      });
    }
    expect((await (await signIn([])).get('/company-settings')).json()).toMatchObject({ code: 'no_role' });
    expect((await new TestClient(t.app).get('/company-settings')).statusCode).toBe(401);
  });

  it('is changed by admins and company admins of the company, field by field, with the version read', async () => {
    const a = await companyWith(t, ['company_admin']);
    const b = await companyWith(t);
    const body = {
      timezone: 'Africa/Nairobi',
      daily_run_hour: 7,
      late_fee: lateFee({ kind: 'percent', amount: 2.5, repeat: 'monthly', cap: 300_000 }),
      reminders: [
        { event: 'before_due', days: 3, channels: ['email', 'sms'], template_id: 4 },
        { event: 'overdue', days: 7, channels: ['sms'] },
      ],
      receipt_notification: { email: true, sms: false },
      sms_sender_id: 'KODI',
      version: 1,
    };
    const saved = expectStatus(await a.client.put('/company-settings', body), 200).json<Settings>();
    expect(saved).toMatchObject({
      ...body,
      reminders: [body.reminders[0], { ...body.reminders[1], template_id: null }],
      version: 2,
    });
    // a stale version is a conflict; a field left out stays as it is
    expect((await a.client.put('/company-settings', { daily_run_hour: 8, version: 1 })).json()).toMatchObject(
      {
        code: 'conflict',
      },
    );
    const hour = expectStatus(
      await a.client.put('/company-settings', { daily_run_hour: 8, version: 2 }),
      200,
    ).json<Settings>();
    expect(hour).toMatchObject({
      daily_run_hour: 8,
      timezone: 'Africa/Nairobi',
      sms_sender_id: 'KODI',
      version: 3,
    });
    // the other company keeps its defaults
    expect(expectStatus(await b.client.get('/company-settings'), 200).json()).toMatchObject({
      version: 1,
      timezone: 'Africa/Kampala',
    });
    // editors and viewers may not change them
    for (const roles of [['editor'], ['viewer']] as const) {
      const c = await a.signIn([...roles]);
      expect((await c.put('/company-settings', { daily_run_hour: 9, version: 3 })).json()).toMatchObject({
        code: 'forbidden',
      });
    }
    // the change is in the history
    const audit = await t.database.query(
      `SELECT entity, action FROM audit_entries WHERE company_id = $1 AND entity = 'company_settings'`,
      [a.company.id],
    );
    expect(audit).toHaveLength(2);
  });

  it('records each change in the history: by whom, what it was and became, and a webhook secret rotated', async () => {
    const { company, client } = await companyWith(t);
    expectStatus(await client.put('/company-settings', { daily_run_hour: 9, version: 1 }), 200);
    const hook = expectStatus(await client.post('/company-settings/webhook-secret'), 200).json<{
      url: string;
    }>();
    const rows = await t.database.query<{
      entity: string;
      record_id: number;
      action: string;
      user_id: number;
      before: Record<string, unknown> | null;
      after: Record<string, unknown> | null;
      summary: string;
    }>(
      `SELECT entity, record_id, action, user_id, before, after, summary FROM audit_entries
        WHERE company_id = $1 AND entity IN ('company_settings', 'payment_webhooks') ORDER BY id`,
      [company.id],
    );
    expect(rows.map((r) => ({ ...r, record_id: Number(r.record_id), user_id: Number(r.user_id) }))).toEqual([
      expect.objectContaining({
        entity: 'company_settings',
        record_id: company.id,
        action: 'update',
        user_id: client.user.id,
        before: expect.objectContaining({ daily_run_hour: 6 }),
        after: expect.objectContaining({ daily_run_hour: 9, logo_changed: false }),
      }),
      {
        entity: 'payment_webhooks',
        record_id: company.id,
        action: 'update',
        user_id: client.user.id,
        before: null,
        after: { url: hook.url, secret_rotated: true },
        summary: '',
      },
    ]);
  });

  it('refuses what is not valid, with a message per field', async () => {
    const { client } = await companyWith(t);
    const res = await client.put('/company-settings', {
      timezone: 'Mars/Olympus',
      daily_run_hour: 24,
      late_fee: lateFee({ grace_days: 61, kind: 'percent', amount: 150 }),
      reminders: [{ event: 'due', days: 3, channels: [] }],
      receipt_notification: { email: 'yes', sms: false },
      sms_sender_id: 'A VERY LONG SENDER',
      version: 1,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ fields: Record<string, string> }>().fields).toMatchObject({
      timezone: 'Unknown time zone: use an IANA name such as Africa/Kampala.',
      daily_run_hour: 'The hour must be a whole number from 0 to 23.',
      'late_fee.grace_days': 'Grace days must be a whole number from 0 to 60.',
      'late_fee.amount': 'A percentage must be at most 100.',
      'reminders.0.channels': 'Choose at least one channel.',
      'receipt_notification.email': 'Must be true or false.',
      sms_sender_id: 'Use 3 to 11 letters, digits or spaces.',
    });
    expect((await client.put('/company-settings', { version: 1, colour: 'blue' })).json()).toMatchObject({
      fields: { colour: 'Unknown field.' },
    });
  });

  it('keeps a logo recognised by its bytes, of at most 1 MB, served as an image', async () => {
    const { client, signIn } = await companyWith(t);
    expect((await client.get('/company-settings/logo')).statusCode).toBe(404);
    const fake = await client.put('/company-settings', { logo: FAKE_PNG, version: 1 });
    expect(fake.json()).toMatchObject({ fields: { logo: 'The logo must be a PNG, JPEG or WebP image.' } });
    const big = Buffer.concat([Buffer.from(PNG_1PX, 'base64'), Buffer.alloc(1024 * 1024)]).toString('base64');
    expect((await client.put('/company-settings', { logo: big, version: 1 })).json()).toMatchObject({
      fields: { logo: 'The logo must be at most 1 MB.' },
    });
    const saved = expectStatus(
      await client.put('/company-settings', { logo: PNG_1PX, version: 1 }),
      200,
    ).json<Settings>();
    expect(saved).toMatchObject({ logo: PNG_1PX, logo_type: 'image/png', version: 2 });
    const viewer = await signIn(['viewer']);
    const image = await viewer.get('/company-settings/logo');
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.equals(Buffer.from(PNG_1PX, 'base64'))).toBe(true);
    // the tenant statement and the receipt draw it
    const lease = await createLease(client, { start_date: '2026-01-01', rate: 1_000 });
    const payment = await pay(client, lease, '2026-01-02', 1_000);
    for (const path of [`/occupancy/${lease.id}/statement.pdf`, `/payments/${payment.id}/receipt.pdf`]) {
      const pdf = await client.get(path);
      expect(pdf.statusCode, path).toBe(200);
      expect(pdf.rawPayload.toString('latin1'), path).toContain('/Subtype /Image');
    }
    // another field changed: the logo stays; null removes it
    expect(
      expectStatus(await client.put('/company-settings', { daily_run_hour: 5, version: 2 }), 200).json(),
    ).toMatchObject({
      logo_type: 'image/png',
    });
    expect(
      expectStatus(await client.put('/company-settings', { logo: null, version: 3 }), 200).json(),
    ).toMatchObject({
      logo: null,
      logo_type: null,
    });
  });

  it('shows the last daily run', async () => {
    const { client } = await companyWith(t);
    expectStatus(await client.post('/rent-cycle/run', { as_of: '2026-03-07' }), 200);
    expect(expectStatus(await client.get('/company-settings'), 200).json()).toMatchObject({
      last_run: {
        as_of: '2026-03-07',
        late_fees_posted: 0,
        escalations_applied: 0,
        reminders_queued: 0,
        at: expect.any(String),
      },
    });
  });
});
