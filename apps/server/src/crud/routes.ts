import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AppError,
  allows,
  createSchema,
  hasAnyRole,
  historyEntrySchema,
  listRowSchema,
  publicCompanySchema,
  recordSchema,
  updateSchema,
  type EntityDefinition,
  type HistoryEntry,
  type SessionUser,
} from '@kodi/domain';
import type { AppContext } from '../context.ts';
import type { Tx } from '../db/client.ts';
import { filterQuery, registerExportRoute, searchQuery } from './export.ts';
import { currentUser } from '../plugins/guard.ts';
import { empty, entityNames, errors, json, named } from '../plugins/openapi.ts';
import { createBatcher, type Outcome } from './create-batch.ts';
import { recordIdParams } from './record-route.ts';
import { listRecords } from './list.ts';
import { ensureProperty, propertyQuery } from '../modules/properties/property.ts';
import type { ServerEntity } from './server-entity.ts';
import { getRecord, recordHistory } from './service.ts';
import { records } from './records.ts';

export const listQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(500, 'At most 500 rows a page.').default(25),
  q: searchQuery,
  sort: z.string().max(60).optional(),
  filter: filterQuery,
});

const idParams = recordIdParams;

const historyEntry = named(historyEntrySchema, 'HistoryEntry');

/**
 * What the routes of an entity answer, named in the OpenAPI document (`Unit`, `UnitListRow`), typed
 * loosely here (the routes are generic; the web reads the entity's own types).
 */
const answerSchemas = (def: EntityDefinition) => {
  const { singular } = entityNames(def);
  return {
    record: named(recordSchema(def), singular) as z.ZodType<Record<string, unknown>>,
    listRow: named(listRowSchema(def), `${singular}ListRow`) as z.ZodType<Record<string, unknown>>,
    history: z.array(historyEntry),
  };
};

/**
 * A page the list read as JSON text (kept pages are answered again as they were): sent as it is, since
 * Fastify serialises no string answer, so the rows' schema documents it and costs nothing here.
 */
const jsonText = <T>(text: string) => text as unknown as T;
/** The list query of an entity: with `property_id` when its lists take one. */
export const entityListQuery = (e: ServerEntity) =>
  e.def.byProperty ? listQuerySchema.extend(propertyQuery.shape) : listQuerySchema;

/**
 * Several creations of one company in a few statements (records.createMany: the entity's rules for
 * all of them, one INSERT, one of their audit entries). A creation its rules refuse answers its own
 * error; any other failure throws, and the batch runs them one by one.
 */
const createMany = async (
  tx: Tx,
  e: ServerEntity,
  inputs: { user: SessionUser; values: Record<string, unknown> }[],
): Promise<Outcome<{ user: SessionUser; record: Record<string, unknown> }>[]> => {
  const made = await records.createMany(tx, e, inputs);
  return made.map((record, i) => {
    if (record instanceof AppError) return { error: record };
    const input = inputs[i];
    if (!input) throw new Error('a created record is missing');
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
  const { plural, singular } = entityNames(def);
  const answers = answerSchemas(def);
  // what a create or an update answers: the record, and what the entity adds to it
  const written = e.answers ? z.intersection(answers.record, z.object(e.answers.shape)) : answers.record;
  const withAnswers = async (
    database: Parameters<NonNullable<ServerEntity['answers']>['add']>[0]['db'],
    user: SessionUser,
    record: Record<string, unknown>,
  ): Promise<Record<string, unknown>> =>
    e.answers ? { ...record, ...(await e.answers.add({ db: database, user, record })) } : record;
  const one = def.singular.toLowerCase();
  const { db } = ctx.database;
  const bodyLimit = e.bodyLimit;
  // creations answer after their commit; those of one company arriving together share it
  type Created = { user: SessionUser; record: Record<string, unknown> };
  type NewRecord = { user: SessionUser; values: Record<string, unknown> };
  const createInBatch = createBatcher<NewRecord, Created>(ctx.database, {
    one: async (tx, { user, values }) => ({ user, record: await records.create(tx, e, user, values) }),
    // entities whose rules read nothing (or read it for all at once) insert all rows in one statement
    ...(!e.prepare || e.prepareMany ? { many: (tx, inputs) => createMany(tx, e, inputs) } : {}),
  });

  r.get(
    base,
    {
      // An entity with a public list: the route is public, and the role checks below apply to signed-in callers.
      config: { access: e.publicList ? 'public' : def.access.read },
      schema: {
        operationId: `list${plural}`,
        tags,
        summary: `List ${def.name} (X-Total-Count has the total)`,
        description:
          'The total is in `X-Total-Count`. A search or filter is counted up to 1,000 rows: beyond, ' +
          '`X-Total-Count` is 1000 and `X-Total-Count-Exact: false` says the list holds more.' +
          (e.publicList ? ' Signed out: the id and name of each active company (the register form).' : ''),
        querystring: entityListQuery(e),
        response: {
          200: json(
            e.publicList
              ? z.union([z.array(answers.listRow), z.array(named(publicCompanySchema, 'PublicCompany'))])
              : z.array(answers.listRow),
            `A page of ${def.name}, newest first unless sorted`,
          ),
          // a public list still checks the roles of a signed-in caller
          ...(e.publicList ? errors(403) : {}),
          ...(def.byProperty ? errors(404) : {}),
        },
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
      const { rows, total, exact } = await listRecords(ctx.database, e, user, request.query);
      // no row of a property: it may be another company's (404)
      const { property_id } = request.query as { property_id?: number | undefined };
      if (rows.length === 0 && property_id !== undefined)
        await ensureProperty(db, user.company_id, property_id);
      // sent as JSON text: the rows are presented already, and Fastify serialises no string answer
      void reply.header('X-Total-Count', String(total)).type('application/json; charset=utf-8');
      if (!exact) void reply.header('X-Total-Count-Exact', 'false');
      return jsonText<Record<string, unknown>[]>(JSON.stringify(rows));
    },
  );

  registerExportRoute(app, ctx, e);

  r.get(
    `${base}/:id`,
    {
      config: { access: def.access.read },
      schema: {
        operationId: `get${singular}`,
        tags,
        summary: `One ${one}`,
        params: idParams,
        response: { 200: json(answers.record, `The ${one}`), ...errors(404) },
      },
    },
    async (request) => getRecord(db, e, currentUser(request), request.params.id),
  );

  r.post(
    base,
    {
      config: { access: def.access.create },
      ...(bodyLimit ? { bodyLimit } : {}),
      schema: {
        operationId: `create${singular}`,
        tags,
        summary: `Create a ${one}`,
        body: createSchema(def, Object.keys(e.answers?.shape ?? {})),
        response: { 201: json(written, `The ${one} as stored`), ...errors(409) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { record } = await createInBatch(String(user.company_id), { user, values: request.body });
      return reply.code(201).send(await withAnswers(db, user, record));
    },
  );

  r.put(
    `${base}/:id`,
    {
      config: { access: def.access.update },
      ...(bodyLimit ? { bodyLimit } : {}),
      schema: {
        operationId: `update${singular}`,
        tags,
        summary: `Update a ${one} (send the version you read; 409 if it changed)`,
        params: idParams,
        body: updateSchema(def, Object.keys(e.answers?.shape ?? {})),
        response: { 200: json(written, `The ${one} as stored`), ...errors(404, 409) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { id } = request.params;
      return db.transaction(async (tx) => {
        const existing = await getRecord(tx, e, user, id);
        const { version, ...input } = request.body as Record<string, unknown> & { version: number };
        const record = await records.update(tx, e, user, id, input, { existing, version });
        return withAnswers(tx, user, record);
      });
    },
  );

  r.delete(
    `${base}/:id`,
    {
      config: { access: def.access.delete },
      schema: {
        operationId: `delete${singular}`,
        tags,
        summary: `Delete a ${one}`,
        params: idParams,
        response: { 204: empty(`The ${one} is deleted`), ...errors(404, 409) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { id } = request.params;
      await db.transaction((tx) => records.delete(tx, e, user, id));
      return reply.code(204).send();
    },
  );

  r.get(
    `${base}/:id/history`,
    {
      config: { access: 'admin' },
      schema: {
        operationId: `get${singular}History`,
        tags,
        summary: `Who changed this ${one}, newest first (admins)`,
        params: idParams,
        response: { 200: json(answers.history, 'The changes, newest first (at most 200)'), ...errors(404) },
      },
    },
    // the rows are read loosely typed; the response schema checks each one on the way out
    async (request) =>
      (await recordHistory(ctx, e, currentUser(request), request.params.id)) as unknown as HistoryEntry[],
  );
};
