import { sql } from 'drizzle-orm';
import { AppError } from '@kodi/domain';
import { execRows, type DbOrTx } from '../../db/client.ts';

/**
 * A lease's account number (issue 29, docs/decisions.md 'Account numbers'): what a tenant gives as the
 * account of a paybill or mobile-money payment. Unique in the company (the database's
 * occupancy_account_reference_key), upper-case, and stable: made once from the unit's name when a lease
 * is created without one ('A12'; 'A12-2' when taken), never changed by anything but a person editing it.
 */
export const ACCOUNT_REFERENCE_TAKEN = 'This account number is already another lease’s.';

const taken = () =>
  new AppError('validation_failed', ACCOUNT_REFERENCE_TAKEN, { account_reference: ACCOUNT_REFERENCE_TAKEN });

/** The account number a unit's name makes: its letters and digits, upper-case ('Block A-12' → 'BLOCKA12'). */
export const referenceBase = (unitName: string | null | undefined): string =>
  (unitName ?? '')
    .replace(/[^A-Za-z0-9]/g, '')
    .toUpperCase()
    .slice(0, 16) || 'L';

const given = (v: Record<string, unknown>): string | undefined =>
  typeof v.account_reference === 'string' && v.account_reference !== '' ? v.account_reference : undefined;

/** Which of these account numbers other leases of the company hold (by the unique index). */
const heldBy = async (db: DbOrTx, companyId: number, refs: readonly string[], except?: number) =>
  refs.length === 0
    ? new Map<string, number>()
    : new Map(
        (
          await execRows<{ account_reference: string; id: number }>(
            db,
            sql`SELECT account_reference, id FROM occupancy
                 WHERE company_id = ${companyId}
                   AND account_reference IN (${sql.join(
                     refs.map((r) => sql`${r}`),
                     sql`, `,
                   )})`,
          )
        )
          .filter((r) => except === undefined || Number(r.id) !== except)
          .map((r) => [r.account_reference, Number(r.id)]),
      );

/**
 * The refusals of the account numbers given: one another lease holds, or one given twice in these
 * values (an import's rows). `except`: the lease being changed.
 */
export const referenceRefusals = async (
  db: DbOrTx,
  companyId: number,
  values: readonly (Record<string, unknown> | undefined)[],
  except?: number,
): Promise<(AppError | undefined)[]> => {
  const refs = values.map((v) => (v ? given(v) : undefined));
  const held = await heldBy(
    db,
    companyId,
    [...new Set(refs.filter((r): r is string => r !== undefined))],
    except,
  );
  const seen = new Set<string>();
  return refs.map((r) => {
    if (r === undefined) return undefined;
    if (held.has(r) || seen.has(r)) return taken();
    seen.add(r);
    return undefined;
  });
};

/** How many numbered candidates of a base are asked for at once ('A12', 'A12-2', … 'A12-20'). */
const CANDIDATES = 20;

/**
 * The values with their account numbers: a change without one keeps the lease's; a new lease without
 * one gets its unit's (numbered when taken, by another lease or by an earlier value of the same call).
 * Values that are AppErrors pass through.
 */
export const withAccountReferences = async <V extends Record<string, unknown> | AppError>(
  db: DbOrTx,
  companyId: number,
  values: readonly V[],
  existing?: Record<string, unknown>,
): Promise<(V | Record<string, unknown>)[]> => {
  const kept = existing ? given(existing) : undefined;
  const needs = values.map((v) => !(v instanceof AppError) && given(v) === undefined && kept === undefined);
  const out: (V | Record<string, unknown>)[] = values.map((v) =>
    !(v instanceof AppError) && given(v) === undefined && kept !== undefined
      ? { ...v, account_reference: kept }
      : v,
  );
  if (!needs.some(Boolean)) return out;
  const unitIds = [
    ...new Set(
      values.flatMap((v, i) => {
        if (!needs[i] || v instanceof AppError) return [];
        const id = Number(v.unit_id ?? existing?.unit_id);
        return Number.isInteger(id) ? [id] : [];
      }),
    ),
  ];
  const names = new Map(
    unitIds.length === 0
      ? []
      : (
          await execRows<{ id: number; name: string }>(
            db,
            sql`SELECT id, name FROM units WHERE company_id = ${companyId} AND id IN (${sql.join(
              unitIds.map((id) => sql`${id}`),
              sql`, `,
            )})`,
          )
        ).map((r) => [Number(r.id), r.name]),
  );
  // the numbers this call gives out, and those found held, by base
  const used = new Set<string>(values.flatMap((v) => (v instanceof AppError ? [] : (given(v) ?? []))));
  const asked = new Set<string>();
  const pick = async (base: string): Promise<string> => {
    for (let from = 1; ; from += CANDIDATES) {
      const candidates = Array.from({ length: CANDIDATES }, (_, k) =>
        from + k === 1 ? base : `${base}-${from + k}`,
      );
      const fresh = candidates.filter((c) => !asked.has(c));
      for (const c of fresh) asked.add(c);
      for (const c of (await heldBy(db, companyId, fresh)).keys()) used.add(c);
      const free = candidates.find((c) => !used.has(c));
      if (free) {
        used.add(free);
        return free;
      }
    }
  };
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!needs[i] || v === undefined || v instanceof AppError) continue;
    const unit = names.get(Number(v.unit_id ?? existing?.unit_id));
    out[i] = { ...v, account_reference: await pick(referenceBase(unit)) };
  }
  return out;
};
