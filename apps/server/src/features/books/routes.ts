import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { AppError, accountLabel, formatDate, journalSourceLabels } from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { execRows } from '../../db/client.ts';
import { currentUser } from '../../plugins/guard.ts';
import { recordIdParams } from '../../crud/record-route.ts';
import { forEachBatch, searchQuery, sendTabular } from '../../crud/export.ts';
import { pdfWriter, xlsxWriter, type TabularColumn } from '../../crud/tabular.ts';
import { requestWords, type ExportWords } from '../../plugins/i18n.ts';
import { companyMoney } from '../../modules/companies/company.ts';
import { pagedList, searchWords, sendTotal, sortOrder } from '../../crud/paged-list.ts';
import { empty, errors, file, json, named, PDF, XLSX } from '../../plugins/openapi.ts';
import { books, companyDay, journalSources, toCents, type JournalSource } from '../../modules/books/post.ts';
import { closeBooks, latestClosing, ledgerAccounts, listAccounts } from '../../modules/books/accounts.ts';

const TYPES = ['asset', 'liability', 'equity', 'income', 'expense'] as const;
const day = () => z.iso.date();
const MONEY = /^\d{1,12}(\.\d{1,2})?$/;

const LedgerAccount = named(
  z.object({
    id: z.int(),
    code: z.string(),
    name: z.string(),
    type: z.enum(TYPES),
    role: z.string().nullable(),
    is_active: z.boolean(),
    balance: z
      .string()
      .describe('Exact decimal: debit − credit for assets and expenses, credit − debit otherwise'),
  }),
  'LedgerAccount',
);

const accountBody = z.strictObject({
  code: z.string().trim().min(1, 'Required').max(20, 'Maximum 20 characters.'),
  name: z.string().trim().min(1, 'Required').max(255, 'Maximum 255 characters.'),
  type: z.enum(TYPES, 'Choose asset, liability, equity, income or expense.'),
  is_active: z.boolean().default(true),
  version: z.unknown().optional(),
  id: z.unknown().optional(),
  role: z.unknown().optional(),
  balance: z.unknown().optional(),
});

const JournalLine = z.object({
  account_id: z.int(),
  account_code: z.string(),
  account_name: z.string(),
  account_role: z
    .string()
    .nullable()
    .describe("A default account's role (its name in the reader's language while not renamed)"),
  debit: z.string(),
  credit: z.string(),
  property_id: z.int().nullable(),
  unit_id: z.int().nullable(),
  occupancy_id: z.int().nullable(),
  tenant_id: z.int().nullable(),
  owner_id: z.int().nullable().describe('The owner whose funds the line moves (Owner funds held)'),
});
const JournalEntry = named(
  z.object({
    id: z.int(),
    date: day(),
    memo: z.string(),
    source: z.string(),
    source_id: z.int().nullable(),
    reverses_id: z.int().nullable(),
    lines: z.array(JournalLine),
  }),
  'JournalEntry',
);

const id = () => z.coerce.number().int().positive().max(2147483647).optional();
const journalQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(500, 'At most 500 rows a page.').default(25),
  q: searchQuery,
  sort: z.enum(['date', '-date']).optional(),
  from: day().optional(),
  to: day().optional(),
  account_id: id(),
  property_id: id(),
  occupancy_id: id(),
  tenant_id: id(),
  owner_id: id(),
  source: z.enum(journalSources as readonly [JournalSource, ...JournalSource[]]).optional(),
});

const amount = z.union([z.number().nonnegative(), z.string().trim()]).optional();
const manualBody = z.strictObject({
  date: day(),
  memo: z.string().trim().min(1, 'Required').max(1000, 'Maximum 1000 characters.'),
  lines: z
    .array(z.strictObject({ account_id: z.coerce.number().int().positive(), debit: amount, credit: amount }))
    .min(2, 'An entry has at least two lines.')
    .max(200),
});

const Closing = named(
  z.object({ through: day().nullable(), closed_at: z.string().nullable(), user_id: z.int().nullable() }),
  'BooksClosing',
);

const ENTRY_COLUMNS = sql`t.id, to_char(t.date, 'YYYY-MM-DD') AS date, t.memo, t.source, t.source_id, t.reverses_id,
  (SELECT coalesce(json_agg(json_build_object(
            'account_id', l.account_id, 'account_code', a.code, 'account_name', a.name, 'account_role', a.role,
            'debit', l.debit::text, 'credit', l.credit::text, 'property_id', l.property_id, 'unit_id', l.unit_id,
            'occupancy_id', l.occupancy_id, 'tenant_id', l.tenant_id, 'owner_id', l.owner_id) ORDER BY l.id), '[]'::json)
     FROM journal_lines l JOIN ledger_accounts a ON a.company_id = l.company_id AND a.id = l.account_id
    WHERE l.company_id = t.company_id AND l.entry_id = t.id) AS lines`;

/** The journal's filters as conditions over its entries `t` (the list and its export read the same). */
const journalWhere = (
  companyId: number,
  q: Omit<z.infer<typeof journalQuery>, 'page' | 'page_size'>,
): SQL[] => {
  const where: SQL[] = [sql`t.company_id = ${companyId}`];
  if (q.from) where.push(sql`t.date >= ${q.from}::date`);
  if (q.to) where.push(sql`t.date <= ${q.to}::date`);
  if (q.source) where.push(sql`t.source = ${q.source}`);
  const line: SQL[] = [];
  if (q.account_id) line.push(sql`l.account_id = ${q.account_id}`);
  if (q.property_id) line.push(sql`l.property_id = ${q.property_id}`);
  if (q.occupancy_id) line.push(sql`l.occupancy_id = ${q.occupancy_id}`);
  if (q.tenant_id) line.push(sql`l.tenant_id = ${q.tenant_id}`);
  if (q.owner_id) line.push(sql`l.owner_id = ${q.owner_id}`);
  if (line.length > 0)
    where.push(
      sql`EXISTS (SELECT 1 FROM journal_lines l WHERE l.company_id = t.company_id AND l.entry_id = t.id
                    AND ${sql.join(line, sql` AND `)})`,
    );
  const words = searchWords(q.q);
  if (words) where.push(sql`strpos(lower(t.memo), lower(${words})) > 0`);
  return where;
};

/** The journal's export: a row a line. */
const JOURNAL_COLUMNS: TabularColumn[] = [
  { key: 'date', label: 'Date', kind: 'date', text: 'books.date' },
  { key: 'entry', label: 'Entry', kind: 'integer', text: 'doc.export.entry' },
  { key: 'memo', label: 'Memo', kind: 'text', text: 'books.memo' },
  { key: 'source', label: 'Source', kind: 'text', text: 'books.source' },
  { key: 'account_code', label: 'Account', kind: 'text', text: 'books.account' },
  { key: 'account_name', label: 'Account name', kind: 'text', text: 'doc.export.accountName' },
  { key: 'debit', label: 'Debit', kind: 'money', text: 'books.debit' },
  { key: 'credit', label: 'Credit', kind: 'money', text: 'books.credit' },
];

/**
 * A line's source in the export, in the reader's language: the cash flow's words for a source it
 * names (`reports.item.<source>`), else the journal page's (`books.source.<source>`); in English
 * the cash flow's words, or the source as stored.
 */
const sourceText = (source: string, words: ExportWords): string => {
  const english = journalSourceLabels[source as JournalSource];
  return english === undefined
    ? words.td(`books.source.${source}`, source)
    : words.td(`reports.item.${source}`, english);
};

type EntryRow = z.infer<typeof JournalEntry>;
const presentEntry = (r: Record<string, unknown>): EntryRow => ({
  id: Number(r.id),
  date: String(r.date),
  memo: String(r.memo),
  source: String(r.source),
  source_id: r.source_id === null ? null : Number(r.source_id),
  reverses_id: r.reverses_id === null ? null : Number(r.reverses_id),
  lines: (typeof r.lines === 'string' ? JSON.parse(r.lines) : r.lines) as EntryRow['lines'],
});

const invalid = (field: string, message: string) =>
  new AppError('validation_failed', message, { [field]: message });

/**
 * The books' routes (issue 25): the chart of accounts (read by any staff, changed by admins and
 * company admins), the journal (a paged list, one entry, a manual entry) and the close of a period.
 */
export const booksRoutes = (app: FastifyInstance, ctx: AppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database } = ctx;

  r.get(
    '/ledger-accounts',
    {
      config: { access: 'anyRole' },
      schema: {
        operationId: 'listLedgerAccounts',
        tags: ['books'],
        summary: "The company's chart of accounts by code, each with its balance",
        response: { 200: json(z.array(LedgerAccount), 'The accounts') },
      },
    },
    async (request) => listAccounts(database.db, currentUser(request).company_id),
  );

  r.post(
    '/ledger-accounts',
    {
      config: { access: 'companyAdmin' },
      schema: {
        operationId: 'createLedgerAccount',
        tags: ['books'],
        summary: 'Add an account to the chart',
        body: accountBody,
        response: { 201: json(LedgerAccount, 'The account'), ...errors(409) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { code, name, type, is_active } = request.body;
      const a = await database.db.transaction((tx) =>
        ledgerAccounts.create(tx, user.company_id, { code, name, type, is_active }),
      );
      return reply.code(201).send(a);
    },
  );

  r.put(
    '/ledger-accounts/:id',
    {
      config: { access: 'companyAdmin' },
      schema: {
        operationId: 'updateLedgerAccount',
        tags: ['books'],
        summary: 'Change an account: its code, name, type (while it has no entries) or whether it is active',
        params: recordIdParams,
        body: accountBody,
        response: { 200: json(LedgerAccount, 'The account'), ...errors(404, 409) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { code, name, type, is_active } = request.body;
      return database.db.transaction((tx) =>
        ledgerAccounts.update(tx, user.company_id, request.params.id, { code, name, type, is_active }),
      );
    },
  );

  r.delete(
    '/ledger-accounts/:id',
    {
      config: { access: 'companyAdmin' },
      schema: {
        operationId: 'deleteLedgerAccount',
        tags: ['books'],
        summary: 'Delete an account that was never used (a used or default one: 409 in_use)',
        params: recordIdParams,
        response: { 204: empty('Deleted'), ...errors(404, 409) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      await database.db.transaction((tx) => ledgerAccounts.delete(tx, user.company_id, request.params.id));
      return reply.code(204).send();
    },
  );

  r.get(
    '/journal',
    {
      config: { access: 'anyRole' },
      schema: {
        operationId: 'listJournal',
        tags: ['books'],
        summary: 'The journal: posted entries with their lines, newest first',
        querystring: journalQuery,
        response: { 200: json(z.array(JournalEntry), 'A page of entries (X-Total-Count: how many in all)') },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const q = request.query;
      const where = journalWhere(user.company_id, q);
      const page = await pagedList(
        database,
        {
          table: 'journal_entries',
          key: ['company_id', 'id'],
          where,
          filtered: where.length > 1,
          order: sortOrder(q.sort ?? '-date', { date: 't.date' }, []),
          columns: ENTRY_COLUMNS,
        },
        q,
      );
      sendTotal(reply, page);
      return page.rows.map(presentEntry);
    },
  );

  r.get(
    '/journal/export',
    {
      config: { access: 'anyRole' },
      schema: {
        operationId: 'exportJournal',
        tags: ['books'],
        summary: 'The journal (same filters as the list) as xlsx or pdf: a row a line, oldest first',
        querystring: journalQuery.omit({ page: true, page_size: true, sort: true }).extend({
          fmt: z.enum(['xlsx', 'pdf']),
        }),
        response: { 200: file('The journal (named in Content-Disposition)', XLSX, PDF) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const q = request.query;
      const where = journalWhere(user.company_id, q);
      const money = await companyMoney(database, user.company_id);
      const words = requestWords(request);
      const title = words.td('books.journalTitle', 'Journal');
      const writer = (q.fmt === 'xlsx' ? xlsxWriter : pdfWriter)(title, JOURNAL_COLUMNS, money, words);
      const name = `journal_${q.from ?? 'start'}_${q.to ?? (await companyDay(database.db, user.company_id))}.${q.fmt}`;
      const query = sql`SELECT t.id AS entry, to_char(t.date, 'YYYY-MM-DD') AS date, t.memo, t.source,
                               a.code AS account_code, a.name AS account_name, a.role AS account_role, l.debit::text AS debit, l.credit::text AS credit
                          FROM journal_entries t
                          JOIN journal_lines l ON l.company_id = t.company_id AND l.entry_id = t.id
                          JOIN ledger_accounts a ON a.company_id = l.company_id AND a.id = l.account_id
                         WHERE ${sql.join(where, sql` AND `)}
                         ORDER BY t.date, t.id, l.id`;
      return sendTabular(reply, request, name, writer, (w) =>
        forEachBatch(database.db, query, (rows) =>
          w.write(
            rows.map(({ account_role, ...r }) => ({
              ...r,
              source: sourceText(String(r.source), words),
              // a default account not renamed in the reader's language, like the web's (issue 30)
              account_name: accountLabel(
                { name: String(r.account_name), role: account_role === null ? null : String(account_role) },
                words.td,
              ),
            })),
          ),
        ),
      );
    },
  );

  r.get(
    '/journal/:id',
    {
      config: { access: 'anyRole' },
      schema: {
        operationId: 'getJournalEntry',
        tags: ['books'],
        summary: 'One journal entry with its lines',
        params: recordIdParams,
        response: { 200: json(JournalEntry, 'The entry'), ...errors(404) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const rows = await execRows<Record<string, unknown>>(
        database.db,
        sql`SELECT ${ENTRY_COLUMNS} FROM journal_entries t WHERE t.company_id = ${user.company_id} AND t.id = ${request.params.id}`,
      );
      if (!rows[0]) throw new AppError('not_found', 'Journal entry not found.');
      return presentEntry(rows[0]);
    },
  );

  r.post(
    '/journal',
    {
      config: { access: 'companyAdmin' },
      schema: {
        operationId: 'createJournalEntry',
        tags: ['books'],
        summary: 'A manual entry: at least two lines on active accounts, debits equal to credits',
        body: manualBody,
        response: { 201: json(JournalEntry, 'The entry posted'), ...errors(409) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const b = request.body;
      const lines = b.lines.map((l, i) => {
        const text = (v: string | number | undefined) => (v === undefined || v === '' ? '0' : String(v));
        const debit = text(l.debit);
        const credit = text(l.credit);
        if (!MONEY.test(debit) || !MONEY.test(credit))
          throw invalid(`lines.${i}`, `Line ${i + 1}: amounts are numbers with at most two decimals.`);
        if ((toCents(debit) === 0n) === (toCents(credit) === 0n))
          throw invalid(`lines.${i}`, `Line ${i + 1}: give either a debit or a credit.`);
        return { account_id: l.account_id, debit, credit };
      });
      const d = lines.reduce((s, l) => s + toCents(l.debit), 0n);
      const c = lines.reduce((s, l) => s + toCents(l.credit), 0n);
      if (d !== c) throw invalid('lines', 'The entry does not balance: its debits must equal its credits.');
      const entryId = await database.db.transaction(async (tx) => {
        const ids = [...new Set(lines.map((l) => l.account_id))];
        const active = await execRows<{ id: number }>(
          tx,
          sql`SELECT id FROM ledger_accounts WHERE company_id = ${user.company_id} AND is_active
                AND id = ANY(${`{${ids.join(',')}}`}::int[])`,
        );
        if (active.length !== ids.length)
          throw invalid('lines', 'Every line must name an active account of the company.');
        const [posted] = await books.post(tx, user.company_id, [
          { date: b.date, memo: b.memo, source: 'manual', user_id: user.id, lines },
        ]);
        return posted;
      });
      const rows = await execRows<Record<string, unknown>>(
        database.db,
        sql`SELECT ${ENTRY_COLUMNS} FROM journal_entries t WHERE t.company_id = ${user.company_id} AND t.id = ${entryId ?? 0}`,
      );
      return reply.code(201).send(presentEntry(rows[0] ?? {}));
    },
  );

  r.get(
    '/books/close',
    {
      config: { access: 'anyRole' },
      schema: {
        operationId: 'getBooksClose',
        tags: ['books'],
        summary: 'The day the books are closed through (null: never closed)',
        response: { 200: json(Closing, 'The close') },
      },
    },
    async (request) => latestClosing(database.db, currentUser(request).company_id),
  );

  r.post(
    '/books/close',
    {
      config: { access: 'companyAdmin' },
      schema: {
        operationId: 'closeBooks',
        tags: ['books'],
        summary:
          'Close the books through a day: nothing is posted, voided or adjusted on or before it afterwards',
        body: z.strictObject({ through: day() }),
        response: { 200: json(Closing, 'The close') },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { through } = request.body;
      return database.db.transaction(async (tx) => {
        if (through > (await companyDay(tx, user.company_id)))
          throw invalid('through', 'The books can be closed through today at the latest.');
        const current = await books.closedThrough(tx, user.company_id);
        if (current && through < current)
          throw invalid('through', `The books are closed through ${formatDate(current)} already.`);
        return closeBooks(tx, user.company_id, through, user.id);
      });
    },
  );
};
