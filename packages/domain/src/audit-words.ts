import { formatDate } from './dates.ts';
import type { Field } from './entity.ts';
import { entities } from './entities/index.ts';
import { formatNumber } from './money.ts';
import { roleLabels, type RoleName } from './roles.ts';
import type { AuditActionName } from './audit-log.ts';

/**
 * The audit log in words (issue 26): what an entry says happened ('Charge waived', 'Statement line
 * matched', 'Payment voided') and its changed fields as lines ('Amount Paid: 800,000 → 80,000'), from
 * the entry's action, entity and before/after JSON as the server wrote them. The server answers both
 * (`title`, `details`) and exports them; `audit-words.test.ts` (server) fails when the code writes an
 * entity or an action that has no words here.
 */

/** What a record of each audited table is called, when its entity's `singular` does not say it. */
export const auditNouns: Readonly<Record<string, string>> = {
  // entities whose singular is the form's ('Payment record', 'Occupancy record')
  payments: 'Payment',
  occupancy: 'Lease',
  // tables written by features, not by the generic records
  users: 'User',
  charges: 'Charge',
  charge_waivers: 'Charge waiver',
  rate_changes: 'Rent rate change',
  deposit_settlements: 'Deposit settlement',
  statement_lines: 'Statement line',
  statements: 'Statement',
  imports: 'Import',
  company_settings: 'Company settings',
  payment_webhooks: 'Payment webhook',
  message_templates: 'Message template',
  // issue 27: a property's owners and its management agreement (the record is the property)
  property_owners: "Property's owners",
  management_agreements: 'Management agreement',
  owner_payouts: 'Owner payout',
  // issue 29: mobile-money providers and the prompts sent to phones
  payment_providers: 'Payment provider',
  payment_requests: 'Payment prompt',
  whatsapp_settings: 'WhatsApp settings',
  // issue 28: a building's bill split across its units
  shared_bills: 'Shared bill',
  // issue 29: a notice to the tenants of a property or of the company
  announcements: 'Announcement',
};

/** The noun of an audited table: undefined when Kodi has no words for it (the test's check). */
export const auditNoun = (entity: string): string | undefined =>
  auditNouns[entity] ?? (entity in entities ? entities[entity as keyof typeof entities].singular : undefined);

/** Each action's words about a record, when nothing more particular is said below. */
const actionWords: Record<AuditActionName, (noun: string) => string> = {
  create: (n) => `${n} added`,
  update: (n) => `${n} changed`,
  delete: (n) => `${n} deleted`,
  sign_in: () => 'Signed in',
  sign_in_failed: () => 'Sign-in failed',
  access: (n) => `${n}: access changed`,
  match: (n) => `${n} matched`,
  ignore: (n) => `${n} ignored`,
  unmatch: (n) => `${n} unmatched`,
  webhook: () => 'Payment received by webhook',
  import: () => 'File imported',
};

export type AuditWordsEntry = {
  action: AuditActionName;
  entity: string;
  before: unknown;
  after: unknown;
};

type Json = Record<string, unknown>;
const obj = (v: unknown): Json =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {};
const has = (o: Json, k: string) => Object.hasOwn(o, k);

/** What an entry says happened, in words. */
export const auditTitle = (e: AuditWordsEntry): string => {
  const b = obj(e.before);
  const a = obj(e.after);
  const key = `${e.entity}:${e.action}`;
  switch (key) {
    case 'charge_waivers:create':
      return 'Charge waived';
    case 'rate_changes:create':
      return 'Rent rate changed';
    case 'deposit_settlements:create':
      return 'Deposit settled';
    case 'payments:create':
      return 'Payment recorded';
    case 'payments:update':
      if (a.status === 'void' && b.status !== 'void') return 'Payment voided';
      break;
    case 'payment_webhooks:update':
      return 'Webhook secret replaced';
    case 'payment_providers:create':
    case 'payment_providers:update':
      return 'Payment provider settings saved';
    case 'whatsapp_settings:create':
    case 'whatsapp_settings:update':
      return 'WhatsApp settings saved';
    case 'payment_requests:create':
      return 'Payment prompt sent';
    case 'announcements:create':
      return 'Announcement sent';
    case 'imports:import':
      return 'File imported';
    case 'users:access':
      if (has(a, 'roles')) return 'Roles changed';
      if (has(a, 'active') && a.active !== b.active) return a.active ? 'User enabled' : 'User disabled';
      return 'Password set by an administrator';
    case 'users:update':
      if (has(a, 'mfa_enabled') && a.mfa_enabled !== b.mfa_enabled) {
        if (a.mfa_enabled === true) return 'Two-factor sign-in turned on';
        return has(a, 'mfa_reset_by') ? 'Two-factor sign-in reset' : 'Two-factor sign-in turned off';
      }
      if (has(a, 'sessions_ended_by')) return 'Sessions ended';
      break;
    case 'tenants:access':
      if (a.portal_status === 'invited') return 'Invited to the tenant portal';
      if (has(a, 'portal_access'))
        return a.portal_access ? 'Portal access turned on' : 'Portal access turned off';
      break;
  }
  return actionWords[e.action](auditNoun(e.entity) ?? e.entity.replace(/_/g, ' '));
};

/** Fields of no interest in a change list: bookkeeping, and what another field already says. */
const UNSHOWN = new Set([
  'id',
  'company_id',
  'version',
  'created_at',
  'updated_at',
  'search_text',
  'user_id',
]);
/** Read-only fields an entry still shows (they say what happened: a serial, a void). */
const SHOWN_READ_ONLY = new Set([
  'payment_serial',
  'receipt_number',
  'voided_at',
  'voided_by_name',
  'void_reason',
]);
/** Amounts of the tables that are not entities (charges, waivers, rate changes, settlements). */
const MONEY_KEYS = new Set([
  'amount',
  'rate',
  'deposit_amount',
  'deductions_total',
  'applied_amount',
  'refund_amount',
  'balance',
]);

/** Labels of keys that are no entity's field (a charge's, a statement line's, a setting's). */
const KEY_LABELS: Readonly<Record<string, string>> = {
  occupancy_id: 'Lease',
  charge_id: 'Charge',
  tenant_id: 'Tenant',
  unit_id: 'Unit',
  payment_id: 'Payment',
  effective_date: 'From',
  rent_due_date: 'Rent due',
  ignore_reason: 'Reason',
  mfa_enabled: 'Two-factor sign-in',
};

/** 'ignore_reason' → 'Ignore reason'. */
const humanize = (key: string) => {
  if (KEY_LABELS[key]) return KEY_LABELS[key];
  const s = key.replace(/_/g, ' ');
  return s.charAt(0).toUpperCase() + s.slice(1);
};

const money = (v: unknown): string | null => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? formatNumber(n, Number.isInteger(n) ? 0 : 2) : null;
};

/** A value as a person reads it: amounts with separators, dates and options by name, lists by commas. */
const valueText = (v: unknown, field: Field | undefined, key: string): string => {
  if (v === null || v === undefined || v === '') return '—';
  if (typeof v === 'boolean') return v ? 'Yes' : 'No';
  if (key === 'roles' && Array.isArray(v))
    return v.map((r) => roleLabels[r as RoleName] ?? String(r)).join(', ');
  const kind = field?.kind;
  if (kind === 'money' || (!field && MONEY_KEYS.has(key))) return money(v) ?? String(v);
  if (!field && key.endsWith('_id') && (typeof v === 'number' || typeof v === 'string'))
    return `#${String(v)}`;
  if (kind === 'enum' && field?.options && typeof v === 'string')
    return (field.options.labels as Record<string, string>)[v] ?? v;
  if ((kind === 'date' || (!field && /(^|_)date$/.test(key))) && typeof v === 'string')
    return formatDate(v) || v;
  // a moment (a void's time): its day
  if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(v)) return formatDate(v) || v;
  if (Array.isArray(v))
    return v.length === 0 ? '—' : v.map((x) => (typeof x === 'object' ? describe(x) : String(x))).join(', ');
  if (typeof v === 'object') return describe(v);
  return String(v);
};

/** An object value (a statement line's allocations, a setting's policy) as 'key: value, …'. */
const describe = (v: unknown): string => {
  const o = obj(v);
  const parts = Object.entries(o)
    .filter(([, x]) => x !== null && x !== undefined && x !== '')
    .map(([k, x]) => `${humanize(k)}: ${valueText(x, undefined, k)}`);
  return parts.length > 0 ? parts.join(', ') : '—';
};

type Shown = { key: string; label: string; field: Field | undefined };

/** The fields an entry of the table shows, in the definition's order, with their labels. */
const shownFields = (entity: string, keys: readonly string[]): Shown[] => {
  const def = entity in entities ? entities[entity as keyof typeof entities] : undefined;
  const out: Shown[] = [];
  const seen = new Set<string>();
  const fields = def?.fields ?? [];
  for (const f of fields) {
    if (!keys.includes(f.name)) continue;
    seen.add(f.name);
    if (UNSHOWN.has(f.name) || f.kind === 'image' || f.kind === 'file' || f.copyOf) continue;
    if (f.readOnly && !SHOWN_READ_ONLY.has(f.name)) continue;
    out.push({ key: f.name, label: f.label, field: f });
  }
  for (const key of keys) {
    if (seen.has(key) || UNSHOWN.has(key)) continue;
    out.push({ key, label: humanize(key), field: undefined });
  }
  return out;
};

/** A reference's value by the name the record keeps of it ('Tenant: Jane Doe'), else its id. */
const referenceText = (row: Json, entity: string, field: Field | undefined, v: unknown): string | null => {
  if (field?.kind !== 'reference' || v === null || v === undefined) return null;
  const def = entity in entities ? entities[entity as keyof typeof entities] : undefined;
  const copy = def?.fields.find((f) => f.copyOf === field.name);
  const name = copy ? row[copy.name] : undefined;
  return typeof name === 'string' && name !== '' ? name : `#${String(v)}`;
};

const same = (x: unknown, y: unknown) => JSON.stringify(x ?? null) === JSON.stringify(y ?? null);

/**
 * The entry's changed fields as lines: 'Label: before → after' for a change, 'Label: value' for what a
 * new (or deleted) record held.
 */
export const auditDetails = (e: Omit<AuditWordsEntry, 'action'>): string[] => {
  const b = obj(e.before);
  const a = obj(e.after);
  const onlyOne = e.before === null || e.before === undefined || e.after === null || e.after === undefined;
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  const lines: string[] = [];
  for (const { key, label, field } of shownFields(e.entity, keys)) {
    const was = b[key];
    const now = a[key];
    if (!onlyOne && same(was, now)) continue;
    const text = (row: Json, v: unknown) =>
      referenceText(row, e.entity, field, v) ?? valueText(v, field, key);
    if (onlyOne) {
      const v = e.after === null || e.after === undefined ? was : now;
      if (v === null || v === undefined || v === '') continue;
      lines.push(`${label}: ${text(e.after === null || e.after === undefined ? b : a, v)}`);
    } else {
      lines.push(`${label}: ${text(b, was)} → ${text(a, now)}`);
    }
  }
  return lines;
};
