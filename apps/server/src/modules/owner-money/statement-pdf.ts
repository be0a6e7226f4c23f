import PDFDocument from 'pdfkit';
import { formatDate, formatMoney, type Language } from '@kodi/domain';
import type { CompanyMoney } from '../companies/company.ts';
import { documentTexts } from '../../plugins/i18n.ts';
import {
  contentBox,
  drawBanner,
  drawDetails,
  drawTotal,
  MM,
  pdfSafe,
  pdfTable,
  writeInBottomMargin,
} from '../../platform/pdf-document.ts';
import type { OwnerStatement, StatementProperty } from './owner-money.ts';

/**
 * An owner's statement (issue 27) as a PDF: A4 portrait, real text, made like the tenant statement
 * (modules/leases/statement-pdf.ts). The owner and the period; per property the funds held at the
 * start, what was collected for them and taken out, the funds held at the end and available, its
 * occupancy and each tenant's arrears (names and amounts only); then the totals. In `language`, the
 * owner's (issue 30: `ownerLanguage`); names as written.
 */
export const ownerStatementPdf = (
  s: OwnerStatement,
  company: CompanyMoney,
  logo: { data: Buffer; type: string } | null = null,
  language: Language = 'en',
): PDFKit.PDFDocument => {
  const tr = documentTexts(language);
  const t = (key: string, values?: Record<string, string | number>) => tr(`ownerStatementPdf.${key}`, values);
  const day = (d: string) => pdfSafe(formatDate(d, language));
  const money = (v: string) => pdfSafe(formatMoney(v, company.currency, company.decimals, language));
  // what is taken out, shown negative (the standard PDF fonts have no minus sign: a hyphen)
  const out = (v: string) => (Number(v) === 0 ? money(v) : money(v.startsWith('-') ? v.slice(1) : `-${v}`));
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'portrait',
    margin: 12 * MM,
    bufferPages: true,
    info: { Title: t('title', { owner: s.owner_name }), Author: company.name, Creator: 'Kodi' },
  });
  const { left, width } = contentBox(doc);
  const bottom = () => doc.page.height - doc.page.margins.bottom;

  drawBanner(doc, {
    title: company.name,
    subtitle: t('subtitle'),
    height: 64,
    titleSize: 20,
    inset: 14,
    logo,
  });
  doc.moveDown(2);
  drawDetails(
    doc,
    [
      [t('owner'), s.owner_name],
      [t('period'), `${day(s.from)} – ${day(s.to)}`],
      [t('properties'), String(s.properties.length)],
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
  ): [string, string, boolean][] => [
    [t('openingBalance'), money(p.opening_balance), false],
    [t('collected'), money(p.collected), false],
    [t('expenses'), out(p.expenses), false],
    [t('managementFees'), out(p.management_fees), false],
    [t('rentalTax'), out(p.rental_tax), false],
    [t('payouts'), out(p.payouts), false],
    ...(Number(p.adjustments) !== 0
      ? [[t('adjustments'), money(p.adjustments), false] as [string, string, boolean]]
      : []),
    // the closing balance and what is available in bold
    [t('closingBalance'), money(p.closing_balance), true],
    [t('reserve'), money(p.reserve), false],
    [t('available'), money(p.available), true],
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
        p.share_percent !== null
          ? t('share', { property: p.property_name ?? t('noProperty'), percent: String(p.share_percent) })
          : (p.property_name ?? t('noProperty')),
        left,
        doc.y,
        { width },
      );
    doc
      .font('Helvetica')
      .fontSize(9)
      .fillColor('#555555')
      .text(
        t('occupancy', { date: day(s.to), occupied: String(p.occupied_units), units: String(p.units) }),
        left,
        doc.y,
        { width },
      );
    doc.moveDown(0.4);
    for (const [label, value, bold] of figures(p)) {
      room([label, value], bold ? 'Helvetica-Bold' : 'Helvetica');
      drawRow([label, value], bold ? 'Helvetica-Bold' : 'Helvetica', bold ? { fill: '#eef2f8' } : {});
    }
    if (p.arrears.length > 0) {
      doc.moveDown(0.4);
      room([t('arrears'), '']);
      drawRow([t('owing'), ''], 'Helvetica-Bold', { fill: '#e3eaf5' });
      for (const a of p.arrears) {
        const cells = [`${a.tenant_name}${a.unit_name ? ` (${a.unit_name})` : ''}`, money(a.amount)];
        room(cells);
        drawRow(cells, 'Helvetica');
      }
    }
    doc.moveDown(1);
  }

  if (doc.y + 200 > bottom()) doc.addPage();
  doc
    .font('Helvetica-Bold')
    .fontSize(12)
    .fillColor('#000000')
    .text(t('allProperties'), left, doc.y, { width });
  doc.moveDown(0.4);
  for (const [label, value] of figures(s.totals)) {
    room([label, value]);
    drawRow([label, value], 'Helvetica');
  }
  doc.moveDown(0.8);
  // the total's label and amount on one line of one page (never split by a page break)
  if (doc.y + 60 > bottom()) doc.addPage();
  drawTotal(doc, t('availableToPayOut'), money(s.totals.available), 13);
  doc.moveDown(0.8);
  if (doc.y + 50 > bottom()) doc.addPage();
  doc.font('Helvetica').fontSize(8.5).fillColor('#555555').text(t('explanation'), left, doc.y, { width });

  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    writeInBottomMargin(
      doc,
      t('footer', {
        owner: s.owner_name,
        from: day(s.from),
        to: day(s.to),
        page: String(i + 1),
        pages: String(range.count),
      }),
      8,
    );
  }
  doc.flushPages();
  doc.end();
  return doc;
};
