import { AppError, tenants } from '@kodi/domain';
import type { DbOrTx } from '../../db/client.ts';
import type { ServerEntity } from '../../crud/server-entity.ts';
import { callingCodeOf, companyCallingCode, readPhoneNumber } from '../../modules/companies/phones.ts';
import { portalStatusSql } from '../../modules/identity/users.ts';

/**
 * The tenants' phones as saved (docs/decisions.md, 'One phone number'): what was typed, in E.164 with
 * the tenant's own country code when it has one, else the company's country's; a number that cannot
 * be one of that country's is refused on `phone`. `existing`: the record being changed (its country
 * code counts when the change does not give one).
 */
const withE164Phones = async (
  tx: DbOrTx,
  companyId: number,
  values: readonly Record<string, unknown>[],
  existing?: Record<string, unknown>,
): Promise<(Record<string, unknown> | AppError)[]> => {
  let company: number | null | undefined;
  const out: (Record<string, unknown> | AppError)[] = [];
  for (const v of values) {
    if (typeof v.phone !== 'string') {
      out.push(v);
      continue;
    }
    const own = ('country_code' in v ? v.country_code : existing?.country_code) as string | null | undefined;
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

export const tenantsServer: ServerEntity = {
  def: tenants,
  sql: {
    table: 'tenants',
    expressions: {
      // the tenant's portal account (issue 19): none, invited (no password yet), active, disabled
      portal_status: portalStatusSql('tenant_id'),
      // issue 26: probes of the tenant's leases (occupancy_tenant_idx) for a page's rows only, so the
      // list keeps its one statement shape; neither is sortable (no column of the row to index)
      current_unit: `(SELECT string_agg(concat_ws(', ', o.unit_name, u.property_name), '; '
                                        ORDER BY o.start_date DESC, o.id DESC)
                        FROM occupancy o JOIN units u ON u.company_id = o.company_id AND u.id = o.unit_id
                       WHERE o.company_id = t.company_id AND o.tenant_id = t.id
                         AND o.is_active AND o.occupancy_status <> 'terminated')`,
      balance: `(SELECT sum(lb.receivable)
                   FROM occupancy o
                   JOIN lease_balances lb ON lb.company_id = o.company_id AND lb.occupancy_id = o.id
                  WHERE o.company_id = t.company_id AND o.tenant_id = t.id)`,
    },
  },
  prepare: async ({ tx, user, values, existing }) => {
    const [prepared] = await withE164Phones(tx, user.company_id, [values], existing);
    if (prepared instanceof AppError) throw prepared;
    return prepared ?? values;
  },
  prepareMany: ({ tx, companyId, values }) => withE164Phones(tx, companyId, values),
  // an import's preview refuses the rows whose phone is not one of their country's
  checkMany: async ({ tx, companyId, values }) =>
    (await withE164Phones(tx, companyId, values)).map((v) => (v instanceof AppError ? v : undefined)),
};
