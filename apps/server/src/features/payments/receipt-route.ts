import type { FastifyInstance } from 'fastify';
import type { FastifyRequest } from 'fastify';
import { AppError, receiptLinkSchema, receiptUrl, type ReceiptLink, type SessionUser } from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { recordGetRoute, sendDownload } from '../../crud/record-route.ts';
import { errors, file, json, named, PDF } from '../../plugins/openapi.ts';
import { getRecord } from '../../crud/service.ts';
import { companyMoney, tenantLanguage } from '../../modules/companies/company.ts';
import { companyLogo } from '../../modules/companies/company-settings.ts';
import { publicBaseUrl } from '../../plugins/public-url.ts';
import { qrMatrix, qrSvgPath } from '../../platform/qr.ts';
import { leaseAccountReference, receiptPdf } from '../../modules/receipts/receipt-pdf.ts';
import { paymentsServer } from './server.ts';

/** The receipt's public address (`{PUBLIC_URL}/r/{code}`) of a payment of the user's company. */
const receiptLinkOf = async (
  ctx: AppContext,
  request: FastifyRequest,
  user: SessionUser,
  id: number,
): Promise<{ code: string; url: string }> => {
  const rows = await ctx.database.query<{ receipt_code: string }>(
    'SELECT receipt_code FROM payments WHERE company_id = $1 AND id = $2',
    [user.company_id, id],
  );
  const code = rows[0]?.receipt_code;
  if (!code) throw new AppError('not_found', 'Payment record not found.');
  return { code, url: receiptUrl(publicBaseUrl(ctx.config, request), code) };
};

const receiptLinkAnswer = named(receiptLinkSchema, 'ReceiptLink');

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
    async ({ user, id, reply, request }) => {
      const p = await getRecord(ctx.database.db, paymentsServer, user, id);
      const link = await receiptLinkOf(ctx, request, user, id);
      const company = await companyMoney(ctx.database, user.company_id);
      const logo = await companyLogo(ctx.database, user.company_id);
      const account_reference = await leaseAccountReference(ctx.database, user.company_id, p.occupancy_id);
      const language = await tenantLanguage(ctx.database, user.company_id, p.tenant_id);
      const { filename, doc } = receiptPdf({ ...p, account_reference }, company, logo, link.url, language);
      return sendDownload(reply, 'application/pdf', filename, doc);
    },
  );

  recordGetRoute(
    app,
    '/payments/:id/receipt-link',
    {
      access: 'anyRole',
      operationId: 'getPaymentReceiptLink',
      tag: 'payments',
      summary: "The receipt's public address ({PUBLIC_URL}/r/{code}) and its QR code",
      response: {
        200: json(receiptLinkAnswer, 'The link anyone can open to check the receipt'),
        ...errors(404),
      },
    },
    async ({ user, id, request }): Promise<ReceiptLink> => {
      const link = await receiptLinkOf(ctx, request, user, id);
      const m = qrMatrix(link.url);
      return { receipt_code: link.code, receipt_url: link.url, qr: { size: m.size, path: qrSvgPath(m) } };
    },
  );
};
