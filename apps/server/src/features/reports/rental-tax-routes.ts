import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { currentUser } from '../../plugins/guard.ts';
import { companyMoney } from '../../modules/companies/company.ts';
import { pdfWriter, xlsxWriter, type TabularColumn } from '../../crud/tabular.ts';
import { requestWords, type ExportWords } from '../../plugins/i18n.ts';
import { sendTabular } from '../../crud/export.ts';
import { errors, file, json, named, PDF, XLSX } from '../../plugins/openapi.ts';
import { companyToday } from '../../modules/companies/company-settings.ts';
import {
  rentalTaxMonth,
  rentalTaxYear,
  type RentalTaxMonth,
  type RentalTaxYear,
} from '../../modules/owner-money/rental-tax.ts';

const money = () => z.string().describe('Exact decimal text');
const MONTH = /^(19|20|21)\d\d-(0[1-9]|1[0-2])$/;

const query = z
  .object({
    month: z.string().regex(MONTH, 'Use a month as YYYY-MM.').optional(),
    tax_year: z.coerce
      .number()
      .int('Use a year such as 2025.')
      .min(1900, 'Use a year such as 2025.')
      .max(2199, 'Use a year such as 2025.')
      .optional(),
  })
  .describe('`month` (a month, default this one) or `tax_year` (the year its first month falls in)');

const landlord = {
  kind: z.enum(['company', 'owner']),
  owner_id: z.int().nullable(),
  name: z.string(),
  tax_id: z.string().nullable(),
};

const MonthSchema = named(
  z.object({
    month: z.string(),
    rate: z.number().describe('Percent of gross rent (a company setting)'),
    due_date: z.iso.date(),
    landlords: z.array(
      z.object({
        ...landlord,
        gross_rent: money(),
        rate: z.number(),
        tax: money(),
        withheld: money()
          .nullable()
          .describe("Withheld from an owner's funds in the month; null: the company"),
        due_date: z.iso.date(),
      }),
    ),
    totals: z.object({ gross_rent: money(), tax: money(), withheld: money() }),
  }),
  'RentalTaxMonth',
);

const YearSchema = named(
  z.object({
    tax_year: z.int(),
    from: z.string().describe('The first month (YYYY-MM)'),
    to: z.string().describe('The last month (YYYY-MM)'),
    landlords: z.array(z.object({ ...landlord, gross_rent: money(), expenses: money(), net: money() })),
    totals: z.object({ gross_rent: money(), expenses: money(), net: money() }),
  }),
  'RentalTaxYear',
);

/** A column: its key, English heading and the catalogue key of that heading. */
const text = (key: string, label: string, heading: string): TabularColumn => ({
  key,
  label,
  kind: 'text',
  text: heading,
});
const cash = (key: string, label: string, heading: string): TabularColumn => ({
  key,
  label,
  kind: 'money',
  text: heading,
});

const landlordName = (l: { kind: string; name: string }, words: ExportWords) =>
  l.kind === 'company'
    ? words.td('reports.ownProperties', `${l.name} (own properties)`, { name: l.name })
    : l.name;

/**
 * The landlords' rental-tax figures (issue 27): `GET /reports/rental-tax?month=` (gross rent received,
 * the tax at the company's rate, its due date, every landlord, nil months too) or `?tax_year=` (gross
 * rent, expenses and the net over the company's tax year), with xlsx and pdf exports. Any staff.
 */
export const rentalTaxRoutes = (app: FastifyInstance, ctx: AppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database } = ctx;

  const report = async (
    companyId: number,
    q: z.infer<typeof query>,
  ): Promise<{ month: RentalTaxMonth } | { year: RentalTaxYear }> => {
    if (q.month !== undefined && q.tax_year !== undefined)
      throw new AppError('validation_failed', 'Ask for a month or a tax year, not both.', {
        tax_year: 'Not with a month.',
      });
    if (q.tax_year !== undefined) return { year: await rentalTaxYear(database, companyId, q.tax_year) };
    const month = q.month ?? (await companyToday(database, companyId)).slice(0, 7);
    return { month: await rentalTaxMonth(database, companyId, month) };
  };

  r.get(
    '/reports/rental-tax',
    {
      config: { access: 'anyRole' },
      schema: {
        operationId: 'getRentalTax',
        tags: ['reports'],
        summary:
          "Each landlord's rental-tax figures (the company for its own properties, each owner for theirs): " +
          'a month (gross rent received, tax, due date) or a tax year (gross rent, expenses, net)',
        querystring: query,
        response: {
          200: json(z.union([MonthSchema, YearSchema]), 'The month (RentalTaxMonth) or the tax year'),
          ...errors(400),
        },
      },
    },
    async (request) => {
      const got = await report(currentUser(request).company_id, request.query);
      return 'month' in got ? got.month : got.year;
    },
  );

  r.get(
    '/reports/rental-tax/export',
    {
      config: { access: 'anyRole' },
      schema: {
        operationId: 'exportRentalTax',
        tags: ['reports'],
        summary: 'The rental-tax figures of a month or a tax year as xlsx or pdf',
        querystring: query.extend({ fmt: z.enum(['xlsx', 'pdf']) }),
        response: { 200: file('The report (named in Content-Disposition)', XLSX, PDF), ...errors(400) },
      },
    },
    async (request, reply) => {
      const companyId = currentUser(request).company_id;
      const q = request.query;
      const got = await report(companyId, q);
      const m = await companyMoney(database, companyId);
      const words = requestWords(request);
      const writerOf = (title: string, columns: TabularColumn[]) =>
        (q.fmt === 'xlsx' ? xlsxWriter : pdfWriter)(title, columns, m, words);
      const total = words.td('reports.total', 'Total');
      if ('month' in got) {
        const t = got.month;
        const columns = [
          text('landlord', 'Landlord', 'reports.landlord'),
          text('tax_id', 'Tax ID', 'entity.owners.field.tax_id'),
          cash('gross_rent', 'Gross rent received', 'reports.grossRent'),
          text('rate', 'Rate %', 'doc.export.rate'),
          cash('tax', 'Tax', 'reports.tax'),
          cash('withheld', 'Withheld', 'reports.withheld'),
          text('due_date', 'Due', 'doc.export.due'),
        ];
        const title = words.td('doc.export.rentalTaxTitle', `Rental tax, ${t.month}`, { month: t.month });
        return sendTabular(reply, request, `rental-tax_${t.month}.${q.fmt}`, writerOf(title, columns), (w) =>
          w.write([
            ...t.landlords.map((l) => ({
              landlord: landlordName(l, words),
              tax_id: l.tax_id ?? '',
              gross_rent: Number(l.gross_rent),
              rate: String(l.rate),
              tax: Number(l.tax),
              withheld: l.withheld === null ? null : Number(l.withheld),
              due_date: l.due_date,
            })),
            {
              landlord: total,
              gross_rent: Number(t.totals.gross_rent),
              tax: Number(t.totals.tax),
              withheld: Number(t.totals.withheld),
            },
          ]),
        );
      }
      const y = got.year;
      const columns = [
        text('landlord', 'Landlord', 'reports.landlord'),
        text('tax_id', 'Tax ID', 'entity.owners.field.tax_id'),
        cash('gross_rent', 'Gross rent received', 'reports.grossRent'),
        cash('expenses', 'Expenses', 'reports.expenses'),
        cash('net', 'Net', 'reports.net'),
      ];
      const title = words.td('doc.export.rentalIncomeTitle', `Rental income, tax year ${y.from} to ${y.to}`, {
        from: y.from,
        to: y.to,
      });
      return sendTabular(
        reply,
        request,
        `rental-tax_${y.from}_${y.to}.${q.fmt}`,
        writerOf(title, columns),
        (w) =>
          w.write([
            ...y.landlords.map((l) => ({
              landlord: landlordName(l, words),
              tax_id: l.tax_id ?? '',
              gross_rent: Number(l.gross_rent),
              expenses: Number(l.expenses),
              net: Number(l.net),
            })),
            {
              landlord: total,
              gross_rent: Number(y.totals.gross_rent),
              expenses: Number(y.totals.expenses),
              net: Number(y.totals.net),
            },
          ]),
      );
    },
  );
};
