import { PassThrough } from 'node:stream';
import PDFDocument from 'pdfkit';
import {
  REPORT_TOTAL_LABEL,
  formatDate,
  formatNumber,
  intlLocales,
  reportLineLabel,
  type Language,
  type ReportLine,
} from '@kodi/domain';
import type { CompanyMoney } from '../../modules/companies/company.ts';
import type { ExportWords } from '../../plugins/i18n.ts';
import { contentBox, pdfSafe, writeInBottomMargin } from '../../platform/pdf-document.ts';

type Doc = PDFKit.PDFDocument;

/** The largest and smallest type the table is set in: the largest at which every number fits. */
const FONT_SIZES = [8, 7.5, 7, 6.5, 6] as const;
const PAD = 3;
const LABEL_MAX = 170;

const monthLabel = (m: string, language: Language) =>
  pdfSafe(
    new Intl.DateTimeFormat(intlLocales[language], {
      month: 'short',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(new Date(`${m}-01T00:00:00Z`)),
  );

/**
 * A line's label in the reader's language (issue 30), by the keys the web's report table reads
 * (`reports.line.<key>`, with its category's, method's or source's `reports.item.<item>`).
 */
export const reportLineText = (line: ReportLine, words: ExportWords): string => {
  const { key, item } = line.text;
  return item === undefined
    ? words.td(`reports.line.${key}`, line.label)
    : words.td(`reports.line.${key}`, line.label, {
        item: words.td(`reports.item.${item}`, reportLineLabel(item)),
      });
};

/** The heading of the total column in the reader's language. */
export const reportTotalText = (words: ExportWords): string => words.td('reports.total', REPORT_TOTAL_LABEL);

type Layout = { fontSize: number; labelWidth: number; numberWidth: number; bands: string[][] };

/**
 * How the table fits the page: the type size, the label column, and one width for every number column
 * (the widest number or heading, measured, plus padding: a number is never wrapped). The months are
 * cut into bands of as many as fit beside the labels, the Total with the last; the largest type at
 * which the range takes fewest bands wins.
 */
const layout = (
  doc: Doc,
  width: number,
  months: string[],
  lines: { label: string; values: Record<string, number>; total: number }[],
  decimals: number,
  words: ExportWords,
): Layout => {
  const number = (n: number) => pdfSafe(formatNumber(n, decimals, words.language));
  let best: Layout | undefined;
  for (const fontSize of FONT_SIZES) {
    doc.fontSize(fontSize);
    const labelWidth = Math.min(
      LABEL_MAX,
      Math.max(...lines.map((l) => doc.font('Helvetica-Bold').widthOfString(l.label)), 60) + 2 * PAD,
    );
    const texts = [
      ...months.map((m) => monthLabel(m, words.language)),
      reportTotalText(words),
      ...lines.flatMap((l) => [...months.map((m) => number(l.values[m] ?? 0)), number(l.total)]),
    ];
    const numberWidth =
      Math.max(...texts.map((t) => doc.font('Helvetica-Bold').widthOfString(t))) + 2 * PAD + 1;
    const perBand = Math.max(1, Math.floor((width - labelWidth) / numberWidth));
    // the Total column takes one place in the last band
    const bands: string[][] = [];
    for (let i = 0; i < months.length; i += perBand) bands.push(months.slice(i, i + perBand));
    if (bands.length === 0 || (bands.at(-1)?.length ?? 0) + 1 > perBand) bands.push([]);
    const candidate = { fontSize, labelWidth, numberWidth, bands };
    if (!best || bands.length < best.bands.length) best = candidate;
    if (bands.length === 1) break;
  }
  return best as Layout;
};

/**
 * A report of lines by month (income statement, cash flow) as an A4 landscape PDF: amounts without the
 * currency (named once above the table), right-aligned, bold totals, a Total column for the range, and
 * columns sized so that no number is ever broken across lines.
 */
export const reportPdf = (
  title: string,
  range: { from: string; to: string },
  months: string[],
  reportLines: ReportLine[],
  money: CompanyMoney,
  words: ExportWords,
): PassThrough => {
  const lines = reportLines.map((l) => ({ ...l, label: reportLineText(l, words) }));
  const { language } = words;
  const stream = new PassThrough();
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: 30,
    info: { Title: title, Creator: 'Kodi' },
  });
  doc.pipe(stream);
  const { left, width } = contentBox(doc);
  const bottom = doc.page.height - doc.page.margins.bottom - 18;
  const decimals = money.decimals ?? 2;
  const { fontSize, labelWidth, numberWidth, bands } = layout(doc, width, months, lines, decimals, words);
  const number = (n: number) => pdfSafe(formatNumber(n, decimals, language));
  const rowHeight = fontSize + 2 * PAD + 2;
  const exported = pdfSafe(formatDate(new Date(), language));
  let page = 0;

  const heading = () => {
    if (page > 0) doc.addPage();
    page += 1;
    writeInBottomMargin(doc, words.td('doc.export.page', `Page ${page}`, { page }), -10);
    doc
      .fillColor('#000000')
      .font('Helvetica-Bold')
      .fontSize(14)
      .text(money.name, left, doc.page.margins.top, { width });
    doc
      .font('Helvetica')
      .fontSize(10)
      .text(
        words.td(
          'doc.export.reportSubtitle',
          `${title} · ${monthLabel(range.from, language)} to ${monthLabel(range.to, language)} · amounts in ${money.currency} · exported ${exported}`,
          {
            title,
            from: monthLabel(range.from, language),
            to: monthLabel(range.to, language),
            currency: money.currency,
            date: exported,
          },
        ),
        left,
        doc.y,
        { width },
      );
    doc.moveDown(0.5);
  };

  const row = (cells: string[], bold: boolean, fill?: string) => {
    const labelHeight = doc
      .font(bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(fontSize)
      .heightOfString(cells[0] || ' ', { width: labelWidth - 2 * PAD });
    const h = Math.max(rowHeight, labelHeight + 2 * PAD);
    if (doc.y + h > bottom) heading();
    const y = doc.y;
    const rowWidth = labelWidth + (cells.length - 1) * numberWidth;
    if (fill) doc.rect(left, y, rowWidth, h).fill(fill);
    doc
      .fillColor('#000000')
      .font(bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(fontSize);
    doc.text(cells[0] ?? '', left + PAD, y + PAD, { width: labelWidth - 2 * PAD });
    cells.slice(1).forEach((t, i) => {
      // measured to fit: one line, right-aligned, never wrapped
      doc.text(t, left + labelWidth + i * numberWidth + PAD, y + PAD, {
        width: numberWidth - 2 * PAD,
        align: 'right',
        lineBreak: false,
      });
    });
    doc
      .moveTo(left, y + h)
      .lineTo(left + rowWidth, y + h)
      .lineWidth(0.3)
      .strokeColor('#cccccc')
      .stroke();
    doc.x = left;
    doc.y = y + h;
  };

  heading();
  bands.forEach((band, b) => {
    const last = b === bands.length - 1;
    if (b > 0) doc.moveDown(1);
    if (doc.y + rowHeight * 3 > bottom) heading();
    row(
      ['', ...band.map((m) => monthLabel(m, language)), ...(last ? [reportTotalText(words)] : [])],
      true,
      '#e3eaf5',
    );
    for (const l of lines) {
      const cells = band.map((m) => number(l.values[m] ?? 0));
      row([l.label, ...cells, ...(last ? [number(l.total)] : [])], l.kind !== 'item');
    }
  });
  doc.end();
  return stream;
};
