import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { currentUser } from '../../plugins/guard.ts';
import { recordIdParams, sendStoredPhoto } from '../../crud/record-route.ts';
import { errors, file, json, named } from '../../plugins/openapi.ts';

const photoSchema = named(
  z.object({ id: z.int(), file_name: z.string().nullable(), mime_type: z.string() }),
  'MaintenanceRequestPhoto',
);

/**
 * The photos of a maintenance request (a tenant adds up to 3 in the portal): their list and each
 * image, for the request's details (any role, in the company; another company's request is a 404).
 */
export const requestPhotoRoutes = (app: FastifyInstance, ctx: AppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database } = ctx;

  r.get(
    '/maintenance_requests/:id/photos',
    {
      config: { access: 'anyRole' },
      schema: {
        operationId: 'listMaintenanceRequestPhotos',
        tags: ['maintenance_requests'],
        summary: 'The photos of a maintenance request',
        params: recordIdParams,
        response: { 200: json(z.array(photoSchema), 'Its photos, oldest first'), ...errors(404) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const found = await database.query<{ id: number }>(
        'SELECT id FROM maintenance_requests WHERE company_id = $1 AND id = $2',
        [user.company_id, request.params.id],
      );
      if (!found[0]) throw new AppError('not_found');
      const rows = await database.query<{ id: number; file_name: string | null; mime_type: string }>(
        `SELECT id, file_name, mime_type FROM maintenance_request_photos
          WHERE company_id = $1 AND request_id = $2 ORDER BY id`,
        [user.company_id, request.params.id],
      );
      return rows.map((p) => ({ ...p, id: Number(p.id) }));
    },
  );

  r.get(
    '/maintenance_requests/:id/photos/:photoId',
    {
      config: { access: 'anyRole' },
      schema: {
        operationId: 'getMaintenanceRequestPhoto',
        tags: ['maintenance_requests'],
        summary: 'A photo of a maintenance request',
        params: recordIdParams.extend({ photoId: recordIdParams.shape.id }),
        response: { 200: file('The photo', 'image/png', 'image/jpeg', 'image/webp'), ...errors(404) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const rows = await database.query<{ mime_type: string; data_base64: string }>(
        `SELECT mime_type, data_base64 FROM maintenance_request_photos
          WHERE company_id = $1 AND request_id = $2 AND id = $3`,
        [user.company_id, request.params.id, request.params.photoId],
      );
      return sendStoredPhoto(reply as FastifyReply, rows[0]);
    },
  );
};
