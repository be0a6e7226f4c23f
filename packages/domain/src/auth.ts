import { z } from 'zod';
import { messages } from './validation.ts';
import type { RoleName } from './roles.ts';
import type { Language } from './i18n/languages.ts';

/** A trimmed string that must not be empty, with the spec's required message. */
export const requiredString = (max?: number, maxMessage?: string) => {
  let s = z.string({ error: messages.required }).trim().min(1, messages.required);
  if (max !== undefined) s = s.max(max, maxMessage ?? `Maximum ${max} characters.`);
  return s;
};

export const emailField = z
  .string({ error: messages.required })
  .trim()
  .min(1, messages.required)
  .max(255, 'Maximum 255 characters.')
  .pipe(z.email(messages.email));

export const loginBody = z.strictObject({
  email: emailField,
  password: z.string({ error: messages.required }).min(1, messages.required).max(1024),
  captcha_answer: z.string({ error: messages.required }).max(64).default(''),
});
export type LoginBody = z.infer<typeof loginBody>;

export const captchaValidateBody = z.strictObject({
  answer: z.string({ error: messages.required }).max(64),
});

/** The signed-in user as the API returns it. */
export type SessionUser = {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  company_id: number;
  roles: RoleName[];
  active: boolean;
  country_code: string | null;
  last_login_at: string | null;
  /** a tenant's portal account: its tenant record (null or absent for staff) */
  tenant_id?: number | null;
  /** an owner's portal account (issue 27): its owner record (null or absent otherwise) */
  owner_id?: number | null;
  /** the user signs in with a second factor (TOTP) */
  mfa_enabled: boolean;
  /** the user's company requires a second factor of its staff */
  mfa_required: boolean;
  /**
   * The language Kodi speaks to the user (issue 30): a staff user's own, a portal account's its
   * tenant's or owner's (else the company's default); absent: English.
   */
  language?: Language;
};

export type AuthStatus = {
  user: SessionUser | null;
  csrf_token: string;
  google_enabled?: boolean;
  support_email?: string;
};
export type LoginAnswer = { user: SessionUser; csrf_token: string };

export type Company = {
  id: number;
  name: string;
  email: string | null;
  phone_number: string | null;
  website: string | null;
  address: string | null;
  industry_type: string | null;
  currency_code: string | null;
  status: boolean;
  description: string | null;
};
