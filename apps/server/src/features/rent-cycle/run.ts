import os from 'node:os';
import { sql } from 'drizzle-orm';
import {
  addDays,
  buildLedger,
  effectiveLateFeePolicy,
  escalationsDue,
  formatCents,
  formatDate,
  formatMoney,
  isStaleReminder,
  lateFeesDue,
  remindersDue,
  RUN_ITEMS_LISTED,
  type DueReminder,
  type RentCycleRunItem,
  type RentCycleRunResult,
  type TemplateValues,
  type MessageChannel,
  howToPayLines,
  type PaymentInstructions,
  type Language,
} from '@kodi/domain';
import { execRows, type Database, type DbOrTx } from '../../db/client.ts';
import { howToPayWords } from '../../plugins/i18n.ts';
import { companyMoney } from '../../modules/companies/company.ts';
import {
  companyTodayIn,
  loadSettings,
  type StoredSettings,
} from '../../modules/companies/company-settings.ts';
import { loadLeaseBooks, type LeaseBook } from '../../modules/leases/lease-book.ts';
import {
  loadTemplates,
  pickTemplate,
  renderMessage,
  tenantReaders,
  type Readers,
} from '../../modules/messaging/message-templates.ts';
import { companyCallingCode, smsAddress } from '../../modules/companies/phones.ts';
import { advisoryLocks } from '../../db/advisory-locks.ts';
import { outbox } from '../../modules/messaging/outbox.ts';
import { leaseEntries } from '../../modules/leases/entries.ts';
import { postCompanyRent } from '../../modules/books/rent.ts';
import { postMonthlyFees } from '../../modules/books/owner-fees.ts';
import { sendMonthlyOwnerStatements } from '../../modules/owner-money/statement-send.ts';
import { followLeasesDaily } from '../../modules/leases/unit-status.ts';
import { billUtilitiesDaily } from '../../modules/utilities/billing.ts';
import { postServiceChargesDaily } from '../../modules/utilities/service-charge.ts';
import { whatsappPayload, type WhatsappPayload } from '../../modules/messaging/whatsapp.ts';

/**
 * The daily run of one company (issue 17; docs/decisions.md, 'The rent cycle'): for each day not
 * processed yet up to `asOf` (the first run: `asOf` alone), the escalation rules' rate changes, the
 * late fees and the reminders due that day, with their own dates.
 *
 * It reads the company's leases a page at a time (outside any transaction: on the embedded database
 * a transaction holds the whole database), computes with the domain's rules, then writes in one
 * short transaction under the company's lock, where every row has a unique key (a late fee per rent
 * charge and day, a rate change per lease and day, a message per lease, event, due date and channel,
 * a scheduled run per company and day): a day run twice, or by two servers at once, posts and queues
 * nothing the second time. If another run processed some of the days meanwhile, the run starts over.
 * Then it posts the rent due through `asOf` of every lease (issue 25, modules/books/rent.ts).
 */

export type RunTrigger = 'schedule' | 'manual';

export type RunRequest = {
  companyId: number;
  asOf: string;
  trigger: RunTrigger;
  userId?: number | null;
  /** the server's public address: the owners' statements link to the owner portal (issue 27) */
  publicUrl?: string;
};

/**
 * The answer of a run; `skipped`: a scheduled run of that day was done already; `made`: for whom each
 * new fee, increase and reminder was made (the first RUN_ITEMS_LISTED; `not_listed` the others).
 */
export type RunOutcome = RentCycleRunResult & {
  skipped: boolean;
  made: RentCycleRunItem[];
  not_listed: number;
};

const PAGE = 200;
/** The longest the rules compute before the process answers other requests again. */
const YIELD_MS = 10;
const INSERT_BATCH = 500;
const RUNNER = `${os.hostname()}:${process.pid}`;

type Window = { from: string; to: string };

/** The last day the company's runs processed (the latest `as_of`), or null before its first run. */
const processedThrough = async (database: Database, companyId: number): Promise<string | null> => {
  const rows = await database.query<{ through: string | null }>(
    `SELECT to_char(max(as_of), 'YYYY-MM-DD') AS through FROM rent_cycle_runs WHERE company_id = $1`,
    [companyId],
  );
  return rows[0]?.through ?? null;
};

/** The days a run up to `asOf` processes: those after the last processed day, else `asOf` alone. */
export const runWindow = (through: string | null, asOf: string): Window =>
  through && through < asOf ? { from: addDays(through, 1), to: asOf } : { from: asOf, to: asOf };

/** Which leases can have something to do: an escalation rule, a late-fee policy, or the company's reminders. */
const leaseFilter = (settings: StoredSettings): string | null => {
  const conditions = ['(o.escalation_percent > 0 AND o.escalation_every_months > 0)'];
  const ownEnabled = `(o.late_fee IS NOT NULL AND (o.late_fee ->> 'enabled')::boolean)`;
  conditions.push(
    settings.late_fee.enabled
      ? `(NOT o.late_fee_exempt AND (o.late_fee IS NULL OR ${ownEnabled}))`
      : `(NOT o.late_fee_exempt AND ${ownEnabled})`,
  );
  if (settings.reminders.length > 0) return null; // every lease
  return conditions.join(' OR ');
};

type NewRate = { occupancy_id: number; effective_date: string; rate: string };
type NewFee = {
  occupancy_id: number;
  date: string;
  rent_due_date: string;
  amount: string;
  description: string;
};
type NewMessage = {
  occupancy_id: number;
  tenant_id: number;
  tenant_name: string;
  channel: MessageChannel;
  to: string | null;
  subject: string | null;
  body: string;
  status: 'queued' | 'skipped';
  error: string | null;
  dedup_key: string;
  template_id: number | null;
  send_date: string;
  payload?: WhatsappPayload;
};

type Plan = { rates: NewRate[]; fees: NewFee[]; messages: NewMessage[] };

/** A reminder's values for its template (docs/decisions.md, 'Messages': rendered when it is queued). */
const reminderValues = (
  book: LeaseBook,
  terms: LeaseBook['lease'],
  r: DueReminder,
  money: (amount: string, language: Language) => string,
  company: string,
  instructions: PaymentInstructions,
  language: Language,
): TemplateValues => ({
  tenant_first_name: book.lease.tenant_first_name,
  unit_name: book.lease.unit_name,
  account_reference: book.lease.account_reference ?? '',
  how_to_pay: howToPayLines(instructions, book.lease.account_reference, howToPayWords(language)).join('; '),
  amount_due: money(formatCents(r.amount), language),
  due_date: formatDate(r.due_date, language),
  balance: money(
    formatCents(buildLedger(terms, book.payments, addDays(r.send_date, -1), book.extras).balance),
    language,
  ),
  company_name: company,
});

/** What the run writes for the days of the window, computed from the company's leases. */
const planRun = async (
  database: Database,
  companyId: number,
  settings: StoredSettings,
  window: Window,
): Promise<Plan> => {
  const plan: Plan = { rates: [], fees: [], messages: [] };
  const company = await companyMoney(database, companyId);
  const decimals = company.decimals ?? 2;
  const money = (amount: string, language: Language) =>
    formatMoney(amount, company.currency, company.decimals, language);
  const ahead = Math.max(0, ...settings.reminders.map((r) => (r.event === 'before_due' ? r.days : 0)));
  const where = leaseFilter(settings);
  const templates = settings.reminders.length > 0 ? await loadTemplates(database, companyId) : new Map();
  const callingCode = settings.reminders.length > 0 ? await companyCallingCode(database.db, companyId) : null;
  // each tenant's language (issue 30): its reminders' template and how their money and dates read
  const readersOf = settings.reminders.length > 0 ? await tenantReaders(database, companyId) : undefined;
  for (let after = 0; ;) {
    const books = await loadLeaseBooks(database, companyId, {
      after,
      limit: PAGE,
      startedBy: addDays(window.to, ahead),
      through: window.to,
      ...(where ? { where } : {}),
    });
    if (books.length === 0) break;
    after = books[books.length - 1]?.lease.id ?? after;
    let slice = performance.now();
    for (const book of books) {
      const { lease, payments, extras } = book;
      // the rules run in this process: let the requests waiting in it through every few milliseconds
      if (performance.now() - slice > YIELD_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        slice = performance.now();
      }
      const escalated = escalationsDue(
        lease,
        { percent: lease.escalation_percent, every_months: lease.escalation_every_months },
        window,
        decimals,
      );
      for (const e of escalated) plan.rates.push({ occupancy_id: lease.id, ...e });
      const terms =
        escalated.length > 0
          ? { ...lease, rate_changes: [...(lease.rate_changes ?? []), ...escalated] }
          : lease;
      const policy = effectiveLateFeePolicy(lease, settings.late_fee);
      if (policy) {
        for (const f of lateFeesDue(terms, payments, extras, policy, window, decimals)) {
          plan.fees.push({
            occupancy_id: lease.id,
            date: f.date,
            rent_due_date: f.rent_due_date,
            amount: formatCents(f.amount),
            description: f.description,
          });
        }
      }
      for (const r of remindersDue(terms, payments, extras, settings.reminders, window)) {
        const readers: Readers = readersOf?.(lease.tenant_id) ?? { recipient: 'en', company: 'en' };
        const values = reminderValues(
          book,
          terms,
          r,
          money,
          company.name,
          settings.payment_instructions,
          readers.recipient,
        );
        for (const channel of r.channels) {
          // WhatsApp only to a tenant who agreed to it (issue 29); its text is the SMS template's
          if (channel === 'whatsapp' && !lease.tenant_notify_whatsapp) continue;
          const textChannel = channel === 'email' ? 'email' : 'sms';
          const { template, id } = pickTemplate(templates, r.event, textChannel, r.template_id, readers);
          const text = renderMessage(template, values);
          const to =
            channel === 'email'
              ? lease.tenant_email
              : smsAddress(lease.tenant_phone, lease.tenant_country_code, callingCode);
          const stale = isStaleReminder(r.send_date, window.to);
          plan.messages.push({
            occupancy_id: lease.id,
            tenant_id: lease.tenant_id,
            tenant_name: `${lease.tenant_first_name} ${lease.tenant_last_name}`.trim(),
            channel,
            to,
            subject: text.subject,
            body: text.body,
            status: stale || !to ? 'skipped' : 'queued',
            error: stale ? 'stale' : !to ? 'no_address' : null,
            dedup_key: `reminder:${lease.id}:${r.event}:${r.days}:${r.due_date}:${channel}`,
            template_id: id,
            send_date: r.send_date,
            ...(channel === 'whatsapp'
              ? { payload: whatsappPayload(r.event, values, readers.recipient) }
              : {}),
          });
        }
      }
    }
    if (books.length < PAGE) break;
  }
  return plan;
};

const batches = <T>(rows: readonly T[]): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += INSERT_BATCH) out.push(rows.slice(i, i + INSERT_BATCH));
  return out;
};

/** Writes the plan (each row once, whatever ran before): the counts of what was new. */
const writePlan = async (tx: DbOrTx, companyId: number, plan: Plan) => {
  let escalations = 0;
  let fees = 0;
  let queued = 0;
  let skipped = 0;
  const ids = { fees: [] as number[], rates: [] as number[], messages: [] as number[] };
  for (const rows of batches(plan.rates)) {
    const inserted = await leaseEntries.addRateChanges(
      tx,
      companyId,
      rows.map((r) => ({ ...r, source: 'escalation' as const })),
      'skip',
    );
    escalations += inserted.length;
    ids.rates.push(...inserted);
  }
  for (const rows of batches(plan.fees)) {
    const inserted = await leaseEntries.addCharges(
      tx,
      companyId,
      rows.map((f) => ({ ...f, kind: 'late_fee' as const })),
    );
    fees += inserted.length;
    ids.fees.push(...inserted);
  }
  for (const rows of batches(plan.messages)) {
    const inserted = await outbox.enqueue(
      tx,
      rows.map((m) => ({ ...m, company_id: companyId, kind: 'reminder' })),
    );
    for (const m of inserted) {
      if (m.status === 'queued') queued += 1;
      else skipped += 1;
      ids.messages.push(m.id);
    }
  }
  return { escalations, fees, queued, skipped, ids };
};

const intArray = (ids: readonly number[]) => sql`${`{${ids.map((n) => Math.trunc(n)).join(',')}}`}::int[]`;

/**
 * For whom the run's new rows were made (issue 26): the fees, rate changes and reminders by their ids,
 * with their lease's tenant and unit, the first RUN_ITEMS_LISTED (fees, then increases, then
 * reminders, each by tenant); read in the run's transaction.
 */
const madeItems = async (
  tx: DbOrTx,
  companyId: number,
  ids: { fees: number[]; rates: number[]; messages: number[] },
): Promise<{ made: RentCycleRunItem[]; not_listed: number }> => {
  const total = ids.fees.length + ids.rates.length + ids.messages.length;
  const fees = ids.fees.slice(0, RUN_ITEMS_LISTED);
  const rates = ids.rates.slice(0, RUN_ITEMS_LISTED - fees.length);
  const messages = ids.messages.slice(0, RUN_ITEMS_LISTED - fees.length - rates.length);
  if (fees.length + rates.length + messages.length === 0) return { made: [], not_listed: total };
  const rows = await execRows<{
    kind: RentCycleRunItem['kind'];
    occupancy_id: number;
    tenant_name: string | null;
    unit_name: string | null;
    date: string;
    amount: string | null;
    channel: string | null;
    status: string | null;
  }>(
    tx,
    sql`SELECT x.kind, x.occupancy_id, COALESCE(o.tenant_name, x.tenant_name) AS tenant_name, o.unit_name,
               to_char(x.date, 'YYYY-MM-DD') AS date, x.amount::text AS amount, x.channel, x.status
          FROM (SELECT 1 AS ord, 'late_fee' AS kind, c.occupancy_id, NULL::text AS tenant_name, c.date,
                       c.amount, NULL::text AS channel, NULL::text AS status
                  FROM charges c WHERE c.company_id = ${companyId} AND c.id = ANY(${intArray(fees)})
                UNION ALL
                SELECT 2, 'rent_increase', r.occupancy_id, NULL, r.effective_date, r.rate, NULL, NULL
                  FROM rate_changes r WHERE r.company_id = ${companyId} AND r.id = ANY(${intArray(rates)})
                UNION ALL
                SELECT 3, 'reminder', m.occupancy_id, m.tenant_name, COALESCE(m.send_date, m.created_at::date), NULL, m.channel, m.status
                  FROM messages m WHERE m.company_id = ${companyId} AND m.id = ANY(${intArray(messages)})) x
          LEFT JOIN occupancy o ON o.company_id = ${companyId} AND o.id = x.occupancy_id
         ORDER BY x.ord, COALESCE(o.tenant_name, x.tenant_name), x.occupancy_id, x.date, x.channel`,
  );
  const made = rows.map((r): RentCycleRunItem => ({
    kind: r.kind,
    occupancy_id: Number(r.occupancy_id),
    tenant_name: r.tenant_name ?? null,
    unit_name: r.unit_name ?? null,
    date: r.date,
    amount: r.amount === null ? null : Number(r.amount),
    channel: r.channel === 'email' || r.channel === 'sms' ? r.channel : null,
    status: r.status === 'queued' || r.status === 'skipped' ? r.status : null,
  }));
  return { made, not_listed: total - made.length };
};

const zero = (asOf: string, skipped: boolean): RunOutcome => ({
  as_of: asOf,
  late_fees_posted: 0,
  escalations_applied: 0,
  reminders_queued: 0,
  skipped,
  made: [],
  not_listed: 0,
});

const scheduledRunExists = async (database: Database, companyId: number, asOf: string) =>
  (
    await database.query(
      `SELECT 1 FROM rent_cycle_runs WHERE company_id = $1 AND as_of = $2::date AND trigger = 'schedule'`,
      [companyId, asOf],
    )
  ).length > 0;

/** Runs the company's cycle up to `asOf` (see above). */
export const runRentCycle = async (database: Database, request: RunRequest): Promise<RunOutcome> => {
  const { companyId, asOf, trigger } = request;
  for (let attempt = 0; ; attempt++) {
    if (trigger === 'schedule' && (await scheduledRunExists(database, companyId, asOf)))
      return zero(asOf, true);
    const started = new Date();
    const through = await processedThrough(database, companyId);
    const window = runWindow(through, asOf);
    const settings = await loadSettings(database, companyId);
    const plan = await planRun(database, companyId, settings, window);
    const outcome = await database.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${advisoryLocks.rentCycleRun}, ${companyId})`);
      const now = await execRows<{ through: string | null; done: boolean }>(
        tx,
        sql`SELECT to_char(max(as_of), 'YYYY-MM-DD') AS through,
                   bool_or(as_of = ${asOf}::date AND trigger = 'schedule') AS done
              FROM rent_cycle_runs WHERE company_id = ${companyId}`,
      );
      if (trigger === 'schedule' && now[0]?.done) return zero(asOf, true);
      // another run processed days meanwhile: plan again on what it wrote
      if ((now[0]?.through ?? null) !== through) return undefined;
      // units follow the leases that started or ended since (modules/leases/unit-status.ts), first:
      // the units' locks before the leases' (as a lease's change takes them)
      await followLeasesDaily(tx, companyId, await companyTodayIn(tx, companyId), window.from);
      const counts = await writePlan(tx, companyId, plan);
      await tx.execute(
        sql`INSERT INTO rent_cycle_runs (company_id, as_of, from_date, trigger, late_fees_posted, escalations_applied,
                                         reminders_queued, reminders_skipped, runner, user_id, started_at)
            VALUES (${companyId}, ${asOf}::date, ${window.from}::date, ${trigger}, ${counts.fees}, ${counts.escalations},
                    ${counts.queued}, ${counts.skipped}, ${RUNNER}, ${request.userId ?? null}, ${started.toISOString()}::timestamptz)`,
      );
      return {
        as_of: asOf,
        late_fees_posted: counts.fees,
        escalations_applied: counts.escalations,
        reminders_queued: counts.queued,
        skipped: false,
        ...(await madeItems(tx, companyId, counts.ids)),
      } satisfies RunOutcome;
    });
    if (outcome) {
      // the rent due through the day, every lease of the company (missed days caught up), a page of
      // leases per short transaction; each period once, whatever runs twice (modules/books/rent.ts)
      await postCompanyRent(database, companyId, asOf);
      // the monthly management fees of owned properties, on each month's first day (issue 27)
      await postMonthlyFees(database, companyId, window.from, asOf);
      // every owner's statement of the month before, on the company's day for them, once (issue 27)
      await sendMonthlyOwnerStatements(
        database,
        companyId,
        settings.owner_statements_day,
        window.from,
        asOf,
        request.publicUrl ?? '',
      );
      // the meters' readings on the company's billing day of the month (issue 28): each once
      await billUtilitiesDaily(database, companyId, window.from, asOf);
      // the monthly service charge of every lease let, from the month's billing day on: each once (issue 28)
      await postServiceChargesDaily(database, companyId, window.from, asOf);
      return outcome;
    }
    if (attempt >= 3) throw new Error(`The rent cycle of company ${companyId} kept changing under its run.`);
  }
};
