import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError, rentCycleRunAnswerSchema, rentCycleRunBody } from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { currentUser } from '../../plugins/guard.ts';
import { companyToday } from '../../modules/companies/company-settings.ts';
import { json, named } from '../../plugins/openapi.ts';
import { runRentCycle } from './run.ts';

const RunResult = named(rentCycleRunAnswerSchema, 'RentCycleRun');

/**
 * `POST /rent-cycle/run`: the daily run of the session's company, now (admins and company admins).
 * `as_of` runs it as if that day had come (any date; tests travel in time with it), only when the
 * server is not in production; without it, today in the company's time zone.
 */
export const rentCycleRoutes = (app: FastifyInstance, ctx: AppContext) => {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/rent-cycle/run',
    {
      config: { access: 'companyAdmin' },
      schema: {
        operationId: 'runRentCycle',
        tags: ['rent-cycle'],
        summary:
          'Run the company’s daily cycle now: late fees, rent escalations and reminders of the days not run yet',
        body: rentCycleRunBody,
        response: { 200: json(RunResult, 'What the run did, and for whom') },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const sent = request.body.as_of;
      if (sent && ctx.config.nodeEnv === 'production') {
        const message = 'as_of is for tests: a production server runs the cycle for today only.';
        throw new AppError('validation_failed', message, { as_of: message });
      }
      const asOf = sent ?? (await companyToday(ctx.database, user.company_id));
      const { skipped: _skipped, ...result } = await runRentCycle(ctx.database, {
        companyId: user.company_id,
        asOf,
        trigger: 'manual',
        userId: user.id,
        publicUrl: ctx.config.publicUrl,
      });
      return result;
    },
  );
};
