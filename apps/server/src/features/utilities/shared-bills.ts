import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  AppError,
  formatCents,
  formatDate,
  meterKind,
  sharedBillBody,
  sharedBillSchema,
  splitExactly,
  toCents,
  type SharedBill,
  type SharedBillBody,
} from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { execRows, type DbOrTx } from '../../db/client.ts';
import { currentUser } from '../../plugins/guard.ts';
import { errors, json, named } from '../../plugins/openapi.ts';
import { companyMoney } from '../../modules/companies/company.ts';
import { ensureProperty, propertyQuery } from '../../modules/properties/property.ts';
import { leaseEntries } from '../../modules/leases/entries.ts';
import { recordAuditEntry } from '../../modules/audit/audit.ts';

/**
 * A building's shared bill (issue 28; docs/decisions.md, 'Shared bills'): split across the leases of
 * the property's units let in its period, each in proportion to its days let in the period (`equal`),
 * to those days times its unit's size (`by_size`), or, `by_master_meter`, only the part of the bill
 * its sub-meters did not account for (the master meter's consumption in the period less its
 * sub-meters', as a share of the master's), in proportion to the days let. Amounts in the currency's
 * minor unit; the remainder of the rounding goes to the largest part, so the parts add up exactly.
 * Each part is a `utility` charge of its lease, posted to the books with it.
 */

const SharedBillAnswer = named(sharedBillSchema, 'SharedBill');

const invalid = (field: string, message: string) =>
  new AppError('validation_failed', message, { [field]: message });

type Let = {
  occupancy_id: number;
  unit_id: number;
  unit_name: string | null;
  tenant_name: string | null;
  size_sqft: string | null;
  days: number;
  charge_date: string;
};

/** Thousandths of a consumption (NUMERIC(14,3) text). */
const milli = (v: string | null): bigint => {
  if (v === null) return 0n;
  const [whole = '0', frac = ''] = v.replace('-', '').split('.');
  const n = BigInt(whole + frac.padEnd(3, '0').slice(0, 3));
  return v.startsWith('-') ? -n : n;
};

/** The master meter of the property for this kind, and the consumption its sub-meters did not account for. */
const unaccounted = async (tx: DbOrTx, companyId: number, b: SharedBillBody) => {
  if (!(meterKind.values as readonly string[]).includes(b.kind))
    throw invalid('kind', 'Only a water, electricity or gas bill is split by its master meter.');
  const [master] = await execRows<{ id: number }>(
    tx,
    sql`SELECT id FROM meters WHERE company_id = ${companyId} AND property_id = ${b.property_id}
          AND unit_id IS NULL AND kind = ${b.kind} AND is_active ORDER BY id LIMIT 1`,
  );
  if (!master) throw invalid('split', `The property has no ${b.kind} master meter.`);
  const [used] = await execRows<{ master: string | null; subs: string | null }>(
    tx,
    sql`SELECT sum(GREATEST(r.consumption, 0)) FILTER (WHERE m.id = ${master.id})::text AS master,
               sum(GREATEST(r.consumption, 0)) FILTER (WHERE m.unit_id IS NOT NULL)::text AS subs
          FROM meter_readings r JOIN meters m ON m.company_id = r.company_id AND m.id = r.meter_id
         WHERE r.company_id = ${companyId} AND m.property_id = ${b.property_id} AND m.kind = ${b.kind}
           AND r.reading_date BETWEEN ${b.period_start}::date AND ${b.period_end}::date`,
  );
  const total = milli(used?.master ?? null);
  if (total <= 0n) throw invalid('split', 'The master meter has no consumption read in the period.');
  const subs = milli(used?.subs ?? null);
  return { meterId: Number(master.id), total, rest: total > subs ? total - subs : 0n };
};

type Stored = { apportioned: number; parts: SharedBill['parts'] };

const presentBill = (r: Record<string, unknown>): SharedBill => {
  const stored = (typeof r.parts === 'string' ? JSON.parse(r.parts) : r.parts) as Stored;
  return {
    id: Number(r.id),
    property_id: Number(r.property_id),
    kind: r.kind as SharedBill['kind'],
    period_start: String(r.period_start),
    period_end: String(r.period_end),
    amount: Number(r.amount),
    split: r.split as SharedBill['split'],
    description: String(r.description),
    meter_id: r.meter_id === null ? null : Number(r.meter_id),
    apportioned: Number(stored.apportioned),
    parts: stored.parts,
    user_id: r.user_id === null ? null : Number(r.user_id),
    created_at: String(r.created_at),
  };
};

const BILL_SELECT = sql`id, property_id, kind, to_char(period_start, 'YYYY-MM-DD') AS period_start,
  to_char(period_end, 'YYYY-MM-DD') AS period_end, amount::text AS amount, split, description, meter_id, parts,
  user_id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at`;

export const sharedBillRoutes = (app: FastifyInstance, ctx: AppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database } = ctx;

  r.get(
    '/shared-bills',
    {
      config: { access: 'anyRole' },
      schema: {
        operationId: 'listSharedBills',
        tags: ['meter_readings'],
        summary: "A property's shared bills (or the company's), newest first, each with its parts",
        querystring: propertyQuery.partial(),
        response: { 200: json(z.array(SharedBillAnswer), 'The bills'), ...errors(404) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const propertyId = request.query.property_id ? Number(request.query.property_id) : null;
      const rows = await execRows<Record<string, unknown>>(
        database.db,
        sql`SELECT ${BILL_SELECT} FROM shared_bills WHERE company_id = ${user.company_id}
             ${propertyId === null ? sql`` : sql`AND property_id = ${propertyId}`}
             ORDER BY period_end DESC, id DESC LIMIT 500`,
      );
      return rows.map((row) => presentBill(row));
    },
  );

  r.post(
    '/shared-bills',
    {
      config: { access: 'companyAdmin' },
      schema: {
        operationId: 'createSharedBill',
        tags: ['meter_readings'],
        summary:
          "Split a building's bill across the units let in its period (equally by days let, by size, or what the master meter's sub-meters did not account for), posted as charges",
        body: sharedBillBody,
        response: { 201: json(SharedBillAnswer, 'The bill and its parts'), ...errors(404) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const b = request.body;
      if (b.period_end < b.period_start)
        throw invalid('period_end', 'The period must not end before it starts.');
      await ensureProperty(database.db, user.company_id, b.property_id);
      const decimals = (await companyMoney(database, user.company_id)).decimals ?? 2;
      // the bill in the currency's minor unit (cents per unit: 100 for UGX, 1 for KES)
      const perUnit = 10n ** BigInt(2 - Math.min(Math.max(decimals, 0), 2));
      const cents = toCents(b.amount);
      if (cents % perUnit !== 0n)
        throw invalid('amount', `The currency has ${String(decimals)} decimals: give the amount in them.`);
      const bill = await database.db.transaction(async (tx) => {
        const leases = await execRows<Let>(
          tx,
          sql`SELECT o.id AS occupancy_id, o.unit_id, u.name AS unit_name, o.tenant_name, u.size_sqft::text AS size_sqft,
                     (LEAST(COALESCE(o.end_date, ${b.period_end}::date), ${b.period_end}::date)
                      - GREATEST(o.start_date, ${b.period_start}::date) + 1)::int AS days,
                     to_char(LEAST(COALESCE(o.end_date, ${b.period_end}::date), ${b.period_end}::date), 'YYYY-MM-DD') AS charge_date
                FROM occupancy o JOIN units u ON u.company_id = o.company_id AND u.id = o.unit_id
               WHERE o.company_id = ${user.company_id} AND u.property_id = ${b.property_id}
                 AND o.start_date <= ${b.period_end}::date
                 AND (o.end_date IS NULL OR o.end_date >= ${b.period_start}::date)
               ORDER BY u.name, o.start_date, o.id`,
        );
        if (leases.length === 0)
          throw invalid('property_id', 'No unit of this property is let in the period.');
        let apportioned = cents / perUnit;
        let meterId: number | null = null;
        if (b.split === 'by_master_meter') {
          const used = await unaccounted(tx, user.company_id, b);
          meterId = used.meterId;
          // the bill's share the sub-meters did not account for, rounded half up to the minor unit
          apportioned = (apportioned * used.rest * 2n + used.total) / (used.total * 2n);
          if (apportioned === 0n)
            throw invalid('split', "The sub-meters account for the master meter's whole consumption.");
        }
        const weights = leases.map((l) => {
          if (b.split !== 'by_size') return BigInt(l.days);
          const size = l.size_sqft === null ? 0n : toCents(l.size_sqft);
          if (size <= 0n)
            throw invalid(
              'split',
              `Unit ${l.unit_name ?? String(l.unit_id)} has no size: give its size first.`,
            );
          return BigInt(l.days) * size;
        });
        const shares = splitExactly(apportioned, weights);
        const period = `${formatDate(b.period_start)} – ${formatDate(b.period_end)}`;
        const charged = leases.flatMap((l, i) => {
          const amount = (shares[i] ?? 0n) * perUnit;
          return amount > 0n ? [{ l, i, amount }] : [];
        });
        const ids = await leaseEntries.addCharges(
          tx,
          user.company_id,
          charged.map(({ l, amount }) => ({
            occupancy_id: l.occupancy_id,
            date: l.charge_date,
            kind: 'charge' as const,
            category: 'utility',
            description: `${b.description} (${period}, shared)`,
            amount: formatCents(amount),
            user_id: user.id,
          })),
        );
        const chargeOf = new Map(charged.map((c, n) => [c.i, ids[n] ?? null]));
        const parts = leases.map((l, i) => ({
          unit_id: Number(l.unit_id),
          unit_name: l.unit_name,
          occupancy_id: Number(l.occupancy_id),
          tenant_name: l.tenant_name,
          days: Number(l.days),
          weight: String(weights[i] ?? 0n),
          amount: Number((shares[i] ?? 0n) * perUnit) / 100,
          charge_id: chargeOf.get(i) ?? null,
        }));
        const stored = {
          apportioned: Number(apportioned * perUnit) / 100,
          parts,
        };
        const [row] = await execRows<Record<string, unknown>>(
          tx,
          sql`INSERT INTO shared_bills (company_id, property_id, kind, period_start, period_end, amount, split,
                                        description, meter_id, parts, user_id)
              VALUES (${user.company_id}, ${b.property_id}, ${b.kind}, ${b.period_start}::date, ${b.period_end}::date,
                      ${formatCents(cents)}::numeric, ${b.split}, ${b.description}, ${meterId},
                      ${JSON.stringify(stored)}::jsonb, ${user.id})
              RETURNING ${BILL_SELECT}`,
        );
        const created = presentBill(row ?? {});
        await recordAuditEntry(tx, {
          companyId: user.company_id,
          userId: user.id,
          action: 'create',
          entity: 'shared_bills',
          recordId: created.id,
          after: created,
        });
        return created;
      });
      return reply.code(201).send(bill);
    },
  );
};
