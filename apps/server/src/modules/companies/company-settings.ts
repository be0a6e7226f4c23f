import {
  defaultCompanySettings,
  lateFeePolicySchema,
  localTime,
  noPaymentInstructions,
  noRentalTaxSettings,
  paymentInstructionsSchema,
  receiptNotificationSchema,
  rentalTaxSettingsSchema,
  remindersSchema,
  type CompanySettings,
} from '@kodi/domain';
import { sql } from 'drizzle-orm';
import { execRows, type Database, type DbOrTx } from '../../db/client.ts';

/**
 * A company's settings as the features read them (company settings, the rent cycle, the ledger's
 * day, receipts and statements): its row of `company_settings`, or the defaults when it has none.
 * Stored JSON is read back through the same zod rules it was written with; a value that no longer
 * passes them (an older shape) falls back to the default.
 */
export type StoredSettings = Omit<CompanySettings, 'logo' | 'last_run' | 'webhook_url'> & {
  has_logo: boolean;
};

type Row = {
  timezone: string;
  logo_type: string | null;
  has_logo: boolean;
  daily_run_hour: number;
  late_fee: unknown;
  reminders: unknown;
  receipt_notification: unknown;
  sms_sender_id: string | null;
  auto_post_matches: boolean;
  require_mfa: boolean;
  payment_instructions: unknown;
  rental_tax: unknown;
  owner_statements_day: number | null;
  utility_billing_day: number | null;
  service_charge_amount: string | number;
  service_charge_description: string;
  version: number;
};

const parsed = <T>(
  schema: { safeParse: (v: unknown) => { success: boolean; data?: T } },
  v: unknown,
  d: T,
): T => {
  const value = typeof v === 'string' ? (JSON.parse(v) as unknown) : v;
  const r = schema.safeParse(value);
  return r.success ? (r.data as T) : d;
};

export const presentSettings = (r: Row | undefined): StoredSettings => {
  if (!r) {
    const { logo: _logo, ...rest } = defaultCompanySettings;
    return { ...rest, has_logo: false };
  }
  return {
    timezone: r.timezone,
    logo_type: (r.logo_type as StoredSettings['logo_type']) ?? null,
    has_logo: !!r.has_logo,
    daily_run_hour: Number(r.daily_run_hour),
    late_fee: parsed(lateFeePolicySchema, r.late_fee, defaultCompanySettings.late_fee),
    reminders: parsed(remindersSchema, r.reminders, defaultCompanySettings.reminders),
    receipt_notification: parsed(
      receiptNotificationSchema,
      r.receipt_notification,
      defaultCompanySettings.receipt_notification,
    ),
    sms_sender_id: r.sms_sender_id ?? null,
    auto_post_matches: !!r.auto_post_matches,
    require_mfa: r.require_mfa === true,
    payment_instructions: parsed(paymentInstructionsSchema, r.payment_instructions, noPaymentInstructions),
    rental_tax: parsed(rentalTaxSettingsSchema, r.rental_tax, noRentalTaxSettings),
    owner_statements_day: r.owner_statements_day === null ? null : Number(r.owner_statements_day),
    utility_billing_day: r.utility_billing_day === null ? null : Number(r.utility_billing_day),
    service_charge_amount: Number(r.service_charge_amount),
    service_charge_description: r.service_charge_description,
    version: Number(r.version),
  };
};

export const SETTINGS_COLUMNS = `timezone, logo_type, logo IS NOT NULL AS has_logo, daily_run_hour, late_fee,
  reminders, receipt_notification, sms_sender_id, auto_post_matches, require_mfa, payment_instructions,
  rental_tax, owner_statements_day, utility_billing_day, service_charge_amount::text AS service_charge_amount,
  service_charge_description, version`;

/** The settings of a company (without the logo's bytes). */
export const loadSettings = async (database: Database, companyId: number): Promise<StoredSettings> => {
  const rows = await database.query<Row>(
    `SELECT ${SETTINGS_COLUMNS} FROM company_settings WHERE company_id = $1`,
    [companyId],
  );
  return presentSettings(rows[0]);
};

/** The company's time zone (the default's when it has no settings). */
export const companyTimezone = async (database: Database, companyId: number): Promise<string> => {
  const rows = await database.prepared<{ timezone: string }>(
    'SELECT timezone FROM company_settings WHERE company_id = $1',
    [companyId],
  );
  return rows[0]?.timezone ?? defaultCompanySettings.timezone;
};

/** Today (YYYY-MM-DD) in the company's time zone: the day its ledgers, arrears and runs are for by default. */
export const companyToday = async (
  database: Database,
  companyId: number,
  now = new Date(),
): Promise<string> => localTime(await companyTimezone(database, companyId), now).date;

/** `companyToday` inside a transaction (an entity's rules before a write). */
export const companyTodayIn = async (tx: DbOrTx, companyId: number, now = new Date()): Promise<string> => {
  const rows = await execRows<{ timezone: string }>(
    tx,
    sql`SELECT timezone FROM company_settings WHERE company_id = ${companyId}`,
  );
  return localTime(rows[0]?.timezone ?? defaultCompanySettings.timezone, now).date;
};

/** The company's logo, for receipts and statements: its bytes and type, or null. */
export const companyLogo = async (
  database: Database,
  companyId: number,
): Promise<{ data: Buffer; type: string } | null> => {
  const rows = await database.query<{ logo: string | null; logo_type: string | null }>(
    'SELECT logo, logo_type FROM company_settings WHERE company_id = $1',
    [companyId],
  );
  const r = rows[0];
  if (!r?.logo || !r.logo_type) return null;
  return { data: Buffer.from(r.logo, 'base64'), type: r.logo_type };
};
