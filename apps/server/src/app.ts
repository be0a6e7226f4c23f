import path from 'node:path';
import type { Writable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, entityList, type EntityDefinition } from '@kodi/domain';
import type { Config } from './config.ts';
import { serverRoot, type Database } from './db/client.ts';
import { registerErrorHandling, sendError } from './plugins/errors.ts';
import { registerGuards } from './plugins/guard.ts';
import { registerCompression } from './plugins/compression.ts';
import { registerWeb } from './plugins/web.ts';
import { documentRoutes, json, registerOpenApi } from './plugins/openapi.ts';
import { createSessions } from './plugins/session.ts';
import { createSecretBox, loadSecretKeys } from './lib/secrets.ts';
import { loggerOptions } from './lib/log-redaction.ts';
import { fastifyTrustProxy } from './lib/trust-proxy.ts';
import type { AppContext } from './context.ts';
import { authRoutes } from './features/auth/routes.ts';
import { registerRoutes } from './features/accounts/register-routes.ts';
import { passwordRoutes } from './features/accounts/password-routes.ts';
import { googleRoutes } from './features/accounts/google-routes.ts';
import { userRoutes } from './features/users/routes.ts';
import { securityRoutes } from './features/security/routes.ts';
import { captchaRoutes } from './features/captcha/routes.ts';
import { companySingleRoute } from './features/companies/single-route.ts';
import { registerEntityRoutes } from './crud/routes.ts';
import { serverEntitiesOf } from './crud/registry.ts';
import { leaseDocRoute } from './features/occupancy/lease-doc-route.ts';
import { receiptRoute } from './features/payments/receipt-route.ts';
import { dashboardRoute } from './features/dashboard/route.ts';
import { reportRoutes } from './features/reports/routes.ts';
import { ledgerRoutes } from './features/ledger/routes.ts';
import { propertyUnitsRoute } from './features/properties/units-route.ts';
import { importRoutes } from './features/imports/routes.ts';
import { leaseChargeRoutes } from './features/lease-charges/routes.ts';
import { companySettingsRoutes } from './features/company-settings/routes.ts';
import { rentCycleRoutes } from './features/rent-cycle/routes.ts';
import { publicReceiptRoutes } from './features/public-receipts/routes.ts';
import { collectionsRoutes } from './features/collections/routes.ts';
import { portalAuthRoutes } from './features/portal/auth-routes.ts';
import { portalRoutes } from './features/portal/routes.ts';
import { portalStaffRoutes } from './features/portal/staff-routes.ts';
import { requestPhotoRoutes } from './features/maintenance-requests/photos-route.ts';
import { messageRoutes } from './features/messages/routes.ts';
import { auditLogRoutes } from './features/audit-log/routes.ts';

export const API_PREFIX = '/rentapi/api';
export const BODY_LIMIT = 1024 * 1024;

export const webDistDir = path.resolve(serverRoot, '..', 'web', 'dist');

export type AppOptions = {
  /** Entities served besides those of the list (tests: an entity added by its definition alone). */
  extraEntities?: readonly EntityDefinition[];
  /** the built web app served at / (apps/web/dist unless given) */
  webDir?: string;
  /** where the log's lines go (standard output unless given: tests read them) */
  logStream?: Writable;
};

export const buildApp = async (
  config: Config,
  database: Database,
  options: AppOptions = {},
): Promise<FastifyInstance> => {
  const app = Fastify({
    logger: loggerOptions(config, options.logStream),
    bodyLimit: BODY_LIMIT,
    trustProxy: fastifyTrustProxy(config.trustProxy),
    routerOptions: { ignoreTrailingSlash: true },
    // A malformed URL (`/units/%zz`) or an over-long path parameter: the API's `{ error, code }`, not Fastify's own.
    frameworkErrors: (err, _request, reply) => void sendError(reply, err),
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('session', null);
  app.decorateRequest('user', null);
  app.decorateRequest('sessionExpired', false);

  const ctx: AppContext = {
    config,
    database,
    sessions: createSessions(database, config),
    secrets: createSecretBox(await loadSecretKeys(config)),
  };

  registerErrorHandling(app);
  await app.register(fastifyCookie);
  await registerCompression(app);
  // A strict Content-Security-Policy: no inline script anywhere (MUI's emotion needs inline styles).
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    hsts: config.cookieSecure ? { maxAge: 31536000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
  });
  const served = [...entityList, ...(options.extraEntities ?? [])];
  await registerOpenApi(app, config, served);

  await app.register(
    async (api) => {
      registerGuards(api, ctx.sessions, API_PREFIX);
      documentRoutes(api, served);
      api.withTypeProvider<ZodTypeProvider>().get(
        '/health',
        {
          config: { access: 'public' },
          schema: {
            operationId: 'getHealth',
            tags: ['health'],
            summary: 'Whether the server answers and its migrations ran',
            response: { 200: json(z.object({ status: z.literal('ok') }), 'The server is up') },
          },
        },
        async () => {
          await database.query('SELECT 1');
          return { status: 'ok' as const };
        },
      );
      authRoutes(api, ctx);
      registerRoutes(api, ctx);
      passwordRoutes(api, ctx);
      googleRoutes(api, ctx);
      userRoutes(api, ctx);
      securityRoutes(api, ctx);
      captchaRoutes(api, ctx);
      companySingleRoute(api, ctx);
      const servedEntities = serverEntitiesOf(served);
      for (const entity of servedEntities) registerEntityRoutes(api, ctx, entity);
      // its own scope: multipart bodies are parsed there only
      await api.register(async (scope) => importRoutes(scope, ctx, servedEntities));
      const paymentsEntity = servedEntities.find((e) => e.def.name === 'payments');
      if (paymentsEntity) await api.register(async (scope) => collectionsRoutes(scope, ctx, paymentsEntity));
      leaseDocRoute(api, ctx);
      receiptRoute(api, ctx);
      dashboardRoute(api, ctx);
      reportRoutes(api, ctx);
      ledgerRoutes(api, ctx);
      propertyUnitsRoute(api, ctx);
      leaseChargeRoutes(api, ctx);
      companySettingsRoutes(api, ctx);
      rentCycleRoutes(api, ctx);
      publicReceiptRoutes(api, ctx);
      portalStaffRoutes(api, ctx);
      portalAuthRoutes(api, ctx);
      portalRoutes(api, ctx);
      requestPhotoRoutes(api, ctx);
      messageRoutes(api, ctx);
      auditLogRoutes(api, ctx);
      api.setNotFoundHandler(() => {
        throw new AppError('not_found', 'No such API route.');
      });
    },
    { prefix: API_PREFIX },
  );

  // The built web app at /, with the SPA fallback for its client-side routes.
  await registerWeb(app, options.webDir ?? webDistDir);

  return app;
};
