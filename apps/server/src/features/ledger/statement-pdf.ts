import PDFDocument from 'pdfkit';
import { formatCents, formatDate, formatMoney, rentCycle, type Cents, type Ledger } from '@kodi/domain';
import type { CompanyMoney } from '../../lib/company.ts';
import type { LeaseForLedger } from './ledger-data.ts';

const MM = 72 / 25.4;

/**
 * The tenant statement of a lease: A4 portrait, real text. The company, the tenant, the unit, the
 * lease and the period, the entries table (its header repeated on every page), and the balance.
 */
export const statementPdf = (
  lease: LeaseForLedger,
  ledger: Ledger,
  asOf: string,
  company: CompanyMoney,
): PDFKit.PDFDocument => {
  const money = (c: Cents) => formatMoney(formatCents(c), company.currency, company.decimals);
  const tenant = `${lease.tenant_first_name} ${lease.tenant_last_name}`.trim();
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'portrait',
    margin: 12 * MM,
    bufferPages: true,
    info: { Title: `Statement ${lease.id} – ${tenant}`, Author: company.name, Creator: 'Kodi' },
  });
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const bottom = () => doc.page.height - doc.page.margins.bottom;

  doc.rect(left, doc.y, width, 64).fill('#1565c0');
  doc
    .fillColor('#ffffff')
    .font('Helvetica-Bold')
    .fontSize(20)
    .text(company.name, left + 14, doc.y + 12, { width: width - 28 });
  doc
    .font('Helvetica')
    .fontSize(12)
    .text('Tenant Statement', left + 14, doc.y + 2);
  doc.fillColor('#000000').moveDown(2);

  const cycle = (rentCycle.labels as Record<string, string>)[lease.rent_cycle] ?? lease.rent_cycle;
  const details: [string, string][] = [
    ['Tenant', tenant],
    ['Unit', lease.unit_name],
    [
      'Lease',
      `${formatDate(lease.start_date)} – ${lease.end_date ? formatDate(lease.end_date) : 'open-ended'}`,
    ],
    ['Rent', `${formatMoney(String(lease.rate), company.currency, company.decimals)} ${cycle.toLowerCase()}`],
    ['Period', `${formatDate(lease.start_date)} – ${formatDate(asOf)}`],
    ['Statement date', formatDate(asOf)],
  ];
  for (const [label, value] of details) {
    const y = doc.y;
    doc.font('Helvetica-Bold').fontSize(10).fillColor('#555555').text(label, left, y, { width: 110 });
    doc
      .font('Helvetica')
      .fillColor('#000000')
      .text(value, left + 120, y, { width: width - 120 });
    doc.moveDown(0.35);
  }
  doc.moveDown(1);

  // Date | Description | Amount | Balance
  const widths = [80, width - 80 - 110 - 110, 110, 110];
  const xs = widths.map((_, i) => left + widths.slice(0, i).reduce((a, b) => a + b, 0));
  const aligns = ['left', 'left', 'right', 'right'] as const;
  const pad = 4;
  const rowHeight = (cells: string[], font: string) => {
    doc.font(font).fontSize(9);
    return (
      Math.max(...cells.map((t, i) => doc.heightOfString(t || ' ', { width: (widths[i] ?? 60) - 2 * pad }))) +
      2 * pad
    );
  };
  const drawRow = (cells: string[], font: string, opts: { fill?: string; color?: string } = {}) => {
    const h = rowHeight(cells, font);
    const y = doc.y;
    if (opts.fill) doc.rect(left, y, width, h).fill(opts.fill);
    doc
      .fillColor(opts.color ?? '#000000')
      .font(font)
      .fontSize(9);
    cells.forEach((t, i) =>
      doc.text(t, (xs[i] ?? left) + pad, y + pad, { width: (widths[i] ?? 60) - 2 * pad, align: aligns[i] }),
    );
    doc
      .moveTo(left, y + h)
      .lineTo(left + width, y + h)
      .lineWidth(0.3)
      .strokeColor('#cccccc')
      .stroke();
    doc.x = left;
    doc.y = y + h;
  };
  const header = ['Date', 'Description', 'Amount', 'Balance'];
  drawRow(header, 'Helvetica-Bold', { fill: '#e3eaf5' });

  if (ledger.entries.length === 0) drawRow(['', 'No charges or payments yet.', '', ''], 'Helvetica');
  for (const e of ledger.entries) {
    const deposit = e.kind === 'deposit';
    const cells = [
      formatDate(e.date),
      deposit ? `${e.description} – not part of the balance` : e.description,
      money(e.amount),
      deposit ? '' : money(e.balance),
    ];
    const font = deposit ? 'Helvetica-Oblique' : 'Helvetica';
    if (doc.y + rowHeight(cells, font) > bottom() - 20) {
      doc.addPage();
      drawRow(header, 'Helvetica-Bold', { fill: '#e3eaf5' });
    }
    drawRow(cells, font, deposit ? { color: '#555555' } : {});
  }

  if (doc.y + 60 > bottom()) doc.addPage();
  doc.moveDown(1);
  const y = doc.y;
  const owed = ledger.balance > 0n;
  doc
    .font('Helvetica-Bold')
    .fontSize(13)
    .fillColor('#000000')
    .text(owed ? 'Balance due' : ledger.balance < 0n ? 'Credit' : 'Balance', left, y);
  doc.text(money(ledger.balance < 0n ? -ledger.balance : ledger.balance), left, y, {
    width,
    align: 'right',
  });
  doc.moveDown(0.8);
  doc
    .font('Helvetica')
    .fontSize(8.5)
    .fillColor('#555555')
    .text(
      'Each rent period is charged in full on its first day; payments pay the oldest charges first. ' +
        'A deposit is held apart from the rent and is not part of the balance.',
      left,
      doc.y,
      { width },
    );

  // "Page i of n" in the bottom margin of every page (lifting the margin, or PDFKit adds a page).
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const margin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font('Helvetica')
      .fontSize(8)
      .fillColor('#666666')
      .text(
        `${tenant} · ${lease.unit_name} · page ${i + 1} of ${range.count}`,
        left,
        doc.page.height - margin + 8,
        {
          width,
          align: 'right',
          lineBreak: false,
        },
      );
    doc.page.margins.bottom = margin;
  }
  doc.flushPages();
  doc.end();
  return doc;
};
