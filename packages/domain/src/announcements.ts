import { z } from 'zod';
import { messageChannel, type MessageChannel } from './enums.ts';
import { messages } from './validation.ts';

/**
 * Announcements (issue 29): a notice from staff to every tenant with an active lease on a property,
 * or in the whole company, sent by each channel chosen (one message per tenant and channel, through
 * the outbox). The channels are the outbox's (`messageChannel`): any channel it knows is accepted.
 */

const channelNames = messageChannel.values as readonly [MessageChannel, ...MessageChannel[]];
const channelList = channelNames.map((c) => `'${c}'`).join(', ');

export const ANNOUNCEMENT_SUBJECT_MAX = 200;
export const ANNOUNCEMENT_BODY_MAX = 2000;

/** `POST /announcements`. */
export const announcementBody = z.strictObject({
  property_id: z
    .union([z.coerce.number().int().positive().max(2147483647), z.null()], {
      error: 'Choose a property, or none for every property.',
    })
    .optional()
    .transform((v) => v ?? null),
  channels: z
    .array(z.enum(channelNames, { error: `Use ${channelList}.` }), {
      error: 'Choose at least one channel.',
    })
    .min(1, 'Choose at least one channel.')
    .max(channelNames.length)
    .refine((cs) => new Set(cs).size === cs.length, 'Each channel once.'),
  subject: z
    .string({ error: messages.required })
    .trim()
    .min(1, 'The subject is required.')
    .max(ANNOUNCEMENT_SUBJECT_MAX, `The subject must be at most ${ANNOUNCEMENT_SUBJECT_MAX} characters.`),
  body: z
    .string({ error: messages.required })
    .trim()
    .min(1, 'The message is required.')
    .max(ANNOUNCEMENT_BODY_MAX, `The message must be at most ${ANNOUNCEMENT_BODY_MAX} characters.`),
  idempotency_key: z
    .string({ error: 'Required: a key the form makes once (a retry sends it again).' })
    .trim()
    .min(8, 'At least 8 characters.')
    .max(100, 'At most 100 characters.')
    .describe('Made once by the form: the same key again answers the announcement already sent'),
});
export type AnnouncementBody = z.input<typeof announcementBody>;

const statusCounts = z.object({
  queued: z.int().describe('waiting to go (or being sent)'),
  sent: z.int(),
  failed: z.int(),
  skipped: z.int().describe('not sent: no address, opted out, no provider'),
});
export type AnnouncementCounts = z.infer<typeof statusCounts>;

/** A row of `GET /announcements` (and the answer of its POST). */
export const announcementSchema = z.object({
  id: z.int(),
  created_at: z.string(),
  property_id: z.int().nullable(),
  property_name: z.string().nullable().describe('null: every property of the company'),
  channels: z.array(z.string()),
  subject: z.string(),
  body: z.string(),
  recipients: z.int().describe('the tenants it was addressed to'),
  created_by_name: z.string().nullable(),
  counts: z.record(z.string(), statusCounts).describe('per channel: what its messages became'),
});
export type Announcement = z.infer<typeof announcementSchema>;

/** A row of `GET /portal/announcements`. */
export const portalAnnouncementSchema = z.object({
  id: z.int(),
  created_at: z.string(),
  property_name: z.string().nullable(),
  subject: z.string(),
  body: z.string(),
});
export type PortalAnnouncement = z.infer<typeof portalAnnouncementSchema>;
export const portalAnnouncementsSchema = z.object({
  rows: z.array(portalAnnouncementSchema),
  total: z.int(),
  page: z.int(),
  page_size: z.int(),
});
export type PortalAnnouncements = z.infer<typeof portalAnnouncementsSchema>;

/** Empty counts of each status. */
export const noCounts = (): AnnouncementCounts => ({ queued: 0, sent: 0, failed: 0, skipped: 0 });

/** Where a status is counted: `sending` with `queued` (not gone yet). */
export const countedStatus = (status: string): keyof AnnouncementCounts =>
  status === 'sent' || status === 'failed' || status === 'skipped' ? status : 'queued';
