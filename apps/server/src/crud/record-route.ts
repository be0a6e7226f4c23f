import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, type Access, type SessionUser } from '@kodi/domain';
import { currentUser } from '../plugins/guard.ts';

/** The `:id` of a record's routes: a positive 32-bit integer. */
export const recordIdParams = z.object({ id: z.coerce.number().int().positive().max(2147483647) });

export type RecordRouteHandler = (args: {
  user: SessionUser;
  id: number;
  reply: FastifyReply;
  request: FastifyRequest;
}) => Promise<unknown>;

/** How a record route is documented: its operation, who may call it, and what it answers. */
export type RecordRouteDoc = {
  access: Access;
  operationId: string;
  tag: string;
  summary: string;
  /** the answers by status: a JSON schema or a file (plugins/openapi.ts `json`, `file`), and errors. */
  response: NonNullable<FastifySchema['response']>;
};

/**
 * A GET route about one record (`/{entity}/:id/...`): authenticate and authorize from `access`,
 * validate the id, then the handler with the session's user (whose company scopes every query).
 */
export const recordGetRoute = (
  app: FastifyInstance,
  path: string,
  doc: RecordRouteDoc,
  handler: RecordRouteHandler,
) =>
  app.withTypeProvider<ZodTypeProvider>().get(
    path,
    {
      config: { access: doc.access },
      schema: {
        operationId: doc.operationId,
        tags: [doc.tag],
        summary: doc.summary,
        params: recordIdParams,
        response: doc.response,
      },
    },
    async (request, reply) => handler({ user: currentUser(request), id: request.params.id, reply, request }),
  );

/** A file answered as a download, named in `Content-Disposition` and `X-Suggested-Filename`. */
/**
 * A stored photo (a maintenance request's, kept as base64), shown inline: its own type, never
 * sniffed, kept a day by the browser of the signed-in user only. 404 when there is none.
 */
export const sendStoredPhoto = (
  reply: FastifyReply,
  photo: { mime_type: string; data_base64: string } | undefined,
) => {
  if (!photo) throw new AppError('not_found');
  return reply
    .type(photo.mime_type)
    .header('X-Content-Type-Options', 'nosniff')
    .header('Cache-Control', 'private, max-age=86400')
    .send(Buffer.from(photo.data_base64, 'base64'));
};

export const sendDownload = (reply: FastifyReply, type: string, filename: string, body: unknown) =>
  reply
    .type(type)
    .header('Content-Disposition', `attachment; filename="${filename}"`)
    .header('X-Suggested-Filename', filename)
    .header('X-Content-Type-Options', 'nosniff')
    .send(body);
