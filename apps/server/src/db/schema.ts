import { sql, type SQL } from 'drizzle-orm';
import {
  bigint,
  boolean,
  char,
  check,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  varchar,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import {
  auditAction,
  entities,
  type EntityDefinition,
  chargeCategory,
  chargeKinds,
  depositStatus,
  messageChannel,
  messageStatus,
  deliveryStatus,
  templateChannel,
  templateKind,
  employeeStatus,
  expenseCategory,
  feeKind,
  meterKind,
  meterUnit,
  readingFlag,
  readingStatus,
  occupancyStatus,
  payoutMethod,
  paymentMethod,
  paymentStatus,
  priority,
  propertyType,
  rentCycle,
  requestStatus,
  roleNames,
  LANGUAGES,
  sex,
  tenantStatus,
  unitStatus,
  unitType,
  wageCategory,
  wageStatus,
} from '@kodi/domain';
import { listIndexes, searchColumn, searchIndex, searchTextColumn } from './list-indexes.ts';

/** created_at, updated_at and version: every record has them (optimistic locking on `version`). */
const stamps = () => ({
  created_at: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp({ withTimezone: true }).notNull().defaultNow(),
  version: integer().notNull().default(1),
});

/** NUMERIC(14,2): money, never a float. */
const money = () => numeric({ precision: 14, scale: 2, mode: 'string' });

/** `col IN ('a','b')`: a status-like column holds only the spec's values. */
const oneOf = (col: AnyPgColumn, values: readonly string[]): SQL =>
  sql`${col} IN (${sql.join(
    values.map((v) => sql.raw(`'${v.replace(/'/g, "''")}'`)),
    sql`, `,
  )})`;

const definitionOf = (table: string): EntityDefinition => {
  const def = (Object.values(entities) as EntityDefinition[]).find((e) => e.name === table);
  if (!def) throw new Error(`${table}: no entity of that name`);
  return def;
};

/** The indexes of an entity's lists (sorts, filters, searches), from its definition in @kodi/domain. */
const listsOf = (table: string, t: Record<string, AnyPgColumn>) => listIndexes(table, t, definitionOf(table));

/** The text an entity's list search reads (db/list-indexes.ts), from its definition's `search`. */
const searchOf = (table: string, computed: Record<string, string> = {}) =>
  searchColumn(definitionOf(table), computed);

/** A person's full name, as tenants and employees keep it. */
const FULL_NAME = `first_name || ' ' || last_name`;

/** A name kept from the row it references (db/derived.ts keeps it): lists sort and search by it. */
const copied = () => text();

/** A record's key in the system it was imported from: unique per company where given (docs/decisions.md, Import). */
const externalRefColumn = () => varchar({ length: 100 });

/** `first_name last_name`, kept by PostgreSQL with the row: lists search by it. */
const fullName = () => text().generatedAlwaysAs(sql.raw(FULL_NAME));

// ---------------------------------------------------------------- global tables

export const countries = pgTable(
  'countries',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    country_code: char({ length: 3 }).notNull().unique(),
    country_name: varchar({ length: 255 }).notNull(),
    phone_code: integer().notNull().default(0),
    search_text: searchOf('countries'),
    ...stamps(),
  },
  (t) => [check('countries_code_format', sql`${t.country_code} ~ '^[A-Z]{3}$'`), ...listsOf('countries', t)],
);

export const currencies = pgTable(
  'currencies',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    currency_code: char({ length: 3 }).notNull().unique(),
    currency_name: varchar({ length: 255 }).notNull(),
    symbol: varchar({ length: 10 }).notNull(),
    decimal_places: integer().notNull().default(2),
    country: char({ length: 3 }).references(() => countries.country_code, { onDelete: 'restrict' }),
    notes: varchar({ length: 1000 }),
    search_text: searchOf('currencies'),
    ...stamps(),
  },
  (t) => [
    check('currencies_code_format', sql`${t.currency_code} ~ '^[A-Z]{3}$'`),
    check('currencies_decimal_places', sql`${t.decimal_places} BETWEEN 0 AND 10`),
    index('currencies_country_idx').on(t.country),
    ...listsOf('currencies', t),
  ],
);

export const companies = pgTable(
  'companies',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    name: varchar({ length: 255 }).notNull(),
    email: varchar({ length: 255 }),
    phone_number: varchar({ length: 50 }),
    website: varchar({ length: 255 }),
    address: text(),
    industry_type: varchar({ length: 255 }),
    currency_code: char({ length: 3 }).references(() => currencies.currency_code, { onDelete: 'restrict' }),
    /** its country: an imported phone number without its +code is read as one of this country's */
    country_code: char({ length: 3 }).references(() => countries.country_code, { onDelete: 'restrict' }),
    status: boolean().notNull().default(true),
    description: text(),
    /** its default message templates were written (lib/message-templates.ts: once, lazily) */
    templates_seeded: boolean().notNull().default(false),
    /** the language of a tenant or owner with none of its own (issue 30: en, sw or fr) */
    default_language: varchar({ length: 2 }).notNull().default('en'),
    search_text: searchOf('companies'),
    ...stamps(),
  },
  (t) => [
    index('companies_currency_idx').on(t.currency_code),
    index('companies_country_idx').on(t.country_code),
    check('companies_default_language_known', oneOf(t.default_language, LANGUAGES)),
    ...listsOf('companies', t),
  ],
);

export const roles = pgTable(
  'roles',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    name: varchar({ length: 50 }).notNull().unique(),
    readable_name: varchar({ length: 100 }).notNull(),
    ...stamps(),
  },
  (t) => [check('roles_name_known', oneOf(t.name, roleNames))],
);

export const users = pgTable(
  'users',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    /** staff always have one; a tenant's portal account may sign in by phone alone */
    email: varchar({ length: 255 }),
    first_name: varchar({ length: 255 }).notNull(),
    last_name: varchar({ length: 255 }).notNull(),
    company_id: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'restrict' }),
    active: boolean().notNull().default(true),
    country_code: char({ length: 3 }).references(() => countries.country_code, { onDelete: 'restrict' }),
    password_hash: text(),
    last_login_at: timestamp({ withTimezone: true }),
    /** a tenant's portal account (role `tenant`): its one tenant record, in its company */
    tenant_id: integer(),
    /** an owner's portal account (role `owner`, issue 27): its one owner record, in its company */
    owner_id: integer(),
    /** a portal account (a tenant's or an owner's): its phone in E.164 (it signs in with it or its e-mail) */
    phone: varchar({ length: 20 }),
    /** the TOTP secret (base32) as lib/secrets.ts seals it; set at setup, in force once confirmed */
    mfa_secret: text(),
    /** when the second factor was confirmed: null while it is off (or only set up) */
    mfa_enabled_at: timestamp({ withTimezone: true }),
    /** the last TOTP time step used: a code is never accepted twice */
    mfa_last_step: bigint({ mode: 'number' }),
    /** the staff app's language (issue 30): en, sw or fr; null: English */
    language: varchar({ length: 2 }),
    /** what the users list's `q` matches (and the audit log's, by its user): the e-mail, lowercased */
    search_text: searchTextColumn(['email']),
    ...stamps(),
  },
  (t) => [
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
    check('users_language_known', oneOf(t.language, LANGUAGES)),
    searchIndex('users', t.search_text),
    uniqueIndex('users_phone_idx').on(t.phone),
    uniqueIndex('users_tenant_idx').on(t.company_id, t.tenant_id),
    foreignKey({
      name: 'users_tenant_fk',
      columns: [t.company_id, t.tenant_id],
      foreignColumns: [tenants.company_id, tenants.id],
    }).onDelete('restrict'),
    uniqueIndex('users_owner_idx').on(t.company_id, t.owner_id),
    foreignKey({
      name: 'users_owner_fk',
      columns: [t.company_id, t.owner_id],
      foreignColumns: [owners.company_id, owners.id],
    }).onDelete('restrict'),
    check('users_one_portal_record', sql`${t.tenant_id} IS NULL OR ${t.owner_id} IS NULL`),
    index('users_company_idx').on(t.company_id),
    index('users_country_idx').on(t.country_code),
  ],
);

export const userRoles = pgTable(
  'user_roles',
  {
    user_id: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    role_id: integer()
      .notNull()
      .references(() => roles.id, { onDelete: 'restrict' }),
    ...stamps(),
  },
  (t) => [primaryKey({ columns: [t.user_id, t.role_id] }), index('user_roles_role_idx').on(t.role_id)],
);

/** Server-side sessions: the cookie holds a random id, the table its SHA-256. */
export const sessions = pgTable(
  'sessions',
  {
    id: varchar({ length: 64 }).primaryKey(),
    user_id: integer().references(() => users.id, { onDelete: 'restrict' }),
    csrf_token: varchar({ length: 64 }).notNull(),
    captcha_answer: varchar({ length: 64 }),
    captcha_created_at: timestamp({ withTimezone: true }),
    /** Google sign-in in progress: JSON of the PKCE verifier, state and nonce (one use). */
    oauth_state: text(),
    last_seen_at: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** the number the sessions list names it by (the id itself never leaves the server) */
    ref: integer().notNull().generatedByDefaultAsIdentity(),
    /** where and with what it was opened: the sessions list shows them */
    ip_address: varchar({ length: 64 }),
    user_agent: varchar({ length: 500 }),
    /** a sign-in waiting for its second factor: the user whose password was right, until when */
    mfa_user_id: integer().references(() => users.id, { onDelete: 'cascade' }),
    mfa_expires_at: timestamp({ withTimezone: true }),
    ...stamps(),
  },
  (t) => [
    index('sessions_user_idx').on(t.user_id),
    index('sessions_last_seen_idx').on(t.last_seen_at),
    unique('sessions_ref_key').on(t.ref),
    index('sessions_mfa_user_idx').on(t.mfa_user_id),
  ],
);

/** A user's recovery codes for the second factor: single-use, kept as their SHA-256. */
export const mfaRecoveryCodes = pgTable(
  'mfa_recovery_codes',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    user_id: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    code_hash: varchar({ length: 64 }).notNull(),
    used_at: timestamp({ withTimezone: true }),
    ...stamps(),
  },
  (t) => [unique('mfa_recovery_codes_user_hash_key').on(t.user_id, t.code_hash)],
);

/** Failed sign-ins per e-mail (known or not), for the 5-failure, 15-minute lock. */
export const loginAttempts = pgTable('login_attempts', {
  email: varchar({ length: 255 }).primaryKey(),
  failed_count: integer().notNull().default(0),
  locked_until: timestamp({ withTimezone: true }),
  last_failed_at: timestamp({ withTimezone: true }),
  ...stamps(),
});

/** Fixed-window rate-limit counters, shared by every server process. */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: varchar({ length: 200 }).notNull(),
    window_start: timestamp({ withTimezone: true }).notNull(),
    count: integer().notNull().default(0),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.key, t.window_start] }),
    index('rate_limits_window_idx').on(t.window_start),
  ],
);

export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    user_id: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    token_hash: varchar({ length: 64 }).notNull().unique(),
    expires_at: timestamp({ withTimezone: true }).notNull(),
    used_at: timestamp({ withTimezone: true }),
    ...stamps(),
  },
  (t) => [index('password_reset_tokens_user_idx').on(t.user_id)],
);

/**
 * The tenant portal's one-time secrets (issue 19): invitation links (7 days, one use) and sign-in codes
 * (6 digits, 10 minutes, 5 tries); codes confirming a new e-mail or phone of the account (issue 23,
 * `email_change`, `phone_change`). Only their SHA-256 is kept.
 */
export const portalTokens = pgTable(
  'portal_tokens',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    user_id: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    kind: varchar({ length: 20 }).notNull(),
    token_hash: varchar({ length: 64 }).notNull(),
    expires_at: timestamp({ withTimezone: true }).notNull(),
    used_at: timestamp({ withTimezone: true }),
    attempts: integer().notNull().default(0),
    /** where it was sent, as the account signs in with it (lowercased e-mail, E.164 phone): an
     * invitation's address, a new address to confirm */
    address: varchar({ length: 255 }),
    /** a change of address: the tenant record's new value, as the tenant wrote it */
    value: varchar({ length: 255 }),
    ...stamps(),
  },
  (t) => [
    check('portal_tokens_kind_known', oneOf(t.kind, ['invitation', 'code', 'email_change', 'phone_change'])),
    index('portal_tokens_hash_idx').on(t.token_hash),
    index('portal_tokens_user_idx').on(t.user_id, t.kind),
  ],
);

// ---------------------------------------------------------------- company-owned tables
// Keyed (company_id, id), `id` an identity unique on its own; references between them are composite,
// so the database itself refuses a reference to another company's record.

const companyId = () =>
  integer()
    .notNull()
    .references(() => companies.id, { onDelete: 'restrict' });
const ownedId = () => integer().notNull().generatedByDefaultAsIdentity();

export const properties = pgTable(
  'properties',
  {
    company_id: companyId(),
    id: ownedId(),
    name: varchar({ length: 255 }).notNull(),
    address: text().notNull(),
    property_type: varchar({ length: 20 }).notNull().default('residential'),
    manager_name: varchar({ length: 255 }),
    manager_phone: varchar({ length: 50 }),
    description: text(),
    /** the service charge per let unit per month (issue 28): null, the company's; 0, none */
    service_charge: money(),
    // its units and those occupied, kept by the generated triggers of db/derived.ts
    units_count: integer().notNull().default(0),
    occupied_count: integer().notNull().default(0),
    /** occupied units per 100 units (none without units), kept by PostgreSQL with the counts */
    occupancy_percent: numeric({ precision: 4, scale: 1, mode: 'string' }).generatedAlwaysAs(
      sql`CASE WHEN units_count > 0 THEN round(occupied_count * 100.0 / units_count, 1) END`,
    ),
    external_ref: externalRefColumn(),
    search_text: searchOf('properties'),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.id] }),
    unique('properties_id_key').on(t.id),
    check('properties_type_known', oneOf(t.property_type, propertyType.values)),
    check('properties_service_charge_not_negative', sql`${t.service_charge} >= 0`),
    unique('properties_external_ref_key').on(t.company_id, t.external_ref),
    ...listsOf('properties', t),
  ],
);

/** An owner's name: the company's, else the person's (issue 27). */
const OWNER_NAME = `COALESCE(company_name, first_name || ' ' || last_name)`;

/** The owners of properties the company manages for them (issue 27): a person or a company. */
export const owners = pgTable(
  'owners',
  {
    company_id: companyId(),
    id: ownedId(),
    first_name: varchar({ length: 255 }),
    last_name: varchar({ length: 255 }),
    company_name: varchar({ length: 255 }),
    /** E.164, read as a number of the company's country (features/owners/server.ts) */
    phone: varchar({ length: 15 }),
    email: varchar({ length: 255 }),
    tax_id: varchar({ length: 50 }),
    payout_method: varchar({ length: 20 }),
    payout_account_name: varchar({ length: 255 }),
    payout_account_number: varchar({ length: 50 }),
    payout_bank: varchar({ length: 255 }),
    /** the owner's language (issue 30): its portal and what is sent or printed for it; null: the company's */
    language: varchar({ length: 2 }),
    notes: text(),
    external_ref: externalRefColumn(),
    display_name: text().generatedAlwaysAs(sql.raw(OWNER_NAME)),
    search_text: searchOf('owners', { display_name: OWNER_NAME }),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.id] }),
    unique('owners_id_key').on(t.id),
    unique('owners_external_ref_key').on(t.company_id, t.external_ref),
    check('owners_payout_method_known', oneOf(t.payout_method, payoutMethod.values)),
    check('owners_language_known', oneOf(t.language, LANGUAGES)),
    check(
      'owners_named',
      sql`${t.company_name} IS NOT NULL OR (${t.first_name} IS NOT NULL AND ${t.last_name} IS NOT NULL)`,
    ),
    ...listsOf('owners', t),
  ],
);

/**
 * Who owned a property from a day on (issue 27): one set a day it was changed, its shares in
 * `property_owner_shares`; a set without shares is the company's own property from that day. The set
 * in force on a day is the latest from that day or before. Deleting the property deletes its history.
 */
export const propertyOwnerSets = pgTable(
  'property_owner_sets',
  {
    company_id: companyId(),
    id: ownedId(),
    property_id: integer().notNull(),
    effective_from: date({ mode: 'string' }).notNull(),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.id] }),
    unique('property_owner_sets_day_key').on(t.company_id, t.property_id, t.effective_from),
    foreignKey({
      columns: [t.company_id, t.property_id],
      foreignColumns: [properties.company_id, properties.id],
    }).onDelete('cascade'),
  ],
);

/** An owner's share of a property in one set (percent, to the hundredth; a set's add up to 100). */
export const propertyOwnerShares = pgTable(
  'property_owner_shares',
  {
    company_id: companyId(),
    set_id: integer().notNull(),
    owner_id: integer().notNull(),
    share_percent: numeric({ precision: 5, scale: 2, mode: 'string' }).notNull(),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.set_id, t.owner_id] }),
    foreignKey({
      columns: [t.company_id, t.set_id],
      foreignColumns: [propertyOwnerSets.company_id, propertyOwnerSets.id],
    }).onDelete('cascade'),
    foreignKey({
      columns: [t.company_id, t.owner_id],
      foreignColumns: [owners.company_id, owners.id],
    }).onDelete('restrict'),
    check('property_owner_shares_range', sql`${t.share_percent} > 0 AND ${t.share_percent} <= 100`),
    index('property_owner_shares_owner_idx').on(t.company_id, t.owner_id),
  ],
);

/**
 * A payout of an owner's funds (issue 27): posted Dr Owner funds held / Cr the paying account by its
 * method; never changed (a payout made in error is corrected by a manual entry). One above what was
 * available carries the reason given for the override (audited).
 */
export const ownerPayouts = pgTable(
  'owner_payouts',
  {
    company_id: companyId(),
    id: ownedId(),
    owner_id: integer().notNull(),
    date: date({ mode: 'string' }).notNull(),
    amount: money().notNull(),
    method: varchar({ length: 20 }).notNull(),
    reference: varchar({ length: 255 }),
    override_reason: text(),
    user_id: integer(),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.id] }),
    unique('owner_payouts_id_key').on(t.id),
    foreignKey({
      columns: [t.company_id, t.owner_id],
      foreignColumns: [owners.company_id, owners.id],
    }).onDelete('restrict'),
    check('owner_payouts_method_known', oneOf(t.method, payoutMethod.values)),
    check('owner_payouts_amount', sql`${t.amount} > 0`),
    index('owner_payouts_owner_idx').on(t.company_id, t.owner_id, t.date),
    index('owner_payouts_date_idx').on(t.company_id, t.date, t.id),
  ],
);

/** A property's management agreement (issue 27): how the company's fee is reckoned, what is kept back. */
export const managementAgreements = pgTable(
  'management_agreements',
  {
    company_id: companyId(),
    property_id: integer().notNull(),
    fee_kind: varchar({ length: 30 }).notNull(),
    fee_amount: money().notNull(),
    minimum_fee: money().notNull().default('0'),
    reserve: money().notNull().default('0'),
    withhold_rental_tax: boolean().notNull().default(false),
    rental_tax_rate: numeric({ precision: 5, scale: 2, mode: 'string' }).notNull().default('0'),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.property_id] }),
    foreignKey({
      columns: [t.company_id, t.property_id],
      foreignColumns: [properties.company_id, properties.id],
    }).onDelete('cascade'),
    check('management_agreements_fee_kind_known', oneOf(t.fee_kind, feeKind.values)),
    check(
      'management_agreements_amounts',
      sql`${t.fee_amount} >= 0 AND ${t.minimum_fee} >= 0 AND ${t.reserve} >= 0
          AND ${t.rental_tax_rate} BETWEEN 0 AND 100
          AND (${t.fee_kind} <> 'percent_of_collected' OR ${t.fee_amount} <= 100)`,
    ),
  ],
);

export const units = pgTable(
  'units',
  {
    company_id: companyId(),
    id: ownedId(),
    name: varchar({ length: 255 }).notNull(),
    property_id: integer(),
    property_name: copied(),
    address: text().notNull(),
    water_meter_nbr: varchar({ length: 100 }),
    electricity_meter_nbr: varchar({ length: 100 }),
    monthly_rate: money().notNull(),
    weekly_rate: money().notNull(),
    daily_rate: money().notNull(),
    description: text(),
    bedrooms: integer(),
    bathrooms: numeric({ precision: 4, scale: 1, mode: 'string' }),
    size_sqft: numeric({ precision: 12, scale: 2, mode: 'string' }),
    amenities: text(),
    unit_type: varchar({ length: 20 }).notNull().default('apartment'),
    status: varchar({ length: 20 }).notNull().default('available'),
    image_1_base64: text(),
    image_2_base64: text(),
    search_text: searchOf('units'),
    external_ref: externalRefColumn(),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.id] }),
    unique('units_external_ref_key').on(t.company_id, t.external_ref),
    unique('units_id_key').on(t.id),
    foreignKey({
      columns: [t.company_id, t.property_id],
      foreignColumns: [properties.company_id, properties.id],
    }).onDelete('restrict'),
    check('units_status_known', oneOf(t.status, unitStatus.values)),
    check('units_type_known', oneOf(t.unit_type, unitType.values)),
    check(
      'units_rates_positive',
      sql`${t.monthly_rate} > 0 AND ${t.weekly_rate} > 0 AND ${t.daily_rate} > 0`,
    ),
    // the dashboard's available units: counted and listed by name from the index
    index('units_company_status_idx').on(t.company_id, t.status, t.name, t.id),
    ...listsOf('units', t),
  ],
);

/** What a meter's consumption costs (issue 28): blocks as their text ('10: 1500; above: 2500'). */
export const tariffs = pgTable(
  'tariffs',
  {
    company_id: companyId(),
    id: ownedId(),
    name: varchar({ length: 255 }).notNull(),
    kind: varchar({ length: 20 }).notNull(),
    blocks: varchar({ length: 1000 }).notNull(),
    fixed_charge: money().notNull().default('0'),
    minimum_charge: money().notNull().default('0'),
    search_text: searchOf('tariffs'),
    external_ref: externalRefColumn(),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.id] }),
    unique('tariffs_id_key').on(t.id),
    unique('tariffs_external_ref_key').on(t.company_id, t.external_ref),
    check('tariffs_kind_known', oneOf(t.kind, meterKind.values)),
    check('tariffs_charges_not_negative', sql`${t.fixed_charge} >= 0 AND ${t.minimum_charge} >= 0`),
    ...listsOf('tariffs', t),
  ],
);

/** A unit's meter, or a building's master meter (a property, no unit) (issue 28). */
export const meters = pgTable(
  'meters',
  {
    company_id: companyId(),
    id: ownedId(),
    number: varchar({ length: 100 }).notNull(),
    kind: varchar({ length: 20 }).notNull(),
    unit_id: integer(),
    /** the unit's property for a unit's meter (features/utilities sets it), the building's for a master meter */
    property_id: integer(),
    unit_of_measure: varchar({ length: 10 }).notNull(),
    tariff_id: integer(),
    is_active: boolean().notNull().default(true),
    installed_on: date({ mode: 'string' }),
    initial_reading: numeric({ precision: 14, scale: 3, mode: 'string' }).notNull().default('0'),
    unit_name: copied(),
    property_name: copied(),
    tariff_name: copied(),
    search_text: searchOf('meters'),
    external_ref: externalRefColumn(),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.id] }),
    unique('meters_id_key').on(t.id),
    unique('meters_external_ref_key').on(t.company_id, t.external_ref),
    foreignKey({ columns: [t.company_id, t.unit_id], foreignColumns: [units.company_id, units.id] }).onDelete(
      'restrict',
    ),
    foreignKey({
      columns: [t.company_id, t.property_id],
      foreignColumns: [properties.company_id, properties.id],
    }).onDelete('restrict'),
    foreignKey({
      columns: [t.company_id, t.tariff_id],
      foreignColumns: [tariffs.company_id, tariffs.id],
    }).onDelete('restrict'),
    check('meters_kind_known', oneOf(t.kind, meterKind.values)),
    check('meters_unit_of_measure_known', oneOf(t.unit_of_measure, meterUnit.values)),
    check('meters_placed', sql`${t.unit_id} IS NOT NULL OR ${t.property_id} IS NOT NULL`),
    check('meters_initial_reading_not_negative', sql`${t.initial_reading} >= 0`),
    index('meters_unit_idx').on(t.company_id, t.unit_id),
    index('meters_tariff_idx').on(t.company_id, t.tariff_id),
    ...listsOf('meters', t),
  ],
);

/**
 * A meter's reading (issue 28): the reading before it, the consumption since and its flag are the
 * server's (features/utilities/readings.ts), in date order per meter; `property_id` is its meter's
 * (db/derived.ts keeps it).
 */
export const meterReadings = pgTable(
  'meter_readings',
  {
    company_id: companyId(),
    id: ownedId(),
    meter_id: integer().notNull(),
    reading_date: date({ mode: 'string' }).notNull(),
    value: numeric({ precision: 14, scale: 3, mode: 'string' }).notNull(),
    is_reset: boolean().notNull().default(false),
    photo: text(),
    note: text(),
    idempotency_key: varchar({ length: 100 }),
    previous_value: numeric({ precision: 14, scale: 3, mode: 'string' }),
    previous_date: date({ mode: 'string' }),
    consumption: numeric({ precision: 14, scale: 3, mode: 'string' }),
    flag: varchar({ length: 10 }),
    status: varchar({ length: 10 }).notNull().default('ready'),
    confirmed_by: integer(),
    confirmed_at: timestamp({ withTimezone: true }),
    /** billed (features/utilities/billing.ts): the charge made of it (none: no lease at its date, or nothing to pay) */
    charge_id: integer(),
    /** the lease billed, the amount priced by its tariff, when */
    billed_occupancy_id: integer(),
    billed_amount: money(),
    billed_at: timestamp({ withTimezone: true }),
    meter_number: copied(),
    property_id: integer(),
    search_text: searchOf('meter_readings'),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.id] }),
    unique('meter_readings_id_key').on(t.id),
    unique('meter_readings_idempotency_key').on(t.company_id, t.idempotency_key),
    foreignKey({
      columns: [t.company_id, t.meter_id],
      foreignColumns: [meters.company_id, meters.id],
    }).onDelete('restrict'),
    check('meter_readings_status_known', oneOf(t.status, readingStatus.values)),
    check('meter_readings_flag_known', oneOf(t.flag, readingFlag.values)),
    check('meter_readings_value_not_negative', sql`${t.value} >= 0`),
    // a charge bills one reading: a run twice bills it once
    unique('meter_readings_charge_key').on(t.company_id, t.charge_id),
    check(
      'meter_readings_billed_marked',
      sql`(${t.status} = 'billed') = (${t.billed_at} IS NOT NULL) AND (${t.charge_id} IS NULL OR ${t.status} = 'billed')`,
    ),
    // a meter's readings in date order: the one before a date, the last six
    index('meter_readings_meter_date_idx').on(t.company_id, t.meter_id, t.reading_date, t.id),
    ...listsOf('meter_readings', t),
  ],
);

export const tenants = pgTable(
  'tenants',
  {
    company_id: companyId(),
    id: ownedId(),
    first_name: varchar({ length: 255 }).notNull(),
    last_name: varchar({ length: 255 }).notNull(),
    sex: char({ length: 1 }).notNull(),
    country_code: varchar({ length: 4 }),
    phone: varchar({ length: 15 }).notNull(),
    email: varchar({ length: 255 }),
    date_of_birth: date({ mode: 'string' }).notNull(),
    id_or_passport_number: varchar({ length: 100 }),
    emergency_contact_name: varchar({ length: 255 }),
    emergency_contact_phone: varchar({ length: 50 }),
    status: varchar({ length: 20 }).notNull().default('active'),
    /** whether messages (receipts, reminders) go to this tenant by e-mail and by SMS (the tenant may change it in the portal) */
    notify_email: boolean().notNull().default(true),
    notify_sms: boolean().notNull().default(true),
    /** issue 29: by WhatsApp only when the tenant agreed (Meta's opt-in rule): off unless ticked */
    notify_whatsapp: boolean().notNull().default(false),
    /** the tenant's language (issue 30): its portal and what is sent or printed for it; null: the company's */
    language: varchar({ length: 2 }),
    full_name: fullName(),
    search_text: searchOf('tenants', { full_name: FULL_NAME }),
    external_ref: externalRefColumn(),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.id] }),
    unique('tenants_external_ref_key').on(t.company_id, t.external_ref),
    unique('tenants_id_key').on(t.id),
    check('tenants_sex_known', oneOf(t.sex, sex.values)),
    check('tenants_status_known', oneOf(t.status, tenantStatus.values)),
    check('tenants_language_known', oneOf(t.language, LANGUAGES)),
    ...listsOf('tenants', t),
  ],
);

export const occupancy = pgTable(
  'occupancy',
  {
    company_id: companyId(),
    id: ownedId(),
    tenant_id: integer().notNull(),
    unit_id: integer().notNull(),
    start_date: date({ mode: 'string' }).notNull(),
    end_date: date({ mode: 'string' }),
    rate: money().notNull(),
    deposit_amount: money(),
    deposit_status: varchar({ length: 20 }),
    rent_cycle: varchar({ length: 20 }).notNull().default('monthly'),
    utilities_included: boolean().notNull().default(false),
    occupancy_status: varchar({ length: 20 }).notNull().default('active'),
    notice_period_days: integer(),
    is_active: boolean().notNull().default(true),
    lease_doc: text(),
    lease_doc_name: varchar({ length: 255 }),
    lease_doc_type: varchar({ length: 100 }),
    // the rent cycle (issue 17): the lease's late-fee exemption or own policy, and its escalation rule
    late_fee_exempt: boolean().notNull().default(false),
    /** the lease's own late-fee policy (company-settings' shape), instead of the company's; null: the company's */
    late_fee: jsonb(),
    escalation_percent: numeric({ precision: 5, scale: 2, mode: 'string' }),
    escalation_every_months: integer(),
    // opening balances (issue 25): what the tenant owed (negative: a credit) on the date the lease was
    // taken on; no rent is charged for periods due on or before that date
    opening_balance: money(),
    opening_balance_date: date({ mode: 'string' }),
    /** what a tenant gives as the account of a paybill or mobile-money payment (issue 29): upper-case, unique in the company */
    account_reference: varchar({ length: 20 }),
    tenant_name: copied(),
    unit_name: copied(),
    /** its unit's property (db/derived.ts keeps it): lists and the arrears filter by it */
    property_id: integer(),
    // The lease's charge calendar and rate in the arrears statement's terms, kept by PostgreSQL with
    // the row (features/ledger/arrears-sql.ts): the statement reads integers, not dates and NUMERIC.
    /** the start date's month as year * 12 + month - 1 */
    charge_start_month: integer().generatedAlwaysAs(
      sql`(date_part('year', start_date) * 12 + date_part('month', start_date) - 1)::int`,
    ),
    /** the start date's day of the month: the day monthly charges fall due */
    charge_day: integer().generatedAlwaysAs(sql`date_part('day', start_date)::int`),
    /** how many charges fall due from the start to the end date (none: open-ended) */
    charges_to_end: integer().generatedAlwaysAs(
      sql`CASE WHEN end_date IS NULL THEN NULL
               WHEN rent_cycle = 'daily' THEN (end_date - start_date) + 1
               WHEN rent_cycle = 'weekly' THEN (end_date - start_date) / 7 + 1
               ELSE ((date_part('year', end_date) - date_part('year', start_date)) * 12
                     + date_part('month', end_date) - date_part('month', start_date))::int
                    + (date_part('day', end_date) >= date_part('day', start_date)
                       OR date_part('day', end_date + 1) = 1)::int END`,
    ),
    /** the rate in cents */
    rate_cents: bigint({ mode: 'number' }).generatedAlwaysAs(sql`(rate * 100)::bigint`),
    /** the opening balance in cents (0: none) */
    opening_cents: bigint({ mode: 'number' }).generatedAlwaysAs(
      sql`(COALESCE(opening_balance, 0) * 100)::bigint`,
    ),
    /** how many periods fall due from the start to the opening balance date (capped at the end date): not charged */
    charges_to_opening: integer().generatedAlwaysAs(
      sql`CASE WHEN opening_balance_date IS NULL OR opening_balance_date < start_date THEN 0
               WHEN rent_cycle = 'daily' THEN (LEAST(opening_balance_date, end_date) - start_date) + 1
               WHEN rent_cycle = 'weekly' THEN (LEAST(opening_balance_date, end_date) - start_date) / 7 + 1
               ELSE ((date_part('year', LEAST(opening_balance_date, end_date)) - date_part('year', start_date)) * 12
                     + date_part('month', LEAST(opening_balance_date, end_date)) - date_part('month', start_date))::int
                    + (date_part('day', LEAST(opening_balance_date, end_date)) >= date_part('day', start_date)
                       OR date_part('day', LEAST(opening_balance_date, end_date) + 1) = 1)::int END`,
    ),
    search_text: searchOf('occupancy'),
    external_ref: externalRefColumn(),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.id] }),
    unique('occupancy_external_ref_key').on(t.company_id, t.external_ref),
    unique('occupancy_account_reference_key').on(t.company_id, t.account_reference),
    unique('occupancy_id_key').on(t.id),
    foreignKey({
      columns: [t.company_id, t.tenant_id],
      foreignColumns: [tenants.company_id, tenants.id],
    }).onDelete('restrict'),
    foreignKey({ columns: [t.company_id, t.unit_id], foreignColumns: [units.company_id, units.id] }).onDelete(
      'restrict',
    ),
    check('occupancy_status_known', oneOf(t.occupancy_status, occupancyStatus.values)),
    check('occupancy_deposit_status_known', oneOf(t.deposit_status, depositStatus.values)),
    check('occupancy_rent_cycle_known', oneOf(t.rent_cycle, rentCycle.values)),
    check('occupancy_dates_ordered', sql`${t.end_date} IS NULL OR ${t.end_date} >= ${t.start_date}`),
    check('occupancy_rate_positive', sql`${t.rate} > 0`),
    check(
      'occupancy_escalation_range',
      sql`(${t.escalation_percent} IS NULL OR ${t.escalation_percent} BETWEEN 0 AND 100)
          AND (${t.escalation_every_months} IS NULL OR ${t.escalation_every_months} BETWEEN 0 AND 120)`,
    ),
    check(
      'occupancy_notice_nonnegative',
      sql`${t.notice_period_days} IS NULL OR ${t.notice_period_days} >= 0`,
    ),
    index('occupancy_tenant_idx').on(t.company_id, t.tenant_id),
    index('occupancy_unit_idx').on(t.company_id, t.unit_id),
    ...listsOf('occupancy', t),
  ],
);

export const payments = pgTable(
  'payments',
  {
    company_id: companyId(),
    id: ownedId(),
    unit_id: integer().notNull(),
    tenant_id: integer().notNull(),
    occupancy_id: integer().notNull(),
    payment_date: date({ mode: 'string' }).notNull(),
    payment_serial: varchar({ length: 20 }).notNull(),
    amount_paid: money().notNull(),
    payment_details: text(),
    effective_start_date: date({ mode: 'string' }).notNull(),
    effective_end_date: date({ mode: 'string' }).notNull(),
    payment_method: varchar({ length: 20 }),
    status: varchar({ length: 20 }).notNull().default('pending'),
    invoice_id: varchar({ length: 100 }).notNull().default('N/A'),
    receipt_number: varchar({ length: 20 }),
    /**
     * The code of the receipt's public link (`/r/{code}`): 64 hex digits from two random UUIDs (244
     * random bits from the database's strong random source), given by the database to every payment
     * however it is made (form, import, statement match, webhook). Not its id, not enumerable.
     */
    /** its receipt messages were queued (features/messages: once, after it became completed) */
    receipt_queued: boolean().notNull().default(false),
    receipt_code: varchar({ length: 64 })
      .notNull()
      .default(sql`replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '')`),
    reference_number: varchar({ length: 100 }).notNull().default('N/A'),
    /** a voided payment (status `void`): when, by whom and why; it keeps its numbers and receipt code */
    voided_at: timestamp({ withTimezone: true }),
    voided_by: integer().references(() => users.id, { onDelete: 'set null' }),
    void_reason: text(),
    tenant_name: copied(),
    unit_name: copied(),
    /** its unit's property (db/derived.ts keeps it): lists, the dashboard and reports filter by it */
    property_id: integer(),
    search_text: searchOf('payments'),
    external_ref: externalRefColumn(),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.id] }),
    unique('payments_external_ref_key').on(t.company_id, t.external_ref),
    unique('payments_id_key').on(t.id),
    unique('payments_serial_key').on(t.company_id, t.payment_serial),
    unique('payments_receipt_key').on(t.company_id, t.receipt_number),
    unique('payments_receipt_code_key').on(t.receipt_code),
    foreignKey({
      columns: [t.company_id, t.tenant_id],
      foreignColumns: [tenants.company_id, tenants.id],
    }).onDelete('restrict'),
    foreignKey({ columns: [t.company_id, t.unit_id], foreignColumns: [units.company_id, units.id] }).onDelete(
      'restrict',
    ),
    foreignKey({
      columns: [t.company_id, t.occupancy_id],
      foreignColumns: [occupancy.company_id, occupancy.id],
    }).onDelete('restrict'),
    check('payments_status_known', oneOf(t.status, paymentStatus.values)),
    check('payments_method_known', oneOf(t.payment_method, paymentMethod.values)),
    check('payments_amount_positive', sql`${t.amount_paid} > 0`),
    // the dashboard's pending payments, oldest first: a tenth of the rows, in their order
    index('payments_pending_idx')
      .on(t.company_id, t.payment_date, t.id)
      .where(sql`${t.status} = 'pending'`),
    index('payments_tenant_idx').on(t.company_id, t.tenant_id),
    index('payments_unit_idx').on(t.company_id, t.unit_id),
    index('payments_occupancy_idx').on(t.company_id, t.occupancy_id),
    // the arrears report: completed payments summed per lease, read from the index alone
    // completed payments whose receipts are not queued yet (features/messages picks them up)
    index('payments_receipt_due_idx')
      .on(t.id)
      .where(sql`${t.status} = 'completed' AND NOT ${t.receipt_queued}`),
    index('payments_completed_occupancy_idx')
      .on(t.company_id, t.occupancy_id, t.payment_date, t.amount_paid)
      .where(sql`${t.status} = 'completed'`),
    // the dashboard of one property: its pending and recent completed payments, in date order
    index('payments_property_status_idx').on(t.company_id, t.property_id, t.status, t.payment_date, t.id),
    ...listsOf('payments', t),
  ],
);

/**
 * The receipt codes of deleted payments: their public link (`/r/{code}`) then says 'This receipt is
 * no longer valid.' instead of 'not found'. Written by the database when a payment is deleted, by
 * whatever deletes it (db/derived.ts `trails`); never changed afterwards.
 */
export const revokedReceipts = pgTable(
  'revoked_receipts',
  {
    receipt_code: varchar({ length: 64 }).primaryKey(),
    company_id: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    payment_id: integer().notNull(),
    receipt_number: varchar({ length: 20 }),
    deleted_at: timestamp({ withTimezone: true }).notNull().defaultNow(),
    ...stamps(),
  },
  (t) => [index('revoked_receipts_company_idx').on(t.company_id)],
);

export const vendors = pgTable(
  'vendors',
  {
    company_id: companyId(),
    id: ownedId(),
    name: varchar({ length: 255 }).notNull(),
    service_offered: varchar({ length: 255 }).notNull(),
    phone: varchar({ length: 50 }).notNull(),
    search_text: searchOf('vendors'),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.id] }),
    unique('vendors_id_key').on(t.id),
    ...listsOf('vendors', t),
  ],
);

export const maintenanceRequests = pgTable(
  'maintenance_requests',
  {
    company_id: companyId(),
    id: ownedId(),
    unit_id: integer().notNull(),
    tenant_id: integer().notNull(),
    /** none until staff assign one (a request a tenant reported in the portal) */
    vendor_id: integer(),
    request_date: date({ mode: 'string' }).notNull(),
    description: text().notNull(),
    priority: varchar({ length: 20 }).notNull().default('low'),
    status: varchar({ length: 20 }).notNull().default('open'),
    estimated_cost: money().notNull(),
    /** reported by the tenant in the portal (issue 19) */
    submitted_by_tenant: boolean().notNull().default(false),
    unit_name: copied(),
    tenant_name: copied(),
    vendor_name: copied(),
    /** its unit's property (db/derived.ts keeps it) */
    property_id: integer(),
    search_text: searchOf('maintenance_requests'),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.id] }),
    unique('maintenance_requests_id_key').on(t.id),
    foreignKey({ columns: [t.company_id, t.unit_id], foreignColumns: [units.company_id, units.id] }).onDelete(
      'restrict',
    ),
    foreignKey({
      columns: [t.company_id, t.tenant_id],
      foreignColumns: [tenants.company_id, tenants.id],
    }).onDelete('restrict'),
    foreignKey({
      columns: [t.company_id, t.vendor_id],
      foreignColumns: [vendors.company_id, vendors.id],
    }).onDelete('restrict'),
    check('maintenance_requests_status_known', oneOf(t.status, requestStatus.values)),
    check('maintenance_requests_priority_known', oneOf(t.priority, priority.values)),
    // the dashboard's open requests: counted and listed newest first from the index
    index('maintenance_requests_company_status_idx').on(t.company_id, t.status, t.request_date, t.id),
    index('maintenance_requests_unit_idx').on(t.company_id, t.unit_id),
    index('maintenance_requests_tenant_idx').on(t.company_id, t.tenant_id),
    index('maintenance_requests_vendor_idx').on(t.company_id, t.vendor_id),
    ...listsOf('maintenance_requests', t),
  ],
);

/** The photos of a maintenance request (a tenant adds up to 3 in the portal): base64 of a png, jpeg or webp of at most 5 MB. */
export const maintenanceRequestPhotos = pgTable(
  'maintenance_request_photos',
  {
    company_id: companyId(),
    id: ownedId(),
    request_id: integer().notNull(),
    file_name: varchar({ length: 255 }),
    mime_type: varchar({ length: 50 }).notNull(),
    data_base64: text().notNull(),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.id] }),
    unique('maintenance_request_photos_id_key').on(t.id),
    foreignKey({
      columns: [t.company_id, t.request_id],
      foreignColumns: [maintenanceRequests.company_id, maintenanceRequests.id],
    }).onDelete('cascade'),
    index('maintenance_request_photos_request_idx').on(t.company_id, t.request_id),
  ],
);

export const expenses = pgTable(
  'expenses',
  {
    company_id: companyId(),
    id: ownedId(),
    unit_id: integer(),
    vendor_id: integer(),
    expense_date: date({ mode: 'string' }).notNull(),
    amount: money().notNull(),
    category: varchar({ length: 20 }).notNull(),
    description: text(),
    /** the ledger account it was paid from (modules/books: an active asset account; default Cash on hand) */
    paid_from_account_id: integer(),
    unit_name: copied(),
    vendor_name: copied(),
    /** its unit's property (db/derived.ts keeps it; none without a unit) */
    property_id: integer(),
    search_text: searchOf('expenses'),
    external_ref: externalRefColumn(),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.id] }),
    unique('expenses_external_ref_key').on(t.company_id, t.external_ref),
    unique('expenses_id_key').on(t.id),
    foreignKey({ columns: [t.company_id, t.unit_id], foreignColumns: [units.company_id, units.id] }).onDelete(
      'restrict',
    ),
    foreignKey({
      columns: [t.company_id, t.vendor_id],
      foreignColumns: [vendors.company_id, vendors.id],
    }).onDelete('restrict'),
    check('expenses_category_known', oneOf(t.category, expenseCategory.values)),
    index('expenses_unit_idx').on(t.company_id, t.unit_id),
    index('expenses_vendor_idx').on(t.company_id, t.vendor_id),
    ...listsOf('expenses', t),
  ],
);

export const employees = pgTable(
  'employees',
  {
    company_id: companyId(),
    id: ownedId(),
    first_name: varchar({ length: 255 }).notNull(),
    last_name: varchar({ length: 255 }).notNull(),
    email: varchar({ length: 255 }),
    phone_number: varchar({ length: 50 }).notNull(),
    job_title: varchar({ length: 255 }).notNull(),
    hire_date: date({ mode: 'string' }).notNull(),
    salary: money().notNull(),
    expected_pay_day: integer().notNull(),
    status: varchar({ length: 20 }).notNull().default('active'),
    full_name: fullName(),
    search_text: searchOf('employees', { full_name: FULL_NAME }),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.id] }),
    unique('employees_id_key').on(t.id),
    check('employees_status_known', oneOf(t.status, employeeStatus.values)),
    check('employees_pay_day_range', sql`${t.expected_pay_day} BETWEEN 1 AND 31`),
    ...listsOf('employees', t),
  ],
);

export const commissionWages = pgTable(
  'commission_wages',
  {
    company_id: companyId(),
    id: ownedId(),
    employee_id: integer().notNull(),
    payment_date: date({ mode: 'string' }).notNull(),
    payment_category: varchar({ length: 20 }).notNull(),
    payment_method: varchar({ length: 20 }).notNull(),
    commission_split_percentage: numeric({ precision: 5, scale: 2, mode: 'string' }),
    payment_start_date: date({ mode: 'string' }).notNull(),
    payment_end_date: date({ mode: 'string' }).notNull(),
    status: varchar({ length: 20 }).notNull().default('pending'),
    description: text().notNull(),
    amount: money().notNull(),
    employee_name: copied(),
    search_text: searchOf('commission_wages'),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.id] }),
    unique('commission_wages_id_key').on(t.id),
    foreignKey({
      columns: [t.company_id, t.employee_id],
      foreignColumns: [employees.company_id, employees.id],
    }).onDelete('restrict'),
    check('commission_wages_category_known', oneOf(t.payment_category, wageCategory.values)),
    check('commission_wages_method_known', oneOf(t.payment_method, paymentMethod.values)),
    check('commission_wages_status_known', oneOf(t.status, wageStatus.values)),
    check('commission_wages_amount_positive', sql`${t.amount} > 0`),
    index('commission_wages_employee_idx').on(t.company_id, t.employee_id),
    ...listsOf('commission_wages', t),
  ],
);

// ---------------------------------------------------------------- the rent cycle (issue 17)

/** A company's settings (features/company-settings); a company without a row has the defaults. */
export const companySettings = pgTable(
  'company_settings',
  {
    company_id: integer()
      .primaryKey()
      .references(() => companies.id, { onDelete: 'cascade' }),
    timezone: varchar({ length: 64 }).notNull().default('Africa/Kampala'),
    /** base64 of a png, jpeg or webp image of at most 1 MB */
    logo: text(),
    logo_type: varchar({ length: 20 }),
    daily_run_hour: integer().notNull().default(6),
    late_fee: jsonb().notNull(),
    reminders: jsonb().notNull(),
    receipt_notification: jsonb().notNull(),
    sms_sender_id: varchar({ length: 11 }),
    /** statement lines and webhook payments matched with certainty are posted at once (issue 18) */
    auto_post_matches: boolean().notNull().default(false),
    /** every staff user of the company must sign in with a second factor (issue 20) */
    require_mfa: boolean().notNull().default(false),
    /** how tenants pay (issue 29): paybill, merchant codes, bank details (domain's paymentInstructionsSchema) */
    payment_instructions: jsonb(),
    /** the landlords' rental tax (issue 27): rate, due day, tax year's first month (domain's rentalTaxSettingsSchema) */
    rental_tax: jsonb(),
    /** the day of the month every owner's statement of the month before is sent (issue 27); null: never */
    owner_statements_day: integer(),
    /** the day of the month the daily run bills the meters' readings (issue 28); null: only by hand */
    utility_billing_day: integer(),
    /** the service charge per let unit per month the daily run posts (issue 28); 0: none */
    service_charge_amount: money().notNull().default('0'),
    /** the service charge's words on its charges ('Service charge November 2026') */
    service_charge_description: varchar({ length: 60 }).notNull().default('Service charge'),
    ...stamps(),
  },
  (t) => [
    check('company_settings_service_charge_not_negative', sql`${t.service_charge_amount} >= 0`),
    check('company_settings_hour_range', sql`${t.daily_run_hour} BETWEEN 0 AND 23`),
    check(
      'company_settings_owner_statements_day_range',
      sql`${t.owner_statements_day} IS NULL OR ${t.owner_statements_day} BETWEEN 1 AND 28`,
    ),
    check('company_settings_billing_day_range', sql`${t.utility_billing_day} BETWEEN 1 AND 28`),
    check('company_settings_logo_type_known', oneOf(t.logo_type, ['image/png', 'image/jpeg', 'image/webp'])),
  ],
);

/** The settlement of a lease's deposit at its end: one per lease. */
export const depositSettlements = pgTable(
  'deposit_settlements',
  {
    company_id: companyId(),
    id: ownedId(),
    occupancy_id: integer().notNull(),
    date: date({ mode: 'string' }).notNull(),
    deposit_amount: money().notNull(),
    deductions_total: money().notNull(),
    applied_to_balance: boolean().notNull(),
    /** what of the deposit paid the lease's debits: a credit on `date` */
    applied_amount: money().notNull(),
    /** paid back: a cash-flow outflow ('Deposit refunds') */
    refund_amount: money().notNull(),
    refund_method: varchar({ length: 20 }),
    deposit_status: varchar({ length: 20 }).notNull(),
    user_id: integer().references(() => users.id, { onDelete: 'restrict' }),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.id] }),
    unique('deposit_settlements_id_key').on(t.id),
    unique('deposit_settlements_lease_key').on(t.company_id, t.occupancy_id),
    foreignKey({
      columns: [t.company_id, t.occupancy_id],
      foreignColumns: [occupancy.company_id, occupancy.id],
    }).onDelete('restrict'),
    check(
      'deposit_settlements_amounts',
      sql`${t.applied_amount} >= 0 AND ${t.refund_amount} >= 0 AND ${t.deductions_total} >= 0
          AND ${t.applied_amount} + ${t.refund_amount} = ${t.deposit_amount}`,
    ),
    check('deposit_settlements_method_known', oneOf(t.refund_method, paymentMethod.values)),
    check('deposit_settlements_status_known', oneOf(t.deposit_status, ['returned', 'forfeited'])),
    index('deposit_settlements_user_idx').on(t.user_id),
  ],
);

/**
 * Charges beyond rent: late fees (posted by the daily run, one per rent charge and day) and charges
 * added by staff or by a deposit settlement (utility, damage, other). A posted charge is a fact: it
 * is never changed nor deleted; a waiver (charge_waivers) takes it off what is owed.
 */
export const charges = pgTable(
  'charges',
  {
    company_id: companyId(),
    id: ownedId(),
    occupancy_id: integer().notNull(),
    date: date({ mode: 'string' }).notNull(),
    kind: varchar({ length: 20 }).notNull(),
    category: varchar({ length: 20 }),
    description: text().notNull(),
    amount: money().notNull(),
    /** late fees: the due date of the rent charge the fee is for */
    rent_due_date: date({ mode: 'string' }),
    /** deductions of a deposit settlement: the settlement */
    settlement_id: integer(),
    /** the monthly service charge posted by the daily run (issue 28): the month's first day */
    service_month: date({ mode: 'string' }),
    user_id: integer().references(() => users.id, { onDelete: 'restrict' }),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.id] }),
    unique('charges_id_key').on(t.id),
    // what a waiver's composite reference names: the charge, its lease and its kind
    unique('charges_waiver_ref_key').on(t.company_id, t.id, t.occupancy_id, t.kind),
    foreignKey({
      columns: [t.company_id, t.occupancy_id],
      foreignColumns: [occupancy.company_id, occupancy.id],
    }).onDelete('restrict'),
    foreignKey({
      columns: [t.company_id, t.settlement_id],
      foreignColumns: [depositSettlements.company_id, depositSettlements.id],
    }).onDelete('restrict'),
    check('charges_kind_known', oneOf(t.kind, chargeKinds)),
    check('charges_category_known', oneOf(t.category, chargeCategory.values)),
    check(
      'charges_kind_fields',
      sql`(${t.kind} = 'late_fee' AND ${t.rent_due_date} IS NOT NULL AND ${t.category} IS NULL)
          OR (${t.kind} = 'charge' AND ${t.category} IS NOT NULL AND ${t.rent_due_date} IS NULL)`,
    ),
    check('charges_amount_positive', sql`${t.amount} > 0`),
    // one late fee per rent charge and day: a day run twice posts nothing the second time
    uniqueIndex('charges_late_fee_key')
      .on(t.company_id, t.occupancy_id, t.rent_due_date, t.date)
      .where(sql`${t.kind} = 'late_fee'`),
    // one service charge per lease and month: a month posted twice, or by two servers, posts once
    uniqueIndex('charges_service_month_key')
      .on(t.company_id, t.occupancy_id, t.service_month)
      .where(sql`${t.service_month} IS NOT NULL`),
    check(
      'charges_service_month_first',
      sql`${t.service_month} IS NULL OR date_part('day', ${t.service_month}) = 1`,
    ),
    index('charges_occupancy_idx').on(t.company_id, t.occupancy_id, t.date),
    // the arrears' recent charges
    index('charges_date_idx').on(t.company_id, t.date),
    index('charges_settlement_idx').on(t.company_id, t.settlement_id),
    index('charges_user_idx').on(t.user_id),
  ],
);

/** A waiver: the whole of a charge taken off what is owed, from its date on (one per charge). */
export const chargeWaivers = pgTable(
  'charge_waivers',
  {
    company_id: companyId(),
    id: ownedId(),
    charge_id: integer().notNull(),
    occupancy_id: integer().notNull(),
    /** the kind of the charge waived (the income statement nets fees and other charges apart) */
    charge_kind: varchar({ length: 20 }).notNull(),
    date: date({ mode: 'string' }).notNull(),
    amount: money().notNull(),
    reason: text().notNull(),
    user_id: integer().references(() => users.id, { onDelete: 'restrict' }),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.id] }),
    unique('charge_waivers_id_key').on(t.id),
    unique('charge_waivers_charge_key').on(t.company_id, t.charge_id),
    foreignKey({
      name: 'charge_waivers_charge_fk',
      columns: [t.company_id, t.charge_id, t.occupancy_id, t.charge_kind],
      foreignColumns: [charges.company_id, charges.id, charges.occupancy_id, charges.kind],
    }).onDelete('restrict'),
    check('charge_waivers_amount_positive', sql`${t.amount} > 0`),
    index('charge_waivers_date_idx').on(t.company_id, t.date),
    index('charge_waivers_occupancy_idx').on(t.company_id, t.occupancy_id),
    index('charge_waivers_user_idx').on(t.user_id),
  ],
);

/** A lease's rate from a day on: added by staff or by the daily run (its escalation rule). */
export const rateChanges = pgTable(
  'rate_changes',
  {
    company_id: companyId(),
    id: ownedId(),
    occupancy_id: integer().notNull(),
    effective_date: date({ mode: 'string' }).notNull(),
    rate: money().notNull(),
    source: varchar({ length: 20 }).notNull().default('manual'),
    user_id: integer().references(() => users.id, { onDelete: 'restrict' }),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.id] }),
    unique('rate_changes_id_key').on(t.id),
    unique('rate_changes_day_key').on(t.company_id, t.occupancy_id, t.effective_date),
    foreignKey({
      columns: [t.company_id, t.occupancy_id],
      foreignColumns: [occupancy.company_id, occupancy.id],
    }).onDelete('restrict'),
    check('rate_changes_rate_positive', sql`${t.rate} > 0`),
    check('rate_changes_source_known', oneOf(t.source, ['manual', 'escalation'])),
    index('rate_changes_user_idx').on(t.user_id),
  ],
);

/**
 * Announcements (issue 29): a notice from staff to every tenant with an active lease on a property
 * (`property_id`) or in the whole company (`property_id` null), one message per tenant and channel
 * queued through the outbox (their `announcement_id`); what each one's messages became is read from
 * them (`messages_announcement_idx`). `idempotency_key`: the form's, once per company.
 */
export const announcements = pgTable(
  'announcements',
  {
    company_id: companyId(),
    id: ownedId(),
    property_id: integer(),
    channels: jsonb().notNull(),
    subject: varchar({ length: 200 }).notNull(),
    body: text().notNull(),
    /** how many tenants it was addressed to */
    recipients: integer().notNull().default(0),
    idempotency_key: varchar({ length: 100 }).notNull(),
    created_by: integer().references(() => users.id, { onDelete: 'set null' }),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.id] }),
    unique('announcements_id_key').on(t.id),
    unique('announcements_idempotency_key').on(t.company_id, t.idempotency_key),
    foreignKey({
      columns: [t.company_id, t.property_id],
      foreignColumns: [properties.company_id, properties.id],
    }).onDelete('restrict'),
    // a property's announcements (its delete checks them); the list reads the primary key, newest first
    index('announcements_property_idx').on(t.company_id, t.property_id),
  ],
);

/**
 * The outbox: messages to tenants (rent reminders queued by the daily run; receipts and their sending
 * come with the messages feature). `dedup_key` makes queueing idempotent: a reminder is queued once
 * per lease, event, due date and channel, whatever runs it and however often.
 */
export const messages = pgTable(
  'messages',
  {
    company_id: companyId(),
    id: ownedId(),
    kind: varchar({ length: 20 }).notNull(),
    channel: varchar({ length: 10 }).notNull(),
    to: varchar({ length: 255 }),
    tenant_id: integer(),
    occupancy_id: integer(),
    subject: text(),
    body: text().notNull(),
    status: varchar({ length: 20 }).notNull().default('queued'),
    attempts: integer().notNull().default(0),
    error: text(),
    dedup_key: varchar({ length: 200 }),
    /** the message template it was rendered from (none: the built-in text) */
    template_id: integer(),
    /** the day it is meant to go out (a reminder's send date) */
    send_date: date({ mode: 'string' }),
    sent_at: timestamp({ withTimezone: true }),
    /** a receipt's payment (its PDF is attached to the e-mail) */
    payment_id: integer(),
    /** a queued message waits until then (the retries' backoff) */
    next_attempt_at: timestamp({ withTimezone: true }),
    /** a message being sent is the sender's until then; after, another server takes it back */
    claimed_until: timestamp({ withTimezone: true }),
    /** the tenant's name, kept with the message (its list sorts and searches by it) */
    tenant_name: varchar({ length: 511 }),
    /** the announcement it is one of (issue 29) */
    announcement_id: integer(),
    /** WhatsApp (issue 29): the id Meta gave the message once sent (`wamid.…`) */
    external_id: varchar({ length: 255 }),
    /** WhatsApp: what its signed webhook last reported (sent, delivered, read, failed) */
    delivery_status: varchar({ length: 20 }),
    /** WhatsApp: what its template's variables are made of (`{ kind, values }`), kept at queueing */
    payload: jsonb(),
    /** what the log's `q` matches: the address, the tenant's name and the subject (one trigram index) */
    search_text: searchTextColumn(['"to"', 'tenant_name', 'subject']),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.id] }),
    unique('messages_id_key').on(t.id),
    searchIndex('messages', t.search_text),
    unique('messages_dedup_key').on(t.company_id, t.dedup_key),
    foreignKey({
      columns: [t.company_id, t.tenant_id],
      foreignColumns: [tenants.company_id, tenants.id],
    }).onDelete('restrict'),
    foreignKey({
      columns: [t.company_id, t.occupancy_id],
      foreignColumns: [occupancy.company_id, occupancy.id],
    }).onDelete('restrict'),
    check('messages_channel_known', oneOf(t.channel, messageChannel.values)),
    check('messages_status_known', oneOf(t.status, messageStatus.values)),
    check('messages_delivery_status_known', oneOf(t.delivery_status, deliveryStatus.values)),
    // a WhatsApp status found by the message's id at Meta
    index('messages_external_idx')
      .on(t.company_id, t.external_id)
      .where(sql`${t.external_id} IS NOT NULL`),
    // what a sender picks up: the queued messages, oldest first
    index('messages_queued_idx')
      .on(t.company_id, t.id)
      .where(sql`${t.status} = 'queued'`),
    index('messages_tenant_idx').on(t.company_id, t.tenant_id),
    index('messages_occupancy_idx').on(t.company_id, t.occupancy_id),
    foreignKey({
      columns: [t.company_id, t.announcement_id],
      foreignColumns: [announcements.company_id, announcements.id],
    }).onDelete('restrict'),
    // an announcement's delivery counts (by channel and status) and a tenant's announcements
    index('messages_announcement_idx')
      .on(t.company_id, t.announcement_id, t.channel, t.status)
      .where(sql`${t.announcement_id} IS NOT NULL`),
    index('messages_tenant_announcement_idx')
      .on(t.company_id, t.tenant_id, t.announcement_id)
      .where(sql`${t.announcement_id} IS NOT NULL`),
    // the log: newest first, by status and channel
    index('messages_log_idx').on(t.company_id, t.created_at, t.id),
    index('messages_status_idx').on(t.company_id, t.status, t.id),
    index('messages_channel_idx').on(t.company_id, t.channel, t.id),
    // what the senders pick up, across companies: queued ones, oldest first, and lapsed claims
    index('messages_due_idx')
      .on(t.id)
      .where(sql`${t.status} = 'queued'`),
    index('messages_sending_idx')
      .on(t.claimed_until)
      .where(sql`${t.status} = 'sending'`),
  ],
);

/** A company's message templates (issue 17): `{{variable}}` text per event and channel. */
export const messageTemplates = pgTable(
  'message_templates',
  {
    // a company's templates go with it (they are made for it, unasked)
    company_id: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    id: ownedId(),
    name: varchar({ length: 100 }).notNull(),
    channel: varchar({ length: 10 }).notNull(),
    kind: varchar({ length: 20 }).notNull(),
    subject: varchar({ length: 200 }),
    body: text().notNull(),
    /** the language it is written in (issue 30): a message goes out in its recipient's */
    language: varchar({ length: 2 }).notNull().default('en'),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.id] }),
    unique('message_templates_id_key').on(t.id),
    check('message_templates_channel_known', oneOf(t.channel, templateChannel.values)),
    check('message_templates_language_known', oneOf(t.language, LANGUAGES)),
    check('message_templates_kind_known', oneOf(t.kind, templateKind.values)),
    index('message_templates_kind_idx').on(t.company_id, t.kind, t.channel, t.id),
  ],
);

/**
 * The daily runs of each company: the days a run processed (`from_date` to `as_of`) and what it did.
 * A scheduled run of a day is recorded once (the unique index): two servers never both run it.
 */
export const rentCycleRuns = pgTable(
  'rent_cycle_runs',
  {
    company_id: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    id: ownedId(),
    as_of: date({ mode: 'string' }).notNull(),
    from_date: date({ mode: 'string' }).notNull(),
    trigger: varchar({ length: 20 }).notNull(),
    late_fees_posted: integer().notNull().default(0),
    escalations_applied: integer().notNull().default(0),
    reminders_queued: integer().notNull().default(0),
    reminders_skipped: integer().notNull().default(0),
    /** the server process that ran it (host and pid) */
    runner: varchar({ length: 200 }),
    user_id: integer().references(() => users.id, { onDelete: 'restrict' }),
    started_at: timestamp({ withTimezone: true }).notNull(),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.id] }),
    unique('rent_cycle_runs_id_key').on(t.id),
    check('rent_cycle_runs_trigger_known', oneOf(t.trigger, ['schedule', 'manual'])),
    uniqueIndex('rent_cycle_runs_scheduled_key')
      .on(t.company_id, t.as_of)
      .where(sql`${t.trigger} = 'schedule'`),
    index('rent_cycle_runs_day_idx').on(t.company_id, t.as_of),
    index('rent_cycle_runs_user_idx').on(t.user_id),
  ],
);

/**
 * A building's bill shared by its units (issue 28, features/utilities/shared-bills.ts): split equally,
 * by size or, for a master meter, what its sub-meters did not account for; each unit's part is a charge
 * of the lease let in the period (`parts`: unit, lease, days, amount, charge), adding up to `amount`.
 */
export const sharedBills = pgTable(
  'shared_bills',
  {
    company_id: companyId(),
    id: ownedId(),
    property_id: integer().notNull(),
    kind: varchar({ length: 20 }).notNull(),
    period_start: date({ mode: 'string' }).notNull(),
    period_end: date({ mode: 'string' }).notNull(),
    amount: money().notNull(),
    split: varchar({ length: 20 }).notNull(),
    description: varchar({ length: 255 }).notNull(),
    /** by master meter: the meter, and the consumption apportioned (the master's less its sub-meters') */
    meter_id: integer(),
    parts: jsonb().notNull(),
    user_id: integer().references(() => users.id, { onDelete: 'restrict' }),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.id] }),
    unique('shared_bills_id_key').on(t.id),
    foreignKey({
      columns: [t.company_id, t.property_id],
      foreignColumns: [properties.company_id, properties.id],
    }).onDelete('restrict'),
    check('shared_bills_split_known', oneOf(t.split, ['equal', 'by_size', 'by_master_meter'])),
    check('shared_bills_amount_positive', sql`${t.amount} > 0`),
    check('shared_bills_period', sql`${t.period_end} >= ${t.period_start}`),
    index('shared_bills_property_idx').on(t.company_id, t.property_id, t.period_start),
  ],
);

/**
 * Per lease, the sum of its charges (late fees and charges) and of their waivers, kept by the
 * generated triggers of db/derived.ts: the arrears report reads them instead of every charge.
 */
export const leaseChargeTotals = pgTable(
  'lease_charge_totals',
  {
    company_id: integer().notNull(),
    occupancy_id: integer().notNull(),
    /** charges or charge_waivers */
    source: varchar({ length: 63 }).notNull(),
    amount: numeric({ precision: 20, scale: 2, mode: 'string' }).notNull().default('0'),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.occupancy_id, t.source] }),
    foreignKey({
      name: 'lease_charge_totals_occupancy_fk',
      columns: [t.company_id, t.occupancy_id],
      foreignColumns: [occupancy.company_id, occupancy.id],
    }).onDelete('cascade'),
  ],
);

/** Per-company sequences (payment serials, receipt numbers): a row locked in the saving transaction. */
export const counters = pgTable(
  'counters',
  {
    company_id: companyId(),
    name: varchar({ length: 50 }).notNull(),
    value: bigint({ mode: 'number' }).notNull().default(0),
    ...stamps(),
  },
  (t) => [primaryKey({ columns: [t.company_id, t.name] })],
);

/**
 * Exact row counts per company of the company-owned tables, kept by the generated triggers of
 * db/derived.ts: an unfiltered list reads its X-Total-Count here instead of counting.
 */
export const rowCounts = pgTable(
  'row_counts',
  {
    company_id: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    table_name: varchar({ length: 63 }).notNull(),
    n: bigint({ mode: 'number' }).notNull().default(0),
    ...stamps(),
  },
  (t) => [primaryKey({ columns: [t.company_id, t.table_name] })],
);

/**
 * The sum of the completed payments of each lease, kept by statement-level triggers on payments
 * (db/derived.ts): the arrears report reads one row per lease instead
 * of summing 200,000 payments at each request.
 */
export const leasePaymentTotals = pgTable(
  'lease_payment_totals',
  {
    company_id: integer().notNull(),
    occupancy_id: integer().notNull(),
    paid: numeric({ precision: 20, scale: 2, mode: 'string' }).notNull().default('0'),
    /** `paid` in cents, for the arrears statement's integer arithmetic */
    paid_cents: bigint({ mode: 'number' }).generatedAlwaysAs(sql`(paid * 100)::bigint`),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.occupancy_id] }),
    foreignKey({
      name: 'lease_payment_totals_occupancy_fk',
      columns: [t.company_id, t.occupancy_id],
      foreignColumns: [occupancy.company_id, occupancy.id],
    }).onDelete('cascade'),
  ],
);

/**
 * Exact row counts per company and status (units available, requests open, payments pending), kept
 * by the generated triggers of db/derived.ts: the dashboard reads its counts here.
 */
export const statusCounts = pgTable(
  'status_counts',
  {
    company_id: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    table_name: varchar({ length: 63 }).notNull(),
    status: varchar({ length: 20 }).notNull(),
    n: bigint({ mode: 'number' }).notNull().default(0),
    ...stamps(),
  },
  (t) => [primaryKey({ columns: [t.company_id, t.table_name, t.status] })],
);

/**
 * Money per company and month, kept exact by the generated triggers of db/derived.ts: payments by status and method, expenses by category, wages by status. The
 * reports and the dashboard read months here instead of summing every row.
 */
export const monthlyTotals = pgTable(
  'monthly_totals',
  {
    company_id: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** payments, expenses or commission_wages */
    source: varchar({ length: 63 }).notNull(),
    /** the first day of the month */
    month: date({ mode: 'string' }).notNull(),
    /** the rows' status ('' for expenses) */
    status: varchar({ length: 20 }).notNull().default(''),
    /** payment method ('' when none), expense category, '' for wages */
    key: varchar({ length: 20 }).notNull().default(''),
    n: bigint({ mode: 'number' }).notNull().default(0),
    amount: numeric({ precision: 20, scale: 2, mode: 'string' }).notNull().default('0'),
    ...stamps(),
  },
  (t) => [primaryKey({ columns: [t.company_id, t.source, t.month, t.status, t.key] })],
);

/**
 * `monthly_totals` per property (payments and expenses of the units of a property), kept by the
 * generated triggers of db/derived.ts: the reports and the dashboard of one property read them.
 */
export const propertyMonthlyTotals = pgTable(
  'property_monthly_totals',
  {
    company_id: integer().notNull(),
    property_id: integer().notNull(),
    /** payments or expenses */
    source: varchar({ length: 63 }).notNull(),
    /** the first day of the month */
    month: date({ mode: 'string' }).notNull(),
    /** the rows' status ('' for expenses) */
    status: varchar({ length: 20 }).notNull().default(''),
    /** payment method ('' when none), expense category */
    key: varchar({ length: 20 }).notNull().default(''),
    n: bigint({ mode: 'number' }).notNull().default(0),
    amount: numeric({ precision: 20, scale: 2, mode: 'string' }).notNull().default('0'),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.property_id, t.source, t.month, t.status, t.key] }),
    foreignKey({
      name: 'property_monthly_totals_property_fk',
      columns: [t.company_id, t.property_id],
      foreignColumns: [properties.company_id, properties.id],
    }).onDelete('cascade'),
  ],
);

/** Who changed what: written in the same transaction as the change. */
export const auditEntries = pgTable(
  'audit_entries',
  {
    company_id: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'restrict' }),
    id: ownedId(),
    entity: varchar({ length: 50 }).notNull(),
    record_id: integer().notNull(),
    action: varchar({ length: 20 }).notNull(),
    user_id: integer().references(() => users.id, { onDelete: 'restrict' }),
    before: jsonb(),
    after: jsonb(),
    /** the import that made this change, if one did */
    import_id: integer(),
    /** the entry's line where the action and record do not say it all (a sign-in's way, a webhook's payer) */
    summary: varchar({ length: 300 }).notNull().default(''),
    /** what the audit log's `q` matches (with the user's e-mail): one trigram index */
    search_text: text().generatedAlwaysAs(
      sql.raw(`lower(entity || ' ' || action || ' ' || record_id::text || ' ' || summary)`),
    ),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.id] }),
    unique('audit_entries_id_key').on(t.id),
    check('audit_entries_action_known', oneOf(t.action, auditAction.values)),
    index('audit_entries_record_idx').on(t.company_id, t.entity, t.record_id),
    index('audit_entries_user_idx').on(t.user_id),
    // the audit log (GET /audit-log): newest first, by action, by user, searched
    index('audit_entries_log_idx').on(t.company_id, t.created_at, t.id),
    index('audit_entries_action_idx').on(t.company_id, t.action, t.created_at),
    index('audit_entries_company_user_idx').on(t.company_id, t.user_id, t.created_at),
    index('audit_entries_search_trgm_idx').using('gin', sql`${t.search_text} gin_trgm_ops`),
  ],
);

/**
 * Files imported (`POST /imports`): one row per upload, previewed and then committed (or expired 24 h
 * after its preview). Its rows wait in `import_rows` between the two.
 */
export const imports = pgTable(
  'imports',
  {
    company_id: companyId(),
    id: ownedId(),
    entity: varchar({ length: 50 }).notNull(),
    status: varchar({ length: 20 }).notNull().default('previewed'),
    file_name: varchar({ length: 255 }).notNull(),
    date_format: varchar({ length: 10 }).notNull(),
    user_id: integer().references(() => users.id, { onDelete: 'restrict' }),
    total_rows: integer().notNull().default(0),
    valid_rows: integer().notNull().default(0),
    invalid_rows: integer().notNull().default(0),
    /** file column → field name (or null) */
    mapping: jsonb().notNull(),
    /** the file's headers, in order */
    columns: jsonb().notNull(),
    /** the first 200 problems: [{ row, field, message }] */
    errors: jsonb().notNull(),
    /** the first 20 valid rows as they would be saved */
    sample: jsonb().notNull(),
    /** leases (issue 25): the back rent the new leases charge, and the first of them (ImportBackRent) */
    back_rent: jsonb(),
    /** issue 26: [{ row, field, message }] saved but worth a look (two tenants with one phone) */
    warnings: jsonb().notNull().default([]),
    /** issue 26: field → the value given for every row without one */
    fill: jsonb().notNull().default({}),
    /** issue 26: [{ field, label, rows }] the required fields rows lack */
    missing: jsonb().notNull().default([]),
    created: integer(),
    updated: integer(),
    unchanged: integer(),
    skipped_invalid: integer(),
    committed_at: timestamp({ withTimezone: true }),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.id] }),
    unique('imports_id_key').on(t.id),
    check('imports_status_known', oneOf(t.status, ['previewed', 'committed'])),
    index('imports_user_idx').on(t.user_id),
    index('imports_previewed_idx')
      .on(t.created_at)
      .where(sql`${t.status} = 'previewed'`),
  ],
);

/**
 * An import's rows between its preview and its commit, written in batches while the file is read:
 * a valid row as it would be saved (`data`: the values, with the ids of the records it refers to and
 * of the record it updates), a rejected one as it was in the file (`data`: its cells) with its
 * messages. A commit reads the valid ones back in batches and deletes them; rejected ones stay for the
 * errors file.
 */
export const importRows = pgTable(
  'import_rows',
  {
    company_id: integer().notNull(),
    import_id: integer().notNull(),
    row_no: integer().notNull(),
    valid: boolean().notNull(),
    data: jsonb().notNull(),
    messages: text(),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.import_id, t.row_no] }),
    foreignKey({
      name: 'import_rows_import_fk',
      columns: [t.company_id, t.import_id],
      foreignColumns: [imports.company_id, imports.id],
    }).onDelete('cascade'),
  ],
);

/** The checksum of the generated trigger functions installed (db/derived.ts `syncDerived`). */
export const derivedState = pgTable('derived_state', {
  name: varchar({ length: 63 }).primaryKey(),
  checksum: varchar({ length: 64 }).notNull(),
  ...stamps(),
});

// ---------------------------------------------------------------- money in (issue 18)

/** An uploaded statement (`POST /statements`): its file, its source and what its lines came to. */
export const statements = pgTable(
  'statements',
  {
    company_id: companyId(),
    id: ownedId(),
    source: varchar({ length: 20 }).notNull(),
    file_name: varchar({ length: 255 }).notNull(),
    user_id: integer().references(() => users.id, { onDelete: 'restrict' }),
    lines: integer().notNull().default(0),
    new_lines: integer().notNull().default(0),
    duplicate_lines: integer().notNull().default(0),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.id] }),
    unique('statements_id_key').on(t.id),
    check('statements_source_known', oneOf(t.source, ['mtn_momo', 'airtel_money', 'bank', 'custom'])),
    index('statements_user_idx').on(t.user_id),
  ],
);

/**
 * Money received, one row per transaction (a statement's line or a payment webhook's call): kept once
 * per company, source and transaction id, matched to a lease (payments made), suggested, unmatched or
 * ignored (outgoing lines, or by hand).
 */
export const statementLines = pgTable(
  'statement_lines',
  {
    company_id: companyId(),
    id: ownedId(),
    /** null for a webhook's line */
    statement_id: integer(),
    /** the statement's source, or 'webhook' */
    source: varchar({ length: 20 }).notNull(),
    transaction_id: varchar({ length: 100 }).notNull(),
    date: date({ mode: 'string' }).notNull(),
    amount: money().notNull(),
    direction: varchar({ length: 3 }).notNull().default('in'),
    payer_phone: varchar({ length: 40 }),
    payer_name: varchar({ length: 200 }),
    reference: varchar({ length: 300 }),
    status: varchar({ length: 20 }).notNull(),
    /** 0–100: how sure the matching is of its lease */
    confidence: integer().notNull().default(0),
    /** the lease matched or suggested (null: none, or a tenant with several leases) */
    occupancy_id: integer(),
    /** the tenant found (a tenant with two leases is suggested by tenant alone) */
    tenant_id: integer(),
    ignore_reason: varchar({ length: 500 }),
    /** why the matching matched, suggested or left it (issue 26): 'No tenant has this phone' */
    match_reason: varchar({ length: 300 }),
    // the names its list searches by, copied (db/derived.ts keeps them): the lease's tenant and unit,
    // or the tenant suggested without a lease
    lease_tenant_name: copied(),
    lease_unit_name: copied(),
    tenant_name: copied(),
    /** what the list's `q` matches: the transaction, the payer, the reference, the tenant and the unit */
    search_text: searchTextColumn([
      'transaction_id',
      'payer_phone',
      'payer_name',
      'reference',
      'COALESCE(lease_tenant_name, tenant_name)',
      'lease_unit_name',
    ]),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.id] }),
    unique('statement_lines_id_key').on(t.id),
    searchIndex('statement_lines', t.search_text),
    unique('statement_lines_transaction_key').on(t.company_id, t.source, t.transaction_id),
    foreignKey({
      columns: [t.company_id, t.statement_id],
      foreignColumns: [statements.company_id, statements.id],
    }).onDelete('restrict'),
    foreignKey({
      columns: [t.company_id, t.occupancy_id],
      foreignColumns: [occupancy.company_id, occupancy.id],
    }).onDelete('restrict'),
    foreignKey({
      columns: [t.company_id, t.tenant_id],
      foreignColumns: [tenants.company_id, tenants.id],
    }).onDelete('restrict'),
    check('statement_lines_status_known', oneOf(t.status, ['matched', 'suggested', 'unmatched', 'ignored'])),
    check('statement_lines_direction_known', oneOf(t.direction, ['in', 'out'])),
    check('statement_lines_amount_positive', sql`${t.amount} > 0`),
    index('statement_lines_status_idx').on(t.company_id, t.status, t.id),
    index('statement_lines_statement_idx').on(t.company_id, t.statement_id, t.id),
    index('statement_lines_occupancy_idx').on(t.company_id, t.occupancy_id),
    index('statement_lines_tenant_idx').on(t.company_id, t.tenant_id),
  ],
);

/** The payments a statement line was matched to (one per allocation); voided ones stay. */
export const statementLinePayments = pgTable(
  'statement_line_payments',
  {
    company_id: companyId(),
    line_id: integer().notNull(),
    payment_id: integer().notNull(),
    amount: money().notNull(),
    /** set when the line was unmatched: the payment was voided (status failed) */
    voided_at: timestamp({ withTimezone: true }),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.payment_id] }),
    index('statement_line_payments_line_idx').on(t.company_id, t.line_id),
    foreignKey({
      columns: [t.company_id, t.line_id],
      foreignColumns: [statementLines.company_id, statementLines.id],
    }).onDelete('restrict'),
    foreignKey({
      columns: [t.company_id, t.payment_id],
      foreignColumns: [payments.company_id, payments.id],
    }).onDelete('restrict'),
  ],
);

/**
 * What staff taught the matching (issue 26): a line matched by hand to one lease sends later lines of
 * the same payer phone (E.164), or of the same reference when the line has no phone, to that lease.
 */
export const matchMemory = pgTable(
  'match_memory',
  {
    company_id: companyId(),
    /** 'phone' or 'reference' */
    kind: varchar({ length: 10 }).notNull(),
    /** the phone in E.164, or the reference as compared (normalKey) */
    key: varchar({ length: 300 }).notNull(),
    occupancy_id: integer().notNull(),
    /** the line matched by hand that taught it */
    line_id: integer(),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.kind, t.key] }),
    index('match_memory_occupancy_idx').on(t.company_id, t.occupancy_id),
    foreignKey({
      columns: [t.company_id, t.occupancy_id],
      foreignColumns: [occupancy.company_id, occupancy.id],
    }).onDelete('cascade'),
    check('match_memory_kind_known', oneOf(t.kind, ['phone', 'reference'])),
  ],
);

/** A company's payment webhook: the key its URL holds and the secret its calls are signed with. */
/**
 * A company's WhatsApp Business Cloud API account (issue 29; modules/messaging/whatsapp.ts): on or
 * off, its phone-number id, the access token and app secret (one JSON object, sealed: purpose
 * `whatsapp_settings.credentials:<company>`), the verify token and secret path segment of the webhook
 * URL pasted in Meta's portal, the template names by kind, and whether a failure goes by SMS.
 */
export const whatsappSettings = pgTable('whatsapp_settings', {
  company_id: integer()
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  enabled: boolean().notNull().default(false),
  phone_number_id: varchar({ length: 30 }),
  credentials: text(),
  callback_key: varchar({ length: 64 }).notNull().unique(),
  verify_token: varchar({ length: 64 }).notNull(),
  language: varchar({ length: 10 }).notNull().default('en'),
  templates: jsonb().notNull().default({}),
  fallback_sms: boolean().notNull().default(false),
  ...stamps(),
});

export const paymentWebhooks = pgTable('payment_webhooks', {
  company_id: integer()
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  company_key: varchar({ length: 64 }).notNull().unique(),
  /** sealed (lib/secrets.ts); rows of before sealing hold it in clear ('whsec_…') */
  secret: text().notNull(),
  ...stamps(),
});

// ---------------------------------------------------------------- the books (issue 25): modules/books

/** The books' own company reference: a company deleted takes its books with it (docs/decisions.md). */
const booksCompanyId = () =>
  integer()
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' });

/** A company's chart of accounts: the default chart (role set) and the accounts staff add. */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    company_id: booksCompanyId(),
    id: ownedId(),
    code: varchar({ length: 20 }).notNull(),
    name: varchar({ length: 255 }).notNull(),
    type: varchar({ length: 10 }).notNull(),
    /** the default account's purpose ('cash', 'expense:plumbing'); null for an account staff added */
    role: varchar({ length: 40 }),
    is_active: boolean().notNull().default(true),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.id] }),
    unique('ledger_accounts_id_key').on(t.id),
    unique('ledger_accounts_code_key').on(t.company_id, t.code),
    uniqueIndex('ledger_accounts_role_key')
      .on(t.company_id, t.role)
      .where(sql`${t.role} IS NOT NULL`),
    check('ledger_accounts_type_known', oneOf(t.type, ['asset', 'liability', 'equity', 'income', 'expense'])),
  ],
);

/** A posted entry: never changed nor deleted (the database refuses); a correction is an entry of its own. */
export const journalEntries = pgTable(
  'journal_entries',
  {
    company_id: booksCompanyId(),
    id: ownedId(),
    date: date({ mode: 'string' }).notNull(),
    memo: text().notNull(),
    source: varchar({ length: 30 }).notNull(),
    source_id: integer(),
    /** the entry this one reverses (an entry is reversed once) */
    reverses_id: integer(),
    /** idempotency: an entry of a key already posted is not posted again */
    key: varchar({ length: 120 }),
    user_id: integer(),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.id] }),
    unique('journal_entries_id_key').on(t.id),
    uniqueIndex('journal_entries_key_key')
      .on(t.company_id, t.key)
      .where(sql`${t.key} IS NOT NULL`),
    uniqueIndex('journal_entries_reverses_key')
      .on(t.company_id, t.reverses_id)
      .where(sql`${t.reverses_id} IS NOT NULL`),
    index('journal_entries_date_idx').on(t.company_id, t.date, t.id),
    index('journal_entries_source_idx').on(t.company_id, t.source, t.source_id),
  ],
);

/** An entry's lines: a debit or a credit on one account, with the lease's dimensions where it has them. */
export const journalLines = pgTable(
  'journal_lines',
  {
    company_id: booksCompanyId(),
    id: ownedId(),
    entry_id: integer().notNull(),
    account_id: integer().notNull(),
    debit: money().notNull().default('0'),
    credit: money().notNull().default('0'),
    /** the entry's date */
    date: date({ mode: 'string' }).notNull(),
    property_id: integer(),
    unit_id: integer(),
    occupancy_id: integer(),
    tenant_id: integer(),
    /** the owner whose funds the line moves (Owner funds held, issue 27), by their share */
    owner_id: integer(),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.id] }),
    /**
     * By the entry's id alone (its unique key): the check of each line inserted is then a plan of
     * one index whatever the table's size when the connection first planned it (by company and id,
     * a plan cached while the table was empty read every entry of the company: issue 25's
     * quadratic rent posting, docs/performance.md). The line's company is its entry's: checked at
     * commit with the balance (books_entry_balanced).
     */
    foreignKey({
      name: 'journal_lines_entry_id_fk',
      columns: [t.entry_id],
      foreignColumns: [journalEntries.id],
    }).onDelete('cascade'),
    foreignKey({
      columns: [t.company_id, t.account_id],
      foreignColumns: [ledgerAccounts.company_id, ledgerAccounts.id],
    }),
    check(
      'journal_lines_one_side',
      sql`${t.debit} >= 0 AND ${t.credit} >= 0 AND (${t.debit} = 0) <> (${t.credit} = 0)`,
    ),
    index('journal_lines_account_idx').on(t.company_id, t.account_id, t.date, t.id),
    index('journal_lines_occupancy_idx')
      .on(t.company_id, t.occupancy_id, t.date)
      .where(sql`${t.occupancy_id} IS NOT NULL`),
    /** by the entry alone (the balance check at commit, the FK's cascade): no other index leads with it */
    index('journal_lines_entry_idx').on(t.entry_id),
    /** the reports of one property (trial balance, ledger, balance sheet): its lines by account and day */
    index('journal_lines_property_idx')
      .on(t.company_id, t.property_id, t.account_id, t.date)
      .where(sql`${t.property_id} IS NOT NULL`),
    /** an owner's funds (statements, payouts): their lines by day */
    index('journal_lines_owner_idx')
      .on(t.company_id, t.owner_id, t.date)
      .where(sql`${t.owner_id} IS NOT NULL`),
  ],
);

/** Σ debit and Σ credit of an account per day, kept by books.post: balances are index reads over days. */
export const accountDayTotals = pgTable(
  'account_day_totals',
  {
    company_id: booksCompanyId(),
    account_id: integer().notNull(),
    day: date({ mode: 'string' }).notNull(),
    debit: numeric({ precision: 18, scale: 2, mode: 'string' }).notNull().default('0'),
    credit: numeric({ precision: 18, scale: 2, mode: 'string' }).notNull().default('0'),
    ...stamps(),
  },
  (t) => [primaryKey({ columns: [t.company_id, t.account_id, t.day] })],
);

/**
 * Σ debit and Σ credit of an account per month (its first day), per source of the entries and per
 * property of the lines (0: none), kept by books.post in the statement that adds the lines: the
 * dashboard's month, the cash flow and the income statement of a property read a few rows, not the
 * month's lines (docs/decisions.md, "Month totals").
 */
export const accountMonthTotals = pgTable(
  'account_month_totals',
  {
    company_id: booksCompanyId(),
    account_id: integer().notNull(),
    month: date({ mode: 'string' }).notNull(),
    source: varchar({ length: 30 }).notNull(),
    property_id: integer().notNull().default(0),
    debit: numeric({ precision: 18, scale: 2, mode: 'string' }).notNull().default('0'),
    credit: numeric({ precision: 18, scale: 2, mode: 'string' }).notNull().default('0'),
    ...stamps(),
  },
  /** an account's month (the company's), then one property's, then each source */
  (t) => [
    primaryKey({
      name: 'account_month_totals_pk',
      columns: [t.company_id, t.account_id, t.month, t.property_id, t.source],
    }),
  ],
);

/**
 * A lease's receivable (Σ debit − Σ credit of its Accounts receivable lines) and the due date of its
 * oldest unpaid debit (`oldest_due`, null when nothing is unpaid), kept by books.post: a lease is in
 * arrears on a day when `oldest_due` is before it (an index read).
 */
export const leaseBalances = pgTable(
  'lease_balances',
  {
    company_id: booksCompanyId(),
    occupancy_id: integer().notNull(),
    receivable: numeric({ precision: 18, scale: 2, mode: 'string' }).notNull().default('0'),
    oldest_due: date({ mode: 'string' }),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.occupancy_id] }),
    index('lease_balances_oldest_due_idx')
      .on(t.company_id, t.oldest_due)
      .where(sql`${t.oldest_due} IS NOT NULL`),
  ],
);

/**
 * A lease's debits by the day they age from (rent by its due date, charges and late fees by their
 * date less their waivers, an opening balance owed by its date): `amount`, Σ of what was posted for
 * that day, and `open`, what of it is unpaid (the receivable allocated to the newest days first, as
 * payments pay the oldest first). Kept by books.post; the arrears bucket the open amounts by age at
 * read time.
 */
export const leaseDebitDays = pgTable(
  'lease_debit_days',
  {
    company_id: booksCompanyId(),
    occupancy_id: integer().notNull(),
    day: date({ mode: 'string' }).notNull(),
    amount: numeric({ precision: 18, scale: 2, mode: 'string' }).notNull().default('0'),
    open: numeric({ precision: 18, scale: 2, mode: 'string' }).notNull().default('0'),
    ...stamps(),
  },
  (t) => [primaryKey({ columns: [t.company_id, t.occupancy_id, t.day] })],
);

/** What rent of a lease is posted, per period (its due date): Σ of its rent and adjustment entries. */
export const leaseRentPosted = pgTable(
  'lease_rent_posted',
  {
    company_id: booksCompanyId(),
    occupancy_id: integer().notNull(),
    due_date: date({ mode: 'string' }).notNull(),
    amount: money().notNull(),
    /** how many adjustments the period has had (their keys count on) */
    adjustments: integer().notNull().default(0),
    ...stamps(),
  },
  (t) => [primaryKey({ columns: [t.company_id, t.occupancy_id, t.due_date] })],
);

/**
 * A lease's rent posting: the terms its posted periods follow (`terms`), the day it is posted
 * through, and its opening balance as posted. Same terms: only periods after `through` are new.
 */
export const leaseRentState = pgTable(
  'lease_rent_state',
  {
    company_id: booksCompanyId(),
    occupancy_id: integer().notNull(),
    terms: text().notNull(),
    through: date({ mode: 'string' }).notNull(),
    opening_date: date({ mode: 'string' }),
    opening_amount: money().notNull().default('0'),
    opening_adjustments: integer().notNull().default(0),
    ...stamps(),
  },
  (t) => [primaryKey({ columns: [t.company_id, t.occupancy_id] })],
);

/** A company's books: when the history it had before the books was posted (the upgrade, once). */
export const booksState = pgTable('books_state', {
  company_id: booksCompanyId().primaryKey(),
  history_posted_at: timestamp({ withTimezone: true }),
  ...stamps(),
});

/** The company's closings: the latest row's `through` is the day the books are closed through. */
export const booksClosings = pgTable(
  'books_closings',
  {
    company_id: booksCompanyId(),
    id: ownedId(),
    through: date({ mode: 'string' }).notNull(),
    user_id: integer(),
    ...stamps(),
  },
  (t) => [primaryKey({ columns: [t.company_id, t.id] }), unique('books_closings_id_key').on(t.id)],
);

// ---------------------------------------------------------------- mobile-money providers (issue 29): features/payment-providers

/**
 * A company's account with a mobile-money provider (`mpesa`, `mtn_momo`, `airtel_money`): whether it is
 * on, the credentials the provider issued (one JSON object, sealed: platform/secrets.ts, never answered
 * back), and the secret path segment of the callbacks the provider is given (`callback_key`).
 */
export const paymentProviders = pgTable(
  'payment_providers',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    company_id: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    provider: varchar({ length: 20 }).notNull(),
    enabled: boolean().notNull().default(false),
    /** sealed JSON of the credentials (purpose `payment_providers.credentials:<id>`) */
    credentials: text(),
    callback_key: varchar({ length: 64 }).notNull().unique(),
    /** M-Pesa C2B: refuse, at Daraja's validation, a payment whose account number is no lease's */
    refuse_unknown_accounts: boolean().notNull().default(false),
    ...stamps(),
  },
  (t) => [
    unique('payment_providers_company_provider_key').on(t.company_id, t.provider),
    check('payment_providers_provider_known', oneOf(t.provider, ['mpesa', 'mtn_momo', 'airtel_money'])),
  ],
);

/**
 * A prompt sent to a phone (an STK push, a request-to-pay): pending until the provider answers (its
 * callback, believed after a status query back to it, or Kodi's own status check), then completed
 * (its payment), failed or cancelled (the provider's reason).
 */
export const paymentRequests = pgTable(
  'payment_requests',
  {
    company_id: companyId(),
    id: ownedId(),
    occupancy_id: integer().notNull(),
    provider: varchar({ length: 20 }).notNull(),
    amount: money().notNull(),
    phone: varchar({ length: 20 }).notNull(),
    status: varchar({ length: 12 }).notNull().default('pending'),
    reason: text(),
    /** the provider's id of the request (Daraja's CheckoutRequestID, MoMo's X-Reference-Id, Airtel's transaction id) */
    provider_request_id: varchar({ length: 100 }),
    /** the provider's id of the money moved (M-Pesa receipt number, MoMo's financialTransactionId) */
    transaction_id: varchar({ length: 100 }),
    received_amount: money(),
    /** the amount received differs from the amount requested */
    flagged: boolean().notNull().default(false),
    payment_id: integer(),
    requested_by: integer(),
    /** when Kodi last asked the provider itself */
    checked_at: timestamp({ withTimezone: true }),
    ...stamps(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.id] }),
    unique('payment_requests_id_key').on(t.id),
    unique('payment_requests_provider_request_key').on(t.provider, t.provider_request_id),
    foreignKey({
      columns: [t.company_id, t.occupancy_id],
      foreignColumns: [occupancy.company_id, occupancy.id],
    }).onDelete('restrict'),
    check('payment_requests_provider_known', oneOf(t.provider, ['mpesa', 'mtn_momo', 'airtel_money'])),
    check('payment_requests_status_known', oneOf(t.status, ['pending', 'completed', 'failed', 'cancelled'])),
    check('payment_requests_amount_positive', sql`${t.amount} > 0`),
    index('payment_requests_pending_idx').on(t.status, t.created_at),
  ],
);
