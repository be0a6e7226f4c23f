import type { KodiModule } from '../kodi-module.ts';

/**
 * The outbox (outbox.ts: the one way to queue a message), its sender, the message templates, the
 * announcements and WhatsApp's settings.
 */
export const messagingModule: KodiModule = {
  name: 'messaging',
  owns: ['messages', 'message_templates', 'announcements', 'whatsapp_settings'],
};
