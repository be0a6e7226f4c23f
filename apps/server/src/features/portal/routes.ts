import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  AppError,
  buildLedger,
  centsToNumber,
  ledgerAnswer,
  ledgerAnswerSchema,
  leaseReadingSchema,
  type LeaseReading,
  MAX_PORTAL_PHOTO_BYTES,
  periodStart,
  portalAddressConfirmBody,
  portalMeBody,
  portalMeSchema,
  portalMessages,
  portalPaymentsSchema,
  portalAnnouncementsSchema,
  portalRequestBody,
  portalRequestSchema,
  rateOn,
  receiptUrl,
  rentPeriods,
  type PortalLease,
  type PortalMe,
  type SessionUser,
  howToPayLines,
  type PaymentInstructions,
  type Language,
  resolveLanguage,
} from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { execRows, type Database } from '../../db/client.ts';
import { dropSignInEmail, setSignInAddress } from '../../modules/identity/accounts.ts';
import { isoDaySql } from '../../db/dates.ts';
import { currentUser } from '../../plugins/guard.ts';
import { howToPayWords, translate } from '../../plugins/i18n.ts';
import { recordIdParams, sendDownload, sendStoredPhoto } from '../../crud/record-route.ts';
import { recordColumns } from '../../crud/record-columns.ts';
import { errors, file, json, named, PDF } from '../../plugins/openapi.ts';
import { callingCodeOf, companyCallingCode, readPhoneNumber } from '../../modules/companies/phones.ts';
import { companyMoney, tenantLanguage, userLanguage } from '../../modules/companies/company.ts';
import { companyLogo, companyToday, loadSettings } from '../../modules/companies/company-settings.ts';
import { loadLeaseBook } from '../../modules/leases/lease-book.ts';
import { tenantAnnouncements } from '../../modules/messaging/announcements.ts';
import { leaseLedger } from '../../modules/leases/ledger-data.ts';
import { leaseStatementPdf } from '../../modules/leases/statement-pdf.ts';
import { receiptPdf } from '../../modules/receipts/receipt-pdf.ts';
import { publicBaseUrl } from '../../plugins/public-url.ts';
import { sniffImage } from '../../platform/image-sniffing.ts';
import { hitRateLimit } from '../../plugins/rate-limit.ts';
import {
  countWrongCode,
  accountById,
  companyName,
  issueToken,
  queueMessage,
  rethrowAddressTaken,
  recordAddresses,
  tokenHash,
  useToken,
} from './accounts.ts';

/** New addresses a tenant may ask codes for: this many in this many seconds. */
const ADDRESS_CODES = 5;
const ADDRESS_CODES_WINDOW = 900;

/** The signed-in tenant: its company and its tenant record, from the session only. */
const tenantOf = (user: SessionUser) => {
  if (!user.tenant_id) throw new AppError('forbidden');
  return { companyId: user.company_id, tenantId: user.tenant_id };
};

type TenantRecord = PortalMe['tenant'];

const readTenant = async (database: Database, companyId: number, tenantId: number): Promise<TenantRecord> => {
  const rows = await database.query<TenantRecord>(
    `SELECT id, first_name, last_name, email, phone, country_code, emergency_contact_name,
            emergency_contact_phone, notify_email, notify_sms, notify_whatsapp, version
       FROM tenants WHERE company_id = $1 AND id = $2`,
    [companyId, tenantId],
  );
  const t = rows[0];
  if (!t) throw new AppError('not_found');
  return { ...t, id: Number(t.id), version: Number(t.version), country_code: t.country_code?.trim() || null };
};

/** The tenant's own lease (another tenant's, in the same company or not: 404). */
const ownLease = async (database: Database, companyId: number, tenantId: number, id: number) => {
  const rows = await database.query<{ id: number; unit_id: number }>(
    'SELECT id, unit_id FROM occupancy WHERE company_id = $1 AND id = $2 AND tenant_id = $3',
    [companyId, id, tenantId],
  );
  const lease = rows[0];
  if (!lease) throw new AppError('not_found', 'Occupancy record not found.');
  return { id: Number(lease.id), unit_id: Number(lease.unit_id) };
};

/** A lease as the portal's home shows it: its terms, its balance, and its next rent due. */
const leaseSummary = async (
  database: Database,
  companyId: number,
  id: number,
  today: string,
  meta: { property_name: string | null; active: boolean },
  instructions: PaymentInstructions,
  language: Language = 'en',
): Promise<PortalLease> => {
  const book = await loadLeaseBook(database, companyId, id, today);
  const ledger = buildLedger(book.lease, book.payments, today, book.extras);
  const terms = book.lease;
  const next =
    terms.start_date > today ? terms.start_date : periodStart(terms, rentPeriods(terms, today).length);
  const ended = !meta.active || (terms.end_date && next > terms.end_date);
  return {
    id,
    unit_name: terms.unit_name,
    property_name: meta.property_name,
    rate: Number(terms.rate),
    rent_cycle: terms.rent_cycle,
    start_date: terms.start_date,
    end_date: terms.end_date ?? null,
    active: meta.active,
    balance: centsToNumber(ledger.balance),
    next_due_date: ended ? null : next,
    next_due_amount: ended ? null : centsToNumber(rateOn(terms, next)),
    account_reference: terms.account_reference,
    how_to_pay: howToPayLines(instructions, terms.account_reference, howToPayWords(language)),
  };
};

const MAX_REQUEST_BODY = 22 * 1024 * 1024;

const meAnswerSchema = named(portalMeSchema, 'PortalMe');
const paymentsAnswerSchema = named(portalPaymentsSchema, 'PortalPayments');
const announcementsAnswerSchema = named(portalAnnouncementsSchema, 'PortalAnnouncements');
const requestAnswerSchema = named(portalRequestSchema, 'PortalRequest');

/**
 * What a tenant sees in the portal (issue 19), each route scoped to its own tenant record from the
 * session: its details and leases, a lease's ledger and statement (the staff's own), its payments and
 * receipts, its maintenance requests. Another tenant's record is a 404, in the same company or not.
 */
export const portalRoutes = (app: FastifyInstance, ctx: AppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database } = ctx;
  const access = { access: 'tenant' as const };

  const readMe = async (user: SessionUser): Promise<PortalMe> => {
    const { companyId, tenantId } = tenantOf(user);
    const tenant = await readTenant(database, companyId, tenantId);
    const today = await companyToday(database, companyId);
    const company = await companyMoney(database, companyId);
    const logo = await database.query<{ has_logo: boolean }>(
      'SELECT logo IS NOT NULL AS has_logo FROM company_settings WHERE company_id = $1',
      [companyId],
    );
    const leases = await database.query<{ id: number; property_name: string | null; active: boolean }>(
      `SELECT o.id, p.name AS property_name, o.is_active AS active
         FROM occupancy o LEFT JOIN properties p ON p.company_id = o.company_id AND p.id = o.property_id
        WHERE o.company_id = $1 AND o.tenant_id = $2 ORDER BY o.is_active DESC, o.start_date DESC, o.id DESC LIMIT 20`,
      [companyId, tenantId],
    );
    const summaries: PortalLease[] = [];
    const instructions = (await loadSettings(database, companyId)).payment_instructions;
    for (const l of leases)
      summaries.push(
        await leaseSummary(
          database,
          companyId,
          Number(l.id),
          today,
          {
            property_name: l.property_name,
            active: !!l.active,
          },
          instructions,
          // in the tenant's language (issue 30)
          resolveLanguage(user.language),
        ),
      );
    const pending = await database.query<{
      kind: string;
      value: string | null;
      expires_at: Date | string;
    }>(
      `SELECT kind, value, expires_at FROM portal_tokens
        WHERE user_id = $1 AND kind IN ('email_change', 'phone_change') AND used_at IS NULL
          AND expires_at > now() ORDER BY id`,
      [user.id],
    );
    return {
      tenant,
      pending: pending.map((p) => ({
        field: p.kind === 'email_change' ? ('email' as const) : ('phone' as const),
        value: p.value ?? '',
        expires_at: new Date(p.expires_at).toISOString(),
      })),
      company: {
        name: company.name,
        currency: company.currency,
        decimals: company.decimals ?? null,
        logo_url: logo[0]?.has_logo ? '/rentapi/api/portal/logo' : null,
      },
      leases: summaries,
      as_of: today,
    };
  };

  const meAnswer = json(meAnswerSchema, 'The tenant, its leases and its company');

  r.get(
    '/portal/me',
    {
      config: access,
      schema: {
        operationId: 'getPortalMe',
        tags: ['portal'],
        summary: 'The tenant’s own details and leases (balance, next due), and its company',
        response: { 200: meAnswer },
      },
    },
    async (request) => readMe(currentUser(request)),
  );

  r.put(
    '/portal/me',
    {
      config: access,
      schema: {
        operationId: 'updatePortalMe',
        tags: ['portal'],
        summary: 'Change the tenant’s phone, e-mail, emergency contact and notification choices',
        description:
          'A new e-mail or phone is not saved yet: a code is sent to it (`pending`), and ' +
          '`POST /portal/me/confirm` with that code saves it. The answer is the same whoever else uses ' +
          'the address.',
        body: portalMeBody,
        response: { 200: meAnswer, ...errors(409, 429) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { companyId, tenantId } = tenantOf(user);
      const { version, email, phone, ...others } = request.body;
      // the keys are the body schema's (a strict object): never a column the tenant may not change
      const sets: [string, unknown][] = Object.entries(others).filter(([, v]) => v !== undefined);
      const current = await readTenant(database, companyId, tenantId);
      const account = await accountById(database, user.id);
      const signsIn = { email: account?.user.email || null, phone: account?.phone ?? null };
      const now = await recordAddresses(database, companyId, current);
      // A sign-in address is never taken over by typing it (issue 23): a new one waits for the code
      // sent to it. The record takes at once what is no new address: the same one in another writing,
      // the one the account signs in with already, an e-mail removed, a phone no country reads.
      const changes: { field: 'email' | 'phone'; value: string; address: string }[] = [];
      let dropEmail = false;
      if (email !== undefined) {
        const next = email === null ? null : email.toLowerCase();
        if (next === null) {
          if (now.email !== null) {
            sets.push(['email', null]);
            // it stops signing in with it, unless it is the only way in
            dropEmail = signsIn.phone !== null;
          }
        } else if (next !== now.email) {
          if (next === signsIn.email) sets.push(['email', next]);
          else changes.push({ field: 'email', value: next, address: next });
        }
      }
      // the phone as the staff's form saves it: E.164 of the tenant's or the company's country
      let typedPhone = phone;
      if (typedPhone !== undefined && typedPhone !== null) {
        const code =
          callingCodeOf(current.country_code, null) ?? (await companyCallingCode(database.db, companyId));
        const reading = readPhoneNumber(typedPhone, code);
        if ('error' in reading)
          throw new AppError('validation_failed', reading.error, { phone: reading.error });
        typedPhone = reading.e164;
      }
      if (typedPhone !== undefined && typedPhone !== current.phone) {
        const phone = typedPhone;
        const next = (await recordAddresses(database, companyId, { ...current, email: null, phone })).phone;
        if (!next || next === now.phone || next === signsIn.phone) sets.push(['phone', phone]);
        else changes.push({ field: 'phone', value: phone, address: next });
      }
      if (changes.length > 0 && ctx.config.rateLimits) {
        await hitRateLimit(database, `portal-address:${user.id}`, ADDRESS_CODES, ADDRESS_CODES_WINDOW);
      }
      await database.db.transaction(async (tx) => {
        const updated = await recordColumns.set(
          tx,
          'tenants',
          companyId,
          tenantId,
          Object.fromEntries(sets),
          {
            bumpVersion: true,
            atVersion: version,
          },
        );
        if (!updated) throw new AppError('conflict');
        if (dropEmail) {
          await dropSignInEmail(tx, user.id);
        }
      });
      // The code goes to the new address whoever else signs in with it (its holder is the only one who
      // can learn that, by confirming it), so that nothing here, nor the company's message log,
      // differs between a free address and a taken one.
      if (changes.length > 0) {
        const company = await companyName(database, companyId);
        // in the tenant's language, else the company's (issue 30)
        const language = await userLanguage(database, user.id);
        for (const c of changes) {
          const { secret } = await issueToken(ctx, user.id, `${c.field}_change`, {
            address: c.address,
            value: c.value,
          });
          await queueMessage(database, {
            companyId,
            kind: 'sign_in_code',
            channel: c.field === 'email' ? 'email' : 'sms',
            to: c.address,
            tenantId,
            subject:
              c.field === 'email'
                ? translate(language, 'doc.accountMessages.confirmEmailSubject', { company })
                : null,
            body: translate(language, 'doc.accountMessages.confirmCodeText', {
              company,
              what: c.field,
              code: secret,
            }),
          });
        }
      }
      return readMe(user);
    },
  );

  r.post(
    '/portal/me/confirm',
    {
      config: access,
      schema: {
        operationId: 'confirmPortalAddress',
        tags: ['portal'],
        summary:
          'Saves a new e-mail or phone with the code sent to it: the tenant signs in with it from then on',
        description:
          'A wrong or expired code is a 400 (the fifth wrong one uses the pending codes up); an address ' +
          'another account took meanwhile is a 409, told only to whoever holds the code.',
        body: portalAddressConfirmBody,
        response: { 200: meAnswer, ...errors(400, 409, 429) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { companyId, tenantId } = tenantOf(user);
      if (ctx.config.rateLimits) await hitRateLimit(database, `portal-confirm:${user.id}`, 10);
      const wrong = () =>
        new AppError('validation_failed', portalMessages.addressCodeWrong, {
          code: portalMessages.addressCodeWrong,
        });
      const pending = await database.query<{
        id: number;
        kind: 'email_change' | 'phone_change';
        token_hash: string;
        address: string | null;
        value: string | null;
      }>(
        `SELECT id, kind, token_hash, address, value FROM portal_tokens
          WHERE user_id = $1 AND kind IN ('email_change', 'phone_change') AND used_at IS NULL
            AND expires_at > now() ORDER BY id`,
        [user.id],
      );
      const match = pending.find((p) => p.token_hash === tokenHash(user.id, p.kind, request.body.code));
      if (!match?.address || match.value === null) {
        // the fifth wrong try uses the pending codes up
        for (const p of pending) await countWrongCode(database, p.id);
        throw wrong();
      }
      if (!(await useToken(database, match.id))) throw wrong();
      const field = match.kind === 'email_change' ? 'email' : 'phone';
      const address = match.address;
      await database.db
        .transaction(async (tx) => {
          const taken = await execRows(
            tx,
            field === 'email'
              ? sql`SELECT 1 FROM users WHERE lower(email) = lower(${address}) AND id <> ${user.id}`
              : sql`SELECT 1 FROM users WHERE phone = ${address} AND id <> ${user.id}`,
          );
          if (taken.length > 0) {
            throw new AppError('duplicate', portalMessages.addressTaken, {
              [field]: portalMessages.addressTaken,
            });
          }
          await recordColumns.set(
            tx,
            'tenants',
            companyId,
            tenantId,
            { [field]: match.value },
            { bumpVersion: true },
          );
          await setSignInAddress(tx, user.id, field, address);
        })
        .catch(rethrowAddressTaken);
      return readMe(user);
    },
  );

  r.get(
    '/portal/logo',
    {
      config: access,
      schema: {
        operationId: 'getPortalLogo',
        tags: ['portal'],
        summary: 'The tenant’s company logo',
        response: { 200: file('The logo', 'image/png', 'image/jpeg', 'image/webp'), ...errors(404) },
      },
    },
    async (request, reply) => {
      const { companyId } = tenantOf(currentUser(request));
      const logo = await companyLogo(database, companyId);
      if (!logo) throw new AppError('not_found');
      return (reply as FastifyReply)
        .type(logo.type)
        .header('Cache-Control', 'private, max-age=3600')
        .send(logo.data);
    },
  );

  r.get(
    '/portal/leases/:id/ledger',
    {
      config: access,
      schema: {
        operationId: 'getPortalLeaseLedger',
        tags: ['portal'],
        summary: 'The ledger of one of the tenant’s leases, as staff see it (today)',
        params: recordIdParams,
        response: {
          200: json(ledgerAnswerSchema, 'The entries, oldest first, and the balance'),
          ...errors(404),
        },
      },
    },
    async (request) => {
      const { companyId, tenantId } = tenantOf(currentUser(request));
      const lease = await ownLease(database, companyId, tenantId, request.params.id);
      const asOf = await companyToday(database, companyId);
      const { ledger } = await leaseLedger(database, companyId, lease.id, asOf);
      return ledgerAnswer(lease.id, asOf, ledger);
    },
  );

  r.get(
    '/portal/leases/:id/meter-readings',
    {
      config: access,
      schema: {
        operationId: 'getPortalLeaseReadings',
        tags: ['portal'],
        summary:
          'The meter readings billed to one of the tenant’s leases (issue 28): each with its charge, the reading before and the consumption',
        params: recordIdParams,
        response: {
          200: json(z.array(named(leaseReadingSchema, 'LeaseReading')), 'The readings, newest first'),
          ...errors(404),
        },
      },
    },
    async (request) => {
      const { companyId, tenantId } = tenantOf(currentUser(request));
      const lease = await ownLease(database, companyId, tenantId, request.params.id);
      const rows = await database.query<Record<string, unknown>>(
        `SELECT r.id, r.charge_id, m.number AS meter_number, m.kind, m.unit_of_measure,
                to_char(r.previous_date, 'YYYY-MM-DD') AS previous_date, r.previous_value::text AS previous_value,
                to_char(r.reading_date, 'YYYY-MM-DD') AS reading_date, r.value::text AS value,
                GREATEST(r.consumption, 0)::text AS consumption, r.billed_amount::text AS amount,
                r.photo IS NOT NULL AS has_photo
           FROM meter_readings r JOIN meters m ON m.company_id = r.company_id AND m.id = r.meter_id
          WHERE r.company_id = $1 AND r.billed_occupancy_id = $2 AND r.charge_id IS NOT NULL
          ORDER BY r.reading_date DESC, r.id DESC`,
        [companyId, lease.id],
      );
      return rows.map((r): LeaseReading => ({
        id: Number(r.id),
        charge_id: Number(r.charge_id),
        meter_number: String(r.meter_number),
        kind: r.kind as LeaseReading['kind'],
        unit_of_measure: r.unit_of_measure as LeaseReading['unit_of_measure'],
        previous_date: (r.previous_date as string | null) ?? null,
        previous_value: Number(r.previous_value ?? 0),
        reading_date: String(r.reading_date),
        value: Number(r.value),
        consumption: Number(r.consumption ?? 0),
        amount: Number(r.amount ?? 0),
        has_photo: r.has_photo === true,
      }));
    },
  );

  r.get(
    '/portal/meter-readings/:id/photo',
    {
      config: access,
      schema: {
        operationId: 'getPortalReadingPhoto',
        tags: ['portal'],
        summary: 'The photo of a meter reading billed to one of the tenant’s leases',
        params: recordIdParams,
        response: { 200: file('The photo', 'image/png', 'image/jpeg', 'image/webp'), ...errors(404) },
      },
    },
    async (request, reply) => {
      const { companyId, tenantId } = tenantOf(currentUser(request));
      const rows = await database.query<{ photo: string | null }>(
        `SELECT r.photo FROM meter_readings r
           JOIN occupancy o ON o.company_id = r.company_id AND o.id = r.billed_occupancy_id
          WHERE r.company_id = $1 AND r.id = $2 AND o.tenant_id = $3 AND r.charge_id IS NOT NULL`,
        [companyId, request.params.id, tenantId],
      );
      const photo = rows[0]?.photo;
      const type = photo ? sniffImage(Buffer.from(photo, 'base64')) : undefined;
      return sendStoredPhoto(
        reply as FastifyReply,
        photo && type ? { mime_type: type, data_base64: photo } : undefined,
      );
    },
  );

  r.get(
    '/portal/leases/:id/statement.pdf',
    {
      config: access,
      schema: {
        operationId: 'getPortalLeaseStatement',
        tags: ['portal'],
        summary: 'The statement of one of the tenant’s leases, as a PDF (the staff’s own)',
        params: recordIdParams,
        response: { 200: file('The statement (named in Content-Disposition)', PDF), ...errors(404) },
      },
    },
    async (request, reply) => {
      const { companyId, tenantId } = tenantOf(currentUser(request));
      const own = await ownLease(database, companyId, tenantId, request.params.id);
      const asOf = await companyToday(database, companyId);
      const { filename, doc } = await leaseStatementPdf(database, companyId, own.id, asOf);
      return sendDownload(reply.header('Cache-Control', 'no-store'), 'application/pdf', filename, doc);
    },
  );

  const PAYMENT_COLUMNS = `p.id, p.occupancy_id, ${isoDaySql('p.payment_date')} AS payment_date,
    p.amount_paid::text AS amount_paid, p.payment_method, p.status, p.receipt_number, p.unit_name,
    ${isoDaySql('p.effective_start_date')} AS effective_start_date,
    ${isoDaySql('p.effective_end_date')} AS effective_end_date`;

  r.get(
    '/portal/payments',
    {
      config: access,
      schema: {
        operationId: 'listPortalPayments',
        tags: ['portal'],
        summary: 'The tenant’s payments, newest first, a page at a time',
        querystring: z.object({
          page: z.coerce.number().int().min(1).max(100_000).default(1),
          page_size: z.coerce.number().int().min(1).max(100).default(20),
        }),
        response: { 200: json(paymentsAnswerSchema, 'A page of payments') },
      },
    },
    async (request) => {
      const { companyId, tenantId } = tenantOf(currentUser(request));
      const { page, page_size } = request.query;
      const rows = await database.query<Record<string, unknown>>(
        `SELECT ${PAYMENT_COLUMNS} FROM payments p WHERE p.company_id = $1 AND p.tenant_id = $2
          ORDER BY p.payment_date DESC, p.id DESC LIMIT $3 OFFSET $4`,
        [companyId, tenantId, page_size, (page - 1) * page_size],
      );
      const total = await database.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM payments WHERE company_id = $1 AND tenant_id = $2',
        [companyId, tenantId],
      );
      return {
        rows: rows.map((p) => ({
          id: Number(p.id),
          occupancy_id: Number(p.occupancy_id),
          payment_date: String(p.payment_date),
          amount_paid: Number(p.amount_paid),
          payment_method: (p.payment_method as string | null) ?? null,
          status: String(p.status),
          receipt_number: (p.receipt_number as string | null) ?? null,
          unit_name: (p.unit_name as string | null) ?? null,
          effective_start_date: String(p.effective_start_date),
          effective_end_date: String(p.effective_end_date),
        })),
        total: Number(total[0]?.n ?? 0),
        page,
        page_size,
      };
    },
  );

  r.get(
    '/portal/announcements',
    {
      config: access,
      schema: {
        operationId: 'listPortalAnnouncements',
        tags: ['portal'],
        summary: 'The announcements sent to the tenant (its property’s and the company’s), newest first',
        querystring: z.object({
          page: z.coerce.number().int().min(1).max(100_000).default(1),
          page_size: z.coerce.number().int().min(1).max(50).default(10),
        }),
        response: { 200: json(announcementsAnswerSchema, 'A page of announcements') },
      },
    },
    async (request) => {
      const { companyId, tenantId } = tenantOf(currentUser(request));
      const { page, page_size } = request.query;
      return tenantAnnouncements(database, companyId, tenantId, page, page_size);
    },
  );

  r.get(
    '/portal/payments/:id/receipt.pdf',
    {
      config: access,
      schema: {
        operationId: 'getPortalReceipt',
        tags: ['portal'],
        summary: 'The receipt of one of the tenant’s payments, as a PDF (the staff’s own)',
        params: recordIdParams,
        response: { 200: file('The receipt, A4 (named in Content-Disposition)', PDF), ...errors(404) },
      },
    },
    async (request, reply) => {
      const { companyId, tenantId } = tenantOf(currentUser(request));
      const rows = await database.query<Record<string, unknown>>(
        `SELECT ${PAYMENT_COLUMNS}, p.payment_serial, p.reference_number, p.payment_details, p.receipt_code,
                tn.first_name AS tenant_first_name, tn.last_name AS tenant_last_name,
                (SELECT o.account_reference FROM occupancy o
                  WHERE o.company_id = p.company_id AND o.id = p.occupancy_id) AS account_reference
           FROM payments p JOIN tenants tn ON tn.company_id = p.company_id AND tn.id = p.tenant_id
          WHERE p.company_id = $1 AND p.id = $2 AND p.tenant_id = $3`,
        [companyId, request.params.id, tenantId],
      );
      const p = rows[0];
      if (!p) throw new AppError('not_found', 'Payment not found.');
      const company = await companyMoney(database, companyId);
      const logo = await companyLogo(database, companyId);
      const verifyUrl = receiptUrl(publicBaseUrl(ctx.config, request), String(p.receipt_code));
      const language = await tenantLanguage(database, companyId, tenantId);
      const { filename, doc } = receiptPdf(p, company, logo, verifyUrl, language);
      return sendDownload(reply, 'application/pdf', filename, doc);
    },
  );

  const readRequests = async (companyId: number, tenantId: number, id?: number) => {
    const rows = await database.query<Record<string, unknown>>(
      `SELECT m.id, m.unit_name, to_char(m.request_date, 'YYYY-MM-DD') AS request_date, m.description,
              m.priority, m.status,
              to_char(m.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at,
              COALESCE((SELECT json_agg(json_build_object('id', ph.id, 'file_name', ph.file_name,
                                                          'mime_type', ph.mime_type) ORDER BY ph.id)
                          FROM maintenance_request_photos ph
                         WHERE ph.company_id = m.company_id AND ph.request_id = m.id), '[]') AS photos
         FROM maintenance_requests m
        WHERE m.company_id = $1 AND m.tenant_id = $2 ${id ? 'AND m.id = $3' : ''}
        ORDER BY m.request_date DESC, m.id DESC LIMIT 100`,
      id ? [companyId, tenantId, id] : [companyId, tenantId],
    );
    return rows.map((m) =>
      portalRequestSchema.parse({
        ...m,
        id: Number(m.id),
        photos: typeof m.photos === 'string' ? JSON.parse(m.photos) : m.photos,
      }),
    );
  };

  r.get(
    '/portal/maintenance-requests',
    {
      config: access,
      schema: {
        operationId: 'listPortalMaintenanceRequests',
        tags: ['portal'],
        summary: 'The tenant’s maintenance requests and their status, newest first (100 at most)',
        response: { 200: json(z.array(requestAnswerSchema), 'Its requests') },
      },
    },
    async (request) => {
      const { companyId, tenantId } = tenantOf(currentUser(request));
      return readRequests(companyId, tenantId);
    },
  );

  r.post(
    '/portal/maintenance-requests',
    {
      config: access,
      bodyLimit: MAX_REQUEST_BODY,
      schema: {
        operationId: 'createPortalMaintenanceRequest',
        tags: ['portal'],
        summary: 'Report a repair on one of the tenant’s leases, with up to 3 photos (5 MB each)',
        description:
          'Staff see it in their list, open and marked submitted by the tenant; the company’s contact gets an e-mail.',
        body: portalRequestBody,
        response: { 201: json(requestAnswerSchema, 'The request'), ...errors(404) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { companyId, tenantId } = tenantOf(user);
      const { occupancy_id, description, priority, photos } = request.body;
      const images = photos.map((ph, i) => {
        const base64 = ph.data.replace(/^data:[^;,]*;base64,/, '').replace(/\s/g, '');
        const bytes = /^[A-Za-z0-9+/]*={0,2}$/.test(base64) ? Buffer.from(base64, 'base64') : Buffer.alloc(0);
        if (bytes.length > MAX_PORTAL_PHOTO_BYTES)
          throw new AppError('validation_failed', portalMessages.photoTooLarge, {
            [`photos.${i}`]: portalMessages.photoTooLarge,
          });
        const type = sniffImage(bytes);
        if (!type)
          throw new AppError('validation_failed', portalMessages.photoType, {
            [`photos.${i}`]: portalMessages.photoType,
          });
        return { name: ph.name?.slice(0, 255) ?? null, type, base64: bytes.toString('base64') };
      });
      const lease = await ownLease(database, companyId, tenantId, occupancy_id);
      const today = await companyToday(database, companyId);
      // the request and its photos together
      const id = await database.db.transaction(async (tx) => {
        const requestId = await recordColumns.insert(tx, 'maintenance_requests', companyId, {
          unit_id: lease.unit_id,
          tenant_id: tenantId,
          request_date: today,
          description,
          priority,
          status: 'open',
          estimated_cost: '0',
          submitted_by_tenant: true,
        });
        for (const img of images)
          await tx.execute(
            sql`INSERT INTO maintenance_request_photos (company_id, request_id, file_name, mime_type, data_base64)
                VALUES (${companyId}, ${requestId}, ${img.name}, ${img.type}, ${img.base64})`,
          );
        return requestId;
      });
      const [created] = await readRequests(companyId, tenantId, id);
      if (!created) throw new AppError('not_found');
      // the company's contact hears of it
      const company = await database.query<{ email: string | null; name: string }>(
        'SELECT email, name FROM companies WHERE id = $1',
        [companyId],
      );
      const contact = company[0]?.email;
      if (contact) {
        await queueMessage(database, {
          companyId,
          kind: 'maintenance_request',
          channel: 'email',
          to: contact,
          tenantId,
          subject: `New maintenance request from ${user.first_name} ${user.last_name} (${created.unit_name ?? ''})`,
          body:
            `${user.first_name} ${user.last_name} reported a repair in the tenant portal.\n\n` +
            `Unit: ${created.unit_name ?? ''}\nPriority: ${priority}\nPhotos: ${images.length}\n\n${description}\n\n` +
            `${ctx.config.publicUrl}/maintenance-requests\n`,
        });
      }
      return reply.code(201).send(created);
    },
  );

  r.get(
    '/portal/maintenance-requests/:id/photos/:photoId',
    {
      config: access,
      schema: {
        operationId: 'getPortalRequestPhoto',
        tags: ['portal'],
        summary: 'A photo of one of the tenant’s requests',
        params: recordIdParams.extend({ photoId: recordIdParams.shape.id }),
        response: { 200: file('The photo', 'image/png', 'image/jpeg', 'image/webp'), ...errors(404) },
      },
    },
    async (request, reply) => {
      const { companyId, tenantId } = tenantOf(currentUser(request));
      const rows = await database.query<{ mime_type: string; data_base64: string }>(
        `SELECT ph.mime_type, ph.data_base64 FROM maintenance_request_photos ph
           JOIN maintenance_requests m ON m.company_id = ph.company_id AND m.id = ph.request_id
          WHERE ph.company_id = $1 AND ph.request_id = $2 AND ph.id = $3 AND m.tenant_id = $4`,
        [companyId, request.params.id, request.params.photoId, tenantId],
      );
      return sendStoredPhoto(reply as FastifyReply, rows[0]);
    },
  );
};
