import { z } from 'zod';
import { emailField, requiredString, type SessionUser } from './auth.ts';
import { ignored, refId } from './fields.ts';
import { messages } from './validation.ts';

/** Registration, password flows, users and roles (02-admin §2, §4, §5, §7): bodies and texts shared by web and server. */

export const PASSWORD_MIN_LENGTH = 8;
/** A reset link is valid this long, and only once. */
export const RESET_TOKEN_MINUTES = 30;

export const accountMessages = {
  captchaFailed: 'Invalid captcha answer',
  emailTaken: 'This e-mail address is already registered.',
  companyMissing: 'The selected company does not exist.',
  countryMissing: 'The selected country does not exist.',
  forgotSent: 'If that address is registered you will receive an email shortly.',
  /** issue 26: with no SMTP_URL, no link can go out (said whatever the address: it tells nothing of it) */
  forgotNotSetUp:
    'Not sent: e-mail is not set up on this server. Ask an administrator to set a new password for you.',
  resetInvalid: 'This reset link is invalid or has expired.',
  resetDone: 'Password updated – you may now log in.',
  resetTokenMissing: 'Reset token missing.',
  changeDone: 'Password updated – please log in again.',
  currentWrong: 'Current password is incorrect.',
  adminPasswordDone: 'Password updated',
  oneRole: 'User must have at least one role.',
  unknownRole: 'Choose roles from the list.',
  ownAdminRole: 'You cannot remove your own admin role.',
  ownDisable: 'You cannot disable your own account.',
  googleNotConfigured: 'Google sign-in is not configured.',
  googleUnknownUser:
    'No active Kodi account uses this Google e-mail address. Ask your administrator for access.',
  googleUnverified: 'Your Google e-mail address is not verified.',
  googleExpired: 'The Google sign-in took too long or was started elsewhere. Please try again.',
  googleFailed: 'Google sign-in failed. Please try again.',
  googleSessionMissing: 'Failed to retrieve user session',
  unknownError: 'An unknown error occurred.',
} as const;

/** A new password: required, at least 8 characters (never trimmed). */
export const newPasswordField = (minMessage: string = messages.passwordMin) =>
  z
    .string({ error: messages.required })
    .min(1, messages.required)
    .min(PASSWORD_MIN_LENGTH, minMessage)
    .max(1024, 'Maximum 1024 characters.');

const existingPassword = z.string({ error: messages.required }).min(1, messages.required).max(1024);

/** A country of the countries list, by its 3-letter code (upper-cased). */
export const countryCodeField = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim().toUpperCase() : v),
  z
    .string({ error: messages.required })
    .min(1, messages.required)
    .regex(/^[A-Z]{3}$/, 'Country code must be exactly 3 uppercase letters.'),
);

const optionalBoolean = z
  .preprocess(
    (v) => (v === 'true' ? true : v === 'false' ? false : v),
    z.boolean({ error: 'Must be true or false.' }),
  )
  .optional();

const roleList = z
  .array(
    z.string({ error: accountMessages.unknownRole }).trim().min(1, accountMessages.unknownRole).max(50),
    {
      error: messages.required,
    },
  )
  .max(20);

/** Who a user is: e-mail, names and company (register, add user, edit profile). */
const userIdentity = {
  email: emailField,
  first_name: requiredString(255),
  last_name: requiredString(255),
  company_id: refId(),
};

/** A form's second typing of the password, and the check that both match. */
const confirmPassword = {
  confirm_password: z.string({ error: messages.required }).min(1, messages.required),
};
const passwordsMatch = (v: { password: string; confirm_password: string }) =>
  v.password === v.confirm_password;
const mismatch = { path: ['confirm_password'], message: messages.passwordsMismatch };

// ---------------------------------------------------------------- registration and password flows

export const registerBody = z.strictObject({
  ...userIdentity,
  password: newPasswordField(),
  captcha_answer: z.string({ error: messages.required }).max(64).default(''),
});
export type RegisterBody = z.infer<typeof registerBody>;

/** The register page's form: the body plus the confirmation. */
export const registerForm = registerBody.extend(confirmPassword).refine(passwordsMatch, mismatch);

/** Forgot password: the spec's own messages ('Required', 'Invalid'). */
export const forgotPasswordBody = z.strictObject({
  email: z
    .string({ error: 'Required' })
    .trim()
    .min(1, 'Required')
    .max(255, 'Invalid')
    .pipe(z.email('Invalid')),
});
export type ForgotPasswordBody = z.infer<typeof forgotPasswordBody>;

export const resetPasswordBody = z.strictObject({
  token: z
    .string({ error: accountMessages.resetTokenMissing })
    .min(1, accountMessages.resetTokenMissing)
    .max(200),
  password: newPasswordField(),
});
export type ResetPasswordBody = z.infer<typeof resetPasswordBody>;

/** The reset page's form ('Min 8 chars', 'Mismatch'). */
export const resetPasswordForm = z
  .object({
    password: newPasswordField('Min 8 chars'),
    confirm: z.string({ error: messages.required }).min(1, messages.required),
  })
  .refine((v) => v.password === v.confirm, { path: ['confirm'], message: 'Mismatch' });

export const changePasswordBody = z.strictObject({
  current_password: existingPassword,
  new_password: newPasswordField(),
});
export type ChangePasswordBody = z.infer<typeof changePasswordBody>;

/** The change-password page's form ('Min 8 characters', 'Passwords don’t match'). */
export const changePasswordForm = z
  .object({
    current_password: existingPassword,
    new_password: newPasswordField('Min 8 characters'),
    confirm_password: z.string({ error: messages.required }).min(1, messages.required),
  })
  .refine((v) => v.new_password === v.confirm_password, {
    path: ['confirm_password'],
    message: 'Passwords don’t match',
  });

export type MessageAnswer = { message: string };

// ---------------------------------------------------------------- users and roles (admins)

/** A user as the users routes answer it (never the password hash). */
export type ManagedUser = SessionUser & { company_name: string | null; version: number };

export type Role = { id: number; name: string; readable_name: string };

/** Fields the users routes answer that the web may send back: accepted and dropped. */
const userReadOnly = {
  id: ignored,
  company_name: ignored,
  roles: ignored,
  last_login_at: ignored,
  mfa_enabled: ignored,
  mfa_required: ignored,
  // the user's own choice (PUT /auth/language, issue 30), answered with the profile
  language: ignored,
  created_at: ignored,
  updated_at: ignored,
};

/** Edit profile: email, company, names and country required; active optional; version checked when sent. */
export const userProfileBody = z.strictObject({
  ...userReadOnly,
  ...userIdentity,
  country_code: countryCodeField,
  active: optionalBoolean,
  version: z.coerce.number().int().min(1).optional(),
});
export type UserProfileBody = z.infer<typeof userProfileBody>;

export const userRolesBody = z.strictObject({
  roles: roleList.min(1, accountMessages.oneRole),
});
export type UserRolesBody = z.infer<typeof userRolesBody>;

export const userPasswordBody = z.strictObject({ password: newPasswordField() });
export type UserPasswordBody = z.infer<typeof userPasswordBody>;

/** Add user (admin): every field required but active (default true) and roles (default none). */
export const registerAsAdminBody = z.strictObject({
  ...userIdentity,
  country_code: countryCodeField,
  active: optionalBoolean.default(true),
  password: newPasswordField(),
  roles: roleList.default([]),
});
export type RegisterAsAdminBody = z.infer<typeof registerAsAdminBody>;

/** The add-user dialog's form: the body plus the confirmation. */
export const addUserForm = registerAsAdminBody.extend(confirmPassword).refine(passwordsMatch, mismatch);
