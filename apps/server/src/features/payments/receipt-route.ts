import type { FastifyInstance } from 'fastify';
import PDFDocument from 'pdfkit';
import type { FastifyRequest } from 'fastify';
import {
  AppError,
  formatDate,
  formatMoney,
  paymentMethod,
  paymentStatus,
  receiptLinkSchema,
  receiptUrl,
  type ReceiptLink,
  type SessionUser,
} from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { recordGetRoute, sendDownload } from '../../crud/record-route.ts';
import { errors, file, json, named, PDF } from '../../plugins/openapi.ts';
import { getRecord } from '../../crud/service.ts';
import { companyMoney } from '../../lib/company.ts';
import { companyLogo } from '../../lib/company-settings.ts';
import { contentBox, drawBanner, drawDetails, drawTotal, MM } from '../../lib/pdf-document.ts';
import { publicBaseUrl } from '../../lib/public-url.ts';
import { drawQr, qrMatrix, qrSvgPath } from '../../lib/qr.ts';
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
      const number = String(p.receipt_number ?? p.id);
      const filename = `receipt_${number}.pdf`;

      const doc = new PDFDocument({
        size: 'A4',
        layout: 'portrait',
        margin: 10 * MM,
        info: { Title: `Receipt ${number}`, Author: company.name, Creator: 'Kodi' },
      });
      const { left, width } = contentBox(doc);

      drawBanner(doc, {
        title: company.name,
        subtitle: 'Payment Receipt',
        height: 70,
        titleSize: 22,
        inset: 16,
        logo,
      });
      doc.moveDown(2.2);

      const y0 = doc.y;
      doc.fontSize(11).font('Helvetica-Bold').text(`Receipt No: ${number}`, left, y0);
      doc
        .font('Helvetica')
        .text(`Date: ${formatDate(String(p.payment_date))}`, left, y0, { width, align: 'right' });
      doc.moveDown(1.5);

      const status = String(p.status);
      const rows: [string, string][] = [
        ['Tenant', `${String(p.tenant_first_name ?? '')} ${String(p.tenant_last_name ?? '')}`.trim()],
        ['Unit', String(p.unit_name ?? '')],
        [
          'Payment method',
          p.payment_method
            ? (paymentMethod.labels[String(p.payment_method) as keyof typeof paymentMethod.labels] ??
              String(p.payment_method))
            : 'N/A',
        ],
        ['Status', paymentStatus.labels[status as keyof typeof paymentStatus.labels] ?? status],
        [
          'Period',
          `${formatDate(String(p.effective_start_date))} – ${formatDate(String(p.effective_end_date))}`,
        ],
        ['Reference', String(p.reference_number ?? 'N/A')],
        ['Payment serial', String(p.payment_serial ?? '')],
      ];
      drawDetails(doc, rows, { fontSize: 11, labelWidth: 150, spacing: 0.6 });
      doc.moveDown(0.8);
      doc
        .moveTo(left, doc.y)
        .lineTo(left + width, doc.y)
        .strokeColor('#cccccc')
        .stroke();
      doc.moveDown(0.8);
      const amount = formatMoney(Number(p.amount_paid), company.currency, company.decimals);
      drawTotal(doc, 'Amount paid', amount, 14);
      doc.moveDown(1.5);
      if (p.payment_details) {
        doc.font('Helvetica-Bold').fontSize(11).text('Notes', left);
        doc.font('Helvetica').text(String(p.payment_details), left, doc.y, { width });
        doc.moveDown(1.2);
      }
      doc
        .font('Helvetica-Oblique')
        .fontSize(11)
        .fillColor('#333333')
        .text('Thank you for your payment!', left, doc.y, {
          width,
          align: 'center',
        });
      doc.moveDown(1.5);

      // Anyone can check this receipt: its QR code (vectors) and the address it holds.
      const side = 36 * MM;
      const qrTop = Math.min(doc.y, doc.page.height - doc.page.margins.bottom - side);
      drawQr(doc, qrMatrix(link.url), left, qrTop, side);
      const textLeft = left + side + 6 * MM;
      doc
        .fillColor('#000000')
        .font('Helvetica-Bold')
        .fontSize(11)
        .text('Verify this receipt', textLeft, qrTop + 4 * MM, { width: width - side - 6 * MM });
      doc
        .font('Helvetica')
        .fontSize(9)
        .fillColor('#333333')
        .text('Scan the code or open this address to check it with the issuer:', {
          width: width - side - 6 * MM,
        })
        .moveDown(0.3)
        .fillColor('#0d47a1')
        .text(link.url, { width: width - side - 6 * MM, link: link.url });
      doc.end();

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
