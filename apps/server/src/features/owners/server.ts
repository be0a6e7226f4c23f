import { AppError, owners } from '@kodi/domain';
import type { DbOrTx } from '../../db/client.ts';
import type { ServerEntity } from '../../crud/server-entity.ts';
import { companyCallingCode, readPhoneNumber } from '../../modules/companies/phones.ts';
import { portalStatusSql } from '../../modules/identity/users.ts';

/**
 * Owners' phones as saved (docs/decisions.md, 'One phone number'): what was typed, in E.164, read as a
 * number of the company's country when written without its +code; one that cannot be is refused on
 * `phone`. An owner has no phone of their own country field: one abroad is written with its +code.
 */
const withE164Phones = async (
  tx: DbOrTx,
  companyId: number,
  values: readonly Record<string, unknown>[],
): Promise<(Record<string, unknown> | AppError)[]> => {
  let company: number | null | undefined;
  const out: (Record<string, unknown> | AppError)[] = [];
  for (const v of values) {
    if (typeof v.phone !== 'string') {
      out.push(v);
      continue;
    }
    if (company === undefined) company = await companyCallingCode(tx, companyId);
    const reading = readPhoneNumber(v.phone, company);
    out.push(
      'e164' in reading
        ? { ...v, phone: reading.e164 }
        : new AppError('validation_failed', reading.error, { phone: reading.error }),
    );
  }
  return out;
};

export const ownersServer: ServerEntity = {
  def: owners,
  // the owner's portal account (issue 27): none, invited (no password yet), active, disabled
  sql: { table: 'owners', expressions: { portal_status: portalStatusSql('owner_id') } },
  prepare: async ({ tx, user, values }) => {
    const [prepared] = await withE164Phones(tx, user.company_id, [values]);
    if (prepared instanceof AppError) throw prepared;
    return prepared ?? values;
  },
  prepareMany: ({ tx, companyId, values }) => withE164Phones(tx, companyId, values),
  checkMany: async ({ tx, companyId, values }) =>
    (await withE164Phones(tx, companyId, values)).map((v) => (v instanceof AppError ? v : undefined)),
};
