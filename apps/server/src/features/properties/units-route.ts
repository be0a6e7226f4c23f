import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { properties, todayIso } from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { currentUser } from '../../plugins/guard.ts';
import { recordIdParams } from '../../crud/record-route.ts';
import { ensureProperty } from '../../modules/properties/property.ts';
import { pagedList, sendTotal } from '../../crud/paged-list.ts';
import { errors, json, named } from '../../plugins/openapi.ts';

/** A unit of a property as its details dialog lists it: its status and its current tenant. */
export const propertyUnit = z.object({
  id: z.number().int(),
  name: z.string(),
  unit_type: z.string(),
  status: z.string(),
  monthly_rate: z.number(),
  /** the lease running today (not terminated, its dates holding today), if any */
  occupancy_id: z.number().int().nullable(),
  tenant_id: z.number().int().nullable(),
  tenant_name: z.string().nullable(),
});
export type PropertyUnit = z.infer<typeof propertyUnit>;

const pageQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(500, 'At most 500 rows a page.').default(100),
});

type Row = {
  id: number;
  name: string;
  unit_type: string;
  status: string;
  monthly_rate: string;
  occupancy_id: number | null;
  tenant_id: number | null;
  tenant_name: string | null;
};

/**
 * `GET /properties/{id}/units`: the units of a property by name, each with its status and its
 * current tenant (the lease, not terminated, whose dates hold today: the latest started), paged,
 * with `X-Total-Count`. Read by whoever reads properties; another company's property is a 404.
 */
export const propertyUnitsRoute = (app: FastifyInstance, ctx: AppContext) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/properties/:id/units',
    {
      config: { access: properties.access.read },
      schema: {
        operationId: 'listPropertyUnits',
        tags: ['properties'],
        summary: 'The units of a property with their status and current tenant (X-Total-Count has the total)',
        params: recordIdParams,
        querystring: pageQuery,
        response: {
          200: json(z.array(named(propertyUnit, 'PropertyUnit')), 'A page of the units, by name'),
          ...errors(404),
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { id } = request.params;
      const today = todayIso();
      const page = await pagedList<Row>(
        ctx.database,
        {
          table: 'units',
          key: ['company_id', 'id'],
          where: [sql`t.company_id = ${user.company_id}`, sql`t.property_id = ${id}`],
          filtered: true,
          // by name: units_name_list_idx, the property's rows picked from it
          order: [
            { expr: 't.name', desc: false },
            { expr: 't.id', desc: false },
          ],
          columns: sql`t.id, t.name, t.unit_type, t.status, t.monthly_rate::text AS monthly_rate,
                       cur.occupancy_id, cur.tenant_id, cur.tenant_name`,
          joins: sql`LEFT JOIN LATERAL (
                SELECT o.id AS occupancy_id, o.tenant_id, o.tenant_name FROM occupancy o
                 WHERE o.company_id = t.company_id AND o.unit_id = t.id
                   AND o.occupancy_status <> 'terminated' AND o.is_active
                   AND o.start_date <= ${today}::date AND (o.end_date IS NULL OR o.end_date >= ${today}::date)
                 ORDER BY o.start_date DESC, o.id DESC LIMIT 1) cur ON TRUE`,
        },
        request.query,
      );
      if (page.rows.length === 0) await ensureProperty(ctx.database.db, user.company_id, id);
      sendTotal(reply, page);
      return page.rows.map(({ monthly_rate, ...r }) => ({
        ...r,
        monthly_rate: Number(monthly_rate),
        occupancy_id: r.occupancy_id === null ? null : Number(r.occupancy_id),
        tenant_id: r.tenant_id === null ? null : Number(r.tenant_id),
      }));
    },
  );
};
