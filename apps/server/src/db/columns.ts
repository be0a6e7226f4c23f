import { getTableColumns, getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import * as schema from './schema.ts';
import { columnKind, type ColumnKind } from './list-indexes.ts';

export type ColumnFacts = { name: string; kind: ColumnKind; notNull: boolean };

const facts = new Map<string, ReadonlyMap<string, ColumnFacts>>(
  (Object.values(schema) as unknown[]).flatMap((v): [string, ReadonlyMap<string, ColumnFacts>][] =>
    is(v, PgTable)
      ? [
          [
            getTableName(v),
            new Map(
              Object.entries(getTableColumns(v)).map(([name, c]) => [
                name,
                { name, kind: columnKind(c), notNull: c.notNull },
              ]),
            ),
          ],
        ]
      : [],
  ),
);

const none: ReadonlyMap<string, ColumnFacts> = new Map();

/** The columns of a table of the schema, by name (none for a table the schema does not hold). */
export const columnFacts = (table: string): ReadonlyMap<string, ColumnFacts> => facts.get(table) ?? none;
