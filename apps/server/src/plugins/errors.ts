import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, errorCodes, type ErrorBody } from '@kodi/domain';
import { RateLimitError } from './rate-limit.ts';
import { SecretUnavailableError } from '../platform/secrets.ts';
import { requestLanguage, translateErrorBody } from './i18n.ts';

/**
 * What the tables are called in messages ("still used by payments"), by table: the entities' plurals
 * and the modules' own labels (src/modules.ts, `tableLabels`); a table not named is called by its name.
 */
export type TableLabels = Readonly<Record<string, string>>;

type PgError = { code: string; detail?: string; constraint?: string; table?: string; column?: string };

/** Drizzle wraps driver errors; find the PostgreSQL one (pg and PGlite both carry a SQLSTATE `code`). */
export const findPgError = (err: unknown): PgError | undefined => {
  let e: unknown = err;
  for (let i = 0; i < 5 && e && typeof e === 'object'; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return e as PgError;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
};

const fieldFromPath = (path: string): string => path.replace(/^\//, '').replace(/\//g, '.');

/** Maps any error to `{ error, code, fields? }` with its status; never a stack trace. */
export const toErrorBody = (
  err: unknown,
  tableLabels: TableLabels = {},
): { status: number; body: ErrorBody; log: boolean } => {
  // (a 5xx of the server's own, such as a secret it cannot open, is logged: an operator must act)
  if (err instanceof AppError) return { status: err.status, body: err.toBody(), log: err.status >= 500 };
  if (err instanceof SecretUnavailableError)
    return toErrorBody(new AppError('secret_unavailable'), tableLabels);

  if (hasZodFastifySchemaValidationErrors(err)) {
    const fields: Record<string, string> = {};
    let message: string = errorCodes.validation_failed.message;
    for (const v of err.validation) {
      const params = v.params as { keys?: string[] };
      if (v.keyword === 'unrecognized_keys' && params.keys) {
        for (const k of params.keys) fields[k] = 'Unknown field.';
        message = `Unknown field${params.keys.length > 1 ? 's' : ''}: ${params.keys.join(', ')}.`;
      } else {
        const name = fieldFromPath(v.instancePath) || (err as FastifyError).validationContext || 'body';
        fields[name] ??= v.message ?? 'Invalid value.';
      }
    }
    return { status: 400, body: { error: message, code: 'validation_failed', fields }, log: false };
  }

  const pg = findPgError(err);
  if (pg) {
    // 23001 restrict_violation (ON DELETE RESTRICT) or 23503 foreign_key_violation.
    if (pg.code === '23503' || pg.code === '23001') {
      const referenced = /referenced from table "([^"]+)"/.exec(pg.detail ?? '');
      if (referenced) {
        const by = tableLabels[referenced[1] ?? ''] ?? referenced[1];
        return {
          status: 409,
          body: { error: `This record is still used by ${by}. Remove those first.`, code: 'in_use' },
          log: false,
        };
      }
      const missing = /Key \(([^)]+)\)=\(([^)]*)\) is not present in table "([^"]+)"/.exec(pg.detail ?? '');
      const column = missing?.[1]?.split(', ').pop() ?? 'reference';
      return {
        status: 400,
        body: {
          error: `The selected ${column.replace(/_id$/, '').replace(/_/g, ' ')} does not exist.`,
          code: 'validation_failed',
          fields: { [column]: 'Not found.' },
        },
        log: false,
      };
    }
    if (pg.code === '23505')
      return { status: 409, body: { error: errorCodes.duplicate.message, code: 'duplicate' }, log: false };
    if (pg.code === '23514' || pg.code === '23502' || pg.code.startsWith('22'))
      return {
        status: 400,
        body: { error: 'A value is out of range or invalid.', code: 'validation_failed', fields: {} },
        log: false,
      };
  }

  const fe = err as Partial<FastifyError> & { status?: number };
  const status = fe.statusCode ?? fe.status ?? 500;
  if (status === 413)
    return {
      status,
      body: { error: errorCodes.payload_too_large.message, code: 'payload_too_large' },
      log: false,
    };
  if (status === 415)
    return {
      status,
      body: { error: errorCodes.unsupported_media_type.message, code: 'unsupported_media_type' },
      log: false,
    };
  if (status === 404)
    return { status, body: { error: errorCodes.not_found.message, code: 'not_found' }, log: false };
  if (status >= 400 && status < 500) {
    const json = fe.code?.startsWith('FST_ERR_CTP') || err instanceof SyntaxError;
    return {
      status: 400,
      body: {
        error: json ? 'The request body is not valid JSON.' : errorCodes.bad_request.message,
        code: 'bad_request',
      },
      log: false,
    };
  }
  return {
    status: 500,
    body: { error: errorCodes.internal_error.message, code: 'internal_error' },
    log: true,
  };
};

export const sendError = (reply: FastifyReply, err: unknown, tableLabels: TableLabels = {}) => {
  const { status, body } = toErrorBody(err, tableLabels);
  return reply
    .code(status)
    .type('application/json')
    .send(translateErrorBody(body, requestLanguage(reply.request)));
};

export const registerErrorHandling = (app: FastifyInstance, tableLabels: TableLabels) => {
  app.setErrorHandler((err: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const { status, body, log } = toErrorBody(err, tableLabels);
    if (log) request.log.error({ err }, 'unhandled error');
    if (err instanceof RateLimitError) void reply.header('Retry-After', String(err.retryAfterSeconds));
    // in the user's language (issue 30), else the browser's; English is the spec's words
    return reply
      .code(status)
      .type('application/json')
      .send(translateErrorBody(body, requestLanguage(request)));
  });
};
