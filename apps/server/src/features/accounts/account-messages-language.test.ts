import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { TestClient } from '../../test/client.ts';
import { buildUser } from '../../test/factories.ts';
import { expectStatus } from '../../test/rent-cycle.ts';
import { portalCompany, portalTenant, tenantWithLease } from '../../test/portal.ts';
import { decodedMail, startSmtpReceiver, type ReceivedMail } from '../../test/message-servers.ts';

/** A text on one line, its no-break spaces (French) as spaces. */
const flat = (text: string) => text.replace(/[\s\u00a0\u202f]+/g, ' ');

type Queued = { subject: string | null; body: string };

/**
 * Issue 30: sign-in codes, portal invitations, address confirmations and password resets reach their
 * recipient in its language: a tenant's or an owner's own, a staff user's own, else the company's
 * default, else English (the spec's words, unchanged).
 */
describe(`sign-in codes, invitations and resets in the recipient's language (${testDriver})`, () => {
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let t: TestContext;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    t = await setupApp({
      smtpUrl: smtp.url,
      publicUrl: 'https://kodi.example',
      mailFrom: 'Kodi <no-reply@kodi.example>',
    });
  });
  afterAll(async () => {
    await t.app.close();
    await smtp.stop();
  });

  const last = async (where: string, params: unknown[]): Promise<Queued> => {
    const rows = await t.database.query<Queued>(
      `SELECT subject, body FROM messages WHERE ${where} ORDER BY id DESC LIMIT 1`,
      params,
    );
    const m = rows[0];
    if (!m) throw new Error(`no message where ${where}`);
    return { subject: m.subject === null ? null : flat(m.subject), body: flat(m.body) };
  };
  const setDefault = (companyId: number, language: string) =>
    t.database.query('UPDATE companies SET default_language = $2 WHERE id = $1', [companyId, language]);
  const setTenant = (tenantId: number, language: string | null) =>
    t.database.query('UPDATE tenants SET language = $2 WHERE id = $1', [tenantId, language]);

  /** The tenant invited by e-mail and by SMS, then sent a sign-in code by each: the four messages. */
  const inviteAndCode = async (staff: TestClient, a: { tenantId: number; email: string; phone: string }) => {
    expectStatus(await staff.post(`/tenants/${a.tenantId}/invite`, { channel: 'email' }), 201);
    const inviteEmail = await last(`tenant_id = $1 AND kind = 'invitation' AND channel = 'email'`, [
      a.tenantId,
    ]);
    expectStatus(await staff.post(`/tenants/${a.tenantId}/invite`, { channel: 'sms' }), 201);
    const inviteSms = await last(`tenant_id = $1 AND kind = 'invitation' AND channel = 'sms'`, [a.tenantId]);
    const c = new TestClient(t.app);
    await c.get('/auth/csrf-token');
    expectStatus(await c.post('/portal/auth/code', { login: a.email, channel: 'email' }), 202);
    const codeEmail = await last(`tenant_id = $1 AND kind = 'sign_in_code' AND channel = 'email'`, [
      a.tenantId,
    ]);
    expectStatus(await c.post('/portal/auth/code', { login: a.phone, channel: 'sms' }), 202);
    const codeSms = await last(`tenant_id = $1 AND kind = 'sign_in_code' AND channel = 'sms'`, [a.tenantId]);
    return { inviteEmail, inviteSms, codeEmail, codeSms };
  };

  it('invites a tenant and sends its codes in its language (sw, fr), else the company’s, else English', async () => {
    const { company, staff } = await portalCompany(t, 'Nyumba Bora');
    const sw = await tenantWithLease(staff);
    await setTenant(sw.tenantId, 'sw');
    const m = await inviteAndCode(staff, sw);
    expect(m.inviteEmail.subject).toBe('Nyumba Bora: tovuti yako ya mpangaji');
    expect(m.inviteEmail.body).toMatch(
      /^Habari Tina, Nyumba Bora inakualika kwenye tovuti yake ya mpangaji: ona salio lako, .+ Weka nenosiri lako hapa \(kiungo kinafanya kazi mara moja tu, kwa siku 7\): https:\/\/kodi\.example\/portal\/welcome\?token=/,
    );
    expect(m.inviteSms.body).toMatch(
      /^Nyumba Bora: tovuti yako ya mpangaji\. Weka nenosiri lako \(kiungo ni halali kwa siku 7\): https:/,
    );
    expect(m.codeEmail.subject).toBe('Nyumba Bora: msimbo wako wa kuingia');
    expect(m.codeEmail.body).toMatch(
      /^Msimbo wako wa kuingia kwenye tovuti ya mpangaji ya Nyumba Bora ni \d{6}\. Unafanya kazi mara moja tu, kwa dakika 10\.$/,
    );
    expect(m.codeSms.body).toMatch(
      /^Msimbo wako wa kuingia kwenye tovuti ya mpangaji ya Nyumba Bora ni \d{6}\./,
    );

    const fr = await tenantWithLease(staff);
    await setTenant(fr.tenantId, 'fr');
    const f = await inviteAndCode(staff, fr);
    expect(f.inviteEmail.subject).toBe('Nyumba Bora : votre portail locataire');
    expect(f.inviteEmail.body).toMatch(
      /^Bonjour Tina, Nyumba Bora vous invite sur son portail locataire : consultez votre solde, .+ \(le lien ne fonctionne qu’une fois, pendant 7 jours\) : https:\/\/kodi\.example\/portal\/welcome\?token=/,
    );
    expect(f.inviteSms.body).toMatch(
      /^Nyumba Bora : votre portail locataire\. Choisissez votre mot de passe/,
    );
    expect(f.codeEmail.subject).toBe('Nyumba Bora : votre code de connexion');
    expect(f.codeSms.body).toMatch(
      /^Votre code de connexion au portail locataire de Nyumba Bora est \d{6}\. Il ne fonctionne qu’une fois, pendant 10 minutes\.$/,
    );

    // no language of its own: the company's default (fr), then English (the spec's words)
    const none = await tenantWithLease(staff);
    await setTenant(none.tenantId, null);
    await setDefault(company.id, 'fr');
    expect((await inviteAndCode(staff, none)).codeSms.body).toMatch(
      /^Votre code de connexion au portail locataire/,
    );
    await setDefault(company.id, 'en');
    const en = await inviteAndCode(staff, none);
    expect(en.inviteEmail.subject).toBe('Nyumba Bora: your tenant portal');
    expect(en.inviteEmail.body).toMatch(
      /^Hello Tina, Nyumba Bora invites you to its tenant portal: see your balance, statements and receipts, and report repairs from your phone\. Set your password here \(the link works once, for 7 days\): https:\/\/kodi\.example\/portal\/welcome\?token=\S+ $/,
    );
    expect(en.inviteSms.body).toMatch(
      /^Nyumba Bora: your tenant portal\. Set your password \(link valid 7 days\): https:\/\/kodi\.example\/portal\/welcome\?token=\S+$/,
    );
    expect(en.codeEmail.subject).toBe('Nyumba Bora: your sign-in code');
    expect(en.codeEmail.body).toMatch(
      /^Your Nyumba Bora tenant portal sign-in code is \d{6}\. It works once, for 10 minutes\.$/,
    );
  }, 60_000);

  it('sends a tenant’s new-address code in its language', async () => {
    const { staff } = await portalCompany(t, 'Maison Claire');
    const a = await tenantWithLease(staff);
    await setTenant(a.tenantId, 'fr');
    const tenant = await portalTenant(t, staff, a.tenantId);
    const me = expectStatus(await tenant.get('/portal/me'), 200).json<{ tenant: { version: number } }>();
    expectStatus(
      await tenant.put('/portal/me', { version: me.tenant.version, email: 'new.fr@example.com' }),
      200,
    );
    const m = await last(`"to" = $1 AND kind = 'sign_in_code'`, ['new.fr@example.com']);
    expect(m.subject).toBe('Maison Claire : confirmez votre nouvelle adresse e-mail');
    expect(m.body).toMatch(
      /^Votre code du portail locataire de Maison Claire pour confirmer cette adresse e-mail est \d{6}\./,
    );

    const b = await tenantWithLease(staff);
    const en = await portalTenant(t, staff, b.tenantId);
    const meEn = expectStatus(await en.get('/portal/me'), 200).json<{ tenant: { version: number } }>();
    expectStatus(await en.put('/portal/me', { version: meEn.tenant.version, phone: '+256772999001' }), 200);
    expect((await last(`"to" = $1 AND kind = 'sign_in_code'`, ['+256772999001'])).body).toMatch(
      /^Your Maison Claire tenant portal code to confirm this phone number is \d{6}\. It works once, for 10 minutes\. If you did not ask for it, ignore this message\.$/,
    );
  }, 60_000);

  it('invites an owner and sends its code in the owner’s language', async () => {
    const { staff } = await portalCompany(t, 'Agence Sud');
    const owner = expectStatus(
      await staff.post('/owners', {
        first_name: 'Ama',
        last_name: 'Owner',
        email: 'ama.lang@example.com',
        phone: '0772987111',
      }),
      201,
    ).json<{ id: number }>();
    await t.database.query(`UPDATE owners SET language = 'sw' WHERE id = $1`, [owner.id]);
    expectStatus(await staff.post(`/owners/${owner.id}/invite`, { channel: 'email' }), 201);
    const invite = await last(`kind = 'invitation' AND "to" = $1`, ['ama.lang@example.com']);
    expect(invite.subject).toBe('Agence Sud: tovuti yako ya mmiliki');
    expect(invite.body).toMatch(
      /^Habari Ama, Agence Sud inakualika kwenye tovuti yake ya mmiliki: ona mali zako/,
    );
    const c = new TestClient(t.app);
    await c.get('/auth/csrf-token');
    expectStatus(await c.post('/portal/auth/code', { login: 'ama.lang@example.com', channel: 'email' }), 202);
    expect((await last(`kind = 'sign_in_code' AND "to" = $1`, ['ama.lang@example.com'])).body).toMatch(
      /^Msimbo wako wa kuingia kwenye tovuti ya mmiliki ya Agence Sud ni \d{6}\./,
    );
  }, 60_000);

  it('mails a password reset in the staff user’s language, else the company’s, else English', async () => {
    const { company } = await portalCompany(t, 'Reset Co');
    const user = await buildUser(t.database, {
      company_id: company.id,
      roles: ['editor'],
      first_name: 'Juma',
    });
    const forgot = async (): Promise<{ raw: string; text: string }> => {
      smtp.received.length = 0;
      const c = new TestClient(t.app);
      await c.get('/auth/status');
      expectStatus(await c.post('/auth/forgot-password', { email: user.email }), 200);
      const [mail] = await smtp.waitFor(1);
      const raw = (mail as ReceivedMail).raw;
      return { raw, text: flat(decodedMail(raw)) };
    };
    // the rate limit of reset mails to one address: let each one through
    const again = () => t.database.query(`DELETE FROM rate_limits WHERE key LIKE 'forgot%'`);

    await t.database.query(`UPDATE users SET language = 'sw' WHERE id = $1`, [user.id]);
    const sw = await forgot();
    expect(sw.raw).toContain('Subject: Weka upya nenosiri lako la Kodi');
    expect(sw.text).toContain('Habari Juma,');
    expect(sw.text).toContain('fungua kiungo hiki ndani ya dakika 30:');

    await again();
    await t.database.query(`UPDATE users SET language = 'fr' WHERE id = $1`, [user.id]);
    const fr = await forgot();
    expect(fr.text).toContain('Bonjour Juma,');
    expect(fr.text).toContain('ouvrez ce lien dans les 30 minutes');
    expect(fr.text).not.toContain('Someone asked');

    // no language of its own: the company's default, then English
    await again();
    await t.database.query(`UPDATE users SET language = NULL WHERE id = $1`, [user.id]);
    await setDefault(company.id, 'sw');
    expect((await forgot()).text).toContain('Habari Juma,');
    await again();
    await setDefault(company.id, 'en');
    const en = await forgot();
    expect(en.raw).toContain('Subject: Reset your Kodi password');
    expect(en.text).toContain(
      'Hello Juma, Someone asked to reset the password of your Kodi account. To choose a new password, open this link within 30 minutes:',
    );
    expect(en.text).toContain(
      'The link works once. If you did not ask for this, ignore this e-mail: your password stays as it is.',
    );
  }, 60_000);
});
