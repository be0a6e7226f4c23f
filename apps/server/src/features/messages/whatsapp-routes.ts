import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, whatsappSettingsBody, whatsappSettingsSchema } from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { currentUser } from '../../plugins/guard.ts';
import { errors, json, named } from '../../plugins/openapi.ts';
import {
  applyWhatsappStatuses,
  openWhatsappCredentials,
  presentWhatsapp,
  readWhatsappRow,
  saveWhatsapp,
  statusesOf,
  verifyMetaSignature,
  WHATSAPP_CALLBACK_PREFIX,
  whatsappOfCallback,
} from '../../modules/messaging/whatsapp.ts';

const tags = ['messages'];
const Settings = named(whatsappSettingsSchema, 'WhatsappSettings');
const WebhookAnswer = named(z.object({ updated: z.int() }), 'WhatsappWebhookAnswer');
const keyParams = z.object({ key: z.string().max(64) });
const rawBodies = new WeakMap<FastifyRequest, Buffer>();

/**
 * WhatsApp (issue 29): the company's settings (company admins; secrets never answered back), and the
 * webhook Meta calls, at the URL each company pastes in Meta's portal with its verify token: the GET
 * handshake, and the POSTs of delivery statuses, believed only when signed with the company's app secret.
 */
export const whatsappRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database, config, secrets } = ctx;

  r.get(
    '/whatsapp-settings',
    {
      config: { access: 'companyAdmin' },
      schema: {
        operationId: 'getWhatsappSettings',
        tags,
        summary:
          'The company’s WhatsApp settings: on or off, whether its token and app secret are set (never their values), its templates, the webhook URL and verify token to paste in Meta’s portal',
        response: { 200: json(Settings, 'The settings'), ...errors(503) },
      },
    },
    async (request) =>
      presentWhatsapp(config, secrets, await readWhatsappRow(database.db, currentUser(request).company_id)),
  );

  r.put(
    '/whatsapp-settings',
    {
      config: { access: 'companyAdmin' },
      schema: {
        operationId: 'putWhatsappSettings',
        tags,
        summary:
          'Turn WhatsApp on or off and set its account (the token and app secret sealed; one left out is kept, null clears it)',
        body: whatsappSettingsBody,
        response: { 200: json(Settings, 'Saved'), ...errors(409, 503) },
      },
    },
    async (request) => saveWhatsapp(database, config, secrets, currentUser(request), request.body),
  );

  // ------------------------------------------------------------ Meta's webhook
  await app.register(async (hook) => {
    // the body's exact bytes are what Meta signs: kept as received, then parsed
    hook.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
      const raw = body as Buffer;
      rawBodies.set(request, raw);
      try {
        done(null, JSON.parse(raw.toString('utf8')) as unknown);
      } catch {
        done(new AppError('bad_request', 'The body is not JSON.'), undefined);
      }
    });
    const w = hook.withTypeProvider<ZodTypeProvider>();

    w.get(
      `${WHATSAPP_CALLBACK_PREFIX}/:key`,
      {
        config: { access: 'public', sessionless: true },
        schema: {
          operationId: 'verifyWhatsappWebhook',
          tags,
          summary:
            'Meta’s check of the webhook URL: answers hub.challenge when hub.verify_token is the company’s (no session)',
          security: [],
          params: keyParams,
          querystring: z.object({
            'hub.mode': z.string().max(50).optional(),
            'hub.verify_token': z.string().max(200).optional(),
            'hub.challenge': z.string().max(200).optional(),
          }),
          response: {
            200: { description: 'The challenge, as sent', content: { 'text/plain': { schema: z.string() } } },
            ...errors(403),
          },
        },
      },
      async (request, reply) => {
        const row = await whatsappOfCallback(database.db, request.params.key);
        const q = request.query;
        if (!row || q['hub.mode'] !== 'subscribe' || q['hub.verify_token'] !== row.verify_token)
          throw new AppError('forbidden', 'The verify token is not this webhook’s.');
        return reply.type('text/plain').send(q['hub.challenge'] ?? '');
      },
    );

    w.post(
      `${WHATSAPP_CALLBACK_PREFIX}/:key`,
      {
        config: { access: 'public', sessionless: true },
        schema: {
          operationId: 'receiveWhatsappWebhook',
          tags,
          summary:
            'Delivery statuses from WhatsApp (signed: X-Hub-Signature-256 sha256=<hex HMAC-SHA256 of the body with the app secret>); no session, no CSRF',
          security: [],
          params: keyParams,
          headers: z.object({ 'x-hub-signature-256': z.string().max(200).optional() }),
          body: z.record(z.string(), z.unknown()),
          response: {
            200: json(WebhookAnswer, 'Statuses applied (how many messages changed)'),
            ...errors(401, 503),
          },
        },
        // the signature before anything else: an unsigned caller learns nothing and changes nothing
        preValidation: async (request) => {
          const key = (request.params as { key?: string }).key ?? '';
          const row = await whatsappOfCallback(database.db, key);
          const appSecret = row ? openWhatsappCredentials(secrets, row).app_secret : undefined;
          const header = request.headers['x-hub-signature-256'];
          const signature = Array.isArray(header) ? header[0] : header;
          // an unknown key is checked against a made-up secret: the same work and the same answer
          const ok = verifyMetaSignature(
            signature,
            rawBodies.get(request) ?? Buffer.alloc(0),
            appSecret ?? 'no-such-webhook',
          );
          if (!row || !appSecret || !ok) throw new AppError('bad_signature');
          (request as FastifyRequest & { whatsappCompany?: number }).whatsappCompany = Number(row.company_id);
        },
      },
      async (request) => {
        const companyId = (request as FastifyRequest & { whatsappCompany?: number }).whatsappCompany;
        if (!companyId) throw new AppError('bad_signature');
        const updated = await applyWhatsappStatuses(database, companyId, statusesOf(request.body));
        return { updated };
      },
    );
  });
};
