import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  backRent,
  backRentWarning,
  backRentWarningMessage,
  errorCodes,
  formatCents,
  formatMoney,
  runItemMessage,
  runItemText,
  type Cents,
  type RentCycleRunItem,
} from '@kodi/domain';
import { translate } from '../../plugins/i18n.ts';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import type { TestClient } from '../../test/client.ts';
import { pdfText } from '../../test/pdf-text.ts';
import { companyWith, createLease, expectStatus, setSettings } from '../../test/rent-cycle.ts';
import { portalCompany, portalTenant, tenantWithLease } from '../../test/portal.ts';
import { startWhatsapp, type LocalWhatsapp } from '../../test/providers/whatsapp.ts';
import { createMessageSender, queueReceipts, type MessageSender } from '../../modules/messaging/sender.ts';
import { createSecretBox, loadSecretKeys } from '../../platform/secrets.ts';

/** A text on one line, its no-break spaces (French money, PDFs) as spaces. */
const flat = (text: string) => text.replace(/[\s\u00a0\u202f]+/g, ' ');
const words = (payload: Buffer) => flat(pdfText(payload));

type Language = 'en' | 'sw' | 'fr';
const LANGS: readonly Language[] = ['en', 'sw', 'fr'];

/** What a recipient of each language reads (the built-in templates, the catalogues). */
const expected = {
  en: {
    forbidden: errorCodes.forbidden.message,
    invalid: errorCodes.validation_failed.message,
    overdueSms:
      /^Hi Tina, your rent for Portal unit \d+ due [A-Z][a-z]{2} \d+, \d{4} is overdue\. Balance: UGX [\d,]+\. /,
    receiptSms: /^Payment of UGX 1,000,000 received, receipt \S+: /,
    receiptEmailSubject: /^Receipt \S+: UGX 1,000,000 received$/,
    receiptPdf: 'Payment Receipt',
    statementPdf: 'Tenant Statement',
    ownerPdf: ['Owner Statement', 'Available to pay out', 'page 1 of 1'],
    ownerEmail: ['Dear Ama Owner,', 'Available to pay out: UGX 0'],
    ownerSms: /your statement for Nov 1, 2026 – Nov 30, 2026: held UGX 0, available UGX 0\./,
  },
  sw: {
    forbidden: 'Huruhusiwi kufanya hivi.',
    invalid: 'Tafadhali sahihisha makosa ya fomu.',
    overdueSms: /^Habari Tina, kodi yako ya Portal unit \d+ iliyodaiwa .+ imechelewa\. Salio: UGX [\d,]+\. /,
    receiptSms: /^Malipo ya UGX 1,000,000 yamepokelewa, risiti \S+: /,
    receiptEmailSubject: /^Risiti \S+: UGX 1,000,000 imepokelewa$/,
    receiptPdf: 'Risiti ya Malipo',
    statementPdf: 'Taarifa ya Akaunti ya Mpangaji',
    ownerPdf: ['Taarifa ya Mmiliki', 'Kinachopatikana kulipwa', 'ukurasa 1 kati ya 1'],
    ownerEmail: ['Mpendwa Ama Owner,', 'Kinachopatikana kulipwa: UGX 0'],
    ownerSms: /taarifa yako ya .+: kinachoshikiliwa UGX 0, kinachopatikana UGX 0\./,
  },
  fr: {
    forbidden: 'Vous n’êtes pas autorisé à faire ceci.',
    invalid: 'Veuillez corriger les erreurs du formulaire.',
    overdueSms:
      /^Bonjour Tina, votre loyer pour Portal unit \d+ dû le \d+ \S+ \d{4} est en retard\. Solde : [\d ]+ UGX\. /,
    receiptSms: /^Paiement de 1 000 000 UGX reçu, reçu \S+ : /,
    receiptEmailSubject: /^Reçu \S+ : 1 000 000 UGX reçu$/,
    receiptPdf: 'Reçu de paiement',
    statementPdf: 'Relevé du locataire',
    ownerPdf: ['Relevé du propriétaire', 'Disponible pour versement', 'page 1 sur 1'],
    ownerEmail: ['Bonjour Ama Owner,', 'Disponible pour versement : 0 UGX'],
    ownerSms: /votre relevé pour 1 nov\. 2026 – 30 nov\. 2026 : détenu 0 UGX, disponible 0 UGX\./,
  },
} as const;

/** A record changed: its GET's answer taken back to its PUT with the changes. */
const putRecord = async (staff: TestClient, path: string, changes: Record<string, unknown>) => {
  const current = expectStatus(await staff.get(path), 200).json<Record<string, unknown>>();
  expectStatus(await staff.put(path, { ...current, ...changes }), 200);
};
const setTenantLanguage = (staff: TestClient, tenantId: number, language: Language | null) =>
  putRecord(staff, `/tenants/${tenantId}`, { language });

/** The last message of a kind and channel queued for a tenant (the outbox, as the log shows it). */
const lastMessage = async (t: TestContext, tenantId: number, kind: string, channel: string) => {
  const rows = await t.database.query<{ subject: string | null; body: string; template_id: number | null }>(
    `SELECT subject, body, template_id FROM messages WHERE tenant_id = $1 AND kind = $2 AND channel = $3
      ORDER BY id DESC LIMIT 1`,
    [tenantId, kind, channel],
  );
  const m = rows[0];
  if (!m) throw new Error(`no ${kind} ${channel} message for tenant ${tenantId}`);
  return { ...m, subject: m.subject === null ? null : flat(m.subject), body: flat(m.body) };
};

/**
 * Issue 30, 'Who reads what' on the server: a tenant or an owner of each language gets its errors,
 * validation messages, reminders, receipt notices, receipt and statement PDFs, and owner statements
 * in that language; a recipient without one its company's default, else English; a template missing
 * in a language the company default's, else English.
 */
describe(`messages and documents in the recipient's language (${testDriver})`, () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await setupApp();
  });
  afterAll(async () => {
    await t.app.close();
  });

  /** The overdue reminder by SMS from the Arrears page (the company's template, in the outbox). */
  const remind = async (staff: TestClient, leaseId: number, channel = 'sms') => {
    // once a day per lease and channel: the earlier one of today is let go first
    await t.database.query(`DELETE FROM messages WHERE occupancy_id = $1 AND kind = 'reminder'`, [leaseId]);
    const res = expectStatus(await staff.post('/arrears/remind', { channel, occupancy_ids: [leaseId] }), 200);
    expect(res.json<{ queued: number }>().queued).toBe(1);
  };

  it('answers, reminds, notifies and prints for a tenant in its own language', async () => {
    const { staff } = await portalCompany(t);
    await setSettings(staff, { receipt_notification: { email: true, sms: true } });
    for (const language of LANGS) {
      const want = expected[language];
      const a = await tenantWithLease(staff);
      await setTenantLanguage(staff, a.tenantId, language);
      const tenant = await portalTenant(t, staff, a.tenantId);

      // an error and a validation message
      expect((await tenant.get('/units')).json()).toMatchObject({ code: 'forbidden', error: want.forbidden });
      const invalid = await tenant.post('/portal/maintenance-requests', { occupancy_id: a.leaseId });
      expect(invalid.statusCode).toBe(400);
      expect(invalid.json()).toMatchObject({ code: 'validation_failed', error: want.invalid });

      // a reminder (ten months unpaid of 1,000,000, the oldest due on 1 January)
      await remind(staff, a.leaseId);
      expect((await lastMessage(t, a.tenantId, 'reminder', 'sms')).body, language).toMatch(want.overdueSms);

      // the receipt notice of its payment, by SMS and e-mail
      await queueReceipts(t.database, t.config);
      expect((await lastMessage(t, a.tenantId, 'receipt', 'sms')).body, language).toMatch(want.receiptSms);
      expect((await lastMessage(t, a.tenantId, 'receipt', 'email')).subject, language).toMatch(
        want.receiptEmailSubject,
      );

      // its receipt and statement
      expect(
        words(expectStatus(await staff.get(`/payments/${a.paymentId}/receipt.pdf`), 200).rawPayload),
      ).toContain(want.receiptPdf);
      expect(
        words(expectStatus(await staff.get(`/occupancy/${a.leaseId}/statement.pdf`), 200).rawPayload),
      ).toContain(want.statementPdf);
    }
  }, 120_000);

  it('prints and sends an owner’s statement in the owner’s language', async () => {
    const { staff } = await portalCompany(t);
    const owner = expectStatus(
      await staff.post('/owners', {
        first_name: 'Ama',
        last_name: 'Owner',
        email: 'ama.owner@example.com',
        phone: '0772987654',
      }),
      201,
    ).json<{ id: number }>();
    for (const language of LANGS) {
      const want = expected[language];
      await putRecord(staff, `/owners/${owner.id}`, { language });
      const pdf = words(
        expectStatus(await staff.get(`/owners/${owner.id}/statement.pdf?from=2026-11-01&to=2026-11-30`), 200)
          .rawPayload,
      );
      for (const w of want.ownerPdf) expect(pdf, language).toContain(w);
      for (const other of LANGS.filter((l) => l !== language))
        expect(pdf, language).not.toContain(expected[other].ownerPdf[0]);

      await t.database.query(`DELETE FROM messages WHERE dedup_key LIKE $1`, [
        `owner-statement:${owner.id}:%`,
      ]);
      const sent = expectStatus(
        await staff.post(`/owners/${owner.id}/statement/send`, { from: '2026-11-01', to: '2026-11-30' }),
        200,
      ).json<{ sent: { channel: string; status: string }[] }>();
      expect(sent.sent.map((s) => s.status)).toEqual(['queued', 'queued']);
      const log = (
        await t.database.query<{ channel: string; body: string }>(
          `SELECT channel, body FROM messages WHERE dedup_key LIKE $1 ORDER BY id`,
          [`owner-statement:${owner.id}:%`],
        )
      ).map((m) => ({ ...m, body: flat(m.body) }));
      const email = log.find((m) => m.channel === 'email')?.body ?? '';
      for (const w of want.ownerEmail) expect(email, language).toContain(flat(w));
      expect(log.find((m) => m.channel === 'sms')?.body, language).toMatch(want.ownerSms);
    }
    // no language of its own: the company's default, else English
    await putRecord(staff, `/owners/${owner.id}`, { language: null });
    const pdf = async () =>
      words(
        expectStatus(await staff.get(`/owners/${owner.id}/statement.pdf?from=2026-11-01&to=2026-11-30`), 200)
          .rawPayload,
      );
    expect(await pdf()).toContain('Owner Statement');
    const { company_id } = (
      await t.database.query<{ company_id: number }>(`SELECT company_id FROM owners WHERE id = $1`, [
        owner.id,
      ])
    )[0] as { company_id: number };
    await t.database.query(`UPDATE companies SET default_language = 'fr' WHERE id = $1`, [company_id]);
    expect(await pdf()).toContain('Relevé du propriétaire');
  }, 120_000);

  it('falls back to the company’s default language, then English, for a tenant and for a missing template', async () => {
    const { company, staff } = await portalCompany(t);
    const a = await tenantWithLease(staff);
    await setTenantLanguage(staff, a.tenantId, null);
    const body = async () => {
      await remind(staff, a.leaseId);
      return (await lastMessage(t, a.tenantId, 'reminder', 'sms')).body;
    };
    // no language: the company's default (English, then French)
    expect(await body()).toMatch(expected.en.overdueSms);
    await t.database.query(`UPDATE companies SET default_language = 'fr' WHERE id = $1`, [company.id]);
    expect(await body()).toMatch(expected.fr.overdueSms);
    // its own language wins
    await setTenantLanguage(staff, a.tenantId, 'sw');
    expect(await body()).toMatch(expected.sw.overdueSms);

    // the company has no Kiswahili overdue SMS: the company default's (French), then English
    const drop = (language: string) =>
      t.database.query(
        `DELETE FROM message_templates WHERE company_id = $1 AND kind = 'overdue' AND channel = 'sms' AND language = $2`,
        [company.id, language],
      );
    // (its amounts and dates as the tenant reads them: Kiswahili's)
    await drop('sw');
    expect(await body()).toMatch(
      /^Bonjour Tina, votre loyer pour Portal unit \d+ dû le .+ est en retard\. Solde : UGX /,
    );
    await drop('fr');
    expect(await body()).toMatch(/^Hi Tina, your rent for Portal unit \d+ due .+ is overdue\. Balance: UGX /);
    // a template the company wrote in Kiswahili is the one used
    expectStatus(
      await staff.post('/message-templates', {
        name: 'Kodi imechelewa (yetu)',
        kind: 'overdue',
        channel: 'sms',
        language: 'sw',
        body: 'Ndugu {{tenant_first_name}}, salio {{balance}}.',
      }),
      201,
    );
    expect(await body()).toMatch(/^Ndugu Tina, salio UGX [\d,]+\.$/);
    // none in any language: the built-in one in the tenant's language
    await drop('sw');
    await drop('en');
    expect(await body()).toMatch(expected.sw.overdueSms);
  }, 120_000);

  it('answers, creates and changes templates with their language (existing ones English)', async () => {
    const { staff } = await portalCompany(t);
    const list = expectStatus(await staff.get('/message-templates'), 200).json<
      { id: number; name: string; language: string; version: number; kind: string; channel: string }[]
    >();
    expect(new Set(list.map((m) => m.language))).toEqual(new Set(LANGS));
    for (const language of LANGS)
      expect(list.filter((m) => m.language === language)).toHaveLength(list.length / 3);
    const french = expectStatus(await staff.get('/message-templates?language=fr'), 200).json<typeof list>();
    expect(french.map((m) => m.language)).toEqual(french.map(() => 'fr'));
    expect(french.find((m) => m.kind === 'overdue' && m.channel === 'sms')?.name).toBe(
      'Loyer en retard (SMS)',
    );

    // a new one without a language: English; a change without one keeps it
    const made = expectStatus(
      await staff.post('/message-templates', { name: 'Plain', kind: 'due', channel: 'sms', body: 'Due.' }),
      201,
    ).json<(typeof list)[number]>();
    expect(made.language).toBe('en');
    const sw = expectStatus(
      await staff.put(`/message-templates/${made.id}`, {
        name: 'Plain',
        kind: 'due',
        channel: 'sms',
        body: 'Inadaiwa.',
        language: 'sw',
        version: made.version,
      }),
      200,
    ).json<(typeof list)[number]>();
    expect(sw.language).toBe('sw');
    const kept = expectStatus(
      await staff.put(`/message-templates/${made.id}`, {
        name: 'Plain',
        kind: 'due',
        channel: 'sms',
        body: 'Inadaiwa leo.',
        version: sw.version,
      }),
      200,
    ).json<(typeof list)[number]>();
    expect(kept.language).toBe('sw');
    const bad = await staff.post('/message-templates', {
      name: 'X',
      kind: 'due',
      channel: 'sms',
      body: 'X',
      language: 'de',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ fields: Record<string, string> }>().fields).toHaveProperty('language');
  }, 120_000);
});

describe(`WhatsApp in the recipient's language (${testDriver})`, () => {
  let t: TestContext;
  let wa: LocalWhatsapp;
  let sender: MessageSender;
  beforeAll(async () => {
    wa = await startWhatsapp({
      phoneNumberId: '106540352242922',
      token: 'EAAJB-local-token-123',
      appSecret: 'app-secret-local-456',
      // the overdue template approved in English and Kiswahili only
      templates: { kodi_overdue: { languages: ['en', 'sw'], variables: 6 } },
    });
    t = await setupApp({ whatsappBaseUrl: wa.url });
    sender = createMessageSender(t.database, t.config, {
      intervalMs: 0,
      retryBaseSeconds: 0,
      smsTimeoutMs: 2000,
      secrets: createSecretBox(await loadSecretKeys(t.config)),
    });
  });
  afterAll(async () => {
    await sender.stop();
    await t.app.close();
    await wa.stop();
  });
  afterEach(() => {
    wa.sent.length = 0;
  });

  it('sends the template in the tenant’s language where Meta has it, else in the company’s', async () => {
    const { client } = await companyWith(t);
    expectStatus(
      await client.put('/whatsapp-settings', {
        enabled: true,
        phone_number_id: '106540352242922',
        access_token: 'EAAJB-local-token-123',
        app_secret: 'app-secret-local-456',
        language: 'en',
        templates: { overdue: 'kodi_overdue' },
      }),
      200,
    );
    const leases: Record<string, number> = {};
    for (const [first, language] of [
      ['Amani', 'sw'],
      ['Claire', 'fr'],
      ['Emma', null],
    ] as const) {
      const lease = await createLease(client, { start_date: '2026-03-01', rate: 300_000 }, { first });
      await putRecord(client, `/tenants/${lease.tenant_id}`, { language, notify_whatsapp: true });
      leases[first] = lease.id;
    }
    const res = expectStatus(
      await client.post('/arrears/remind', { channel: 'whatsapp', occupancy_ids: Object.values(leases) }),
      200,
    );
    expect(res.json<{ queued: number }>().queued).toBe(3);
    await sender.drain();
    const byName = Object.fromEntries(wa.sent.map((s) => [s.parameters[0], s]));
    expect(byName.Amani?.language).toBe('sw');
    // Meta has no French one (132001): sent in the company's language
    expect(byName.Claire?.language).toBe('en');
    expect(byName.Emma?.language).toBe('en');
    // the values as the tenant reads them
    expect(flat(byName.Claire?.parameters[1] ?? '')).toMatch(/^[\d ]+ UGX$/);
    expect(byName.Amani?.parameters[1]).toMatch(/^UGX/);
    const statuses = await t.database.query<{ status: string }>(
      `SELECT status FROM messages WHERE channel = 'whatsapp' AND kind = 'reminder'`,
    );
    expect(statuses.map((s) => s.status)).toEqual(['sent', 'sent', 'sent']);
  }, 120_000);
});

/** Issue 30: the words @kodi/domain makes have catalogue keys whose English is the rules' own. */
describe('the domain’s words by their keys', () => {
  const money = (cents: Cents) => formatMoney(formatCents(cents), 'UGX', 0);
  it('says the back-rent warning as backRentWarning does, and in each language its own', () => {
    for (const terms of [
      { start_date: '2026-10-01', end_date: null, rate: '500000', rent_cycle: 'monthly' },
      { start_date: '2026-01-01', end_date: null, rate: '500000', rent_cycle: 'monthly' },
    ]) {
      const b = backRent(terms, '2026-11-15');
      const m = backRentWarningMessage(terms.start_date, b, money);
      expect(m).not.toBeNull();
      if (!m) continue;
      expect(translate('en', m.key, m.values)).toBe(backRentWarning(terms.start_date, b, money));
      expect(translate('fr', m.key, m.values)).toMatch(/^Ce bail commence le /);
      expect(translate('sw', m.key, m.values)).toMatch(/^Mkataba huu wa upangaji unaanza /);
    }
    const one = { start_date: '2026-11-01', end_date: null, rate: '500000', rent_cycle: 'monthly' };
    const m = backRentWarningMessage(one.start_date, backRent(one, '2026-11-15'), money);
    expect(m?.key).toBe('domainTexts.backRentOne');
    expect(m && translate('en', m.key, m.values)).toBe(
      backRentWarning(one.start_date, backRent(one, '2026-11-15'), money),
    );
  });

  it('says a run’s items as runItemText does', () => {
    const items: RentCycleRunItem[] = [
      {
        kind: 'late_fee',
        tenant_name: 'Jane Doe',
        unit_name: 'A3',
        amount: 25_000,
        channel: null,
        status: null,
      },
      {
        kind: 'rent_increase',
        tenant_name: null,
        unit_name: 'A3',
        amount: 840_000,
        channel: null,
        status: null,
      },
      {
        kind: 'reminder',
        tenant_name: 'Jane Doe',
        unit_name: null,
        amount: null,
        channel: 'sms',
        status: 'queued',
      },
      {
        kind: 'reminder',
        tenant_name: 'Jane Doe',
        unit_name: 'A3',
        amount: null,
        channel: 'email',
        status: 'skipped',
      },
    ].map((i) => ({ ...i, occupancy_id: 1, date: '2026-11-01' })) as RentCycleRunItem[];
    const fmt = (n: number) => formatMoney(n, 'UGX', 0);
    for (const item of items) {
      const m = runItemMessage(item, fmt);
      expect(translate('en', m.key, m.values)).toBe(runItemText(item, fmt));
      expect(translate('fr', m.key, m.values)).not.toBe(runItemText(item, fmt));
    }
  });
});
