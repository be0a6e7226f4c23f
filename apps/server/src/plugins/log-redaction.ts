import type { Writable } from 'node:stream';
import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config.ts';

/**
 * A query parameter whose value is a secret: its name is, or ends with, one of these words (any
 * case, `access_token`, `apiKey`). Links Kodi makes carry them (`/portal/welcome?token=`,
 * `/reset?token=`, Google's `?code=&state=`); a few harmless names (`country_code`) go too.
 */
const SECRET_NAME =
  /(token|code|password|passwd|pwd|pass|secret|key|signature|sig|otp|state|auth|credentials?|session|sid)$/i;

/**
 * `name=value` after `?`, `&` or `;`, wherever it stands in a log line's JSON text (a request's url,
 * an error's message, a mail's text). A value runs to the next `&`, `#`, space or end of the JSON
 * string, JSON escapes (`\"`, `\n`) included, so that an escaped character never ends it early.
 */
const PAIR = /([?&;])([^=&?#;\s"\\]{1,100})=((?:\\.|[^&#;\s"\\])*)/g;

export const REDACTED = '[redacted]';

const decodedName = (name: string): string => {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
};

/** The text with the values of secret query parameters replaced by `[redacted]`. */
export const redactSecrets = (text: string): string =>
  text.includes('=')
    ? text.replace(PAIR, (all, sep: string, name: string, value: string) =>
        value && SECRET_NAME.test(decodedName(name)) ? `${sep}${name}=${REDACTED}` : all,
      )
    : text;

/**
 * The server's logger: LOG_LEVEL, every line redacted as it is written (pino's `streamWrite` hook:
 * the request's url of Fastify's serializers and whatever else a line holds). `stream`: where the
 * lines go (standard output unless given; tests capture them).
 */
export const loggerOptions = (
  config: Pick<Config, 'logLevel'>,
  stream?: Writable,
): FastifyServerOptions['logger'] => {
  if (config.logLevel === 'silent' && !stream) return false;
  return {
    level: config.logLevel,
    hooks: { streamWrite: redactSecrets },
    ...(stream ? { stream } : {}),
  };
};
