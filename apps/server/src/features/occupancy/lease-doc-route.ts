import type { FastifyInstance } from 'fastify';
import { AppError } from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { recordGetRoute, sendDownload, type RecordRouteHandler } from '../../crud/record-route.ts';
import { errors, file, PDF } from '../../plugins/openapi.ts';

/** The uploaded lease document of one of the company's leases, as a download. */
const downloadLeaseDoc =
  (ctx: AppContext): RecordRouteHandler =>
  async ({ user, id, reply }) => {
    const rows = await ctx.database.query<{
      lease_doc: string | null;
      lease_doc_name: string | null;
      lease_doc_type: string | null;
    }>('SELECT lease_doc, lease_doc_name, lease_doc_type FROM occupancy WHERE company_id = $1 AND id = $2', [
      user.company_id,
      id,
    ]);
    const row = rows[0];
    if (!row) throw new AppError('not_found', 'Occupancy record not found.');
    if (!row.lease_doc) throw new AppError('not_found', 'This occupancy record has no lease document.');
    const type = row.lease_doc_type ?? 'application/octet-stream';
    const ext = type === 'application/pdf' ? 'pdf' : type === 'image/png' ? 'png' : 'jpg';
    const base =
      (row.lease_doc_name ?? 'lease').replace(/\.[a-z0-9]+$/i, '').replace(/[^\w.-]+/g, '_') || 'lease';
    const filename = `${base}.${ext}`;
    return sendDownload(reply, type, filename, Buffer.from(row.lease_doc, 'base64'));
  };

/** `GET /occupancy/{id}/lease_doc` (any role). */
export const leaseDocRoute = (app: FastifyInstance, ctx: AppContext) =>
  recordGetRoute(
    app,
    '/occupancy/:id/lease_doc',
    {
      access: 'anyRole',
      operationId: 'getLeaseDocument',
      tag: 'occupancy',
      summary: 'Download the lease document',
      response: {
        200: file('The document as uploaded (named in Content-Disposition)', PDF, 'image/png', 'image/jpeg'),
        ...errors(404),
      },
    },
    downloadLeaseDoc(ctx),
  );
