import { z } from 'zod';
import type { TemplateVariable } from './messages.ts';

/**
 * WhatsApp as a channel (issue 29; docs/decisions.md, 'WhatsApp'): each company's account with the
 * WhatsApp Business Cloud API (its phone-number id, access token and app secret, the last two
 * sealed), the templates it had Meta approve, and whether a WhatsApp message that fails goes by SMS.
 * A business-initiated WhatsApp message is a template Meta approved: Kodi sends its name, language
 * and the values of its `{{1}}`, `{{2}}`… in the order below.
 */

/** What a company names a WhatsApp template for: the reminders' events, receipts, and any other message. */
export const whatsappTemplateKinds = ['before_due', 'due', 'overdue', 'receipt', 'other'] as const;
export type WhatsappTemplateKind = (typeof whatsappTemplateKinds)[number];

export const whatsappTemplateLabels: Record<WhatsappTemplateKind, string> = {
  before_due: 'Reminder before the due date',
  due: 'Reminder on the due date',
  overdue: 'Overdue reminder',
  receipt: 'Receipt',
  other: 'Other messages (announcements)',
};

const REMINDER: readonly TemplateVariable[] = [
  'tenant_first_name',
  'amount_due',
  'unit_name',
  'due_date',
  'balance',
  'company_name',
];

/**
 * The body variables of each template, in order: `{{1}}` is the first. `other`: one variable, the
 * message's text (an announcement's).
 */
export const whatsappTemplateVariables: Record<WhatsappTemplateKind, readonly TemplateVariable[] | 'text'> = {
  before_due: REMINDER,
  due: REMINDER,
  overdue: REMINDER,
  receipt: ['tenant_first_name', 'amount_paid', 'receipt_number', 'receipt_url', 'company_name'],
  other: 'text',
};

/** A template's variables as the settings page lists them: '{{1}} tenant_first_name, {{2}} …'. */
export const whatsappVariablesText = (kind: WhatsappTemplateKind): string => {
  const v = whatsappTemplateVariables[kind];
  return v === 'text' ? '{{1}} the message’s text' : v.map((name, i) => `{{${i + 1}}} ${name}`).join(', ');
};

/** The template a message of a kind (a reminder's event, or the message's own kind) goes by. */
export const whatsappTemplateKindOf = (kind: string): WhatsappTemplateKind =>
  (whatsappTemplateKinds as readonly string[]).includes(kind) ? (kind as WhatsappTemplateKind) : 'other';

/** What Meta's webhook says of a message: its `statuses[].status`, in the order they come. */
export const whatsappStatusRank: Record<string, number> = { sent: 1, delivered: 2, read: 3, failed: 4 };

const templateName = z
  .string()
  .trim()
  .max(512, 'At most 512 characters.')
  .regex(/^[a-z0-9_]*$/, 'Lower-case letters, digits and _ only (as in WhatsApp Manager).')
  .nullable()
  .optional()
  .transform((v) => (v === '' ? null : v));

const secret = z.string().trim().max(1000, 'At most 1000 characters.').nullable().optional();

/**
 * `PUT /whatsapp-settings`: a secret left out is kept, null or '' clears it; turning WhatsApp on
 * needs the phone-number id, the access token and the app secret. What only GET answers (whether each
 * secret is set, the webhook's URL and verify token, the API's address) may come back and is ignored.
 */
export const whatsappSettingsBody = z.strictObject({
  enabled: z.boolean({ error: 'Must be true or false.' }),
  phone_number_id: z
    .string()
    .trim()
    .regex(/^\d{0,30}$/, 'The phone-number id is the digits WhatsApp Manager shows.')
    .nullable()
    .optional()
    .transform((v) => (v === '' ? null : v)),
  access_token: secret,
  app_secret: secret,
  language: z
    .string()
    .trim()
    .regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, 'A language code as WhatsApp writes it: en, en_US, sw, fr…')
    .optional(),
  templates: z.partialRecord(z.enum(whatsappTemplateKinds), templateName).optional(),
  fallback_sms: z.boolean({ error: 'Must be true or false.' }).optional(),
  version: z.number().int().positive().optional(),
  // what GET answers besides (a GET's answer goes back to its PUT as it is): read, never written
  access_token_set: z.boolean().optional(),
  app_secret_set: z.boolean().optional(),
  webhook_url: z.string().nullable().optional(),
  verify_token: z.string().nullable().optional(),
  base_url: z.string().optional(),
});
export type WhatsappSettingsBody = z.infer<typeof whatsappSettingsBody>;

/** `GET /whatsapp-settings`: never a secret's value, only whether it is set. */
export const whatsappSettingsSchema = z.object({
  enabled: z.boolean(),
  phone_number_id: z.string().nullable(),
  access_token_set: z.boolean(),
  app_secret_set: z.boolean(),
  language: z.string(),
  templates: z.record(z.enum(whatsappTemplateKinds), z.string().nullable()),
  fallback_sms: z.boolean(),
  /** the callback URL to paste in Meta's portal (null until first saved) */
  webhook_url: z.string().nullable(),
  /** the verify token to paste beside it (null until first saved) */
  verify_token: z.string().nullable(),
  /** the Cloud API Kodi calls (WHATSAPP_BASE_URL) */
  base_url: z.string(),
  version: z.int(),
});
export type WhatsappSettings = z.infer<typeof whatsappSettingsSchema>;

export const DEFAULT_WHATSAPP_LANGUAGE = 'en';
