import { PassThrough, type Writable } from 'node:stream';
import zlib from 'node:zlib';

/**
 * A minimal .xlsx (SpreadsheetML in a ZIP) written as a stream, one sheet, rows as they come:
 * typed cells (numbers, dates, inline strings), a bold frozen header row with an autofilter, column
 * widths and number formats. Made for exports of hundreds of thousands of rows: a row is a few
 * string concatenations, and memory stays flat (the ZIP is deflated file by file, sizes in data
 * descriptors). ExcelJS reads what it writes (the export tests do).
 */

export type XlsxCell = string | number | Date | null;
export type XlsxColumn = { label: string; width: number; numFmt?: string };

const drain = (stream: Writable) =>
  stream.writableNeedDrain
    ? new Promise<void>((resolve) => stream.once('drain', () => resolve()))
    : Promise.resolve();

// ---------------------------------------------------------------- zip

type Entry = { name: Buffer; crc: number; compressed: number; size: number; offset: number };

const DOS_TIME = 0; // 00:00:00
const DOS_DATE = (1 << 5) | 1 | ((2024 - 1980) << 9); // 2024-01-01: a fixed date keeps the file reproducible
const FLAGS = 0x0808; // sizes in a data descriptor; UTF-8 names

/**
 * What a file's local header (at 4) and its central directory header (at 6) say alike: the version
 * needed (2.0), the flags, the method (8: deflate), the time and the date.
 */
const writeFileFields = (header: Buffer, at: number) => {
  header.writeUInt16LE(20, at);
  header.writeUInt16LE(FLAGS, at + 2);
  header.writeUInt16LE(8, at + 4);
  header.writeUInt16LE(DOS_TIME, at + 6);
  header.writeUInt16LE(DOS_DATE, at + 8);
};

class ZipWriter {
  private offset = 0;
  private readonly entries: Entry[] = [];
  constructor(private readonly out: PassThrough) {}

  private async raw(buf: Buffer) {
    this.offset += buf.length;
    if (!this.out.write(buf)) await drain(this.out);
  }

  /** One deflated file; `produce` writes its content through `write`. */
  async file(name: string, produce: (write: (text: string) => Promise<void>) => Promise<void>) {
    const nameBuf = Buffer.from(name, 'utf8');
    const offset = this.offset;
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    writeFileFields(header, 4);
    header.writeUInt16LE(nameBuf.length, 26);
    await this.raw(Buffer.concat([header, nameBuf]));

    let crc = 0;
    let size = 0;
    let compressed = 0;
    const deflate = zlib.createDeflateRaw({ level: 6 });
    const pending: Promise<void>[] = [];
    deflate.on('data', (chunk: Buffer) => {
      compressed += chunk.length;
      this.offset += chunk.length;
      if (!this.out.write(chunk)) {
        deflate.pause();
        pending.push(drain(this.out).then(() => void deflate.resume()));
      }
    });
    const ended = new Promise<void>((resolve, reject) => {
      deflate.once('end', () => resolve());
      deflate.once('error', reject);
    });
    await produce(async (text) => {
      const buf = Buffer.from(text, 'utf8');
      crc = zlib.crc32(buf, crc);
      size += buf.length;
      if (!deflate.write(buf)) await drain(deflate);
    });
    deflate.end();
    await ended;
    await Promise.all(pending);

    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(crc >>> 0, 4);
    descriptor.writeUInt32LE(compressed, 8);
    descriptor.writeUInt32LE(size, 12);
    await this.raw(descriptor);
    this.entries.push({ name: nameBuf, crc: crc >>> 0, compressed, size, offset });
  }

  /** The central directory; the archive is complete after it. */
  async end() {
    const start = this.offset;
    for (const e of this.entries) {
      const h = Buffer.alloc(46);
      h.writeUInt32LE(0x02014b50, 0);
      h.writeUInt16LE(20, 4); // made by 2.0
      writeFileFields(h, 6);
      h.writeUInt32LE(e.crc, 16);
      h.writeUInt32LE(e.compressed, 20);
      h.writeUInt32LE(e.size, 24);
      h.writeUInt16LE(e.name.length, 28);
      h.writeUInt32LE(e.offset, 42);
      await this.raw(Buffer.concat([h, e.name]));
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(this.offset - start, 12);
    end.writeUInt32LE(start, 16);
    await this.raw(end);
    this.out.end();
  }
}

// ---------------------------------------------------------------- spreadsheet

// characters XML 1.0 does not allow are dropped; the five special ones escaped
// eslint-disable-next-line no-control-regex -- matching the control characters is the point
const INVALID = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]/g;
const SPECIAL = /[&<>"]/g;
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
export const xmlText = (s: string) => s.replace(INVALID, '').replace(SPECIAL, (c) => ESCAPES[c] ?? c);

/** A, B, ..., Z, AA, AB... */
export const columnName = (index: number): string => {
  let n = index + 1;
  let name = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    name = String.fromCharCode(65 + r) + name;
    n = Math.floor((n - 1) / 26);
  }
  return name;
};

const EXCEL_EPOCH_DAYS = 25569; // 1970-01-01 as an Excel serial day
const serial = (d: Date) => d.getTime() / 86_400_000 + EXCEL_EPOCH_DAYS;

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

const CONTENT_TYPES =
  XML +
  '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
  '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
  '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
  '<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>' +
  '</Types>';

const ROOT_RELS =
  XML +
  '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>' +
  '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>' +
  '</Relationships>';

const WORKBOOK_RELS =
  XML +
  '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>' +
  '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>' +
  '</Relationships>';

const core = (creator: string) =>
  XML +
  '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" ' +
  'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" ' +
  'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">' +
  `<dc:creator>${xmlText(creator)}</dc:creator>` +
  `<dcterms:created xsi:type="dcterms:W3CDTF">${new Date().toISOString().slice(0, 19)}Z</dcterms:created>` +
  '</cp:coreProperties>';

/** Sheet names may not hold []:*?/\ and have at most 31 characters. */
const sheetName = (title: string) => title.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31) || 'Sheet1';

/**
 * Style 0 is the default, 1 the bold header; each distinct number format of the columns then
 * gets a style of its own (numFmt ids from 164, the first custom id).
 */
const stylesOf = (columns: XlsxColumn[]) => {
  const formats = [...new Set(columns.flatMap((c) => (c.numFmt ? [c.numFmt] : [])))];
  const styleOf = columns.map((c) => (c.numFmt ? 2 + formats.indexOf(c.numFmt) : 0));
  const xf = (numFmtId: number, fontId: number) =>
    `<xf numFmtId="${numFmtId}" fontId="${fontId}" fillId="0" borderId="0" xfId="0"` +
    `${fontId ? ' applyFont="1"' : ''}${numFmtId ? ' applyNumberFormat="1"' : ''}/>`;
  const xml =
    XML +
    `<styleSheet xmlns="${NS}">` +
    (formats.length
      ? `<numFmts count="${formats.length}">${formats
          .map((f, i) => `<numFmt numFmtId="${164 + i}" formatCode="${xmlText(f)}"/>`)
          .join('')}</numFmts>`
      : '') +
    '<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font>' +
    '<font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>' +
    '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
    `<cellXfs count="${2 + formats.length}">${xf(0, 0)}${xf(0, 1)}${formats.map((_, i) => xf(164 + i, 0)).join('')}</cellXfs>` +
    '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
    '</styleSheet>';
  return { xml, styleOf };
};

export type XlsxStream = {
  stream: PassThrough;
  /** adds rows (one value per column); resolves when the output has room again. */
  write: (rows: XlsxCell[][]) => Promise<void>;
  end: () => Promise<void>;
};

export const xlsxStream = (opts: { title: string; creator: string; columns: XlsxColumn[] }): XlsxStream => {
  const stream = new PassThrough();
  const zip = new ZipWriter(stream);
  const { columns } = opts;
  const names = columns.map((_, i) => columnName(i));
  const last = names[names.length - 1] ?? 'A';
  const { xml: stylesXml, styleOf } = stylesOf(columns);
  let rowNumber = 1;

  const cell = (i: number, r: number, v: XlsxCell): string => {
    if (v === null || v === '') return '';
    const ref = `${names[i]}${r}`;
    const s = styleOf[i] ? ` s="${styleOf[i]}"` : '';
    if (typeof v === 'number') return Number.isFinite(v) ? `<c r="${ref}"${s}><v>${v}</v></c>` : '';
    if (v instanceof Date) return `<c r="${ref}"${s}><v>${serial(v)}</v></c>`;
    const text = xmlText(v);
    const space = text !== text.trim() ? ' xml:space="preserve"' : '';
    return `<c r="${ref}"${s} t="inlineStr"><is><t${space}>${text}</t></is></c>`;
  };

  // the sheet is one file of the archive, written while rows arrive: a queue of row batches
  const queue: string[] = [];
  let wake: (() => void) | undefined;
  let taken: (() => void) | undefined;
  let finished = false;
  let failed: unknown;
  const room = () => new Promise<void>((resolve) => (wake = resolve));

  const sheetDone = (async () => {
    await zip.file('[Content_Types].xml', (w) => w(CONTENT_TYPES));
    await zip.file('_rels/.rels', (w) => w(ROOT_RELS));
    await zip.file('docProps/core.xml', (w) => w(core(opts.creator)));
    await zip.file('xl/workbook.xml', (w) =>
      w(
        XML +
          `<workbook xmlns="${NS}" xmlns:r="${REL_NS}"><bookViews><workbookView/></bookViews>` +
          `<sheets><sheet name="${xmlText(sheetName(opts.title))}" sheetId="1" r:id="rId1"/></sheets>` +
          `<definedNames><definedName name="_xlnm._FilterDatabase" localSheetId="0" hidden="1">` +
          `'${xmlText(sheetName(opts.title)).replace(/'/g, "''")}'!$A$1:$${last}$1</definedName></definedNames>` +
          '</workbook>',
      ),
    );
    await zip.file('xl/_rels/workbook.xml.rels', (w) => w(WORKBOOK_RELS));
    await zip.file('xl/styles.xml', (w) => w(stylesXml));
    await zip.file('xl/worksheets/sheet1.xml', async (w) => {
      await w(
        XML +
          `<worksheet xmlns="${NS}" xmlns:r="${REL_NS}">` +
          '<sheetViews><sheetView workbookViewId="0">' +
          '<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>' +
          '<selection pane="bottomLeft" activeCell="A2" sqref="A2"/></sheetView></sheetViews>' +
          '<sheetFormatPr defaultRowHeight="15"/>' +
          `<cols>${columns
            .map(
              (c, i) =>
                `<col min="${i + 1}" max="${i + 1}" width="${c.width}"${styleOf[i] ? ` style="${styleOf[i]}"` : ''} customWidth="1"/>`,
            )
            .join('')}</cols><sheetData>` +
          `<row r="1" s="1" customFormat="1">${columns
            .map((c, i) => `<c r="${names[i]}1" s="1" t="inlineStr"><is><t>${xmlText(c.label)}</t></is></c>`)
            .join('')}</row>`,
      );
      for (;;) {
        const chunk = queue.shift();
        if (chunk !== undefined) {
          const t = taken;
          taken = undefined;
          t?.();
          await w(chunk);
          continue;
        }
        if (finished) break;
        await room();
      }
      await w(`</sheetData><autoFilter ref="A1:${last}1"/></worksheet>`);
    });
    await zip.end();
  })().catch((err: unknown) => {
    failed = err;
    stream.destroy(err instanceof Error ? err : new Error('xlsx failed'));
  });

  const nudge = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };

  return {
    stream,
    write: async (rows) => {
      if (failed) throw failed;
      let xml = '';
      for (const values of rows) {
        rowNumber++;
        xml += `<row r="${rowNumber}">`;
        for (let i = 0; i < values.length; i++) xml += cell(i, rowNumber, values[i] ?? null);
        xml += '</row>';
      }
      queue.push(xml);
      nudge();
      // backpressure: at most two batches wait for the sheet writer
      while (queue.length > 2 && !failed) await new Promise<void>((r) => (taken = r));
      await drain(stream);
    },
    end: async () => {
      finished = true;
      nudge();
      await sheetDone;
      if (failed) throw failed;
    },
  };
};
