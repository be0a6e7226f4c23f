/** The codes of one HTTP status, each with its default message. */
const withStatus = <const S extends number, const M extends Record<string, string>>(status: S, messages: M) =>
  Object.fromEntries(Object.entries(messages).map(([code, message]) => [code, { status, message }])) as {
    [Code in keyof M]: { status: S; message: M[Code] };
  };

/** Every machine-readable error code the API answers, with its HTTP status and a default message. */
export const errorCodes = {
  ...withStatus(400, {
    validation_failed: 'Please correct the form errors.',
    bad_request: 'The request could not be understood.',
    captcha_failed: 'CAPTCHA failed',
    unsupported_file: 'The file must be a CSV or an Excel workbook (.xlsx).',
    invitation_invalid: 'This link is invalid or has expired. Ask your landlord for a new invitation.',
  }),
  ...withStatus(401, {
    invalid_credentials: 'Login failed. Please check your credentials.',
    mfa_code_invalid:
      'The code is not right or has expired. Enter the current code from your authenticator app.',
    mfa_challenge_expired: 'The sign-in took too long. Enter your e-mail and password again.',
    unauthorized: 'You are not signed in.',
    token_expired: 'Your session has expired. Please sign in again.',
    bad_signature: 'The signature is missing, wrong or too old.',
  }),
  ...withStatus(403, {
    forbidden: 'You are not allowed to do this.',
    no_role: 'Your account is waiting for access: an administrator must grant you a role.',
    csrf_missing: 'The security token is missing. Reload the page and try again.',
    csrf_expired: 'The security token has expired. Reload the page and try again.',
    account_disabled: 'This account is disabled.',
    tenant_account: 'This is a tenant account: sign in at the tenant portal.',
    mfa_enrolment_required:
      'Your company requires two-factor sign-in: set it up on the Account Security page to continue.',
  }),
  ...withStatus(404, {
    not_found: 'Not found.',
    agreement_not_found: 'This property has no management agreement.',
  }),
  ...withStatus(409, {
    conflict: 'This record was changed by someone else. Reload to see the latest version.',
    in_use: 'This record is still in use by other records.',
    duplicate: 'This record already exists.',
    mfa_already_enabled: 'Two-factor sign-in is on already. Turn it off first to set it up again.',
    import_expired: 'This import has expired (24 hours after its preview): upload the file again.',
    not_retryable: 'Only a failed or skipped message can be sent again.',
    receipt_issued: 'This payment has a receipt: void it and record a new one.',
    not_voidable: 'Only a completed payment can be voided.',
    already_void: 'This payment is voided already.',
    period_closed: 'The books are closed for that day.',
    unit_occupied: 'The unit is let to another tenant for those dates.',
    reading_billed: 'This reading is billed: it can no longer be changed.',
    reading_not_flagged: 'This reading is not held back: there is nothing to confirm.',
    above_available: "The payout is more than the owner's funds available.",
  }),
  ...withStatus(422, {
    wrong_currency: "The payment is not in the company's currency.",
    provider_not_configured: 'This payment provider is not set up for the company.',
  }),
  ...withStatus(413, {
    payload_too_large: 'The request is too large.',
    file_too_large: 'The spreadsheet unpacks to more than the server reads.',
  }),
  ...withStatus(415, { unsupported_media_type: 'Unsupported content type.' }),
  ...withStatus(429, {
    account_locked: 'Too many failed sign-in attempts. Try again in 15 minutes.',
    rate_limited: 'Too many requests. Please wait a moment and try again.',
  }),
  ...withStatus(500, { internal_error: 'Something went wrong on our side. Please try again.' }),
  ...withStatus(502, {
    provider_unavailable: 'The payment provider did not answer as expected. Try again in a moment.',
  }),
  ...withStatus(503, {
    secret_unavailable:
      "A stored secret cannot be opened with this server's keys. An administrator must give the server its earlier key (OLD_SECRET_KEYS).",
  }),
} satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof errorCodes;

/** The JSON body of every error answer. */
export type ErrorBody = {
  error: string;
  code: ErrorCode;
  fields?: Record<string, string>;
};

/** The one error type the server throws; one handler maps it to `{ error, code }`. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly fields?: Record<string, string>;
  constructor(code: ErrorCode, message?: string, fields?: Record<string, string>) {
    super(message ?? errorCodes[code].message);
    this.name = 'AppError';
    this.code = code;
    this.status = errorCodes[code].status;
    if (fields) this.fields = fields;
  }
  toBody(): ErrorBody {
    return this.fields
      ? { error: this.message, code: this.code, fields: this.fields }
      : { error: this.message, code: this.code };
  }
}
