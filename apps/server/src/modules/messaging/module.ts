import type { KodiModule } from '../kodi-module.ts';

/** The outbox (outbox.ts: the one way to queue a message), its sender, the message templates and the announcements. */
export const messagingModule: KodiModule = {
  name: 'messaging',
  owns: ['messages', 'message_templates', 'announcements'],
};
