import { sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppError, EntityDefinition, ImportBackRent, SessionUser } from '@kodi/domain';
import type { DbOrTx } from '../db/client.ts';
import type { EntitySql } from './sql.ts';

/** A page of a list as the API asks for it (product decisions: paging, search, sort, filter). */
export type ListQuery = {
  page: number;
  page_size: number;
  q?: string;
  sort?: string;
  filter?: string;
  /** the rows of one property (entities `byProperty`) */
  property_id?: number | undefined;
};

/** A record's write as `posted` sees it: the record before and after (presented as the API answers it). */
export type PostedChange = { before?: Record<string, unknown>; after?: Record<string, unknown> };

/** The server side of an entity: its definition, its SQL, and only the rules that are its own. */
export type ServerEntity = {
  def: EntityDefinition;
  sql: EntitySql;
  /**
   * Which rows the user may see, for entities whose scope is not simply their company
   * (companies: admins all, others their own). Default: company-owned rows of the session's company.
   */
  scope?: (user: SessionUser) => SQL;
  /**
   * A short list for signed-out callers (the register page's company picker). When set, the list route is
   * public: signed-out callers get this, signed-in ones the normal list with the normal checks.
   */
  publicList?: (db: DbOrTx, query: ListQuery) => Promise<{ rows: Record<string, unknown>[]; total: number }>;
  /**
   * Read-only fields its `prepare` and `prepareMany` write (payments: the serial and the receipt
   * number): with copies, expressions and generated columns, what fills a field the client does not
   * write (crud/read-only-fields.test.ts).
   */
  writes?: readonly string[];
  /**
   * A status its lists leave out unless they are filtered by status (payments: `void`). The unfiltered
   * total is the row count less that status's count (both kept: db/derived.ts).
   */
  hiddenStatus?: string;
  /**
   * What a delete does instead, for some records (payments: a completed one is voided, never deleted):
   * answers true when it did something else and the record is not to be deleted.
   */
  insteadOfDelete?: (args: {
    tx: DbOrTx;
    user: SessionUser;
    id: number;
    existing: Record<string, unknown>;
  }) => Promise<boolean>;
  /** request body limit for create and update (images, documents). */
  bodyLimit?: number;
  /**
   * The entity's own rules before a write, inside the transaction: may change the values
   * (normalise, assign numbers) or throw an AppError.
   */
  prepare?: (args: {
    tx: DbOrTx;
    user: SessionUser;
    values: Record<string, unknown>;
    existing?: Record<string, unknown>;
  }) => Promise<Record<string, unknown>>;
  /**
   * What follows a write in its transaction (the books: a payment completed posts its entry): called
   * by records.ts after every create, createMany, update, change and delete with each record as it
   * was (`before`, none for a new one) and as it is (`after`, none when deleted).
   */
  posted?: (
    tx: DbOrTx,
    user: Pick<SessionUser, 'company_id'> & { id: number | null },
    changes: readonly PostedChange[],
  ) => Promise<void>;
  /**
   * `prepare` for several new records at once (one statement for all of them): each one's values,
   * or the AppError it answers alone. Creations sent together use it instead of `prepare`.
   */
  prepareMany?: (args: {
    tx: DbOrTx;
    companyId: number;
    values: Record<string, unknown>[];
  }) => Promise<(Record<string, unknown> | AppError)[]>;
  /**
   * What a create or an update answers besides the record (leases: `back_rent`): the fields' schemas,
   * and their values for the record as stored (read with `db`: the update's transaction, or after a
   * creation's commit).
   */
  answers?: {
    shape: z.ZodRawShape;
    add: (args: {
      db: DbOrTx;
      user: SessionUser;
      record: Record<string, unknown>;
    }) => Promise<Record<string, unknown>>;
  };
  /**
   * What an import's preview of new records adds up (leases: the back rent they charge): `add` is
   * called with each valid new record (its row, its values, the file's texts of its references);
   * `result` is kept with the import as its `back_rent`.
   */
  importBackRent?: (args: { tx: DbOrTx; companyId: number }) => Promise<{
    add: (row: { row: number; values: Record<string, unknown>; refs: Record<string, string> }) => void;
    result: () => ImportBackRent | null;
  }>;
  /**
   * The rules of `prepareMany` that read the database, checked for new records without saving or
   * numbering anything (an import's preview): each one's refusal, or undefined.
   */
  checkMany?: (args: {
    tx: DbOrTx;
    companyId: number;
    values: Record<string, unknown>[];
  }) => Promise<(AppError | undefined)[]>;
};

/** The rows a user may see: the session's company's, unless the entity says otherwise. */
export const scopeCondition = (e: ServerEntity, user: SessionUser): SQL =>
  e.scope ? e.scope(user) : e.def.scope === 'company' ? sql`t.company_id = ${user.company_id}` : sql`TRUE`;
