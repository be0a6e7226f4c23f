import type { LightMyRequestResponse } from 'fastify';
import type { RentCycleRunAnswer, RoleName } from '@kodi/domain';
import type { TestContext } from './harness.ts';
import { TestClient } from './client.ts';
import { buildCompany, buildUser } from './factories.ts';
import { validTenant, validUnit } from './entities.ts';

/**
 * Companies, users, leases and payments through the real routes, for the rent cycle's API tests
 * (company settings, charges, the daily run).
 */

export const expectStatus = (res: LightMyRequestResponse, status: number): LightMyRequestResponse => {
  if (res.statusCode !== status) throw new Error(`expected ${status}, got ${res.statusCode}: ${res.body}`);
  return res;
};

/** A company with a signed-in user of these roles; `as` signs in another user of the same company. */
export const companyWith = async (t: TestContext, roles: RoleName[] = ['admin']) => {
  const company = await buildCompany(t.database);
  const signIn = async (r: RoleName[]) => {
    const user = await buildUser(t.database, { company_id: company.id, roles: r });
    const client = new TestClient(t.app);
    expectStatus(await client.login(user.email, user.password), 200);
    return Object.assign(client, { user });
  };
  const client = await signIn(roles);
  return { company, client, signIn };
};

let n = 0;

/** A unit, a tenant (with an e-mail and a phone) and their lease. */
export const createLease = async (
  client: TestClient,
  terms: Record<string, unknown>,
  names: { first?: string; last?: string; unit?: string; email?: string | null } = {},
) => {
  n += 1;
  const unit = expectStatus(
    await client.post('/units', validUnit({ name: names.unit ?? `Unit ${n}` })),
    201,
  ).json<{ id: number }>();
  const tenant = expectStatus(
    await client.post(
      '/tenants',
      validTenant({
        first_name: names.first ?? 'Grace',
        last_name: names.last ?? `Tenant${n}`,
        email: names.email === undefined ? `tenant${n}@example.com` : names.email,
      }),
    ),
    201,
  ).json<{ id: number }>();
  const lease = expectStatus(
    await client.post('/occupancy', {
      tenant_id: tenant.id,
      unit_id: unit.id,
      rent_cycle: 'monthly',
      ...terms,
    }),
    201,
  ).json<{ id: number; version: number }>();
  return { id: lease.id, version: lease.version, tenant_id: tenant.id, unit_id: unit.id };
};

export const pay = async (
  client: TestClient,
  lease: { tenant_id: number; unit_id: number; id: number },
  payment_date: string,
  amount_paid: number,
) =>
  expectStatus(
    await client.post('/payments', {
      tenant_id: lease.tenant_id,
      unit_id: lease.unit_id,
      occupancy_id: lease.id,
      payment_date,
      amount_paid,
      payment_method: 'cash',
      effective_start_date: payment_date,
      effective_end_date: payment_date,
    }),
    201,
  ).json<{ id: number }>();

/** Changes the company's settings (reading its version first). */
export const setSettings = async (client: TestClient, changes: Record<string, unknown>) => {
  const current = expectStatus(await client.get('/company-settings'), 200).json<{ version: number }>();
  return expectStatus(await client.put('/company-settings', { ...changes, version: current.version }), 200);
};

export const lateFee = (p: Record<string, unknown> = {}) => ({
  enabled: true,
  grace_days: 5,
  kind: 'flat',
  amount: 50_000,
  repeat: 'once',
  cap: null,
  ...p,
});

export type RunAnswer = RentCycleRunAnswer;

export const runCycle = async (client: TestClient, as_of?: string): Promise<RunAnswer> =>
  expectStatus(await client.post('/rent-cycle/run', as_of ? { as_of } : {}), 200).json<RunAnswer>();

export type LedgerEntryAnswer = {
  date: string;
  kind: string;
  description: string;
  amount: number;
  charge_id: number | null;
  category: string | null;
};

export const ledgerOf = async (client: TestClient, leaseId: number, asOf: string) =>
  expectStatus(await client.get(`/occupancy/${leaseId}/ledger?as_of=${asOf}`), 200).json<{
    balance: number;
    entries: LedgerEntryAnswer[];
  }>();
