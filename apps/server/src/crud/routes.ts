import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, allows, createSchema, hasAnyRole, updateSchema, type SessionUser } from '@kodi/domain';
import type { AppContext } from '../context.ts';
import type { Tx } from '../db/client.ts';
import { filterQuery, registerExportRoute, searchQuery } from './export.ts';
import { currentUser } from '../plugins/guard.ts';
import { createBatcher, type Outcome } from './create-batch.ts';
import { recordIdParams } from './record-route.ts';
import { listRecords } from './list.ts';
import { ensureProperty, propertyQuery } from '../lib/property.ts';
import type { ServerEntity } from './server-entity.ts';
import {
  deleteRecord,
  getRecord,
  insertRecord,
  insertRecords,
  recordAudit,
  recordAudits,
  recordHistory,
  updateRecord,
} from './service.ts';

export const listQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(500, 'At most 500 rows a page.').default(25),
  q: searchQuery,
  sort: z.string().max(60).optional(),
  filter: filterQuery,
});

const idParams = recordIdParams;

/** The list query of an entity: with `property_id` when its lists take one. */
export const entityListQuery = (e: ServerEntity) =>
  e.def.byProperty ? listQuerySchema.extend(propertyQuery.shape) : listQuerySchema;

/**
 * Several creations of one company in two statements: the entity's rules for all of them
 * (`prepareMany`), then one INSERT of every record that passed them. A creation its rules refuse
 * answers its own error; any other failure throws, and the batch runs them one by one.
 */
const createMany = async (
  tx: Tx,
  e: ServerEntity,
  inputs: { user: SessionUser; values: Record<string, unknown> }[],
): Promise<Outcome<{ user: SessionUser; record: Record<string, unknown> }>[]> => {
  const [first] = inputs;
  if (!first) return [];
  const prepared = e.prepareMany
    ? await e.prepareMany({ tx, companyId: first.user.company_id, values: inputs.map((i) => i.values) })
    : inputs.map((i) => i.values);
  const kept = prepared.flatMap((p, i) => (p instanceof AppError ? [] : [{ i, values: p }]));
  const records =
    kept.length > 0
      ? await insertRecords(
          tx,
          e,
          first.user,
          kept.map((k) => k.values),
        )
      : [];
  const byInput = new Map(kept.map((k, n) => [k.i, records[n]]));
  return inputs.map((input, i) => {
    const p = prepared[i];
    const record = byInput.get(i);
    if (p instanceof AppError) return { error: p };
    if (!record) throw new Error('a created record is missing');
    return { value: { user: input.user, record } };
  });
};

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
  type Created = { user: SessionUser; record: Record<string, unknown> };
  type NewRecord = { user: SessionUser; values: Record<string, unknown> };
  const createInBatch = createBatcher<NewRecord, Created>(ctx.database, {
    one: async (tx, { user, values }) => {
      const prepared = e.prepare ? await e.prepare({ tx, user, values }) : values;
      return { user, record: await insertRecord(tx, e, user, prepared) };
    },
    // entities whose rules read nothing (or read it for all at once) insert all rows in one statement
    ...(!e.prepare || e.prepareMany ? { many: (tx, inputs) => createMany(tx, e, inputs) } : {}),
    finish: (tx, created) =>
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
  });

  r.get(
    base,
    {
      // An entity with a public list: the route is public, and the role checks below apply to signed-in callers.
      config: { access: e.publicList ? 'public' : def.access.read },
      schema: {
        tags,
        summary: `List ${def.name} (X-Total-Count has the total)`,
        querystring: entityListQuery(e),
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
      const user = currentUser(request);
      const { rows, total } = await listRecords(ctx.database, e, user, request.query);
      // no row of a property: it may be another company's (404)
      const { property_id } = request.query as { property_id?: number | undefined };
      if (rows.length === 0 && property_id !== undefined)
        await ensureProperty(db, user.company_id, property_id);
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
      const { record } = await createInBatch(String(user.company_id), { user, values: request.body });
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
