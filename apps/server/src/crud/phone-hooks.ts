import { AppError } from '@kodi/domain';
import type { DbOrTx } from '../db/client.ts';
import {
  callingCodeOf,
  companyCallingCode,
  readPhoneNumber,
  type CallingCode,
} from '../modules/companies/phones.ts';
import type { ServerEntity } from './server-entity.ts';

/** A record's own calling code (a tenant's `country_code`), given its values and the record changed. */
type OwnCallingCode = (values: Record<string, unknown>, existing?: Record<string, unknown>) => CallingCode;

/**
 * Phones as saved (docs/decisions.md, 'One phone number'): what was typed, in E.164, read as a number
 * of the record's own calling code when `ownCode` gives one, else of the company's country; one that
 * cannot be is refused on `phone`.
 */
const withE164Phones = async (
  tx: DbOrTx,
  companyId: number,
  values: readonly Record<string, unknown>[],
  ownCode: OwnCallingCode,
  existing?: Record<string, unknown>,
): Promise<(Record<string, unknown> | AppError)[]> => {
  let company: number | null | undefined;
  const out: (Record<string, unknown> | AppError)[] = [];
  for (const v of values) {
    if (typeof v.phone !== 'string') {
      out.push(v);
      continue;
    }
    const own = ownCode(v, existing);
    if (!callingCodeOf(own, null) && company === undefined) company = await companyCallingCode(tx, companyId);
    const reading = readPhoneNumber(v.phone, callingCodeOf(own, company));
    out.push(
      'e164' in reading
        ? { ...v, phone: reading.e164 }
        : new AppError('validation_failed', reading.error, { phone: reading.error }),
    );
  }
  return out;
};

/**
 * An entity's `prepare`, `prepareMany` and `checkMany` for its `phone` field: saved in E.164, refused
 * when impossible (an import's preview refuses the row).
 */
export const e164PhoneHooks = (
  ownCode: OwnCallingCode = () => null,
): Pick<ServerEntity, 'prepare' | 'prepareMany' | 'checkMany'> => ({
  prepare: async ({ tx, user, values, existing }) => {
    const [prepared] = await withE164Phones(tx, user.company_id, [values], ownCode, existing);
    if (prepared instanceof AppError) throw prepared;
    return prepared ?? values;
  },
  prepareMany: ({ tx, companyId, values }) => withE164Phones(tx, companyId, values, ownCode),
  checkMany: async ({ tx, companyId, values }) =>
    (await withE164Phones(tx, companyId, values, ownCode)).map((v) =>
      v instanceof AppError ? v : undefined,
    ),
});
