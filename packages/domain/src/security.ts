import { z } from 'zod';
import { messages } from './validation.ts';
import { securityMessages } from './security-texts.ts';

/**
 * Two-factor sign-in (TOTP, RFC 6238: SHA-1, 6 digits, 30 s) and the sessions a user can see and end
 * (issue 20): the bodies, answers and texts shared by the server and the web.
 */

export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
export const RECOVERY_CODE_COUNT = 10;
/** How long the code step of a sign-in waits after the password. */
export const MFA_CHALLENGE_MINUTES = 5;

/** A TOTP code as typed: spaces dropped, exactly 6 digits. */
export const totpCodeField = z
  .string({ error: messages.required })
  .transform((v) => v.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, securityMessages.codeFormat));

/** A recovery code as typed: case, spaces and dashes do not matter. */
export const recoveryCodeField = z
  .string({ error: messages.required })
  .max(64)
  .transform((v) => v.replace(/[\s-]+/g, '').toLowerCase())
  .pipe(z.string().min(1, messages.required));

/**
 * `POST /auth/mfa/confirm`, `DELETE /auth/mfa`: a code of the authenticator and the current password
 * (issue 23: a stolen session alone cannot put its own second factor in, or take the owner's off).
 */
export const mfaCodeBody = z.strictObject({
  code: totpCodeField,
  current_password: z.string({ error: messages.required }).min(1, messages.required).max(1024),
});
export type MfaCodeBody = z.infer<typeof mfaCodeBody>;

/** `POST /auth/login/mfa`: the authenticator's code, or one of the recovery codes. */
export const loginMfaBody = z
  .strictObject({ code: totpCodeField.optional(), recovery_code: recoveryCodeField.optional() })
  .refine((v) => (v.code === undefined) !== (v.recovery_code === undefined), {
    path: ['code'],
    message: securityMessages.codeOrRecovery,
  });
export type LoginMfaBody = z.infer<typeof loginMfaBody>;

/** `POST /auth/mfa/setup`: the new secret (base32), its otpauth URL and that URL as a QR code. */
export const mfaSetupSchema = z.object({
  secret: z.string(),
  otpauth_url: z.string(),
  qr_svg: z.string().describe('The otpauth URL as a QR code: an SVG document'),
});
export type MfaSetup = z.infer<typeof mfaSetupSchema>;

export const recoveryCodesSchema = z.object({ recovery_codes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;

/** `GET /auth/mfa`: whether the user's second factor is on, and the recovery codes left. */
export const mfaStatusSchema = z.object({
  enabled: z.boolean(),
  enabled_at: z.string().nullable(),
  recovery_codes_left: z.int(),
  required: z.boolean().describe('The company requires two-factor sign-in of its staff'),
});
export type MfaStatus = z.infer<typeof mfaStatusSchema>;

/** `POST /auth/login` when the user has a second factor: the code step follows. */
export const mfaChallengeSchema = z.object({
  mfa_required: z.literal(true),
  csrf_token: z.string(),
  expires_at: z.string(),
});
export type MfaChallenge = z.infer<typeof mfaChallengeSchema>;

/** `DELETE /auth/sessions`, `DELETE /users/{id}/sessions`: how many sessions ended. */
export const sessionsEndedSchema = z.object({ ended: z.int() });

/** One of the user's sessions (`GET /auth/sessions`). */
export const sessionInfoSchema = z.object({
  id: z.int(),
  created_at: z.string(),
  last_seen_at: z.string(),
  ip_address: z.string().nullable(),
  user_agent: z.string().nullable(),
  browser: z.string().describe('A short name of the browser and system, read from the user agent'),
  current: z.boolean(),
});
export type SessionInfo = z.infer<typeof sessionInfoSchema>;

/** 'Chrome on Windows' from a user agent (the sessions list's 'browser'). */
export const browserName = (userAgent: string | null | undefined): string => {
  const ua = userAgent ?? '';
  if (!ua) return 'Unknown browser';
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /OPR\/|Opera/.test(ua)
      ? 'Opera'
      : /Firefox\//.test(ua)
        ? 'Firefox'
        : /HeadlessChrome\//.test(ua)
          ? 'Headless Chrome'
          : /Chrom(e|ium)\//.test(ua)
            ? 'Chrome'
            : /Safari\//.test(ua)
              ? 'Safari'
              : /curl\//i.test(ua)
                ? 'curl'
                : 'Unknown browser';
  const system = /Android/.test(ua)
    ? 'Android'
    : /iPhone|iPad|iPod/.test(ua)
      ? 'iOS'
      : /Windows/.test(ua)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(ua)
          ? 'macOS'
          : /CrOS/.test(ua)
            ? 'ChromeOS'
            : /Linux/.test(ua)
              ? 'Linux'
              : null;
  return system ? `${browser} on ${system}` : browser;
};
