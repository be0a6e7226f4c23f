import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { recordGetRoute, sendDownload } from '../../crud/record-route.ts';
import { errors, file, PDF } from '../../plugins/openapi.ts';
import { getRecord } from '../../crud/service.ts';
import { companyMoney } from '../../lib/company.ts';
import { companyLogo } from '../../lib/company-settings.ts';
import { receiptNumberOf, receiptPdf } from '../../lib/receipt-pdf.ts';
import { paymentsServer } from './server.ts';

/** `GET /payments/{id}/receipt.pdf`: A4 portrait, 10 mm margins, real text. */
export const receiptRoute = (app: FastifyInstance, ctx: AppContext) => {
  recordGetRoute(
    app,
    '/payments/:id/receipt.pdf',
    {
      access: 'anyRole',
      operationId: 'getPaymentReceipt',
      tag: 'payments',
      summary: 'The printable receipt of a payment, as a PDF',
      response: { 200: file('The receipt, A4 (named in Content-Disposition)', PDF), ...errors(404) },
    },
    async ({ user, id, reply }) => {
      const p = await getRecord(ctx.database.db, paymentsServer, user, id);
      const company = await companyMoney(ctx.database, user.company_id);
      const logo = await companyLogo(ctx.database, user.company_id);
      const number = receiptNumberOf(p);
      const filename = `receipt_${number}.pdf`;
      const doc = receiptPdf(p, company, logo);
      return sendDownload(reply, 'application/pdf', filename, doc);
    },
  );
};
