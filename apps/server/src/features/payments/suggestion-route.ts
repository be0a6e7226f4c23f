import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  AppError,
  centsToNumber,
  isValidIsoDate,
  payments,
  paymentSuggestion,
  paymentSuggestionSchema,
} from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { execRows } from '../../db/client.ts';
import { currentUser } from '../../plugins/guard.ts';
import { companyToday } from '../../modules/companies/company-settings.ts';
import { loadLeaseBook } from '../../modules/leases/lease-book.ts';
import { errors, json, named } from '../../plugins/openapi.ts';

const id = z.coerce.number().int().positive().max(2147483647);

const query = z.object({
  tenant_id: id,
  unit_id: id.optional(),
  /** the payment's date: the lease whose dates hold it is chosen first, as a save chooses it */
  payment_date: z.string().refine(isValidIsoDate, 'Use a date as YYYY-MM-DD.').optional(),
});

type Lease = { id: number; unit_id: number; unit_name: string | null; property_name: string | null };

/**
 * `GET /payments/suggestion?tenant_id=&unit_id=&payment_date=` (issue 26): for the payment form, the
 * lease a payment of that tenant (in that unit, when given) goes to, chosen as a save chooses it (the
 * one whose dates hold the payment date, else the latest), and what to prefill: the balance due today,
 * or the rent of the next period when nothing is due, and the period it covers. Whoever records
 * payments; another company's tenant, or a tenant without a lease (in that unit), is 404.
 */
export const suggestionRoute = (app: FastifyInstance, ctx: AppContext) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/payments/suggestion',
    {
      config: { access: payments.access.create },
      schema: {
        operationId: 'getPaymentSuggestion',
        tags: ['payments'],
        summary:
          'The lease a payment of a tenant goes to, with the amount due today (or the next rent) and the period it covers',
        querystring: query,
        response: {
          200: json(named(paymentSuggestionSchema, 'PaymentSuggestion'), 'The lease and what to prefill'),
          ...errors(404),
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { tenant_id, unit_id, payment_date } = request.query;
      const today = await companyToday(ctx.database, user.company_id);
      const day = payment_date ?? today;
      const [lease] = await execRows<Lease>(
        ctx.database.db,
        sql`SELECT o.id, o.unit_id, o.unit_name, u.property_name
              FROM occupancy o JOIN units u ON u.company_id = o.company_id AND u.id = o.unit_id
             WHERE o.company_id = ${user.company_id} AND o.tenant_id = ${tenant_id}
               AND (${unit_id ?? null}::int IS NULL OR o.unit_id = ${unit_id ?? null}::int)
             ORDER BY (${day}::date BETWEEN o.start_date AND COALESCE(o.end_date, 'infinity'::date)) DESC,
                      o.start_date DESC, o.id DESC
             LIMIT 1`,
      );
      if (!lease) throw new AppError('not_found', 'No lease of this tenant was found.');
      const book = await loadLeaseBook(ctx.database, user.company_id, Number(lease.id), today);
      const s = paymentSuggestion(book.lease, book.payments, book.extras, today);
      return {
        occupancy_id: Number(lease.id),
        unit_id: Number(lease.unit_id),
        unit_name: lease.unit_name ?? null,
        property_name: lease.property_name ?? null,
        as_of: today,
        balance: centsToNumber(s.balance),
        rent: centsToNumber(s.rent),
        amount: s.amount === null ? null : centsToNumber(s.amount),
        due: s.due,
        period_start: s.period?.start ?? null,
        period_end: s.period?.end ?? null,
      };
    },
  );
};
