import type { TestClient } from '../../test/client.ts';
import { validTenant, validUnit } from '../../test/entities.ts';

/** Leases and payments through the real routes, for the ledger and arrears API tests. */
export const leaseFixtures = (client: TestClient) => {
  let n = 0;
  const created = async (res: { statusCode: number; json: () => unknown; body: string }) => {
    if (res.statusCode !== 201) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
    return res.json() as { id: number };
  };
  const lease = async (
    first: string,
    last: string,
    unitName: string,
    terms: Record<string, unknown>,
  ): Promise<{ id: number; tenant_id: number; unit_id: number }> => {
    n += 1;
    const unit = await created(await client.post('/units', validUnit({ name: unitName })));
    const tenant = await created(
      await client.post(
        '/tenants',
        validTenant({ first_name: first, last_name: last, email: `t${n}@example.com` }),
      ),
    );
    const occ = await created(
      await client.post('/occupancy', { tenant_id: tenant.id, unit_id: unit.id, ...terms }),
    );
    return { id: occ.id, tenant_id: tenant.id, unit_id: unit.id };
  };
  const pay = async (
    l: { tenant_id: number; unit_id: number },
    payment_date: string,
    amount_paid: number,
    extra: Record<string, unknown> = {},
  ) =>
    created(
      await client.post('/payments', {
        tenant_id: l.tenant_id,
        unit_id: l.unit_id,
        payment_date,
        amount_paid,
        payment_method: 'cash',
        effective_start_date: payment_date,
        effective_end_date: payment_date,
        ...extra,
      }),
    );
  return { lease, pay };
};
