import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { occupancy } from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { execRows } from '../../db/client.ts';
import { currentUser } from '../../plugins/guard.ts';
import { companyTodayIn } from '../../modules/companies/company-settings.ts';
import { json, named } from '../../plugins/openapi.ts';

/** A unit as the lease form's picker offers it: its rates, and who has it today (none: vacant). */
export const unitChoiceSchema = z.object({
  id: z.int(),
  name: z.string(),
  property_name: z.string().nullable(),
  monthly_rate: z.number(),
  weekly_rate: z.number(),
  daily_rate: z.number(),
  /** the tenant of the lease letting it today, or null: vacant */
  tenant_name: z.string().nullable(),
  /** that lease's dates */
  let_from: z.iso.date().nullable(),
  let_until: z.iso.date().nullable(),
});

const query = z.object({
  q: z.string().max(200).optional(),
});

type Row = {
  id: number;
  name: string;
  property_name: string | null;
  monthly_rate: string;
  weekly_rate: string;
  daily_rate: string;
  tenant_name: string | null;
  let_from: string | null;
  let_until: string | null;
};

/**
 * `GET /occupancy/unit-choices?q=`: the units a lease may let (issue 26), 20 by name, each with its
 * rates (the form prefills the rate) and the lease letting it on the company's today (none: vacant;
 * vacant units first). Read by whoever reads leases.
 */
export const unitChoicesRoute = (app: FastifyInstance, ctx: AppContext) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/occupancy/unit-choices',
    {
      config: { access: occupancy.access.read },
      schema: {
        operationId: 'listLeaseUnitChoices',
        tags: ['occupancy'],
        summary: 'The units a lease may let, with their rates and whether they are vacant today',
        querystring: query,
        response: {
          200: json(z.array(named(unitChoiceSchema, 'UnitChoice')), 'Up to 20 units, vacant first'),
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const today = await companyTodayIn(ctx.database.db, user.company_id);
      const q = request.query.q?.trim() ?? '';
      const rows = await execRows<Row>(
        ctx.database.db,
        sql`SELECT u.id, u.name, u.property_name, u.monthly_rate::text AS monthly_rate,
                   u.weekly_rate::text AS weekly_rate, u.daily_rate::text AS daily_rate,
                   cur.tenant_name, cur.let_from, cur.let_until
              FROM units u
              LEFT JOIN LATERAL (
                SELECT o.tenant_name, to_char(o.start_date, 'YYYY-MM-DD') AS let_from,
                       to_char(o.end_date, 'YYYY-MM-DD') AS let_until
                  FROM occupancy o
                 WHERE o.company_id = u.company_id AND o.unit_id = u.id
                   AND o.occupancy_status <> 'terminated' AND o.is_active
                   AND o.start_date <= ${today}::date AND (o.end_date IS NULL OR o.end_date >= ${today}::date)
                 ORDER BY o.start_date DESC, o.id DESC LIMIT 1) cur ON TRUE
             WHERE u.company_id = ${user.company_id}
               AND (${q} = '' OR u.name ILIKE ${`%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}
                    OR u.property_name ILIKE ${`%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`})
             ORDER BY (cur.tenant_name IS NOT NULL), u.name, u.id
             LIMIT 20`,
      );
      return rows.map((r) => ({
        id: Number(r.id),
        name: r.name,
        property_name: r.property_name ?? null,
        monthly_rate: Number(r.monthly_rate),
        weekly_rate: Number(r.weekly_rate),
        daily_rate: Number(r.daily_rate),
        tenant_name: r.tenant_name ?? null,
        let_from: r.let_from ?? null,
        let_until: r.let_until ?? null,
      }));
    },
  );
};
