import {
  AppError,
  RECEIVED_FROM,
  hasCentsAtMost,
  isReceivedWhen,
  normalHeader,
  type StatementField,
  type StatementMapping,
  type StatementSource,
} from '@kodi/domain';
import { cellText, isBlank, readAmount, readDate, type CellContext } from '../../modules/files/cells.ts';
import { fileRows, type Cell, type FileKind } from '../../modules/files/file-rows.ts';

/**
 * The column layouts of the providers' merchant statement exports (docs/decisions.md, 'Collections:
 * statement presets'): for each field, the headers that name it (compared as letters and digits,
 * lowercased). A bank statement has a Credit and a Debit column instead of a signed amount.
 */
type Preset = {
  columns: Partial<Record<StatementField | 'credit' | 'debit', readonly string[]>>;
  /** rows whose status column says anything else are not money received (failed, pending) */
  status?: { headers: readonly string[]; ok: readonly string[] };
  /** what the refusal calls it: 'This does not look like {an MTN MoMo} statement' */
  name: string;
  /**
   * The columns a statement of this source has, each by the header the refusal names (issue 26): a
   * file without one of them is not one of its statements. `amount`: an amount, or a credit column.
   */
  signature: readonly { field: StatementField; header: string }[];
};

export const presets: Record<Exclude<StatementSource, 'custom'>, Preset> = {
  mtn_momo: {
    columns: {
      transaction_id: ['Id', 'Transaction Id', 'Financial Transaction Id'],
      date: ['Date', 'Transaction Date'],
      amount: ['Amount'],
      payer_phone: ['From', 'From Msisdn', 'From Account'],
      payer_name: ['From Name'],
      reference: ['Note/Message', 'Message', 'Note', 'External Id'],
    },
    status: { headers: ['Status'], ok: ['successful', 'success', 'completed'] },
    name: 'an MTN MoMo',
    signature: [
      { field: 'transaction_id', header: 'Transaction Id' },
      { field: 'date', header: 'Date' },
      { field: 'amount', header: 'Amount' },
      { field: 'payer_phone', header: 'From' },
    ],
  },
  airtel_money: {
    columns: {
      transaction_id: ['Transaction ID', 'TXN ID', 'Txn Id'],
      date: ['Transaction Date', 'Date'],
      amount: ['Amount', 'Transaction Amount'],
      payer_phone: ['Sender MSISDN', 'Sender Number', 'Sender Mobile'],
      payer_name: ['Sender Name'],
      reference: ['Reference', 'Reference Number', 'Remarks'],
      direction: ['Credit/Debit', 'Cr/Dr', 'Dr/Cr'],
    },
    status: { headers: ['Status', 'Transaction Status'], ok: ['success', 'successful', 'ts', 'completed'] },
    name: 'an Airtel Money',
    signature: [
      { field: 'transaction_id', header: 'Transaction ID' },
      { field: 'date', header: 'Transaction Date' },
      { field: 'amount', header: 'Amount' },
      { field: 'payer_phone', header: 'Sender MSISDN' },
    ],
  },
  bank: {
    columns: {
      transaction_id: [
        'Reference No',
        'Reference Number',
        'Transaction Reference',
        'Ref No',
        'Cheque/Ref No',
      ],
      date: ['Transaction Date', 'Posting Date', 'Date', 'Value Date'],
      credit: ['Credit', 'Credit Amount', 'Deposits', 'Money In'],
      debit: ['Debit', 'Debit Amount', 'Withdrawals', 'Money Out'],
      amount: ['Amount'],
      payer_name: ['Payer', 'Counterparty', 'Remitter'],
      reference: ['Description', 'Narration', 'Details', 'Particulars'],
      payer_phone: ['Phone', 'Payer Phone'],
    },
    name: 'a bank',
    signature: [
      { field: 'transaction_id', header: 'Reference No' },
      { field: 'date', header: 'Transaction Date' },
      { field: 'amount', header: 'Credit' },
    ],
  },
};

/** The presets Kodi recognises a statement by when no source is given, in the order it tries them. */
const recognisable = ['mtn_momo', 'airtel_money', 'bank'] as const;

/** The signature columns of a preset a header lacks, by their names (none: it fits). */
const missingSignature = (preset: Preset, out: Columns): string[] =>
  preset.signature
    .filter((c) =>
      c.field === 'amount'
        ? out.amount === undefined && out.credit === undefined
        : out[c.field] === undefined,
    )
    .map((c) => c.header);

const quotedList = (headers: readonly string[]): string => {
  const q = headers.map((h) => `"${h}"`);
  return q.length === 1
    ? `${q[0] ?? ''} column`
    : `${q.slice(0, -1).join(', ')} or ${q.at(-1) ?? ''} columns`;
};

/** A header's columns by a preset's headers (no mapping). */
const presetColumns = (names: readonly string[], preset: Preset): Columns => {
  const out: Columns = {};
  for (const [f, headers] of Object.entries(preset.columns)) {
    const i = headers.map((h) => names.indexOf(normalHeader(h))).find((n) => n !== -1);
    if (i !== undefined) out[f as keyof Columns] = i;
  }
  return out;
};

export const NOT_RECOGNISED =
  'Kodi does not recognise this statement (MTN MoMo, Airtel Money or a bank statement): choose its source, or map its columns.';

/**
 * The source of a statement whose upload names none, by the columns of its header row (the first of
 * its first rows that fits a preset whole): the preset whose columns it has, the one it has most of
 * when several fit. Refused when none fits.
 */
export const recogniseSource = async (
  path: string,
  kind: FileKind,
): Promise<Exclude<StatementSource, 'custom'>> => {
  let rows = 0;
  for await (const { cells } of fileRows(path, kind)) {
    if (cells.every(isBlank)) continue;
    if (++rows > 16) break;
    const names = cells.map((c) => normalHeader(cellText(c)));
    const fits = recognisable
      .map((source) => {
        const cols = presetColumns(names, presets[source]);
        return {
          source,
          fits: missingSignature(presets[source], cols).length === 0,
          score: Object.keys(cols).length,
        };
      })
      .filter((f) => f.fits)
      .sort((a, b) => b.score - a.score);
    if (fits[0]) return fits[0].source;
  }
  throw invalid('source', NOT_RECOGNISED);
};

/** A line as read from the file. */
export type ReadLine = {
  row: number;
  transaction_id: string;
  date: string;
  /** positive */
  amount: number;
  direction: 'in' | 'out';
  payer_phone: string | null;
  payer_name: string | null;
  reference: string | null;
};

const invalid = (field: string, message: string) =>
  new AppError('validation_failed', message, { [field]: message });

const OUT = new Set(['out', 'dr', 'debit', 'd', 'withdrawal', 'sent', 'paid']);
const IN = new Set(['in', 'cr', 'credit', 'c', 'deposit', 'received']);

type Columns = Partial<Record<StatementField | 'credit' | 'debit' | 'status', number>>;

/** Which column holds each field: the mapping sent first, then the preset's headers. */
const columnsOf = (
  header: readonly string[],
  source: StatementSource,
  mapping: StatementMapping | undefined,
) => {
  const names = header.map((h) => normalHeader(h));
  const out: Columns = {};
  if (mapping) {
    for (const [column, f] of Object.entries(mapping)) {
      const i = names.indexOf(normalHeader(column));
      if (i === -1) throw invalid('mapping', `The file has no column '${column}'.`);
      out[f] = i;
    }
  }
  const preset = source === 'custom' ? undefined : presets[source];
  // a statement of a source has its columns (issue 26): one that lacks them is some other statement
  if (preset && !mapping) {
    const missing = missingSignature(preset, presetColumns(names, preset));
    if (missing.length > 0)
      throw invalid('file', `This does not look like ${preset.name} statement: no ${quotedList(missing)}.`);
  }
  for (const [f, headers] of Object.entries(preset?.columns ?? {})) {
    const field = f as keyof Columns;
    if (out[field] !== undefined) continue;
    const i = headers.map((h) => names.indexOf(normalHeader(h))).find((n) => n !== -1);
    if (i !== undefined) out[field] = i;
  }
  if (preset?.status && out.status === undefined) {
    const i = preset.status.headers.map((h) => names.indexOf(normalHeader(h))).find((n) => n !== -1);
    if (i !== undefined) out.status = i;
  }
  const missing = ['transaction_id', 'date'].filter((f) => out[f as StatementField] === undefined);
  if (out.amount === undefined && out.credit === undefined) missing.push('amount');
  if (missing.length > 0) {
    const message =
      source === 'custom'
        ? `Map a column to each of: ${missing.join(', ')}.`
        : `This is not a ${source} statement: no column for ${missing.join(', ')} (send a mapping).`;
    throw invalid(source === 'custom' ? 'mapping' : 'file', message);
  }
  return out;
};

/**
 * The lines of a statement file, read one row at a time (lib/file-rows.ts, as imports read): the
 * header first (its row may follow a few title rows: the first row naming a transaction id and a
 * date is the header), then each row made into a line. Rows whose status is not a success, blank
 * rows and rows without an amount are skipped; a row that cannot be read is refused with its number.
 */
export async function* statementLines(
  path: string,
  kind: FileKind,
  source: StatementSource,
  mapping: StatementMapping | undefined,
  ctx: CellContext,
): AsyncGenerator<ReadLine> {
  let cols: Columns | undefined;
  let titleRows = 0;
  let notHeader: unknown;
  const preset = source === 'custom' ? undefined : presets[source];
  const okStatus = new Set(preset?.status?.ok ?? []);
  for await (const { row, cells } of fileRows(path, kind)) {
    if (!cols) {
      if (cells.every(isBlank)) continue;
      try {
        cols = columnsOf(cells.map(cellText), source, mapping);
      } catch (err) {
        // a statement's export may start with a few title rows (account, period) before its header
        notHeader ??= err;
        if (++titleRows > 15 || mapping || source === 'custom') throw notHeader;
      }
      continue;
    }
    if (cells.every(isBlank)) continue;
    const at = (f: keyof Columns): Cell => (cols?.[f] === undefined ? null : (cells[cols[f] ?? 0] ?? null));
    const text = (f: keyof Columns) => {
      const s = cellText(at(f));
      return s === '' ? null : s;
    };
    if (cols.status !== undefined && okStatus.size > 0) {
      const status = (text('status') ?? '').toLowerCase();
      if (status !== '' && !okStatus.has(status)) continue;
    }
    const bad = (message: string) => invalid('file', `Row ${row}: ${message}`);
    const id = text('transaction_id');
    if (!id) throw bad('the transaction id is missing.');
    if (id.length > 100) throw bad('the transaction id is longer than 100 characters.');
    const date = readDate(at('date'), ctx);
    if ('error' in date) throw bad(date.error);
    // a real date, but not one money came in on: refused, never stored (a year 9999 line would be
    // matched against rent counted up to it)
    if (!isReceivedWhen(String(date.value)))
      throw bad(`the date ${String(date.value)} is before ${RECEIVED_FROM} or more than a day ahead.`);
    let amount: number;
    let direction: 'in' | 'out';
    const signed = (f: keyof Columns) => {
      const v = readAmount(at(f), ctx);
      if ('error' in v) throw bad(v.error);
      return Number(v.value);
    };
    if (cols.amount !== undefined && !isBlank(at('amount'))) {
      amount = signed('amount');
      direction = amount < 0 ? 'out' : 'in';
    } else if (cols.credit !== undefined && !isBlank(at('credit'))) {
      amount = signed('credit');
      direction = 'in';
    } else if (cols.debit !== undefined && !isBlank(at('debit'))) {
      amount = -Math.abs(signed('debit'));
      direction = 'out';
    } else continue;
    const dir = text('direction')?.toLowerCase();
    if (dir && OUT.has(dir)) direction = 'out';
    else if (dir && IN.has(dir)) direction = amount < 0 ? 'out' : 'in';
    if (amount === 0) continue;
    if (!hasCentsAtMost(amount))
      throw bad(
        `the amount ${cellText(at('amount') ?? at('credit') ?? at('debit'))} has more than 2 decimals.`,
      );
    if (Math.abs(amount) > 999_999_999_999.99) throw bad('the amount is too large.');
    yield {
      row,
      transaction_id: id,
      date: String(date.value),
      amount: Math.abs(amount),
      direction,
      payer_phone: text('payer_phone')?.slice(0, 40) ?? null,
      payer_name: text('payer_name')?.slice(0, 200) ?? null,
      reference: text('reference')?.slice(0, 300) ?? null,
    };
  }
  if (!cols) throw notHeader ?? invalid('file', 'The file has no header row.');
}
