import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import {
  formatCents,
  formatDate,
  formatMoney,
  howToPayLines,
  type ArrearsRemindAnswer,
  type Ledger,
  type Language,
  type MessageChannel,
} from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { execRows } from '../../db/client.ts';
import { currentUser } from '../../plugins/guard.ts';
import { howToPayWords } from '../../plugins/i18n.ts';
import { json, named } from '../../plugins/openapi.ts';
import { companyMoney } from '../../modules/companies/company.ts';
import { companyToday, loadSettings } from '../../modules/companies/company-settings.ts';
import { companyCallingCode, smsAddress } from '../../modules/companies/phones.ts';
import { ensureProperty } from '../../modules/properties/property.ts';
import { leaseLedger } from '../../modules/leases/ledger-data.ts';
import {
  loadTemplates,
  pickTemplate,
  renderMessage,
  tenantReaders,
} from '../../modules/messaging/message-templates.ts';
import { outbox, type OutgoingMessage } from '../../modules/messaging/outbox.ts';
import { whatsappPayload } from '../../modules/messaging/whatsapp.ts';
import { arrearsQuery } from './arrears-sql.ts';
import { arrearsRemindAnswerSchema, arrearsRemindBodySchema } from './answers.ts';

const DEBITS = new Set(['rent', 'late_fee', 'charge', 'opening_balance']);

/**
 * The oldest debit still unpaid on the ledger: the first one after the balance was last nothing or
 * a credit (credits pay the oldest debits first). Its date is the due date the overdue template names.
 */
export const oldestUnpaid = (ledger: Ledger): string | null => {
  let from = 0;
  ledger.entries.forEach((e, i) => {
    if (e.balance <= 0n) from = i + 1;
  });
  return ledger.entries.slice(from).find((e) => DEBITS.has(e.kind) && e.amount > 0n)?.date ?? null;
};

/** The idempotency key of a reminder sent from the Arrears page: one per lease, channel and day. */
export const remindKey = (leaseId: number, day: string, channel: MessageChannel) =>
  `arrears-remind:${leaseId}:${day}:${channel}`;

/**
 * `POST /arrears/remind`: the overdue reminder, by SMS or e-mail, to the tenants of the leases chosen
 * on the Arrears page (or of every lease in arrears, of one property with `property_id`), rendered
 * from the company's overdue template of that channel and queued in the outbox (the message log shows
 * it). Editors and admins; a lease is reminded once a day per channel (a second ask is 'already'); a
 * tenant without the address is logged as skipped ('no_address'), as the daily run does.
 */
export const arrearsRemindRoute = (app: FastifyInstance, ctx: AppContext) => {
  const { database } = ctx;
  app.withTypeProvider<ZodTypeProvider>().post(
    '/arrears/remind',
    {
      config: { access: 'canEdit' },
      schema: {
        operationId: 'remindArrears',
        tags: ['arrears'],
        summary:
          'Send the overdue reminder (SMS, e-mail or WhatsApp, the company’s template) to the chosen leases in arrears, or all of them; once a day per lease and channel',
        body: arrearsRemindBodySchema,
        response: { 200: json(named(arrearsRemindAnswerSchema, 'ArrearsRemindAnswer'), 'What was queued') },
      },
    },
    async (request): Promise<ArrearsRemindAnswer> => {
      const user = currentUser(request);
      const companyId = user.company_id;
      const { channel, occupancy_ids, all, property_id } = request.body;
      if (property_id !== undefined) await ensureProperty(database.db, companyId, property_id);
      const today = await companyToday(database, companyId);
      // the leases in arrears today (the page's rows): their overdue amount and balance, in cents
      const inArrears = (
        await execRows<Record<string, unknown>>(
          database.db,
          arrearsQuery({ companyId, asOf: today, propertyId: property_id }),
        )
      ).filter((r) => r.occupancy_id !== null);
      const byLease = new Map(inArrears.map((r) => [Number(r.occupancy_id), r]));
      const wanted = all ? [...byLease.keys()] : [...new Set(occupancy_ids ?? [])];
      const results: ArrearsRemindAnswer['results'] = [];
      const chosen = wanted.filter((id) => {
        if (byLease.has(id)) return true;
        results.push({ occupancy_id: id, tenant_name: '', status: 'not_in_arrears', to: null });
        return false;
      });
      const keys = chosen.map((id) => remindKey(id, today, channel));
      const sent = new Set(
        keys.length === 0
          ? []
          : (
              await execRows<{ dedup_key: string }>(
                database.db,
                sql`SELECT dedup_key FROM messages WHERE company_id = ${companyId}
                     AND dedup_key = ANY(${`{${keys.map((k) => `"${k}"`).join(',')}}`}::text[])`,
              )
            ).map((r) => r.dedup_key),
      );
      const company = await companyMoney(database, companyId);
      const money = (cents: bigint, language: Language) =>
        formatMoney(formatCents(cents), company.currency, company.decimals, language);
      const templates = await loadTemplates(database, companyId);
      const readersOf = await tenantReaders(database, companyId);
      const instructions = (await loadSettings(database, companyId)).payment_instructions;
      const callingCode = channel === 'email' ? null : await companyCallingCode(database.db, companyId);
      const messages: OutgoingMessage[] = [];
      for (const id of chosen) {
        const row = byLease.get(id) as Record<string, unknown>;
        const name = String(row.tenant_name ?? '');
        const key = remindKey(id, today, channel);
        const { lease, ledger } = await leaseLedger(database, companyId, id, today);
        const tenantName = `${lease.tenant_first_name} ${lease.tenant_last_name}`.trim() || name;
        const to =
          channel === 'email'
            ? lease.tenant_email
            : smsAddress(lease.tenant_phone, lease.tenant_country_code, callingCode);
        if (sent.has(key)) {
          results.push({ occupancy_id: id, tenant_name: tenantName, status: 'already', to: to ?? null });
          continue;
        }
        // WhatsApp only to a tenant who agreed to it (issue 29): nothing is queued for the others
        if (channel === 'whatsapp' && !lease.tenant_notify_whatsapp) {
          results.push({ occupancy_id: id, tenant_name: tenantName, status: 'skipped', to: null });
          continue;
        }
        const balance = BigInt(String(row.balance ?? '0'));
        const overdue = balance - BigInt(String(row.current ?? '0'));
        // in the tenant's language (issue 30); a WhatsApp message's text (in the log, and its SMS if
        // it fails) is the SMS template's
        const readers = readersOf(lease.tenant_id);
        const language = readers.recipient;
        const { template, id: templateId } = pickTemplate(
          templates,
          'overdue',
          channel === 'email' ? 'email' : 'sms',
          null,
          readers,
        );
        const values = {
          tenant_first_name: lease.tenant_first_name,
          unit_name: lease.unit_name,
          account_reference: lease.account_reference ?? '',
          how_to_pay: howToPayLines(instructions, lease.account_reference, howToPayWords(language)).join(
            '; ',
          ),
          amount_due: money(overdue, language),
          due_date: formatDate(oldestUnpaid(ledger) ?? today, language),
          balance: money(balance, language),
          company_name: company.name,
        };
        const text = renderMessage(template, values);
        messages.push({
          company_id: companyId,
          kind: 'reminder',
          channel,
          to: to ?? null,
          subject: text.subject,
          body: text.body,
          status: to ? 'queued' : 'skipped',
          error: to ? null : 'no_address',
          tenant_id: lease.tenant_id,
          occupancy_id: id,
          tenant_name: tenantName,
          dedup_key: key,
          template_id: templateId,
          send_date: today,
          ...(channel === 'whatsapp' ? { payload: whatsappPayload('overdue', values, language) } : {}),
        });
        results.push({ occupancy_id: id, tenant_name: tenantName, status: to ? 'queued' : 'skipped', to });
      }
      if (messages.length > 0) {
        const queued = await database.db.transaction((tx) => outbox.enqueue(tx, messages));
        // two asks at once: the one that came second finds the key taken; its leases are 'already'
        if (queued.length < messages.length) {
          const ids = new Set(
            (
              await execRows<{ occupancy_id: number }>(
                database.db,
                sql`SELECT occupancy_id FROM messages WHERE company_id = ${companyId}
                     AND id = ANY(${`{${queued.map((q) => q.id).join(',') || '0'}}`}::int[])`,
              )
            ).map((r) => Number(r.occupancy_id)),
          );
          for (const r of results)
            if ((r.status === 'queued' || r.status === 'skipped') && !ids.has(r.occupancy_id))
              r.status = 'already';
        }
      }
      const count = (s: string) => results.filter((r) => r.status === s).length;
      return { queued: count('queued'), skipped: count('skipped'), already: count('already'), results };
    },
  );
};
