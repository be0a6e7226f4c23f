import { z } from 'zod';
import { auditAction } from './enums.ts';

// The audit log (issue 20): every change of business data, sign-ins, access and settings changes,
// imports, waivers, statement matches and webhook deliveries of a company, read-only.

export type AuditActionName = (typeof auditAction.values)[number];

/** One changed field of an entry: its value before and after, as text (null: none). */
export const auditChangeSchema = z.object({
  field: z.string(),
  before: z.string().nullable(),
  after: z.string().nullable(),
});
export type AuditChange = z.infer<typeof auditChangeSchema>;

/** A row of `GET /audit-log`. */
export const auditLogEntrySchema = z.object({
  id: z.int(),
  at: z.string(),
  user_id: z.int().nullable(),
  user_email: z.string().nullable(),
  action: z.enum(auditAction.values),
  entity: z.string(),
  record_id: z.int(),
  summary: z.string(),
  /** what happened, in words ('Charge waived', 'Payment voided'): `auditTitle` */
  title: z.string(),
  /** the changed fields as lines ('Amount Paid: 800,000 → 80,000'): `auditDetails` */
  details: z.array(z.string()),
  changes: z.array(auditChangeSchema),
});
export type AuditLogEntry = z.infer<typeof auditLogEntrySchema>;

/** Fields a change list leaves out: the bookkeeping every row carries. */
const UNSHOWN = new Set(['id', 'company_id', 'version', 'created_at', 'updated_at', 'search_text']);

const shown = (v: unknown): string | null =>
  v === null || v === undefined ? null : typeof v === 'string' ? v : JSON.stringify(v);

/** Before and after of each field that differs between two JSON records (either may be null). */
export const auditChanges = (before: unknown, after: unknown): AuditChange[] => {
  const obj = (v: unknown): Record<string, unknown> =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  const b = obj(before);
  const a = obj(after);
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])].filter((k) => !UNSHOWN.has(k));
  const out: AuditChange[] = [];
  for (const field of keys) {
    const was = shown(b[field]);
    const now = shown(a[field]);
    if (was !== now) out.push({ field, before: was, after: now });
  }
  return out;
};

/** 'lease_charges' → 'lease charges'. */
const words = (entity: string) => entity.replace(/_/g, ' ');

/** The entry's one line: its stored summary, else the action and the record. */
export const auditSummary = (e: {
  action: AuditActionName;
  entity: string;
  record_id: number;
  summary: string;
}) => e.summary || `${auditAction.labels[e.action]} ${words(e.entity)} #${e.record_id}`;

export const auditLogTexts = {
  title: 'Audit Log',
  empty: 'No entries.',
  intro: 'Who changed what, who signed in and what arrived by webhook. Entries cannot be changed or deleted.',
} as const;
