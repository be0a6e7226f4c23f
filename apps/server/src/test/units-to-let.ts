import { expect } from 'vitest';
import { addMonths, defaultCompanySettings, localTime } from '@kodi/domain';
import type { TestContext } from './harness.ts';
import type { TestClient } from './client.ts';
import { buildCompany } from './factories.ts';
import { signInAs } from './sign-in.ts';
import { validTenant, validUnit } from './entities.ts';

/**
 * A company with units of these names and its admin signed in, and `lease`: a new tenant (a phone of
 * its own) let one of the units from a month ago (the answer of `POST /occupancy`, to be checked).
 */
export const unitsToLet = async (t: TestContext, names: readonly string[]) => {
  const companyId = (await buildCompany(t.database, { name: 'Kampala Homes' })).id;
  const admin = await signInAs(t, companyId, ['admin']);
  const units: Record<string, number> = {};
  for (const name of names) {
    const res = await admin.post('/units', validUnit({ name }));
    expect(res.statusCode, res.body).toBe(201);
    units[name] = res.json<{ id: number }>().id;
  }
  const today = localTime(defaultCompanySettings.timezone).date;
  const start = addMonths(today, -1);
  let phones = 0;
  const lease = async (client: TestClient, unit: string, extra: Record<string, unknown> = {}) => {
    const tenant = await client.post(
      '/tenants',
      validTenant({ email: null, phone: `+2567721234${String(++phones).padStart(2, '0')}` }),
    );
    expect(tenant.statusCode, tenant.body).toBe(201);
    return client.post('/occupancy', {
      tenant_id: tenant.json<{ id: number }>().id,
      unit_id: units[unit],
      start_date: start,
      rate: 500000,
      ...extra,
    });
  };
  return { companyId, admin, units, lease, today, start };
};
