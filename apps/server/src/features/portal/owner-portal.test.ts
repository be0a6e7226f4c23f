import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addMonths,
  ownerPortalMessages,
  type OwnerPortalMe,
  type OwnerStatementAnswer,
  type OwnerPortalPropertyAnswer,
} from '@kodi/domain';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { TestClient } from '../../test/client.ts';
import { buildUser } from '../../test/factories.ts';
import { validTenant, validUnit } from '../../test/entities.ts';
import { expectStatus } from '../../test/rent-cycle.ts';
import { PORTAL_PASSWORD, portalCompany, portalTenant, tokenOf } from '../../test/portal.ts';

type Row = Record<string, unknown>;

/**
 * Issue 27, the owner portal: owners invited by staff sign in as tenants do (password or one-time
 * code) and see only the properties they own a share of: units let and vacant, this month's rent due
 * and collected, tenants in arrears by name and amount (never a tenant's phone or e-mail).
 */
describe(`owner portal (${testDriver})`, () => {
  let t: TestContext;
  let staff: TestClient;
  let stranger: TestClient;
  let companyId: number;
  const ids: Record<string, number> = {};
  // the company's day (Africa/Kampala, the default): after 21:00 UTC it is already tomorrow there
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Kampala' }).format(new Date());
  const monthStart = `${today.slice(0, 7)}-01`;
  const lastMonth = addMonths(monthStart, -1);
  const tenantEmail = 'arrears.tenant@example.com';
  const tenantPhone = '+256772999111';

  const make = async (c: TestClient, path: string, body: Row): Promise<Row & { id: number }> =>
    expectStatus(await c.post(path, body), 201).json<Row & { id: number }>();
  const anonymous = async () => {
    const c = new TestClient(t.app);
    await c.get('/auth/csrf-token');
    return c;
  };
  const inviteLink = async (ownerId: number, channel: 'email' | 'sms' = 'email') => {
    expectStatus(await staff.post(`/owners/${ownerId}/invite`, { channel }), 201);
    const rows = await t.database.query<{ body: string }>(
      `SELECT body FROM messages WHERE kind = 'invitation' ORDER BY id DESC LIMIT 1`,
    );
    const link = /https?:\/\/\S+\/owner\/welcome\?token=[\w%-]+/.exec(rows[0]?.body ?? '')?.[0];
    if (!link) throw new Error(`no invitation for owner ${ownerId}`);
    return link;
  };
  const signedInOwner = async (ownerId: number) => {
    const c = await anonymous();
    const res = expectStatus(
      await c.post('/portal/auth/accept', {
        token: tokenOf(await inviteLink(ownerId)),
        password: PORTAL_PASSWORD,
      }),
      200,
    );
    return Object.assign(c, { user: res.json<{ user: Row }>().user });
  };

  beforeAll(async () => {
    t = await setupApp({ publicUrl: 'https://kodi.example' });
    const a = await portalCompany(t, 'Agency A');
    staff = a.staff;
    companyId = a.company.id;
    stranger = (await portalCompany(t, 'Agency B')).staff;

    for (const name of ['Acacia Court', 'Baobab House', 'Cedar Flats'])
      ids[name] = (await make(staff, '/properties', { name, address: `${name} road` })).id;
    ids.strangers = (await make(stranger, '/properties', { name: 'Elsewhere', address: 'far' })).id;
    ids.grace = (
      await make(staff, '/owners', {
        first_name: 'Grace',
        last_name: 'Owner',
        email: 'grace.owner@example.com',
        phone: '0772 555 001',
      })
    ).id;
    ids.firm = (
      await make(staff, '/owners', { company_name: 'Other Holdings', email: 'firm@example.com' })
    ).id;
    ids.noEmail = (await make(staff, '/owners', { company_name: 'Quiet Ltd' })).id;
    ids.strangerOwner = (
      await make(stranger, '/owners', { company_name: 'B Owner', email: 'b@example.com' })
    ).id;
    // Grace: all of Acacia, half of Baobab; the firm: the other half and all of Cedar
    const shares = async (property: string, owners: [number, number][]) =>
      expectStatus(
        await staff.put(
          `/properties/${ids[property]}/owners`,
          owners.map(([owner_id, share_percent]) => ({ owner_id, share_percent })),
        ),
        200,
      );
    await shares('Acacia Court', [[ids.grace, 100]]);
    await shares('Baobab House', [
      [ids.grace, 50],
      [ids.firm, 50],
    ]);
    await shares('Cedar Flats', [[ids.firm, 100]]);

    // Acacia: two units, one let since last month at 1,000,000 (last month unpaid, 400,000 paid this month)
    const let1 = await make(staff, '/units', validUnit({ name: 'A1', property_id: ids['Acacia Court'] }));
    await make(staff, '/units', validUnit({ name: 'A2', property_id: ids['Acacia Court'] }));
    const tenant = await make(
      staff,
      '/tenants',
      validTenant({ first_name: 'Amos', last_name: 'Arrears', email: tenantEmail, phone: tenantPhone }),
    );
    ids.tenant = tenant.id;
    const lease = await make(staff, '/occupancy', {
      tenant_id: tenant.id,
      unit_id: let1.id,
      rent_cycle: 'monthly',
      start_date: lastMonth,
      rate: 1_000_000,
    });
    await make(staff, '/payments', {
      tenant_id: tenant.id,
      unit_id: let1.id,
      occupancy_id: lease.id,
      payment_date: today,
      amount_paid: 400_000,
      payment_method: 'cash',
      status: 'completed',
      effective_start_date: lastMonth,
      effective_end_date: addMonths(lastMonth, 1),
    });
    // Cedar (the firm's): a tenant in arrears Grace must never see
    const cedarUnit = await make(staff, '/units', validUnit({ name: 'C1', property_id: ids['Cedar Flats'] }));
    const other = await make(
      staff,
      '/tenants',
      validTenant({
        first_name: 'Hidden',
        last_name: 'Tenant',
        email: 'hidden@example.com',
        phone: '+256772999222',
      }),
    );
    await make(staff, '/occupancy', {
      tenant_id: other.id,
      unit_id: cedarUnit.id,
      rent_cycle: 'monthly',
      start_date: lastMonth,
      rate: 700_000,
    });
  }, 120_000);
  afterAll(async () => {
    await t?.app.close();
  });

  it('lets admins and company admins invite an owner (a link to /owner/welcome), not editors or viewers, in their own company only', async () => {
    const res = expectStatus(
      await staff.post(`/owners/${ids.firm}/invite`, { channel: 'email' }),
      201,
    ).json<Row>();
    expect(res.portal_status).toBe('invited');
    const msg = await t.database.query<{ to: string; subject: string; tenant_id: number | null }>(
      `SELECT "to", subject, tenant_id FROM messages WHERE kind = 'invitation' ORDER BY id DESC LIMIT 1`,
    );
    expect(msg[0]).toEqual({
      to: 'firm@example.com',
      subject: 'Agency A: your owner portal',
      tenant_id: null,
    });
    expect((await staff.get(`/owners/${ids.firm}`)).json<Row>().portal_status).toBe('invited');

    const companyAdmin = new TestClient(t.app);
    const ca = await buildUser(t.database, { company_id: companyId, roles: ['company_admin'] });
    expectStatus(await companyAdmin.login(ca.email, ca.password), 200);
    expectStatus(await companyAdmin.post(`/owners/${ids.firm}/invite`, { channel: 'email' }), 201);
    for (const role of ['editor', 'viewer'] as const) {
      const u = await buildUser(t.database, { company_id: companyId, roles: [role] });
      const c = new TestClient(t.app);
      expectStatus(await c.login(u.email, u.password), 200);
      expectStatus(await c.post(`/owners/${ids.firm}/invite`, { channel: 'email' }), 403);
      expectStatus(await c.post(`/owners/${ids.firm}/portal-access`, { enabled: false }), 403);
    }
    // another company's owner: 404; an owner with no e-mail: said so
    expectStatus(await stranger.post(`/owners/${ids.firm}/invite`, { channel: 'email' }), 404);
    const none = expectStatus(await staff.post(`/owners/${ids.noEmail}/invite`, { channel: 'email' }), 400);
    expect(none.json<Row>().error).toBe(ownerPortalMessages.noEmail);
  });

  it('signs the owner in by invitation, password and one-time code (the same rules as tenants)', async () => {
    const c = await signedInOwner(Number(ids.grace));
    expect(c.user).toMatchObject({ roles: ['owner'], owner_id: ids.grace, company_id: companyId });
    expect((await staff.get(`/owners/${ids.grace}`)).json<Row>().portal_status).toBe('active');
    expectStatus(await staff.post(`/owners/${ids.grace}/invite`, { channel: 'email' }), 409);

    const byPassword = await anonymous();
    expectStatus(
      await byPassword.post('/portal/auth/login', { login: '0772 555 001', password: PORTAL_PASSWORD }),
      200,
    );
    expectStatus(await byPassword.get('/owner-portal/me'), 200);
    const wrong = await anonymous();
    const refused = expectStatus(
      await wrong.post('/portal/auth/login', { login: 'grace.owner@example.com', password: 'nope-nope-1' }),
      401,
    );
    expect(refused.json<Row>().code).toBe('invalid_credentials');

    const byCode = await anonymous();
    expectStatus(
      await byCode.post('/portal/auth/code', { login: 'GRACE.owner@example.com', channel: 'email' }),
      202,
    );
    const sent = await t.database.query<{ body: string }>(
      `SELECT body FROM messages WHERE kind = 'sign_in_code' AND "to" = 'grace.owner@example.com' ORDER BY id DESC LIMIT 1`,
    );
    expect(sent[0]?.body).toMatch(/Agency A owner portal sign-in code is \d{6}/);
    const code = /\b(\d{6})\b/.exec(sent[0]?.body ?? '')?.[1];
    expectStatus(
      await byCode.post('/portal/auth/code/verify', { login: 'grace.owner@example.com', code }),
      200,
    );
    expectStatus(await byCode.get('/owner-portal/me'), 200);

    // staff sign-in refuses an owner's account
    const asStaff = new TestClient(t.app);
    const res = await asStaff.login('grace.owner@example.com', PORTAL_PASSWORD);
    expect(res.json<Row>().error).toBe('This is an owner account: sign in at the owner portal.');
  });

  it('shows the owner its own properties only: occupancy, its share, this month’s rent due and collected, arrears', async () => {
    const c = await anonymous();
    expectStatus(
      await c.post('/portal/auth/login', { login: 'grace.owner@example.com', password: PORTAL_PASSWORD }),
      200,
    );
    const me = expectStatus(await c.get('/owner-portal/me'), 200).json<OwnerPortalMe>();
    expect(me.owner).toEqual({ id: ids.grace, name: 'Grace Owner' });
    expect(me.month).toBe(today.slice(0, 7));
    expect(me.properties.map((p) => [p.name, p.share_percent])).toEqual([
      ['Acacia Court', 100],
      ['Baobab House', 50],
    ]);
    const acacia = me.properties[0];
    // last month's rent unpaid, and this month's once its day has passed, less the 400,000 paid
    const arrears = today === monthStart ? 600_000 : 1_600_000;
    expect(acacia).toMatchObject({
      units: 2,
      occupied_units: 1,
      vacant_units: 1,
      rent_due: 1_000_000,
      collected: 400_000,
      collected_percent: 40,
      arrears,
    });
    expect(me.totals).toEqual({ rent_due: 1_000_000, collected: 400_000, arrears });

    const one = expectStatus(await c.get(`/owner-portal/properties/${ids['Acacia Court']}`), 200);
    const answer = one.json<OwnerPortalPropertyAnswer>();
    expect(answer.arrears).toEqual([
      {
        property_id: ids['Acacia Court'],
        property_name: 'Acacia Court',
        unit_name: 'A1',
        tenant_name: 'Amos Arrears',
        amount: arrears,
      },
    ]);
    const all = expectStatus(await c.get('/owner-portal/arrears'), 200);
    expect(all.json<{ rows: Row[] }>().rows.map((r) => r.tenant_name)).toEqual(['Amos Arrears']);
    // a tenant's contact details are never in an owner's answers
    for (const body of [one.body, all.body, JSON.stringify(me)]) {
      expect(body).not.toContain(tenantEmail);
      expect(body).not.toContain(tenantPhone);
      expect(body).not.toContain('772999111');
      expect(body).not.toMatch(/"(email|phone)"/);
      expect(body).not.toContain('Hidden');
    }

    // another owner's property, another company's, a missing one: 404
    for (const id of [ids['Cedar Flats'], ids.strangers, 999_999])
      expect((await c.get(`/owner-portal/properties/${id}`)).statusCode, String(id)).toBe(404);
  });

  it('keeps the owner portal, the tenant portal and the staff routes apart', async () => {
    const owner = await anonymous();
    expectStatus(
      await owner.post('/portal/auth/login', { login: 'grace.owner@example.com', password: PORTAL_PASSWORD }),
      200,
    );
    const tenant = await portalTenant(t, staff, Number(ids.tenant));

    for (const path of ['/portal/me', '/portal/payments', '/properties', '/owners', `/owners/${ids.grace}`])
      expect((await owner.get(path)).statusCode, path).toBe(403);
    expect((await owner.post(`/owners/${ids.firm}/invite`, { channel: 'email' })).statusCode).toBe(403);
    for (const path of [
      '/owner-portal/me',
      '/owner-portal/arrears',
      `/owner-portal/properties/${ids['Acacia Court']}`,
      '/owner-portal/statement',
      '/owner-portal/statement.pdf',
      '/owner-portal/payouts',
    ])
      expect((await tenant.get(path)).statusCode, path).toBe(403);
    expect((await staff.get('/owner-portal/me')).statusCode).toBe(403);
    expect((await new TestClient(t.app).get('/owner-portal/me')).statusCode).toBe(401);
  });

  it('gives the owner its own statement (JSON and PDF) and payouts only; tenants and staff are refused', async () => {
    // the agency pays Grace 150,000 of the 400,000 collected, and the firm an advance (above its available)
    const paid = expectStatus(
      await staff.post('/owner-payouts', {
        owner_id: ids.grace,
        date: today,
        amount: '150000',
        method: 'cash',
        reference: 'GRACE-1',
      }),
      201,
    ).json<Row>();
    expectStatus(
      await staff.post('/owner-payouts', {
        owner_id: ids.firm,
        date: today,
        amount: '50000',
        method: 'bank',
        reference: 'FIRM-1',
        override: true,
        reason: 'Secret advance',
      }),
      201,
    );
    const owner = await anonymous();
    expectStatus(
      await owner.post('/portal/auth/login', { login: 'grace.owner@example.com', password: PORTAL_PASSWORD }),
      200,
    );
    const q = `from=${monthStart}&to=${today}`;
    const mine = expectStatus(await owner.get(`/owner-portal/statement?${q}`), 200);
    const statement = mine.json<OwnerStatementAnswer>();
    // the staff's statement of the same owner and period, figure for figure
    expect(statement).toEqual(
      expectStatus(await staff.get(`/owners/${ids.grace}/statement?${q}`), 200).json(),
    );
    expect(statement).toMatchObject({ owner_id: ids.grace, from: monthStart, to: today });
    expect(statement.properties.map((p) => p.property_name)).toEqual(['Acacia Court', 'Baobab House']);
    expect(statement.properties[0]).toMatchObject({
      collected: '400000.00',
      payouts: '150000.00',
      closing_balance: '250000.00',
    });
    expect(mine.body).not.toContain('Cedar');
    expect(mine.body).not.toContain(tenantEmail);
    // the default period is this month to today
    expect(expectStatus(await owner.get('/owner-portal/statement'), 200).json<Row>()).toMatchObject({
      from: monthStart,
      to: today,
    });
    expectStatus(await owner.get(`/owner-portal/statement?from=${today}&to=${lastMonth}`), 400);
    expectStatus(await owner.get('/owner-portal/statement?to=2026-13-01'), 400);

    const pdf = expectStatus(await owner.get(`/owner-portal/statement.pdf?${q}`), 200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    const payouts = expectStatus(await owner.get('/owner-portal/payouts'), 200);
    expect(payouts.headers['x-total-count']).toBe('1');
    expect(payouts.json()).toEqual([
      { id: paid.id, date: today, amount: '150000.00', method: 'cash', reference: 'GRACE-1' },
    ]);
    expect(payouts.body).not.toContain('FIRM-1');
    expect(payouts.body).not.toContain('Secret advance');

    // staff (of this company or another) are refused; the tenant portal's refusal is in the next test
    for (const path of ['/owner-portal/statement', '/owner-portal/statement.pdf', '/owner-portal/payouts']) {
      expect((await staff.get(path)).statusCode, path).toBe(403);
      expect((await stranger.get(path)).statusCode, path).toBe(403);
      expect((await new TestClient(t.app).get(path)).statusCode, path).toBe(401);
    }
  });

  it('turns an owner’s access off (its sessions end, sign-in refused) and on again: admins and company admins only', async () => {
    const owner = await anonymous();
    expectStatus(
      await owner.post('/portal/auth/login', { login: 'grace.owner@example.com', password: PORTAL_PASSWORD }),
      200,
    );
    expectStatus(await stranger.post(`/owners/${ids.grace}/portal-access`, { enabled: false }), 404);
    const off = expectStatus(await staff.post(`/owners/${ids.grace}/portal-access`, { enabled: false }), 200);
    expect(off.json<Row>().portal_status).toBe('disabled');
    expect((await owner.get('/owner-portal/me')).statusCode).toBe(401);
    const again = await anonymous();
    const refused = await again.post('/portal/auth/login', {
      login: 'grace.owner@example.com',
      password: PORTAL_PASSWORD,
    });
    expect(refused.json<Row>()).toMatchObject({
      code: 'account_disabled',
      error: 'Portal access is turned off. Contact your property manager.',
    });
    expectStatus(await staff.post(`/owners/${ids.grace}/portal-access`, { enabled: true }), 200);
    expectStatus(
      await again.post('/portal/auth/login', { login: 'grace.owner@example.com', password: PORTAL_PASSWORD }),
      200,
    );
    // the audit log says what happened
    const audit = await t.database.query<{ summary: string }>(
      `SELECT summary FROM audit_entries WHERE entity = 'owners' AND record_id = $1 ORDER BY id`,
      [ids.grace],
    );
    expect(audit.map((a) => a.summary)).toEqual(
      expect.arrayContaining(['Invited to the owner portal by e-mail', 'Owner portal access turned off']),
    );
  });
});
