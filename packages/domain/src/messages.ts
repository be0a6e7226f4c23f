import { z } from 'zod';
import {
  deliveryStatus,
  messageChannel,
  messageKind,
  messageStatus,
  templateChannel,
  templateKind,
} from './enums.ts';
import { STALE_REMINDER_DAYS } from './rent-cycle.ts';
import { LANGUAGES, type Language } from './i18n/languages.ts';

/**
 * Messages to tenants and their templates (issue 17, 'Messages'; docs/decisions.md, 'Messages').
 * A template is text with `{{variable}}` placeholders; only the variables below exist, and a
 * template naming another is refused when it is saved.
 */

export const templateVariables = [
  'tenant_first_name',
  'unit_name',
  'amount_due',
  'due_date',
  'balance',
  'company_name',
  'receipt_number',
  'amount_paid',
  'receipt_url',
  'account_reference',
  'how_to_pay',
] as const;
export type TemplateVariable = (typeof templateVariables)[number];
export type TemplateValues = Partial<Record<TemplateVariable, string>>;

/** An SMS longer than this goes as several parts (GSM-7, one part). */
export const SMS_PART_LENGTH = 160;
export const SMS_PARTS_WARNING = `Longer than ${SMS_PART_LENGTH} characters: it will be sent as several SMS parts.`;

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
const known: ReadonlySet<string> = new Set(templateVariables);

/** The placeholders of a text that name no variable, each once, in their order. */
export const unknownVariables = (text: string): string[] => {
  const out: string[] = [];
  for (const m of text.matchAll(PLACEHOLDER)) {
    const name = m[1] ?? '';
    if (!known.has(name) && !out.includes(name)) out.push(name);
  }
  return out;
};

/** The text with each `{{variable}}` replaced by its value ('' when the message has none). */
export const renderTemplate = (text: string, values: TemplateValues): string =>
  text.replace(PLACEHOLDER, (_all, name: string) => values[name as TemplateVariable] ?? '');

/** The warnings of a template as saved: an SMS over one part. */
export const templateWarnings = (t: { channel: string; body: string }): string[] =>
  t.channel === 'sms' && t.body.length > SMS_PART_LENGTH ? [SMS_PARTS_WARNING] : [];

type Channel = (typeof templateChannel.values)[number];
export type TemplateKind = (typeof templateKind.values)[number];

export type TemplateText = {
  name: string;
  /** the language it is written in (issue 30): a message goes out in its recipient's */
  language: Language;
  kind: TemplateKind;
  channel: Channel;
  subject: string | null;
  body: string;
};

/** The built-in English templates: one per event and channel, in plain English. */
const englishTemplates: readonly TemplateText[] = [
  {
    language: 'en',
    name: 'Rent due soon (e-mail)',
    kind: 'before_due',
    channel: 'email',
    subject: 'Rent reminder: {{unit_name}}',
    body:
      'Dear {{tenant_first_name}},\n\nThis is a friendly reminder that your rent of {{amount_due}} for {{unit_name}} ' +
      'is due on {{due_date}}. Your balance is {{balance}}.\n\nThank you,\n{{company_name}}',
  },
  {
    language: 'en',
    name: 'Rent due soon (SMS)',
    kind: 'before_due',
    channel: 'sms',
    subject: null,
    body: 'Hi {{tenant_first_name}}, your rent of {{amount_due}} for {{unit_name}} is due on {{due_date}}. {{company_name}}',
  },
  {
    language: 'en',
    name: 'Rent due today (e-mail)',
    kind: 'due',
    channel: 'email',
    subject: 'Rent due today: {{unit_name}}',
    body:
      'Dear {{tenant_first_name}},\n\nYour rent of {{amount_due}} for {{unit_name}} is due today, {{due_date}}. ' +
      'Your balance is {{balance}}.\n\nThank you,\n{{company_name}}',
  },
  {
    language: 'en',
    name: 'Rent due today (SMS)',
    kind: 'due',
    channel: 'sms',
    subject: null,
    body: 'Hi {{tenant_first_name}}, your rent of {{amount_due}} for {{unit_name}} is due today. {{company_name}}',
  },
  {
    language: 'en',
    name: 'Rent overdue (e-mail)',
    kind: 'overdue',
    channel: 'email',
    subject: 'Rent overdue: {{unit_name}}',
    body:
      'Dear {{tenant_first_name}},\n\nYour rent of {{amount_due}} for {{unit_name}} was due on {{due_date}} and ' +
      'has not been paid in full. Your balance is {{balance}}. Please pay it as soon as you can.\n\n{{company_name}}',
  },
  {
    language: 'en',
    name: 'Rent overdue (SMS)',
    kind: 'overdue',
    channel: 'sms',
    subject: null,
    body: 'Hi {{tenant_first_name}}, your rent for {{unit_name}} due {{due_date}} is overdue. Balance: {{balance}}. {{company_name}}',
  },
  {
    language: 'en',
    name: 'Payment receipt (e-mail)',
    kind: 'receipt',
    channel: 'email',
    subject: 'Receipt {{receipt_number}}: {{amount_paid}} received',
    body:
      'Dear {{tenant_first_name}},\n\nWe have received your payment of {{amount_paid}} for {{unit_name}}. ' +
      'Your receipt {{receipt_number}} is attached and online at {{receipt_url}}\n\nThank you,\n{{company_name}}',
  },
  {
    language: 'en',
    name: 'Payment receipt (SMS)',
    kind: 'receipt',
    channel: 'sms',
    subject: null,
    body: 'Payment of {{amount_paid}} received, receipt {{receipt_number}}: {{receipt_url}} {{company_name}}',
  },
];

/** The built-in Kiswahili templates (issue 30): the English ones' events, channels and variables. */
const swahiliTemplates: readonly TemplateText[] = [
  {
    language: 'sw',
    name: 'Kodi inakaribia (barua pepe)',
    kind: 'before_due',
    channel: 'email',
    subject: 'Ukumbusho wa kodi: {{unit_name}}',
    body:
      'Mpendwa {{tenant_first_name}},\n\nHuu ni ukumbusho kwamba kodi yako ya {{amount_due}} ya {{unit_name}} ' +
      'inadaiwa tarehe {{due_date}}. Salio lako ni {{balance}}.\n\nAsante,\n{{company_name}}',
  },
  {
    language: 'sw',
    name: 'Kodi inakaribia (SMS)',
    kind: 'before_due',
    channel: 'sms',
    subject: null,
    body: 'Habari {{tenant_first_name}}, kodi yako ya {{amount_due}} ya {{unit_name}} inadaiwa {{due_date}}. {{company_name}}',
  },
  {
    language: 'sw',
    name: 'Kodi inadaiwa leo (barua pepe)',
    kind: 'due',
    channel: 'email',
    subject: 'Kodi inadaiwa leo: {{unit_name}}',
    body:
      'Mpendwa {{tenant_first_name}},\n\nKodi yako ya {{amount_due}} ya {{unit_name}} inadaiwa leo, {{due_date}}. ' +
      'Salio lako ni {{balance}}.\n\nAsante,\n{{company_name}}',
  },
  {
    language: 'sw',
    name: 'Kodi inadaiwa leo (SMS)',
    kind: 'due',
    channel: 'sms',
    subject: null,
    body: 'Habari {{tenant_first_name}}, kodi yako ya {{amount_due}} ya {{unit_name}} inadaiwa leo. {{company_name}}',
  },
  {
    language: 'sw',
    name: 'Kodi imechelewa (barua pepe)',
    kind: 'overdue',
    channel: 'email',
    subject: 'Kodi imechelewa: {{unit_name}}',
    body:
      'Mpendwa {{tenant_first_name}},\n\nKodi yako ya {{amount_due}} ya {{unit_name}} ilidaiwa tarehe {{due_date}} na ' +
      'haijalipwa yote. Salio lako ni {{balance}}. Tafadhali lipa haraka iwezekanavyo.\n\n{{company_name}}',
  },
  {
    language: 'sw',
    name: 'Kodi imechelewa (SMS)',
    kind: 'overdue',
    channel: 'sms',
    subject: null,
    body: 'Habari {{tenant_first_name}}, kodi yako ya {{unit_name}} iliyodaiwa {{due_date}} imechelewa. Salio: {{balance}}. {{company_name}}',
  },
  {
    language: 'sw',
    name: 'Risiti ya malipo (barua pepe)',
    kind: 'receipt',
    channel: 'email',
    subject: 'Risiti {{receipt_number}}: {{amount_paid}} imepokelewa',
    body:
      'Mpendwa {{tenant_first_name}},\n\nTumepokea malipo yako ya {{amount_paid}} ya {{unit_name}}. ' +
      'Risiti yako {{receipt_number}} imeambatishwa na iko mtandaoni: {{receipt_url}}\n\nAsante,\n{{company_name}}',
  },
  {
    language: 'sw',
    name: 'Risiti ya malipo (SMS)',
    kind: 'receipt',
    channel: 'sms',
    subject: null,
    body: 'Malipo ya {{amount_paid}} yamepokelewa, risiti {{receipt_number}}: {{receipt_url}} {{company_name}}',
  },
];

/** The built-in French templates (issue 30): the English ones' events, channels and variables. */
const frenchTemplates: readonly TemplateText[] = [
  {
    language: 'fr',
    name: 'Loyer bientôt dû (e-mail)',
    kind: 'before_due',
    channel: 'email',
    subject: 'Rappel de loyer : {{unit_name}}',
    body:
      'Bonjour {{tenant_first_name}},\n\nNous vous rappelons que votre loyer de {{amount_due}} pour {{unit_name}} ' +
      'est dû le {{due_date}}. Votre solde est de {{balance}}.\n\nMerci,\n{{company_name}}',
  },
  {
    language: 'fr',
    name: 'Loyer bientôt dû (SMS)',
    kind: 'before_due',
    channel: 'sms',
    subject: null,
    body: 'Bonjour {{tenant_first_name}}, votre loyer de {{amount_due}} pour {{unit_name}} est dû le {{due_date}}. {{company_name}}',
  },
  {
    language: 'fr',
    name: 'Loyer dû aujourd’hui (e-mail)',
    kind: 'due',
    channel: 'email',
    subject: 'Loyer dû aujourd’hui : {{unit_name}}',
    body:
      'Bonjour {{tenant_first_name}},\n\nVotre loyer de {{amount_due}} pour {{unit_name}} est dû aujourd’hui, le {{due_date}}. ' +
      'Votre solde est de {{balance}}.\n\nMerci,\n{{company_name}}',
  },
  {
    language: 'fr',
    name: 'Loyer dû aujourd’hui (SMS)',
    kind: 'due',
    channel: 'sms',
    subject: null,
    body: 'Bonjour {{tenant_first_name}}, votre loyer de {{amount_due}} pour {{unit_name}} est dû aujourd’hui. {{company_name}}',
  },
  {
    language: 'fr',
    name: 'Loyer en retard (e-mail)',
    kind: 'overdue',
    channel: 'email',
    subject: 'Loyer en retard : {{unit_name}}',
    body:
      'Bonjour {{tenant_first_name}},\n\nVotre loyer de {{amount_due}} pour {{unit_name}} était dû le {{due_date}} et ' +
      'n’a pas été payé en entier. Votre solde est de {{balance}}. Merci de le régler dès que possible.\n\n{{company_name}}',
  },
  {
    language: 'fr',
    name: 'Loyer en retard (SMS)',
    kind: 'overdue',
    channel: 'sms',
    subject: null,
    body: 'Bonjour {{tenant_first_name}}, votre loyer pour {{unit_name}} dû le {{due_date}} est en retard. Solde : {{balance}}. {{company_name}}',
  },
  {
    language: 'fr',
    name: 'Reçu de paiement (e-mail)',
    kind: 'receipt',
    channel: 'email',
    subject: 'Reçu {{receipt_number}} : {{amount_paid}} reçu',
    body:
      'Bonjour {{tenant_first_name}},\n\nNous avons bien reçu votre paiement de {{amount_paid}} pour {{unit_name}}. ' +
      'Votre reçu {{receipt_number}} est joint et en ligne à {{receipt_url}}\n\nMerci,\n{{company_name}}',
  },
  {
    language: 'fr',
    name: 'Reçu de paiement (SMS)',
    kind: 'receipt',
    channel: 'sms',
    subject: null,
    body: 'Paiement de {{amount_paid}} reçu, reçu {{receipt_number}} : {{receipt_url}} {{company_name}}',
  },
];

/**
 * The templates each company starts with (issue 30): one per event and channel in each language,
 * English first (its texts are the specification's).
 */
export const defaultTemplates: readonly TemplateText[] = [
  ...englishTemplates,
  ...swahiliTemplates,
  ...frenchTemplates,
];

/** The variables a text names, each once, sorted (a template's set is the same in every language). */
export const templateVariablesOf = (text: string): string[] =>
  [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1] ?? ''))].sort();

/** The built-in template of a kind and channel, in a language (English when none is named). */
export const defaultTemplate = (
  kind: TemplateKind,
  channel: Channel,
  language: Language = 'en',
): TemplateText => {
  const t = defaultTemplates.find((d) => d.kind === kind && d.channel === channel && d.language === language);
  if (!t) throw new Error(`No default template for ${kind} ${channel} ${language}.`);
  return t;
};

const templateText = (max: number, what: string) =>
  z
    .string({ error: 'Required.' })
    .max(max, `${what} must be at most ${max} characters.`)
    .superRefine((text, ctx) => {
      const unknown = unknownVariables(text);
      if (unknown.length > 0) {
        ctx.addIssue({
          code: 'custom',
          message: `Unknown variable${unknown.length > 1 ? 's' : ''}: ${unknown.map((u) => `{{${u}}}`).join(', ')}. Use ${templateVariables.map((v) => `{{${v}}}`).join(', ')}.`,
        });
      }
    });

const templateFields = {
  name: z.string({ error: 'Required.' }).trim().min(1, 'Required.').max(100, 'At most 100 characters.'),
  channel: z.enum(templateChannel.values, { error: "Use 'email' or 'sms'." }),
  kind: z.enum(templateKind.values as readonly ['before_due', 'due', 'overdue', 'receipt'], {
    error: "Use 'before_due', 'due', 'overdue' or 'receipt'.",
  }),
  subject: z
    .union([templateText(200, 'The subject'), z.null()])
    .optional()
    .transform((v) => (v === '' || v === undefined ? null : v)),
  body: templateText(5000, 'The text').refine((b) => b.trim().length > 0, 'Required.'),
  /** the language it is written in (issue 30); left out: English (a new one) or as it is (a change) */
  language: z.enum(LANGUAGES, { error: "Use 'en', 'sw' or 'fr'." }).optional(),
};

const subjectOfEmail = (t: { channel: string; subject: string | null }, ctx: z.RefinementCtx) => {
  if (t.channel === 'email' && !t.subject) {
    ctx.addIssue({ code: 'custom', path: ['subject'], message: 'An e-mail needs a subject.' });
  }
};

/** `POST /message-templates`. */
export const messageTemplateBody = z.strictObject(templateFields).superRefine(subjectOfEmail);
export type MessageTemplateBody = z.infer<typeof messageTemplateBody>;

/** `PUT /message-templates/{id}`: the same, and the `version` that was read. */
export const messageTemplateUpdateBody = z
  .strictObject({
    ...templateFields,
    version: z.coerce.number().int().min(1),
    // what its GET answers and no PUT writes: taken back as read and left as they are (issue 26)
    id: z.unknown().optional(),
    created_at: z.unknown().optional(),
    updated_at: z.unknown().optional(),
    warnings: z.unknown().optional(),
  })
  .superRefine(subjectOfEmail);

export const messageTemplateSchema = z.object({
  id: z.int(),
  name: z.string(),
  channel: z.enum(['email', 'sms']),
  kind: z.enum(['before_due', 'due', 'overdue', 'receipt']),
  subject: z.string().nullable(),
  body: z.string(),
  language: z.enum(LANGUAGES),
  version: z.int(),
  created_at: z.string(),
  updated_at: z.string(),
  /** an SMS over 160 characters: sent as several parts */
  warnings: z.array(z.string()),
});
export type MessageTemplate = z.infer<typeof messageTemplateSchema>;

export const templatePreviewBody = z.strictObject({
  occupancy_id: z.coerce.number({ error: 'Required.' }).int().positive('Required.'),
});
export const templatePreviewSchema = z.object({
  channel: z.enum(['email', 'sms']),
  subject: z.string().nullable(),
  body: z.string(),
  warnings: z.array(z.string()),
});

/** A row of `GET /messages`. */
export const messageSchema = z.object({
  id: z.int(),
  created_at: z.string(),
  kind: z.enum(messageKind.values),
  channel: z.enum(messageChannel.values),
  to: z.string().nullable(),
  tenant_id: z.int().nullable(),
  tenant_name: z.string().nullable(),
  subject: z.string().nullable(),
  body: z.string(),
  status: z.enum(messageStatus.values as readonly ['queued', 'sending', 'sent', 'failed', 'skipped']),
  attempts: z.int(),
  error: z.string().nullable(),
  /** why it was skipped or failed (or is waiting to be tried again), in words: `messageReason` */
  reason: z.string().nullable(),
  sent_at: z.string().nullable(),
  /** WhatsApp: what its webhook last reported (sent, delivered, read, failed), else null */
  delivery_status: z.enum(deliveryStatus.values).nullable(),
  /** WhatsApp: the message's id at Meta (`wamid.…`), once sent */
  external_id: z.string().nullable(),
});
export type Message = z.infer<typeof messageSchema>;

/** `POST /messages/test`: a test message to an address, to check the server's providers. */
export const testMessageBody = z
  .strictObject({
    channel: z.enum(messageChannel.values, { error: "Use 'email', 'sms' or 'whatsapp'." }),
    to: z.string({ error: 'Required.' }).trim().min(3, 'Required.').max(255, 'At most 255 characters.'),
  })
  .superRefine((b, ctx) => {
    if (b.channel === 'email' ? !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(b.to) : !/^\+\d{7,15}$/.test(b.to)) {
      ctx.addIssue({
        code: 'custom',
        path: ['to'],
        message:
          b.channel === 'email'
            ? 'Enter an e-mail address.'
            : 'Enter a phone number with its country code (+256…).',
      });
    }
  });

/** What the server can send through: the settings page says when SMS cannot go out. */
export const messageProvidersSchema = z.object({
  email: z.boolean(),
  sms: z.boolean(),
  whatsapp: z.boolean(),
});

export const MAX_SEND_ATTEMPTS = 5;
export const NO_SMS_PROVIDER = 'No SMS provider configured';
export const NO_SMTP_SERVER = 'No SMTP server configured';
/** WhatsApp is off for the company, or not set up (Company settings, WhatsApp). */
export const NO_WHATSAPP = 'whatsapp_off';
/** The company named no WhatsApp template for this kind of message. */
export const NO_WHATSAPP_TEMPLATE = 'whatsapp_no_template';

/**
 * Why a message was not sent, in words, from the outcome the sender or the daily run recorded in
 * `error` (a code, one of the two provider texts above, or the provider's own error): null when
 * nothing went wrong (sent, or queued for the first time).
 */
export const messageReason = (m: {
  status: string;
  error: string | null;
  channel: string;
  kind: string;
}): string | null => {
  if (!m.error) return null;
  switch (m.error) {
    case 'stale':
      return `Too late: more than ${STALE_REMINDER_DAYS} days after its send date (a reminder is never sent late).`;
    case 'no_address':
      if (m.kind === 'maintenance_request') return 'The company has no contact e-mail address.';
      return m.channel === 'email' ? 'The tenant has no e-mail address.' : 'The tenant has no phone number.';
    case 'opted_out':
      return `The tenant chose not to get messages by ${m.channel === 'sms' ? 'SMS' : m.channel === 'email' ? 'e-mail' : 'WhatsApp'}.`;
    case NO_SMS_PROVIDER:
      return 'No SMS provider is set up on this server (SMS_URL).';
    case NO_SMTP_SERVER:
      return 'No e-mail server is set up on this server (SMTP_URL).';
    case NO_WHATSAPP:
      return 'WhatsApp is off or not set up for the company (Company settings, WhatsApp).';
    case NO_WHATSAPP_TEMPLATE:
      return 'The company named no WhatsApp template for this message (Company settings, WhatsApp).';
  }
  // the provider's own words ('The SMS provider refused it: 403.', a timeout, an SMTP reply)
  return m.status === 'queued' || m.status === 'sending' ? `Will be tried again: ${m.error}` : m.error;
};
