import { PassThrough } from 'node:stream';
import PDFDocument from 'pdfkit';
import { formatDate, formatMoney, intlLocales, type FieldKind, type OptionList } from '@kodi/domain';
import type { CompanyMoney } from '../modules/companies/company.ts';
import type { ExportWords } from '../plugins/i18n.ts';
import { xlsxStream, type XlsxCell } from '../platform/xlsx-stream.ts';
import { contentBox, pdfSafe, pdfTable, writeInBottomMargin } from '../platform/pdf-document.ts';

/**
 * A column of an exported table: what it shows and how. `label` is its English heading, `text` the
 * catalogue key of that heading in other languages, `optionText` the key prefix of its options'
 * labels (`<optionText>.<value>`): the writers put them in the reader's language (issue 30).
 */
export type TabularColumn = {
  key: string;
  label: string;
  kind: FieldKind;
  options?: OptionList;
  text?: string;
  optionText?: string;
};

/** A column's heading in the reader's language. */
const headingOf = (col: TabularColumn, words: ExportWords): string =>
  col.text ? words.td(col.text, col.label) : col.label;

const optionLabel = (col: TabularColumn, value: unknown, words: ExportWords): string => {
  const english = col.options?.labels[String(value)] ?? String(value);
  return col.optionText ? words.td(`${col.optionText}.${String(value)}`, english) : english;
};

const yesNo = (value: unknown, words: ExportWords): string =>
  value === true || value === 'true' ? words.td('doc.export.yes', 'Yes') : words.td('doc.export.no', 'No');

export type TabularWriter = {
  stream: PassThrough;
  /** adds rows (keyed by column key); resolves when the output has room again. */
  write: (rows: Record<string, unknown>[]) => Promise<void>;
  end: () => Promise<void>;
};

const MONEY = new Set<FieldKind>(['money']);
const NUMBERS = new Set<FieldKind>(['number', 'integer', 'percent']);

/** The text a cell shows in a PDF (and for text columns in Excel): labels, formatted money and dates. */
export const displayValue = (
  col: TabularColumn,
  value: unknown,
  money: CompanyMoney,
  words: ExportWords,
): string => {
  if (value === null || value === undefined || value === '') return '';
  const { language } = words;
  if (MONEY.has(col.kind))
    return pdfSafe(formatMoney(Number(value), money.currency, money.decimals, language));
  if (col.kind === 'date') return pdfSafe(formatDate(String(value), language));
  if (col.kind === 'enum') return optionLabel(col, value, words);
  if (col.kind === 'boolean') return yesNo(value, words);
  if (NUMBERS.has(col.kind))
    return pdfSafe(
      new Intl.NumberFormat(intlLocales[language], { maximumFractionDigits: 2 }).format(Number(value)),
    );
  return String(value);
};

const drain = (stream: PassThrough) =>
  stream.writableNeedDrain
    ? new Promise<void>((resolve) => stream.once('drain', () => resolve()))
    : Promise.resolve();

const moneyFormat = (money: CompanyMoney) => {
  const d = money.decimals ?? 2;
  return `"${money.currency} "#,##0${d > 0 ? '.' + '0'.repeat(d) : ''}`;
};

const widthOf = (col: TabularColumn, heading: string) =>
  Math.min(
    50,
    Math.max(
      heading.length + 4,
      col.kind === 'date'
        ? 14
        : MONEY.has(col.kind)
          ? 18
          : NUMBERS.has(col.kind)
            ? 12
            : col.kind === 'enum'
              ? 14
              : 28,
    ),
  );

/**
 * An .xlsx written row by row (lib/xlsx-stream.ts): typed cells, bold frozen header, autofilter.
 * 200,000 payments take seconds, in flat memory.
 */
export const xlsxWriter = (
  title: string,
  columns: TabularColumn[],
  money: CompanyMoney,
  words: ExportWords,
): TabularWriter => {
  const xlsx = xlsxStream({
    title,
    creator: 'Kodi',
    columns: columns.map((c) => {
      const numFmt = MONEY.has(c.kind)
        ? moneyFormat(money)
        : c.kind === 'date'
          ? 'mmm d, yyyy'
          : NUMBERS.has(c.kind)
            ? '#,##0.##'
            : undefined;
      const heading = headingOf(c, words);
      return { label: heading, width: widthOf(c, heading), ...(numFmt ? { numFmt } : {}) };
    }),
  });

  const cell = (c: TabularColumn, v: unknown): XlsxCell => {
    if (v === null || v === undefined || v === '') return null;
    if (MONEY.has(c.kind) || NUMBERS.has(c.kind)) return Number(v);
    if (c.kind === 'date') return new Date(`${String(v).slice(0, 10)}T00:00:00Z`);
    if (c.kind === 'boolean') return yesNo(v === true, words);
    if (c.kind === 'enum') return optionLabel(c, v, words);
    // always a plain string cell: text typed by users never becomes a formula
    return String(v);
  };

  return {
    stream: xlsx.stream,
    write: (rows) => xlsx.write(rows.map((r) => columns.map((c) => cell(c, r[c.key])))),
    end: () => xlsx.end(),
  };
};

/** A landscape A4 PDF table: company, title, date, page numbers, header repeated on every page. */
export const pdfWriter = (
  title: string,
  columns: TabularColumn[],
  money: CompanyMoney,
  words: ExportWords,
): TabularWriter => {
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
  const weights = columns.map((c) => (c.kind === 'text' || c.kind === 'textarea' ? 2 : 1.2));
  const total = weights.reduce((a, b) => a + b, 0) || 1;
  const widths = weights.map((w) => (w / total) * width);
  const { rowHeight, drawRow } = pdfTable(doc, { widths, fontSize: 8, pad: 3 });
  let page = 0;
  const exported = pdfSafe(formatDate(new Date(), words.language));

  const startPage = () => {
    if (page > 0) doc.addPage();
    page += 1;
    writeInBottomMargin(doc, words.td('doc.export.page', `Page ${page}`, { page }), -10);
    doc.x = left;
    doc.y = doc.page.margins.top;
    doc.fillColor('#000000').font('Helvetica-Bold').fontSize(14).text(money.name, left, doc.y, { width });
    doc
      .font('Helvetica')
      .fontSize(10)
      .text(
        words.td('doc.export.subtitle', `${title} · exported ${exported}`, { title, date: exported }),
        left,
        doc.y,
        {
          width,
        },
      );
    doc.moveDown(0.5);
    drawRow(
      columns.map((c) => headingOf(c, words)),
      'Helvetica-Bold',
      { fill: '#e3eaf5' },
    );
  };
  startPage();

  return {
    stream,
    write: async (rows) => {
      for (const r of rows) {
        const cells = columns.map((c) => displayValue(c, r[c.key], money, words));
        if (doc.y + rowHeight(cells, 'Helvetica') > bottom) startPage();
        drawRow(cells, 'Helvetica');
      }
      await drain(stream);
    },
    end: async () => {
      doc.end();
    },
  };
};
