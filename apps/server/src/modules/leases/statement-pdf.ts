import PDFDocument from 'pdfkit';
import {
  formatCents,
  formatDate,
  formatMoney,
  outsideBalance,
  rateOn,
  howToPayLines,
  type Language,
  type Cents,
  type Ledger,
} from '@kodi/domain';
import type { Database } from '../../db/client.ts';
import { companyMoney, tenantLanguage, type CompanyMoney } from '../companies/company.ts';
import { documentTexts, howToPayWords } from '../../plugins/i18n.ts';
import { companyLogo, loadSettings } from '../companies/company-settings.ts';
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
import { leaseLedger, type LeaseForLedger } from './ledger-data.ts';

/**
 * The tenant statement of a lease: A4 portrait, real text. The company, the tenant, the unit, the
 * lease and the period, the entries table (its header repeated on every page), and the balance.
 */
export const statementPdf = (
  lease: LeaseForLedger,
  ledger: Ledger,
  asOf: string,
  company: CompanyMoney,
  logo: { data: Buffer; type: string } | null = null,
  /** the company's payment instructions for this lease (issue 29, `howToPayLines`) */
  howToPay: readonly string[] = [],
  /** the tenant's (issue 30: `tenantLanguage`); the entries' descriptions are written as they are */
  language: Language = 'en',
): PDFKit.PDFDocument => {
  const t = documentTexts(language);
  const money = (c: Cents) =>
    pdfSafe(formatMoney(formatCents(c), company.currency, company.decimals, language));
  const day = (d: string) => pdfSafe(formatDate(d, language));
  const tenant = `${lease.tenant_first_name} ${lease.tenant_last_name}`.trim();
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'portrait',
    margin: 12 * MM,
    bufferPages: true,
    info: { Title: t('statementPdf.title', { id: lease.id, tenant }), Author: company.name, Creator: 'Kodi' },
  });
  const { left, width } = contentBox(doc);
  const bottom = () => doc.page.height - doc.page.margins.bottom;

  drawBanner(doc, {
    title: company.name,
    subtitle: t('statementPdf.subtitle'),
    height: 64,
    titleSize: 20,
    inset: 14,
    logo,
  });
  doc.moveDown(2);

  const details: [string, string][] = [
    [t('statementPdf.tenant'), tenant],
    [t('statementPdf.unit'), lease.unit_name],
    ...(lease.account_reference
      ? [[t('statementPdf.accountNumber'), lease.account_reference] as [string, string]]
      : []),
    [
      t('statementPdf.lease'),
      `${day(lease.start_date)} – ${lease.end_date ? day(lease.end_date) : t('statementPdf.openEnded')}`,
    ],
    [t('statementPdf.rent'), `${money(rateOn(lease, asOf))} ${t(`rentCycle.${lease.rent_cycle}`)}`],
    [t('statementPdf.period'), `${day(lease.start_date)} – ${day(asOf)}`],
    [t('statementPdf.statementDate'), day(asOf)],
  ];
  drawDetails(doc, details, { fontSize: 10, labelWidth: 110, spacing: 0.35 });
  doc.moveDown(1);

  // Date | Description | Amount | Balance
  const { rowHeight, drawRow } = pdfTable(doc, {
    widths: [80, width - 80 - 110 - 110, 110, 110],
    fontSize: 9,
    pad: 4,
    aligns: ['left', 'left', 'right', 'right'],
  });
  const header = ['date', 'description', 'amount', 'balance'].map((k) => t(`statementPdf.${k}`));
  drawRow(header, 'Helvetica-Bold', { fill: '#e3eaf5' });

  if (ledger.entries.length === 0) drawRow(['', t('statementPdf.noEntries'), '', ''], 'Helvetica');
  for (const e of ledger.entries) {
    const deposit = outsideBalance.has(e.kind);
    const cells = [
      day(e.date),
      deposit ? t('statementPdf.outsideBalance', { description: e.description }) : e.description,
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
  const label = t(
    ledger.balance > 0n
      ? 'statementPdf.balanceDue'
      : ledger.balance < 0n
        ? 'statementPdf.credit'
        : 'statementPdf.balance',
  );
  drawTotal(doc, label, money(ledger.balance < 0n ? -ledger.balance : ledger.balance), 13);
  doc.moveDown(0.8);
  if (howToPay.length > 0) {
    if (doc.y + 20 + 14 * howToPay.length > bottom()) doc.addPage();
    doc
      .font('Helvetica-Bold')
      .fontSize(10)
      .fillColor('#000000')
      .text(t('statementPdf.howToPay'), left, doc.y, { width });
    doc.font('Helvetica').fontSize(9.5);
    for (const line of howToPay) doc.text(line, left, doc.y, { width });
    doc.moveDown(0.8);
  }
  doc
    .font('Helvetica')
    .fontSize(8.5)
    .fillColor('#555555')
    .text(t('statementPdf.explanation'), left, doc.y, { width });

  // "Page i of n" in the bottom margin of every page.
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    writeInBottomMargin(
      doc,
      t('statementPdf.footer', { tenant, unit: lease.unit_name, page: i + 1, pages: range.count }),
      8,
    );
  }
  doc.flushPages();
  doc.end();
  return doc;
};

/**
 * The statement of a lease of the company as of a day (staff's and the portal's): with the company's
 * name, money, logo and payment instructions (issue 29) and the lease's account number. Its file name.
 */
export const leaseStatementPdf = async (
  database: Database,
  companyId: number,
  leaseId: number,
  asOf: string,
): Promise<{ filename: string; doc: PDFKit.PDFDocument }> => {
  const { lease, ledger } = await leaseLedger(database, companyId, leaseId, asOf);
  const [company, logo, settings, language] = await Promise.all([
    companyMoney(database, companyId),
    companyLogo(database, companyId),
    loadSettings(database, companyId),
    tenantLanguage(database, companyId, lease.tenant_id),
  ]);
  const howToPay = howToPayLines(
    settings.payment_instructions,
    lease.account_reference,
    howToPayWords(language),
  );
  return {
    filename: `statement_${lease.id}.pdf`,
    doc: statementPdf(lease, ledger, asOf, company, logo, howToPay, language),
  };
};
