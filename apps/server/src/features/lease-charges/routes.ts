import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  AppError,
  buildLedger,
  chargeBody,
  chargeSchema,
  depositSettlementBody,
  depositSettlementSchema,
  effectiveLateFeePolicy,
  formatCents,
  leaseLateFeeBody,
  leaseLateFeeSchema,
  planDepositSettlement,
  rateChangeBody,
  rateChangeSchema,
  toCents,
  waiveBody,
  waiverSchema,
} from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { execRows } from '../../db/client.ts';
import { findPgError } from '../../plugins/errors.ts';
import { currentUser } from '../../plugins/guard.ts';
import { recordIdParams } from '../../crud/record-route.ts';
import { recordColumns } from '../../crud/record-columns.ts';
import { companyToday, loadSettings } from '../../modules/companies/company-settings.ts';
import { loadLeaseBook } from '../../modules/leases/lease-book.ts';
import { errors, json, named } from '../../plugins/openapi.ts';
import {
  CHARGE_FROM,
  CHARGE_SELECT,
  RATE_CHANGE_SELECT,
  WAIVER_RETURNING,
  audit,
  listCharges,
  listRateChanges,
  loadSettlement,
  presentCharge,
  presentRateChange,
  presentWaiver,
} from './data.ts';
import { leaseEntries } from '../../modules/leases/entries.ts';

const Charge = named(chargeSchema, 'Charge');
const Waiver = named(waiverSchema, 'Waiver');
const RateChange = named(rateChangeSchema, 'RateChange');
const DepositSettlement = named(depositSettlementSchema, 'DepositSettlement');
const LeaseLateFee = named(leaseLateFeeSchema, 'LeaseLateFee');

type LeaseRow = {
  start_date: string;
  end_date: string | null;
  deposit_amount: string | null;
  late_fee_exempt: boolean;
  late_fee: unknown;
};

/** The lease of the company (another company's, or none: 404). */
const leaseOf = async (ctx: AppContext, companyId: number, id: number): Promise<LeaseRow> => {
  const rows = await ctx.database.query<LeaseRow>(
    `SELECT to_char(start_date, 'YYYY-MM-DD') AS start_date, to_char(end_date, 'YYYY-MM-DD') AS end_date,
            deposit_amount::text AS deposit_amount, late_fee_exempt, late_fee
       FROM occupancy WHERE company_id = $1 AND id = $2`,
    [companyId, id],
  );
  if (!rows[0]) throw new AppError('not_found', 'Occupancy record not found.');
  return rows[0];
};

const invalid = (field: string, message: string) =>
  new AppError('validation_failed', message, { [field]: message });

/** A unique key refused: the answer this route gives for it. */
const onDuplicate = async <T>(work: () => Promise<T>, message: string): Promise<T> => {
  try {
    return await work();
  } catch (err) {
    if (findPgError(err)?.code === '23505') throw new AppError('duplicate', message);
    throw err;
  }
};

/**
 * A lease's charges beyond rent and their waivers, its rate changes, its own late-fee policy and its
 * deposit settlement (issue 17). Every route is scoped to the session's company: another company's
 * lease or charge is a 404. A charge, a waiver, a rate change or a settlement, once made, is never
 * changed nor deleted.
 */
export const leaseChargeRoutes = (app: FastifyInstance, ctx: AppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database } = ctx;

  r.get(
    '/occupancy/:id/charges',
    {
      config: { access: 'anyRole' },
      schema: {
        operationId: 'listLeaseCharges',
        tags: ['occupancy'],
        summary: 'The late fees and other charges of a lease, oldest first, each with its waiver',
        params: recordIdParams,
        response: { 200: json(z.array(Charge), 'The charges'), ...errors(404) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      await leaseOf(ctx, user.company_id, request.params.id);
      return listCharges(database, user.company_id, request.params.id);
    },
  );

  r.post(
    '/occupancy/:id/charges',
    {
      config: { access: 'canEdit' },
      schema: {
        operationId: 'createLeaseCharge',
        tags: ['occupancy'],
        summary: 'Charge a lease beyond rent: a utility, damage or anything else',
        params: recordIdParams,
        body: chargeBody,
        response: { 201: json(Charge, 'The charge'), ...errors(404) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const id = request.params.id;
      const lease = await leaseOf(ctx, user.company_id, id);
      const b = request.body;
      if (b.date < lease.start_date)
        throw invalid('date', 'The date must not be before the lease start date.');
      const charge = await database.db.transaction(async (tx) => {
        const [chargeId] = await leaseEntries.addCharges(tx, user.company_id, [
          {
            occupancy_id: id,
            date: b.date,
            kind: 'charge',
            category: b.category,
            description: b.description,
            amount: formatCents(toCents(b.amount)),
            user_id: user.id,
          },
        ]);
        const rows = await execRows<Record<string, unknown>>(
          tx,
          sql`SELECT ${sql.raw(CHARGE_SELECT)} FROM ${sql.raw(CHARGE_FROM)}
               WHERE c.company_id = ${user.company_id} AND c.id = ${chargeId ?? null}`,
        );
        const created = presentCharge(rows[0] as Record<string, unknown>);
        await audit(tx, {
          companyId: user.company_id,
          userId: user.id,
          entity: 'charges',
          recordId: created.id,
          after: created,
        });
        return created;
      });
      return reply.code(201).send(charge);
    },
  );

  r.post(
    '/charges/:id/waive',
    {
      config: { access: 'companyAdmin' },
      schema: {
        operationId: 'waiveCharge',
        tags: ['occupancy'],
        summary: 'Waive a late fee or a charge: a waiver of its whole amount, dated today (the charge stays)',
        params: recordIdParams,
        body: waiveBody,
        response: { 201: json(Waiver, 'The waiver'), ...errors(404, 409) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const id = request.params.id;
      const found = await database.query<{ date: string }>(
        `SELECT to_char(c.date, 'YYYY-MM-DD') AS date FROM ${CHARGE_FROM} WHERE c.company_id = $1 AND c.id = $2`,
        [user.company_id, id],
      );
      if (!found[0]) throw new AppError('not_found', 'Charge not found.');
      const today = await companyToday(database, user.company_id);
      // dated today, or on the charge's own day when that is later (a charge dated ahead)
      const date = found[0].date > today ? found[0].date : today;
      const waiver = await onDuplicate(
        () =>
          database.db.transaction(async (tx) => {
            const waiverId = await leaseEntries.waiveCharge(tx, user.company_id, id, {
              date,
              reason: request.body.reason,
              user_id: user.id,
            });
            if (waiverId === undefined) throw new AppError('not_found', 'Charge not found.');
            const rows = await execRows<Record<string, unknown>>(
              tx,
              sql`SELECT ${sql.raw(WAIVER_RETURNING)} FROM charge_waivers
                   WHERE company_id = ${user.company_id} AND id = ${waiverId}`,
            );
            if (!rows[0]) throw new AppError('not_found', 'Charge not found.');
            const created = presentWaiver(rows[0]);
            await audit(tx, {
              companyId: user.company_id,
              userId: user.id,
              entity: 'charge_waivers',
              recordId: created.id,
              after: created,
            });
            return created;
          }),
        'This charge is waived already.',
      );
      return reply.code(201).send(waiver);
    },
  );

  r.get(
    '/occupancy/:id/rate-changes',
    {
      config: { access: 'anyRole' },
      schema: {
        operationId: 'listLeaseRateChanges',
        tags: ['occupancy'],
        summary: 'The rate changes of a lease (added by staff or by its escalation rule), oldest first',
        params: recordIdParams,
        response: { 200: json(z.array(RateChange), 'The rate changes'), ...errors(404) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      await leaseOf(ctx, user.company_id, request.params.id);
      return listRateChanges(database, user.company_id, request.params.id);
    },
  );

  r.post(
    '/occupancy/:id/rate-changes',
    {
      config: { access: 'canEdit' },
      schema: {
        operationId: 'createLeaseRateChange',
        tags: ['occupancy'],
        summary:
          'Change the rent of a lease from a day on: periods starting that day or later are charged the new rate',
        params: recordIdParams,
        body: rateChangeBody,
        response: { 201: json(RateChange, 'The rate change'), ...errors(404, 409) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const id = request.params.id;
      const lease = await leaseOf(ctx, user.company_id, id);
      const b = request.body;
      if (b.effective_date <= lease.start_date) {
        throw invalid('effective_date', 'The change must come after the lease start date.');
      }
      if (lease.end_date && b.effective_date > lease.end_date) {
        throw invalid('effective_date', 'The change must not come after the lease end date.');
      }
      const change = await onDuplicate(
        () =>
          database.db.transaction(async (tx) => {
            const [changeId] = await leaseEntries.addRateChanges(
              tx,
              user.company_id,
              [
                {
                  occupancy_id: id,
                  effective_date: b.effective_date,
                  rate: formatCents(toCents(b.rate)),
                  source: 'manual',
                  user_id: user.id,
                },
              ],
              'refuse',
            );
            const rows = await execRows<Record<string, unknown>>(
              tx,
              sql`SELECT ${sql.raw(RATE_CHANGE_SELECT)} FROM rate_changes
                   WHERE company_id = ${user.company_id} AND id = ${changeId ?? null}`,
            );
            const created = presentRateChange(rows[0] as Record<string, unknown>);
            await audit(tx, {
              companyId: user.company_id,
              userId: user.id,
              entity: 'rate_changes',
              recordId: created.id,
              after: created,
            });
            return created;
          }),
        'This lease has a rate change on that day already.',
      );
      return reply.code(201).send(change);
    },
  );

  r.get(
    '/occupancy/:id/late-fee',
    {
      config: { access: 'anyRole' },
      schema: {
        operationId: 'getLeaseLateFee',
        tags: ['occupancy'],
        summary: 'The late-fee policy of a lease: its own (if any), and the one its fees follow',
        params: recordIdParams,
        response: { 200: json(LeaseLateFee, 'The policies'), ...errors(404) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const book = await loadLeaseBook(database, user.company_id, request.params.id, '1900-01-01');
      const settings = await loadSettings(database, user.company_id);
      return {
        occupancy_id: request.params.id,
        late_fee_exempt: book.lease.late_fee_exempt,
        late_fee: book.lease.late_fee,
        effective: effectiveLateFeePolicy(book.lease, settings.late_fee),
      };
    },
  );

  r.put(
    '/occupancy/:id/late-fee',
    {
      config: { access: 'canEdit' },
      schema: {
        operationId: 'setLeaseLateFee',
        tags: ['occupancy'],
        summary: 'Give a lease its own late-fee policy (null: the company’s); only future fees follow it',
        params: recordIdParams,
        body: leaseLateFeeBody,
        response: { 200: json(LeaseLateFee, 'The policies'), ...errors(404) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const id = request.params.id;
      const policy = request.body.late_fee;
      const row = await recordColumns.set<{ late_fee_exempt: boolean }>(
        database.db,
        'occupancy',
        user.company_id,
        id,
        { late_fee: sql`${policy === null ? null : JSON.stringify(policy)}::jsonb` },
        { returning: ['late_fee_exempt'] },
      );
      if (!row) throw new AppError('not_found', 'Occupancy record not found.');
      const settings = await loadSettings(database, user.company_id);
      const lease = { late_fee_exempt: row.late_fee_exempt === true, late_fee: policy };
      return {
        occupancy_id: id,
        ...lease,
        effective: effectiveLateFeePolicy(lease, settings.late_fee),
      };
    },
  );

  r.get(
    '/occupancy/:id/deposit-settlement',
    {
      config: { access: 'anyRole' },
      schema: {
        operationId: 'getDepositSettlement',
        tags: ['occupancy'],
        summary: 'The settlement of a lease’s deposit (404 until it is settled)',
        params: recordIdParams,
        response: { 200: json(DepositSettlement, 'The settlement'), ...errors(404) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      await leaseOf(ctx, user.company_id, request.params.id);
      const settlement = await loadSettlement(database, user.company_id, request.params.id);
      if (!settlement) throw new AppError('not_found', 'The deposit of this lease is not settled.');
      return settlement;
    },
  );

  r.post(
    '/occupancy/:id/deposit-settlement',
    {
      config: { access: 'canEdit' },
      schema: {
        operationId: 'settleDeposit',
        tags: ['occupancy'],
        summary:
          'Settle the deposit at the end of a lease: deductions become charges, the deposit pays them (and the balance when asked), the rest is refunded',
        params: recordIdParams,
        body: depositSettlementBody,
        response: { 201: json(DepositSettlement, 'The settlement'), ...errors(404, 409) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const id = request.params.id;
      const b = request.body;
      const book = await loadLeaseBook(database, user.company_id, id, b.date);
      const deposit = book.lease.deposit_amount ? toCents(book.lease.deposit_amount) : 0n;
      if (deposit <= 0n) throw invalid('date', 'This lease has no deposit to settle.');
      if (b.date < book.lease.start_date) {
        throw invalid('date', 'The date must not be before the lease start date.');
      }
      if (book.extras.settlement || (await loadSettlement(database, user.company_id, id))) {
        throw new AppError('duplicate', 'The deposit of this lease is settled already.');
      }
      const balance = buildLedger(book.lease, book.payments, b.date, book.extras).balance;
      const deductions = b.deductions.map((d) => toCents(d.amount));
      const plan = planDepositSettlement({
        deposit,
        balance,
        deductions,
        applyToBalance: b.applied_to_balance,
      });
      if (plan.refund > 0n && !b.refund_method) {
        throw invalid('refund_method', 'How is the deposit paid back? Choose a method.');
      }
      await onDuplicate(
        () =>
          database.db.transaction(async (tx) => {
            const settlementId = await leaseEntries.settleDeposit(tx, user.company_id, {
              occupancy_id: id,
              date: b.date,
              deposit_amount: formatCents(deposit),
              deductions_total: formatCents(plan.deductions_total),
              applied_to_balance: b.applied_to_balance,
              applied_amount: formatCents(plan.applied),
              refund_amount: formatCents(plan.refund),
              refund_method: plan.refund > 0n ? (b.refund_method ?? null) : null,
              deposit_status: plan.deposit_status,
              user_id: user.id,
            });
            await leaseEntries.addCharges(
              tx,
              user.company_id,
              b.deductions.map((d) => ({
                occupancy_id: id,
                date: b.date,
                kind: 'charge' as const,
                category: 'damage',
                description: d.description,
                amount: formatCents(toCents(d.amount)),
                settlement_id: settlementId,
                user_id: user.id,
              })),
            );
            await recordColumns.set(
              tx,
              'occupancy',
              user.company_id,
              id,
              { deposit_status: plan.deposit_status },
              { bumpVersion: true },
            );
            await audit(tx, {
              companyId: user.company_id,
              userId: user.id,
              entity: 'deposit_settlements',
              recordId: settlementId,
              after: { ...b, ...Object.fromEntries(Object.entries(plan).map(([k, v]) => [k, String(v)])) },
            });
          }),
        'The deposit of this lease is settled already.',
      );
      const settlement = await loadSettlement(database, user.company_id, id);
      return reply.code(201).send(settlement as NonNullable<typeof settlement>);
    },
  );
};
