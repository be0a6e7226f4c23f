import type { FastifyInstance } from 'fastify';
import { AppError, isAdmin, ownCompanySchema } from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { recordGetRoute } from '../../crud/record-route.ts';
import { errors, json, named } from '../../plugins/openapi.ts';

/** `GET /companies_single/{id}`: every signed-in user reads their own company; admins any. */
export const companySingleRoute = (app: FastifyInstance, ctx: AppContext) => {
  recordGetRoute(
    app,
    '/companies_single/:id',
    {
      access: 'signedIn',
      operationId: 'getOwnCompany',
      tag: 'companies',
      summary: "The signed-in user's company (its name and currency)",
      response: {
        200: json(
          named(ownCompanySchema, 'OwnCompany'),
          'The company, with its currency’s decimals and symbol',
        ),
        ...errors(404),
      },
    },
    async ({ user, id }) => {
      if (id !== user.company_id && !isAdmin(user)) throw new AppError('not_found');
      const rows = await ctx.database.query(
        `SELECT c.id, c.name, c.email, c.phone_number, c.website, c.address, c.industry_type,
                trim(c.currency_code) AS currency_code, c.status, c.description,
                cur.decimal_places AS currency_decimal_places, cur.symbol AS currency_symbol
           FROM companies c LEFT JOIN currencies cur ON cur.currency_code = c.currency_code
          WHERE c.id = $1`,
        [id],
      );
      if (!rows[0]) throw new AppError('not_found');
      return { company: rows[0] };
    },
  );
};
