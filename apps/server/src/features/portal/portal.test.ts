import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { TestClient } from '../../test/client.ts';
import { portalMessages, securityMessages } from '@kodi/domain';
import { buildUser } from '../../test/factories.ts';
import { PNG_1PX, FAKE_PNG, validTenant } from '../../test/entities.ts';
import { expectStatus } from '../../test/rent-cycle.ts';
import {
  invitationLink,
  latestCode,
  PORTAL_PASSWORD,
  portalCompany,
  portalTenant,
  tenantWithLease,
  tokenOf,
} from '../../test/portal.ts';

describe(`tenant portal (${testDriver})`, () => {
  let t: TestContext;
  beforeEach(async () => {
    t = await setupApp({ publicUrl: 'https://kodi.example' });
  });
  afterEach(async () => {
    await t.app.close();
  });

  const portalStatus = async (staff: TestClient, tenantId: number) =>
    expectStatus(await staff.get(`/tenants/${tenantId}`), 200).json<{ portal_status: string }>()
      .portal_status;

  /** The code of the latest message sent to an address to confirm it. */
  const addressCode = async (to: string) => {
    const rows = await t.database.query<{ body: string }>(
      `SELECT body FROM messages WHERE kind = 'sign_in_code' AND "to" = $1 ORDER BY id DESC LIMIT 1`,
      [to],
    );
    const code = /\b(\d{6})\b/.exec(rows[0]?.body ?? '')?.[1];
    if (!code) throw new Error(`no code sent to ${to}`);
    return code;
  };

  const anonymous = async () => {
    const c = new TestClient(t.app);
    await c.get('/auth/csrf-token');
    return c;
  };

  describe('invitations', () => {
    it('queues a single-use link valid 7 days; accepting it sets the password and signs the tenant in', async () => {
      const { staff } = await portalCompany(t);
      const a = await tenantWithLease(staff);
      expect(await portalStatus(staff, a.tenantId)).toBe('none');

      const res = expectStatus(await staff.post(`/tenants/${a.tenantId}/invite`, { channel: 'email' }), 201);
      const expires = new Date(res.json<{ expires_at: string }>().expires_at).getTime();
      expect(Math.abs(expires - Date.now() - 7 * 86_400_000)).toBeLessThan(60_000);
      const msg = await t.database.query<{ kind: string; channel: string; to: string; status: string }>(
        `SELECT kind, channel, "to", status FROM messages WHERE tenant_id = $1`,
        [a.tenantId],
      );
      expect(msg).toEqual([{ kind: 'invitation', channel: 'email', to: a.email, status: 'queued' }]);
      const link = await invitationLink(t, a.tenantId);
      expect(link.startsWith('https://kodi.example/portal/welcome?token=')).toBe(true);
      expect(await portalStatus(staff, a.tenantId)).toBe('invited');

      const c = await anonymous();
      const short = await c.post('/portal/auth/accept', { token: tokenOf(link), password: 'short' });
      expect(short.statusCode).toBe(400);
      const ok = expectStatus(
        await c.post('/portal/auth/accept', { token: tokenOf(link), password: PORTAL_PASSWORD }),
        200,
      ).json<{ user: { roles: string[]; tenant_id: number; company_id: number }; csrf_token: string }>();
      expect(ok.user).toMatchObject({ roles: ['tenant'], tenant_id: a.tenantId });
      expect(ok.csrf_token).toEqual(expect.any(String));
      expect(expectStatus(await c.get('/portal/me'), 200).json<{ tenant: { id: number } }>().tenant.id).toBe(
        a.tenantId,
      );
      expect(await portalStatus(staff, a.tenantId)).toBe('active');

      // used once: the same link again is refused
      const again = await (
        await anonymous()
      ).post('/portal/auth/accept', {
        token: tokenOf(link),
        password: 'another-pass-42',
      });
      expect(again.statusCode).toBe(400);
      expect(again.json().code).toBe('invitation_invalid');
      // an active account is not invited again
      expect((await staff.post(`/tenants/${a.tenantId}/invite`, { channel: 'email' })).statusCode).toBe(409);
    });

    it('refuses an expired link and a link a newer invitation replaced; SMS goes to the phone in E.164', async () => {
      const { staff } = await portalCompany(t);
      const a = await tenantWithLease(staff);
      expectStatus(await staff.post(`/tenants/${a.tenantId}/invite`, { channel: 'email' }), 201);
      const first = tokenOf(await invitationLink(t, a.tenantId));
      expectStatus(await staff.post(`/tenants/${a.tenantId}/invite`, { channel: 'sms' }), 201);
      const sms = await t.database.query<{ to: string; channel: string }>(
        `SELECT "to", channel FROM messages WHERE tenant_id = $1 ORDER BY id DESC LIMIT 1`,
        [a.tenantId],
      );
      expect(sms[0]).toEqual({ to: a.phone, channel: 'sms' });
      const second = tokenOf(await invitationLink(t, a.tenantId));
      expect(second).not.toBe(first);

      const c = await anonymous();
      const replaced = await c.post('/portal/auth/accept', { token: first, password: PORTAL_PASSWORD });
      expect(replaced.json().code).toBe('invitation_invalid');

      await t.database.query(
        `UPDATE portal_tokens SET expires_at = now() - interval '1 minute' WHERE used_at IS NULL`,
      );
      const expired = await c.post('/portal/auth/accept', { token: second, password: PORTAL_PASSWORD });
      expect(expired.statusCode).toBe(400);
      expect(expired.json().code).toBe('invitation_invalid');
      expect(await portalStatus(staff, a.tenantId)).toBe('invited');
    });

    it('lets admins and editors invite in their own company only', async () => {
      const { company, staff } = await portalCompany(t);
      const other = await portalCompany(t);
      const a = await tenantWithLease(staff);
      const viewer = await buildUser(t.database, { company_id: company.id, roles: ['viewer'] });
      const v = new TestClient(t.app);
      expectStatus(await v.login(viewer.email, viewer.password), 200);
      expect((await v.post(`/tenants/${a.tenantId}/invite`, { channel: 'email' })).json().code).toBe(
        'forbidden',
      );
      expect((await other.staff.post(`/tenants/${a.tenantId}/invite`, { channel: 'email' })).statusCode).toBe(
        404,
      );
      expect((await staff.post(`/tenants/${a.tenantId}/invite`, { channel: 'fax' })).statusCode).toBe(400);
      expect(
        (await staff.post(`/tenants/${a.tenantId}/invite`, { channel: 'email' }, { 'x-csrf-token': '' }))
          .statusCode,
      ).toBe(403);
    });
  });

  describe('sign-in', () => {
    it('signs in with the e-mail or the phone in any usual writing; wrong and unknown logins answer alike', async () => {
      const { staff } = await portalCompany(t);
      const a = await tenantWithLease(staff);
      await portalTenant(t, staff, a.tenantId);
      const national = `0${a.phone.slice(4, 7)} ${a.phone.slice(7, 10)} ${a.phone.slice(10)}`;
      for (const login of [
        a.email.toUpperCase(),
        a.phone,
        national,
        `+256 ${a.phone.slice(4, 7)}-${a.phone.slice(7)}`,
      ]) {
        const c = await anonymous();
        const res = await c.post('/portal/auth/login', { login, password: PORTAL_PASSWORD });
        expect(res.statusCode, login).toBe(200);
        expect(res.json().user.tenant_id).toBe(a.tenantId);
        expect((await c.get('/portal/me')).statusCode).toBe(200);
        expectStatus(await c.post('/portal/auth/logout'), 204);
        expect((await c.get('/portal/me')).statusCode).toBe(401);
      }
      const c = await anonymous();
      const wrong = await c.post('/portal/auth/login', { login: a.email, password: 'wrong-password' });
      const unknown = await c.post('/portal/auth/login', {
        login: 'nobody@example.com',
        password: 'wrong-password',
      });
      expect(wrong.statusCode).toBe(401);
      expect(unknown.statusCode).toBe(401);
      expect(wrong.json()).toEqual(unknown.json());
      // the CSRF header, as for staff
      const noCsrf = await c.post(
        '/portal/auth/login',
        { login: a.email, password: PORTAL_PASSWORD },
        { 'x-csrf-token': '' },
      );
      expect(noCsrf.statusCode).toBe(403);
    });

    it('locks a login for 15 minutes after 5 failures, whatever its writing', async () => {
      const { staff } = await portalCompany(t);
      const a = await tenantWithLease(staff);
      await portalTenant(t, staff, a.tenantId);
      const c = await anonymous();
      for (let i = 0; i < 5; i++) {
        const login = i % 2 ? a.phone : `0${a.phone.slice(4)}`;
        expect((await c.post('/portal/auth/login', { login, password: 'wrong-password' })).statusCode).toBe(
          401,
        );
      }
      const locked = await c.post('/portal/auth/login', { login: a.phone, password: PORTAL_PASSWORD });
      expect(locked.statusCode).toBe(429);
      expect(locked.json().code).toBe('account_locked');
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(800);
      // an unknown login locks the same way (no enumeration)
      for (let i = 0; i < 5; i++)
        await c.post('/portal/auth/login', { login: 'ghost@example.com', password: 'x' });
      expect(
        (await c.post('/portal/auth/login', { login: 'ghost@example.com', password: 'x' })).statusCode,
      ).toBe(429);
    });

    it('signs in with a one-time code: always 202, 6 digits, 10 minutes, 5 tries', async () => {
      const { staff } = await portalCompany(t);
      const a = await tenantWithLease(staff);
      await portalTenant(t, staff, a.tenantId);
      const c = await anonymous();
      const unknown = await c.post('/portal/auth/code', { login: 'nobody@example.com', channel: 'email' });
      expect(unknown.statusCode).toBe(202);
      const before = await t.database.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM messages WHERE kind = 'sign_in_code'`,
      );
      expect(Number(before[0]?.n)).toBe(0);

      expect((await c.post('/portal/auth/code', { login: a.phone, channel: 'sms' })).statusCode).toBe(202);
      const code = await latestCode(t, a.tenantId);
      expect(code).toMatch(/^\d{6}$/);
      const sms = await t.database.query<{ to: string }>(
        `SELECT "to" FROM messages WHERE kind = 'sign_in_code'`,
      );
      expect(sms[0]?.to).toBe(a.phone);
      const wrongCode = code === '000000' ? '111111' : '000000';
      for (let i = 0; i < 4; i++)
        expect(
          (await c.post('/portal/auth/code/verify', { login: a.phone, code: wrongCode })).statusCode,
        ).toBe(401);
      const ok = await c.post('/portal/auth/code/verify', { login: a.phone, code });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().user.tenant_id).toBe(a.tenantId);
      // used once
      const c2 = await anonymous();
      expect((await c2.post('/portal/auth/code/verify', { login: a.phone, code })).statusCode).toBe(401);

      // five wrong tries use a code up (the failure above counts on the account too: forgotten here)
      await t.database.query('DELETE FROM login_attempts');
      expect((await c2.post('/portal/auth/code', { login: a.email, channel: 'email' })).statusCode).toBe(202);
      const second = await latestCode(t, a.tenantId);
      const wrong2 = second === '000000' ? '111111' : '000000';
      for (let i = 0; i < 5; i++) await c2.post('/portal/auth/code/verify', { login: a.email, code: wrong2 });
      const dead = await t.database.query<{ used: boolean; attempts: number }>(
        `SELECT used_at IS NOT NULL AS used, attempts FROM portal_tokens WHERE kind = 'code' ORDER BY id DESC LIMIT 1`,
      );
      expect(dead[0]).toEqual({ used: true, attempts: 5 });
      await t.database.query('DELETE FROM login_attempts');
      expect((await c2.post('/portal/auth/code/verify', { login: a.email, code: second })).statusCode).toBe(
        401,
      );

      // ten minutes
      expect((await c2.post('/portal/auth/code', { login: a.email, channel: 'email' })).statusCode).toBe(202);
      const third = await latestCode(t, a.tenantId);
      await t.database.query(
        `UPDATE portal_tokens SET expires_at = now() - interval '1 second' WHERE kind = 'code'`,
      );
      expect((await c2.post('/portal/auth/code/verify', { login: a.email, code: third })).statusCode).toBe(
        401,
      );
      expect((await c2.post('/portal/auth/code/verify', { login: a.email, code: '12345' })).statusCode).toBe(
        400,
      );
    });

    it('turning access off ends the tenant’s sessions and refuses its sign-in; on again lets it back', async () => {
      const { company, staff } = await portalCompany(t);
      const a = await tenantWithLease(staff);
      const tenant = await portalTenant(t, staff, a.tenantId);
      expectStatus(await tenant.get('/portal/me'), 200);

      const editor = await buildUser(t.database, { company_id: company.id, roles: ['editor'] });
      const e = new TestClient(t.app);
      expectStatus(await e.login(editor.email, editor.password), 200);
      expect((await e.post(`/tenants/${a.tenantId}/portal-access`, { enabled: false })).statusCode).toBe(403);

      const ca = await buildUser(t.database, { company_id: company.id, roles: ['company_admin'] });
      const cc = new TestClient(t.app);
      expectStatus(await cc.login(ca.email, ca.password), 200);
      const off = expectStatus(
        await cc.post(`/tenants/${a.tenantId}/portal-access`, { enabled: false }),
        200,
      );
      expect(off.json()).toEqual({ portal_status: 'disabled' });
      expect((await tenant.get('/portal/me')).statusCode).toBe(401);
      const sessions = await t.database.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM sessions WHERE user_id = $1',
        [tenant.user.id],
      );
      expect(Number(sessions[0]?.n)).toBe(0);
      expect(await portalStatus(staff, a.tenantId)).toBe('disabled');

      const c = await anonymous();
      const refused = await c.post('/portal/auth/login', { login: a.email, password: PORTAL_PASSWORD });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().code).toBe('account_disabled');
      await c.post('/portal/auth/code', { login: a.email, channel: 'email' });
      expect(await latestCode(t, a.tenantId)).toBeUndefined();

      expectStatus(await cc.post(`/tenants/${a.tenantId}/portal-access`, { enabled: true }), 200);
      expect(await portalStatus(staff, a.tenantId)).toBe('active');
      expectStatus(await c.post('/portal/auth/login', { login: a.email, password: PORTAL_PASSWORD }), 200);
    });

    it('refuses a tenant on the staff routes and on the staff sign-in page', async () => {
      const { staff } = await portalCompany(t);
      const a = await tenantWithLease(staff);
      const tenant = await portalTenant(t, staff, a.tenantId);
      for (const path of [
        '/tenants',
        `/tenants/${a.tenantId}`,
        '/payments',
        '/dashboard',
        `/occupancy/${a.leaseId}/ledger`,
        '/company-settings',
        '/users',
      ]) {
        const res = await tenant.get(path);
        expect(res.statusCode, path).toBe(403);
      }
      expect((await tenant.delete(`/tenants/${a.tenantId}`)).statusCode).toBe(403);
      const c = new TestClient(t.app);
      const res = await c.login(a.email, PORTAL_PASSWORD);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('tenant_account');
      // and staff are refused on the portal's routes
      expect((await staff.get('/portal/me')).statusCode).toBe(403);
    });
  });

  describe('phones (docs/decisions.md, One phone number)', () => {
    const SPELLINGS = ['0772 123 456', '0772123456', '+256 772 123 456', '256772123456', '0772-123-456'];
    const E164 = '+256772123456';
    const stored = async (tenantId: number) =>
      (
        await t.database.query<{ tenant: string; user: string | null }>(
          `SELECT t.phone AS tenant, u.phone AS "user" FROM tenants t
             LEFT JOIN users u ON u.tenant_id = t.id WHERE t.id = $1`,
          [tenantId],
        )
      )[0];

    it('saves the tenant’s and its account’s phone in E.164 from any spelling, and signs in by any', async () => {
      const { staff } = await portalCompany(t);
      const a = await tenantWithLease(staff);
      // a record whose phone was typed before phones were saved in E.164: its account gets E.164
      await t.database.query(`UPDATE tenants SET phone = '0772 123 457', country_code = NULL WHERE id = $1`, [
        a.tenantId,
      ]);
      const tenant = await portalTenant(t, staff, a.tenantId);
      expect(await stored(a.tenantId)).toEqual({ tenant: '0772 123 457', user: '+256772123457' });
      for (const phone of SPELLINGS) {
        const { version } = expectStatus(await tenant.get('/portal/me'), 200).json<{
          tenant: { version: number };
        }>().tenant;
        expectStatus(await tenant.put('/portal/me', { version, phone }), 200);
        if (phone === SPELLINGS[0]) {
          // a new sign-in phone waits for the code sent to its E.164 (issue 23), then is saved
          expect(await stored(a.tenantId)).toEqual({ tenant: '0772 123 457', user: '+256772123457' });
          const done = expectStatus(
            await tenant.post('/portal/me/confirm', { code: await addressCode(E164) }),
            200,
          );
          expect(done.json<{ tenant: { phone: string } }>().tenant.phone).toBe(E164);
        }
        // the same number in another writing is no new address: saved at once, in E.164
        const me = expectStatus(await tenant.get('/portal/me'), 200).json<{ tenant: { phone: string } }>();
        expect(me.tenant.phone, phone).toBe(E164);
        expect(await stored(a.tenantId), phone).toEqual({ tenant: E164, user: E164 });
      }
      for (const login of [...SPELLINGS, '772123456']) {
        const c = await anonymous();
        const res = await c.post('/portal/auth/login', { login, password: PORTAL_PASSWORD });
        expect(res.statusCode, login).toBe(200);
      }
      // not a Ugandan number: refused, nothing changed
      const { version } = expectStatus(await tenant.get('/portal/me'), 200).json<{
        tenant: { version: number };
      }>().tenant;
      const refused = expectStatus(await tenant.put('/portal/me', { version, phone: '0772 1234 567' }), 400);
      expect(refused.json<{ fields: Record<string, string> }>().fields.phone).toBe(
        'This is not a possible phone number for Uganda.',
      );
      const malformed = expectStatus(await tenant.put('/portal/me', { version, phone: '0772 99887' }), 400);
      expect(malformed.json<{ fields: Record<string, string> }>().fields.phone).toBe(
        'Invalid phone number format.',
      );
      expect(await stored(a.tenantId)).toEqual({ tenant: E164, user: E164 });
    });

    it('invites a tenant saved with any spelling to an account with its E.164 phone', async () => {
      const { staff } = await portalCompany(t);
      for (const phone of SPELLINGS) {
        const a = await tenantWithLease(staff);
        const current = expectStatus(await staff.get(`/tenants/${a.tenantId}`), 200).json<
          Record<string, unknown>
        >();
        const { id: _i, full_name: _f, portal_status: _p, created_at: _c, updated_at: _u, ...body } = current;
        // a different number for each tenant: the accounts' phones are unique
        const own = phone.replace(/456$/, String(100 + SPELLINGS.indexOf(phone)));
        expectStatus(await staff.put(`/tenants/${a.tenantId}`, { ...body, phone: own }), 200);
        expectStatus(await staff.post(`/tenants/${a.tenantId}/invite`, { channel: 'email' }), 201);
        const e164 = `+256772123${100 + SPELLINGS.indexOf(phone)}`;
        expect(await stored(a.tenantId), phone).toEqual({ tenant: e164, user: e164 });
      }
    });
  });

  describe('what a tenant sees', () => {
    it('shows its details, leases with balance and next due, and changes its contact details with version', async () => {
      const { company, admin, staff } = await portalCompany(t, 'Portal Homes');
      const a = await tenantWithLease(staff, { paid: 400_000 });
      const tenant = await portalTenant(t, staff, a.tenantId);
      const me = expectStatus(await tenant.get('/portal/me'), 200).json<{
        tenant: { version: number; phone: string };
        company: { name: string; currency: string };
        leases: {
          id: number;
          balance: number;
          next_due_date: string | null;
          next_due_amount: number | null;
          rate: number;
        }[];
        as_of: string;
      }>();
      expect(me.company).toMatchObject({ name: 'Portal Homes', currency: 'UGX' });
      expect(me.leases).toHaveLength(1);
      const lease = me.leases[0]!;
      const staffLedger = expectStatus(await staff.get(`/occupancy/${a.leaseId}/ledger`), 200).json<{
        balance: number;
      }>();
      expect(lease).toMatchObject({
        id: a.leaseId,
        rate: 1_000_000,
        balance: staffLedger.balance,
        next_due_amount: 1_000_000,
      });
      expect(lease.next_due_date! > me.as_of).toBe(true);
      expect(lease.next_due_date!.endsWith('-01')).toBe(true);

      const changed = expectStatus(
        await tenant.put('/portal/me', {
          version: me.tenant.version,
          emergency_contact_name: 'Ann',
          notify_sms: false,
          phone: '+256772999001',
        }),
        200,
      ).json<{ tenant: { emergency_contact_name: string; notify_sms: boolean; version: number } }>();
      expect(changed.tenant).toMatchObject({
        emergency_contact_name: 'Ann',
        notify_sms: false,
        version: me.tenant.version + 1,
      });
      // the new phone waits for the code sent to it (issue 23)
      expect(changed.tenant).toMatchObject({ phone: me.tenant.phone });
      expect(changed).toMatchObject({ pending: [{ field: 'phone', value: '+256772999001' }] });
      const stale = await tenant.put('/portal/me', {
        version: me.tenant.version,
        emergency_contact_name: 'Bob',
      });
      expect(stale.statusCode).toBe(409);
      expect(
        (await tenant.put('/portal/me', { version: changed.tenant.version, company_id: 9 })).statusCode,
      ).toBe(400);
      // an e-mail another account signs in with: the same answer as any new one (issue 23), the rest saved
      const taken = expectStatus(
        await tenant.put('/portal/me', {
          version: changed.tenant.version,
          email: admin.email,
          emergency_contact_name: 'Carl',
        }),
        200,
      ).json<{ tenant: { email: string; emergency_contact_name: string }; pending: { field: string }[] }>();
      expect(taken.tenant).toMatchObject({ email: a.email, emergency_contact_name: 'Carl' });
      expect(taken.pending.map((p) => p.field)).toEqual(['phone', 'email']);
      // its code, once entered, says so; the admin keeps it
      const toAdmin = await addressCode(admin.email);
      const refused = await tenant.post('/portal/me/confirm', { code: toAdmin });
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'duplicate', error: portalMessages.addressTaken });
      expect((await new TestClient(t.app).login(admin.email, admin.password)).statusCode).toBe(200);
      // the phone's code puts the new phone in
      const after = expectStatus(
        await tenant.post('/portal/me/confirm', { code: await addressCode('+256772999001') }),
        200,
      ).json<{ tenant: { email: string; phone: string }; pending: unknown[] }>();
      expect(after.tenant).toMatchObject({ email: a.email, phone: '+256772999001' });
      expect(after.pending).toEqual([]);
      // it now signs in with the new phone
      const c = await anonymous();
      expectStatus(
        await c.post('/portal/auth/login', { login: '0772 999 001', password: PORTAL_PASSWORD }),
        200,
      );
      void company;
    });

    it('answers its ledger, statement, payments and receipts as staff see them, and another tenant’s as 404', async () => {
      const { staff } = await portalCompany(t);
      const other = await portalCompany(t);
      const a = await tenantWithLease(staff);
      const b = await tenantWithLease(staff);
      const c = await tenantWithLease(other.staff);
      const ta = await portalTenant(t, staff, a.tenantId);
      await portalTenant(t, staff, b.tenantId);
      await portalTenant(t, other.staff, c.tenantId);

      const ledger = expectStatus(await ta.get(`/portal/leases/${a.leaseId}/ledger`), 200).json();
      const staffLedger = expectStatus(await staff.get(`/occupancy/${a.leaseId}/ledger`), 200).json();
      expect(ledger).toEqual(staffLedger);
      const pdf = expectStatus(await ta.get(`/portal/leases/${a.leaseId}/statement.pdf`), 200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

      const page = expectStatus(await ta.get('/portal/payments?page=1&page_size=10'), 200).json<{
        rows: { id: number }[];
        total: number;
      }>();
      expect(page.total).toBe(1);
      expect(page.rows.map((p) => p.id)).toEqual([a.paymentId]);
      const receipt = expectStatus(await ta.get(`/portal/payments/${a.paymentId}/receipt.pdf`), 200);
      expect(receipt.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

      for (const lease of [b, c]) {
        expect((await ta.get(`/portal/leases/${lease.leaseId}/ledger`)).statusCode).toBe(404);
        expect((await ta.get(`/portal/leases/${lease.leaseId}/statement.pdf`)).statusCode).toBe(404);
        expect((await ta.get(`/portal/payments/${lease.paymentId}/receipt.pdf`)).statusCode).toBe(404);
        const req = await ta.post('/portal/maintenance-requests', {
          occupancy_id: lease.leaseId,
          description: 'Leak',
        });
        expect(req.statusCode).toBe(404);
      }
    });

    it('reports a repair with photos: staff see it open, marked by the tenant, with its photos; the contact is told', async () => {
      const { company, staff } = await portalCompany(t);
      const a = await tenantWithLease(staff);
      const b = await tenantWithLease(staff);
      const ta = await portalTenant(t, staff, a.tenantId);
      const tb = await portalTenant(t, staff, b.tenantId);

      const bad = await ta.post('/portal/maintenance-requests', {
        occupancy_id: a.leaseId,
        description: 'Leaking pipe',
        photos: [{ data: FAKE_PNG }],
      });
      expect(bad.statusCode).toBe(400);
      const tooMany = await ta.post('/portal/maintenance-requests', {
        occupancy_id: a.leaseId,
        description: 'Leaking pipe',
        photos: [1, 2, 3, 4].map(() => ({ data: PNG_1PX })),
      });
      expect(tooMany.statusCode).toBe(400);
      const big = Buffer.alloc(5 * 1024 * 1024 + 10);
      Buffer.from(PNG_1PX, 'base64').copy(big);
      const tooBig = await ta.post('/portal/maintenance-requests', {
        occupancy_id: a.leaseId,
        description: 'Leaking pipe',
        photos: [{ data: big.toString('base64') }],
      });
      expect(tooBig.statusCode).toBe(400);

      const created = expectStatus(
        await ta.post('/portal/maintenance-requests', {
          occupancy_id: a.leaseId,
          description: 'Leaking pipe under the sink',
          priority: 'high',
          photos: [
            { name: 'sink.png', data: `data:image/png;base64,${PNG_1PX}` },
            { name: 'floor.png', data: PNG_1PX },
          ],
        }),
        201,
      ).json<{ id: number; status: string; photos: { id: number }[] }>();
      expect(created).toMatchObject({
        status: 'open',
        photos: [{ id: expect.any(Number) }, { id: expect.any(Number) }],
      });

      const rows = expectStatus(await staff.get('/maintenance_requests?q=Leaking'), 200).json<
        Record<string, unknown>[]
      >();
      const row = rows.find((r) => r.id === created.id);
      expect(row).toMatchObject({
        status: 'open',
        submitted_by_tenant: true,
        tenant_id: a.tenantId,
        vendor_id: null,
      });
      const photos = expectStatus(await staff.get(`/maintenance_requests/${created.id}/photos`), 200).json<
        { id: number }[]
      >();
      expect(photos).toHaveLength(2);
      const img = expectStatus(
        await staff.get(`/maintenance_requests/${created.id}/photos/${photos[0]!.id}`),
        200,
      );
      expect(img.headers['content-type']).toBe('image/png');
      expect(img.rawPayload.equals(Buffer.from(PNG_1PX, 'base64'))).toBe(true);
      const mail = await t.database.query<{ to: string; channel: string; body: string }>(
        `SELECT "to", channel, body FROM messages WHERE kind = 'maintenance_request'`,
      );
      expect(mail).toHaveLength(1);
      expect(mail[0]).toMatchObject({ to: `office${company.id}@example.com`, channel: 'email' });
      expect(mail[0]!.body).toContain('Leaking pipe under the sink');

      // the other tenant sees neither the request nor its photos
      expect(expectStatus(await tb.get('/portal/maintenance-requests'), 200).json()).toEqual([]);
      expect(
        (await tb.get(`/portal/maintenance-requests/${created.id}/photos/${photos[0]!.id}`)).statusCode,
      ).toBe(404);
      expectStatus(await ta.get(`/portal/maintenance-requests/${created.id}/photos/${photos[0]!.id}`), 200);

      // staff close it; the tenant follows its status
      const record = expectStatus(await staff.get(`/maintenance_requests/${created.id}`), 200).json<
        Record<string, unknown>
      >();
      const vendor = expectStatus(
        await staff.post('/vendors', {
          name: 'Pipes Ltd',
          phone: '+256772000111',
          service_offered: 'Plumbing',
        }),
        201,
      ).json<{ id: number }>();
      const closed = await staff.put(`/maintenance_requests/${created.id}`, {
        unit_id: record.unit_id,
        tenant_id: record.tenant_id,
        request_date: record.request_date,
        description: record.description,
        priority: record.priority,
        estimated_cost: 50_000,
        vendor_id: vendor.id,
        status: 'closed',
        version: record.version,
      });
      expect(closed.statusCode, closed.body).toBe(200);
      const mine = expectStatus(await ta.get('/portal/maintenance-requests'), 200).json<
        { id: number; status: string }[]
      >();
      expect(mine).toEqual([expect.objectContaining({ id: created.id, status: 'closed' })]);
    });
  });

  describe('addresses another account signs in with (issue 23)', () => {
    /** A company's editor, signed in. */
    const editorOf = async (companyId: number) => {
      const editor = await buildUser(t.database, { company_id: companyId, roles: ['editor'] });
      const c = new TestClient(t.app);
      expectStatus(await c.login(editor.email, editor.password), 200);
      return c;
    };
    let seq = 0;
    const newTenant = async (staff: TestClient, email: string, phone: string) =>
      expectStatus(
        await staff.post(
          '/tenants',
          validTenant({ first_name: 'Sam', last_name: `Same${++seq}`, email, phone }),
        ),
        201,
      ).json<{ id: number }>().id;
    /** An invitation's message as the company's log shows it (the link's token hidden). */
    const invitationSeen = async (admin: TestClient, tenantId: number, messageId: number) => {
      const rows = expectStatus(await admin.get(`/messages?tenant_id=${tenantId}`), 200).json<
        Record<string, unknown>[]
      >();
      const m = rows.find((r) => r.id === messageId);
      return { kind: m?.kind, channel: m?.channel, status: m?.status, subject: m?.subject, body: m?.body };
    };

    it('invites a tenant whose e-mail or phone another company’s account uses as any other; only the link’s holder learns it', async () => {
      const A = await portalCompany(t, 'Alpha Homes');
      const B = await portalCompany(t, 'Bravo Homes');
      const aTenant = await tenantWithLease(A.staff);
      await portalTenant(t, A.staff, aTenant.tenantId);
      const editor = await editorOf(B.company.id);
      const ids = {
        fresh: await newTenant(editor, 'fresh.person@example.com', '+256772400001'),
        // another company's staff (its e-mail in capitals) and another company's tenant
        staffElsewhere: await newTenant(editor, A.admin.email.toUpperCase(), '+256772400002'),
        tenantElsewhere: await newTenant(editor, aTenant.email, aTenant.phone),
      };
      const seen: Record<string, unknown> = {};
      for (const [name, id] of Object.entries(ids)) {
        for (const channel of ['sms', 'email'] as const) {
          const res = await editor.post(`/tenants/${id}/invite`, { channel });
          expect(res.statusCode, `${name} ${channel}: ${res.body}`).toBe(201);
          const body = res.json<{ portal_status: string; expires_at: string; message_id: number }>();
          const expires = new Date(body.expires_at).getTime() - Date.now();
          const answer = {
            keys: Object.keys(body).sort(),
            portal_status: body.portal_status,
            days: Math.round(expires / 86_400_000),
            message: await invitationSeen(B.staff, id, body.message_id),
            status: await portalStatus(editor, id),
          };
          seen[`${name} ${channel}`] = answer;
          expect(answer, `${name} ${channel}`).toEqual(seen[`fresh ${channel}`]);
        }
      }
      expect(seen['fresh email']).toMatchObject({ portal_status: 'invited', days: 7, status: 'invited' });

      // the links: the fresh address's works; the others tell their holder why not, and stay unused
      const accept = async (id: number, password = PORTAL_PASSWORD) =>
        (await anonymous()).post('/portal/auth/accept', {
          token: tokenOf(await invitationLink(t, id)),
          password,
        });
      expectStatus(await accept(ids.fresh), 200);
      for (const id of [ids.staffElsewhere, ids.tenantElsewhere]) {
        for (let i = 0; i < 2; i++) {
          const refused = await accept(id);
          expect(refused.statusCode).toBe(409);
          expect(refused.json()).toMatchObject({
            code: 'duplicate',
            error: portalMessages.invitationAddressTaken,
          });
        }
        expect(await portalStatus(editor, id)).toBe('invited');
      }
      // the address stays its owner's: A's admin and A's tenant still sign in with it
      expect((await new TestClient(t.app).login(A.admin.email, A.admin.password)).statusCode).toBe(200);
      const aLogin = await (
        await anonymous()
      ).post('/portal/auth/login', { login: aTenant.email, password: PORTAL_PASSWORD });
      expect(aLogin.json().user.tenant_id).toBe(aTenant.tenantId);

      // by SMS to a phone no one uses, the tenant whose e-mail is A's admin's gets in, by its phone only
      expectStatus(await editor.post(`/tenants/${ids.staffElsewhere}/invite`, { channel: 'sms' }), 201);
      expectStatus(await accept(ids.staffElsewhere), 200);
      const c = await anonymous();
      expectStatus(
        await c.post('/portal/auth/login', { login: '+256772400002', password: PORTAL_PASSWORD }),
        200,
      );
      expect(
        (await c.post('/portal/auth/login', { login: A.admin.email, password: PORTAL_PASSWORD })).statusCode,
      ).toBe(401);

      // in the editor's own company an account may be named: its staff's e-mail, another tenant's
      const own = await newTenant(editor, B.admin.email, '+256772400003');
      const sameCompany = await editor.post(`/tenants/${own}/invite`, { channel: 'email' });
      expect(sameCompany.statusCode).toBe(409);
      expect(sameCompany.json()).toMatchObject({ code: 'duplicate', error: portalMessages.addressTaken });
      const twin = await newTenant(editor, 'fresh.person@example.com', '+256772400004');
      expect((await editor.post(`/tenants/${twin}/invite`, { channel: 'email' })).statusCode).toBe(409);
    });

    it('takes a new e-mail or phone only with the code sent to it, answering alike whoever else uses it', async () => {
      const A = await portalCompany(t, 'Alpha Homes');
      const B = await portalCompany(t, 'Bravo Homes');
      const aTenant = await tenantWithLease(A.staff);
      await portalTenant(t, A.staff, aTenant.tenantId);
      const b = await tenantWithLease(B.staff);
      const tenant = await portalTenant(t, B.staff, b.tenantId);
      const b2 = await tenantWithLease(B.staff);
      const byPhone = await portalTenant(t, B.staff, b2.tenantId);

      type Me = { tenant: { email: string | null; phone: string; version: number }; pending: unknown[] };
      const change = async (client: TestClient, field: 'email' | 'phone', value: string) => {
        const me = expectStatus(await client.get('/portal/me'), 200).json<Me>();
        const res = await client.put('/portal/me', { version: me.tenant.version, [field]: value });
        expect(res.statusCode, `${field} ${value}: ${res.body}`).toBe(200);
        const after = res.json<Me>();
        const messages = await t.database.query<{
          kind: string;
          channel: string;
          subject: string | null;
          body: string;
        }>(`SELECT kind, channel, subject, body FROM messages WHERE "to" = $1 AND kind = 'sign_in_code'`, [
          field === 'email' ? value.toLowerCase() : value,
        ]);
        expect(messages, `a code to ${value}`).toHaveLength(1);
        const wrong = await client.post('/portal/me/confirm', { code: '000000' });
        return {
          // what the tenant sees: nothing saved yet, the new address pending
          saved: after.tenant[field] === me.tenant[field],
          version: after.tenant.version - me.tenant.version,
          pending: after.pending,
          // what the company's message log keeps: the same text, the code hidden
          message: { ...messages[0], body: messages[0]?.body.replace(/\d{6}/, '••••••') },
          wrong: { status: wrong.statusCode, body: wrong.json() },
        };
      };
      const strip = (seen: Awaited<ReturnType<typeof change>>, value: string) =>
        JSON.parse(
          JSON.stringify(seen)
            .replaceAll(value, 'ADDRESS')
            .replace(/"expires_at":"[^"]+"/g, '"expires_at":"T"'),
        );

      const emails = {
        fresh: 'new.me@example.com',
        staffElsewhere: A.admin.email,
        tenantElsewhere: aTenant.email.toUpperCase(),
        staffHere: B.admin.email,
      };
      const first = strip(await change(tenant, 'email', emails.fresh), emails.fresh);
      expect(first).toMatchObject({
        saved: true,
        version: 1,
        pending: [{ field: 'email', value: 'ADDRESS', expires_at: 'T' }],
        wrong: {
          status: 400,
          body: { code: 'validation_failed', fields: { code: portalMessages.addressCodeWrong } },
        },
      });
      for (const [name, value] of Object.entries(emails).slice(1)) {
        expect(strip(await change(tenant, 'email', value), value.toLowerCase()), name).toEqual(first);
      }
      const phones = { fresh: '+256772400011', tenantElsewhere: aTenant.phone };
      const firstPhone = strip(await change(byPhone, 'phone', phones.fresh), phones.fresh);
      expect(firstPhone).toMatchObject({ saved: true, pending: [{ field: 'phone' }] });
      expect(strip(await change(byPhone, 'phone', phones.tenantElsewhere), phones.tenantElsewhere)).toEqual(
        firstPhone,
      );

      // the taken one's code (only its holder has it) says so, and changes nothing
      const taken = await byPhone.post('/portal/me/confirm', { code: await addressCode(aTenant.phone) });
      expect(taken.statusCode).toBe(409);
      expect(taken.json()).toMatchObject({ code: 'duplicate', error: portalMessages.addressTaken });
      expect(expectStatus(await byPhone.get('/portal/me'), 200).json<Me>().tenant.phone).toBe(b2.phone);
      const aIn = await (
        await anonymous()
      ).post('/portal/auth/login', { login: aTenant.phone, password: PORTAL_PASSWORD });
      expect(aIn.json().user.tenant_id).toBe(aTenant.tenantId);

      // a free address's code puts it in: the record and the sign-in both
      const me = expectStatus(await tenant.get('/portal/me'), 200).json<Me>();
      expectStatus(
        await tenant.put('/portal/me', { version: me.tenant.version, email: 'New.Me@Example.com' }),
        200,
      );
      const done = expectStatus(
        await tenant.post('/portal/me/confirm', { code: await addressCode('new.me@example.com') }),
        200,
      ).json<Me>();
      expect(done.tenant.email).toBe('new.me@example.com');
      expect(done.pending).toEqual([]);
      const c = await anonymous();
      expectStatus(
        await c.post('/portal/auth/login', { login: 'new.me@example.com', password: PORTAL_PASSWORD }),
        200,
      );
      expect(
        (await c.post('/portal/auth/login', { login: b.email, password: PORTAL_PASSWORD })).statusCode,
      ).toBe(401);
      // a code works once
      expect(
        (await tenant.post('/portal/me/confirm', { code: await addressCode('new.me@example.com') }))
          .statusCode,
      ).toBe(400);
    });

    it('sets an invitation’s password by the staff rules: strength and the common-password list', async () => {
      const { staff } = await portalCompany(t);
      const a = await tenantWithLease(staff);
      expectStatus(await staff.post(`/tenants/${a.tenantId}/invite`, { channel: 'email' }), 201);
      const token = tokenOf(await invitationLink(t, a.tenantId));
      const c = await anonymous();
      const common = await c.post('/portal/auth/accept', { token, password: '12345678' });
      expect(common.statusCode).toBe(400);
      expect(common.json()).toMatchObject({
        code: 'validation_failed',
        fields: { password: securityMessages.passwordCommon },
      });
      // its own name and e-mail do not make a strong one
      const named = await c.post('/portal/auth/accept', { token, password: a.email });
      expect(named.statusCode).toBe(400);
      expect(named.json().fields.password).toMatch(/^This password is too easy to guess\./);
      // the link is still good for a strong one
      expectStatus(await c.post('/portal/auth/accept', { token, password: PORTAL_PASSWORD }), 200);
    });

    it('locks the account, not the spelling: five wrong codes by e-mail lock its phone and its staff sign-in', async () => {
      const { staff } = await portalCompany(t);
      const a = await tenantWithLease(staff);
      await portalTenant(t, staff, a.tenantId);
      const c = await anonymous();
      expect((await c.post('/portal/auth/code', { login: a.email, channel: 'email' })).statusCode).toBe(202);
      const code = await latestCode(t, a.tenantId);
      const wrong = code === '000000' ? '111111' : '000000';
      for (let i = 0; i < 5; i++)
        expect((await c.post('/portal/auth/code/verify', { login: a.email, code: wrong })).statusCode).toBe(
          401,
        );
      // the phone, in any writing, with the right password: locked as well
      for (const login of [a.phone, `0${a.phone.slice(4)}`]) {
        const locked = await c.post('/portal/auth/login', { login, password: PORTAL_PASSWORD });
        expect(locked.statusCode, login).toBe(429);
        expect(locked.json().code).toBe('account_locked');
      }
      // the staff sign-in with its e-mail counts on the same account (it refuses tenants anyway)
      expect((await new TestClient(t.app).login(a.email, PORTAL_PASSWORD)).json().code).toBe(
        'account_locked',
      );
      // and the other way round: failures at the staff sign-in lock the portal's
      await t.database.query('DELETE FROM login_attempts');
      for (let i = 0; i < 5; i++) await new TestClient(t.app).login(a.email, 'wrong-password');
      expect(
        (await c.post('/portal/auth/login', { login: a.phone, password: PORTAL_PASSWORD })).statusCode,
      ).toBe(429);
    });
  });
});
