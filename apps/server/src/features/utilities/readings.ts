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
import { recordColumns } from '../../crud/record-columns.ts';

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

type Meter = { id: number; is_active: boolean; initial_reading: string; installed_on: string | null };
/** The reading a reading counts from: the one before it, else the meter's initial reading. */
type Before = { date: string | null; value: bigint };
/**
 * What a reading is judged against: the reading before it, and the consumptions of the six before
 * it (newest first; null for a reset or one lower than the reading before it: they make no usual).
 */
type MeterState = { previous: Before; recent: (bigint | null)[] };

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

const usualOf = (consumption: bigint, isReset: boolean): bigint | null =>
  isReset || consumption < 0n ? null : consumption;

/** A meter's readings before `date`, leaving out `except`: the one before, and the six before. */
const stateBefore = async (
  tx: DbOrTx,
  companyId: number,
  meter: Meter,
  date: string,
  except: number,
): Promise<MeterState> => {
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
         WHERE company_id = ${companyId} AND meter_id = ${meter.id} AND id <> ${except}
           AND reading_date < ${date}::date
         ORDER BY reading_date DESC, id DESC LIMIT ${USUAL_READINGS}`,
  );
  const [latest] = rows;
  return {
    previous: latest
      ? { date: latest.reading_date, value: milli(latest.value) }
      : { date: meter.installed_on, value: milli(meter.initial_reading) },
    recent: rows.map((r) => (r.consumption === null ? null : usualOf(milli(r.consumption), r.is_reset))),
  };
};

/**
 * What the server makes of a reading (docs/decisions.md, 'Meter readings'): the consumption since the
 * reading before it (else since the meter's initial reading) and its flag: `lower` than the reading
 * before, or `high`: over three times the average consumption of the meter's six readings before it
 * (of those that are no reset and not lower). A reset counts from its own value (its consumption is 0).
 */
export const judge = (
  state: MeterState,
  value: bigint,
  isReset: boolean,
): { consumption: bigint; flag: 'lower' | 'high' | null } => {
  const consumption = isReset ? 0n : value - state.previous.value;
  if (isReset) return { consumption, flag: null };
  if (consumption < 0n) return { consumption, flag: 'lower' };
  const usual = state.recent.filter((c): c is bigint => c !== null);
  const sum = usual.reduce((a, b) => a + b, 0n);
  // consumption > 3 × sum / n, in integers
  const high = usual.length > 0 && consumption * BigInt(usual.length) > BigInt(HIGH_FACTOR) * sum;
  return { consumption, flag: high ? 'high' : null };
};

/** The photo as stored and the judged columns of a reading (held back when flagged, unconfirmed). */
const judgedValues = (state: MeterState, v: Values): Values => {
  const { consumption, flag } = judge(state, milli(v.value), v.is_reset === true);
  const out: Values = {
    ...v,
    previous_value: text3(state.previous.value),
    previous_date: state.previous.date,
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

/** Refuses a second reading of a meter on a day, and a change before a billed reading of it. */
const checkPlace = async (tx: DbOrTx, companyId: number, meterId: number, date: string, except: number) => {
  const rows = await execRows<{ same_day: boolean; billed: boolean }>(
    tx,
    sql`SELECT bool_or(reading_date = ${date}::date) AS same_day,
               bool_or(status = 'billed' AND reading_date > ${date}::date) AS billed
          FROM meter_readings
         WHERE company_id = ${companyId} AND meter_id = ${meterId} AND id <> ${except}
           AND reading_date >= ${date}::date`,
  );
  if (rows[0]?.same_day)
    throw new AppError('validation_failed', READING_MESSAGES.sameDay, {
      reading_date: READING_MESSAGES.sameDay,
    });
  if (rows[0]?.billed) throw new AppError('reading_billed', READING_MESSAGES.laterBilled);
};

const notFound = () =>
  new AppError('validation_failed', 'Please correct the form errors.', { meter_id: 'Not found.' });
const inactive = () =>
  new AppError('validation_failed', READING_MESSAGES.inactive, { meter_id: READING_MESSAGES.inactive });

/**
 * New readings: each judged against the meter's readings saved before its date (readings of one
 * batch that come before it are judged again once saved: `rejudge`, the entity's `posted`).
 */
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
  const days = new Set<string>();
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
      const date = String(v.reading_date);
      const day = `${meter.id} ${date}`;
      if (days.has(day))
        throw new AppError('validation_failed', READING_MESSAGES.sameDay, {
          reading_date: READING_MESSAGES.sameDay,
        });
      days.add(day);
      await checkPlace(tx, companyId, meter.id, date, 0);
      out.push(judgedValues(await stateBefore(tx, companyId, meter, date, 0), v));
    } catch (err) {
      if (err instanceof AppError) out.push(err);
      else throw err;
    }
  }
  return out;
};

/** A correction (never of a billed reading, nor before one): judged again; a note or photo alone is kept. */
const prepareChange = async (
  tx: DbOrTx,
  companyId: number,
  values: Values,
  existing: Values,
): Promise<Values> => {
  if (existing.status === 'billed') throw new AppError('reading_billed');
  const id = Number(existing.id);
  // an idempotency key stays the one the reading was first sent with
  const { idempotency_key: _key, ...rest } = values;
  const same = (name: string) => Number(values[name] ?? 0) === Number(existing[name] ?? 0);
  if (
    String(values.reading_date) === String(existing.reading_date) &&
    same('meter_id') &&
    same('value') &&
    Boolean(values.is_reset) === Boolean(existing.is_reset)
  ) {
    const photo = photoOf(values.photo);
    if (photo === undefined) delete rest.photo;
    else rest.photo = photo;
    return rest;
  }
  const meters = await lockMeters(tx, companyId, [
    ...new Set([Number(existing.meter_id), Number(values.meter_id)]),
  ]);
  const meter = meters.get(Number(values.meter_id));
  if (!meter) throw notFound();
  const date = String(values.reading_date);
  await checkPlace(tx, companyId, meter.id, date, id);
  // the reading it was moved from: nothing billed after its old day either
  await checkPlace(tx, companyId, Number(existing.meter_id), String(existing.reading_date), id).catch(
    (err: unknown) => {
      if (err instanceof AppError && err.code === 'reading_billed') throw err;
    },
  );
  return judgedValues(await stateBefore(tx, companyId, meter, date, id), rest);
};

type StoredReading = {
  id: number;
  reading_date: string;
  value: string;
  is_reset: boolean;
  previous_value: string | null;
  previous_date: string | null;
  consumption: string | null;
  flag: 'lower' | 'high' | null;
  status: string;
};

/**
 * The readings of a meter from `from` on judged again after a change before them (a reading inserted,
 * corrected or deleted between others): each one's reading before, consumption and flag, in date
 * order; one whose judgement changes is held back again if flagged (its confirmation was of another
 * consumption). Billed readings are as they were billed.
 */
const rejudge = async (tx: DbOrTx, companyId: number, meterId: number, from: string): Promise<void> => {
  const [meter] = await execRows<Meter>(
    tx,
    sql`SELECT id, is_active, initial_reading::text AS initial_reading,
               to_char(installed_on, 'YYYY-MM-DD') AS installed_on
          FROM meters WHERE company_id = ${companyId} AND id = ${meterId}`,
  );
  if (!meter) return;
  const rows = await execRows<StoredReading>(
    tx,
    sql`SELECT id, to_char(reading_date, 'YYYY-MM-DD') AS reading_date, value::text AS value, is_reset,
               previous_value::text AS previous_value, to_char(previous_date, 'YYYY-MM-DD') AS previous_date,
               consumption::text AS consumption, flag, status
          FROM meter_readings WHERE company_id = ${companyId} AND meter_id = ${meterId}
         ORDER BY reading_date, id`,
  );
  const state: MeterState = {
    previous: { date: meter.installed_on, value: milli(meter.initial_reading) },
    recent: [],
  };
  for (const r of rows) {
    const value = milli(r.value);
    let consumption = r.consumption === null ? 0n : milli(r.consumption);
    if (r.reading_date >= from && r.status !== 'billed') {
      const judged = judge(state, value, r.is_reset);
      const same =
        r.previous_value !== null &&
        milli(r.previous_value) === state.previous.value &&
        r.previous_date === state.previous.date &&
        consumption === judged.consumption &&
        r.flag === judged.flag;
      if (!same) {
        await recordColumns.set(
          tx,
          'meter_readings',
          companyId,
          r.id,
          {
            previous_value: text3(state.previous.value),
            previous_date: state.previous.date,
            consumption: text3(judged.consumption),
            flag: judged.flag,
            status: judged.flag ? 'flagged' : 'ready',
            confirmed_by: null,
            confirmed_at: null,
          },
          { bumpVersion: true },
        );
      }
      consumption = judged.consumption;
    }
    state.previous = { date: r.reading_date, value };
    state.recent = [usualOf(consumption, r.is_reset), ...state.recent].slice(0, USUAL_READINGS);
  }
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
  // the readings after a change of a meter's readings are judged again
  posted: async (tx, user, changes) => {
    const from = new Map<number, string>();
    for (const c of changes)
      for (const r of [c.before, c.after])
        if (r) {
          const meter = Number(r.meter_id);
          const date = String(r.reading_date);
          const known = from.get(meter);
          if (known === undefined || date < known) from.set(meter, date);
        }
    for (const [meter, date] of [...from].sort((a, b) => a[0] - b[0]))
      await rejudge(tx, user.company_id, meter, date);
  },
  insteadOfDelete: ({ existing }) => {
    if (existing.status === 'billed') throw new AppError('reading_billed');
    return Promise.resolve(false);
  },
  checkMany: async ({ tx, companyId, values }) =>
    (await prepareNew(tx, companyId, values)).map((v) => (v instanceof AppError ? v : undefined)),
};
