import { sql } from 'drizzle-orm';
import { AppError, defaultMeterUnit, METER_UNIT_PROPERTY_MESSAGE, meterKind, meters } from '@kodi/domain';
import { execRows, type DbOrTx } from '../../db/client.ts';
import type { ServerEntity } from '../../crud/server-entity.ts';

type Values = Record<string, unknown>;

/**
 * Meters as saved: a unit's meter is in the unit's property (a property sent with it must be the
 * unit's); the unit of measure defaults by kind (m³, kWh); a tariff must be of the meter's kind.
 */
const placed = async (
  tx: DbOrTx,
  companyId: number,
  values: readonly Values[],
): Promise<(Values | AppError)[]> => {
  const unitIds = [
    ...new Set(values.map((v) => v.unit_id).filter((id): id is number => typeof id === 'number')),
  ];
  const tariffIds = [
    ...new Set(values.map((v) => v.tariff_id).filter((id): id is number => typeof id === 'number')),
  ];
  const units = new Map(
    unitIds.length === 0
      ? []
      : (
          await execRows<{ id: number; property_id: number | null }>(
            tx,
            sql`SELECT id, property_id FROM units WHERE company_id = ${companyId} AND id IN (${sql.join(
              unitIds.map((id) => sql`${id}`),
              sql`, `,
            )})`,
          )
        ).map((u) => [u.id, u.property_id]),
  );
  const kinds = new Map(
    tariffIds.length === 0
      ? []
      : (
          await execRows<{ id: number; kind: string }>(
            tx,
            sql`SELECT id, kind FROM tariffs WHERE company_id = ${companyId} AND id IN (${sql.join(
              tariffIds.map((id) => sql`${id}`),
              sql`, `,
            )})`,
          )
        ).map((t) => [t.id, t.kind]),
  );
  return values.map((v) => {
    const out: Values = { ...v };
    if (typeof v.unit_id === 'number' && units.has(v.unit_id)) {
      const property = units.get(v.unit_id) ?? null;
      if (typeof v.property_id === 'number' && v.property_id !== property)
        return new AppError('validation_failed', METER_UNIT_PROPERTY_MESSAGE, {
          property_id: METER_UNIT_PROPERTY_MESSAGE,
        });
      out.property_id = property;
    }
    const kind = v.kind as keyof typeof defaultMeterUnit;
    if (!v.unit_of_measure) out.unit_of_measure = defaultMeterUnit[kind];
    const tariffKind = typeof v.tariff_id === 'number' ? kinds.get(v.tariff_id) : undefined;
    if (tariffKind && tariffKind !== kind) {
      const message = `The tariff is for ${(meterKind.labels[tariffKind as keyof typeof meterKind.labels] ?? tariffKind).toLowerCase()}, not for ${kind}.`;
      return new AppError('validation_failed', message, { tariff_id: message });
    }
    return out;
  });
};

export const metersServer: ServerEntity = {
  def: meters,
  sql: { table: 'meters' },
  prepare: async ({ tx, user, values }) => {
    const [out] = await placed(tx, user.company_id, [values]);
    if (!out || out instanceof AppError) throw out ?? new Error('meters: no values');
    return out;
  },
  prepareMany: ({ tx, companyId, values }) => placed(tx, companyId, values),
  checkMany: async ({ tx, companyId, values }) =>
    (await placed(tx, companyId, values)).map((v) => (v instanceof AppError ? v : undefined)),
};
