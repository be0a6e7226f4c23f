import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { TestClient } from '../../test/client.ts';
import { buildCompany, buildUser, type BuiltUser } from '../../test/factories.ts';
import { sha256 } from '../../platform/tokens.ts';

/** The code of the secret `steps` time steps from now (an authenticator app's, computed as RFC 6238 says). */
const codeOf = (secret: string, steps = 0) =>
  new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({
    timestamp: Date.now() + steps * 30_000,
  });

/** A code of the secret that is surely wrong now (not of the step before, now or after). */
const wrongCode = (secret: string) => {
  const near = new Set([-1, 0, 1].map((s) => codeOf(secret, s)));
  for (let i = 0; ; i++) {
    const c = String(100000 + i);
    if (!near.has(c)) return c;
  }
};

const CHROME_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

describe(`two-factor sign-in and sessions (${testDriver})`, () => {
  let t: TestContext;
  let companyId: number;
  let admin: BuiltUser;
  let staff: BuiltUser;

  beforeEach(async () => {
    t = await setupApp();
    companyId = (await buildCompany(t.database, { name: 'Acme Rentals' })).id;
    admin = await buildUser(t.database, { company_id: companyId, roles: ['admin'], email: 'boss@acme.test' });
    staff = await buildUser(t.database, { company_id: companyId, roles: ['editor'], email: 'ed@acme.test' });
  });
  afterEach(async () => {
    await t.app.close();
  });

  const signedIn = async (user: BuiltUser, headers: Record<string, string> = {}) => {
    const c = new TestClient(t.app);
    await c.get('/auth/status', headers);
    await c.get('/captcha');
    const res = await c.post(
      '/auth/login',
      { email: user.email, password: user.password, captcha_answer: 'kodi7' },
      headers,
    );
    expect(res.statusCode, res.body).toBe(200);
    return c;
  };

  /** Sets up and confirms a second factor for the client's user: its secret and recovery codes. */
  const enrol = async (c: TestClient, user: BuiltUser = staff) => {
    const setup = await c.post('/auth/mfa/setup');
    expect(setup.statusCode, setup.body).toBe(200);
    const { secret } = setup.json<{ secret: string }>();
    const confirm = await c.post('/auth/mfa/confirm', {
      code: codeOf(secret),
      current_password: user.password,
    });
    expect(confirm.statusCode, confirm.body).toBe(200);
    return { secret, recovery: confirm.json<{ recovery_codes: string[] }>().recovery_codes };
  };

  const userRow = async (id: number) =>
    (
      await t.database.query<{ mfa_secret: string | null; mfa_enabled_at: Date | null }>(
        'SELECT mfa_secret, mfa_enabled_at FROM users WHERE id = $1',
        [id],
      )
    )[0];

  const failedCount = async (email: string) =>
    Number(
      (
        await t.database.query<{ n: number }>(
          'SELECT failed_count AS n FROM login_attempts WHERE email = $1',
          [email],
        )
      )[0]?.n ?? 0,
    );

  it('sets up a second factor: a base32 secret, its otpauth URL and QR code, in force once a code confirms it', async () => {
    const c = await signedIn(staff);
    const setup = await c.post('/auth/mfa/setup');
    expect(setup.statusCode).toBe(200);
    const body = setup.json<{ secret: string; otpauth_url: string; qr_svg: string }>();
    expect(body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(body.otpauth_url).toMatch(/^otpauth:\/\/totp\/Kodi:ed%40acme\.test\?/);
    const url = new URL(body.otpauth_url);
    expect(url.searchParams.get('secret')).toBe(body.secret);
    expect(url.searchParams.get('algorithm')).toBe('SHA1');
    expect(url.searchParams.get('digits')).toBe('6');
    expect(url.searchParams.get('period')).toBe('30');
    expect(body.qr_svg).toMatch(/^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    // set up, not yet in force
    expect((await c.get('/auth/mfa')).json()).toMatchObject({ enabled: false, recovery_codes_left: 0 });
    expect((await userRow(staff.id))?.mfa_enabled_at).toBeNull();

    const pw = staff.password;
    const wrong = await c.post('/auth/mfa/confirm', { code: wrongCode(body.secret), current_password: pw });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'validation_failed', fields: { code: expect.any(String) } });
    const malformed = await c.post('/auth/mfa/confirm', { code: '12ab', current_password: pw });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().fields.code).toBe('Enter the 6-digit code from your authenticator app.');

    const other = await signedIn(staff); // a session opened before the second factor
    const confirm = await c.post('/auth/mfa/confirm', { code: codeOf(body.secret), current_password: pw });
    expect(confirm.statusCode).toBe(200);
    const codes = confirm.json<{ recovery_codes: string[] }>().recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    // stored hashed: no code in clear in the table; the secret through the sealing seam
    const stored = await t.database.query<{ code_hash: string }>(
      'SELECT code_hash FROM mfa_recovery_codes WHERE user_id = $1',
      [staff.id],
    );
    expect(stored).toHaveLength(10);
    const hashes = stored.map((r) => r.code_hash).join(' ');
    for (const code of codes) {
      expect(hashes).not.toContain(code);
      expect(hashes).not.toContain(code.replace('-', ''));
    }
    // sealed with AES-256-GCM under the server's key: never in clear in the database (nor a backup)
    const sealed = (await userRow(staff.id))?.mfa_secret ?? '';
    expect(sealed).toMatch(/^v1\.[0-9a-f]{8}\./);
    expect(sealed).not.toContain(body.secret);
    expect(sealed.toLowerCase()).not.toContain(body.secret.toLowerCase());
    expect((await c.get('/auth/mfa')).json()).toMatchObject({ enabled: true, recovery_codes_left: 10 });
    // the session opened without it ended; this one goes on
    expect((await other.get('/units')).statusCode).toBe(401);
    expect((await c.get('/units')).statusCode).toBe(200);
    // set up again while on: refused
    expect((await c.post('/auth/mfa/setup')).json()).toMatchObject({ code: 'mfa_already_enabled' });
    expect(
      (await c.post('/auth/mfa/confirm', { code: codeOf(body.secret), current_password: pw })).statusCode,
    ).toBe(409);
    // audited
    const audit = await t.database.query<{ after: { mfa_enabled: boolean } }>(
      `SELECT after FROM audit_entries WHERE entity = 'users' AND action = 'update' AND record_id = $1`,
      [staff.id],
    );
    expect(audit.map((a) => a.after.mfa_enabled)).toEqual([true]);
  });

  it('asks for the code after the password: no session until it, then the code or a recovery code (each once)', async () => {
    const { secret, recovery } = await enrol(await signedIn(staff));

    const c = new TestClient(t.app);
    await c.get('/auth/status');
    await c.get('/captcha');
    const before = c.cookie;
    const first = await c.post('/auth/login', {
      email: staff.email,
      password: staff.password,
      captcha_answer: 'kodi7',
    });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      mfa_required: true,
      csrf_token: expect.any(String),
      expires_at: expect.any(String),
    });
    expect(c.cookie).not.toBe(before); // a new session id for the challenge
    const expires = new Date(first.json<{ expires_at: string }>().expires_at).getTime() - Date.now();
    expect(expires).toBeGreaterThan(4 * 60_000);
    expect(expires).toBeLessThanOrEqual(5 * 60_000 + 1000);
    // not signed in yet
    expect((await c.get('/auth/status')).json().user).toBeNull();
    expect((await c.get('/units')).statusCode).toBe(401);

    const wrong = await c.post('/auth/login/mfa', { code: wrongCode(secret) });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ code: 'mfa_code_invalid' });
    expect(await failedCount(staff.email)).toBe(1);
    expect((await c.post('/auth/login/mfa', {})).statusCode).toBe(400);
    expect((await c.post('/auth/login/mfa', { code: '123456', recovery_code: recovery[0] })).statusCode).toBe(
      400,
    );

    const ok = await c.post('/auth/login/mfa', { code: codeOf(secret, 1) });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().user).toMatchObject({ email: staff.email, mfa_enabled: true });
    expect(await failedCount(staff.email)).toBe(0);
    expect((await c.get('/units')).statusCode).toBe(200);

    // the same code again, in another sign-in: refused (a code is used once)
    const again = new TestClient(t.app);
    await again.login(staff.email, staff.password);
    expect((await again.post('/auth/login/mfa', { code: codeOf(secret, 1) })).json().code).toBe(
      'mfa_code_invalid',
    );

    // a recovery code, typed in capitals without its dash: once
    const rc = recovery[3] ?? '';
    const byRecovery = await again.post('/auth/login/mfa', {
      recovery_code: rc.replace('-', '').toUpperCase(),
    });
    expect(byRecovery.statusCode, byRecovery.body).toBe(200);
    const third = new TestClient(t.app);
    await third.login(staff.email, staff.password);
    expect((await third.post('/auth/login/mfa', { recovery_code: rc })).json().code).toBe('mfa_code_invalid');
    expect((await c.get('/auth/mfa')).json()).toMatchObject({ recovery_codes_left: 9 });
  });

  it('locks the address after 5 failed codes, as the password does, and ends an expired challenge', async () => {
    const { secret } = await enrol(await signedIn(staff));
    const c = new TestClient(t.app);
    expect((await c.login(staff.email, staff.password)).json().mfa_required).toBe(true);
    for (let i = 0; i < 5; i++) {
      expect((await c.post('/auth/login/mfa', { code: wrongCode(secret) })).statusCode).toBe(401);
    }
    const locked = await c.post('/auth/login/mfa', { code: codeOf(secret, 1) });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code).toBe('account_locked');
    expect(locked.headers['retry-after']).toBeDefined();
    // the password step is locked too
    expect((await new TestClient(t.app).login(staff.email, staff.password)).json().code).toBe(
      'account_locked',
    );

    await t.database.query('DELETE FROM login_attempts');
    const late = new TestClient(t.app);
    expect((await late.login(staff.email, staff.password)).json().mfa_required).toBe(true);
    await t.database.query(
      `UPDATE sessions SET mfa_expires_at = now() - interval '1 second' WHERE mfa_user_id = $1`,
      [staff.id],
    );
    expect((await late.post('/auth/login/mfa', { code: codeOf(secret, 1) })).json()).toMatchObject({
      code: 'mfa_challenge_expired',
    });
    // no challenge at all
    const none = new TestClient(t.app);
    await none.get('/auth/status');
    expect((await none.post('/auth/login/mfa', { code: '123456' })).statusCode).toBe(401);
  });

  it('turns the second factor off with a code; an admin resets it (audited); others may not', async () => {
    const c = await signedIn(staff);
    const { secret } = await enrol(c);
    const pw = staff.password;
    expect(
      (await c.request('DELETE', '/auth/mfa', { code: wrongCode(secret), current_password: pw })).statusCode,
    ).toBe(400);
    const off = await c.request('DELETE', '/auth/mfa', { code: codeOf(secret, 1), current_password: pw });
    expect(off.statusCode, off.body).toBe(200);
    expect((await userRow(staff.id))?.mfa_secret).toBeNull();
    expect(
      (await t.database.query('SELECT 1 FROM mfa_recovery_codes WHERE user_id = $1', [staff.id])).length,
    ).toBe(0);
    expect((await new TestClient(t.app).login(staff.email, staff.password)).json().user.email).toBe(
      staff.email,
    );

    await enrol(await signedIn(staff));
    expect((await c.delete(`/users/${staff.id}/mfa`)).statusCode).toBe(403); // an editor
    const a = await signedIn(admin);
    expect((await a.delete('/users/999999/mfa')).statusCode).toBe(404);
    const reset = await a.delete(`/users/${staff.id}/mfa`);
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await userRow(staff.id))?.mfa_enabled_at).toBeNull();
    expect((await new TestClient(t.app).login(staff.email, staff.password)).json().user.mfa_enabled).toBe(
      false,
    );
    const audit = await t.database.query<{ user_id: number; after: Record<string, unknown> }>(
      `SELECT user_id, after FROM audit_entries WHERE entity = 'users' AND action = 'update' AND record_id = $1 ORDER BY id`,
      [staff.id],
    );
    expect(audit.at(-1)).toMatchObject({
      user_id: admin.id,
      after: { mfa_enabled: false, mfa_reset_by: admin.email },
    });
  });

  it('asks for the current password to turn the second factor on or off: a session alone cannot (issue 23)', async () => {
    const c = await signedIn(staff);
    const { secret } = (await c.post('/auth/mfa/setup')).json<{ secret: string }>();
    // the right code without the password: refused, nothing in force
    const bare = await c.post('/auth/mfa/confirm', { code: codeOf(secret) });
    expect(bare.statusCode).toBe(400);
    expect(bare.json().fields.current_password).toBe('This field is required.');
    const wrongPw = await c.post('/auth/mfa/confirm', {
      code: codeOf(secret),
      current_password: 'not-the-password',
    });
    expect(wrongPw.statusCode).toBe(400);
    expect(wrongPw.json()).toMatchObject({
      code: 'validation_failed',
      fields: { current_password: 'Current password is incorrect.' },
    });
    expect((await userRow(staff.id))?.mfa_enabled_at).toBeNull();
    const on = await c.post('/auth/mfa/confirm', { code: codeOf(secret), current_password: staff.password });
    expect(on.statusCode, on.body).toBe(200);

    // turning it off: a current code is not enough either
    expect((await c.request('DELETE', '/auth/mfa', { code: codeOf(secret, 1) })).statusCode).toBe(400);
    const offWrong = await c.request('DELETE', '/auth/mfa', {
      code: codeOf(secret, 1),
      current_password: 'not-the-password',
    });
    expect(offWrong.json().fields).toEqual({ current_password: 'Current password is incorrect.' });
    expect((await userRow(staff.id))?.mfa_enabled_at).not.toBeNull();
    const off = await c.request('DELETE', '/auth/mfa', {
      code: codeOf(secret, 1),
      current_password: staff.password,
    });
    expect(off.statusCode, off.body).toBe(200);
    expect((await userRow(staff.id))?.mfa_enabled_at).toBeNull();
  });

  it('ends a sign-in waiting for its code at every password change or reset and every end of sessions (issue 23)', async () => {
    const { secret } = await enrol(await signedIn(staff));
    let password = staff.password;
    // codes are used once a time step: let the test use the current one again
    const anyCodeAgain = () =>
      t.database.query('UPDATE users SET mfa_last_step = NULL WHERE id = $1', [staff.id]);
    const waiting = async () => {
      const c = new TestClient(t.app);
      expect((await c.login(staff.email, password)).json().mfa_required).toBe(true);
      return c;
    };
    const challenges = async () =>
      Number(
        (
          await t.database.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM sessions WHERE mfa_user_id = $1',
            [staff.id],
          )
        )[0]?.n,
      );
    const signedInWithCode = async () => {
      const c = await waiting();
      await anyCodeAgain();
      const ok = await c.post('/auth/login/mfa', { code: codeOf(secret) });
      expect(ok.statusCode, ok.body).toBe(200);
      return c;
    };
    /** The waiting sign-in, given the right code after `action`: it must have ended. */
    const endsWaiting = async (action: () => Promise<void>) => {
      const pending = await waiting();
      await action();
      expect(await challenges()).toBe(0);
      await anyCodeAgain();
      // as the web does after its session ended: a new CSRF token (a new anonymous session), then the code
      await pending.get('/auth/csrf-token');
      const late = await pending.post('/auth/login/mfa', { code: codeOf(secret) });
      expect(late.json().code, late.body).toBe('mfa_challenge_expired');
      expect((await pending.get('/auth/status')).json().user).toBeNull();
    };
    const a = await signedIn(admin);

    // an admin sets the password (the finding): the sign-in begun with the old one does not complete
    await endsWaiting(async () => {
      password = 'Copper-Violin-Meadow-7';
      expect((await a.put(`/users/${staff.id}/password`, { password })).statusCode).toBe(200);
    });
    // and the right code still works for a sign-in with the new password
    await signedInWithCode();

    // the user ends one of their sessions, or all the others
    const mine = await signedInWithCode();
    await signedInWithCode();
    await endsWaiting(async () => {
      const other = (await mine.get('/auth/sessions'))
        .json<{ id: number; current: boolean }[]>()
        .find((x) => !x.current);
      expect((await mine.delete(`/auth/sessions/${other?.id}`)).statusCode).toBe(204);
    });
    await endsWaiting(async () => {
      expect((await mine.delete('/auth/sessions')).statusCode).toBe(200);
    });
    // an admin ends them
    await endsWaiting(async () => {
      expect((await a.delete(`/users/${staff.id}/sessions`)).statusCode).toBe(200);
    });
    // the user changes the password
    const again = await signedInWithCode();
    await endsWaiting(async () => {
      const changed = await again.post('/auth/change-password', {
        current_password: password,
        new_password: 'Quiet-Lantern-Orbit-58',
      });
      expect(changed.statusCode, changed.body).toBe(200);
      password = 'Quiet-Lantern-Orbit-58';
    });
    // a reset by mail
    await endsWaiting(async () => {
      const token = 'another-reset-token-for-the-test';
      await t.database.query(
        `INSERT INTO password_reset_tokens (user_id, token_hash, expires_at) VALUES ($1, $2, now() + interval '30 minutes')`,
        [staff.id, sha256(token)],
      );
      const anon = new TestClient(t.app);
      await anon.get('/auth/status');
      password = 'Harbor-Tulip-Engine-93';
      expect((await anon.post('/auth/reset-password', { token, password })).statusCode).toBe(200);
    });
    // an admin disables the user
    await endsWaiting(async () => {
      const user = (await a.get(`/users/${staff.id}`)).json<Record<string, unknown>>();
      const res = await a.put(`/users/${staff.id}`, {
        email: user.email,
        first_name: user.first_name,
        last_name: user.last_name,
        company_id: user.company_id,
        country_code: user.country_code,
        active: false,
      });
      expect(res.statusCode, res.body).toBe(200);
    });
  });

  it('sends a user of a company that requires it to enrol before anything else', async () => {
    const a = await signedIn(admin);
    const settings = await a.put('/company-settings', { require_mfa: true, version: 1 });
    expect(settings.statusCode, settings.body).toBe(200);
    expect(settings.json().require_mfa).toBe(true);

    const c = await signedIn(staff);
    expect((await c.get('/auth/status')).json().user).toMatchObject({
      mfa_required: true,
      mfa_enabled: false,
    });
    const refused = await c.get('/units');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('mfa_enrolment_required');
    expect((await c.post('/units', { name: 'x' })).json().code).toBe('mfa_enrolment_required');
    expect((await c.get('/auth/sessions')).statusCode).toBe(200);
    expect((await c.get('/auth/mfa')).json()).toMatchObject({ enabled: false, required: true });
    await enrol(c);
    expect((await c.get('/units')).statusCode).toBe(200);
    // the admin too, at their next request
    expect((await a.get('/units')).json().code).toBe('mfa_enrolment_required');
    // another company is not concerned
    const other = await buildCompany(t.database);
    const outsider = await buildUser(t.database, { company_id: other.id, roles: ['editor'] });
    expect((await (await signedIn(outsider)).get('/units')).statusCode).toBe(200);
  });

  it('lists the user’s own sessions with the current one marked, and ends one, the others, or (admin) all', async () => {
    const c = await signedIn(staff, { 'user-agent': CHROME_UA });
    const other = await signedIn(staff, { 'user-agent': 'curl/8.5.0' });
    const third = await signedIn(staff);
    const adminSession = await signedIn(admin);

    const list = await c.get('/auth/sessions');
    expect(list.statusCode).toBe(200);
    const sessions =
      list.json<
        { id: number; current: boolean; browser: string; ip_address: string; created_at: string }[]
      >();
    expect(sessions).toHaveLength(3);
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    const mine = sessions.find((s) => s.current);
    expect(mine).toMatchObject({ browser: 'Chrome on Linux', ip_address: c.ip, user_agent: CHROME_UA });
    expect(sessions.find((s) => s.ip_address === other.ip)?.browser).toBe('curl');
    for (const s of sessions) {
      expect(Date.parse(s.created_at)).not.toBeNaN();
    }

    // the current one: sign out instead; another user's: not found
    expect((await c.delete(`/auth/sessions/${mine?.id}`)).statusCode).toBe(400);
    const adminRef = (await adminSession.get('/auth/sessions')).json<{ id: number }[]>()[0]?.id;
    expect((await c.delete(`/auth/sessions/${adminRef}`)).statusCode).toBe(404);
    expect((await adminSession.get('/units')).statusCode).toBe(200);

    const otherRef = sessions.find((s) => s.ip_address === other.ip)?.id;
    expect((await c.delete(`/auth/sessions/${otherRef}`)).statusCode).toBe(204);
    expect((await other.get('/units')).statusCode).toBe(401);
    expect((await c.delete(`/auth/sessions/${otherRef}`)).statusCode).toBe(404);

    const ended = await c.delete('/auth/sessions');
    expect(ended.json()).toEqual({ ended: 1 });
    expect((await third.get('/units')).statusCode).toBe(401);
    expect((await c.get('/units')).statusCode).toBe(200);

    // an admin ends every session of the user (audited); an editor may not
    expect((await c.delete(`/users/${admin.id}/sessions`)).statusCode).toBe(403);
    const all = await adminSession.delete(`/users/${staff.id}/sessions`);
    expect(all.json()).toEqual({ ended: 1 });
    expect((await c.get('/units')).statusCode).toBe(401);
    const audit = await t.database.query<{ after: Record<string, unknown> }>(
      `SELECT after FROM audit_entries WHERE entity = 'users' AND action = 'update' AND record_id = $1`,
      [staff.id],
    );
    expect(audit[0]?.after).toMatchObject({ sessions: 0, sessions_ended_by: admin.email });
  });

  it('ends the other sessions at a password change, and every session at a reset', async () => {
    const c = await signedIn(staff);
    const other = await signedIn(staff);
    const changed = await c.post('/auth/change-password', {
      current_password: staff.password,
      new_password: 'Quiet-Lantern-Orbit-58',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await other.get('/units')).statusCode).toBe(401);
    expect((await c.get('/units')).statusCode).toBe(401); // this one too: sign in with the new password
  });

  it('refuses weak or common new passwords wherever one is set, saying why, and takes strong ones', async () => {
    const weak = 'password123'; // one of the common passwords
    const guessable = 'acmeacme1'; // not in the list, scored under 3
    const named = 'ed@acme.test1'; // the user's own e-mail (strong for anyone else)

    // registration
    const visitor = new TestClient(t.app);
    await visitor.get('/auth/status');
    await visitor.get('/captcha');
    const register = (password: string) =>
      visitor.post('/auth/register', {
        email: 'new.person@example.com',
        first_name: 'New',
        last_name: 'Person',
        company_id: companyId,
        password,
        captcha_answer: 'kodi7',
      });
    const common = await register(weak);
    expect(common.statusCode).toBe(400);
    expect(common.json()).toMatchObject({
      code: 'validation_failed',
      fields: { password: 'This password is one of the most common passwords: choose another.' },
    });
    await visitor.get('/captcha');
    const easy = await register(guessable);
    expect(easy.statusCode).toBe(400);
    expect(easy.json().fields.password).toMatch(/^This password is too easy to guess\./);
    expect(
      (await t.database.query(`SELECT 1 FROM users WHERE email = 'new.person@example.com'`)).length,
    ).toBe(0);
    // the spec's own messages still come first
    await visitor.get('/captcha');
    expect((await register('short')).json().fields.password).toBe('Minimum 8 characters.');

    // change password: the user's own e-mail does not make a strong one
    const c = await signedIn(staff);
    const change = (new_password: string) =>
      c.post('/auth/change-password', { current_password: staff.password, new_password });
    expect((await change(weak)).json().fields.new_password).toBe(
      'This password is one of the most common passwords: choose another.',
    );
    const ownName = await change(named);
    expect(ownName.statusCode).toBe(400);
    expect(ownName.json().fields.new_password).toMatch(/too easy to guess/);

    // an admin's set password and add user
    const a = await signedIn(admin);
    expect(
      (await a.put(`/users/${staff.id}/password`, { password: guessable })).json().fields.password,
    ).toMatch(/too easy to guess/);
    const added = await a.post('/auth/register_as_admin', {
      email: 'added@acme.test',
      first_name: 'Added',
      last_name: 'User',
      company_id: companyId,
      country_code: 'UGA',
      password: weak,
      roles: ['viewer'],
    });
    expect(added.statusCode).toBe(400);
    expect(added.json().fields.password).toMatch(/most common passwords/);

    // reset with a mailed token
    const token = 'a-reset-token-for-the-test';
    await t.database.query(
      `INSERT INTO password_reset_tokens (user_id, token_hash, expires_at) VALUES ($1, $2, now() + interval '30 minutes')`,
      [staff.id, sha256(token)],
    );
    const anon = new TestClient(t.app);
    await anon.get('/auth/status');
    const reset = await anon.post('/auth/reset-password', { token, password: weak });
    expect(reset.statusCode).toBe(400);
    expect(reset.json().fields.password).toMatch(/most common passwords/);

    // strong ones pass everywhere, and the refused tries changed nothing
    expect((await new TestClient(t.app).login(staff.email, staff.password)).statusCode).toBe(200);
    expect(
      (await anon.post('/auth/reset-password', { token, password: 'Quiet-Lantern-Orbit-58' })).statusCode,
    ).toBe(200);
    expect((await new TestClient(t.app).login(staff.email, 'Quiet-Lantern-Orbit-58')).statusCode).toBe(200);
    expect(
      (await a.put(`/users/${staff.id}/password`, { password: 'Copper-Violin-Meadow-7' })).statusCode,
    ).toBe(200);
    await visitor.get('/captcha');
    expect((await register('Harbor-Tulip-Engine-93')).statusCode).toBe(201);
  });
});
