import type { TestContext } from './harness.ts';
import { TestClient } from './client.ts';
import { expectStatus } from './rent-cycle.ts';
import { buildCompany, buildUser } from './factories.ts';
import { validTenant, validUnit } from './entities.ts';

/**
 * The tenant portal's worlds for API tests (issue 19): a company's staff, its tenants with leases and
 * payments, their invitations read from the messages outbox, and their signed-in portal clients.
 */

let n = 0;

export const PORTAL_PASSWORD = 'tenant-pass-42';

/** The link of the latest invitation queued for the tenant (what the messages sender would deliver). */
export const invitationLink = async (t: TestContext, tenantId: number): Promise<string> => {
  const rows = await t.database.query<{ body: string }>(
    `SELECT body FROM messages WHERE tenant_id = $1 AND kind = 'invitation' ORDER BY id DESC LIMIT 1`,
    [tenantId],
  );
  const link = /https?:\/\/\S+\/portal\/welcome\?token=[\w%-]+/.exec(rows[0]?.body ?? '')?.[0];
  if (!link) throw new Error(`no invitation for tenant ${tenantId}`);
  return link;
};

export const tokenOf = (link: string): string =>
  decodeURIComponent(new URL(link).searchParams.get('token') ?? '');

/** The code of the latest sign-in code message queued for the tenant. */
export const latestCode = async (t: TestContext, tenantId: number): Promise<string | undefined> => {
  const rows = await t.database.query<{ body: string }>(
    `SELECT body FROM messages WHERE tenant_id = $1 AND kind = 'sign_in_code' ORDER BY id DESC LIMIT 1`,
    [tenantId],
  );
  return /\b(\d{6})\b/.exec(rows[0]?.body ?? '')?.[1];
};

/** A company with an admin (signed in), its contact e-mail set. */
export const portalCompany = async (t: TestContext, name?: string) => {
  const company = await buildCompany(t.database, name ? { name } : {});
  await t.database.query('UPDATE companies SET email = $2 WHERE id = $1', [
    company.id,
    `office${company.id}@example.com`,
  ]);
  const admin = await buildUser(t.database, { company_id: company.id, roles: ['admin'] });
  const staff = new TestClient(t.app);
  expectStatus(await staff.login(admin.email, admin.password), 200);
  return { company, admin, staff };
};

/** A tenant (own e-mail and phone), its unit, its lease from 2026-01-01 at 1,000,000 a month, and a payment. */
export const tenantWithLease = async (staff: TestClient, opts: { paid?: number } = {}) => {
  n += 1;
  const phone = `+2567721${String(10000 + n).slice(-5)}`;
  const unit = expectStatus(await staff.post('/units', validUnit({ name: `Portal unit ${n}` })), 201).json<{
    id: number;
  }>();
  const tenant = expectStatus(
    await staff.post(
      '/tenants',
      validTenant({ first_name: 'Tina', last_name: `Tenant${n}`, email: `tina${n}@example.com`, phone }),
    ),
    201,
  ).json<{ id: number; email: string; phone: string }>();
  const lease = expectStatus(
    await staff.post('/occupancy', {
      tenant_id: tenant.id,
      unit_id: unit.id,
      rent_cycle: 'monthly',
      start_date: '2026-01-01',
      rate: 1_000_000,
    }),
    201,
  ).json<{ id: number }>();
  const payment = expectStatus(
    await staff.post('/payments', {
      tenant_id: tenant.id,
      unit_id: unit.id,
      occupancy_id: lease.id,
      payment_date: '2026-01-02',
      amount_paid: opts.paid ?? 1_000_000,
      payment_method: 'cash',
      status: 'completed',
      effective_start_date: '2026-01-01',
      effective_end_date: '2026-01-31',
    }),
    201,
  ).json<{ id: number }>();
  return {
    tenantId: tenant.id,
    email: `tina${n}@example.com`,
    phone,
    unitId: unit.id,
    leaseId: lease.id,
    paymentId: payment.id,
  };
};

/** Invites the tenant by e-mail, accepts the link with a password: its signed-in portal client. */
export const portalTenant = async (t: TestContext, staff: TestClient, tenantId: number) => {
  expectStatus(await staff.post(`/tenants/${tenantId}/invite`, { channel: 'email' }), 201);
  const token = tokenOf(await invitationLink(t, tenantId));
  const client = new TestClient(t.app);
  await client.get('/auth/csrf-token');
  const res = expectStatus(
    await client.post('/portal/auth/accept', { token, password: PORTAL_PASSWORD }),
    200,
  );
  return Object.assign(client, { user: res.json<{ user: { id: number } }>().user });
};
