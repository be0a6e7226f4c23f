import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  AppError,
  agreementAnswer,
  agreementBody,
  isValidIsoDate,
  NO_AGREEMENT_MESSAGE,
  properties,
  propertyOwnersAnswer,
  propertyOwnersBody,
  type ManagementAgreement,
  type PropertyOwners,
} from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { execRows, type DbOrTx } from '../../db/client.ts';
import { currentUser } from '../../plugins/guard.ts';
import { recordIdParams } from '../../crud/record-route.ts';
import { ensureProperty } from '../../modules/properties/property.ts';
import { companyToday, companyTodayIn } from '../../modules/companies/company-settings.ts';
import { recordAuditEntry } from '../../modules/audit/audit.ts';
import { errors, json, named } from '../../plugins/openapi.ts';

/** Who may change a property's owners and agreement: admins and company admins (money matters). */
const WRITERS = 'companyAdmin' as const;

const asOfQuery = z.object({
  as_of: z
    .string()
    .refine(isValidIsoDate, 'Use a date as YYYY-MM-DD.')
    .refine((d) => d >= '1900-01-01' && d <= '2199-12-31', 'The date must be from 1900 to 2199.')
    .optional(),
});

/** Locks the company's property for the change (two changes of its owners the same day wait in turn). */
const lockProperty = async (tx: DbOrTx, companyId: number, propertyId: number): Promise<void> => {
  const rows = await execRows<{ id: number }>(
    tx,
    sql`SELECT id FROM properties WHERE company_id = ${companyId} AND id = ${propertyId} FOR UPDATE`,
  );
  if (rows.length === 0) throw new AppError('not_found', 'Property not found.');
};

/** The owners' shares of a property in force on `day`: the latest set from that day or before. */
const ownersOn = async (
  db: DbOrTx,
  companyId: number,
  propertyId: number,
  day: string,
): Promise<PropertyOwners> => {
  const sets = await execRows<{ id: number; effective_from: string }>(
    db,
    sql`SELECT id, to_char(effective_from, 'YYYY-MM-DD') AS effective_from FROM property_owner_sets
         WHERE company_id = ${companyId} AND property_id = ${propertyId} AND effective_from <= ${day}::date
         ORDER BY effective_from DESC LIMIT 1`,
  );
  const set = sets[0];
  if (!set) return { property_id: propertyId, effective_from: null, owners: [] };
  const shares = await execRows<{ owner_id: number; owner_name: string; share_percent: string }>(
    db,
    sql`SELECT s.owner_id, o.display_name AS owner_name, s.share_percent::text AS share_percent
          FROM property_owner_shares s
          JOIN owners o ON (o.company_id, o.id) = (s.company_id, s.owner_id)
         WHERE s.company_id = ${companyId} AND s.set_id = ${set.id}
         ORDER BY s.share_percent DESC, o.display_name, s.owner_id`,
  );
  return {
    property_id: propertyId,
    effective_from: set.effective_from,
    owners: shares.map((s) => ({
      owner_id: Number(s.owner_id),
      owner_name: s.owner_name,
      share_percent: Number(s.share_percent),
    })),
  };
};

type AgreementRow = Omit<
  ManagementAgreement,
  'fee_amount' | 'minimum_fee' | 'reserve' | 'rental_tax_rate' | 'version' | 'property_id'
> & {
  property_id: number;
  fee_amount: string;
  minimum_fee: string;
  reserve: string;
  rental_tax_rate: string;
  version: number;
};

const agreementOf = async (
  db: DbOrTx,
  companyId: number,
  propertyId: number,
  lock = false,
): Promise<ManagementAgreement | undefined> => {
  const rows = await execRows<AgreementRow>(
    db,
    sql`SELECT property_id, fee_kind, fee_amount::text AS fee_amount, minimum_fee::text AS minimum_fee,
               reserve::text AS reserve, withhold_rental_tax, rental_tax_rate::text AS rental_tax_rate,
               version, to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at
          FROM management_agreements
         WHERE company_id = ${companyId} AND property_id = ${propertyId}${lock ? sql` FOR UPDATE` : sql``}`,
  );
  const r = rows[0];
  if (!r) return undefined;
  return {
    ...r,
    property_id: Number(r.property_id),
    fee_amount: Number(r.fee_amount),
    minimum_fee: Number(r.minimum_fee),
    reserve: Number(r.reserve),
    rental_tax_rate: Number(r.rental_tax_rate),
    version: Number(r.version),
  };
};

/**
 * Issue 27, first slice: who owns a property (`/properties/{id}/owners`: shares from the day they are
 * set, their history kept) and its management agreement (`/properties/{id}/agreement`). Read by
 * whoever reads properties; changed by admins and company admins. Nothing is posted yet.
 */
export const ownersRoutes = (app: FastifyInstance, ctx: AppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database } = ctx;

  r.get(
    '/properties/:id/owners',
    {
      config: { access: properties.access.read },
      schema: {
        operationId: 'getPropertyOwners',
        tags: ['properties'],
        summary: 'The owners of a property and their shares in force today (or on `as_of`)',
        params: recordIdParams,
        querystring: asOfQuery,
        response: { 200: json(named(propertyOwnersAnswer, 'PropertyOwners'), 'The shares'), ...errors(404) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { id } = request.params;
      await ensureProperty(database.db, user.company_id, id);
      const day = request.query.as_of ?? (await companyToday(database, user.company_id));
      return ownersOn(database.db, user.company_id, id, day);
    },
  );

  r.put(
    '/properties/:id/owners',
    {
      config: { access: WRITERS },
      schema: {
        operationId: 'setPropertyOwners',
        tags: ['properties'],
        summary:
          'Set the owners of a property and their shares from today (adding up to 100; none: the company’s own)',
        params: recordIdParams,
        body: propertyOwnersBody,
        response: { 200: json(propertyOwnersAnswer, 'The shares now in force'), ...errors(404) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { id } = request.params;
      const shares = request.body;
      return database.db.transaction(async (tx) => {
        await lockProperty(tx, user.company_id, id);
        const today = await companyTodayIn(tx, user.company_id);
        const ids = shares.map((s) => s.owner_id);
        if (ids.length > 0) {
          const found = await execRows<{ id: number }>(
            tx,
            sql`SELECT id FROM owners WHERE company_id = ${user.company_id}
                   AND id IN (${sql.join(
                     ids.map((o) => sql`${o}`),
                     sql`, `,
                   )})`,
          );
          const known = new Set(found.map((f) => Number(f.id)));
          const fields = Object.fromEntries(
            shares.flatMap((s, i) => (known.has(s.owner_id) ? [] : [[`owners.${i}.owner_id`, 'Not found.']])),
          );
          if (Object.keys(fields).length > 0)
            throw new AppError('validation_failed', 'The selected owner does not exist.', fields);
        }
        const before = await ownersOn(tx, user.company_id, id, today);
        // the day's set is replaced: shares date from the day they are set
        await tx.execute(
          sql`DELETE FROM property_owner_sets
               WHERE company_id = ${user.company_id} AND property_id = ${id} AND effective_from = ${today}::date`,
        );
        const [set] = await execRows<{ id: number }>(
          tx,
          sql`INSERT INTO property_owner_sets (company_id, property_id, effective_from)
              VALUES (${user.company_id}, ${id}, ${today}::date) RETURNING id`,
        );
        if (shares.length > 0)
          await tx.execute(
            sql`INSERT INTO property_owner_shares (company_id, set_id, owner_id, share_percent)
                VALUES ${sql.join(
                  shares.map(
                    (s) =>
                      sql`(${user.company_id}, ${set?.id}, ${s.owner_id}, ${s.share_percent.toFixed(2)}::numeric)`,
                  ),
                  sql`, `,
                )}`,
          );
        const after = await ownersOn(tx, user.company_id, id, today);
        await recordAuditEntry(tx, {
          companyId: user.company_id,
          userId: user.id,
          action: 'update',
          entity: 'property_owners',
          recordId: id,
          before: { owners: before.owners },
          after: { owners: after.owners },
        });
        return after;
      });
    },
  );

  r.get(
    '/properties/:id/agreement',
    {
      config: { access: properties.access.read },
      schema: {
        operationId: 'getManagementAgreement',
        tags: ['properties'],
        summary: 'The management agreement of a property (404 agreement_not_found when it has none)',
        params: recordIdParams,
        response: {
          200: json(named(agreementAnswer, 'ManagementAgreement'), 'The agreement'),
          ...errors(404),
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { id } = request.params;
      const agreement = await agreementOf(database.db, user.company_id, id);
      if (agreement) return agreement;
      await ensureProperty(database.db, user.company_id, id);
      throw new AppError('agreement_not_found', NO_AGREEMENT_MESSAGE);
    },
  );

  r.put(
    '/properties/:id/agreement',
    {
      config: { access: WRITERS },
      schema: {
        operationId: 'setManagementAgreement',
        tags: ['properties'],
        summary: 'Make or change the management agreement of a property (`version` as read when it has one)',
        params: recordIdParams,
        body: agreementBody,
        response: { 200: json(agreementAnswer, 'The agreement'), ...errors(404, 409) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { id } = request.params;
      const { version, ...terms } = request.body;
      return database.db.transaction(async (tx) => {
        await lockProperty(tx, user.company_id, id);
        const before = await agreementOf(tx, user.company_id, id, true);
        const values = sql`${terms.fee_kind}, ${terms.fee_amount.toFixed(2)}::numeric,
          ${terms.minimum_fee.toFixed(2)}::numeric, ${terms.reserve.toFixed(2)}::numeric,
          ${terms.withhold_rental_tax}, ${terms.rental_tax_rate.toFixed(2)}::numeric`;
        if (before) {
          if (version === undefined)
            throw new AppError('validation_failed', 'Send the version read.', { version: 'Required.' });
          if (version !== before.version) throw new AppError('conflict');
          await tx.execute(
            sql`UPDATE management_agreements
                   SET (fee_kind, fee_amount, minimum_fee, reserve, withhold_rental_tax, rental_tax_rate) = (${values}),
                       version = version + 1, updated_at = now()
                 WHERE company_id = ${user.company_id} AND property_id = ${id}`,
          );
        } else {
          await tx.execute(
            sql`INSERT INTO management_agreements
                  (company_id, property_id, fee_kind, fee_amount, minimum_fee, reserve, withhold_rental_tax, rental_tax_rate)
                VALUES (${user.company_id}, ${id}, ${values})`,
          );
        }
        const after = await agreementOf(tx, user.company_id, id);
        if (!after) throw new AppError('not_found', NO_AGREEMENT_MESSAGE);
        await recordAuditEntry(tx, {
          companyId: user.company_id,
          userId: user.id,
          action: before ? 'update' : 'create',
          entity: 'management_agreements',
          recordId: id,
          ...(before ? { before } : {}),
          after,
        });
        return after;
      });
    },
  );
};
