import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '@kodi/domain';
import type { AppContext } from '../../app.ts';
import { currentUser } from '../../plugins/guard.ts';

/** `GET /occupancy/{id}/lease_doc`: the uploaded lease document, as a download. */
export const leaseDocRoute = (app: FastifyInstance, ctx: AppContext) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/occupancy/:id/lease_doc',
    {
      config: { access: 'anyRole' },
      schema: {
        tags: ['occupancy'],
        summary: 'Download the lease document',
        params: z.object({ id: z.coerce.number().int().positive().max(2147483647) }),
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const rows = await ctx.database.query<{
        lease_doc: string | null;
        lease_doc_name: string | null;
        lease_doc_type: string | null;
      }>(
        'SELECT lease_doc, lease_doc_name, lease_doc_type FROM occupancy WHERE company_id = $1 AND id = $2',
        [user.company_id, request.params.id],
      );
      const row = rows[0];
      if (!row) throw new AppError('not_found', 'Occupancy record not found.');
      if (!row.lease_doc) throw new AppError('not_found', 'This occupancy record has no lease document.');
      const type = row.lease_doc_type ?? 'application/octet-stream';
      const ext = type === 'application/pdf' ? 'pdf' : type === 'image/png' ? 'png' : 'jpg';
      const base =
        (row.lease_doc_name ?? 'lease').replace(/\.[a-z0-9]+$/i, '').replace(/[^\w.-]+/g, '_') || 'lease';
      const filename = `${base}.${ext}`;
      return reply
        .type(type)
        .header('Content-Disposition', `attachment; filename="${filename}"`)
        .header('X-Suggested-Filename', filename)
        .header('X-Content-Type-Options', 'nosniff')
        .send(Buffer.from(row.lease_doc, 'base64'));
    },
  );
};
