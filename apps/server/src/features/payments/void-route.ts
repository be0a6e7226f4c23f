import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { payments, recordSchema, voidPaymentBodySchema } from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { currentUser } from '../../plugins/guard.ts';
import { errors, json, named } from '../../plugins/openapi.ts';
import { recordIdParams } from '../../crud/record-route.ts';
import { voidPayment } from '../../modules/receipts/void-payment.ts';
import { paymentsServer } from './server.ts';

const voidBody = named(voidPaymentBodySchema, 'VoidPaymentBody');
const voided = recordSchema(payments) as z.ZodType<Record<string, unknown>>;

/**
 * `POST /payments/{id}/void` `{ reason }` (issue 25): a completed payment voided, kept with its
 * numbers (status `void`, who, when, why). Company admins void any; an editor only a payment they
 * recorded today; anyone else 403.
 */
export const voidRoute = (app: FastifyInstance, ctx: AppContext) => {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/payments/:id/void',
    {
      // every staff role reaches the handler, whose rule is the record's (an editor: their own of today)
      config: { access: 'anyRole' },
      schema: {
        operationId: 'voidPayment',
        tags: ['payments'],
        summary:
          'Void a completed payment (company admins; an editor a payment they recorded today): it keeps its receipt number, and its receipt says it was voided',
        params: recordIdParams,
        body: voidBody,
        response: { 200: json(voided, 'The payment as voided'), ...errors(404, 409) },
      },
    },
    async (request) =>
      ctx.database.db.transaction((tx) =>
        voidPayment(tx, paymentsServer, currentUser(request), request.params.id, request.body.reason),
      ),
  );
};
