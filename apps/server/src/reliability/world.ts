/**
 * Shared fixtures of the reliability suite: valid bodies for all twelve entities, and a "world" of
 * companies whose records and signed-in users (one per role) the tests play against.
 */
import { expect } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { entities, errorCodes, type EntityName, type RoleName } from '@kodi/domain';
import type { TestContext } from '../test/harness.ts';
import { TestClient } from '../test/client.ts';
import { buildCompany, buildUser, type BuiltUser } from '../test/factories.ts';
import { validTenant, validUnit } from '../test/entities.ts';
import { operationsBody, type OperationsRefs } from '../test/operations-bodies.ts';

export type Body = Record<string, unknown>;

export const ROLES = ['admin', 'company_admin', 'editor', 'viewer'] as const satisfies readonly RoleName[];
export type Role = (typeof ROLES)[number];

/** The twelve entities of `packages/domain/src/entities/index.ts`, in their order. */
export const ENTITY_NAMES = Object.keys(entities) as EntityName[];
export const COMPANY_OWNED = ENTITY_NAMES.filter((e) => entities[e].scope === 'company');

/** The records of one company that bodies refer to. */
export type Refs = OperationsRefs & { occupancy_id: number };

let counter = 0;
/** A number no other body of this process has used (unique names and codes). */
export const nextN = () => ++counter;

/** A three-letter code from a number, away from the seeded ones ('QAA'.. for countries, 'XAA'.. for currencies). */
const letterCode = (n: number, first: number): string => {
  const v = (first * 676 + (n % (676 * 3))) % 17576;
  const l = (i: number) => String.fromCharCode(65 + i);
  return l(Math.floor(v / 676)) + l(Math.floor(v / 26) % 26) + l(v % 26);
};

export const validOccupancy = (refs: Refs, overrides: Body = {}): Body => ({
  tenant_id: refs.tenant_id,
  unit_id: refs.unit_id,
  start_date: '2025-01-01',
  rate: 1_500_000,
  ...overrides,
});

export const todayIso = () => new Date().toISOString().slice(0, 10);

export const validPayment = (refs: Refs, overrides: Body = {}): Body => ({
  tenant_id: refs.tenant_id,
  unit_id: refs.unit_id,
  payment_date: todayIso(),
  amount_paid: 1111,
  payment_method: 'mobilemoney',
  status: 'completed',
  effective_start_date: '2026-01-01',
  effective_end_date: '2026-01-31',
  payment_details: 'Rent',
  ...overrides,
});

/** A valid create body of any entity; `marker` is written into a text field every export shows. */
export const validBody = (entity: EntityName, refs: Refs, marker: string, n = nextN()): Body => {
  switch (entity) {
    case 'units':
      return validUnit({ name: `${marker} unit ${n}` });
    case 'tenants':
      return validTenant({ first_name: marker, last_name: `Tenant ${n}` });
    case 'occupancy':
      return validOccupancy(refs, { rate: 1000 + n });
    case 'payments':
      return validPayment(refs, { payment_details: `${marker} payment ${n}` });
    case 'maintenance_requests':
      return operationsBody('maintenance_requests', refs, n, { description: `${marker} request ${n}` });
    case 'expenses':
      return operationsBody('expenses', refs, n, { description: `${marker} expense ${n}` });
    case 'vendors':
      return operationsBody('vendors', refs, n, { name: `${marker} vendor ${n}` });
    case 'employees':
      return operationsBody('employees', refs, n, { first_name: marker, last_name: `Employee ${n}` });
    case 'commission_wages':
      return operationsBody('commission_wages', refs, n, { description: `${marker} wage ${n}` });
    case 'companies':
      return operationsBody('companies', refs, n, { name: `${marker} company ${n}` });
    case 'countries':
      return operationsBody('countries', refs, n, {
        country_code: letterCode(n, 16),
        country_name: `${marker} land ${n}`,
      });
    case 'currencies':
      return operationsBody('currencies', refs, n, {
        currency_code: letterCode(n, 23),
        currency_name: `${marker} dollar ${n}`,
      });
  }
};

/** A change every entity accepts on update (a text or a number), distinct per `n`. */
export const editOf = (entity: EntityName, n: number): Body => {
  switch (entity) {
    case 'units':
    case 'vendors':
    case 'companies':
      return { name: `Edited ${n}` };
    case 'tenants':
    case 'employees':
      return { last_name: `Edited ${n}` };
    case 'occupancy':
      return { rate: 2000 + n };
    case 'payments':
      return { payment_details: `Edited ${n}` };
    case 'maintenance_requests':
    case 'expenses':
    case 'commission_wages':
      return { description: `Edited ${n}` };
    case 'countries':
      return { country_name: `Edited ${n}` };
    case 'currencies':
      return { currency_name: `Edited ${n}` };
  }
};

/** The JSON error shape every 4xx and 5xx answer has: a non-empty message and a known code. */
export const errorShapeProblem = (res: LightMyRequestResponse): string | undefined => {
  if (!String(res.headers['content-type'] ?? '').includes('application/json')) {
    return `content-type ${String(res.headers['content-type'])}`;
  }
  let body: unknown;
  try {
    body = res.json();
  } catch {
    return 'body is not JSON';
  }
  const { error, code } = (body ?? {}) as { error?: unknown; code?: unknown };
  if (typeof error !== 'string' || error.trim() === '') return 'no error message';
  if (typeof code !== 'string' || !(code in errorCodes)) return `unknown code ${String(code)}`;
  return undefined;
};

export const created = async (client: TestClient, path: string, body: Body): Promise<Body> => {
  const res = await client.post(path, body);
  expect(res.statusCode, `${path}: ${res.body}`).toBe(201);
  return res.json() as Body;
};

/** One company with a user of each role signed in, and one record of each company-owned entity. */
export type CompanyWorld = {
  id: number;
  name: string;
  marker: string;
  users: Record<Role, BuiltUser>;
  clients: Record<Role, TestClient>;
  refs: Refs;
  /** one record of each entity, made by this company's admin (companies: the company itself). */
  records: Record<EntityName, number>;
};

export const signIn = async (t: TestContext, user: BuiltUser): Promise<TestClient> => {
  const c = new TestClient(t.app);
  const res = await c.login(user.email, user.password);
  expect(res.statusCode, res.body).toBe(200);
  return c;
};

export const buildWorld = async (t: TestContext, marker: string): Promise<CompanyWorld> => {
  const company = await buildCompany(t.database, { name: `${marker} Estates` });
  const users = {} as Record<Role, BuiltUser>;
  const clients = {} as Record<Role, TestClient>;
  for (const role of ROLES) {
    users[role] = await buildUser(t.database, { company_id: company.id, roles: [role], first_name: marker });
    clients[role] = await signIn(t, users[role]);
  }
  const admin = clients.admin;
  const id = async (entity: EntityName, body: Body) => Number((await created(admin, `/${entity}`, body)).id);
  const partial: Body = {};
  const refs = { occupancy_id: 0 } as Refs;
  refs.unit_id = await id('units', validBody('units', refs, marker));
  refs.other_unit_id = await id('units', validBody('units', refs, marker));
  refs.tenant_id = await id('tenants', validBody('tenants', refs, marker));
  refs.vendor_id = await id('vendors', validBody('vendors', refs, marker));
  refs.employee_id = await id('employees', validBody('employees', refs, marker));
  refs.occupancy_id = await id('occupancy', validBody('occupancy', refs, marker));
  partial.units = refs.unit_id;
  partial.tenants = refs.tenant_id;
  partial.vendors = refs.vendor_id;
  partial.employees = refs.employee_id;
  partial.occupancy = refs.occupancy_id;
  partial.companies = company.id;
  for (const entity of [
    'payments',
    'maintenance_requests',
    'expenses',
    'commission_wages',
    'countries',
    'currencies',
  ] as const) {
    partial[entity] = await id(entity, validBody(entity, refs, marker));
  }
  return {
    id: company.id,
    name: company.name,
    marker,
    users,
    clients,
    refs,
    records: partial as Record<EntityName, number>,
  };
};
