import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import { parse } from 'csv-parse';
import iconv from 'iconv-lite';
import { AppError, MAX_IMPORT_ROWS } from '@kodi/domain';
import { unneutralised } from '../../platform/csv.ts';
import {
  SPREADSHEET_LIMITS,
  TooManyRows,
  xlsxRows as readXlsx,
  type SpreadsheetLimits,
} from './xlsx-rows.ts';

/** A cell as read: CSV cells are text; xlsx cells keep their type (numbers, dates, booleans). */
export type Cell = string | number | boolean | Date | null;
/** A row of the file: its number in the file (the header is row 1) and its cells. */
export type FileRow = { row: number; cells: Cell[] };

export type FileKind = 'csv' | 'xlsx';

const unsupported = () => new AppError('unsupported_file');

const startOf = async (path: string, bytes: number): Promise<Buffer> => {
  const handle = await fs.promises.open(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
};

/** Signatures of files that are neither CSV nor xlsx (PDF, images, old .xls and .doc, gzip). */
const BINARY = ['%PDF', '\x89PNG', '\xff\xd8\xff', 'GIF8', '\xd0\xcf\x11\xe0', '\x1f\x8b'];

/**
 * What the file is, by its bytes (never its name): a zip is an xlsx workbook (checked when it is
 * read), text is CSV; anything else is `400 unsupported_file`.
 */
export const sniffFile = async (path: string): Promise<FileKind> => {
  const head = await startOf(path, 8192);
  if (head.length === 0)
    throw new AppError('validation_failed', 'The file is empty.', { file: 'The file is empty.' });
  const latin = head.subarray(0, 8).toString('latin1');
  if (latin.startsWith('PK\x03\x04')) return 'xlsx';
  if (BINARY.some((sig) => latin.startsWith(sig))) throw unsupported();
  // UTF-16 text (Excel's "Unicode text") has NULs between its letters; other text has none
  const utf16 = head[0] === 0xff && head[1] === 0xfe;
  const bigEndian = head[0] === 0xfe && head[1] === 0xff;
  if (!utf16 && !bigEndian) {
    let controls = 0;
    for (const b of head) {
      if (b === 0) throw unsupported();
      if (b < 9 || (b > 13 && b < 32)) controls++;
    }
    if (controls > head.length / 100) throw unsupported();
  }
  return 'csv';
};

/** The text encoding of a CSV file: a BOM's, else UTF-8 when every byte sequence is valid, else Windows-1252. */
export const detectEncoding = async (path: string): Promise<string> => {
  const head = await startOf(path, 4);
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  // checked on the bytes (no text is made): a sequence cut by a chunk's end is checked with the next
  let carry = Buffer.alloc(0);
  for await (const chunk of fs.createReadStream(path, { highWaterMark: 256 * 1024 })) {
    const bytes = carry.length > 0 ? Buffer.concat([carry, chunk as Buffer]) : (chunk as Buffer);
    const end = completeUtf8(bytes);
    if (!isUtf8(bytes.subarray(0, end))) return 'windows-1252';
    carry = Buffer.from(bytes.subarray(end));
  }
  return carry.length === 0 || isUtf8(carry) ? 'utf-8' : 'windows-1252';
};

/** Where the last whole UTF-8 sequence of these bytes ends (a multi-byte one may be cut off). */
const completeUtf8 = (bytes: Buffer): number => {
  for (let i = bytes.length - 1; i >= Math.max(0, bytes.length - 4); i--) {
    const b = bytes[i] ?? 0;
    if (b < 0x80) return bytes.length;
    if (b >= 0xc0) {
      const size = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
      return i + size <= bytes.length ? bytes.length : i;
    }
  }
  return bytes.length;
};

const DELIMITERS = [',', ';', '\t', '|'] as const;

/** The separator of a CSV file: of `,` `;` tab and `|`, the one its header line holds most of (outside quotes). */
export const detectDelimiter = (firstLine: string): string => {
  const counts = new Map<string, number>(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const ch of firstLine) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && counts.has(ch)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  }
  let best = ',';
  let most = 0;
  for (const [d, n] of counts)
    if (n > most) {
      best = d;
      most = n;
    }
  return best;
};

const firstLineOf = async (path: string, encoding: string): Promise<string> => {
  const text = iconv.decode(await startOf(path, 64 * 1024), encoding);
  const end = text.search(/\r?\n/);
  return (end === -1 ? text : text.slice(0, end)).replace(/^\uFEFF/, '');
};

/** A CSV file's rows, streamed: its encoding and separator found first, then one record at a time. */
async function* csvRows(path: string): AsyncGenerator<FileRow> {
  const encoding = await detectEncoding(path);
  const delimiter = detectDelimiter(await firstLineOf(path, encoding));
  const options = {
    delimiter,
    bom: true,
    relax_column_count: true,
    skip_empty_lines: false,
    max_record_size: 1024 * 1024,
  };
  const bytes = fs.createReadStream(path, { highWaterMark: 64 * 1024 });
  // UTF-8 goes to the parser as bytes (it decodes them); other encodings through iconv-lite
  const parser =
    encoding === 'utf-8'
      ? bytes.pipe(parse({ ...options, encoding: 'utf8' }))
      : bytes.pipe(iconv.decodeStream(encoding)).pipe(parse(options));
  let row = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      row++;
      // a cell Kodi's CSV writer guarded ('=…) reads as it was before
      for (let i = 0; i < record.length; i++) record[i] = unneutralised(record[i] ?? '');
      yield { row, cells: record };
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const message = err instanceof Error ? err.message.replace(/^Invalid Record Length: /, '') : String(err);
    const lines = (err as { lines?: number }).lines;
    const where = `row ${row + 1}${lines ? ` (line ${lines})` : ''}`;
    throw new AppError('validation_failed', `The CSV file cannot be read at ${where}: ${message}`, {
      file: `Unreadable at ${where}.`,
    });
  } finally {
    parser.destroy();
  }
}

/** The first worksheet's rows of an xlsx workbook, streamed within the limits of xlsx-rows.ts. */
async function* xlsxRows(path: string, limits: SpreadsheetLimits): AsyncGenerator<FileRow> {
  try {
    yield* readXlsx(path, limits);
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (err instanceof TooManyRows) throw tooManyRows();
    throw unsupported();
  }
}

/**
 * The rows of a CSV or xlsx file one at a time (never the whole file in memory): the header first.
 * More than `MAX_IMPORT_ROWS` rows below the header is refused; an xlsx workbook is read within
 * `limits` (what it unpacks to: `413 file_too_large` past them).
 */
export async function* fileRows(
  path: string,
  kind: FileKind,
  limits: SpreadsheetLimits = SPREADSHEET_LIMITS,
): AsyncGenerator<FileRow> {
  let n = 0;
  for await (const row of kind === 'csv' ? csvRows(path) : xlsxRows(path, limits)) {
    if (++n > MAX_IMPORT_ROWS + 1 + 1000 && row.cells.some((c) => c !== null && c !== '')) {
      // far past the limit even counting a thousand blank rows: stop reading
      throw tooManyRows();
    }
    yield row;
  }
}

export const tooManyRows = () =>
  new AppError(
    'validation_failed',
    `The file has more than ${MAX_IMPORT_ROWS.toLocaleString('en-US')} rows.`,
    {
      file: `At most ${MAX_IMPORT_ROWS.toLocaleString('en-US')} rows.`,
    },
  );
