import PDFDocument from 'pdfkit';
import { formatDate, formatMoney } from '@kodi/domain';
import type { CompanyMoney } from '../companies/company.ts';
import {
  contentBox,
  drawBanner,
  drawDetails,
  drawTotal,
  MM,
  pdfTable,
  writeInBottomMargin,
} from '../../platform/pdf-document.ts';
import type { TaxCertificate } from './rental-tax.ts';

const monthName = (m: string) =>
  new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${m}-01T00:00:00Z`),
  );

/**
 * An owner's certificate of rental tax withheld for a month (issue 27), A4 portrait, real text: the
 * company (the withholding agent) with its details, the owner with their tax ID, per property the rent
 * collected for them and the tax withheld from it, the totals and the day the tax is due.
 */
export const taxCertificatePdf = (
  c: TaxCertificate,
  money: CompanyMoney,
  logo: { data: Buffer; type: string } | null = null,
): PDFKit.PDFDocument => {
  const amount = (v: string) => formatMoney(v, money.currency, money.decimals);
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'portrait',
    margin: 12 * MM,
    info: {
      Title: `Rental tax certificate – ${c.owner.name} – ${monthName(c.month)}`,
      Author: c.company.name,
      Creator: 'Kodi',
    },
  });
  const { left, width } = contentBox(doc);
  drawBanner(doc, {
    title: c.company.name,
    subtitle: 'Certificate of Rental Tax Withheld',
    height: 64,
    titleSize: 20,
    inset: 14,
    logo,
  });
  doc.moveDown(2);
  drawDetails(
    doc,
    [
      ['Withholding agent', c.company.name],
      ...(c.company.address ? [['Address', c.company.address] as const] : []),
      ...(c.company.phone ? [['Phone', c.company.phone] as const] : []),
      ...(c.company.email ? [['E-mail', c.company.email] as const] : []),
      ['Landlord', c.owner.name],
      ['Landlord tax ID', c.owner.tax_id ?? 'Not given'],
      ['Month', monthName(c.month)],
      ['Tax due by', formatDate(c.due_date)],
    ],
    { fontSize: 10, labelWidth: 130, spacing: 0.35 },
  );
  doc.moveDown(1);
  const { drawRow } = pdfTable(doc, {
    widths: [width - 300, 150, 150],
    fontSize: 9.5,
    pad: 4,
    aligns: ['left', 'right', 'right'],
  });
  drawRow(['Property', 'Rent collected', 'Tax withheld'], 'Helvetica-Bold', { fill: '#e3eaf5' });
  if (c.properties.length === 0)
    drawRow(['Nothing collected this month (nil)', amount('0'), amount('0')], 'Helvetica');
  for (const p of c.properties)
    drawRow([p.property_name ?? 'Not of a property', amount(p.gross_rent), amount(p.withheld)], 'Helvetica');
  drawRow(['Total', amount(c.totals.gross_rent), amount(c.totals.withheld)], 'Helvetica-Bold', {
    fill: '#eef2f8',
  });
  doc.moveDown(1);
  drawTotal(doc, 'Rental tax withheld', amount(c.totals.withheld), 13);
  doc.moveDown(1);
  doc
    .font('Helvetica')
    .fontSize(8.5)
    .fillColor('#555555')
    .text(
      `${c.company.name} certifies that it withheld the rental tax above from the rent it collected for ` +
        `${c.owner.name} (their share) in ${monthName(c.month)}, as its books hold it.`,
      left,
      doc.y,
      { width },
    );
  writeInBottomMargin(doc, `${c.owner.name} · ${monthName(c.month)} · issued ${formatDate(new Date())}`, 8);
  doc.end();
  return doc;
};
