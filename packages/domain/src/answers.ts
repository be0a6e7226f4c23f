import { z } from 'zod';
import { errorCodes, type ErrorBody } from './errors.ts';
import {
  agingBuckets,
  ledgerEntryKinds,
  type ArrearsRow,
  type ArrearsSummary,
  type DashboardMoney,
  type LedgerAnswer,
} from './ledger.ts';
import type { CashFlowMonth, IncomeStatementMonth } from './reports.ts';
import type { Company } from './auth.ts';
import { chargeCategory } from './enums.ts';

/**
 * The API's answers other than entity records (those are in record-schema.ts), as zod schemas: the
 * server declares them as its routes' responses (so they are in the OpenAPI document and checked on
 * the way out), and the web reads the types. Each one `satisfies` the type the code already uses.
 */

const isoDay = () => z.iso.date();
const amount = () => z.number();
const amounts = () => z.record(z.string(), z.number());

/** Every error: `{ error, code, fields? }` (`fields`: a message per field, for `validation_failed`). */
export const errorBodySchema = z
  .object({
    error: z.string().describe('A message for people'),
    code: z.enum(Object.keys(errorCodes) as [keyof typeof errorCodes, ...(keyof typeof errorCodes)[]]),
    fields: z.record(z.string(), z.string()).optional().describe('A message per field'),
  })
  .describe('An error') satisfies z.ZodType<ErrorBody>;

/** `GET /companies_single/{id}`: the signed-in user's company, with its currency's decimals and symbol. */
export const ownCompanySchema = z.object({
  company: z.object({
    id: z.int(),
    name: z.string(),
    email: z.string().nullable(),
    phone_number: z.string().nullable(),
    website: z.string().nullable(),
    address: z.string().nullable(),
    industry_type: z.string().nullable(),
    currency_code: z.string().nullable(),
    status: z.boolean(),
    description: z.string().nullable(),
    currency_decimal_places: z.int().nullable(),
    currency_symbol: z.string().nullable(),
  }) satisfies z.ZodType<Company>,
});
export type OwnCompany = z.infer<typeof ownCompanySchema>['company'];

/** `GET /companies` signed out: the active companies' ids and names (the register form's picker). */
export const publicCompanySchema = z.strictObject({ id: z.int(), name: z.string() });

/** `GET /dashboard`: Home's counts and short lists, in the company's currency. */
export const dashboardSchema = z.object({
  counts: z.object({
    available_units: z.int(),
    pending_repairs: z.int(),
    payments_this_month: z.int(),
    incomplete_payments: z.int(),
  }),
  available_units: z.array(
    z.object({ id: z.int(), name: z.string(), address: z.string().nullable(), monthly_rate: amount() }),
  ),
  pending_repairs: z.array(
    z.object({
      id: z.int(),
      description: z.string(),
      unit_name: z.string().nullable(),
      request_date: isoDay(),
    }),
  ),
  recent_payments: z.array(
    z.object({
      id: z.int(),
      amount_paid: amount(),
      tenant_first_name: z.string().nullable(),
      tenant_last_name: z.string().nullable(),
      payment_date: isoDay(),
    }),
  ),
  recent_expenses: z.array(
    z.object({
      id: z.int(),
      amount: amount(),
      category: z.string(),
      unit_name: z.string().nullable(),
      expense_date: isoDay(),
    }),
  ),
  pending_payments: z.array(
    z.object({
      id: z.int(),
      tenant_first_name: z.string().nullable(),
      tenant_last_name: z.string().nullable(),
      unit_name: z.string().nullable(),
      amount_paid: amount(),
      due_date: isoDay(),
      payment_details: z.string().nullable(),
    }),
  ),
  currency_code: z.string(),
  currency_decimal_places: z.int().nullable(),
});
/** With `money` (issue 26): the server declares its schema (features/dashboard), the web reads the type. */
export type Dashboard = z.infer<typeof dashboardSchema> & { money?: DashboardMoney };

const month = () => z.string().regex(/^\d{4}-\d{2}$/);

/** `GET /income-statement`: one entry a month. */
export const incomeStatementSchema = z.array(
  z.object({
    month: month(),
    rental_income: amount(),
    late_fees: amount(),
    other_income: amount(),
    expenses: amounts(),
    total_expenses: amount(),
    net_income: amount(),
    basis: z.enum(['cash', 'accrual']).optional(),
    completed_payments: amount().optional(),
    owners_collections: amount().optional(),
    management_fees: amount().optional(),
    owners_expenses: amount().optional(),
  }) satisfies z.ZodType<IncomeStatementMonth>,
);

/** `GET /cash-flow`: one entry a month. */
export const cashFlowSchema = z.array(
  z.object({
    month: month(),
    inflows: amounts(),
    total_inflow: amount(),
    outflows: amounts(),
    total_outflow: amount(),
    opening_balance: amount(),
    closing_balance: amount(),
  }) satisfies z.ZodType<CashFlowMonth>,
);

/** `GET /occupancy/{id}/ledger`. */
export const ledgerAnswerSchema = z.object({
  occupancy_id: z.int(),
  as_of: isoDay(),
  balance: amount(),
  entries: z.array(
    z.object({
      date: isoDay(),
      kind: z.enum(ledgerEntryKinds),
      description: z.string(),
      amount: amount(),
      balance: amount(),
      charge_id: z.int().nullable().describe('Late fees, charges and waivers: the charge'),
      category: z
        .enum(chargeCategory.values)
        .nullable()
        .describe('Charges: their category (utility, damage, other), as the charges list has it'),
    }),
  ),
}) satisfies z.ZodType<LedgerAnswer>;

/** A row of `GET /arrears`. */
export const arrearsRowSchema = z.object({
  occupancy_id: z.int(),
  tenant_id: z.int(),
  tenant_first_name: z.string(),
  tenant_last_name: z.string(),
  tenant_name: z.string(),
  unit_id: z.int(),
  unit_name: z.string(),
  balance: amount(),
  ...(Object.fromEntries(agingBuckets.map((b) => [b, amount()])) as Record<
    (typeof agingBuckets)[number],
    z.ZodNumber
  >),
  last_payment_date: isoDay().nullable(),
  last_payment_amount: amount().nullable(),
  tenant_phone: z.string().nullable(),
  tenant_email: z.string().nullable(),
}) satisfies z.ZodType<ArrearsRow>;

/** `GET /arrears/summary`. */
export const arrearsSummarySchema = z.object({
  total: amount(),
  leases: z.int(),
}) satisfies z.ZodType<ArrearsSummary>;

/** An entry of `GET /{entity}/{id}/history`: who did what, and the record before and after. */
export const historyEntrySchema = z.object({
  id: z.int(),
  action: z.enum(['create', 'update', 'delete']),
  record_id: z.int(),
  user_id: z.int().nullable(),
  user_email: z.string().nullable(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  at: z.iso.datetime(),
  /** the import that made the change, if one did */
  import_id: z.int().nullable(),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

/**
 * `GET /tenants/phone-check`: a phone as the tenant form has it, read as it would be saved, and the
 * company's other tenants with the same number (a warning, not an error: issue 26).
 */
export const phoneCheckSchema = z.object({
  valid: z.boolean().describe('Whether the number is one of its country’s'),
  e164: z.string().nullable().describe('The number as it would be saved (E.164), null when not valid'),
  shared_with: z
    .array(z.object({ id: z.int(), name: z.string() }))
    .describe('The other tenants of the company with this phone'),
});
export type PhoneCheck = z.infer<typeof phoneCheckSchema>;

/** The tenant form's warning: the tenants who already have the phone typed. */
export const sharedPhoneWarning = (names: readonly string[]): string =>
  `${names.join(', ')} ${names.length === 1 ? 'has' : 'have'} this phone too: a payment from it cannot say whose it is.`;
