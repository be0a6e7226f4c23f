import type { KodiModule } from '../../modules/kodi-module.ts';
import { messageRoutes } from './routes.ts';
import { announcementRoutes } from './announcement-routes.ts';
import { whatsappRoutes } from './whatsapp-routes.ts';
import { createMessageSender } from '../../modules/messaging/sender.ts';

/**
 * The outbox's sender, the message log, retries, the templates' and the announcements' routes, and
 * WhatsApp's settings and webhook.
 */
export const messagesModule: KodiModule = {
  name: 'messages',
  routes: async (api, ctx) => {
    messageRoutes(api, ctx);
    announcementRoutes(api, ctx);
    await whatsappRoutes(api, ctx);
  },
  workers: [
    {
      // receipts queued, the outbox sent (MESSAGES_SENDER=0: off)
      name: 'messages sender',
      enabled: ({ config }) => config.messagesSender,
      start: async ({ database, config, secrets }, log) =>
        createMessageSender(database, config, {
          intervalMs: config.messagesIntervalMs,
          retryBaseSeconds: config.messageRetrySeconds,
          secrets,
          log,
        }),
    },
  ],
};
