import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, allows, createSchema, hasAnyRole, updateSchema, type SessionUser } from '@kodi/domain';
import type { AppContext } from '../app.ts';
import { filterQuery, registerExportRoute, searchQuery } from './export.ts';
import { currentUser } from '../plugins/guard.ts';
import { createBatcher } from './create-batch.ts';
import { recordIdParams } from './record-route.ts';
import {
  deleteRecord,
  getRecord,
  insertRecord,
  listRecords,
  recordAudit,
  recordAudits,
  recordHistory,
  updateRecord,
  type ServerEntity,
} from './service.ts';

export const listQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(500, 'At most 500 rows a page.').default(25),
  q: searchQuery,
  sort: z.string().max(60).optional(),
  filter: filterQuery,
});

const idParams = recordIdParams;

/**
 * The five routes of an entity, read from its definition. Every handler runs in the same order:
 * authenticate (onRequest) → validate (schema) → authorize (preHandler, from `def.access`) → service → present.
 */
export const registerEntityRoutes = (app: FastifyInstance, ctx: AppContext, e: ServerEntity) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { def } = e;
  const base = `/${def.name}`;
  const tags = [def.name];
  const { db } = ctx.database;
  const bodyLimit = e.bodyLimit;
  // creations answer after their commit; those of one company arriving together share it
  const createInBatch = createBatcher<{ user: SessionUser; record: Record<string, unknown> }>(
    ctx.database,
    (tx, created) =>
      recordAudits(
        tx,
        e,
        created.map(({ user, record }) => ({
          user,
          action: 'create',
          recordId: Number(record.id),
          before: null,
          after: record,
        })),
      ),
  );

  r.get(
    base,
    {
      // An entity with a public list: the route is public, and the role checks below apply to signed-in callers.
      config: { access: e.publicList ? 'public' : def.access.read },
      schema: {
        tags,
        summary: `List ${def.name} (X-Total-Count has the total)`,
        querystring: listQuerySchema,
      },
    },
    async (request, reply) => {
      if (e.publicList && !request.user) {
        const list = await e.publicList(db, request.query);
        void reply.header('X-Total-Count', String(list.total));
        return list.rows;
      }
      if (e.publicList && !hasAnyRole(request.user)) throw new AppError('no_role');
      if (e.publicList && !allows(def.access.read, request.user)) throw new AppError('forbidden');
      const { rows, total } = await listRecords(ctx.database, e, currentUser(request), request.query);
      void reply.header('X-Total-Count', String(total));
      return rows;
    },
  );

  registerExportRoute(app, ctx, e);

  r.get(
    `${base}/:id`,
    {
      config: { access: def.access.read },
      schema: { tags, summary: `One ${def.singular.toLowerCase()}`, params: idParams },
    },
    async (request) => getRecord(db, e, currentUser(request), request.params.id),
  );

  r.post(
    base,
    {
      config: { access: def.access.create },
      ...(bodyLimit ? { bodyLimit } : {}),
      schema: { tags, summary: `Create a ${def.singular.toLowerCase()}`, body: createSchema(def) },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { record } = await createInBatch(user, async (tx) => {
        const values = e.prepare ? await e.prepare({ tx, user, values: request.body }) : request.body;
        return { user, record: await insertRecord(tx, e, user, values) };
      });
      return reply.code(201).send(record);
    },
  );

  r.put(
    `${base}/:id`,
    {
      config: { access: def.access.update },
      ...(bodyLimit ? { bodyLimit } : {}),
      schema: {
        tags,
        summary: `Update a ${def.singular.toLowerCase()} (send the version you read; 409 if it changed)`,
        params: idParams,
        body: updateSchema(def),
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { id } = request.params;
      return db.transaction(async (tx) => {
        const existing = await getRecord(tx, e, user, id);
        const { version, ...input } = request.body as Record<string, unknown> & { version: number };
        const values = e.prepare ? await e.prepare({ tx, user, values: input, existing }) : input;
        await updateRecord(tx, e, user, id, version, values);
        const record = await getRecord(tx, e, user, id);
        await recordAudit(tx, e, user, 'update', id, existing, record);
        return record;
      });
    },
  );

  r.delete(
    `${base}/:id`,
    {
      config: { access: def.access.delete },
      schema: { tags, summary: `Delete a ${def.singular.toLowerCase()}`, params: idParams },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { id } = request.params;
      await db.transaction(async (tx) => {
        const existing = await getRecord(tx, e, user, id);
        await deleteRecord(tx, e, user, id);
        await recordAudit(tx, e, user, 'delete', id, existing, null);
      });
      return reply.code(204).send();
    },
  );

  r.get(
    `${base}/:id/history`,
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary: `Who changed this ${def.singular.toLowerCase()}, newest first (admins)`,
        params: idParams,
      },
    },
    async (request) => recordHistory(ctx, e, currentUser(request), request.params.id),
  );
};
