import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import sax from 'sax';
import yauzl from 'yauzl';
import { AppError } from '@kodi/domain';
import type { Cell, FileRow } from './file-rows.ts';

/**
 * An uploaded xlsx workbook's first sheet, read as a stream with limits on what it unpacks to (issue
 * 23): a zip of 20 MB may inflate to gigabytes, so nothing here trusts the sizes the zip declares and
 * nothing holds more than the limits allow. The zip's parts are read by yauzl (random access from
 * the temporary file), inflated a chunk at a time with the bytes counted as they come, and parsed by
 * sax, whose buffers never grow past 64 KB (text is handed over in pieces). Shared strings are kept
 * in a compact store (their UTF-8 bytes in 1 MB pages), never as a million JS strings.
 */

const MB = 1024 * 1024;

/** What a workbook may unpack to; past any of them it is refused (`413 file_too_large`). */
export type SpreadsheetLimits = {
  /** bytes inflated, all the parts read together (the sizes the zip declares are checked first, then counted) */
  unpackedBytes: number;
  /** shared strings (distinct texts of the workbook), and the bytes of their text (UTF-8) */
  sharedStrings: number;
  sharedStringBytes: number;
  /** columns of a row (Excel's own: XFD) */
  columns: number;
  /** characters of one cell (Excel's own) */
  cellChars: number;
  /** characters of one row's cells together */
  rowChars: number;
  /** rows of the sheet, blank ones counted (Excel's own) */
  rows: number;
  /** files in the zip (a workbook has a few dozen) */
  entries: number;
};

export const SPREADSHEET_LIMITS: SpreadsheetLimits = {
  unpackedBytes: 200 * MB,
  sharedStrings: 1_000_000,
  sharedStringBytes: 50 * MB,
  columns: 16_384,
  cellChars: 32_767,
  rowChars: 1_000_000,
  rows: 1_048_576,
  entries: 10_000,
};

const n = (v: number) => v.toLocaleString('en-US');
const size = (bytes: number) =>
  bytes % MB === 0
    ? `${n(bytes / MB)} MB`
    : bytes % 1024 === 0
      ? `${n(bytes / 1024)} KB`
      : `${n(bytes)} bytes`;
const tooLarge = (message: string) => new AppError('file_too_large', message);

/** The messages of the limits, one each (the API's `error`). */
export const limitMessages = (l: SpreadsheetLimits) => ({
  unpackedBytes: `The spreadsheet unpacks to more than ${size(l.unpackedBytes)}.`,
  sharedStrings: `The spreadsheet has more than ${n(l.sharedStrings)} shared strings.`,
  sharedStringBytes: `The spreadsheet's shared strings hold more than ${size(l.sharedStringBytes)} of text.`,
  columns: `The spreadsheet has more than ${n(l.columns)} columns.`,
  cellChars: `A cell holds more than ${n(l.cellChars)} characters.`,
  rowChars: `A row holds more than ${n(l.rowChars)} characters.`,
  entries: `The spreadsheet's zip holds more than ${n(l.entries)} files.`,
});

/** Not a workbook (or a damaged one): `400 unsupported_file`. */
const unsupported = () => new AppError('unsupported_file');

/** A rows limit: the caller's (file-rows.ts answers it as the import's rows limit). */
export class TooManyRows extends Error {}

// ---------------------------------------------------------------- XML

/** Deeper nesting or more attributes on one element than any workbook has: not a workbook. */
const MAX_DEPTH = 64;
const MAX_ATTRIBUTES = 256;

type Handlers = {
  open: (name: string, attributes: Record<string, string>) => void;
  close: (name: string) => void;
  text?: (text: string) => void;
};

/** `x:row` → `row` (some writers prefix SpreadsheetML's elements). */
const local = (name: string) => {
  const i = name.indexOf(':');
  return i === -1 ? name : name.slice(i + 1);
};

/** A strict sax parser that refuses a DOCTYPE, deep nesting and elements with too many attributes. */
const xmlParser = (h: Handlers): sax.SAXParser => {
  const parser = sax.parser(true, { position: true, strictEntities: true } as sax.SAXOptions);
  let depth = 0;
  let attributes = 0;
  parser.onerror = (err) => {
    throw err;
  };
  parser.ondoctype = () => {
    throw unsupported();
  };
  parser.onopentagstart = () => {
    attributes = 0;
    if (++depth > MAX_DEPTH) throw unsupported();
  };
  parser.onattribute = () => {
    if (++attributes > MAX_ATTRIBUTES) throw unsupported();
  };
  parser.onopentag = (tag) => h.open(local(tag.name), tag.attributes as Record<string, string>);
  parser.onclosetag = (name) => {
    depth--;
    h.close(local(name));
  };
  if (h.text) {
    parser.ontext = h.text;
    parser.oncdata = h.text;
  }
  return parser;
};

// ---------------------------------------------------------------- zip

type Budget = { used: number; readonly limits: SpreadsheetLimits };

type Zip = { file: yauzl.ZipFile; entries: Map<string, yauzl.Entry> };

const openZip = async (file: string, limits: SpreadsheetLimits): Promise<Zip> => {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(file, {
      lazyEntries: true,
      autoClose: false,
      // the declared sizes are checked, but not trusted: the bytes are counted as they inflate
      validateEntrySizes: false,
    });
  } catch {
    throw unsupported();
  }
  try {
    if (zip.entryCount > limits.entries) throw tooLarge(limitMessages(limits).entries);
    const entries = new Map<string, yauzl.Entry>();
    for await (const entry of zip.eachEntry()) {
      const name = entry.fileName.toLowerCase(); // part names are case-insensitive (OPC)
      if (!entries.has(name)) entries.set(name, entry);
    }
    return { file: zip, entries };
  } catch (err) {
    zip.close();
    throw err instanceof AppError ? err : unsupported();
  }
};

/**
 * One part of the zip through the parser, a chunk at a time, yielding after each chunk (the sheet's
 * reader hands its rows over there). Its bytes are counted as they inflate, and the whole read's
 * total is refused past the limit, whatever the zip said.
 */
async function* parsePart(zip: Zip, entry: yauzl.Entry, budget: Budget, h: Handlers) {
  const stream = await zip.file.openReadStreamPromise(entry);
  const parser = xmlParser(h);
  const decoder = new StringDecoder('utf8');
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      budget.used += chunk.length;
      if (budget.used > budget.limits.unpackedBytes)
        throw tooLarge(limitMessages(budget.limits).unpackedBytes);
      parser.write(decoder.write(chunk));
      yield;
    }
    parser.write(decoder.end());
    parser.close();
  } finally {
    stream.destroy();
  }
}

const readPart = async (zip: Zip, entry: yauzl.Entry, budget: Budget, h: Handlers) => {
  const chunks = parsePart(zip, entry, budget, h);
  while (!(await chunks.next()).done);
};

/** A part's path from a relationship's target: relative to the source part's folder, or absolute. */
const resolveTarget = (folder: string, target: string) =>
  path.posix
    .normalize(target.startsWith('/') ? target.slice(1) : path.posix.join(folder, target))
    .replace(/^\.\//, '');

/** The relationships file of a part: `xl/workbook.xml` → `xl/_rels/workbook.xml.rels`. */
const relsOf = (part: string) =>
  path.posix.join(path.posix.dirname(part), '_rels', `${path.posix.basename(part)}.rels`);

type Relationship = { id: string; type: string; target: string };

/** The relationships of a part that `keep` wants (the others are not kept: a rels file may be long). */
const readRels = async (
  zip: Zip,
  part: string,
  budget: Budget,
  keep: (r: Relationship) => boolean,
): Promise<Relationship[]> => {
  const entry = zip.entries.get(relsOf(part).toLowerCase());
  if (!entry) return [];
  const kept: Relationship[] = [];
  const folder = path.posix.dirname(part);
  await readPart(zip, entry, budget, {
    open: (name, a) => {
      if (name !== 'Relationship' || a.TargetMode === 'External') return;
      const r = { id: a.Id ?? '', type: a.Type ?? '', target: resolveTarget(folder, a.Target ?? '') };
      if (kept.length < 100 && keep(r)) kept.push(r);
    },
    close: () => {},
  });
  return kept;
};

// ---------------------------------------------------------------- shared strings

const PAGE = MB;

/**
 * The workbook's shared strings as their UTF-8 bytes in 1 MB pages, with each one's place (page and
 * offset in one number) and length: a few bytes per string above its text, where a JS string costs
 * tens. A string is made when a cell asks for it.
 */
class SharedStrings {
  private pages: Buffer[] = [];
  private used = PAGE;
  private places = new Uint32Array(1024);
  private lengths = new Uint32Array(1024);
  count = 0;
  bytes = 0;

  add(text: string) {
    const size = Buffer.byteLength(text, 'utf8');
    if (this.used + size > PAGE) {
      // a string is at most a cell's limit (32,767 characters, under 128 KB): it fits a page
      this.pages.push(Buffer.allocUnsafeSlow(Math.max(PAGE, size)));
      this.used = 0;
    }
    const page = this.pages.length - 1;
    this.pages[page]?.write(text, this.used, 'utf8');
    if (this.count === this.places.length) {
      const grow = (a: Uint32Array) => {
        const b = new Uint32Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.places = grow(this.places);
      this.lengths = grow(this.lengths);
    }
    this.places[this.count] = page * PAGE + this.used;
    this.lengths[this.count] = size;
    this.count++;
    this.used += size;
    this.bytes += size;
  }

  get(index: number): string | null {
    if (!Number.isInteger(index) || index < 0 || index >= this.count) return null;
    const place = this.places[index] ?? 0;
    const start = place % PAGE;
    return (
      this.pages[Math.floor(place / PAGE)]?.toString('utf8', start, start + (this.lengths[index] ?? 0)) ??
      null
    );
  }
}

/**
 * A text of `<t>` elements (rich text's runs joined; phonetic `<rPh>` runs left out), its
 * characters counted against the cell limit as they arrive.
 */
class TextCollector {
  private parts: string[] = [];
  private chars = 0;
  active = false;
  constructor(private readonly limits: SpreadsheetLimits) {}
  reset() {
    this.parts = [];
    this.chars = 0;
    this.active = false;
  }
  add(text: string) {
    if (!this.active) return;
    this.chars += text.length;
    if (this.chars > this.limits.cellChars) throw tooLarge(limitMessages(this.limits).cellChars);
    this.parts.push(text);
  }
  text() {
    return this.parts.length === 1 ? (this.parts[0] ?? '') : this.parts.join('');
  }
}

const readSharedStrings = async (zip: Zip, entry: yauzl.Entry, budget: Budget) => {
  const { limits } = budget;
  const strings = new SharedStrings();
  const text = new TextCollector(limits);
  let inItem = false;
  let phonetic = 0;
  await readPart(zip, entry, budget, {
    open: (name) => {
      if (name === 'si') {
        inItem = true;
        text.reset();
      } else if (name === 'rPh') phonetic++;
      else if (name === 't' && inItem && phonetic === 0) text.active = true;
    },
    close: (name) => {
      if (name === 't') text.active = false;
      else if (name === 'rPh') phonetic--;
      else if (name === 'si' && inItem) {
        inItem = false;
        if (strings.count >= limits.sharedStrings) throw tooLarge(limitMessages(limits).sharedStrings);
        strings.add(text.text());
        if (strings.bytes > limits.sharedStringBytes) throw tooLarge(limitMessages(limits).sharedStringBytes);
      }
    },
    text: (t) => text.add(t),
  });
  return strings;
};

// ---------------------------------------------------------------- styles and dates

/** Excel's built-in date and time formats (ids 14–22, 27–36, 45–47 and 50–58). */
const BUILT_IN_DATES = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54,
  55, 56, 57, 58,
]);

/** A custom number format is a date's when it has date or time letters outside quotes and brackets (ExcelJS's rule). */
const isDateFormat = (code: string) =>
  /[ymdhMsb]/.test(code.replace(/\[[^\]]*]/g, '').replace(/"[^"]*"/g, ''));

/** Which cell styles (indexes of `cellXfs`) format a number as a date. */
const readDateStyles = async (zip: Zip, entry: yauzl.Entry, budget: Budget): Promise<Uint8Array> => {
  const custom = new Map<number, boolean>();
  const formatIds: number[] = [];
  let inCellXfs = false;
  await readPart(zip, entry, budget, {
    open: (name, a) => {
      if (name === 'numFmt' && custom.size < 1000)
        custom.set(Number(a.numFmtId), isDateFormat(a.formatCode ?? ''));
      else if (name === 'cellXfs') inCellXfs = true;
      else if (name === 'xf' && inCellXfs && formatIds.length < 65_536)
        formatIds.push(Number(a.numFmtId ?? 0));
    },
    close: (name) => {
      if (name === 'cellXfs') inCellXfs = false;
    },
  });
  return Uint8Array.from(formatIds, (id) => ((custom.get(id) ?? BUILT_IN_DATES.has(id)) ? 1 : 0));
};

/** An Excel serial as a Date (ExcelJS's conversion: the 1900 date system, or 1904's). */
const excelDate = (serial: number, date1904: boolean) =>
  new Date(Math.round((serial - 25569 + (date1904 ? 1462 : 0)) * 86_400_000));

// ---------------------------------------------------------------- the workbook

type Workbook = {
  sheet: yauzl.Entry;
  sharedStrings: yauzl.Entry | undefined;
  styles: yauzl.Entry | undefined;
  date1904: boolean;
};

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/';
const relType = (r: Relationship, kind: string) => r.type.endsWith(`/${kind}`);

/** The workbook's first sheet (in the workbook's order), its shared strings and styles, found by their relationships. */
const findParts = async (zip: Zip, budget: Budget): Promise<Workbook> => {
  const [doc] = await readRels(zip, '', budget, (r) => relType(r, 'officeDocument'));
  const workbookPath = doc?.target ?? 'xl/workbook.xml';
  const workbook = zip.entries.get(workbookPath.toLowerCase());
  if (!workbook) throw unsupported();
  let date1904 = false;
  let sheetId: string | undefined;
  // read up to the first sheet (workbookPr comes before the sheets)
  const chunks = parsePart(zip, workbook, budget, {
    open: (name, a) => {
      if (name === 'workbookPr') date1904 = a.date1904 === '1' || a.date1904 === 'true';
      else if (name === 'sheet' && sheetId === undefined)
        sheetId = Object.entries(a).find(([k]) => k.endsWith(':id'))?.[1] ?? '';
    },
    close: () => {},
  });
  while (sheetId === undefined && !(await chunks.next()).done);
  await chunks.return(undefined);
  if (!sheetId) throw unsupported();
  const rels = await readRels(
    zip,
    workbookPath,
    budget,
    (r) => r.id === sheetId || relType(r, 'sharedStrings') || relType(r, 'styles'),
  );
  const part = (find: (r: Relationship) => boolean) => {
    const r = rels.find(find);
    return r ? zip.entries.get(r.target.toLowerCase()) : undefined;
  };
  const sheet = part((r) => r.id === sheetId && r.type.startsWith(REL) && relType(r, 'worksheet'));
  if (!sheet) throw unsupported();
  return {
    sheet,
    sharedStrings: part((r) => relType(r, 'sharedStrings')),
    styles: part((r) => relType(r, 'styles')),
    date1904,
  };
};

/** A cell reference's column (`B7` → 1), or undefined when it has none; past the limit is refused. */
const columnOf = (ref: string | undefined, limits: SpreadsheetLimits): number | undefined => {
  if (!ref) return undefined;
  let col = 0;
  let i = 0;
  for (; i < ref.length; i++) {
    const c = ref.charCodeAt(i) & ~32; // upper case
    if (c < 65 || c > 90) break;
    col = col * 26 + (c - 64);
    if (col > limits.columns) throw tooLarge(limitMessages(limits).columns);
  }
  return i === 0 ? undefined : col - 1;
};

/**
 * The first worksheet's rows, one at a time (row numbers as in Excel; a row's cells from column A,
 * holes as null). Cells as ExcelJS read them: shared and inline strings as text (rich text joined),
 * numbers, dates where the cell's style is a date format, booleans, formulas as their cached result,
 * errors as null.
 */
export async function* xlsxRows(
  file: string,
  limits: SpreadsheetLimits = SPREADSHEET_LIMITS,
): AsyncGenerator<FileRow> {
  const messages = limitMessages(limits);
  const zip = await openZip(file, limits);
  try {
    const budget: Budget = { used: 0, limits };
    const parts = await findParts(zip, budget);
    // refused at once when what the zip declares is already too much (a lie is caught by the counting)
    const declared = [parts.sheet, parts.sharedStrings, parts.styles].reduce(
      (sum, e) => sum + (e?.uncompressedSize ?? 0),
      budget.used,
    );
    if (declared > limits.unpackedBytes) throw tooLarge(messages.unpackedBytes);
    const dateStyles = parts.styles ? await readDateStyles(zip, parts.styles, budget) : new Uint8Array();
    const strings = parts.sharedStrings
      ? await readSharedStrings(zip, parts.sharedStrings, budget)
      : new SharedStrings();

    const ready: FileRow[] = [];
    const text = new TextCollector(limits);
    let inData = false;
    let done = false;
    let rowsSeen = 0;
    let rowNumber = 0;
    let cells: Cell[] | undefined;
    let rowChars = 0;
    let nextColumn = 0;
    // the cell being read
    let column = 0;
    let type = 'n';
    let style = 0;
    let hasValue = false;
    let inInline = false;
    let phonetic = 0;

    const valueOf = (): Cell => {
      if (!hasValue) return null;
      const s = text.text();
      switch (type) {
        case 's':
          return s.trim() === '' ? null : strings.get(Number(s));
        case 'inlineStr':
        case 'str':
          return s;
        case 'b':
          return s.trim() === '1' || s.trim() === 'true';
        case 'e':
          return null;
        case 'd': {
          const d = new Date(s.trim());
          return Number.isNaN(d.getTime()) ? null : d;
        }
        default: {
          const v = s.trim() === '' ? NaN : Number(s);
          if (!Number.isFinite(v)) return null;
          return dateStyles[style] ? excelDate(v, parts.date1904) : v;
        }
      }
    };

    const handlers: Handlers = {
      open: (name, a) => {
        if (!inData) {
          if (name === 'sheetData') inData = true;
          return;
        }
        switch (name) {
          case 'row': {
            if (++rowsSeen > limits.rows) throw new TooManyRows();
            const r = a.r === undefined ? rowNumber + 1 : Number(a.r);
            if (!Number.isInteger(r) || r < 1) throw unsupported();
            if (r > limits.rows) throw new TooManyRows();
            rowNumber = r;
            cells = [];
            rowChars = 0;
            nextColumn = 0;
            break;
          }
          case 'c':
            column = columnOf(a.r, limits) ?? nextColumn;
            if (column >= limits.columns) throw tooLarge(messages.columns);
            nextColumn = column + 1;
            type = a.t ?? 'n';
            style = a.s === undefined ? 0 : Number(a.s);
            hasValue = false;
            inInline = false;
            phonetic = 0;
            text.reset();
            break;
          case 'v':
            hasValue = true;
            text.active = true;
            break;
          case 'is':
            inInline = true;
            hasValue = true;
            break;
          case 'rPh':
            phonetic++;
            break;
          case 't':
            if (inInline && phonetic === 0) text.active = true;
            break;
        }
      },
      close: (name) => {
        if (!inData) return;
        switch (name) {
          case 'v':
          case 't':
            text.active = false;
            break;
          case 'rPh':
            phonetic--;
            break;
          case 'c': {
            if (!cells) break;
            const value = valueOf();
            if (value === null) break;
            if (typeof value === 'string') {
              rowChars += value.length;
              if (rowChars > limits.rowChars) throw tooLarge(messages.rowChars);
            }
            while (cells.length < column) cells.push(null);
            cells[column] = value;
            break;
          }
          case 'row':
            if (cells) ready.push({ row: rowNumber, cells });
            cells = undefined;
            break;
          case 'sheetData':
            inData = false;
            done = true;
            break;
        }
      },
      text: (t) => text.add(t),
    };

    const chunks = parsePart(zip, parts.sheet, budget, handlers);
    try {
      for (;;) {
        const { done: ended } = await chunks.next();
        yield* ready.splice(0);
        if (ended || done) break;
      }
    } finally {
      await chunks.return(undefined);
    }
  } finally {
    zip.file.close();
  }
}
