import { expect } from 'vitest';
import type { RoleName } from '@kodi/domain';
import type { TestContext } from '../../test/harness.ts';
import { TestClient } from '../../test/client.ts';
import { buildCompany, buildUser } from '../../test/factories.ts';
import { validTenant, validUnit } from '../../test/entities.ts';
import { backdateOwnership } from '../../test/owners.ts';

/**
 * The setup the utilities' API tests share (billing, shared bills, the service charge): a company in
 * KES with a signed-in admin, its users by role, records made through the real routes, properties
 * (owned or not), units let from a date, and the journal lines of a charge.
 */

export type Row = Record<string, unknown>;
export type JournalLine = { role: string; debit: string; credit: string };

/** A unit, and when let, its tenant and lease. */
export type LetUnit = { unit: number; tenant?: number; lease?: number };

export type UtilityTestCompany = {
  companyId: number;
  admin: TestClient;
  /** a new signed-in user of the company (or another) with this role */
  as: (role: RoleName, companyId?: number) => Promise<TestClient>;
  /** a record made by POST (201), its answer */
  make: (path: string, body: Row, client?: TestClient) => Promise<Row>;
  property: (name: string, address?: string) => Promise<number>;
  /** a property wholly owned by a new owner since `since` */
  ownedProperty: (name: string, since: string) => Promise<number>;
  /** a unit of the property, let from `start` (none: vacant) to a new tenant at 50,000 a month */
  letUnit: (
    propertyId: number,
    name: string,
    start: string | null,
    more?: { unit?: Row; tenant?: Row; lease?: Row },
  ) => Promise<LetUnit>;
  /** the journal lines of a charge's entry, by account role */
  chargeLines: (chargeId: number) => Promise<JournalLine[]>;
};

export const utilityTestCompany = async (t: TestContext, name = 'A Agency'): Promise<UtilityTestCompany> => {
  const companyId = (await buildCompany(t.database, { name, currency_code: 'KES' })).id;
  const as = async (role: RoleName, id = companyId) => {
    const u = await buildUser(t.database, { company_id: id, roles: [role] });
    const c = new TestClient(t.app);
    expect((await c.login(u.email, u.password)).statusCode).toBe(200);
    return c;
  };
  const admin = await as('admin');
  const make = async (path: string, body: Row, c = admin): Promise<Row> => {
    const res = await c.post(path, body);
    if (res.statusCode !== 201) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
    return res.json<Row>();
  };
  const property = async (propertyName: string, address = `1 ${propertyName} road`) =>
    Number((await make('/properties', { name: propertyName, address })).id);
  const ownedProperty = async (propertyName: string, since: string) => {
    const owner = Number((await make('/owners', { first_name: 'Olga', last_name: 'Owner' })).id);
    const owned = await property(propertyName);
    const res = await admin.put(`/properties/${String(owned)}/owners`, [
      { owner_id: owner, share_percent: 100 },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    await backdateOwnership(t, companyId, owned, since);
    return owned;
  };
  const letUnit: UtilityTestCompany['letUnit'] = async (propertyId, unitName, start, more = {}) => {
    const unit = Number(
      (await make('/units', { ...validUnit(), name: unitName, property_id: propertyId, ...more.unit })).id,
    );
    if (!start) return { unit };
    const tenant = Number(
      (
        await make(
          '/tenants',
          validTenant({
            first_name: `T${unitName}`,
            email: `${unitName.toLowerCase()}.${String(companyId)}@example.com`,
            ...more.tenant,
          }),
        )
      ).id,
    );
    const lease = Number(
      (
        await make('/occupancy', {
          tenant_id: tenant,
          unit_id: unit,
          rent_cycle: 'monthly',
          start_date: start,
          rate: 50_000,
          ...more.lease,
        })
      ).id,
    );
    return { unit, tenant, lease };
  };
  const chargeLines = async (chargeId: number): Promise<JournalLine[]> =>
    t.database.query<JournalLine>(
      `SELECT a.role, l.debit::text AS debit, l.credit::text AS credit
         FROM journal_entries e JOIN journal_lines l ON l.company_id = e.company_id AND l.entry_id = e.id
         JOIN ledger_accounts a ON a.company_id = l.company_id AND a.id = l.account_id
        WHERE e.company_id = $1 AND e.source = 'charge' AND e.source_id = $2 ORDER BY l.id`,
      [companyId, chargeId],
    );
  return { companyId, admin, as, make, property, ownedProperty, letUnit, chargeLines };
};
