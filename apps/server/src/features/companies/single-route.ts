import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, isAdmin } from '@kodi/domain';
import type { AppContext } from '../../app.ts';
import { currentUser } from '../../plugins/guard.ts';

/** `GET /companies_single/{id}`: every signed-in user reads their own company; admins any. */
export const companySingleRoute = (app: FastifyInstance, ctx: AppContext) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/companies_single/:id',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['companies'],
        summary: "The signed-in user's company (its name and currency)",
        params: z.object({ id: z.coerce.number().int().positive().max(2147483647) }),
      },
    },
    async (request) => {
      const user = currentUser(request);
      if (request.params.id !== user.company_id && !isAdmin(user)) throw new AppError('not_found');
      const rows = await ctx.database.query(
        `SELECT id, name, email, phone_number, website, address, industry_type,
                trim(currency_code) AS currency_code, status, description
           FROM companies WHERE id = $1`,
        [request.params.id],
      );
      if (!rows[0]) throw new AppError('not_found');
      return { company: rows[0] };
    },
  );
};
