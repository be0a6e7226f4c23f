import PDFDocument from 'pdfkit';
import { formatDate, formatMoney, type Language } from '@kodi/domain';
import type { Database } from '../../db/client.ts';
import type { CompanyMoney } from '../companies/company.ts';
import { contentBox, drawBanner, drawDetails, drawTotal, MM, pdfSafe } from '../../platform/pdf-document.ts';
import { documentTexts } from '../../plugins/i18n.ts';
import { drawQr, qrMatrix } from '../../platform/qr.ts';
import { isoDaySql } from '../../db/dates.ts';

/**
 * A voided payment's receipt (issue 25): VOID across the page, and a line under the heading saying
 * when and why, so a printed copy can never pass for a valid one.
 */
const drawVoid = (doc: PDFKit.PDFDocument, p: ReceiptPayment, t: Texts, day: (d: unknown) => string) => {
  const { left, width } = contentBox(doc);
  const y = doc.y;
  doc.save();
  // the mark fits the page across, however long the language's word ('VOID', 'ANNULÉ', 'IMEBATILISHWA')
  const mark = t('receiptPdf.voidMark');
  const size = Math.min(
    140,
    (140 * doc.page.width * 0.9) / doc.font('Helvetica-Bold').fontSize(140).widthOfString(mark),
  );
  doc
    .rotate(-30, { origin: [doc.page.width / 2, doc.page.height / 2] })
    .font('Helvetica-Bold')
    .fontSize(size)
    .fillColor('#c62828')
    .fillOpacity(0.18)
    .text(mark, (doc.page.width - doc.widthOfString(mark)) / 2, doc.page.height / 2 - size / 2, {
      lineBreak: false,
    });
  doc.restore();
  const voided = p.voided_at ? t('receiptPdf.voidedOn', { date: day(p.voided_at) }) : t('receiptPdf.voided');
  const why = p.void_reason ? `: ${String(p.void_reason)}` : '';
  doc.font('Helvetica-Bold').fontSize(12).fillColor('#c62828').text(`${voided}${why}`, left, y, { width });
  doc.fillColor('#000000').moveDown(1);
};

type Texts = ReturnType<typeof documentTexts>;

/** What a receipt shows of a payment (its record as the API answers it, or the portal's read of it). */
export type ReceiptPayment = Record<string, unknown>;

/** The receipt's number: its receipt number, or its id before it has one. */
export const receiptNumberOf = (p: ReceiptPayment): string => String(p.receipt_number ?? p.id);

/**
 * The printable receipt of a payment: A4 portrait, 10 mm margins, real text. Staff
 * (`GET /payments/{id}/receipt.pdf`), tenants (`GET /portal/payments/{id}/receipt.pdf`) and the receipt
 * e-mail's attachment get the same, with the QR code (vectors) of `verifyUrl`, its public check
 * (`{PUBLIC_URL}/r/{code}`). In `language`, the tenant's (issue 30: `tenantLanguage`); the company's
 * name, the tenant's and the notes as written. The document is ended (pipe or read it).
 */
export const receiptPdf = (
  p: ReceiptPayment,
  company: CompanyMoney,
  logo: { data: Buffer; type: string } | null,
  verifyUrl: string,
  language: Language = 'en',
): { filename: string; doc: PDFKit.PDFDocument } => {
  const t = documentTexts(language);
  const day = (d: unknown) => pdfSafe(formatDate(String(d), language));
  const number = receiptNumberOf(p);
  const filename = `receipt_${number}.pdf`;

  const doc = new PDFDocument({
    size: 'A4',
    layout: 'portrait',
    margin: 10 * MM,
    info: { Title: t('receiptPdf.title', { number }), Author: company.name, Creator: 'Kodi' },
  });
  const { left, width } = contentBox(doc);

  drawBanner(doc, {
    title: company.name,
    subtitle: t('receiptPdf.subtitle'),
    height: 70,
    titleSize: 22,
    inset: 16,
    logo,
  });
  doc.moveDown(2.2);

  const y0 = doc.y;
  doc.fontSize(11).font('Helvetica-Bold').text(t('receiptPdf.number', { number }), left, y0);
  doc
    .font('Helvetica')
    .text(t('receiptPdf.date', { date: day(p.payment_date) }), left, y0, { width, align: 'right' });
  doc.moveDown(1.5);

  const status = String(p.status);
  if (status === 'void') drawVoid(doc, p, t, day);
  const method = p.payment_method ? String(p.payment_method) : null;
  const rows: [string, string][] = [
    [
      t('receiptPdf.tenant'),
      `${String(p.tenant_first_name ?? '')} ${String(p.tenant_last_name ?? '')}`.trim(),
    ],
    [t('receiptPdf.unit'), String(p.unit_name ?? '')],
    // the lease's account number (issue 29): what the tenant gives when paying by paybill or mobile money
    ...(p.account_reference
      ? [[t('receiptPdf.accountNumber'), String(p.account_reference)] as [string, string]]
      : []),
    [t('receiptPdf.paymentMethod'), method ? t(`paymentMethod.${method}`) : t('receiptPdf.none')],
    [t('receiptPdf.status'), t(`paymentStatus.${status}`)],
    [t('receiptPdf.period'), `${day(p.effective_start_date)} – ${day(p.effective_end_date)}`],
    [t('receiptPdf.reference'), String(p.reference_number ?? t('receiptPdf.none'))],
    [t('receiptPdf.paymentSerial'), String(p.payment_serial ?? '')],
  ];
  drawDetails(doc, rows, { fontSize: 11, labelWidth: 150, spacing: 0.6 });
  doc.moveDown(0.8);
  doc
    .moveTo(left, doc.y)
    .lineTo(left + width, doc.y)
    .strokeColor('#cccccc')
    .stroke();
  doc.moveDown(0.8);
  const amount = pdfSafe(formatMoney(Number(p.amount_paid), company.currency, company.decimals, language));
  drawTotal(doc, t('receiptPdf.amountPaid'), amount, 14);
  doc.moveDown(1.5);
  if (p.payment_details) {
    doc.font('Helvetica-Bold').fontSize(11).text(t('receiptPdf.notes'), left);
    doc.font('Helvetica').text(String(p.payment_details), left, doc.y, { width });
    doc.moveDown(1.2);
  }
  doc.font('Helvetica-Oblique').fontSize(11).fillColor('#333333').text(t('receiptPdf.thanks'), left, doc.y, {
    width,
    align: 'center',
  });
  doc.moveDown(1.5);

  // Anyone can check this receipt: its QR code (vectors) and the address it holds.
  const side = 36 * MM;
  const qrTop = Math.min(doc.y, doc.page.height - doc.page.margins.bottom - side);
  drawQr(doc, qrMatrix(verifyUrl), left, qrTop, side);
  const textLeft = left + side + 6 * MM;
  doc
    .fillColor('#000000')
    .font('Helvetica-Bold')
    .fontSize(11)
    .text(t('receiptPdf.verify'), textLeft, qrTop + 4 * MM, { width: width - side - 6 * MM });
  doc
    .font('Helvetica')
    .fontSize(9)
    .fillColor('#333333')
    .text(t('receiptPdf.scan'), {
      width: width - side - 6 * MM,
    })
    .moveDown(0.3)
    .fillColor('#0d47a1')
    .text(verifyUrl, { width: width - side - 6 * MM, link: verifyUrl });
  doc.end();
  return { filename, doc };
};

/** A payment of the company as its receipt shows it (its tenant's and unit's names), or undefined. */
export const loadReceiptPayment = async (
  database: Database,
  companyId: number,
  id: number,
): Promise<ReceiptPayment | undefined> => {
  const rows = await database.query<ReceiptPayment>(
    `SELECT p.id, p.receipt_number, p.receipt_code, ${isoDaySql('p.payment_date')} AS payment_date,
            p.amount_paid::text AS amount_paid, p.status, p.payment_method, p.reference_number, p.payment_serial,
            to_char(p.voided_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS voided_at, p.void_reason,
            p.payment_details, ${isoDaySql('p.effective_start_date')} AS effective_start_date,
            ${isoDaySql('p.effective_end_date')} AS effective_end_date, p.tenant_id, p.occupancy_id,
            tn.first_name AS tenant_first_name, tn.last_name AS tenant_last_name, un.name AS unit_name,
            oc.account_reference
       FROM payments p
       JOIN tenants tn ON tn.company_id = p.company_id AND tn.id = p.tenant_id
       LEFT JOIN units un ON un.company_id = p.company_id AND un.id = p.unit_id
       LEFT JOIN occupancy oc ON oc.company_id = p.company_id AND oc.id = p.occupancy_id
      WHERE p.company_id = $1 AND p.id = $2`,
    [companyId, id],
  );
  return rows[0];
};

/** The account number of a payment's lease (issue 29), for its receipt: null when it has none. */
export const leaseAccountReference = async (
  database: Database,
  companyId: number,
  occupancyId: unknown,
): Promise<string | null> => {
  if (occupancyId === null || occupancyId === undefined) return null;
  const rows = await database.query<{ account_reference: string | null }>(
    'SELECT account_reference FROM occupancy WHERE company_id = $1 AND id = $2',
    [companyId, Number(occupancyId)],
  );
  return rows[0]?.account_reference ?? null;
};

/** The receipt as bytes (an e-mail's attachment). */
export const receiptPdfBytes = async (
  p: ReceiptPayment,
  company: CompanyMoney,
  logo: { data: Buffer; type: string } | null,
  verifyUrl: string,
  language: Language = 'en',
): Promise<Buffer> => {
  const { doc } = receiptPdf(p, company, logo, verifyUrl, language);
  const chunks: Buffer[] = [];
  for await (const chunk of doc as unknown as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
};
