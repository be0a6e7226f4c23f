import { formatDate } from './dates.ts';
import type { Field } from './entity.ts';
import { entities } from './entities/index.ts';
import { formatNumber } from './money.ts';
import { roleLabels, type RoleName } from './roles.ts';
import type { AuditActionName } from './audit-log.ts';
import type { Language } from './i18n/languages.ts';

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

/**
 * The words of an entry in a reader's language (issue 30): `t` gives a catalogue key's message, or the
 * English given when the catalogue has none (the server passes the catalogues' `translate`), and
 * `language` formats dates and numbers. English is the default: the words below, unchanged.
 */
export type AuditWords = {
  language: Language;
  t: (key: string, english: string, values?: Record<string, string>) => string;
};

const fill = (english: string, values?: Record<string, string>) =>
  values ? english.replace(/\{(\w+)\}/g, (all, name: string) => values[name] ?? all) : english;

/** The English words: the catalogue's English is these (a test compares them). */
export const englishAuditWords: AuditWords = {
  language: 'en',
  t: (_key, english, values) => fill(english, values),
};

/** An audited table's noun in a reader's language: `audit.noun.<table>`. */
export const auditNounIn = (entity: string, words: AuditWords = englishAuditWords): string => {
  const english = auditNoun(entity);
  return english === undefined ? entity.replace(/_/g, ' ') : words.t(`audit.noun.${entity}`, english);
};

/** Each action's words about a record (`audit.did.<action>`), when nothing more particular is said below. */
export const auditActionWords: Readonly<Record<AuditActionName, string>> = {
  create: '{noun} added',
  update: '{noun} changed',
  delete: '{noun} deleted',
  sign_in: 'Signed in',
  sign_in_failed: 'Sign-in failed',
  access: '{noun}: access changed',
  match: '{noun} matched',
  ignore: '{noun} ignored',
  unmatch: '{noun} unmatched',
  webhook: 'Payment received by webhook',
  import: 'File imported',
};

/** What an entry says happened when its table and action say more than the action alone (`audit.event.<name>`). */
export const auditEvents = {
  chargeWaived: 'Charge waived',
  rentRateChanged: 'Rent rate changed',
  depositSettled: 'Deposit settled',
  paymentRecorded: 'Payment recorded',
  paymentVoided: 'Payment voided',
  webhookSecretReplaced: 'Webhook secret replaced',
  paymentProviderSaved: 'Payment provider settings saved',
  whatsappSaved: 'WhatsApp settings saved',
  paymentPromptSent: 'Payment prompt sent',
  announcementSent: 'Announcement sent',
  fileImported: 'File imported',
  rolesChanged: 'Roles changed',
  userEnabled: 'User enabled',
  userDisabled: 'User disabled',
  passwordSetByAdmin: 'Password set by an administrator',
  mfaOn: 'Two-factor sign-in turned on',
  mfaReset: 'Two-factor sign-in reset',
  mfaOff: 'Two-factor sign-in turned off',
  sessionsEnded: 'Sessions ended',
  invitedToTenantPortal: 'Invited to the tenant portal',
  portalAccessOn: 'Portal access turned on',
  portalAccessOff: 'Portal access turned off',
} as const;
type AuditEvent = keyof typeof auditEvents;

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
export const auditTitle = (e: AuditWordsEntry, words: AuditWords = englishAuditWords): string => {
  const event = (name: AuditEvent) => words.t(`audit.event.${name}`, auditEvents[name]);
  const b = obj(e.before);
  const a = obj(e.after);
  const key = `${e.entity}:${e.action}`;
  switch (key) {
    case 'charge_waivers:create':
      return event('chargeWaived');
    case 'rate_changes:create':
      return event('rentRateChanged');
    case 'deposit_settlements:create':
      return event('depositSettled');
    case 'payments:create':
      return event('paymentRecorded');
    case 'payments:update':
      if (a.status === 'void' && b.status !== 'void') return event('paymentVoided');
      break;
    case 'payment_webhooks:update':
      return event('webhookSecretReplaced');
    case 'payment_providers:create':
    case 'payment_providers:update':
      return event('paymentProviderSaved');
    case 'whatsapp_settings:create':
    case 'whatsapp_settings:update':
      return event('whatsappSaved');
    case 'payment_requests:create':
      return event('paymentPromptSent');
    case 'announcements:create':
      return event('announcementSent');
    case 'imports:import':
      return event('fileImported');
    case 'users:access':
      if (has(a, 'roles')) return event('rolesChanged');
      if (has(a, 'active') && a.active !== b.active)
        return a.active ? event('userEnabled') : event('userDisabled');
      return event('passwordSetByAdmin');
    case 'users:update':
      if (has(a, 'mfa_enabled') && a.mfa_enabled !== b.mfa_enabled) {
        if (a.mfa_enabled === true) return event('mfaOn');
        return has(a, 'mfa_reset_by') ? event('mfaReset') : event('mfaOff');
      }
      if (has(a, 'sessions_ended_by')) return event('sessionsEnded');
      break;
    case 'tenants:access':
      if (a.portal_status === 'invited') return event('invitedToTenantPortal');
      if (has(a, 'portal_access'))
        return a.portal_access ? event('portalAccessOn') : event('portalAccessOff');
      break;
  }
  return words.t(`audit.did.${e.action}`, auditActionWords[e.action], { noun: auditNounIn(e.entity, words) });
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

/**
 * Labels of keys that are no entity's field (a charge's, a statement line's, a setting's): where the
 * key in words is not the label ('ignore_reason' is 'Reason'), and the keys the catalogues name in
 * every language (`audit.field.<key>`: the words of the key, else these).
 */
export const auditKeyLabels: Readonly<Record<string, string>> = {
  occupancy_id: 'Lease',
  charge_id: 'Charge',
  tenant_id: 'Tenant',
  unit_id: 'Unit',
  payment_id: 'Payment',
  effective_date: 'From',
  rent_due_date: 'Rent due',
  ignore_reason: 'Reason',
  mfa_enabled: 'Two-factor sign-in',
  amount: 'Amount',
  reason: 'Reason',
  rate: 'Rate',
  status: 'Status',
  roles: 'Roles',
  active: 'Active',
  description: 'Description',
  category: 'Category',
  due_date: 'Due date',
  portal_access: 'Portal access',
  portal_status: 'Portal status',
  channel: 'Channel',
  to: 'To',
  sessions: 'Sessions',
  sessions_ended_by: 'Sessions ended by',
  mfa_reset_by: 'Mfa reset by',
  allocations: 'Allocations',
  payments_voided: 'Payments voided',
  deposit_amount: 'Deposit amount',
  deductions_total: 'Deductions total',
  refund_amount: 'Refund amount',
  applied_amount: 'Applied amount',
  balance: 'Balance',
  owners: 'Owners',
  entity: 'Entity',
  file_name: 'File name',
  source: 'Source',
  subject: 'Subject',
  body: 'Body',
  name: 'Name',
  email: 'Email',
  phone: 'Phone',
  first_name: 'First name',
  last_name: 'Last name',
  language: 'Language',
};

/** 'ignore_reason' → 'Ignore reason'. */
const humanizeEnglish = (key: string) => {
  const s = key.replace(/_/g, ' ');
  return s.charAt(0).toUpperCase() + s.slice(1);
};
const humanize = (key: string, w: AuditWords) =>
  w.t(`audit.field.${key}`, auditKeyLabels[key] ?? humanizeEnglish(key));

/** 'Label: value' ('Libellé : valeur' in French). */
const fieldValue = (w: AuditWords, label: string, value: string) =>
  w.t('audit.fieldValue', '{label}: {value}', { label, value });

const money = (v: unknown, w: AuditWords): string | null => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? formatNumber(n, Number.isInteger(n) ? 0 : 2, w.language) : null;
};

/** A value as a person reads it: amounts with separators, dates and options by name, lists by commas. */
const valueText = (
  v: unknown,
  field: Field | undefined,
  key: string,
  w: AuditWords,
  entity: string,
): string => {
  if (v === null || v === undefined || v === '') return '—';
  if (typeof v === 'boolean') return v ? w.t('shell.yes', 'Yes') : w.t('shell.no', 'No');
  if (key === 'roles' && Array.isArray(v))
    return v
      .map((r) => {
        const label = roleLabels[r as RoleName];
        return label === undefined ? String(r) : w.t(`users.role.${String(r)}`, label);
      })
      .join(', ');
  const kind = field?.kind;
  if (kind === 'money' || (!field && MONEY_KEYS.has(key))) return money(v, w) ?? String(v);
  if (!field && key.endsWith('_id') && (typeof v === 'number' || typeof v === 'string'))
    return `#${String(v)}`;
  if (kind === 'enum' && field?.options && typeof v === 'string') {
    const label = (field.options.labels as Record<string, string>)[v];
    return label === undefined ? v : w.t(`entity.${entity}.option.${field.name}.${v}`, label);
  }
  if ((kind === 'date' || (!field && /(^|_)date$/.test(key))) && typeof v === 'string')
    return formatDate(v, w.language) || v;
  // a moment (a void's time): its day
  if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(v))
    return formatDate(v, w.language) || v;
  if (Array.isArray(v))
    return v.length === 0
      ? '—'
      : v.map((x) => (typeof x === 'object' ? describe(x, w) : String(x))).join(', ');
  if (typeof v === 'object') return describe(v, w);
  return String(v);
};

/** An object value (a statement line's allocations, a setting's policy) as 'key: value, …'. */
const describe = (v: unknown, w: AuditWords): string => {
  const o = obj(v);
  const parts = Object.entries(o)
    .filter(([, x]) => x !== null && x !== undefined && x !== '')
    .map(([k, x]) => fieldValue(w, humanize(k, w), valueText(x, undefined, k, w, '')));
  return parts.length > 0 ? parts.join(', ') : '—';
};

type Shown = { key: string; label: string; field: Field | undefined };

/** The fields an entry of the table shows, in the definition's order, with their labels. */
const shownFields = (entity: string, keys: readonly string[], w: AuditWords): Shown[] => {
  const def = entity in entities ? entities[entity as keyof typeof entities] : undefined;
  const out: Shown[] = [];
  const seen = new Set<string>();
  const fields = def?.fields ?? [];
  for (const f of fields) {
    if (!keys.includes(f.name)) continue;
    seen.add(f.name);
    if (UNSHOWN.has(f.name) || f.kind === 'image' || f.kind === 'file' || f.copyOf) continue;
    if (f.readOnly && !SHOWN_READ_ONLY.has(f.name)) continue;
    out.push({ key: f.name, label: w.t(`entity.${entity}.field.${f.name}`, f.label), field: f });
  }
  for (const key of keys) {
    if (seen.has(key) || UNSHOWN.has(key)) continue;
    out.push({ key, label: humanize(key, w), field: undefined });
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
export const auditDetails = (
  e: Omit<AuditWordsEntry, 'action'>,
  words: AuditWords = englishAuditWords,
): string[] => {
  const b = obj(e.before);
  const a = obj(e.after);
  const onlyOne = e.before === null || e.before === undefined || e.after === null || e.after === undefined;
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  const lines: string[] = [];
  for (const { key, label, field } of shownFields(e.entity, keys, words)) {
    const was = b[key];
    const now = a[key];
    if (!onlyOne && same(was, now)) continue;
    const text = (row: Json, v: unknown) =>
      referenceText(row, e.entity, field, v) ?? valueText(v, field, key, words, e.entity);
    if (onlyOne) {
      const v = e.after === null || e.after === undefined ? was : now;
      if (v === null || v === undefined || v === '') continue;
      lines.push(fieldValue(words, label, text(e.after === null || e.after === undefined ? b : a, v)));
    } else {
      lines.push(
        words.t('audit.fieldChange', '{label}: {before} → {after}', {
          label,
          before: text(b, was),
          after: text(a, now),
        }),
      );
    }
  }
  return lines;
};
