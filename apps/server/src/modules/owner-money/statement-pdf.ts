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
import type { OwnerStatement, StatementProperty } from './owner-money.ts';

/**
 * An owner's statement (issue 27) as a PDF: A4 portrait, real text, made like the tenant statement
 * (modules/leases/statement-pdf.ts). The owner and the period; per property the funds held at the
 * start, what was collected for them and taken out, the funds held at the end and available, its
 * occupancy and each tenant's arrears (names and amounts only); then the totals.
 */
export const ownerStatementPdf = (
  s: OwnerStatement,
  company: CompanyMoney,
  logo: { data: Buffer; type: string } | null = null,
): PDFKit.PDFDocument => {
  const money = (v: string) => formatMoney(v, company.currency, company.decimals);
  // what is taken out, shown negative (the standard PDF fonts have no minus sign: a hyphen)
  const out = (v: string) => (Number(v) === 0 ? money(v) : money(v.startsWith('-') ? v.slice(1) : `-${v}`));
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'portrait',
    margin: 12 * MM,
    bufferPages: true,
    info: { Title: `Owner statement – ${s.owner_name}`, Author: company.name, Creator: 'Kodi' },
  });
  const { left, width } = contentBox(doc);
  const bottom = () => doc.page.height - doc.page.margins.bottom;

  drawBanner(doc, {
    title: company.name,
    subtitle: 'Owner Statement',
    height: 64,
    titleSize: 20,
    inset: 14,
    logo,
  });
  doc.moveDown(2);
  drawDetails(
    doc,
    [
      ['Owner', s.owner_name],
      ['Period', `${formatDate(s.from)} – ${formatDate(s.to)}`],
      ['Properties', String(s.properties.length)],
    ],
    { fontSize: 10, labelWidth: 110, spacing: 0.35 },
  );
  doc.moveDown(1);

  const { rowHeight, drawRow } = pdfTable(doc, {
    widths: [width - 150, 150],
    fontSize: 9.5,
    pad: 4,
    aligns: ['left', 'right'],
  });
  const figures = (
    p: Omit<
      StatementProperty,
      'property_id' | 'property_name' | 'share_percent' | 'units' | 'occupied_units' | 'arrears'
    >,
  ): [string, string][] => [
    ['Opening balance held', money(p.opening_balance)],
    ['Rent and other income collected', money(p.collected)],
    ['Expenses', out(p.expenses)],
    ['Management fees', out(p.management_fees)],
    ['Rental tax withheld', out(p.rental_tax)],
    ['Payouts', out(p.payouts)],
    ...(Number(p.adjustments) !== 0 ? [['Adjustments', money(p.adjustments)] as [string, string]] : []),
    ['Closing balance held', money(p.closing_balance)],
    ['Reserve kept back', money(p.reserve)],
    ['Available', money(p.available)],
  ];
  const room = (cells: string[], font = 'Helvetica') => {
    if (doc.y + rowHeight(cells, font) > bottom() - 20) doc.addPage();
  };

  for (const p of s.properties) {
    if (doc.y + 120 > bottom()) doc.addPage();
    doc
      .font('Helvetica-Bold')
      .fontSize(12)
      .fillColor('#000000')
      .text(
        `${p.property_name ?? 'Not of a property'}${p.share_percent !== null ? ` – your share ${p.share_percent}%` : ''}`,
        left,
        doc.y,
        { width },
      );
    doc
      .font('Helvetica')
      .fontSize(9)
      .fillColor('#555555')
      .text(`Occupancy on ${formatDate(s.to)}: ${p.occupied_units} of ${p.units} units let`, left, doc.y, {
        width,
      });
    doc.moveDown(0.4);
    for (const [label, value] of figures(p)) {
      const bold = label === 'Closing balance held' || label === 'Available';
      room([label, value], bold ? 'Helvetica-Bold' : 'Helvetica');
      drawRow([label, value], bold ? 'Helvetica-Bold' : 'Helvetica', bold ? { fill: '#eef2f8' } : {});
    }
    if (p.arrears.length > 0) {
      doc.moveDown(0.4);
      room(['Arrears', '']);
      drawRow(['Tenants owing on the property', ''], 'Helvetica-Bold', { fill: '#e3eaf5' });
      for (const a of p.arrears) {
        const cells = [`${a.tenant_name}${a.unit_name ? ` (${a.unit_name})` : ''}`, money(a.amount)];
        room(cells);
        drawRow(cells, 'Helvetica');
      }
    }
    doc.moveDown(1);
  }

  if (doc.y + 200 > bottom()) doc.addPage();
  doc.font('Helvetica-Bold').fontSize(12).fillColor('#000000').text('All properties', left, doc.y, { width });
  doc.moveDown(0.4);
  for (const [label, value] of figures(s.totals)) {
    room([label, value]);
    drawRow([label, value], 'Helvetica');
  }
  doc.moveDown(0.8);
  // the total's label and amount on one line of one page (never split by a page break)
  if (doc.y + 60 > bottom()) doc.addPage();
  drawTotal(doc, 'Available to pay out', money(s.totals.available), 13);
  doc.moveDown(0.8);
  if (doc.y + 50 > bottom()) doc.addPage();
  doc
    .font('Helvetica')
    .fontSize(8.5)
    .fillColor('#555555')
    .text(
      'Collected: what tenants paid on your properties, your share. The management fee and the rental tax ' +
        'withheld are taken as the money is collected (a monthly fee on the first of the month). Available: ' +
        'what is held less your share of the reserve kept back for repairs.',
      left,
      doc.y,
      { width },
    );

  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    writeInBottomMargin(
      doc,
      `${s.owner_name} · ${formatDate(s.from)} – ${formatDate(s.to)} · page ${i + 1} of ${range.count}`,
      8,
    );
  }
  doc.flushPages();
  doc.end();
  return doc;
};
