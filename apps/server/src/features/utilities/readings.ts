import { sql } from 'drizzle-orm';
import {
  AppError,
  MAX_READING_PHOTO_BYTES,
  READING_MESSAGES,
  READING_PHOTO_MESSAGE,
  meterReadings,
} from '@kodi/domain';
import { execRows, type DbOrTx } from '../../db/client.ts';
import type { ServerEntity } from '../../crud/server-entity.ts';
import { sniffImage } from '../../platform/image-sniffing.ts';

type Values = Record<string, unknown>;

/** How many of a meter's readings its usual consumption is the average of. */
export const USUAL_READINGS = 6;
/** A consumption over this many times the usual is held back. */
export const HIGH_FACTOR = 3;

/** Exact decimals of NUMERIC(14,3) as integers of thousandths. */
const milli = (v: unknown): bigint => {
  const s = typeof v === 'number' ? v.toFixed(3) : String(v);
  const m = /^(-)?(\d+)(?:\.(\d{0,3}))?/.exec(s.trim());
  if (!m) throw new Error(`not a reading: ${s}`);
  const n = BigInt((m[2] ?? '0') + (m[3] ?? '').padEnd(3, '0'));
  return m[1] ? -n : n;
};
const text3 = (n: bigint): string => {
  const neg = n < 0n;
  const s = (neg ? -n : n).toString().padStart(4, '0');
  return `${neg ? '-' : ''}${s.slice(0, -3)}.${s.slice(-3)}`;
};

type Meter = { id: number; is_active: boolean; initial_reading: string; installed_on: string | null };
/**
 * A meter's readings as a new one of it sees them: its latest, and the consumptions of its last six
 * (newest first; null for a reset or one lower than the reading before, which count for no usual).
 */
type MeterState = { meter: Meter; latest: { date: string; value: bigint } | null; recent: (bigint | null)[] };

/** The meters of these readings, locked (readings of one meter are saved one after another). */
const lockMeters = async (tx: DbOrTx, companyId: number, ids: readonly number[]) => {
  if (ids.length === 0) return new Map<number, Meter>();
  const rows = await execRows<Meter>(
    tx,
    sql`SELECT id, is_active, initial_reading::text AS initial_reading,
               to_char(installed_on, 'YYYY-MM-DD') AS installed_on
          FROM meters WHERE company_id = ${companyId} AND id IN (${sql.join(
            [...ids].sort((a, b) => a - b).map((id) => sql`${id}`),
            sql`, `,
          )}) ORDER BY id FOR UPDATE`,
  );
  return new Map(rows.map((m) => [m.id, m]));
};

/** A meter's latest reading and the consumptions of its last six ordinary ones, leaving out `except`. */
const stateOf = async (tx: DbOrTx, companyId: number, meter: Meter, except?: number): Promise<MeterState> => {
  const rows = await execRows<{
    reading_date: string;
    value: string;
    consumption: string | null;
    is_reset: boolean;
  }>(
    tx,
    sql`SELECT to_char(reading_date, 'YYYY-MM-DD') AS reading_date, value::text AS value,
               consumption::text AS consumption, is_reset
          FROM meter_readings
         WHERE company_id = ${companyId} AND meter_id = ${meter.id} AND id <> ${except ?? 0}
         ORDER BY reading_date DESC, id DESC LIMIT ${USUAL_READINGS + 1}`,
  );
  const [latest] = rows;
  // the usual consumption: of ordinary readings (no reset, not lower than the one before)
  const recent = rows
    .slice(0, USUAL_READINGS)
    .map((r) =>
      !r.is_reset && r.consumption !== null && milli(r.consumption) >= 0n ? milli(r.consumption) : null,
    );
  return {
    meter,
    latest: latest ? { date: latest.reading_date, value: milli(latest.value) } : null,
    recent,
  };
};

/** A photo as stored: base64 of a png, jpeg or webp of at most 5 MB; '' or null: none. */
const photoOf = (value: unknown): string | null | undefined => {
  if (value === undefined) return undefined;
  if (value === null || value === '') return null;
  const base64 = String(value)
    .replace(/^data:[^;,]*;base64,/, '')
    .replace(/\s/g, '');
  const bytes = /^[A-Za-z0-9+/]*={0,2}$/.test(base64) ? Buffer.from(base64, 'base64') : Buffer.alloc(0);
  if (bytes.length > MAX_READING_PHOTO_BYTES)
    throw new AppError('validation_failed', READING_PHOTO_MESSAGE, { photo: READING_PHOTO_MESSAGE });
  if (!sniffImage(bytes))
    throw new AppError('validation_failed', 'Photos must be png, jpeg or webp.', {
      photo: 'Photos must be png, jpeg or webp.',
    });
  return bytes.toString('base64');
};

/**
 * What the server makes of a reading (docs/decisions.md, 'Meter readings'): the reading before it (the
 * meter's latest, else its initial reading), the consumption since, and its flag: `lower` than the
 * reading before, or `high`: over three times the average consumption of the meter's last six
 * ordinary readings. A flagged reading is held back (`flagged`) until confirmed or corrected; a reset
 * counts from its own value (its consumption is 0). Readings of a meter go in date order.
 */
const judged = (state: MeterState, v: Values): Values => {
  const date = String(v.reading_date);
  const value = milli(v.value);
  const { meter, latest } = state;
  if (latest && latest.date >= date) {
    const message = READING_MESSAGES.later(latest.date);
    throw new AppError('validation_failed', message, { reading_date: message });
  }
  const previous = latest ?? { date: meter.installed_on, value: milli(meter.initial_reading) };
  const consumption = v.is_reset === true ? 0n : value - previous.value;
  let flag: 'lower' | 'high' | null = null;
  if (v.is_reset !== true && consumption < 0n) flag = 'lower';
  else if (v.is_reset !== true) {
    const usual = state.recent.filter((c): c is bigint => c !== null);
    const sum = usual.reduce((a, b) => a + b, 0n);
    // consumption > 3 × sum / n, in integers
    if (usual.length > 0 && consumption * BigInt(usual.length) > BigInt(HIGH_FACTOR) * sum) flag = 'high';
  }
  // the next reading of this meter in the same batch sees this one
  state.latest = { date, value };
  state.recent = [v.is_reset === true || consumption < 0n ? null : consumption, ...state.recent].slice(
    0,
    USUAL_READINGS,
  );
  const out: Values = {
    ...v,
    previous_value: text3(previous.value),
    previous_date: previous.date,
    consumption: text3(consumption),
    flag,
    status: flag ? 'flagged' : 'ready',
    confirmed_by: null,
    confirmed_at: null,
  };
  const photo = photoOf(v.photo);
  if (photo === undefined) delete out.photo;
  else out.photo = photo;
  return out;
};

const notFound = () =>
  new AppError('validation_failed', 'Please correct the form errors.', { meter_id: 'Not found.' });
const inactive = () =>
  new AppError('validation_failed', READING_MESSAGES.inactive, { meter_id: READING_MESSAGES.inactive });

/** New readings, in their order (an import's rows: each sees those before it). */
const prepareNew = async (
  tx: DbOrTx,
  companyId: number,
  values: readonly Values[],
): Promise<(Values | AppError)[]> => {
  const meters = await lockMeters(
    tx,
    companyId,
    [...new Set(values.map((v) => Number(v.meter_id)))].filter((id) => Number.isInteger(id)),
  );
  const states = new Map<number, MeterState>();
  const keys = values.map((v) => v.idempotency_key).filter((k): k is string => typeof k === 'string');
  const taken = new Set(
    keys.length === 0
      ? []
      : (
          await execRows<{ idempotency_key: string }>(
            tx,
            sql`SELECT idempotency_key FROM meter_readings WHERE company_id = ${companyId}
                 AND idempotency_key IN (${sql.join(
                   keys.map((k) => sql`${k}`),
                   sql`, `,
                 )})`,
          )
        ).map((r) => r.idempotency_key),
  );
  const out: (Values | AppError)[] = [];
  for (const v of values) {
    try {
      if (typeof v.idempotency_key === 'string') {
        if (taken.has(v.idempotency_key))
          throw new AppError('duplicate', READING_MESSAGES.sentTwice, {
            idempotency_key: READING_MESSAGES.sentTwice,
          });
        taken.add(v.idempotency_key);
      }
      const meter = meters.get(Number(v.meter_id));
      if (!meter) throw notFound();
      if (!meter.is_active) throw inactive();
      let state = states.get(meter.id);
      if (!state) {
        state = await stateOf(tx, companyId, meter);
        states.set(meter.id, state);
      }
      out.push(judged(state, v));
    } catch (err) {
      if (err instanceof AppError) out.push(err);
      else throw err;
    }
  }
  return out;
};

/** A correction: of the meter's latest reading only, never of a billed one; judged again. */
const prepareChange = async (
  tx: DbOrTx,
  companyId: number,
  values: Values,
  existing: Values,
): Promise<Values> => {
  if (existing.status === 'billed') throw new AppError('reading_billed');
  const id = Number(existing.id);
  // its note or photo changed, the reading itself as it was: nothing to judge again
  const same = (name: string) => Number(values[name] ?? 0) === Number(existing[name] ?? 0);
  if (
    String(values.reading_date) === String(existing.reading_date) &&
    same('meter_id') &&
    same('value') &&
    Boolean(values.is_reset) === Boolean(existing.is_reset)
  ) {
    const { idempotency_key: _unchanged, ...kept } = values;
    const photo = photoOf(values.photo);
    if (photo === undefined) delete kept.photo;
    else kept.photo = photo;
    return kept;
  }
  const meterIds = [...new Set([Number(existing.meter_id), Number(values.meter_id)])];
  const meters = await lockMeters(tx, companyId, meterIds);
  const later = await execRows<{ id: number }>(
    tx,
    sql`SELECT id FROM meter_readings
         WHERE company_id = ${companyId} AND meter_id = ${Number(existing.meter_id)} AND id <> ${id}
           AND reading_date >= ${String(existing.reading_date)}::date LIMIT 1`,
  );
  if (later.length > 0) throw new AppError('reading_not_latest');
  const meter = meters.get(Number(values.meter_id));
  if (!meter) throw notFound();
  // an idempotency key stays the one the reading was first sent with
  const { idempotency_key: _key, ...rest } = values;
  return judged(await stateOf(tx, companyId, meter, id), rest);
};

export const meterReadingsServer: ServerEntity = {
  def: meterReadings,
  sql: {
    table: 'meter_readings',
    joins: 'JOIN meters m ON m.company_id = t.company_id AND m.id = t.meter_id',
    expressions: { unit_name: 'm.unit_name', has_photo: '(t.photo IS NOT NULL)' },
  },
  writes: ['previous_value', 'previous_date', 'consumption', 'flag', 'status'],
  // a photo of at most 5 MB, in base64
  bodyLimit: 8 * 1024 * 1024,
  prepare: async ({ tx, user, values, existing }) => {
    if (existing) return prepareChange(tx, user.company_id, values, existing);
    const [out] = await prepareNew(tx, user.company_id, [values]);
    if (!out || out instanceof AppError) throw out ?? new Error('meter_readings: no values');
    return out;
  },
  prepareMany: ({ tx, companyId, values }) => prepareNew(tx, companyId, values),
  checkMany: async ({ tx, companyId, values }) =>
    (await prepareNew(tx, companyId, values)).map((v) => (v instanceof AppError ? v : undefined)),
};
