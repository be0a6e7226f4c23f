import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { announcementBody, announcementSchema, type Announcement } from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { currentUser } from '../../plugins/guard.ts';
import { pagedList, sendTotal } from '../../crud/paged-list.ts';
import { errors, json, named } from '../../plugins/openapi.ts';
import { companyToday } from '../../modules/companies/company-settings.ts';
import { announcementCounts, sendAnnouncement } from '../../modules/messaging/announcements.ts';

const AnnouncementRow = named(announcementSchema, 'Announcement');

const COLUMNS = `t.id, to_char(t.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at,
  t.property_id, p.name AS property_name, t.channels, t.subject, t.body, t.recipients,
  NULLIF(trim(concat_ws(' ', u.first_name, u.last_name)), '') AS created_by_name`;
const JOINS = `LEFT JOIN properties p ON p.company_id = t.company_id AND p.id = t.property_id
  LEFT JOIN users u ON u.id = t.created_by`;

type Row = Omit<Announcement, 'counts' | 'channels'> & { channels: unknown };

const channelsOf = (v: unknown): string[] =>
  (Array.isArray(v) ? v : typeof v === 'string' ? (JSON.parse(v) as unknown[]) : []).map(String);

/**
 * Announcements (issue 29): `POST /announcements` sends one to the tenants of a property or of the
 * whole company (admins and editors), `GET /announcements` lists them, newest first, with what their
 * messages became (any staff of the company).
 */
export const announcementRoutes = (app: FastifyInstance, ctx: AppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db = ctx.database;

  const present = async (companyId: number, rows: Row[]): Promise<Announcement[]> => {
    const counts = await announcementCounts(
      db,
      companyId,
      rows.map((a) => Number(a.id)),
    );
    return rows.map((a) => ({
      id: Number(a.id),
      created_at: String(a.created_at),
      property_id: a.property_id === null ? null : Number(a.property_id),
      property_name: a.property_name ?? null,
      channels: channelsOf(a.channels),
      subject: a.subject,
      body: a.body,
      recipients: Number(a.recipients),
      created_by_name: a.created_by_name ?? null,
      counts: counts.get(Number(a.id)) ?? {},
    }));
  };

  r.get(
    '/announcements',
    {
      config: { access: 'anyRole' },
      schema: {
        operationId: 'listAnnouncements',
        tags: ['messages'],
        summary: 'The announcements sent to tenants, newest first, with their messages’ counts per channel',
        querystring: z.object({
          page: z.coerce.number().int().min(1).max(1_000_000).default(1),
          page_size: z.coerce.number().int().min(1).max(100, 'At most 100 rows a page.').default(25),
        }),
        response: {
          200: json(z.array(AnnouncementRow), 'A page of announcements (X-Total-Count: how many)'),
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const page = await pagedList<Row>(
        db,
        {
          table: 'announcements',
          key: ['company_id', 'id'],
          where: [sql`t.company_id = ${user.company_id}`],
          filtered: false,
          order: [{ expr: 't.id', desc: true }],
          columns: sql.raw(COLUMNS),
          joins: sql.raw(JOINS),
        },
        request.query,
      );
      sendTotal(reply, page);
      return present(user.company_id, page.rows);
    },
  );

  r.post(
    '/announcements',
    {
      config: { access: 'canEdit' },
      schema: {
        operationId: 'sendAnnouncement',
        tags: ['messages'],
        summary:
          'Send an announcement to every tenant with an active lease on a property (or on any): one message per tenant and channel, queued in the message log (the same idempotency_key again: the one already sent, 200)',
        body: announcementBody,
        response: {
          201: json(AnnouncementRow, 'The announcement, its messages queued'),
          200: json(AnnouncementRow, 'The announcement this key already sent (nothing more queued)'),
          ...errors(404),
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const b = request.body;
      const sent = await sendAnnouncement(db, {
        companyId: user.company_id,
        userId: user.id,
        propertyId: b.property_id,
        channels: b.channels,
        subject: b.subject,
        body: b.body,
        idempotencyKey: b.idempotency_key,
        today: await companyToday(db, user.company_id),
      });
      const rows = await db.query<Row>(
        `SELECT ${COLUMNS} FROM announcements t ${JOINS} WHERE t.company_id = $1 AND t.id = $2`,
        [user.company_id, sent.id],
      );
      const [answer] = await present(user.company_id, rows);
      return reply.code(sent.created ? 201 : 200).send(answer);
    },
  );
};
