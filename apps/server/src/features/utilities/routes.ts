import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  AppError,
  billingRunBody,
  billingRunSchema,
  meterKind,
  meterReadings,
  meterUnit,
  recordSchema,
} from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { execRows } from '../../db/client.ts';
import { currentUser } from '../../plugins/guard.ts';
import { errors, json, named } from '../../plugins/openapi.ts';
import { recordIdParams } from '../../crud/record-route.ts';
import { getRecord } from '../../crud/service.ts';
import { records } from '../../crud/records.ts';
import { recordColumns } from '../../crud/record-columns.ts';
import { recordAuditEntry } from '../../modules/audit/audit.ts';
import { ensureProperty, propertyQuery } from '../../modules/properties/property.ts';
import { billUtilities } from '../../modules/utilities/billing.ts';
import { meterReadingsServer, USUAL_READINGS } from './readings.ts';

const reading = recordSchema(meterReadings) as z.ZodType<Record<string, unknown>>;

const roundMeter = named(
  z.object({
    meter_id: z.int(),
    number: z.string(),
    kind: z.enum(meterKind.values),
    unit_of_measure: z.enum(meterUnit.values),
    unit_id: z.int().nullable(),
    unit_name: z.string().nullable(),
    previous_value: z.number(),
    previous_date: z.iso.date().nullable(),
    usual_consumption: z.number().nullable().describe('the average consumption of its last six readings'),
  }),
  'RoundMeter',
);
const round = named(z.object({ property_id: z.int(), meters: z.array(roundMeter) }), 'ReadingRound');

const roundReadingBody = named(
  z.strictObject({
    idempotency_key: z.string().min(8).max(100).describe('made by the phone for this reading, once'),
    meter_id: z.unknown(),
    reading_date: z.unknown(),
    value: z.unknown(),
    is_reset: z.unknown().optional(),
    photo: z.unknown().optional(),
  }),
  'RoundReading',
);

/**
 * The readings' own routes (issue 28): the confirmation of a held-back reading, and the reading round
 * of a phone (its meters in order, and readings sent once however often they are sent).
 */
export const utilitiesRoutes = (app: FastifyInstance, ctx: AppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx.database;

  r.post(
    '/meter_readings/:id/confirm',
    {
      config: { access: 'canEdit' },
      schema: {
        operationId: 'confirmMeterReading',
        tags: ['meter_readings'],
        summary: 'Confirm a flagged reading: it is no longer held back from billing',
        params: recordIdParams,
        response: { 200: json(reading, 'The reading, ready'), ...errors(404, 409) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { id } = request.params;
      return db.transaction(async (tx) => {
        const before = await getRecord(tx, meterReadingsServer, user, id);
        if (before.status !== 'flagged') throw new AppError('reading_not_flagged');
        const set = await recordColumns.set(
          tx,
          'meter_readings',
          user.company_id,
          id,
          { status: 'ready', confirmed_by: user.id, confirmed_at: sql`now()` },
          { bumpVersion: true, atVersion: Number(before.version) },
        );
        if (!set) throw new AppError('conflict');
        const after = await getRecord(tx, meterReadingsServer, user, id);
        await recordAuditEntry(tx, {
          companyId: user.company_id,
          userId: user.id,
          action: 'update',
          entity: 'meter_readings',
          recordId: id,
          before: { status: before.status, flag: before.flag },
          after: { status: after.status, flag: after.flag },
          summary: 'Reading confirmed',
        });
        return after;
      });
    },
  );

  r.post(
    '/utility-billing/run',
    {
      config: { access: 'companyAdmin' },
      schema: {
        operationId: 'runUtilityBilling',
        tags: ['meter_readings'],
        summary:
          'Bill the ready readings up to a day: each a charge of the lease of its unit at its date, posted to the books (a run twice bills once)',
        body: billingRunBody,
        response: {
          200: json(named(billingRunSchema, 'UtilityBillingRun'), 'What was billed'),
          ...errors(404),
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { property_id: propertyId, period_end: periodEnd } = request.body;
      if (propertyId !== undefined) await ensureProperty(db, user.company_id, propertyId);
      return billUtilities(ctx.database, {
        companyId: user.company_id,
        periodEnd,
        propertyId: propertyId ?? null,
        userId: user.id,
      });
    },
  );

  r.get(
    '/meter_readings/round',
    {
      config: { access: 'anyRole' },
      schema: {
        operationId: 'getReadingRound',
        tags: ['meter_readings'],
        summary: "A property's active meters in the order of a reading round, each with its latest reading",
        querystring: propertyQuery.required(),
        response: { 200: json(round, 'The round'), ...errors(404) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const propertyId = Number(request.query.property_id);
      await ensureProperty(db, user.company_id, propertyId);
      const rows = await execRows<{
        meter_id: number;
        number: string;
        kind: string;
        unit_of_measure: string;
        unit_id: number | null;
        unit_name: string | null;
        previous_value: string;
        previous_date: string | null;
        usual_consumption: string | null;
      }>(
        db,
        sql`SELECT m.id AS meter_id, m.number, m.kind, m.unit_of_measure, m.unit_id, m.unit_name,
                   COALESCE(last.value, m.initial_reading)::text AS previous_value,
                   to_char(COALESCE(last.reading_date, m.installed_on), 'YYYY-MM-DD') AS previous_date,
                   usual.average::text AS usual_consumption
              FROM meters m
              LEFT JOIN LATERAL (
                SELECT value, reading_date FROM meter_readings r
                 WHERE r.company_id = m.company_id AND r.meter_id = m.id
                 ORDER BY r.reading_date DESC, r.id DESC LIMIT 1) last ON TRUE
              LEFT JOIN LATERAL (
                SELECT avg(s.consumption) AS average FROM (
                  SELECT consumption, is_reset FROM meter_readings r
                   WHERE r.company_id = m.company_id AND r.meter_id = m.id
                   ORDER BY r.reading_date DESC, r.id DESC LIMIT ${USUAL_READINGS}) s
                 WHERE NOT s.is_reset AND s.consumption >= 0) usual ON TRUE
             WHERE m.company_id = ${user.company_id} AND m.property_id = ${propertyId} AND m.is_active
             ORDER BY m.unit_name NULLS FIRST, m.number, m.id`,
      );
      return {
        property_id: propertyId,
        meters: rows.map((m) => ({
          ...m,
          kind: m.kind as (typeof meterKind.values)[number],
          unit_of_measure: m.unit_of_measure as (typeof meterUnit.values)[number],
          previous_value: Number(m.previous_value),
          usual_consumption: m.usual_consumption === null ? null : Number(m.usual_consumption),
        })),
      };
    },
  );

  r.post(
    '/meter_readings/round',
    {
      config: { access: 'canEdit' },
      bodyLimit: 8 * 1024 * 1024,
      schema: {
        operationId: 'sendRoundReading',
        tags: ['meter_readings'],
        summary:
          'A reading of the round, sent with its idempotency key: saved once (201), the saved one answered again (200)',
        body: roundReadingBody,
        response: {
          200: json(reading, 'Saved already: the reading as it was saved'),
          201: json(reading, 'The reading as saved'),
          ...errors(409),
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const key = request.body.idempotency_key;
      const saved = async () => {
        const rows = await execRows<{ id: number }>(
          db,
          sql`SELECT id FROM meter_readings WHERE company_id = ${user.company_id} AND idempotency_key = ${key}`,
        );
        const row = rows[0];
        return row ? getRecord(db, meterReadingsServer, user, row.id) : undefined;
      };
      const before = await saved();
      if (before) return reply.code(200).send(before);
      const parsed = meterReadingsServer.def.shape;
      const values: Record<string, unknown> = { idempotency_key: key };
      const issues: Record<string, string> = {};
      for (const name of ['meter_id', 'reading_date', 'value', 'is_reset', 'photo'] as const) {
        const rule = parsed[name];
        if (!rule) continue;
        const out = z.safeParse(rule, request.body[name]);
        if (out.success) {
          if (out.data !== undefined) values[name] = out.data;
        } else issues[name] = out.error.issues[0]?.message ?? 'Invalid value.';
      }
      if (Object.keys(issues).length > 0) throw new AppError('validation_failed', undefined, issues);
      try {
        const record = await db.transaction((tx) => records.create(tx, meterReadingsServer, user, values));
        return reply.code(201).send(record);
      } catch (err) {
        // the same reading sent twice at once: the second finds the first
        const again = await saved();
        if (again) return reply.code(200).send(again);
        throw err;
      }
    },
  );
};
