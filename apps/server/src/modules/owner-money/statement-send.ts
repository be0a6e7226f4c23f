import { sql } from 'drizzle-orm';
import { AppError, formatDate, formatMoney } from '@kodi/domain';
import { execRows, type Database } from '../../db/client.ts';
import { companyMoney, ownerLanguage } from '../companies/company.ts';
import { translate } from '../../plugins/i18n.ts';
import { companyCallingCode, smsAddress } from '../companies/phones.ts';
import { outbox, type OutgoingMessage } from '../messaging/outbox.ts';
import { ownerStatement } from './owner-money.ts';

export type StatementSent = {
  channel: 'email' | 'sms';
  to: string | null;
  /** queued, skipped (no address: in the log as such) or already (this key was sent before) */
  status: 'queued' | 'skipped' | 'already';
  message_id: number | null;
};

/** The owner portal's statements, where the owner opens the statement and its PDF. */
export const ownerPortalLink = (publicUrl: string) => `${publicUrl.replace(/\/+$/, '')}/owner`;

/**
 * Queues an owner's statement of `from` through `to` in the outbox (the message log shows it, the
 * sender sends it): by e-mail its figures in words with the link to the owner portal (where its PDF
 * is, behind the owner's sign-in), and by SMS the closing balance and the link. One message per
 * channel; an owner without the address gets it logged as skipped ('no_address'), as reminders are.
 * `key` makes it once: a second call with the same key queues nothing ('already').
 */
export const queueOwnerStatement = async (
  database: Database,
  p: { companyId: number; ownerId: number; from: string; to: string; publicUrl: string; key: string },
): Promise<StatementSent[]> => {
  const [owner] = await execRows<{ name: string; email: string | null; phone: string | null }>(
    database.db,
    sql`SELECT display_name AS name, email, phone FROM owners WHERE company_id = ${p.companyId} AND id = ${p.ownerId}`,
  );
  if (!owner) throw new AppError('not_found', 'Owner not found.');
  const s = await ownerStatement(database.db, p.companyId, p.ownerId, p.from, p.to);
  const company = await companyMoney(database, p.companyId);
  // in the owner's language (issue 30): its words, money and dates
  const language = await ownerLanguage(database, p.companyId, p.ownerId);
  const tr = (key: string, values?: Record<string, string>) =>
    translate(language, `doc.ownerStatementMessage.${key}`, values);
  const money = (v: string) => formatMoney(v, company.currency, company.decimals, language);
  const link = ownerPortalLink(p.publicUrl);
  const period = `${formatDate(p.from, language)} – ${formatDate(p.to, language)}`;
  const t = s.totals;
  const email = [
    tr('dear', { name: owner.name }),
    '',
    tr('intro', { company: company.name, period }),
    '',
    ...s.properties.map((x) =>
      tr('property', {
        property: x.property_name ?? translate(language, 'doc.ownerStatementPdf.noProperty'),
        collected: money(x.collected),
        expenses: money(x.expenses),
        fees: money(x.management_fees),
        tax: money(x.rental_tax),
        payouts: money(x.payouts),
        held: money(x.closing_balance),
        occupied: String(x.occupied_units),
        units: String(x.units),
      }),
    ),
    '',
    tr('openingBalance', { amount: money(t.opening_balance) }),
    tr('collected', { amount: money(t.collected) }),
    tr('expenses', { amount: money(t.expenses) }),
    tr('managementFees', { amount: money(t.management_fees) }),
    tr('rentalTax', { amount: money(t.rental_tax) }),
    tr('payouts', { amount: money(t.payouts) }),
    tr('closingBalance', { amount: money(t.closing_balance) }),
    tr('available', { amount: money(t.available) }),
    '',
    tr('link', { link }),
    '',
    company.name,
  ].join('\n');
  const sms = tr('sms', {
    company: company.name,
    period,
    held: money(t.closing_balance),
    available: money(t.available),
    link,
  });
  const callingCode = await companyCallingCode(database.db, p.companyId);
  const base = { company_id: p.companyId, kind: 'owner_statement', tenant_name: owner.name } as const;
  const messages: (OutgoingMessage & { channel: 'email' | 'sms' })[] = [
    {
      ...base,
      channel: 'email' as const,
      to: owner.email?.trim() || null,
      subject: tr('subject', { period, company: company.name }).slice(0, 1000),
      body: email,
      dedup_key: `${p.key}:email`,
    },
    {
      ...base,
      channel: 'sms' as const,
      to: smsAddress(owner.phone, null, callingCode),
      subject: null,
      body: sms,
      dedup_key: `${p.key}:sms`,
    },
  ].map((m) => ({ ...m, ...(m.to === null ? { status: 'skipped' as const, error: 'no_address' } : {}) }));
  const queued = await database.db.transaction((tx) => outbox.enqueue(tx, messages));
  // the ids answered in the order given, those left out (their key was there) missing
  const ids = await execRows<{ id: number; dedup_key: string }>(
    database.db,
    sql`SELECT id, dedup_key FROM messages WHERE company_id = ${p.companyId}
          AND dedup_key IN (${`${p.key}:email`}, ${`${p.key}:sms`})`,
  );
  const fresh = new Set(queued.map((q) => q.id));
  return messages.map((m) => {
    const id = ids.find((r) => r.dedup_key === m.dedup_key);
    const messageId = id ? Number(id.id) : null;
    return {
      channel: m.channel,
      to: m.to,
      status: messageId !== null && fresh.has(messageId) ? (m.status ?? 'queued') : 'already',
      message_id: messageId,
    };
  });
};

const pad = (n: number) => String(n).padStart(2, '0');

/** The month before `day`'s (YYYY-MM) and its first and last days. */
export const previousMonth = (day: string): { month: string; from: string; to: string } => {
  const [y, m] = day.split('-').map(Number) as [number, number];
  const first = new Date(Date.UTC(y, m - 2, 1));
  const month = `${first.getUTCFullYear()}-${pad(first.getUTCMonth() + 1)}`;
  const last = new Date(Date.UTC(y, m - 1, 0)).toISOString().slice(0, 10);
  return { month, from: `${month}-01`, to: last };
};

/**
 * The daily run's part (issue 27): on the company's 'owner statements day' (a day the run covers,
 * `from` through `asOf`, of `asOf`'s month), every owner's statement of the month before is queued,
 * once: its key is the owner and the month, so a second run, or a second server, queues nothing.
 * Answers how many messages it queued.
 */
export const sendMonthlyOwnerStatements = async (
  database: Database,
  companyId: number,
  day: number | null,
  from: string,
  asOf: string,
  publicUrl: string,
): Promise<number> => {
  if (day === null) return 0;
  const sendDay = `${asOf.slice(0, 7)}-${pad(day)}`;
  if (sendDay < from || sendDay > asOf) return 0;
  const { month, from: start, to } = previousMonth(sendDay);
  const owners = await execRows<{ id: number }>(
    database.db,
    sql`SELECT id FROM owners WHERE company_id = ${companyId} ORDER BY id`,
  );
  let queued = 0;
  for (const o of owners) {
    const sent = await queueOwnerStatement(database, {
      companyId,
      ownerId: Number(o.id),
      from: start,
      to,
      publicUrl,
      key: `owner-statement:${Number(o.id)}:${month}`,
    });
    queued += sent.filter((s) => s.status === 'queued').length;
  }
  return queued;
};
