import os from 'node:os';
import {
  formatMoney,
  receiptUrl,
  isStaleReminder,
  MAX_SEND_ATTEMPTS,
  NO_SMS_PROVIDER,
  NO_SMTP_SERVER,
  NO_WHATSAPP,
  NO_WHATSAPP_TEMPLATE,
  whatsappTemplateKindOf,
  type MessageChannel,
  type TemplateValues,
  howToPayLines,
} from '@kodi/domain';
import type { Config } from '../../config.ts';
import { sql } from 'drizzle-orm';
import { execRows, type Database } from '../../db/client.ts';
import { recordColumns } from '../../crud/record-columns.ts';
import { companyMoney, tenantLanguage, type CompanyMoney } from '../companies/company.ts';
import { companyLogo, loadSettings, type StoredSettings } from '../companies/company-settings.ts';
import { howToPayWords } from '../../plugins/i18n.ts';
import {
  loadTemplates,
  pickTemplate,
  renderMessage,
  tenantReaders,
  type Readers,
} from './message-templates.ts';
import { outbox, type OutgoingMessage } from './outbox.ts';
import { loadReceiptPayment, receiptNumberOf, receiptPdfBytes } from '../receipts/receipt-pdf.ts';
import { SendFailure, smsProvider, type SmsProvider } from '../../platform/sms.ts';
import { smtpSender, type SmtpSender } from '../../platform/smtp.ts';
import { companyCallingCode, smsAddress } from '../companies/phones.ts';
import { createSecretBox, loadSecretKeys, type SecretBox } from '../../platform/secrets.ts';
import {
  queueSmsFallback,
  sendWhatsapp,
  whatsappAccount,
  whatsappLanguages,
  NO_TEMPLATE_TRANSLATION,
  whatsappParameters,
  whatsappPayload,
  type WhatsappAccount,
  type WhatsappPayload,
} from './whatsapp.ts';

/**
 * The messages' sender (issue 17; docs/decisions.md, 'Messages'): the `messages` table is an outbox,
 * and every server runs this loop on it.
 *
 * 1. Receipts: completed payments whose receipts are not queued yet (`payments.receipt_queued`,
 *    whatever path completed them: a form, an update, an import) get their e-mail and SMS queued,
 *    rendered from the company's templates, as its `receipt_notification` and the tenant's
 *    `notify_email` / `notify_sms` say; the payment is marked in the same transaction. Saving a
 *    payment never waits for this.
 * 2. Sending: a batch of queued messages whose time has come is claimed in one statement
 *    (`FOR UPDATE SKIP LOCKED`: two servers never claim one message), marked `sending` until a
 *    deadline, and sent. Sent: `sent`. A failure that may be retried (a timeout, a network error,
 *    an HTTP 5xx, an SMTP 4xx) goes back to `queued` after a backoff that doubles, up to 5 attempts;
 *    any other failure (HTTP 4xx, SMTP 5xx) is `failed` at once. A claim whose server died lapses
 *    and another server takes the message back (it may then go twice: at least once, never in a loop).
 * 3. A reminder more than 2 days after its send date is `skipped` ('stale'), never sent late.
 */

export type SenderOptions = {
  /** how often the loop looks for work (0: never by itself; tests call `runOnce`) */
  intervalMs: number;
  /** the first retry's delay; each next one doubles it */
  retryBaseSeconds?: number;
  batchSize?: number;
  /** how many messages of a batch are sent at once */
  concurrency?: number;
  /** how long a claim lasts before another server may take the message back */
  claimSeconds?: number;
  smsTimeoutMs?: number;
  /** today's date (tests travel in time): a reminder is stale 2 days after its send date */
  today?: () => string;
  log?: (message: string, err?: unknown) => void;
  /** what opens the companies' WhatsApp credentials (the app's; else made from the configuration) */
  secrets?: SecretBox;
};

export type SendRound = { receipts: number; sent: number; retried: number; failed: number; skipped: number };

export type MessageSender = {
  /** one round: receipts queued, then one batch sent (tests call it; the loop too) */
  runOnce: () => Promise<SendRound>;
  /** rounds until nothing is left that can go now */
  drain: () => Promise<SendRound>;
  stop: () => Promise<void>;
};

type Claimed = {
  company_id: number;
  id: number;
  kind: string;
  channel: MessageChannel;
  to: string | null;
  subject: string | null;
  body: string;
  attempts: number;
  send_date: string | null;
  payment_id: number | null;
  payload: WhatsappPayload | null;
};

const RUNNER = `${os.hostname()}:${process.pid}`;
const RECEIPT_BATCH = 200;

/** The retry's delay after `attempts` attempts: base, 2×base, 4×base... */
export const backoffSeconds = (attempts: number, base: number): number =>
  base * 2 ** Math.max(0, attempts - 1);

type CompanyParts = { settings: StoredSettings; money: CompanyMoney };

/** Queues the receipts of completed payments not done yet; answers how many payments it did. */
export const queueReceipts = async (
  database: Database,
  config: Pick<Config, 'publicUrl'>,
): Promise<number> => {
  const due = await database.query<{ company_id: number; id: number }>(
    `SELECT company_id, id FROM payments WHERE status = 'completed' AND NOT receipt_queued ORDER BY id LIMIT ${RECEIPT_BATCH}`,
  );
  if (due.length === 0) return 0;
  const companies = new Map<
    number,
    CompanyParts & {
      templates: Awaited<ReturnType<typeof loadTemplates>>;
      callingCode: number | null;
      readersOf: (tenantId: number) => Readers;
    }
  >();
  for (const d of due) {
    const c = Number(d.company_id);
    if (companies.has(c)) continue;
    companies.set(c, {
      settings: await loadSettings(database, c),
      money: await companyMoney(database, c),
      templates: await loadTemplates(database, c),
      callingCode: await companyCallingCode(database.db, c),
      readersOf: await tenantReaders(database, c),
    });
  }
  type Row = {
    company_id: number;
    id: number;
    tenant_id: number;
    occupancy_id: number;
    amount_paid: string;
    receipt_number: string | null;
    receipt_code: string | null;
    first_name: string;
    last_name: string;
    email: string | null;
    phone: string | null;
    country_code: string | null;
    notify_email: boolean;
    notify_sms: boolean;
    notify_whatsapp: boolean;
    unit_name: string | null;
    account_reference: string | null;
  };
  return database.db.transaction(async (tx) => {
    const ids = due.map((d) => Number(d.id));
    // the same payments, locked (another server doing them skips them), still not done
    const rows = await execRows<Row>(
      tx,
      sql`SELECT p.company_id, p.id, p.tenant_id, p.occupancy_id, p.amount_paid::text AS amount_paid, p.receipt_number,
                 p.receipt_code, tn.first_name, tn.last_name, tn.email, tn.phone, tn.country_code, tn.notify_email,
                 tn.notify_sms, tn.notify_whatsapp, un.name AS unit_name, oc.account_reference
            FROM payments p
            JOIN tenants tn ON tn.company_id = p.company_id AND tn.id = p.tenant_id
            LEFT JOIN units un ON un.company_id = p.company_id AND un.id = p.unit_id
            LEFT JOIN occupancy oc ON oc.company_id = p.company_id AND oc.id = p.occupancy_id
           WHERE p.id IN (${sql.join(
             ids.map((id) => sql`${id}`),
             sql`, `,
           )})
             AND p.status = 'completed' AND NOT p.receipt_queued
           FOR UPDATE OF p SKIP LOCKED`,
    );
    const messages: OutgoingMessage[] = [];
    for (const p of rows) {
      const parts = companies.get(Number(p.company_id));
      if (!parts) continue;
      const { settings, money, templates, callingCode, readersOf } = parts;
      // in the tenant's language (issue 30): its template, its money and dates
      const readers = readersOf(Number(p.tenant_id));
      const values: TemplateValues = {
        tenant_first_name: p.first_name,
        unit_name: p.unit_name ?? '',
        account_reference: p.account_reference ?? '',
        how_to_pay: howToPayLines(
          settings.payment_instructions,
          p.account_reference,
          howToPayWords(readers.recipient),
        ).join('; '),
        amount_paid: formatMoney(p.amount_paid, money.currency, money.decimals, readers.recipient),
        receipt_number: receiptNumberOf(p),
        receipt_url: p.receipt_code ? receiptUrl(config.publicUrl, String(p.receipt_code)) : '',
        company_name: money.name,
      };
      const channels: MessageChannel[] = [];
      if (settings.receipt_notification.email && p.notify_email) channels.push('email');
      if (settings.receipt_notification.sms && p.notify_sms) channels.push('sms');
      if (settings.receipt_notification.whatsapp && p.notify_whatsapp) channels.push('whatsapp');
      for (const channel of channels) {
        // a WhatsApp message's text (in the log, and its SMS if it fails) is the SMS template's
        const { template, id } = pickTemplate(
          templates,
          'receipt',
          channel === 'email' ? 'email' : 'sms',
          null,
          readers,
        );
        const text = renderMessage(template, values);
        const to = channel === 'email' ? p.email : smsAddress(p.phone, p.country_code, callingCode);
        messages.push({
          company_id: Number(p.company_id),
          kind: 'receipt',
          channel,
          to,
          tenant_id: Number(p.tenant_id),
          occupancy_id: Number(p.occupancy_id),
          subject: text.subject,
          body: text.body,
          status: to ? 'queued' : 'skipped',
          error: to ? null : 'no_address',
          dedup_key: `receipt:${p.id}:${channel}`,
          template_id: id,
          payment_id: Number(p.id),
          tenant_name: `${p.first_name} ${p.last_name}`.trim(),
          ...(channel === 'whatsapp'
            ? { payload: whatsappPayload('receipt', values, readers.recipient) }
            : {}),
        });
      }
    }
    await outbox.enqueue(tx, messages);
    await recordColumns.flag(
      tx,
      'payments',
      rows.map((r) => Number(r.id)),
      'receipt_queued',
    );
    return rows.length;
  });
};

export const createMessageSender = (
  database: Database,
  config: Pick<
    Config,
    | 'smtpUrl'
    | 'mailFrom'
    | 'smsUrl'
    | 'publicUrl'
    | 'whatsappBaseUrl'
    | 'whatsappApiVersion'
    | 'secretKey'
    | 'oldSecretKeys'
    | 'databaseUrl'
    | 'dataDir'
  >,
  options: SenderOptions,
): MessageSender => {
  const {
    intervalMs,
    retryBaseSeconds = 30,
    batchSize = 50,
    concurrency = 10,
    claimSeconds = 120,
    smsTimeoutMs,
    today = () => new Date().toISOString().slice(0, 10),
    log = () => undefined,
  } = options;
  const sms: SmsProvider | undefined = smsProvider(config.smsUrl, smsTimeoutMs);
  const smtp: SmtpSender | undefined = smtpSender(config.smtpUrl, config.mailFrom);
  let box: Promise<SecretBox> | undefined = options.secrets ? Promise.resolve(options.secrets) : undefined;
  const secrets = () => (box ??= loadSecretKeys(config).then(createSecretBox));

  const claim = async () => {
    // claims whose server died: queued again (the attempt they made counts)
    await database.query(
      `UPDATE messages SET status = 'queued', claimed_until = NULL WHERE status = 'sending' AND claimed_until < now()`,
    );
    return database.query<Claimed>(
      `UPDATE messages m
          SET status = 'sending', attempts = m.attempts + 1, claimed_until = now() + make_interval(secs => $2),
              updated_at = now()
        WHERE (m.company_id, m.id) IN (
              SELECT company_id, id FROM messages
               WHERE status = 'queued' AND (next_attempt_at IS NULL OR next_attempt_at <= now())
               ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING m.company_id, m.id, m.kind, m.channel, m."to", m.subject, m.body, m.attempts,
                 to_char(m.send_date, 'YYYY-MM-DD') AS send_date, m.payment_id, m.payload`,
      [batchSize, claimSeconds],
    );
  };

  const finish = (
    m: Claimed,
    status: string,
    error: string | null,
    retryInSeconds?: number,
    externalId: string | null = null,
  ) =>
    database.query(
      `UPDATE messages SET status = $3::text, error = $4::text, claimed_until = NULL, updated_at = now(),
              sent_at = CASE WHEN $3::text = 'sent' THEN now() ELSE sent_at END,
              external_id = COALESCE($7::text, external_id),
              next_attempt_at = CASE WHEN $5::float8 IS NULL THEN NULL ELSE now() + make_interval(secs => $5::float8) END
        WHERE company_id = $1 AND id = $2 AND status = 'sending' AND attempts = $6::int
        RETURNING id`,
      [m.company_id, m.id, status, error, retryInSeconds ?? null, m.attempts, externalId],
    );

  const accounts = new Map<number, Promise<WhatsappAccount>>();
  const account = async (companyId: number) => {
    let a = accounts.get(companyId);
    if (!a) {
      a = secrets().then((s) => whatsappAccount(database, s, companyId));
      accounts.set(companyId, a);
    }
    return a;
  };

  const senderIds = new Map<number, string | null>();
  const senderId = async (companyId: number) => {
    if (!senderIds.has(companyId))
      senderIds.set(companyId, (await loadSettings(database, companyId)).sms_sender_id ?? null);
    return senderIds.get(companyId) ?? null;
  };

  const attachment = async (m: Claimed) => {
    if (m.kind !== 'receipt' || m.payment_id === null) return undefined;
    const p = await loadReceiptPayment(database, Number(m.company_id), Number(m.payment_id));
    if (!p) return undefined;
    const company = await companyMoney(database, Number(m.company_id));
    const logo = await companyLogo(database, Number(m.company_id));
    const content = await receiptPdfBytes(
      p,
      company,
      logo,
      receiptUrl(config.publicUrl, String(p.receipt_code)),
      await tenantLanguage(database, Number(m.company_id), p.tenant_id),
    );
    return [{ filename: `receipt_${receiptNumberOf(p)}.pdf`, content, contentType: 'application/pdf' }];
  };

  /** Sends one claimed message and records what happened: its outcome for the round's counts. */
  const deliver = async (m: Claimed): Promise<keyof Omit<SendRound, 'receipts'>> => {
    if (m.kind === 'reminder' && m.send_date && isStaleReminder(m.send_date, today())) {
      await finish(m, 'skipped', 'stale');
      return 'skipped';
    }
    if (!m.to) {
      await finish(m, 'skipped', 'no_address');
      return 'skipped';
    }
    let externalId: string | null = null;
    try {
      if (m.channel === 'whatsapp') {
        const a = await account(Number(m.company_id));
        if (!a.ok) {
          await finish(m, 'skipped', NO_WHATSAPP);
          return 'skipped';
        }
        const kind = m.payload?.kind ?? whatsappTemplateKindOf(m.kind);
        // a test message: Meta's sample template, without variables
        const template = m.kind === 'test' ? 'hello_world' : a.templates[kind];
        if (!template) {
          await finish(m, 'skipped', NO_WHATSAPP_TEMPLATE);
          return 'skipped';
        }
        // in the reader's language where the template has it, else the company's (issue 30)
        const languages = m.kind === 'test' ? ['en_US'] : whatsappLanguages(a.language, m.payload?.language);
        let sent: { id: string } | undefined;
        for (const [i, language] of languages.entries()) {
          try {
            sent = await sendWhatsapp(
              config,
              {
                phoneNumberId: a.phoneNumberId,
                token: a.token,
                to: m.to,
                template,
                language,
                parameters:
                  m.kind === 'test' ? [] : whatsappParameters(kind, m.payload?.values ?? {}, m.body),
              },
              smsTimeoutMs,
            );
            break;
          } catch (err) {
            const untranslated = err instanceof SendFailure && err.code === NO_TEMPLATE_TRANSLATION;
            if (!untranslated || i === languages.length - 1) throw err;
          }
        }
        if (!sent) throw new SendFailure('WhatsApp answered without a message id.', false);
        externalId = sent.id;
      } else if (m.channel === 'sms') {
        if (!sms) {
          await finish(m, 'skipped', NO_SMS_PROVIDER);
          return 'skipped';
        }
        await sms.send({ to: m.to, body: m.body, from: await senderId(Number(m.company_id)) });
      } else {
        if (!smtp) {
          await finish(m, 'skipped', NO_SMTP_SERVER);
          return 'skipped';
        }
        const attachments = await attachment(m);
        await smtp.send({
          to: m.to,
          subject: m.subject ?? '',
          text: m.body,
          ...(attachments ? { attachments } : {}),
        });
      }
      await finish(m, 'sent', null, undefined, externalId);
      return 'sent';
    } catch (err) {
      const failure = err instanceof SendFailure ? err : new SendFailure((err as Error).message, true);
      if (failure.retryable && m.attempts < MAX_SEND_ATTEMPTS) {
        await finish(m, 'queued', failure.message, backoffSeconds(m.attempts, retryBaseSeconds));
        return 'retried';
      }
      const done = await finish(m, 'failed', failure.message);
      // a WhatsApp message that failed goes by SMS when the company chose so (once: its dedup key)
      if (m.channel === 'whatsapp' && done.length > 0)
        await queueSmsFallback(database.db, Number(m.company_id), Number(m.id));
      return 'failed';
    }
  };

  const runOnce = async (): Promise<SendRound> => {
    const round: SendRound = { receipts: 0, sent: 0, retried: 0, failed: 0, skipped: 0 };
    round.receipts = await queueReceipts(database, config);
    senderIds.clear();
    accounts.clear();
    const batch = await claim();
    for (let i = 0; i < batch.length; i += concurrency) {
      const outcomes = await Promise.all(batch.slice(i, i + concurrency).map(deliver));
      for (const o of outcomes) round[o] += 1;
    }
    return round;
  };

  const drain = async (): Promise<SendRound> => {
    const total: SendRound = { receipts: 0, sent: 0, retried: 0, failed: 0, skipped: 0 };
    for (;;) {
      const r = await runOnce();
      for (const k of Object.keys(total) as (keyof SendRound)[]) total[k] += r[k];
      if (r.receipts === 0 && r.sent + r.retried + r.failed + r.skipped === 0) return total;
    }
  };

  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const loop = () => {
    if (stopped) return;
    running = drain()
      .catch((err: unknown) => log(`messages: a round failed (${RUNNER})`, err))
      .finally(() => {
        if (!stopped) timer = setTimeout(loop, intervalMs);
      });
  };
  if (intervalMs > 0) {
    timer = setTimeout(loop, Math.min(intervalMs, 1000));
    timer.unref();
  }

  return {
    runOnce,
    drain,
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      smtp?.close();
    },
  };
};
