import path from 'node:path';
import type { Writable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, entityList, type EntityDefinition } from '@kodi/domain';
import type { Config } from './config.ts';
import { serverRoot, type Database } from './db/client.ts';
import { registerErrorHandling, sendError } from './plugins/errors.ts';
import { answerSerializerCompiler } from './plugins/answer-serializer.ts';
import { registerGuards } from './plugins/guard.ts';
import { registerCompression } from './plugins/compression.ts';
import { registerWeb } from './plugins/web.ts';
import { documentRoutes, json, registerOpenApi } from './plugins/openapi.ts';
import { createSessions } from './plugins/session.ts';
import { createSecretBox, loadSecretKeys } from './platform/secrets.ts';
import { assertSecretsOpen } from './db/sealed-secrets.ts';
import { loggerOptions } from './plugins/log-redaction.ts';
import { fastifyTrustProxy } from './platform/trust-proxy.ts';
import type { AppContext } from './context.ts';
import { registerEntityRoutes } from './crud/routes.ts';
import type { RunningWorker } from './modules/kodi-module.ts';
import { kodiModules, serverEntities, tableLabels } from './modules.ts';

export const API_PREFIX = '/rentapi/api';
export const BODY_LIMIT = 1024 * 1024;

export const webDistDir = path.resolve(serverRoot, '..', 'web', 'dist');

export type AppOptions = {
  /** Entities served besides those of the list (tests: an entity added by its definition alone). */
  extraEntities?: readonly EntityDefinition[];
  /** the built web app served at / (apps/web/dist unless given) */
  webDir?: string;
  /**
   * Runs the modules' workers that the configuration turns on (main.ts): started when the app is
   * ready, stopped when it closes. Tests leave them off and drive the workers themselves.
   */
  workers?: boolean;
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
  // An answer that does not match its schema: a 500 outside production (the tests see it); in
  // production an error in the log, and the answer sent with only what its schema declares.
  app.setSerializerCompiler(
    answerSerializerCompiler({
      strict: config.nodeEnv !== 'production',
      onMismatch: (mismatch) =>
        app.log.error({ answerMismatch: mismatch }, 'an answer does not match its schema'),
    }),
  );
  app.decorateRequest('session', null);
  app.decorateRequest('user', null);
  app.decorateRequest('sessionExpired', false);

  const secrets = createSecretBox(await loadSecretKeys(config));
  // no start with stored secrets sealed under a key the server does not hold (SECRET_KEY changed alone)
  await assertSecretsOpen(database, secrets);
  const ctx: AppContext = { config, database, sessions: createSessions(database, config), secrets };

  const served = [...entityList, ...(options.extraEntities ?? [])];
  registerErrorHandling(app, tableLabels(served));
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
      const entities = serverEntities(served);
      for (const entity of entities) registerEntityRoutes(api, ctx, entity);
      for (const module of kodiModules) await module.routes?.(api, ctx, { entities });
      api.setNotFoundHandler(() => {
        throw new AppError('not_found', 'No such API route.');
      });
    },
    { prefix: API_PREFIX },
  );

  // The built web app at /, with the SPA fallback for its client-side routes.
  // (the Arrears page's first lines name the signed-in user's company currency: its HTML draws them)
  await registerWeb(app, options.webDir ?? webDistDir, async (request) => {
    await ctx.sessions.load(request);
    const companyId = request.user?.company_id;
    if (!companyId) return null;
    const rows = await database.prepared<{ currency_code: string | null }>(
      'SELECT trim(currency_code) AS currency_code FROM companies WHERE id = $1',
      [companyId],
    );
    return { currency: rows[0]?.currency_code || null };
  });

  if (options.workers) {
    const running: RunningWorker[] = [];
    const log = (message: string, err?: unknown) => app.log.error({ err }, message);
    const workerEntities = serverEntities(served);
    app.addHook('onReady', async () => {
      for (const module of kodiModules)
        for (const worker of module.workers ?? [])
          if (worker.enabled(ctx)) running.push(await worker.start(ctx, log, { entities: workerEntities }));
    });
    app.addHook('onClose', async () => {
      for (const worker of running.splice(0)) await worker.stop().catch(() => undefined);
    });
  }

  return app;
};
