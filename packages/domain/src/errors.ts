/** Every machine-readable error code the API answers, with its HTTP status and a default message. */
export const errorCodes = {
  validation_failed: { status: 400, message: 'Please correct the form errors.' },
  bad_request: { status: 400, message: 'The request could not be understood.' },
  invalid_credentials: { status: 401, message: 'Login failed. Please check your credentials.' },
  unauthorized: { status: 401, message: 'You are not signed in.' },
  token_expired: { status: 401, message: 'Your session has expired. Please sign in again.' },
  forbidden: { status: 403, message: 'You are not allowed to do this.' },
  no_role: {
    status: 403,
    message: 'Your account is waiting for access: an administrator must grant you a role.',
  },
  csrf_missing: { status: 403, message: 'The security token is missing. Reload the page and try again.' },
  csrf_expired: { status: 403, message: 'The security token has expired. Reload the page and try again.' },
  captcha_failed: { status: 400, message: 'CAPTCHA failed' },
  account_disabled: { status: 403, message: 'This account is disabled.' },
  not_found: { status: 404, message: 'Not found.' },
  conflict: {
    status: 409,
    message: 'This record was changed by someone else. Reload to see the latest version.',
  },
  in_use: { status: 409, message: 'This record is still in use by other records.' },
  duplicate: { status: 409, message: 'This record already exists.' },
  payload_too_large: { status: 413, message: 'The request is too large.' },
  unsupported_media_type: { status: 415, message: 'Unsupported content type.' },
  account_locked: {
    status: 429,
    message: 'Too many failed sign-in attempts. Try again in 15 minutes.',
  },
  rate_limited: { status: 429, message: 'Too many requests. Please wait a moment and try again.' },
  internal_error: { status: 500, message: 'Something went wrong on our side. Please try again.' },
} as const satisfies Record<string, { status: number; message: string }>;

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
