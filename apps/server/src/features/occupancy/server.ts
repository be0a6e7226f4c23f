import { sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  AppError,
  MAX_LEASE_DOC_BYTES,
  backRent,
  backRentAnswer,
  centsToNumber,
  IMPORT_ERROR_LIMIT,
  occupancy,
  type ImportBackRent,
  openingDateProblem,
  type LeaseTerms,
} from '@kodi/domain';
import { execRows, type DbOrTx } from '../../db/client.ts';
import type { ServerEntity } from '../../crud/server-entity.ts';
import { companyTodayIn } from '../../modules/companies/company-settings.ts';
import { TENANT_JOIN, TENANT_NAMES } from '../../crud/sql.ts';
import { sniffImage } from '../../platform/image-sniffing.ts';
import { leasePosted } from '../../modules/books/hooks.ts';
import { followLeases } from '../../modules/leases/unit-status.ts';
import { lettingOf, lettingRefusals } from './letting.ts';
import { referenceRefusals, withAccountReferences } from './account-reference.ts';

/** PDF, PNG or JPEG by content. */
export const sniffDocument = (bytes: Buffer): string | undefined =>
  bytes.subarray(0, 5).toString('latin1') === '%PDF-' ? 'application/pdf' : sniffImage(bytes);

const docError = (message: string) => new AppError('validation_failed', message, { lease_doc: message });

/** The lease document: base64 (or a data URL) of a PDF, PNG or JPEG up to 5 MB; '' or null removes it. */
const prepareLeaseDoc = (values: Record<string, unknown>): Record<string, unknown> => {
  const out = { ...values };
  const doc = out.lease_doc;
  if (doc === undefined) {
    delete out.lease_doc;
    delete out.lease_doc_name;
    return out;
  }
  if (doc === null || doc === '')
    return { ...out, lease_doc: null, lease_doc_name: null, lease_doc_type: null };
  const base64 = String(doc)
    .replace(/^data:[^;,]*;base64,/, '')
    .replace(/\s/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64))
    throw docError('The lease document must be a PDF, PNG or JPEG file.');
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length > MAX_LEASE_DOC_BYTES) throw docError('The lease document must be at most 5 MB.');
  const type = sniffDocument(bytes);
  if (!type || type === 'image/webp') throw docError('The lease document must be a PDF, PNG or JPEG file.');
  return { ...out, lease_doc: base64, lease_doc_type: type, lease_doc_name: out.lease_doc_name ?? 'lease' };
};

/** The opening balance date is not after the company's today (a refusal, or undefined). */
const openingRefusal = (values: Record<string, unknown>, today: string): AppError | undefined => {
  const problem = openingDateProblem(values, today);
  return problem
    ? new AppError('validation_failed', problem.message, { [problem.field]: problem.message })
    : undefined;
};

/** The fields that decide which unit a lease lets and when. */
const LETTING_FIELDS = ['unit_id', 'start_date', 'end_date', 'is_active', 'occupancy_status'] as const;

const lettingChanged = (existing: Record<string, unknown>, values: Record<string, unknown>): boolean =>
  LETTING_FIELDS.some((f) => f in values && text(values[f]) !== text(existing[f]));

const text = (v: unknown): string | null => (v === null || v === undefined || v === '' ? null : String(v));

/**
 * The units whose letting the changes touched (a lease created or deleted, or its unit, dates, being
 * active or status changed: the unit it left and the unit it lets) follow their leases on the
 * company's today (modules/leases/unit-status.ts).
 */
const unitsFollow: NonNullable<ServerEntity['posted']> = async (tx, user, changes) => {
  const units: number[] = [];
  for (const { before, after } of changes) {
    if (before && after && !lettingChanged(before, after)) continue;
    for (const r of [before, after]) if (r) units.push(Number(r.unit_id));
  }
  if (units.length === 0) return;
  await followLeases(tx, user.company_id, await companyTodayIn(tx, user.company_id), units);
};

/** A lease's terms as the rules take them, from its record and its rate changes. */
const termsOf = (record: Record<string, unknown>, rates: LeaseTerms['rate_changes']): LeaseTerms => ({
  start_date: String(record.start_date ?? ''),
  end_date: text(record.end_date),
  rate: String(record.rate ?? '0'),
  rent_cycle: String(record.rent_cycle ?? 'monthly'),
  opening_balance: text(record.opening_balance),
  opening_balance_date: text(record.opening_balance_date),
  rate_changes: rates ?? [],
});

/** `back_rent`: the rent charges due up to the company's today that the lease as stored charges. */
export const backRentSchema = z
  .object({
    charges: z.number().int().describe('how many rent charges are due from the start up to today'),
    total: z.number().describe('their sum'),
  })
  .describe(
    'The back rent a start date in the past charges (after the opening-balance rule); zeros when none',
  );

const backRentOf = async (db: DbOrTx, companyId: number, record: Record<string, unknown>) => {
  const id = Number(record.id);
  const rates = await execRows<{ effective_date: string; rate: string }>(
    db,
    sql`SELECT to_char(effective_date, 'YYYY-MM-DD') AS effective_date, rate::text AS rate
          FROM rate_changes WHERE company_id = ${companyId} AND occupancy_id = ${id}`,
  );
  const today = await companyTodayIn(db, companyId);
  return backRentAnswer(backRent(termsOf(record, rates), today));
};

export const occupancyServer: ServerEntity = {
  def: occupancy,
  sql: {
    table: 'occupancy',
    joins: TENANT_JOIN,
    expressions: { ...TENANT_NAMES, has_lease_doc: '(t.lease_doc IS NOT NULL)' },
  },
  bodyLimit: 8 * 1024 * 1024,
  prepare: async ({ tx, user, values, existing }) => {
    const refusal = openingRefusal(values, await companyTodayIn(tx, user.company_id));
    if (refusal) throw refusal;
    const prepared = prepareLeaseDoc(values);
    // a unit is let once at a time (issue 26): checked when the lease's letting is new or changes
    if (!existing || lettingChanged(existing, values)) {
      const [occupied] = await lettingRefusals(
        tx,
        user.company_id,
        [lettingOf(values, existing ? Number(existing.id) : undefined)],
        { lock: true },
      );
      if (occupied) throw occupied;
    }
    const [taken] = await referenceRefusals(
      tx,
      user.company_id,
      [values],
      existing ? Number(existing.id) : undefined,
    );
    if (taken) throw taken;
    const [withReference] = await withAccountReferences(tx, user.company_id, [prepared], existing);
    return withReference ?? prepared;
  },
  prepareMany: async ({ tx, companyId, values }) => {
    const today = await companyTodayIn(tx, companyId);
    // the rules of each record alone first (400), then the units' lettings (409)
    const alone = values.map((v): Record<string, unknown> | AppError => {
      const refusal = openingRefusal(v, today);
      if (refusal) return refusal;
      try {
        return prepareLeaseDoc(v);
      } catch (err) {
        if (err instanceof AppError) return err;
        throw err;
      }
    });
    const occupied = await lettingRefusals(
      tx,
      companyId,
      values.map((v, i) => (alone[i] instanceof AppError ? undefined : lettingOf(v))),
      { lock: true },
    );
    const taken = await referenceRefusals(
      tx,
      companyId,
      values.map((v, i) => (alone[i] instanceof AppError || occupied[i] ? undefined : v)),
    );
    return withAccountReferences(
      tx,
      companyId,
      alone.map((a, i) => occupied[i] ?? taken[i] ?? a),
    );
  },
  checkMany: async ({ tx, companyId, values }) => {
    const today = await companyTodayIn(tx, companyId);
    const opening = values.map((v) => openingRefusal(v, today));
    const occupied = await lettingRefusals(
      tx,
      companyId,
      values.map((v, i) => (opening[i] ? undefined : lettingOf(v))),
      { lock: false },
    );
    const taken = await referenceRefusals(tx, companyId, values);
    return values.map((_, i) => opening[i] ?? occupied[i] ?? taken[i]);
  },
  importBackRent: async ({ tx, companyId }) => {
    const today = await companyTodayIn(tx, companyId);
    const out: ImportBackRent = { leases: 0, charges: 0, total: 0, rows: [] };
    let total = 0n;
    return {
      add: ({ row, values, refs }) => {
        const b = backRent(termsOf(values, []), today);
        if (b.charges === 0) return;
        out.leases += 1;
        out.charges += b.charges;
        total += b.total;
        if (out.rows.length < IMPORT_ERROR_LIMIT)
          out.rows.push({
            row,
            external_ref: text(values.external_ref),
            tenant: refs.tenant_id ?? '',
            unit: refs.unit_id ?? '',
            start_date: String(values.start_date),
            ...backRentAnswer(b),
          });
      },
      result: () => (out.leases === 0 ? null : { ...out, total: centsToNumber(total) }),
    };
  },
  answers: {
    shape: { back_rent: backRentSchema },
    add: async ({ db, user, record }) => ({ back_rent: await backRentOf(db, user.company_id, record) }),
  },
  posted: async (tx, user, changes) => {
    // the units first: their locks are taken before the leases' (the daily run's order too)
    await unitsFollow(tx, user, changes);
    await leasePosted(tx, user, changes);
  },
};
