import { getTableColumns, getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import * as schema from '../db/schema.ts';
import { fieldExpression, type EntitySql } from './sql.ts';

/**
 * The company-owned tables whose rows per company `row_counts` holds, kept exact by the statement-level
 * triggers of migration 0004_row_counts (insert, delete, update moving rows between companies, truncate).
 */
export const COUNTED_TABLES: ReadonlySet<string> = new Set([
  'units',
  'tenants',
  'occupancy',
  'payments',
  'vendors',
  'maintenance_requests',
  'expenses',
  'employees',
  'commission_wages',
]);

/**
 * The keys whose rows per key value `key_counts` holds (migration 0009_totals_triggers): a search
 * matching the referenced rows sums their counts there instead of counting the rows.
 */
export const KEY_COUNTED: Readonly<Record<string, readonly string[]>> = {
  payments: ['tenant_id', 'unit_id'],
  occupancy: ['tenant_id', 'unit_id'],
  expenses: ['unit_id'],
  maintenance_requests: ['unit_id'],
  commission_wages: ['employee_id'],
};

/** What the list SQL of an entity needs to know about its table, worked out once per entity. */
export type TableFacts = {
  /** `payments t`: the table alone. */
  base: string;
  /** the table and its joins. */
  from: string;
  joins: string;
  /** columns declared NOT NULL (their order needs no NULLS clause, so an index can serve it). */
  notNull: ReadonlySet<string>;
  /** whether a field's expression reads a joined table. */
  usesJoins: (field: string) => boolean;
};

const tablesByName = new Map<string, PgTable>(
  (Object.values(schema) as unknown[]).flatMap((v): [string, PgTable][] =>
    is(v, PgTable) ? [[getTableName(v), v]] : [],
  ),
);

/** Table aliases an expression refers to (`tn.first_name` → tn). */
const aliasesOf = (expr: string): string[] =>
  [...expr.matchAll(/(?:^|[^a-z0-9_.])([a-z_][a-z0-9_]*)\.[a-z_]/gi)].map((m) => m[1] ?? '');

const cache = new WeakMap<EntitySql, TableFacts>();

export const tableFacts = (s: EntitySql): TableFacts => {
  const known = cache.get(s);
  if (known) return known;
  const table = tablesByName.get(s.table);
  const notNull = new Set(
    table
      ? Object.entries(getTableColumns(table))
          .filter(([, c]) => c.notNull)
          .map(([name]) => name)
      : [],
  );
  const facts: TableFacts = {
    base: `${s.table} t`,
    from: `${s.table} t${s.joins ? ` ${s.joins}` : ''}`,
    joins: s.joins ?? '',
    notNull,
    usesJoins: (field) => aliasesOf(fieldExpression(s, field)).some((a) => a !== 't'),
  };
  cache.set(s, facts);
  return facts;
};
