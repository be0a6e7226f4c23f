import { sql } from 'drizzle-orm';
import { AppError, formatDate } from '@kodi/domain';
import { execRows, type DbOrTx } from '../../db/client.ts';
import { lockUnits } from '../../modules/leases/unit-status.ts';

/** What of a lease decides whether it lets its unit: its unit, its dates, and whether it is running. */
type Letting = {
  /** the lease itself (an update), left out of the leases it could clash with */
  id?: number | undefined;
  unit_id: number;
  tenant_id?: number | undefined;
  start_date: string;
  end_date: string | null;
  /** an import's update names its lease by its external key, not its id */
  external_ref?: string | null | undefined;
};

type Holder = {
  id: number;
  unit_name: string | null;
  tenant_name: string | null;
  start_date: string;
  end_date: string | null;
};

const text = (v: unknown): string | null => (v === null || v === undefined || v === '' ? null : String(v));

/** A lease lets its unit while it is active and not terminated (as a property's units show it). */
export const letsUnit = (values: Record<string, unknown>): boolean =>
  values.is_active !== false && values.occupancy_status !== 'terminated';

/** The letting of a lease's values, or undefined when it lets nothing (inactive, terminated, no unit). */
export const lettingOf = (values: Record<string, unknown>, id?: number): Letting | undefined => {
  const unit = Number(values.unit_id);
  const start = text(values.start_date);
  if (!letsUnit(values) || !Number.isInteger(unit) || unit <= 0 || !start) return undefined;
  const tenant = Number(values.tenant_id);
  return {
    id,
    unit_id: unit,
    tenant_id: Number.isInteger(tenant) ? tenant : undefined,
    start_date: start,
    end_date: text(values.end_date),
    external_ref: text(values.external_ref),
  };
};

/** Two lettings of one unit whose dates meet (an open end runs for ever). */
const overlap = (a: Letting, b: Pick<Letting, 'start_date' | 'end_date'>): boolean =>
  a.start_date <= (b.end_date ?? '9999-12-31') && b.start_date <= (a.end_date ?? '9999-12-31');

/** The 409 naming who has the unit and when. */
export const occupiedError = (holder: Holder): AppError => {
  const unit = holder.unit_name ? `Unit ${holder.unit_name}` : 'The unit';
  const until = holder.end_date ? ` to ${formatDate(holder.end_date)}` : ', with no end date';
  const message = `${unit} is let to ${holder.tenant_name ?? 'another tenant'} from ${formatDate(holder.start_date)}${until}.`;
  return new AppError('unit_occupied', message, { unit_id: message });
};

/** The stored lease that lets the unit on some of the letting's days, if any. */
const holderOf = async (tx: DbOrTx, companyId: number, l: Letting): Promise<Holder | undefined> => {
  const [row] = await execRows<Holder>(
    tx,
    sql`SELECT o.id, o.unit_name, o.tenant_name, to_char(o.start_date, 'YYYY-MM-DD') AS start_date,
               to_char(o.end_date, 'YYYY-MM-DD') AS end_date
          FROM occupancy o
         WHERE o.company_id = ${companyId} AND o.unit_id = ${l.unit_id}
           AND o.is_active AND o.occupancy_status <> 'terminated'
           AND o.start_date <= COALESCE(${l.end_date}::date, 'infinity'::date)
           AND COALESCE(o.end_date, 'infinity'::date) >= ${l.start_date}::date
           AND o.id <> ${l.id ?? 0}
           AND (${l.external_ref}::text IS NULL OR o.external_ref IS DISTINCT FROM ${l.external_ref}::text)
         ORDER BY o.start_date, o.id LIMIT 1`,
  );
  return row;
};

/**
 * Each letting's refusal (or undefined): a stored lease of its unit whose dates meet its own, or an
 * earlier letting of the same list. `lock`: take the units' locks first (a write; a preview need not).
 */
export const lettingRefusals = async (
  tx: DbOrTx,
  companyId: number,
  lettings: readonly (Letting | undefined)[],
  options: { lock: boolean },
): Promise<(AppError | undefined)[]> => {
  const present = lettings.filter((l): l is Letting => l !== undefined);
  if (options.lock)
    await lockUnits(
      tx,
      present.map((l) => l.unit_id),
    );
  const accepted: Letting[] = [];
  const out: (AppError | undefined)[] = [];
  for (const l of lettings) {
    if (!l) {
      out.push(undefined);
      continue;
    }
    const stored = await holderOf(tx, companyId, l);
    if (stored) {
      out.push(occupiedError(stored));
      continue;
    }
    const earlier = accepted.find((a) => a.unit_id === l.unit_id && overlap(a, l));
    if (earlier) {
      // another lease of the same list (an import's earlier row): named by its tenant
      const [names] = await execRows<{ unit_name: string | null; tenant_name: string | null }>(
        tx,
        sql`SELECT (SELECT name FROM units WHERE company_id = ${companyId} AND id = ${earlier.unit_id}) AS unit_name,
                   (SELECT concat_ws(' ', first_name, last_name) FROM tenants
                     WHERE company_id = ${companyId} AND id = ${earlier.tenant_id ?? 0}) AS tenant_name`,
      );
      out.push(
        occupiedError({
          id: 0,
          unit_name: names?.unit_name ?? null,
          tenant_name: names?.tenant_name ?? null,
          start_date: earlier.start_date,
          end_date: earlier.end_date,
        }),
      );
      continue;
    }
    accepted.push(l);
    out.push(undefined);
  }
  return out;
};
