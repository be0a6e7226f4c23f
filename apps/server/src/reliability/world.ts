/**
 * Shared fixtures of the reliability suite: a valid body and an edit for every entity of the list (made
 * from its definition, or its own below where its rules need one), and a "world" of companies whose
 * records and signed-in users (one per role) the tests play against.
 */
import { expect } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import {
  addDays,
  entities,
  entityList,
  errorCodes,
  todayIso,
  type EntityDefinition,
  type EntityName,
  type Field,
  type RoleName,
} from '@kodi/domain';
import { getTableName, is } from 'drizzle-orm';
import { PgTable, getTableConfig } from 'drizzle-orm/pg-core';
import * as schema from '../db/schema.ts';
import type { TestContext } from '../test/harness.ts';
import { TestClient } from '../test/client.ts';
import { buildCompany, buildUser, type BuiltUser } from '../test/factories.ts';
import { validTenant } from '../test/entities.ts';
import { validCompany, validCountry, validCurrency, type OperationsRefs } from '../test/operations-bodies.ts';

export type Body = Record<string, unknown>;

export const ROLES = ['admin', 'company_admin', 'editor', 'viewer'] as const satisfies readonly RoleName[];
export type Role = (typeof ROLES)[number];

/** The entities of `packages/domain/src/entities/index.ts`, in their order. */
export const ENTITY_NAMES: readonly string[] = entityList.map((def) => def.name);
export const COMPANY_OWNED: readonly string[] = entityList
  .filter((def) => def.scope === 'company')
  .map((def) => def.name);

/** An entity of the list by its name (a test naming one the list does not have fails here). */
export const entityNamed = (name: string): EntityDefinition => {
  const def = entityList.find((d) => d.name === name);
  if (!def) throw new Error(`No entity ${name} in the list.`);
  return def;
};

/**
 * The records of one company that bodies refer to, by the name of the field that refers to them
 * (`unit_id`; `other_unit_id`: a second one).
 */
export type Refs = OperationsRefs & { occupancy_id: number } & Record<string, number>;

let counter = 0;
/** A number no other body of this process has used (unique names and codes). */
export const nextN = () => ++counter;

export const validOccupancy = (refs: Refs, overrides: Body = {}): Body => ({
  tenant_id: refs.tenant_id,
  unit_id: refs.unit_id,
  start_date: '2025-01-01',
  rate: 1_500_000,
  ...overrides,
});

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

/** Every date of a body from the definition: past, and not in the months the tests' reports look at. */
const SAMPLE_DATE = '2025-01-10';

/** A value a field's rules accept, for a body made from the definition; `undefined`: left out. */
const sampleValue = (
  f: Field,
  refs: Readonly<Record<string, number>>,
  marker: string,
  n: number,
): unknown => {
  switch (f.kind) {
    case 'text':
    case 'textarea':
      return `${marker} ${f.label} ${n}`;
    case 'email':
      return `record${n}@example.com`;
    case 'phone':
      return '+256 772 000111';
    case 'money':
    case 'number':
      return 1000 + n;
    case 'integer':
      return 1;
    case 'percent':
      return 10;
    case 'date':
      return SAMPLE_DATE;
    case 'enum':
    case 'boolean':
      return f.defaultValue ?? f.options?.values[0] ?? true;
    case 'reference':
      return refs[f.name];
    case 'image':
    case 'file':
      return undefined;
  }
};

/** The fields a body from the definition fills: the required ones, the texts (the marker) and references. */
const sampled = (def: EntityDefinition): Field[] =>
  def.fields.filter(
    (f) =>
      f.name in def.shape &&
      !f.readOnly &&
      f.form !== false &&
      (f.required || f.kind === 'text' || f.kind === 'textarea' || f.kind === 'reference'),
  );

/** A three-letter code from a number, away from the seeded ones ('QAA'.. for countries, 'XAA'.. for currencies). */
const letterCode = (n: number, first: number): string => {
  const v = (first * 676 + (n % (676 * 3))) % 17576;
  const l = (i: number) => String.fromCharCode(65 + i);
  return l(Math.floor(v / 676)) + l(Math.floor(v / 26) % 26) + l(v % 26);
};

/** The bodies of the entities whose rules a body from the definition does not meet (patterns, codes). */
const ownBodies: Partial<Record<EntityName, (marker: string, n: number) => Body>> = {
  tenants: (marker, n) => validTenant({ first_name: marker, last_name: `Tenant ${n}` }),
  companies: (marker, n) => validCompany({ name: `${marker} company ${n}` }),
  countries: (marker, n) =>
    validCountry(n, { country_code: letterCode(n, 16), country_name: `${marker} land ${n}` }),
  currencies: (marker, n) =>
    validCurrency(n, { currency_code: letterCode(n, 23), currency_name: `${marker} dollar ${n}` }),
};

const bodyOf = (name: string): ((marker: string, n: number) => Body) | undefined =>
  (ownBodies as Partial<Record<string, (marker: string, n: number) => Body>>)[name];

const definitionOf = (entity: string | EntityDefinition) =>
  typeof entity === 'string' ? entityNamed(entity) : entity;

/**
 * A valid create body of any entity, the records it refers to taken from `refs`; `marker` is written
 * into its text fields (every list, export and the dashboard show some).
 */
export const validBody = (
  entity: string | EntityDefinition,
  refs: Readonly<Record<string, number>>,
  marker: string,
  n = nextN(),
): Body => {
  const def = definitionOf(entity);
  const own = bodyOf(def.name);
  if (own) return own(marker, n);
  // a tariff's blocks have a syntax of their own
  if (def.name === 'tariffs')
    return { name: `${marker} tariff ${n}`, kind: 'water', blocks: `10: ${n}; above: ${n + 1}` };
  const body: Body = {};
  for (const f of sampled(def)) {
    const value = sampleValue(f, refs, marker, n);
    if (value !== undefined) body[f.name] = value;
  }
  // a unit is let once at a time (issue 26): each lease of a body has a day of its own
  if (def.name === 'occupancy') {
    const day = addDays(LEASE_DAYS_FROM, n);
    // and an account number of its own (letters, digits and dashes: issue 29)
    Object.assign(body, { start_date: day, end_date: day, account_reference: `R${n}` });
  }
  // a meter is the unit's, in the unit's property; its readings go in date order (issue 28)
  if (def.name === 'meters') delete body.property_id;
  if (def.name === 'meter_readings') body.reading_date = addDays(SAMPLE_DATE, n);
  return body;
};

/** The first day of the one-day leases bodies make (a day each; before the months reports look at). */
const LEASE_DAYS_FROM = '2000-01-01';

/**
 * A change every entity accepts on update, distinct per `n`: its last text (lowercase, as some are
 * stored), or else its first amount.
 */
export const editOf = (entity: string | EntityDefinition, n: number): Body => {
  const def = definitionOf(entity);
  const writable = def.fields.filter((f) => f.name in def.shape && !f.readOnly && f.form !== false);
  const text = writable.filter((f) => f.kind === 'text' || f.kind === 'textarea').at(-1);
  if (text) return { [text.name]: `edited ${n}` };
  const amount = writable.find((f) => f.kind === 'money');
  if (amount) return { [amount.name]: 2000 + n };
  throw new Error(`${def.name}: no text or amount to edit.`);
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

/** One company with a user of each role signed in, and one record of each entity. */
export type CompanyWorld = {
  id: number;
  name: string;
  marker: string;
  users: Record<Role, BuiltUser>;
  clients: Record<Role, TestClient>;
  refs: Refs;
  /** one record of each entity, made by this company's admin (companies: the company itself). */
  records: Readonly<Record<string, number>>;
};

/** The id of the world's record of an entity. */
export const recordId = (world: CompanyWorld, entity: string): number => {
  const id = world.records[entity];
  if (id === undefined) throw new Error(`The world has no record of ${entity}.`);
  return id;
};

export const signIn = async (t: TestContext, user: BuiltUser): Promise<TestClient> => {
  const c = new TestClient(t.app);
  const res = await c.login(user.email, user.password);
  expect(res.statusCode, res.body).toBe(200);
  return c;
};

/**
 * The entities in the list's order, each moved after those its fields refer to (payments, whose lease
 * the server finds, come after occupancy by the list's order).
 */
const creationOrder = (defs: readonly EntityDefinition[]): EntityDefinition[] => {
  const order: EntityDefinition[] = [];
  const ready = (def: EntityDefinition) =>
    def.fields.every(
      (f) =>
        !f.ref ||
        f.ref.entity === def.name ||
        order.some((d) => d.name === f.ref?.entity) ||
        !defs.some((d) => d.name === f.ref?.entity),
    );
  while (order.length < defs.length) {
    const next = defs.find((def) => !order.includes(def) && ready(def));
    if (!next) throw new Error('The entities refer to one another in a circle.');
    order.push(next);
  }
  return order;
};

const need = (ids: Readonly<Record<string, number>>, key: string): number => {
  const id = ids[key];
  if (id === undefined) throw new Error(`The world has no ${key}.`);
  return id;
};

/**
 * A company, a signed-in user of each role, and one record of each entity of `defs` (the list by
 * default), each made from `validBody` by the company's admin; an entity that others refer to gets a
 * second record (`other_unit_id`).
 */
export const buildWorld = async (
  t: TestContext,
  marker: string,
  defs: readonly EntityDefinition[] = entityList,
): Promise<CompanyWorld> => {
  const company = await buildCompany(t.database, { name: `${marker} Estates` });
  const users = {} as Record<Role, BuiltUser>;
  const clients = {} as Record<Role, TestClient>;
  for (const role of ROLES) {
    users[role] = await buildUser(t.database, { company_id: company.id, roles: [role], first_name: marker });
    clients[role] = await signIn(t, users[role]);
  }
  const records: Record<string, number> = {};
  const byField: Record<string, number> = {};
  const references = defs.flatMap((def) => def.fields.filter((f) => f.ref));
  for (const def of creationOrder(defs)) {
    const make = async () =>
      Number((await created(clients.admin, `/${def.name}`, validBody(def, byField, marker))).id);
    const id = def === entities.companies ? company.id : await make();
    records[def.name] = id;
    const referring = references.filter((f) => f.ref?.entity === def.name);
    if (referring.length === 0) continue;
    const other = await make();
    for (const f of referring) {
      byField[f.name] = id;
      byField[`other_${f.name}`] = other;
    }
  }
  const refs: Refs = {
    ...byField,
    unit_id: need(byField, 'unit_id'),
    other_unit_id: need(byField, 'other_unit_id'),
    tenant_id: need(byField, 'tenant_id'),
    vendor_id: need(byField, 'vendor_id'),
    employee_id: need(byField, 'employee_id'),
    occupancy_id: need(records, 'occupancy'),
  };
  return { id: company.id, name: company.name, marker, users, clients, refs, records };
};

const tables = (Object.values(schema) as unknown[]).flatMap((v) => (is(v, PgTable) ? [v] : []));

/**
 * The world's records that another of its records refers to (by the schema's foreign keys, as the
 * records are read back): deleting one of them is `409 in_use`.
 */
export const referencedRecords = async (
  world: CompanyWorld,
  defs: readonly EntityDefinition[] = entityList,
): Promise<{ entity: string; id: number }[]> => {
  const rows = new Map<string, Body>();
  for (const def of defs) {
    const res = await world.clients.admin.get(`/${def.name}/${recordId(world, def.name)}`);
    rows.set(def.name, res.json() as Body);
  }
  const referenced = new Set<string>();
  for (const table of tables) {
    const child = rows.get(getTableName(table));
    for (const fk of child ? getTableConfig(table).foreignKeys : []) {
      const { columns, foreignColumns, foreignTable } = fk.reference();
      const parentName = getTableName(foreignTable);
      const parent = rows.get(parentName);
      if (!child || !parent || parent === child) continue;
      const refers = columns.every((c, i) => {
        const value = child[c.name];
        return value !== null && value !== undefined && value === parent[foreignColumns[i]?.name ?? ''];
      });
      if (refers) referenced.add(parentName);
    }
  }
  return [...referenced].map((entity) => ({ entity, id: recordId(world, entity) }));
};
