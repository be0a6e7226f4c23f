// The tenant and unit joins of the records that belong to a lease's tenant and unit (occupancy,
// payments): `t` is the record's own table.

export const TENANT_UNIT_JOINS =
  'JOIN tenants tn ON tn.company_id = t.company_id AND tn.id = t.tenant_id ' +
  'JOIN units un ON un.company_id = t.company_id AND un.id = t.unit_id';

export const TENANT_UNIT_EXPRESSIONS = {
  tenant_first_name: 'tn.first_name',
  tenant_last_name: 'tn.last_name',
  tenant_name: `(tn.first_name || ' ' || tn.last_name)`,
  unit_name: 'un.name',
};

/** Searches on the tenant's and unit's names go through their own tables (and trigram indexes). */
export const TENANT_UNIT_SEARCH = {
  tenant_name: { key: 'tenant_id', table: 'tenants', expression: `(first_name || ' ' || last_name)` },
  unit_name: { key: 'unit_id', table: 'units', expression: 'name' },
};
