import { z } from 'zod';
import { lateFeeKind, lateFeeRepeat, messageChannel, reminderEvent } from './enums.ts';

/**
 * A company's settings (`GET /company-settings`, `PUT /company-settings`; issue 17): its time zone
 * and the hour of its daily run, its logo, its late-fee policy, its rent reminders, the notifications
 * of receipts and its SMS sender id. A company without a row of its own has the defaults below.
 */

export const DEFAULT_TIMEZONE = 'Africa/Kampala';
export const DEFAULT_DAILY_RUN_HOUR = 6;
/** The logo's bytes (png, jpeg or webp): at most 1 MB. */
export const MAX_LOGO_BYTES = 1024 * 1024;
export const MAX_REMINDERS = 10;
/** The words of a service charge when the company gives none ('Service charge November 2026'). */
export const DEFAULT_SERVICE_CHARGE_TEXT = 'Service charge';

const zones = new Map<string, boolean>();

/** Whether `tz` is an IANA time zone this runtime knows (`Africa/Kampala`, `UTC`). */
export const isTimeZone = (tz: string): boolean => {
  let known = zones.get(tz);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: tz });
      known = /^[A-Za-z_+\-/0-9]+$/.test(tz);
    } catch {
      known = false;
    }
    zones.set(tz, known);
  }
  return known;
};

const toNumber = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v);

/** An amount of money or a percentage: a number ≥ 0 with at most 2 decimals. */
const amount = (message: string) =>
  z.preprocess(
    toNumber,
    z
      .number({ error: 'Must be a number.' })
      .min(0, message)
      .max(999_999_999_999.99, 'The number is too large.')
      .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, 'At most 2 decimals.'),
  );

const wholeNumber = (min: number, max: number, message: string) =>
  z.preprocess(toNumber, z.number({ error: message }).int(message).min(min, message).max(max, message));

/**
 * The late-fee policy: a rent charge still unpaid at the end of its due date plus `grace_days` gets a
 * fee the next day, then again every 7 days (`weekly`) or on that day of each month (`monthly`)
 * while unpaid; `flat`: `amount`; `percent`: `amount`% of what is unpaid of the charge; never more
 * than `cap` in all for one charge (docs/decisions.md, 'The rent cycle').
 */
export const lateFeePolicySchema = z
  .strictObject({
    enabled: z.boolean({ error: 'Must be true or false.' }),
    grace_days: wholeNumber(0, 60, 'Grace days must be a whole number from 0 to 60.'),
    kind: z.enum(lateFeeKind.values as readonly ['flat', 'percent'], { error: "Use 'flat' or 'percent'." }),
    amount: amount('The amount must be 0 or more.'),
    repeat: z.enum(lateFeeRepeat.values as readonly ['once', 'weekly', 'monthly'], {
      error: "Use 'once', 'weekly' or 'monthly'.",
    }),
    cap: z.preprocess(
      (v) => (v === '' || v === undefined ? null : toNumber(v)),
      amount('The cap must be greater than 0.')
        .refine((v) => v > 0, 'The cap must be greater than 0.')
        .nullable(),
    ),
  })
  .superRefine((p, ctx) => {
    if (p.enabled && !(p.amount > 0)) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: 'The amount must be greater than 0.' });
    }
    if (p.kind === 'percent' && p.amount > 100) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: 'A percentage must be at most 100.' });
    }
  });
export type LateFeePolicy = z.infer<typeof lateFeePolicySchema>;

export const defaultLateFeePolicy: LateFeePolicy = {
  enabled: false,
  grace_days: 5,
  kind: 'flat',
  amount: 0,
  repeat: 'once',
  cap: null,
};

/** A rent reminder: `before_due` `days` before the due date, on the `due` date (days 0), or `overdue` `days` after it. */
export const reminderRuleSchema = z
  .strictObject({
    event: z.enum(reminderEvent.values as readonly ['before_due', 'due', 'overdue'], {
      error: "Use 'before_due', 'due' or 'overdue'.",
    }),
    days: wholeNumber(0, 60, 'Days must be a whole number from 0 to 60.'),
    channels: z
      .array(z.enum(messageChannel.values, { error: "Use 'email', 'sms' or 'whatsapp'." }))
      .min(1, 'Choose at least one channel.')
      .max(messageChannel.values.length)
      .refine((c) => new Set(c).size === c.length, 'A channel is named twice.'),
    /** a message template (its table comes with the messages' templates; no reference is checked yet) */
    template_id: z
      .preprocess((v) => (v === '' || v === undefined ? null : toNumber(v)), z.int().positive().nullable())
      .default(null),
  })
  .superRefine((r, ctx) => {
    if (r.event === 'due' && r.days !== 0) {
      ctx.addIssue({ code: 'custom', path: ['days'], message: 'A reminder on the due date has 0 days.' });
    }
    if (r.event !== 'due' && r.days < 1) {
      ctx.addIssue({ code: 'custom', path: ['days'], message: 'Days must be at least 1.' });
    }
  });
export type ReminderRule = z.infer<typeof reminderRuleSchema>;

export const remindersSchema = z
  .array(reminderRuleSchema)
  .max(MAX_REMINDERS, `At most ${MAX_REMINDERS} reminders.`)
  .superRefine((rules, ctx) => {
    // one reminder per event, day and channel: an e-mail and an SMS on the same day are two (issue 26)
    const seen = new Set<string>();
    rules.forEach((r, i) => {
      const keys = r.channels.map((c) => `${r.event}:${r.days}:${c}`);
      if (keys.some((k) => seen.has(k))) {
        ctx.addIssue({ code: 'custom', path: [i, 'days'], message: 'This reminder is there already.' });
      }
      for (const k of keys) seen.add(k);
    });
  });

export const receiptNotificationSchema = z.strictObject({
  email: z.boolean({ error: 'Must be true or false.' }),
  sms: z.boolean({ error: 'Must be true or false.' }),
  /** issue 29: by WhatsApp too (left out, as in settings saved before it: off) */
  whatsapp: z.boolean({ error: 'Must be true or false.' }).default(false),
});

const SENDER_ID = /^(?=.*[A-Za-z])[A-Za-z0-9 ]{3,11}$/;

const instruction = (max: number, pattern?: RegExp, message?: string) =>
  z
    .union([z.string().trim(), z.null()])
    .transform((v) => (v === '' ? null : v))
    .refine((v) => v === null || v.length <= max, `Maximum ${max} characters.`)
    .refine((v) => v === null || !pattern || pattern.test(v), message ?? 'Not valid.')
    .default(null);

/**
 * How tenants pay (issue 29, 'How to pay'): the company's M-Pesa paybill or till, its MTN MoMo and
 * Airtel Money merchant codes, its bank details and any other instruction. Each lease's account
 * number goes with them: the portal, statements and reminders (`{{how_to_pay}}`) show them.
 */
export const paymentInstructionsSchema = z.strictObject({
  mpesa_paybill: instruction(7, /^\d{5,7}$/, 'A paybill or till number is 5 to 7 digits.'),
  mtn_momo_code: instruction(20, /^[A-Za-z0-9*#-]+$/, 'Use letters, digits, *, # or -.'),
  airtel_money_code: instruction(20, /^[A-Za-z0-9*#-]+$/, 'Use letters, digits, *, # or -.'),
  bank_details: instruction(300),
  other: instruction(300),
});
export type PaymentInstructions = z.infer<typeof paymentInstructionsSchema>;

export const noPaymentInstructions: PaymentInstructions = {
  mpesa_paybill: null,
  mtn_momo_code: null,
  airtel_money_code: null,
  bank_details: null,
  other: null,
};

/**
 * The English of the how-to-pay lines (issue 30): the `howToPay.*` keys of the documents' catalogues
 * (catalogues/documents.en.json says the same: a test checks), which the server says in the reader's.
 */
export const howToPayEnglish = {
  mpesa: 'M-Pesa: paybill {paybill}',
  mpesaAccount: 'M-Pesa: paybill {paybill}, account {account}',
  mtn: 'MTN MoMo: merchant code {code}',
  mtnReference: 'MTN MoMo: merchant code {code}, reference {reference}',
  airtel: 'Airtel Money: merchant code {code}',
  airtelReference: 'Airtel Money: merchant code {code}, reference {reference}',
  bank: 'Bank: {details}',
  bankReference: 'Bank: {details}, reference {reference}',
} as const;
export type HowToPayKey = keyof typeof howToPayEnglish;

/** A how-to-pay line: its key and values, or the company's own words (`other`). */
export type HowToPayLine = { key: HowToPayKey; values: Record<string, string> } | { text: string };

/** The company's payment instructions for one lease as lines to be put in words (`howToPayLines`). */
export const howToPayParts = (
  i: PaymentInstructions,
  accountReference: string | null | undefined,
): HowToPayLine[] => {
  const ref = accountReference || null;
  const out: HowToPayLine[] = [];
  if (i.mpesa_paybill)
    out.push(
      ref
        ? { key: 'mpesaAccount', values: { paybill: i.mpesa_paybill, account: ref } }
        : { key: 'mpesa', values: { paybill: i.mpesa_paybill } },
    );
  if (i.mtn_momo_code)
    out.push(
      ref
        ? { key: 'mtnReference', values: { code: i.mtn_momo_code, reference: ref } }
        : { key: 'mtn', values: { code: i.mtn_momo_code } },
    );
  if (i.airtel_money_code)
    out.push(
      ref
        ? { key: 'airtelReference', values: { code: i.airtel_money_code, reference: ref } }
        : { key: 'airtel', values: { code: i.airtel_money_code } },
    );
  if (i.bank_details)
    out.push(
      ref
        ? { key: 'bankReference', values: { details: i.bank_details, reference: ref } }
        : { key: 'bank', values: { details: i.bank_details } },
    );
  if (i.other) out.push({ text: i.other });
  return out;
};

const fillEnglish = (key: HowToPayKey, values: Record<string, string>) =>
  howToPayEnglish[key].replace(/\{(\w+)\}/g, (all, name: string) => values[name] ?? all);

/**
 * The company's payment instructions for one lease, a line each: 'M-Pesa: paybill 123456, account A12'.
 * Without an account number the lines name none. In English, or as `say` puts each key in words (the
 * server's, in the reader's language: issue 30); the company's own words as written.
 */
export const howToPayLines = (
  i: PaymentInstructions,
  accountReference: string | null | undefined,
  say: (key: HowToPayKey, values: Record<string, string>) => string = fillEnglish,
): string[] => howToPayParts(i, accountReference).map((l) => ('text' in l ? l.text : say(l.key, l.values)));

const orNull = <T extends z.ZodType>(t: T) =>
  z.preprocess((v) => (v === '' || v === undefined ? null : v), z.union([z.null(), t])).default(null);

/**
 * The landlords' rental tax (issue 27): the rate (percent of gross rent received), the day of the next
 * month a month's tax is due, and the tax year's first month. Each null follows the company's country
 * (`rentalTaxDefaults`); none is law written into Kodi (docs/decisions.md, 'Rental tax figures').
 */
export const rentalTaxSettingsSchema = z.strictObject({
  rate: orNull(
    z.preprocess(
      toNumber,
      z
        .number({ error: 'A percent from 0 to 100, at most 2 decimals.' })
        .min(0, 'A percent from 0 to 100.')
        .max(100, 'A percent from 0 to 100.')
        .refine((n) => Math.round(n * 100) === n * 100, 'At most 2 decimals.'),
    ),
  ),
  due_day: orNull(wholeNumber(1, 28, 'A day of the month from 1 to 28.')),
  year_start_month: orNull(wholeNumber(1, 12, 'A month from 1 to 12.')),
});
export type RentalTaxSettings = z.infer<typeof rentalTaxSettingsSchema>;

export const noRentalTaxSettings: RentalTaxSettings = { rate: null, due_day: null, year_start_month: null };

export type RentalTaxRules = { rate: number; due_day: number; year_start_month: number };

/**
 * What a company's rental-tax settings default to by its country (ISO 3166 alpha-3), each a setting the
 * company may change; sources in docs/decisions.md. Kenya: the monthly rental income tax, 7.5% of gross
 * residential rent from 1 January 2024, due by the 20th of the next month, calendar tax year. Uganda:
 * tax year July to June; its rental tax is on the year's income, so no monthly rate by default.
 */
export const rentalTaxDefaults = (country: string | null | undefined): RentalTaxRules => {
  if (country === 'KEN') return { rate: 7.5, due_day: 20, year_start_month: 1 };
  if (country === 'UGA') return { rate: 0, due_day: 20, year_start_month: 7 };
  return { rate: 0, due_day: 20, year_start_month: 1 };
};

/** The rules in force: each setting, or its country's default. */
export const rentalTaxRules = (
  settings: RentalTaxSettings,
  country: string | null | undefined,
): RentalTaxRules & { defaults: RentalTaxRules } => {
  const defaults = rentalTaxDefaults(country);
  return {
    rate: settings.rate ?? defaults.rate,
    due_day: settings.due_day ?? defaults.due_day,
    year_start_month: settings.year_start_month ?? defaults.year_start_month,
    defaults,
  };
};

/** The writable settings. In a `PUT`, an absent field is left as it is (the logo too; null clears it). */
export const companySettingsFields = {
  timezone: z
    .string({ error: 'Required.' })
    .trim()
    .max(64)
    .refine(isTimeZone, 'Unknown time zone: use an IANA name such as Africa/Kampala.'),
  /** base64 of a png, jpeg or webp image (its bytes are checked on the server); '' or null clears it */
  logo: z
    .union([z.string().max(1_400_000, 'The logo must be at most 1 MB.'), z.null()])
    .transform((v) => (v === '' ? null : v)),
  daily_run_hour: wholeNumber(0, 23, 'The hour must be a whole number from 0 to 23.'),
  late_fee: lateFeePolicySchema,
  reminders: remindersSchema,
  receipt_notification: receiptNotificationSchema,
  sms_sender_id: z
    .union([z.string().trim(), z.null()])
    .transform((v) => (v === '' ? null : v))
    .refine((v) => v === null || SENDER_ID.test(v), 'Use 3 to 11 letters, digits or spaces.'),
  /** statement lines and webhook payments matched with certainty are posted at once (issue 18) */
  auto_post_matches: z.boolean({ error: 'Must be true or false.' }),
  /** every staff user of the company signs in with a second factor (issue 20) */
  require_mfa: z.boolean({ error: 'Must be true or false.' }),
  payment_instructions: paymentInstructionsSchema,
  rental_tax: rentalTaxSettingsSchema,
  /** the day of the month the daily run sends every owner their statement of the month before; null: never */
  owner_statements_day: orNull(wholeNumber(1, 28, 'A day of the month from 1 to 28.')),
  /** the day of the month the daily run bills the meters' readings (issue 28); null: by hand only */
  utility_billing_day: z.union([
    wholeNumber(1, 28, 'The day must be a whole number from 1 to 28.'),
    z.null(),
  ]),
  /**
   * the service charge per let unit per month the daily run posts (issue 28), in the company's
   * currency; 0: none. A property may have its own (or none) instead.
   */
  service_charge_amount: amount('The amount must be 0 or more.'),
  /** the words of its charges, before the month's name; empty: 'Service charge' */
  service_charge_description: z.preprocess(
    (v) =>
      v === null || v === undefined || (typeof v === 'string' && v.trim() === '')
        ? DEFAULT_SERVICE_CHARGE_TEXT
        : v,
    z.string({ error: 'Required.' }).trim().max(60, 'Maximum 60 characters.'),
  ),
};

/** `PUT /company-settings`: any of the settings, and the `version` that was read. */
export const companySettingsBody = z.strictObject({
  timezone: companySettingsFields.timezone.optional(),
  logo: companySettingsFields.logo.optional(),
  daily_run_hour: companySettingsFields.daily_run_hour.optional(),
  late_fee: companySettingsFields.late_fee.optional(),
  reminders: companySettingsFields.reminders.optional(),
  receipt_notification: companySettingsFields.receipt_notification.optional(),
  sms_sender_id: companySettingsFields.sms_sender_id.optional(),
  auto_post_matches: companySettingsFields.auto_post_matches.optional(),
  require_mfa: companySettingsFields.require_mfa.optional(),
  payment_instructions: companySettingsFields.payment_instructions.optional(),
  rental_tax: companySettingsFields.rental_tax.optional(),
  owner_statements_day: companySettingsFields.owner_statements_day.optional(),
  utility_billing_day: companySettingsFields.utility_billing_day.optional(),
  service_charge_amount: companySettingsFields.service_charge_amount.optional(),
  service_charge_description: companySettingsFields.service_charge_description.optional(),
  version: z.preprocess(toNumber, z.int({ error: 'Required.' }).min(1)),
  // what the GET answers and no PUT writes: taken back as read and left as they are (issue 26)
  logo_type: z.unknown().optional().describe('Read-only (the logo’s type, from its bytes): ignored'),
  webhook_url: z.unknown().optional().describe('Read-only (the payment webhook’s address): ignored'),
  last_run: z.unknown().optional().describe('Read-only (the last daily run): ignored'),
});
export type CompanySettingsBody = z.infer<typeof companySettingsBody>;

/** The form the web edits (no logo: it is its own control). */
export const companySettingsFormSchema = z.object({
  timezone: companySettingsFields.timezone,
  daily_run_hour: companySettingsFields.daily_run_hour,
  late_fee: companySettingsFields.late_fee,
  reminders: companySettingsFields.reminders,
  receipt_notification: companySettingsFields.receipt_notification,
  sms_sender_id: companySettingsFields.sms_sender_id,
  auto_post_matches: companySettingsFields.auto_post_matches,
  require_mfa: companySettingsFields.require_mfa,
  payment_instructions: companySettingsFields.payment_instructions,
  utility_billing_day: companySettingsFields.utility_billing_day,
  service_charge_amount: companySettingsFields.service_charge_amount,
  service_charge_description: companySettingsFields.service_charge_description,
  rental_tax: companySettingsFields.rental_tax,
  owner_statements_day: companySettingsFields.owner_statements_day,
});

/** The last daily run of the company. */
export const rentCycleRunSchema = z.object({
  as_of: z.iso.date(),
  late_fees_posted: z.int(),
  escalations_applied: z.int(),
  reminders_queued: z.int(),
});
export type RentCycleRunResult = z.infer<typeof rentCycleRunSchema>;

/** What a run made, for whom (issue 26): a late fee, a rent increase or a reminder of a lease. */
export const rentCycleRunItemSchema = z.object({
  kind: z.enum(['late_fee', 'rent_increase', 'reminder']),
  occupancy_id: z.int(),
  tenant_name: z.string().nullable(),
  unit_name: z.string().nullable(),
  /** the fee's date, the new rate's first day, the reminder's send date */
  date: z.iso.date(),
  /** the fee, or the new rate; null for a reminder */
  amount: z.number().nullable(),
  channel: z.enum(messageChannel.values).nullable(),
  /** reminders: queued to be sent, or skipped (no address, too late); null otherwise */
  status: z.enum(['queued', 'skipped']).nullable(),
});
export type RentCycleRunItem = z.infer<typeof rentCycleRunItemSchema>;

/** The most items a run's answer names; `not_listed` counts the others. */
export const RUN_ITEMS_LISTED = 200;

/** `POST /rent-cycle/run`: the counts, and for whom each fee, increase and reminder was made. */
export const rentCycleRunAnswerSchema = rentCycleRunSchema.extend({
  made: z.array(rentCycleRunItemSchema),
  not_listed: z.int(),
});
export type RentCycleRunAnswer = z.infer<typeof rentCycleRunAnswerSchema>;

/**
 * An item of a run in words: 'Late fee UGX 25,000 for Jane Doe (A3)', 'Rent increase to UGX 840,000
 * for Jane Doe (A3)', 'SMS reminder for Jane Doe (A3)', '… (not sent)'.
 */
export const runItemText = (item: RentCycleRunItem, money: (amount: number) => string): string => {
  // (its words are runItemMessage's keys' English: a test checks)
  const whom = `${item.tenant_name ?? 'a tenant'}${item.unit_name ? ` (${item.unit_name})` : ''}`;
  if (item.kind === 'late_fee') return `Late fee ${money(item.amount ?? 0)} for ${whom}`;
  if (item.kind === 'rent_increase') return `Rent increase to ${money(item.amount ?? 0)} for ${whom}`;
  const channel = item.channel === 'sms' ? 'SMS' : 'E-mail';
  return `${channel} reminder for ${whom}${item.status === 'skipped' ? ' (not sent)' : ''}`;
};

/**
 * An item of a run as a catalogue key and its values (issue 30: `domainTexts.run*`, whose English is
 * `runItemText`'s), its amount as `money` writes it and a tenant without a name as `aTenant` says.
 */
export const runItemMessage = (
  item: RentCycleRunItem,
  money: (amount: number) => string,
  aTenant = 'a tenant',
): {
  key:
    | 'domainTexts.runLateFee'
    | 'domainTexts.runRentIncrease'
    | 'domainTexts.runReminder'
    | 'domainTexts.runReminderNotSent';
  values: Record<string, string>;
} => {
  const values = {
    whom: `${item.tenant_name ?? aTenant}${item.unit_name ? ` (${item.unit_name})` : ''}`,
    amount: money(item.amount ?? 0),
    channel: item.channel === 'sms' ? 'sms' : 'email',
  };
  if (item.kind === 'late_fee') return { key: 'domainTexts.runLateFee', values };
  if (item.kind === 'rent_increase') return { key: 'domainTexts.runRentIncrease', values };
  return {
    key: item.status === 'skipped' ? 'domainTexts.runReminderNotSent' : 'domainTexts.runReminder',
    values,
  };
};

/** `GET /company-settings`. */
export const companySettingsSchema = z.object({
  timezone: z.string(),
  logo: z.string().nullable().describe('base64 of the image'),
  logo_type: z.enum(['image/png', 'image/jpeg', 'image/webp']).nullable(),
  daily_run_hour: z.int(),
  late_fee: z.object({
    enabled: z.boolean(),
    grace_days: z.int(),
    kind: z.enum(['flat', 'percent']),
    amount: z.number(),
    repeat: z.enum(['once', 'weekly', 'monthly']),
    cap: z.number().nullable(),
  }),
  reminders: z.array(
    z.object({
      event: z.enum(['before_due', 'due', 'overdue']),
      days: z.int(),
      channels: z.array(z.enum(messageChannel.values)),
      template_id: z.int().nullable(),
    }),
  ),
  receipt_notification: z.object({ email: z.boolean(), sms: z.boolean(), whatsapp: z.boolean() }),
  sms_sender_id: z.string().nullable(),
  auto_post_matches: z.boolean(),
  /** the payment webhook's address (its secret is shown once, when made), or null */
  webhook_url: z.string().nullable(),
  require_mfa: z.boolean(),
  payment_instructions: z.object({
    mpesa_paybill: z.string().nullable(),
    mtn_momo_code: z.string().nullable(),
    airtel_money_code: z.string().nullable(),
    bank_details: z.string().nullable(),
    other: z.string().nullable(),
  }),
  rental_tax: z.object({
    rate: z.number().nullable().describe("Percent of gross rent; null: the country's default"),
    due_day: z.int().nullable().describe("Day of the next month a month's tax is due; null: the default"),
    year_start_month: z.int().nullable().describe("The tax year's first month (1-12); null: the default"),
  }),
  owner_statements_day: z
    .int()
    .nullable()
    .describe("Day of the month every owner's statement of the month before is sent; null: never"),
  utility_billing_day: z.int().nullable(),
  service_charge_amount: z
    .number()
    .describe('The service charge per let unit per month the daily run posts; 0: none'),
  service_charge_description: z.string().describe("Its charges' words before the month"),
  version: z.int(),
  last_run: rentCycleRunSchema.extend({ at: z.iso.datetime({ offset: true }) }).nullable(),
});
export type CompanySettings = z.infer<typeof companySettingsSchema>;

export const defaultCompanySettings: Omit<CompanySettings, 'last_run' | 'webhook_url'> = {
  timezone: DEFAULT_TIMEZONE,
  logo: null,
  logo_type: null,
  daily_run_hour: DEFAULT_DAILY_RUN_HOUR,
  late_fee: defaultLateFeePolicy,
  reminders: [],
  receipt_notification: { email: false, sms: false, whatsapp: false },
  sms_sender_id: null,
  auto_post_matches: false,
  require_mfa: false,
  payment_instructions: noPaymentInstructions,
  rental_tax: noRentalTaxSettings,
  owner_statements_day: null,
  utility_billing_day: null,
  service_charge_amount: 0,
  service_charge_description: DEFAULT_SERVICE_CHARGE_TEXT,
  version: 1,
};
