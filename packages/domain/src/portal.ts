import { z } from 'zod';
import { messages } from './validation.ts';
import { portalMessages } from './portal-texts.ts';
import { newPasswordField } from './accounts.ts';
import { priority, requestStatus, templateChannel } from './enums.ts';
import { optionalEmail, optionalText, version } from './fields.ts';
import { PHONE_PATTERN } from './entities/tenants.ts';

/**
 * The tenant portal (issue 19): the bodies and answers the server and the portal's pages share.
 * A tenant is a user with the role `tenant`, linked to one tenant record; it signs in with its e-mail
 * or its phone (in any usual writing), with a password or a one-time code.
 */

const channel = z.enum(templateChannel.values, {
  error: "Use 'email' or 'sms'.",
});

/** A portal account's state, as `GET /tenants/{id}` answers it in `portal_status`. */
export const portalStatuses = ['none', 'invited', 'active', 'disabled'] as const;
export type PortalStatus = (typeof portalStatuses)[number];

export { ownerPortalMessages, portalMessages } from './portal-texts.ts';

/** `POST /tenants/{id}/invite` */
export const portalInviteBody = z.strictObject({ channel });
/** `POST /tenants/{id}/portal-access` */
export const portalAccessBody = z.strictObject({ enabled: z.boolean({ error: messages.required }) });

const login = z
  .string({ error: portalMessages.loginRequired })
  .trim()
  .min(1, portalMessages.loginRequired)
  .max(255, 'Maximum 255 characters.');

export const portalAcceptBody = z.strictObject({
  token: z.string({ error: messages.required }).min(1, messages.required).max(200),
  password: newPasswordField(),
});
export const portalLoginBody = z.strictObject({
  login,
  password: z.string({ error: messages.required }).min(1, messages.required).max(1024),
});
export const portalCodeBody = z.strictObject({ login, channel });
export const portalCodeVerifyBody = z.strictObject({
  login,
  code: z
    .string({ error: portalMessages.codeFormat })
    .trim()
    .regex(/^\d{6}$/, portalMessages.codeFormat),
});
export type PortalLoginBody = z.infer<typeof portalLoginBody>;

/** What a tenant may change of its own record, as `PUT /portal/me` takes it. */
const PORTAL_ME_WRITABLE = [
  'version',
  'phone',
  'email',
  'emergency_contact_name',
  'emergency_contact_phone',
  'notify_email',
  'notify_sms',
  'notify_whatsapp',
] as const;

/**
 * `GET /portal/me`'s answer sent back (issue 26): its tenant's writable fields (those sent beside it
 * win), the rest of the answer (the company, the leases, the day, what is pending) left as it is.
 */
const fromPortalAnswer = (v: unknown): unknown => {
  if (v === null || typeof v !== 'object' || !('tenant' in v)) return v;
  const { tenant, company: _c, leases: _l, as_of: _a, pending: _p, ...rest } = v as Record<string, unknown>;
  const own = tenant !== null && typeof tenant === 'object' ? (tenant as Record<string, unknown>) : {};
  const kept = Object.fromEntries(
    PORTAL_ME_WRITABLE.flatMap((k) => (own[k] === undefined ? [] : [[k, own[k]]])),
  );
  return { ...kept, ...rest };
};

/** `PUT /portal/me`: what a tenant may change of its own record (or its GET's answer with changes). */
export const portalMeBody = z.preprocess(
  fromPortalAnswer,
  z.strictObject({
    version,
    phone: z
      .string({ error: messages.required })
      .trim()
      .max(24, 'Invalid phone number format.')
      .refine((v) => PHONE_PATTERN.test(v), 'Invalid phone number format.')
      .optional(),
    email: optionalEmail(),
    emergency_contact_name: optionalText(255),
    emergency_contact_phone: optionalText(50),
    notify_email: z.boolean().optional(),
    notify_sms: z.boolean().optional(),
    notify_whatsapp: z.boolean().optional(),
  }),
);
export type PortalMeBody = z.infer<typeof portalMeBody>;

/** `POST /portal/me/confirm`: the code sent to a new e-mail or phone. */
export const portalAddressConfirmBody = z.strictObject({
  code: z
    .string({ error: portalMessages.codeFormat })
    .trim()
    .regex(/^\d{6}$/, portalMessages.codeFormat),
});

/** A new e-mail or phone waiting for the code sent to it (`GET /portal/me`'s `pending`). */
export const portalPendingSchema = z.object({
  field: z.enum(['email', 'phone']),
  value: z.string().describe('The new address, as the tenant wrote it'),
  expires_at: z.string(),
});
export type PortalPending = z.infer<typeof portalPendingSchema>;

const amount = z.number();
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const portalLeaseSchema = z.object({
  id: z.int(),
  unit_name: z.string(),
  property_name: z.string().nullable(),
  rate: amount,
  rent_cycle: z.string(),
  start_date: day,
  end_date: day.nullable(),
  active: z.boolean(),
  balance: amount.describe('What the tenant owes today (negative: paid ahead)'),
  next_due_date: day.nullable(),
  next_due_amount: amount.nullable(),
  account_reference: z.string().nullable().describe('What to give as the account when paying (issue 29)'),
  how_to_pay: z.array(z.string()).describe("The company's payment instructions for this lease, a line each"),
});
export type PortalLease = z.infer<typeof portalLeaseSchema>;

export const portalMeSchema = z.object({
  tenant: z.object({
    id: z.int(),
    first_name: z.string(),
    last_name: z.string(),
    email: z.string().nullable(),
    phone: z.string(),
    country_code: z.string().nullable(),
    emergency_contact_name: z.string().nullable(),
    emergency_contact_phone: z.string().nullable(),
    notify_email: z.boolean(),
    notify_sms: z.boolean(),
    notify_whatsapp: z.boolean(),
    version: z.int(),
  }),
  company: z.object({
    name: z.string(),
    currency: z.string(),
    decimals: z.int().nullable(),
    logo_url: z.string().nullable(),
  }),
  leases: z.array(portalLeaseSchema),
  as_of: day,
  pending: z
    .array(portalPendingSchema)
    .describe('New sign-in addresses waiting for their code (POST /portal/me/confirm)'),
});
export type PortalMe = z.infer<typeof portalMeSchema>;

export const portalPaymentSchema = z.object({
  id: z.int(),
  occupancy_id: z.int(),
  payment_date: day,
  amount_paid: amount,
  payment_method: z.string().nullable(),
  status: z.string(),
  receipt_number: z.string().nullable(),
  unit_name: z.string().nullable(),
  effective_start_date: day,
  effective_end_date: day,
});
export type PortalPayment = z.infer<typeof portalPaymentSchema>;
export const portalPaymentsSchema = z.object({
  rows: z.array(portalPaymentSchema),
  total: z.int(),
  page: z.int(),
  page_size: z.int(),
});
export type PortalPayments = z.infer<typeof portalPaymentsSchema>;

/** The photos of a request as a tenant sends them: base64 or data URLs of png, jpeg or webp, 5 MB each. */
export const MAX_PORTAL_PHOTOS = 3;
export const MAX_PORTAL_PHOTO_BYTES = 5 * 1024 * 1024;

export const portalRequestBody = z.strictObject({
  occupancy_id: z.coerce.number({ error: messages.required }).int().positive().max(2147483647),
  description: z
    .string({ error: messages.required })
    .trim()
    .min(1, messages.required)
    .max(5000, 'Maximum 5000 characters.'),
  priority: z.enum(priority.values, { error: 'Choose a priority.' }).default('low'),
  photos: z
    .array(
      z.strictObject({
        name: z.string().max(255).optional(),
        // 5 MB as base64 (4/3) with a data URL's prefix
        data: z.string().max(Math.ceil((MAX_PORTAL_PHOTO_BYTES * 4) / 3) + 100, portalMessages.photoTooLarge),
      }),
    )
    .max(MAX_PORTAL_PHOTOS, portalMessages.tooManyPhotos)
    .default([]),
});
export type PortalRequestBody = z.input<typeof portalRequestBody>;

export const portalRequestSchema = z.object({
  id: z.int(),
  unit_name: z.string().nullable(),
  request_date: day,
  description: z.string(),
  priority: z.enum(priority.values),
  status: z.enum(requestStatus.values),
  photos: z.array(z.object({ id: z.int(), file_name: z.string().nullable(), mime_type: z.string() })),
  updated_at: z.string(),
});
export type PortalRequest = z.infer<typeof portalRequestSchema>;
