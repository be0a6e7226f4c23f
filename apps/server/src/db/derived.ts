import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { entityList, type EntityDefinition } from '@kodi/domain';
import type { Db } from './client.ts';
import { advisoryLocks } from './advisory-locks.ts';

/**
 * What the database keeps derived from a table's rows, made from the entities' definitions and the
 * totals declared below; the trigger functions, the triggers and the rebuild that keep it are
 * generated from them (`derivedScript`) and installed at start-up (`syncDerived`), never written by
 * hand in a migration.
 *
 * - `copies`: a column of the row that holds a value of the row it references (payments.tenant_name
 *   is the tenant's full name), so that lists sort and search by it from an index of their own
 *   table. Set before each insert (and update of the key), and rewritten when the referenced row
 *   changes. Made from the definitions, never declared here: a field `copyOf` a reference field
 *   (`field.copied`) copies the referenced record's label fields, and a `byProperty` entity without
 *   a property of its own copies its unit's `property_id` (`copiesOf`).
 * - `aggregates`: rows of a totals table kept exact by each statement (row_counts, status_counts,
 *   monthly_totals, lease_payment_totals): one INSERT ... ON CONFLICT per total and statement, in
 *   the order of the keys (two statements never deadlock on them). An aggregate `onRow` is kept on
 *   rows that exist already, the rows the source rows reference (properties.units_count): locked
 *   in key order, then updated; never inserted.
 *
 * Every company-owned entity of the domain's list gets its `row_counts` without being declared.
 * `trails` (below) are what deletes leave behind (a deleted payment's receipt code).
 */
export type Copy = {
  /** the referenced table and the row's column that references it (`tenant_id`) */
  from: string;
  key: string;
  /** the copied value, written over the referenced row as `alias` */
  value: (alias: string) => string;
};

export type Aggregate = {
  into: string;
  /** the total's key: [column of `into`, expression over a source row (its columns, unqualified)] */
  keys: readonly (readonly [string, string])[];
  /** the column of `into` counting the rows, if any */
  count?: string;
  /** [column of `into`, expression summed] */
  sums?: readonly (readonly [string, string])[];
  /** only the source rows for which this holds */
  where?: string;
  /**
   * Kept on existing rows of `into` (the rows the source rows reference, found by the keys), not in
   * rows of a totals table: updated (a key that finds no row changes nothing), set to 0 by a
   * truncate and by the rebuild before it sums again.
   */
  onRow?: boolean;
};

export type TableDerived = {
  table: string;
  copies: Readonly<Record<string, Copy>>;
  aggregates: readonly Aggregate[];
};

const literal = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** Rows of a table per company: the total of its unfiltered list. */
const rowCount = (table: string): Aggregate => ({
  into: 'row_counts',
  keys: [
    ['company_id', 'company_id'],
    ['table_name', literal(table)],
  ],
  count: 'n',
});

/** Rows per company and status: the dashboard's counts. */
const statusCount = (table: string, column = 'status'): Aggregate => ({
  into: 'status_counts',
  keys: [
    ['company_id', 'company_id'],
    ['table_name', literal(table)],
    ['status', column],
  ],
  count: 'n',
});

/** Money per company and month: the reports and the dashboard. */
const monthly = (table: string, date: string, status: string, key: string, amount: string): Aggregate => ({
  into: 'monthly_totals',
  keys: [
    ['company_id', 'company_id'],
    ['source', literal(table)],
    ['month', `date_trunc('month', ${date}::timestamp)::date`],
    ['status', status],
    ['key', key],
  ],
  count: 'n',
  sums: [['amount', amount]],
});

/** Money per company, property and month: the reports and the dashboard of one property. */
const propertyMonthly = (
  table: string,
  date: string,
  status: string,
  key: string,
  amount: string,
): Aggregate => {
  const [company, ...rest] = monthly(table, date, status, key, amount).keys;
  return {
    into: 'property_monthly_totals',
    keys: [...(company ? [company] : []), ['property_id', 'property_id'], ...rest],
    count: 'n',
    sums: [['amount', amount]],
    where: 'property_id IS NOT NULL',
  };
};

/** A referenced record's name: its label fields, joined by a space (`first_name || ' ' || last_name`). */
const labelOf =
  (fields: readonly string[]) =>
  (a: string): string =>
    fields.map((f) => `${a}.${f}`).join(` || ' ' || `);

/**
 * The property of a `byProperty` entity's row that has none of its own: its unit's, copied along the
 * reference to an entity that has a `property_id` field (units): the lists, reports and arrears of
 * one property.
 */
const propertyCopy = (def: EntityDefinition, defs: readonly EntityDefinition[]): Copy | undefined => {
  if (!def.byProperty || def.fields.some((f) => f.name === 'property_id')) return undefined;
  const via = def.fields.find((f) =>
    defs.some((d) => d.name === f.ref?.entity && d.fields.some((p) => p.name === 'property_id')),
  );
  if (!via?.ref) throw new Error(`${def.name}: byProperty, but no property and no reference to one.`);
  return { from: via.ref.entity, key: via.name, value: (a) => `${a}.property_id` };
};

/**
 * The copies an entity's rows keep, from its definition: its fields `copyOf` a reference field (in
 * the fields' order), then its unit's property (`propertyCopy`).
 */
export const copiesOf = (
  def: EntityDefinition,
  defs: readonly EntityDefinition[] = entityList,
): Record<string, Copy> => {
  const copies: Record<string, Copy> = {};
  for (const f of def.fields) {
    if (f.copyOf === undefined) continue;
    const via = def.fields.find((r) => r.name === f.copyOf);
    if (!via?.ref) throw new Error(`${def.name}.${f.name}: copyOf ${f.copyOf} is not a reference field.`);
    if (def.scope !== 'company')
      throw new Error(`${def.name}.${f.name}: only company-owned rows copy names.`);
    copies[f.name] = { from: via.ref.entity, key: via.name, value: labelOf(via.ref.labelFields) };
  }
  const property = propertyCopy(def, defs);
  if (property) copies.property_id = property;
  return copies;
};
/** The sum of a lease's charges, or of their waivers: the arrears report's stored debits. */
const leaseChargeTotal = (table: string): Aggregate => ({
  into: 'lease_charge_totals',
  keys: [
    ['company_id', 'company_id'],
    ['occupancy_id', 'occupancy_id'],
    ['source', literal(table)],
  ],
  sums: [['amount', 'amount']],
});

/**
 * What each table keeps beyond its row count and the copies its definition declares (tables not named
 * here keep only those).
 */
const declared: Record<string, readonly Aggregate[]> = {
  units: [
    statusCount('units'),
    // each property's units and occupied units, on the property's row (its list sorts by them)
    {
      into: 'properties',
      keys: [
        ['company_id', 'company_id'],
        ['id', 'property_id'],
      ],
      count: 'units_count',
      sums: [['occupied_count', `(status = 'occupied')::int`]],
      where: 'property_id IS NOT NULL',
      onRow: true,
    },
  ],
  payments: [
    statusCount('payments'),
    monthly('payments', 'payment_date', 'status', `COALESCE(payment_method, '')`, 'amount_paid'),
    propertyMonthly('payments', 'payment_date', 'status', `COALESCE(payment_method, '')`, 'amount_paid'),
    // what each lease has been paid: the arrears report reads one row per lease
    {
      into: 'lease_payment_totals',
      keys: [
        ['company_id', 'company_id'],
        ['occupancy_id', 'occupancy_id'],
      ],
      sums: [['paid', 'amount_paid']],
      where: `status = 'completed'`,
    },
  ],
  maintenance_requests: [statusCount('maintenance_requests')],
  expenses: [
    monthly('expenses', 'expense_date', `''`, 'category', 'amount'),
    propertyMonthly('expenses', 'expense_date', `''`, 'category', 'amount'),
  ],
  commission_wages: [monthly('commission_wages', 'payment_date', 'status', `''`, 'amount')],
  // the rent cycle: fees and charges by month and kind (the income statement), and per lease (arrears)
  charges: [monthly('charges', 'date', `''`, 'kind', 'amount'), leaseChargeTotal('charges')],
  charge_waivers: [
    monthly('charge_waivers', 'date', `''`, 'charge_kind', 'amount'),
    leaseChargeTotal('charge_waivers'),
  ],
  // deposits paid back: the cash flow's outflow
  deposit_settlements: [
    { ...monthly('deposit_settlements', 'date', `''`, `''`, 'refund_amount'), where: 'refund_amount > 0' },
  ],
};

/**
 * Copies kept by tables that are no entity's (beyond those their definitions declare): the names a
 * feature's list searches, kept on its rows so that one trigram index of the row serves the search
 * (crud/paged-list.ts). A line of money received (collections) is searched by its lease's tenant and
 * unit, or by the tenant suggested for it.
 */
const declaredCopies: Readonly<Record<string, Readonly<Record<string, Copy>>>> = {
  statement_lines: {
    lease_tenant_name: { from: 'occupancy', key: 'occupancy_id', value: (a) => `${a}.tenant_name` },
    lease_unit_name: { from: 'occupancy', key: 'occupancy_id', value: (a) => `${a}.unit_name` },
    tenant_name: {
      from: 'tenants',
      key: 'tenant_id',
      value: labelOf(['first_name', 'last_name']),
    },
  },
};

/**
 * What a delete leaves behind: for each deleted row of `table`, a row of `into` made of `columns`
 * ([column of `into`, expression over the deleted row]); a key already there is left as it is. Kept
 * by one statement trigger whatever deletes the rows (the API, an unmatch, a script); never rebuilt
 * (the rows it was made from are gone) and never changed by a truncate.
 */
export type Trail = {
  table: string;
  into: string;
  columns: readonly (readonly [string, string])[];
};

/** A deleted payment's receipt code: its public link then says the receipt is no longer valid. */
export const trails: readonly Trail[] = [
  {
    table: 'payments',
    into: 'revoked_receipts',
    columns: [
      ['receipt_code', 'receipt_code'],
      ['company_id', 'company_id'],
      ['payment_id', 'id'],
      ['receipt_number', 'receipt_number'],
    ],
  },
];

/**
 * Tables whose rows, once written, are never changed nor deleted by anyone (the API has no such
 * route; the database refuses it too): a row trigger raises on UPDATE and DELETE. TRUNCATE, a table
 * event the tests' reset uses, is not refused; foreign keys that restrict keep a company or a user
 * with entries from being deleted.
 */
export type AppendOnly = { table: string; message: string };

/** The audit log (issue 20). */
export const appendOnly: readonly AppendOnly[] = [
  { table: 'audit_entries', message: 'audit entries cannot be changed or deleted' },
];

/** Whether a table's rows per company are kept in `row_counts` (its unfiltered list reads them there). */
export const isCounted = (table: string, defs: readonly EntityDefinition[] = entityList): boolean =>
  defs.some((e) => e.scope === 'company' && e.name === table);

/**
 * The declaration of every table that keeps something, for the entities of `defs` (the list by
 * default): the counted tables, the tables whose definitions copy names, and the declared ones.
 */
export const derivedTables = (defs: readonly EntityDefinition[] = entityList): TableDerived[] => {
  const copying = new Map<string, Record<string, Copy>>([
    ...Object.entries(declaredCopies).map(([table, copies]) => [table, { ...copies }] as const),
    ...defs.map((def) => [def.name, copiesOf(def, defs)] as const),
  ]);
  const names = [
    ...new Set([
      ...defs.filter((e) => e.scope === 'company').map((e) => e.name),
      ...[...copying].filter(([, c]) => Object.keys(c).length > 0).map(([table]) => table),
      ...Object.keys(declared),
    ]),
  ].sort();
  return names.map((table) => ({
    table,
    copies: copying.get(table) ?? {},
    aggregates: [...(isCounted(table, defs) ? [rowCount(table)] : []), ...(declared[table] ?? [])],
  }));
};

// ---------------------------------------------------------------- generated SQL

/** `expr` over a transition table's row: the declaration writes a source row's columns unqualified. */
const aggregateStatement = (a: Aggregate, sources: readonly ('new_rows' | 'old_rows')[]): string => {
  const keyCols = a.keys.map(([c]) => c);
  const measures = [...(a.count ? [[a.count, '1'] as const] : []), ...(a.sums ?? [])];
  const select = (from: 'new_rows' | 'old_rows') => {
    const sign = from === 'new_rows' ? '' : '-';
    const cols = [
      ...a.keys.map(([c, e]) => `${e} AS ${c}`),
      ...measures.map(([c, e]) => `${sign}(${e}) AS ${c}`),
    ];
    return `SELECT ${cols.join(', ')} FROM ${from}${a.where ? ` WHERE ${a.where}` : ''}`;
  };
  const changed = measures.map(([c]) => `sum(${c}) <> 0`).join(' OR ');
  if (a.onRow) {
    const grouped =
      `SELECT ${keyCols.join(', ')}, ${measures.map(([c]) => `sum(${c}) AS ${c}`).join(', ')}\n` +
      `      FROM (${sources.map(select).join(' UNION ALL ')}) d\n` +
      `     GROUP BY ${keyCols.join(', ')} HAVING ${changed}`;
    const match = keyCols.map((c) => `x.${c} = d.${c}`).join(' AND ');
    return [
      `PERFORM 1 FROM ${a.into} x JOIN (${grouped}) d ON ${match}`,
      `  ORDER BY ${keyCols.map((c) => `x.${c}`).join(', ')} FOR NO KEY UPDATE OF x;`,
      // nothing to change: no UPDATE, whose statement triggers would run for no row (and those of
      // `into` may write this table again: properties pass their names on to units)
      `IF FOUND THEN`,
      `UPDATE ${a.into} AS x SET ${measures.map(([c]) => `${c} = x.${c} + d.${c}`).join(', ')}`,
      `  FROM (${grouped}) d WHERE ${match};`,
      `END IF;`,
    ].join('\n');
  }
  const updates = measures.map(([c]) => `${c} = x.${c} + excluded.${c}`);
  return [
    `INSERT INTO ${a.into} AS x (${[...keyCols, ...measures.map(([c]) => c)].join(', ')})`,
    `  SELECT ${keyCols.join(', ')}, ${measures.map(([c]) => `sum(${c})`).join(', ')}`,
    `    FROM (${sources.map(select).join(' UNION ALL ')}) d`,
    `   GROUP BY ${keyCols.join(', ')} HAVING ${changed} ORDER BY ${keyCols.join(', ')}`,
    `  ON CONFLICT (${keyCols.join(', ')}) DO UPDATE SET ${[...updates, 'updated_at = now()'].join(', ')};`,
  ].join('\n');
};

/** The measures of an aggregate: [column of `into`, expression over a source row]. */
const measuresOf = (a: Aggregate) => [...(a.count ? [[a.count, '1'] as const] : []), ...(a.sums ?? [])];

/** An `onRow` aggregate's measures set to 0 where they are not (a truncate, the rebuild's start). */
const zeroed = (a: Aggregate): string => {
  const cols = measuresOf(a).map(([c]) => c);
  return `UPDATE ${a.into} SET ${cols.map((c) => `${c} = 0`).join(', ')} WHERE ${cols.map((c) => `${c} <> 0`).join(' OR ')};`;
};

/** The rows of `into` that come from this declaration (its literal keys): emptied by a TRUNCATE. */
const ownRows = (a: Aggregate): string => {
  const fixed = a.keys.filter(([, e]) => e.startsWith("'") && e !== "''").map(([c, e]) => `${c} = ${e}`);
  return fixed.length > 0 ? fixed.join(' AND ') : 'TRUE';
};

/** The copies other tables keep of this table's rows: [dependent table, column, copy]. */
const dependentsOf = (table: string, tables: readonly TableDerived[]) =>
  tables.flatMap((t) =>
    Object.entries(t.copies)
      .filter(([, c]) => c.from === table)
      .map(([column, c]) => ({ table: t.table, column, copy: c })),
  );

/** A trigger the script creates, as `pg_trigger` shows it. */
export type DerivedTrigger = {
  name: string;
  table: string;
  timing: 'BEFORE' | 'AFTER';
  events: string;
  level: 'ROW' | 'STATEMENT';
  fn: string;
};

export type DerivedScript = {
  functions: { name: string; body: string }[];
  triggers: DerivedTrigger[];
  /** SQL statements, in order: functions, then triggers */
  statements: string[];
  checksum: string;
};

const REBUILDING = `current_setting('kodi.rebuilding', true) = 'on'`;

/** Everything the declaration generates. */
export const derivedScript = (
  tables: readonly TableDerived[] = derivedTables(),
  left: readonly Trail[] = trails,
  guarded: readonly AppendOnly[] = appendOnly,
): DerivedScript => {
  const functions: { name: string; body: string }[] = [];
  const triggers: DerivedTrigger[] = [];
  const rebuild: string[] = [];

  for (const t of tables) {
    const copies = Object.entries(t.copies);
    if (copies.length > 0) {
      const fn = `derived_${t.table}_copy`;
      const lines = copies.map(
        ([column, c]) =>
          `  IF TG_OP = 'INSERT' OR NEW.${c.key} IS DISTINCT FROM OLD.${c.key} THEN\n` +
          `    NEW.${column} := (SELECT ${c.value('s')} FROM ${c.from} s WHERE s.company_id = NEW.company_id AND s.id = NEW.${c.key});\n` +
          `  END IF;`,
      );
      functions.push({ name: fn, body: `\nBEGIN\n${lines.join('\n')}\n  RETURN NEW;\nEND\n` });
      const keys = [...new Set(copies.map(([, c]) => c.key))].sort();
      triggers.push({
        name: fn,
        table: t.table,
        timing: 'BEFORE',
        events: `INSERT OR UPDATE OF ${keys.join(', ')}`,
        level: 'ROW',
        fn,
      });
      for (const [column, c] of copies) {
        rebuild.push(
          `UPDATE ${t.table} d SET ${column} = ${c.value('s')} FROM ${c.from} s\n` +
            `   WHERE s.company_id = d.company_id AND s.id = d.${c.key} AND d.${column} IS DISTINCT FROM (${c.value('s')});`,
          `UPDATE ${t.table} SET ${column} = NULL WHERE ${c.key} IS NULL AND ${column} IS NOT NULL;`,
        );
      }
    }

    const dependents = dependentsOf(t.table, tables);
    if (t.aggregates.length === 0 && dependents.length === 0) continue;
    const fn = `derived_${t.table}_after`;
    const branch = (sources: readonly ('new_rows' | 'old_rows')[]) =>
      t.aggregates.map((a) => aggregateStatement(a, sources)).join('\n');
    const propagate = dependents
      .map(
        (d) =>
          `UPDATE ${d.table} d SET ${d.column} = ${d.copy.value('n')} FROM new_rows n\n` +
          ` WHERE d.company_id = n.company_id AND d.${d.copy.key} = n.id AND d.${d.column} IS DISTINCT FROM (${d.copy.value('n')});`,
      )
      .join('\n');
    const truncate = t.aggregates
      .map((a) => (a.onRow ? zeroed(a) : `DELETE FROM ${a.into} WHERE ${ownRows(a)};`))
      .join('\n');
    const body = [
      '',
      'BEGIN',
      `  IF ${REBUILDING} THEN RETURN NULL; END IF;`,
      `  IF TG_OP = 'INSERT' THEN`,
      branch(['new_rows']),
      `  ELSIF TG_OP = 'DELETE' THEN`,
      branch(['old_rows']),
      `  ELSIF TG_OP = 'UPDATE' THEN`,
      branch(['new_rows', 'old_rows']),
      propagate,
      '  ELSE',
      truncate,
      '  END IF;',
      '  RETURN NULL;',
      'END',
      '',
    ]
      .filter((l) => l !== '')
      .join('\n');
    functions.push({ name: fn, body: `\n${body}\n` });
    // a table whose rows are only copied elsewhere needs its updates alone
    for (const event of ['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE'] as const) {
      if (event !== 'UPDATE' && t.aggregates.length === 0) continue;
      triggers.push({
        name: `derived_${t.table}_${event.toLowerCase()}`,
        table: t.table,
        timing: 'AFTER',
        events: event,
        level: 'STATEMENT',
        fn,
      });
    }
    for (const a of t.aggregates) {
      const keyCols = a.keys.map(([c]) => c);
      const measures = measuresOf(a);
      const summed = (e: string) => (e === '1' ? 'count(*)' : `sum(${e})`);
      if (a.onRow) {
        rebuild.push(
          zeroed(a),
          `UPDATE ${a.into} x SET ${measures.map(([c]) => `${c} = d.${c}`).join(', ')}\n` +
            `  FROM (SELECT ${[...a.keys.map(([c, e]) => `${e} AS ${c}`), ...measures.map(([c, e]) => `${summed(e)} AS ${c}`)].join(', ')}\n` +
            `          FROM ${t.table}${a.where ? ` WHERE ${a.where}` : ''} GROUP BY ${a.keys.map((_, i) => i + 1).join(', ')}) d\n` +
            ` WHERE ${keyCols.map((c) => `x.${c} = d.${c}`).join(' AND ')};`,
        );
        continue;
      }
      rebuild.push(
        `DELETE FROM ${a.into} WHERE ${ownRows(a)};`,
        `INSERT INTO ${a.into} (${[...keyCols, ...measures.map(([c]) => c)].join(', ')})\n` +
          `  SELECT ${[...a.keys.map(([, e]) => e), ...measures.map(([, e]) => summed(e))].join(', ')}\n` +
          `    FROM ${t.table}${a.where ? ` WHERE ${a.where}` : ''} GROUP BY ${a.keys.map((_, i) => i + 1).join(', ')};`,
      );
    }
  }

  for (const trail of left) {
    const fn = `derived_${trail.table}_trail`;
    const cols = trail.columns.map(([c]) => c);
    functions.push({
      name: fn,
      body:
        `\nBEGIN\n  INSERT INTO ${trail.into} (${cols.join(', ')})\n` +
        `    SELECT ${trail.columns.map(([, e]) => e).join(', ')} FROM old_rows\n` +
        `  ON CONFLICT DO NOTHING;\n  RETURN NULL;\nEND\n`,
    });
    triggers.push({
      name: fn,
      table: trail.table,
      timing: 'AFTER',
      events: 'DELETE',
      level: 'STATEMENT',
      fn,
    });
  }

  for (const g of guarded) {
    const fn = `derived_${g.table}_append_only`;
    functions.push({
      name: fn,
      body: `\nBEGIN\n  RAISE EXCEPTION ${literal(g.message)} USING ERRCODE = '42501';\nEND\n`,
    });
    triggers.push({
      name: fn,
      table: g.table,
      timing: 'BEFORE',
      events: 'DELETE OR UPDATE',
      level: 'ROW',
      fn,
    });
  }

  // the rebuild: every total and copy computed again from the rows, with the triggers standing by
  const rebuildBody =
    `\nBEGIN\n  PERFORM set_config('kodi.rebuilding', 'on', true);\n` +
    rebuild.map((s) => `  ${s}`).join('\n') +
    `\n  PERFORM set_config('kodi.rebuilding', 'off', true);\nEND\n`;
  functions.push({ name: 'derived_rebuild', body: rebuildBody });

  const statements = [
    ...functions.map(
      (f) =>
        `CREATE FUNCTION ${f.name}() RETURNS ${f.name === 'derived_rebuild' ? 'void' : 'trigger'} LANGUAGE plpgsql AS $derived$${f.body}$derived$`,
    ),
    ...triggers.map((tr) => {
      const ref =
        tr.level === 'ROW'
          ? ''
          : tr.events === 'INSERT'
            ? ' REFERENCING NEW TABLE AS new_rows'
            : tr.events === 'DELETE'
              ? ' REFERENCING OLD TABLE AS old_rows'
              : tr.events === 'UPDATE'
                ? ' REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows'
                : '';
      return `CREATE TRIGGER ${tr.name} ${tr.timing} ${tr.events} ON ${tr.table}${ref} FOR EACH ${tr.level} EXECUTE FUNCTION ${tr.fn}()`;
    }),
  ];
  const checksum = createHash('sha256').update(statements.join('\n;\n')).digest('hex');
  return { functions, triggers, statements, checksum };
};

/**
 * Installs the generated functions and triggers when they differ from those installed (the
 * checksum kept in `derived_state`), then rebuilds every total and copy from the rows — in one
 * transaction, under a lock, so that two servers starting together install them once. Called when
 * a database is opened, after the migrations, for the list of entities (a test that adds an entity
 * passes the list with it).
 */
export const syncDerived = async (
  db: Db,
  defs: readonly EntityDefinition[] = entityList,
): Promise<boolean> => {
  const script = derivedScript(derivedTables(defs));
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${advisoryLocks.startUp})`);
    const rows = (await tx.execute(
      sql`SELECT checksum FROM derived_state WHERE name = 'derived'`,
    )) as unknown as {
      rows: { checksum: string }[];
    };
    if (rows.rows[0]?.checksum === script.checksum) return false;
    const old = (await tx.execute(
      sql`SELECT t.tgname, c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
           WHERE NOT t.tgisinternal AND t.tgname LIKE 'derived\_%'`,
    )) as unknown as { rows: { tgname: string; relname: string }[] };
    for (const r of old.rows) await tx.execute(sql.raw(`DROP TRIGGER ${r.tgname} ON ${r.relname}`));
    const fns = (await tx.execute(
      sql`SELECT proname FROM pg_proc WHERE proname LIKE 'derived\_%' AND pronamespace = 'public'::regnamespace`,
    )) as unknown as { rows: { proname: string }[] };
    for (const r of fns.rows) await tx.execute(sql.raw(`DROP FUNCTION ${r.proname}()`));
    for (const s of script.statements) await tx.execute(sql.raw(s));
    await tx.execute(sql`SELECT derived_rebuild()`);
    await tx.execute(
      sql`INSERT INTO derived_state (name, checksum) VALUES ('derived', ${script.checksum})
          ON CONFLICT (name) DO UPDATE SET checksum = excluded.checksum, updated_at = now()`,
    );
    return true;
  });
};
