import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { TestClient } from '../../test/client.ts';
import { buildUser } from '../../test/factories.ts';
import { PNG_1PX, FAKE_PNG } from '../../test/entities.ts';
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

      // five wrong tries use a code up
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
        const res = expectStatus(await tenant.put('/portal/me', { version, phone }), 200);
        expect(res.json<{ tenant: { phone: string } }>().tenant.phone, phone).toBe(E164);
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
      const stale = await tenant.put('/portal/me', {
        version: me.tenant.version,
        emergency_contact_name: 'Bob',
      });
      expect(stale.statusCode).toBe(409);
      expect(
        (await tenant.put('/portal/me', { version: changed.tenant.version, company_id: 9 })).statusCode,
      ).toBe(400);
      // an e-mail another account signs in with: 409, and the record is left as it was
      const taken = await tenant.put('/portal/me', {
        version: changed.tenant.version,
        email: admin.email,
        emergency_contact_name: 'Carl',
      });
      expect(taken.statusCode).toBe(409);
      expect(taken.json().code).toBe('duplicate');
      const after = expectStatus(await tenant.get('/portal/me'), 200).json<{
        tenant: { emergency_contact_name: string; version: number };
      }>();
      expect(after.tenant).toMatchObject({ emergency_contact_name: 'Ann', version: changed.tenant.version });
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
});
