import { afterEach, describe, expect, it } from 'vitest';
import { accountMessages, portalMessages } from '@kodi/domain';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { TestClient } from '../../test/client.ts';
import { expectStatus } from '../../test/rent-cycle.ts';
import { PORTAL_PASSWORD, portalCompany, tenantWithLease } from '../../test/portal.ts';

type Invitation = { sent: boolean; not_sent: string | null; link: string | null; portal_status: string };

/** Issue 26: with no SMTP_URL or SMS_URL nothing says 'sent'; an invitation's link is given to copy. */
describe(`invitations and codes without e-mail or SMS (${testDriver})`, () => {
  let t: TestContext;
  afterEach(async () => {
    await t.app.close();
  });

  const anonymous = async () => {
    const c = new TestClient(t.app);
    await c.get('/auth/csrf-token');
    return c;
  };

  it('says an invitation is not sent and gives its link, which works', async () => {
    t = await setupApp({ publicUrl: 'https://kodi.example', smtpUrl: undefined, smsUrl: undefined });
    const { staff } = await portalCompany(t);
    const a = await tenantWithLease(staff);
    for (const channel of ['email', 'sms'] as const) {
      const answer = expectStatus(
        await staff.post(`/tenants/${a.tenantId}/invite`, { channel }),
        201,
      ).json<Invitation>();
      expect(answer).toMatchObject({
        sent: false,
        not_sent: channel === 'email' ? 'Not sent: e-mail is not set up' : 'Not sent: SMS is not set up',
        portal_status: 'invited',
      });
      expect(answer.link).toMatch(/^https:\/\/kodi\.example\/portal\/welcome\?token=/);
    }
    // the last link given is the one that works (a new invitation makes the earlier ones void)
    const last = expectStatus(
      await staff.post(`/tenants/${a.tenantId}/invite`, { channel: 'email' }),
      201,
    ).json<Invitation>();
    const token = new URL(last.link ?? '').searchParams.get('token') ?? '';
    const tenant = await anonymous();
    const accepted = await tenant.post('/portal/auth/accept', { token, password: PORTAL_PASSWORD });
    expect(accepted.statusCode, accepted.body).toBe(200);

    // a one-time code cannot go out either: the answer says so, whoever asks
    const code = expectStatus(
      await (await anonymous()).post('/portal/auth/code', { login: a.email, channel: 'email' }),
      202,
    ).json<{ sent: boolean; message: string }>();
    expect(code).toEqual({ sent: false, message: portalMessages.codeNotSetUp('email') });
    const stranger = expectStatus(
      await (await anonymous()).post('/portal/auth/code', { login: 'nobody@example.com', channel: 'email' }),
      202,
    ).json();
    expect(stranger).toEqual(code);

    // nor a reset link
    const forgot = await (await anonymous()).post('/auth/forgot-password', { email: 'someone@example.com' });
    expect(forgot.json()).toEqual({ message: accountMessages.forgotNotSetUp });
  }, 120_000);

  it('says sent, and gives no link, when the channel is set up', async () => {
    t = await setupApp({ publicUrl: 'https://kodi.example', smtpUrl: 'smtp://127.0.0.1:2525' });
    const { staff } = await portalCompany(t);
    const a = await tenantWithLease(staff);
    const answer = expectStatus(
      await staff.post(`/tenants/${a.tenantId}/invite`, { channel: 'email' }),
      201,
    ).json<Invitation>();
    expect(answer).toMatchObject({ sent: true, not_sent: null, link: null });
    const code = expectStatus(
      await (await anonymous()).post('/portal/auth/code', { login: a.email, channel: 'email' }),
      202,
    ).json<{ sent: boolean; message: string }>();
    expect(code).toEqual({ sent: true, message: portalMessages.codeOnItsWay('email') });
    const forgot = await (await anonymous()).post('/auth/forgot-password', { email: 'someone@example.com' });
    expect(forgot.json()).toEqual({ message: accountMessages.forgotSent });
  }, 120_000);
});
