import { PassThrough } from 'node:stream';
import PDFDocument from 'pdfkit';
import { formatDate, formatMoney, type FieldKind, type OptionList } from '@kodi/domain';
import type { CompanyMoney } from '../modules/companies/company.ts';
import { xlsxStream, type XlsxCell } from '../platform/xlsx-stream.ts';
import { contentBox, pdfTable, writeInBottomMargin } from '../platform/pdf-document.ts';

/** A column of an exported table: what it shows and how. */
export type TabularColumn = { key: string; label: string; kind: FieldKind; options?: OptionList };

export type TabularWriter = {
  stream: PassThrough;
  /** adds rows (keyed by column key); resolves when the output has room again. */
  write: (rows: Record<string, unknown>[]) => Promise<void>;
  end: () => Promise<void>;
};

const MONEY = new Set<FieldKind>(['money']);
const NUMBERS = new Set<FieldKind>(['number', 'integer', 'percent']);

/** The text a cell shows in a PDF (and for text columns in Excel): labels, formatted money and dates. */
export const displayValue = (col: TabularColumn, value: unknown, money: CompanyMoney): string => {
  if (value === null || value === undefined || value === '') return '';
  if (MONEY.has(col.kind)) return formatMoney(Number(value), money.currency, money.decimals);
  if (col.kind === 'date') return formatDate(String(value));
  if (col.kind === 'enum') return col.options?.labels[String(value)] ?? String(value);
  if (col.kind === 'boolean') return value === true || value === 'true' ? 'Yes' : 'No';
  if (NUMBERS.has(col.kind))
    return new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }).format(Number(value));
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

const widthOf = (col: TabularColumn) =>
  Math.min(
    50,
    Math.max(
      col.label.length + 4,
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
export const xlsxWriter = (title: string, columns: TabularColumn[], money: CompanyMoney): TabularWriter => {
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
      return { label: c.label, width: widthOf(c), ...(numFmt ? { numFmt } : {}) };
    }),
  });

  const cell = (c: TabularColumn, v: unknown): XlsxCell => {
    if (v === null || v === undefined || v === '') return null;
    if (MONEY.has(c.kind) || NUMBERS.has(c.kind)) return Number(v);
    if (c.kind === 'date') return new Date(`${String(v).slice(0, 10)}T00:00:00Z`);
    if (c.kind === 'boolean') return v === true ? 'Yes' : 'No';
    if (c.kind === 'enum') return c.options?.labels[String(v)] ?? String(v);
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
export const pdfWriter = (title: string, columns: TabularColumn[], money: CompanyMoney): TabularWriter => {
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
  const exported = formatDate(new Date());

  const startPage = () => {
    if (page > 0) doc.addPage();
    page += 1;
    writeInBottomMargin(doc, `Page ${page}`, -10);
    doc.x = left;
    doc.y = doc.page.margins.top;
    doc.fillColor('#000000').font('Helvetica-Bold').fontSize(14).text(money.name, left, doc.y, { width });
    doc.font('Helvetica').fontSize(10).text(`${title} · exported ${exported}`, left, doc.y, { width });
    doc.moveDown(0.5);
    drawRow(
      columns.map((c) => c.label),
      'Helvetica-Bold',
      { fill: '#e3eaf5' },
    );
  };
  startPage();

  return {
    stream,
    write: async (rows) => {
      for (const r of rows) {
        const cells = columns.map((c) => displayValue(c, r[c.key], money));
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
