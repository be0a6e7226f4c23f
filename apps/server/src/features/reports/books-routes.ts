import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, accountLabel, formatDate } from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { currentUser } from '../../plugins/guard.ts';
import { companyMoney } from '../../modules/companies/company.ts';
import { companyDay } from '../../modules/books/post.ts';
import { ensureProperty, propertyQuery } from '../../modules/properties/property.ts';
import { pdfWriter, xlsxWriter, type TabularColumn } from '../../crud/tabular.ts';
import { sendTabular } from '../../crud/export.ts';
import { errors, file, json, named, PDF, XLSX } from '../../plugins/openapi.ts';
import { requestWords, type ExportWords } from '../../plugins/i18n.ts';
import {
  EARLIER_YEARS,
  YEAR_RESULT,
  balanceSheet,
  generalLedger,
  trialBalance,
  type GeneralLedger,
} from './books-reports.ts';

const TYPES = ['asset', 'liability', 'equity', 'income', 'expense'] as const;
const day = () => z.iso.date('Use a day as YYYY-MM-DD.');
const money = () => z.string().describe('Exact decimal text');
const fmtQuery = z.object({ fmt: z.enum(['xlsx', 'pdf']) });

const asOfQuery = z.object({ as_of: day().optional() }).and(propertyQuery);
const ledgerQuery = z
  .object({
    account_id: z.coerce.number().int().positive().max(2147483647),
    from: day().optional(),
    to: day().optional(),
    page: z.coerce.number().int().min(1).max(1_000_000).default(1),
    page_size: z.coerce.number().int().min(1).max(500, 'At most 500 lines a page.').default(100),
  })
  .and(propertyQuery);

const TrialBalance = named(
  z.object({
    as_of: z.iso.date(),
    property_id: z.int().nullable(),
    accounts: z.array(
      z.object({
        id: z.int(),
        code: z.string(),
        name: z.string(),
        type: z.enum(TYPES),
        role: z.string().nullable().describe("A default account's role"),
        debit: money(),
        credit: money(),
      }),
    ),
    total_debit: money(),
    total_credit: money(),
  }),
  'TrialBalance',
);

const GeneralLedgerSchema = named(
  z.object({
    account: z.object({
      id: z.int(),
      code: z.string(),
      name: z.string(),
      type: z.enum(TYPES),
      role: z.string().nullable().describe("A default account's role"),
    }),
    from: z.iso.date(),
    to: z.iso.date(),
    property_id: z.int().nullable(),
    opening_balance: money(),
    total_debit: money(),
    total_credit: money(),
    closing_balance: money(),
    page: z.int(),
    page_size: z.int(),
    total: z.int().describe('How many lines the range holds'),
    lines: z.array(
      z.object({
        entry_id: z.int(),
        line_id: z.int(),
        date: z.iso.date(),
        memo: z.string(),
        source: z.string(),
        source_id: z.int().nullable(),
        debit: money(),
        credit: money(),
        balance: money().describe('The running balance after this line'),
        property_id: z.int().nullable(),
        unit_id: z.int().nullable(),
        occupancy_id: z.int().nullable(),
        tenant_id: z.int().nullable(),
      }),
    ),
  }),
  'GeneralLedger',
);

const SheetLine = z.object({
  id: z.int().nullable(),
  code: z.string().nullable(),
  name: z.string(),
  role: z.string().nullable().describe("A default account's role (null: the company's own, a computed line)"),
  balance: money(),
});
const BalanceSheet = named(
  z.object({
    as_of: z.iso.date(),
    property_id: z.int().nullable(),
    year_start: z.iso.date(),
    assets: z.array(SheetLine),
    total_assets: money(),
    liabilities: z.array(SheetLine),
    total_liabilities: money(),
    equity: z.array(SheetLine),
    retained_result: money(),
    year_result: money(),
    total_equity: money(),
    total_liabilities_and_equity: money(),
  }),
  'BalanceSheet',
);

/** A column: its key, English heading and the catalogue key of that heading (`reports.<text>`). */
const text = (key: string, label: string, heading: string): TabularColumn => ({
  key,
  label,
  kind: 'text',
  text: `reports.${heading}`,
});
const cash = (key: string, label: string, heading: string): TabularColumn => ({
  key,
  label,
  kind: 'money',
  text: `reports.${heading}`,
});

/** A day in a title: as it is in English (YYYY-MM-DD), else in the reader's way. */
const dayText = (day: string, words: ExportWords) => formatDate(day, words.language);

/** An account's name in the reader's language while a default account's own (the web's account-label.ts). */
const nameOf = (a: { name: string; role?: string | null }, words: ExportWords) => accountLabel(a, words.td);

/**
 * The reports read from the journal (issue 25): `GET /reports/trial-balance`,
 * `/reports/general-ledger` and `/reports/balance-sheet`, each of the company or one property, with
 * xlsx and pdf exports. Any staff of the company reads them; another company's account or property: 404.
 */
export const booksReportRoutes = (app: FastifyInstance, ctx: AppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database } = ctx;

  const scope = async (
    companyId: number,
    q: { property_id?: number | undefined; as_of?: string | undefined },
  ) => {
    if (q.property_id !== undefined) await ensureProperty(database.db, companyId, q.property_id);
    return { asOf: q.as_of ?? (await companyDay(database.db, companyId)), propertyId: q.property_id };
  };

  const ledgerOf = async (
    companyId: number,
    q: z.infer<typeof ledgerQuery>,
    all = false,
  ): Promise<GeneralLedger> => {
    if (q.property_id !== undefined) await ensureProperty(database.db, companyId, q.property_id);
    const to = q.to ?? (await companyDay(database.db, companyId));
    const from = q.from ?? `${to.slice(0, 4)}-01-01`;
    if (from > to)
      throw new AppError('validation_failed', 'The start day must not be after the end day.', {
        from: 'After the end day.',
      });
    return generalLedger(database.db, companyId, {
      account_id: q.account_id,
      from,
      to,
      ...(q.property_id === undefined ? {} : { property_id: q.property_id }),
      page: all ? 1 : q.page,
      page_size: all ? 1_000_000 : q.page_size,
    });
  };

  const exportRoute = (path: string, name: string, summary: string, query: z.ZodType) => ({
    config: { access: 'anyRole' as const },
    schema: {
      operationId: `export${name}`,
      tags: ['reports'],
      summary,
      querystring: query,
      response: { 200: file('The report (named in Content-Disposition)', XLSX, PDF), ...errors(404) },
    },
    path,
  });

  r.get(
    '/reports/trial-balance',
    {
      config: { access: 'anyRole' },
      schema: {
        operationId: 'getTrialBalance',
        tags: ['reports'],
        summary:
          'Each account with its debit or credit balance as of a day (default today); the totals are equal',
        querystring: asOfQuery,
        response: { 200: json(TrialBalance, 'The trial balance'), ...errors(404) },
      },
    },
    async (request) => {
      const companyId = currentUser(request).company_id;
      const { asOf, propertyId } = await scope(companyId, request.query);
      return trialBalance(database.db, companyId, asOf, propertyId);
    },
  );

  const tb = exportRoute(
    '/reports/trial-balance/export',
    'TrialBalance',
    'The trial balance as xlsx or pdf',
    asOfQuery.and(fmtQuery),
  );
  r.get(tb.path, { config: tb.config, schema: tb.schema }, async (request, reply) => {
    const companyId = currentUser(request).company_id;
    const q = request.query as z.infer<typeof asOfQuery> & z.infer<typeof fmtQuery>;
    const { asOf, propertyId } = await scope(companyId, q);
    const report = await trialBalance(database.db, companyId, asOf, propertyId);
    const columns = [
      text('code', 'Code', 'code'),
      text('name', 'Account', 'account'),
      { ...text('type', 'Type', 'type'), text: 'books.type' },
      cash('debit', 'Debit', 'debit'),
      cash('credit', 'Credit', 'credit'),
    ];
    const words = requestWords(request);
    const title = words.td('doc.export.trialBalanceTitle', `Trial balance as of ${asOf}`, {
      date: dayText(asOf, words),
    });
    const m = await companyMoney(database, companyId);
    const writer = (q.fmt === 'xlsx' ? xlsxWriter : pdfWriter)(title, columns, m, words);
    return sendTabular(reply, request, `trial-balance_${asOf}.${q.fmt}`, writer, (w) =>
      w.write([
        ...report.accounts.map((a) => ({
          ...a,
          name: nameOf(a, words),
          type: words.td(`books.type.${a.type}`, a.type),
          debit: Number(a.debit),
          credit: Number(a.credit),
        })),
        {
          code: '',
          name: words.td('reports.total', 'Total'),
          type: '',
          debit: Number(report.total_debit),
          credit: Number(report.total_credit),
        },
      ]),
    );
  });

  r.get(
    '/reports/general-ledger',
    {
      config: { access: 'anyRole' },
      schema: {
        operationId: 'getGeneralLedger',
        tags: ['reports'],
        summary:
          "An account's lines from a day to a day (default: the year to date), oldest first, a page at a time, " +
          'with the opening balance, the running balance and the closing balance',
        querystring: ledgerQuery,
        response: { 200: json(GeneralLedgerSchema, 'The general ledger of the account'), ...errors(404) },
      },
    },
    async (request) => ledgerOf(currentUser(request).company_id, request.query),
  );

  const gl = exportRoute(
    '/reports/general-ledger/export',
    'GeneralLedger',
    "An account's general ledger (every line of the range) as xlsx or pdf",
    ledgerQuery.and(fmtQuery),
  );
  r.get(gl.path, { config: gl.config, schema: gl.schema }, async (request, reply) => {
    const companyId = currentUser(request).company_id;
    const q = request.query as z.infer<typeof ledgerQuery> & z.infer<typeof fmtQuery>;
    const report = await ledgerOf(companyId, q, true);
    const columns = [
      text('date', 'Date', 'date'),
      { ...text('entry', 'Entry', 'entry'), text: 'doc.export.entry' },
      text('memo', 'Memo', 'memo'),
      { ...text('source', 'Source', 'source'), text: 'books.source' },
      cash('debit', 'Debit', 'debit'),
      cash('credit', 'Credit', 'credit'),
      cash('balance', 'Balance', 'balance'),
    ];
    const words = requestWords(request);
    const title = words.td(
      'doc.export.generalLedgerTitle',
      `General ledger: ${report.account.code} ${report.account.name}, ${report.from} to ${report.to}`,
      {
        account: `${report.account.code} ${nameOf(report.account, words)}`,
        from: dayText(report.from, words),
        to: dayText(report.to, words),
      },
    );
    const m = await companyMoney(database, companyId);
    const writer = (q.fmt === 'xlsx' ? xlsxWriter : pdfWriter)(title, columns, m, words);
    const name = `general-ledger_${report.account.code}_${report.from}_${report.to}.${q.fmt}`;
    return sendTabular(reply, request, name, writer, (w) =>
      w.write([
        {
          date: report.from,
          memo: words.td('reports.openingBalance', 'Opening balance'),
          balance: Number(report.opening_balance),
        },
        ...report.lines.map((l) => ({
          date: l.date,
          entry: String(l.entry_id),
          memo: l.memo,
          source: words.td(`books.source.${l.source}`, l.source),
          debit: Number(l.debit),
          credit: Number(l.credit),
          balance: Number(l.balance),
        })),
        {
          date: report.to,
          memo: words.td('reports.closingBalance', 'Closing balance'),
          debit: Number(report.total_debit),
          credit: Number(report.total_credit),
          balance: Number(report.closing_balance),
        },
      ]),
    );
  });

  r.get(
    '/reports/balance-sheet',
    {
      config: { access: 'anyRole' },
      schema: {
        operationId: 'getBalanceSheet',
        tags: ['reports'],
        summary:
          "Assets, liabilities and equity as of a day (default today), with earlier years' result and the year's result",
        querystring: asOfQuery,
        response: {
          200: json(BalanceSheet, 'The balance sheet: assets = liabilities + equity'),
          ...errors(404),
        },
      },
    },
    async (request) => {
      const companyId = currentUser(request).company_id;
      const { asOf, propertyId } = await scope(companyId, request.query);
      return balanceSheet(database.db, companyId, asOf, propertyId);
    },
  );

  const bs = exportRoute(
    '/reports/balance-sheet/export',
    'BalanceSheet',
    'The balance sheet as xlsx or pdf',
    asOfQuery.and(fmtQuery),
  );
  r.get(bs.path, { config: bs.config, schema: bs.schema }, async (request, reply) => {
    const companyId = currentUser(request).company_id;
    const q = request.query as z.infer<typeof asOfQuery> & z.infer<typeof fmtQuery>;
    const { asOf, propertyId } = await scope(companyId, q);
    const s = await balanceSheet(database.db, companyId, asOf, propertyId);
    const columns = [
      text('code', 'Code', 'code'),
      text('name', 'Account', 'account'),
      cash('balance', 'Balance', 'balance'),
    ];
    const words = requestWords(request);
    const title = words.td('doc.export.balanceSheetTitle', `Balance sheet as of ${asOf}`, {
      date: dayText(asOf, words),
    });
    const m = await companyMoney(database, companyId);
    const writer = (q.fmt === 'xlsx' ? xlsxWriter : pdfWriter)(title, columns, m, words);
    // the computed lines of the equity (no id) by their English, like the web's balance sheet
    const lineName = (l: { id: number | null; name: string; role: string | null }) =>
      l.id !== null
        ? nameOf(l, words)
        : l.name === EARLIER_YEARS
          ? words.td('reports.earlierYearsResult', l.name)
          : l.name === YEAR_RESULT
            ? words.td('reports.yearResult', l.name)
            : l.name;
    const lines = (
      ls: { id: number | null; code: string | null; name: string; role: string | null; balance: string }[],
    ) => ls.map((l) => ({ code: l.code ?? '', name: lineName(l), balance: Number(l.balance) }));
    const t = (key: string, english: string) => ({ name: words.td(`reports.${key}`, english) });
    return sendTabular(reply, request, `balance-sheet_${asOf}.${q.fmt}`, writer, (w) =>
      w.write([
        t('assets', 'Assets'),
        ...lines(s.assets),
        { ...t('totalAssets', 'Total assets'), balance: Number(s.total_assets) },
        t('liabilities', 'Liabilities'),
        ...lines(s.liabilities),
        { ...t('totalLiabilities', 'Total liabilities'), balance: Number(s.total_liabilities) },
        t('equity', 'Equity'),
        ...lines(s.equity),
        { ...t('totalEquity', 'Total equity'), balance: Number(s.total_equity) },
        {
          ...t('totalLiabilitiesEquity', 'Total liabilities and equity'),
          balance: Number(s.total_liabilities_and_equity),
        },
      ]),
    );
  });
};
