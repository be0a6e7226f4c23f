import type { FastifyInstance, RouteOptions } from 'fastify';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema, type Access, type EntityDefinition } from '@kodi/domain';
import type { Config } from '../config.ts';
import { SESSION_COOKIE } from './session.ts';

/**
 * The OpenAPI document (`/rentapi/docs/json`, shown at `/rentapi/docs`) and what every API route must
 * declare for it. Routes state their own operationId, summary, tag and responses (2xx, and the 4xx
 * their handler answers); `documentRoutes` adds what follows from the guard (security, 400, 401,
 * 403, 413, 415) and refuses, at start-up, a route that leaves something out. `npm test` lints the
 * document with Spectral's `spectral:oas` rules (openapi.test.ts): zero warnings.
 */

/**
 * A name for `components.schemas` (the schema is shown once there and referred to by name), kept in
 * zod's global registry with the schema's description. Name a schema made once (at module level, or
 * cached): naming it again is a no-op, but another schema under a name already given is refused.
 */
export const named = <S extends z.ZodType>(schema: S, id: string): S => {
  const registry = z.globalRegistry;
  const meta = registry.get(schema);
  if (meta?.id === id) return schema;
  if (registry._idmap.has(id)) throw new Error(`OpenAPI schema ${id}: another schema has this name.`);
  registry.add(schema, { ...meta, id });
  return schema;
};
named(errorBodySchema, 'Error');

/** 'maintenance_requests' → 'MaintenanceRequests'; 'Payment record' → 'Payment'. */
const pascal = (words: string) =>
  words
    .split(/[\s_]+/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase())
    .join('');

/** How an entity's operations and schemas are named: `listUnits`, `getUnit`, `Unit`, `UnitListRow`. */
export const entityNames = (def: EntityDefinition) => ({
  plural: pascal(def.name),
  singular: pascal(def.singular.replace(/ record$/i, '')),
});

const MUTATIONS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The tags of the document, in its order, with what they group: one per entity served. */
const tagsOf = (defs: readonly EntityDefinition[]): { name: string; description: string }[] => [
  { name: 'health', description: 'Whether the server and its database answer' },
  { name: 'auth', description: 'Session, CSRF token, CAPTCHA, sign-in and out, registration, passwords' },
  { name: 'users', description: 'Users and their roles (admins)' },
  { name: 'dashboard', description: "Home's counts and short lists" },
  ...defs.map((def) => ({
    name: def.name,
    description: `${def.ui.title}: list, search, export, read, create, update, delete, history`,
  })),
  { name: 'reports', description: 'Monthly income statement and cash flow, and their exports' },
  { name: 'arrears', description: 'Leases with an overdue balance, aged' },
  { name: 'imports', description: "A company's records brought in from CSV and Excel files" },
  {
    name: 'company-settings',
    description: 'The company’s time zone, logo, late fees, reminders and notifications',
  },
  { name: 'rent-cycle', description: 'The daily run: late fees, rent escalations and reminders' },
  { name: 'public', description: 'Pages anyone may open without signing in: a receipt’s check (/r/{code})' },
  {
    name: 'collections',
    description: 'Mobile-money and bank statements matched to leases, and the payment webhook',
  },
  {
    name: 'payment-providers',
    description:
      'M-Pesa, MTN MoMo and Airtel Money: a company’s provider settings, payment prompts to phones, and the providers’ callbacks',
  },
  {
    name: 'portal',
    description:
      'The tenant portal: a tenant’s sign-in (an owner’s too), its balance, statements, receipts and repairs',
  },
  {
    name: 'owner-portal',
    description:
      'The owner portal: an owner’s properties, occupancy, this month’s collections, arrears by tenant',
  },
  { name: 'messages', description: 'Messages to tenants (the log, retries) and their templates' },
  {
    name: 'audit-log',
    description: "The company's audit log: read-only, for admins and company admins (and its export)",
  },
  {
    name: 'books',
    description: 'The books: the chart of accounts, the journal, manual entries and the close of a period',
  },
];

/** What an error status means on this API (`code` says which case). */
const ERROR_DESCRIPTIONS = {
  400: 'Invalid request: validation_failed (`fields` names each problem), bad_request or captcha_failed',
  401: 'Not signed in (unauthorized), the session expired (token_expired), or wrong credentials',
  403: 'No role yet (no_role), not allowed (forbidden), or the CSRF token is missing or expired',
  404: 'Not found (another company’s record is not found either)',
  409: 'Changed by someone else since it was read (conflict), still in use (in_use), or a duplicate',
  413: 'The request body is too large (payload_too_large), or a spreadsheet unpacks to more than a limit (file_too_large)',
  415: 'The body is not JSON (unsupported_media_type)',
  422: "The payment is not in the company's currency (wrong_currency), or the payment provider is not set up (provider_not_configured)",
  429: 'Too many requests (rate_limited) or too many failed sign-ins (account_locked); see Retry-After',
  502: 'The payment provider did not answer as expected (provider_unavailable): try again later',
  503: "A stored secret cannot be opened with the server's keys (secret_unavailable): try again later",
} as const;
export type ErrorStatus = keyof typeof ERROR_DESCRIPTIONS;

const errorResponse = (status: ErrorStatus) => ({
  description: ERROR_DESCRIPTIONS[status],
  content: { 'application/json': { schema: errorBodySchema } },
});

/** The error answers a route gives besides those of the guard: `...errors(404, 409)`. */
export const errors = (...statuses: ErrorStatus[]) =>
  Object.fromEntries(statuses.map((s) => [s, errorResponse(s)])) as Record<
    ErrorStatus,
    ReturnType<typeof errorResponse>
  >;

/** A JSON answer with its description. */
export const json = <S extends z.ZodType>(schema: S, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

/** A file answered as it is (a PDF, a spreadsheet, an image), of one of these content types. */
export const file = (description: string, ...types: string[]) => ({
  description,
  content: Object.fromEntries(types.map((t) => [t, { schema: binary }])),
});
const binary = z.string().meta({ format: 'binary' });

/** An answer without a body (204, or a redirect). */
export const empty = (description: string) => z.undefined().describe(description);

export const PDF = 'application/pdf';
export const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Who may call a route, as the document says it. */
const WHO: Record<Access, string> = {
  public: 'Public: no sign-in needed.',
  signedIn: 'Any signed-in user, with or without a role.',
  anyRole: 'Any signed-in user with a role, in their own company.',
  canEdit: 'Admins and editors, in their own company.',
  companyAdmin: 'Admins and company admins, in their own company.',
  admin: 'Admins only.',
  tenant: 'A tenant’s portal account, about its own tenant record only.',
  owner: 'An owner’s portal account, about its own owner record and the properties it owns only.',
};

type RouteSchema = NonNullable<RouteOptions['schema']> & { response?: Record<string, unknown> };

const hasSuccess = (response: Record<string, unknown> | undefined) =>
  !!response && Object.keys(response).some((s) => /^[23]/.test(s));

/**
 * Completes each API route's documentation from its config, and refuses a route without an
 * operationId (unique), a summary, a known tag or a success response:
 * - security: the session cookie unless public; mutations also the CSRF header (login included);
 * - the guard's errors: 401 unless public, 403 unless public (roles) or a mutation (CSRF), 400 for
 *   any input (and malformed JSON), 413 and 415 for a body.
 */
export const documentRoutes = (app: FastifyInstance, defs: readonly EntityDefinition[]) => {
  const operationIds = new Set<string>();
  const tagNames = new Set(tagsOf(defs).map((t) => t.name));
  app.addHook('onRoute', (route) => {
    if (route.method === 'HEAD' || (Array.isArray(route.method) && route.method.includes('HEAD'))) return;
    const where = `${String(route.method)} ${route.url}`;
    const schema = (route.schema ?? {}) as RouteSchema;
    if (schema.hide) return;
    const { operationId, summary, tags } = schema;
    if (!operationId || !summary || !tags?.length || !hasSuccess(schema.response)) {
      throw new Error(`${where}: declare an operationId, a summary, a tag and its success response.`);
    }
    if (operationIds.has(operationId)) throw new Error(`${where}: operationId ${operationId} is used twice.`);
    operationIds.add(operationId);
    for (const tag of tags) if (!tagNames.has(tag)) throw new Error(`${where}: unknown tag ${tag}.`);

    const access = route.config?.access ?? 'anyRole';
    const mutation = MUTATIONS.has(String(route.method));
    const needs: Record<string, string[]>[] = [mutation ? { session: [], csrf: [] } : { session: [] }];
    // a signed machine call (the payment webhook) has no session and no CSRF token
    const sessionless = access === 'public' && route.config?.sessionless === true;
    const security = access === 'public' && (!mutation || sessionless) ? [] : needs;
    const guardErrors: ErrorStatus[] = [
      ...(schema.body || schema.querystring || schema.params ? [400 as const] : []),
      ...(access !== 'public' ? [401 as const] : []),
      ...(access !== 'public' || (mutation && !sessionless) ? [403 as const] : []),
      ...(schema.body ? [413 as const, 415 as const] : []),
    ];
    const csrf = mutation && !sessionless ? ' Send the session’s CSRF token in `X-CSRF-Token`.' : '';
    route.schema = {
      ...schema,
      description: `${schema.description ? `${schema.description}\n\n` : ''}${WHO[access]}${csrf}`,
      security,
      response: { ...errors(...guardErrors), ...schema.response },
    };
  });
};

/**
 * Drops the components no operation refers to: the transform makes one of every schema of zod's
 * global registry for input and one for output, and the named ones here are output only.
 */
const withoutUnused = (document: Record<string, unknown>) => {
  const components = document.components as { schemas?: Record<string, unknown> } | undefined;
  const schemas = components?.schemas;
  if (!schemas) return document;
  const text = (v: unknown) => JSON.stringify(v);
  const used = new Set<string>();
  const refs = (s: string) => [...s.matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1] ?? '');
  let frontier = refs(text(document.paths));
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const id of frontier) {
      if (used.has(id)) continue;
      used.add(id);
      next.push(...refs(text(schemas[id])));
    }
    frontier = next;
  }
  return {
    ...document,
    components: {
      ...components,
      schemas: Object.fromEntries(Object.entries(schemas).filter(([id]) => used.has(id))),
    },
  };
};

/** The document's head (info, servers, tags, security schemes) and the routes' transform; the UI at /rentapi/docs. */
export const registerOpenApi = async (
  app: FastifyInstance,
  config: Config,
  defs: readonly EntityDefinition[],
) => {
  const transformObject = createJsonSchemaTransformObject({});
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Kodi API',
        description:
          'Rental property management: units, tenants, leases, payments and receipts, maintenance, ' +
          'expenses, vendors, employees and wages, users and roles, reports. JSON in snake_case; lists ' +
          'answer an array with the total in `X-Total-Count`; errors answer `{ error, code, fields? }`. ' +
          'Sign in with `POST /rentapi/api/auth/login`: the session is the `' +
          SESSION_COOKIE +
          '` cookie, and every POST, PUT and DELETE sends its CSRF token in `X-CSRF-Token`.',
        version: '1.1.0',
        contact: { name: 'Kodi support', email: config.supportEmail, url: config.publicUrl },
      },
      servers: [{ url: config.publicUrl, description: 'This installation' }],
      tags: tagsOf(defs),
      components: {
        securitySchemes: {
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: SESSION_COOKIE,
            description: 'The session, set by sign-in (an anonymous one by `GET /auth/status`)',
          },
          csrf: {
            type: 'apiKey',
            in: 'header',
            name: 'X-CSRF-Token',
            description: "The session's CSRF token (`GET /auth/csrf-token`), on every POST, PUT and DELETE",
          },
        },
      },
    },
    transform: createJsonSchemaTransform({}),
    transformObject: (documentObject) =>
      withoutUnused(transformObject(documentObject) as Record<string, unknown>),
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/rentapi/docs', staticCSP: true });
};
