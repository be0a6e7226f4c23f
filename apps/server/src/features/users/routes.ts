import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import {
  AppError,
  accountMessages,
  securityMessages,
  registerAsAdminBody,
  userPasswordBody,
  userProfileBody,
  userRolesBody,
  type ManagedUser,
  type Role,
} from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { execRows, type DbOrTx } from '../../db/client.ts';
import { listQuerySchema } from '../../crud/routes.ts';
import { hashPassword } from '../../platform/passwords.ts';
import { assertStrongPassword } from '../../modules/identity/password-strength.ts';
import { recordAuditEntry, recordUserChange } from '../../modules/audit/audit.ts';
import { removeMfa, sessionsEndedAnswer } from '../../modules/identity/mfa.ts';
import { accountLockKey, forgetLoginFailures } from '../../modules/identity/sign-in.ts';
import { pagedList, searchCondition, searchWords, sendTotal, sortOrder } from '../../crud/paged-list.ts';
import { currentUser } from '../../plugins/guard.ts';
import { USER_SELECT, endUserSessions, endWaitingSignIns, rowToUser } from '../../plugins/session.ts';
import {
  createUser,
  endResetTokens,
  setPassword,
  setUserRoles,
  updateUserProfile,
} from '../../modules/identity/accounts.ts';
import { emailTaken, rethrowDuplicateEmail, sessionUserSchema } from '../../modules/identity/users.ts';
import { errors, json, named } from '../../plugins/openapi.ts';

/** A user as the users routes answer it: never the password hash. */
export const managedUserSchema = named(
  sessionUserSchema.extend({ company_name: z.string().nullable(), version: z.number() }),
  'User',
);

const roleSchema = named(z.object({ id: z.number(), name: z.string(), readable_name: z.string() }), 'Role');
const messageSchema = z.object({ message: z.string() });
const idParams = z.object({ id: z.coerce.number().int().positive().max(2147483647) });

type UserRow = Parameters<typeof rowToUser>[0] & { company_name: string | null; version: number };

const USERS_FROM = sql.raw(`SELECT ${USER_SELECT}, c.name AS company_name, u.version
  FROM users u LEFT JOIN companies c ON c.id = u.company_id`);
/** The list's columns and joins over a page's users `t` (USER_SELECT names the user `u`). */
const USERS_COLUMNS = sql.raw(`${USER_SELECT}, c.name AS company_name, u.version`);
const USERS_JOIN = sql.raw('JOIN users u ON u.id = t.id LEFT JOIN companies c ON c.id = u.company_id');

const toManaged = (r: UserRow): ManagedUser => ({
  ...rowToUser(r),
  company_name: r.company_name,
  version: Number(r.version),
});

/** Sortable fields and their expressions over the user's row `t`. */
const SORTS: Record<string, string> = {
  id: 't.id',
  email: 'lower(t.email)',
  first_name: 'lower(t.first_name)',
  last_name: 'lower(t.last_name)',
  company_name: '(SELECT lower(c.name) FROM companies c WHERE c.id = t.company_id)',
  company_id: 't.company_id',
  active: 't.active',
  country_code: 't.country_code',
  last_login_at: 't.last_login_at',
  created_at: 't.created_at',
};

type ListQuery = z.infer<typeof listQuerySchema>;

/** The list's conditions over `t`: staff accounts, the search (the e-mail) and the filters (company, active). */
const listWhere = (query: ListQuery): SQL[] => {
  // a portal account (a tenant's, an owner's) is the portal's, managed from its record: never listed here
  const parts: SQL[] = [sql`t.tenant_id IS NULL AND t.owner_id IS NULL`];
  const q = searchWords(query.q);
  if (q) parts.push(searchCondition(q));
  if (query.filter) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(query.filter);
    } catch {
      throw new AppError('validation_failed', 'The filter is not valid JSON.', { filter: 'Invalid JSON.' });
    }
    for (const f of Array.isArray(parsed) ? parsed : [parsed]) {
      const { field, value } = (f ?? {}) as { field?: unknown; value?: unknown };
      if (field === 'company_id' && (typeof value === 'number' || typeof value === 'string')) {
        parts.push(sql`t.company_id::text = ${String(value)}`);
      } else if (
        field === 'active' &&
        (typeof value === 'boolean' || value === 'true' || value === 'false')
      ) {
        parts.push(sql`t.active = ${value === true || value === 'true'}`);
      } else {
        throw new AppError('validation_failed', `Unknown filter field: ${String(field)}.`, {
          filter: 'Unknown field.',
        });
      }
    }
  }
  return parts;
};

export const getUser = async (db: DbOrTx, id: number): Promise<ManagedUser> => {
  const rows = await execRows<UserRow>(db, sql`${USERS_FROM} WHERE u.id = ${id}`);
  const row = rows[0];
  if (!row) throw new AppError('not_found', 'User not found.');
  return toManaged(row);
};

/** The company and the country must exist; the e-mail must be free (another user's id excepted). */
const checkProfile = async (
  tx: DbOrTx,
  values: { email: string; company_id: number; country_code?: string | null },
  exceptUserId?: number,
) => {
  const company = await execRows(tx, sql`SELECT 1 FROM companies WHERE id = ${values.company_id}`);
  if (company.length === 0) {
    throw new AppError('validation_failed', accountMessages.companyMissing, {
      company_id: accountMessages.companyMissing,
    });
  }
  if (values.country_code) {
    const country = await execRows(
      tx,
      sql`SELECT 1 FROM countries WHERE country_code = ${values.country_code}`,
    );
    if (country.length === 0) {
      throw new AppError('validation_failed', accountMessages.countryMissing, {
        country_code: accountMessages.countryMissing,
      });
    }
  }
  const taken = await execRows(
    tx,
    sql`SELECT 1 FROM users WHERE lower(email) = lower(${values.email}) AND id <> ${exceptUserId ?? 0}`,
  );
  if (taken.length > 0) throw emailTaken();
};

/** The role ids of the names given (each must be in the roles table, a staff role). */
const roleIds = async (tx: DbOrTx, names: readonly string[]): Promise<number[]> => {
  // the tenant and owner roles are the portals' own: given by an invitation, never assigned here
  const all = await execRows<{ id: number; name: string }>(
    tx,
    sql`SELECT id, name FROM roles WHERE name NOT IN ('tenant', 'owner')`,
  );
  const byName = new Map(all.map((r) => [r.name, Number(r.id)]));
  const unknown = names.filter((n) => !byName.has(n));
  if (unknown.length > 0) {
    throw new AppError('validation_failed', `Unknown role: ${unknown.join(', ')}.`, {
      roles: accountMessages.unknownRole,
    });
  }
  return [...new Set(names)].map((n) => byName.get(n) ?? 0);
};

/** The user row, locked for the rest of the transaction; 404 when there is none. */
/** What a user's audit entry keeps of the profile (never the password's hash). */
const profileOf = (u: ManagedUser) => ({
  email: u.email,
  first_name: u.first_name,
  last_name: u.last_name,
  company_id: u.company_id,
  country_code: u.country_code,
  active: u.active,
});

const lockUser = async (tx: DbOrTx, id: number) => {
  const rows = await execRows<{
    id: number;
    email: string;
    phone: string | null;
    active: boolean;
    version: number;
  }>(tx, sql`SELECT id, email, phone, active, version FROM users WHERE id = ${id} FOR UPDATE`);
  const row = rows[0];
  if (!row) throw new AppError('not_found', 'User not found.');
  return { ...row, id: Number(row.id) };
};

/** Users and roles: admins only, every user of the installation (product decisions). */
export const userRoutes = (app: FastifyInstance, ctx: AppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx.database;
  const tags = ['users'];

  r.get(
    '/users',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'listUsers',
        tags,
        summary:
          'List staff users (X-Total-Count has the total; tenant portal accounts are left out); q searches the e-mail',
        querystring: listQuerySchema,
        response: { 200: json(z.array(managedUserSchema), 'A page of users, newest first unless sorted') },
      },
    },
    async (request, reply) => {
      const where = listWhere(request.query);
      const page = await pagedList<UserRow>(
        ctx.database,
        {
          table: 'users',
          key: ['id'],
          where,
          filtered: where.length > 1,
          searched: searchWords(request.query.q) !== undefined,
          // NULLs (never signed in, no country) last either way
          order: sortOrder(request.query.sort, SORTS, [{ expr: 't.id', desc: true }], () => 'last'),
          columns: USERS_COLUMNS,
          joins: USERS_JOIN,
        },
        request.query,
      );
      sendTotal(reply, page);
      return page.rows.map(toManaged);
    },
  );

  r.get(
    '/users/:id',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'getUser',
        tags,
        summary: 'One user',
        params: idParams,
        response: { 200: json(managedUserSchema, 'The user'), ...errors(404) },
      },
    },
    async (request) => getUser(db, request.params.id),
  );

  r.get(
    '/roles',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'listRoles',
        tags,
        summary: 'The roles a user may hold',
        response: { 200: json(z.array(roleSchema), 'Every role') },
      },
    },
    async (): Promise<Role[]> => {
      const rows = await execRows<Role>(
        db,
        sql`SELECT id, name, readable_name FROM roles WHERE name NOT IN ('tenant', 'owner') ORDER BY id`,
      );
      return rows.map((row) => ({ ...row, id: Number(row.id) }));
    },
  );

  r.put(
    '/users/:id',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'updateUser',
        tags,
        summary:
          'Edit a profile (disabling ends the sessions; send the version you read to be warned of a change)',
        params: idParams,
        body: userProfileBody,
        response: { 200: json(managedUserSchema, 'The user as stored'), ...errors(404, 409) },
      },
    },
    async (request) => {
      const me = currentUser(request);
      const { id } = request.params;
      const body = request.body;
      const email = body.email.toLowerCase();
      if (id === me.id && body.active === false) {
        throw new AppError('validation_failed', accountMessages.ownDisable, {
          active: accountMessages.ownDisable,
        });
      }
      return db
        .transaction(async (tx) => {
          const existing = await lockUser(tx, id);
          if (body.version !== undefined && body.version !== Number(existing.version))
            throw new AppError('conflict');
          await checkProfile(tx, { email, company_id: body.company_id, country_code: body.country_code }, id);
          const before = await getUser(tx, id);
          await updateUserProfile(tx, id, {
            email,
            firstName: body.first_name,
            lastName: body.last_name,
            companyId: body.company_id,
            countryCode: body.country_code,
            active: body.active ?? existing.active,
          });
          // its sessions end, and a sign-in of it waiting for its code (issue 23)
          if (body.active === false) await endUserSessions(tx, id, null);
          const after = await getUser(tx, id);
          await recordAuditEntry(tx, {
            companyId: after.company_id,
            userId: me.id,
            action: before.active !== after.active ? 'access' : 'update',
            entity: 'users',
            recordId: id,
            before: profileOf(before),
            after: profileOf(after),
            summary:
              before.active !== after.active ? `${after.email} ${after.active ? 'enabled' : 'disabled'}` : '',
          });
          return after;
        })
        .catch(rethrowDuplicateEmail);
    },
  );

  r.put(
    '/users/:id/roles',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'setUserRoles',
        tags,
        summary: "Replace a user's roles (at least one)",
        params: idParams,
        body: userRolesBody,
        response: { 200: json(managedUserSchema, 'The user with the new roles'), ...errors(404) },
      },
    },
    async (request) => {
      const me = currentUser(request);
      const { id } = request.params;
      const { roles } = request.body;
      if (id === me.id && !roles.includes('admin')) {
        throw new AppError('validation_failed', accountMessages.ownAdminRole, {
          roles: accountMessages.ownAdminRole,
        });
      }
      return db.transaction(async (tx) => {
        await lockUser(tx, id);
        const portal = await execRows<{ tenant_id: number | null }>(
          tx,
          sql`SELECT tenant_id FROM users WHERE id = ${id}`,
        );
        if (portal[0]?.tenant_id)
          throw new AppError('validation_failed', 'A tenant’s portal account keeps the tenant role only.', {
            roles: 'A tenant’s portal account keeps the tenant role only.',
          });
        const before = await getUser(tx, id);
        await setUserRoles(tx, id, await roleIds(tx, roles));
        const after = await getUser(tx, id);
        await recordAuditEntry(tx, {
          companyId: after.company_id,
          userId: me.id,
          action: 'access',
          entity: 'users',
          recordId: id,
          before: { roles: before.roles },
          after: { roles: after.roles },
          summary: `Roles of ${after.email}: ${after.roles.join(', ')}`,
        });
        return after;
      });
    },
  );

  r.put(
    '/users/:id/password',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'setUserPassword',
        tags,
        summary: "Set a user's password (ends that user's other sessions, lifts a login lock)",
        params: idParams,
        body: userPasswordBody,
        response: { 200: json(messageSchema, 'Done'), ...errors(404) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const target = await getUser(db, id);
      await assertStrongPassword(request.body.password, 'password', [
        target.email,
        target.first_name,
        target.last_name,
      ]);
      const passwordHash = await hashPassword(request.body.password);
      await db.transaction(async (tx) => {
        const user = await lockUser(tx, id);
        await setPassword(tx, id, passwordHash);
        // its sessions end, and a sign-in waiting for its code, begun with the old password (issue 23)
        await endUserSessions(tx, id, request.session?.id ?? null);
        await endResetTokens(tx, id);
        await forgetLoginFailures(tx, accountLockKey(user));
        await recordAuditEntry(tx, {
          companyId: target.company_id,
          userId: currentUser(request).id,
          action: 'access',
          entity: 'users',
          recordId: id,
          summary: `Password of ${user.email} set by an administrator; other sessions ended`,
        });
      });
      return { message: accountMessages.adminPasswordDone };
    },
  );

  r.post(
    '/auth/register_as_admin',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'createUser',
        tags,
        summary: 'Add a user (admin): profile, password and roles',
        body: registerAsAdminBody,
        response: { 201: json(managedUserSchema, 'The user as stored'), ...errors(409) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const email = body.email.toLowerCase();
      await assertStrongPassword(body.password, 'password', [email, body.first_name, body.last_name]);
      const passwordHash = await hashPassword(body.password);
      const created = await db
        .transaction(async (tx) => {
          await checkProfile(tx, { email, company_id: body.company_id, country_code: body.country_code });
          const ids = await roleIds(tx, body.roles);
          const id = await createUser(tx, {
            email,
            firstName: body.first_name,
            lastName: body.last_name,
            companyId: body.company_id,
            countryCode: body.country_code,
            active: body.active,
            passwordHash,
          });
          await setUserRoles(tx, id, ids);
          return getUser(tx, id);
        })
        .catch(rethrowDuplicateEmail);
      return reply.code(201).send(created);
    },
  );

  r.delete(
    '/users/:id/mfa',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'resetUserMfa',
        tags,
        summary: "Resets a user's second factor: it is off until they set it up again (audited)",
        params: idParams,
        response: { 200: json(messageSchema, 'Done'), ...errors(404) },
      },
    },
    async (request) => {
      const me = currentUser(request);
      const { id } = request.params;
      await db.transaction(async (tx) => {
        await lockUser(tx, id);
        if (await removeMfa(tx, id)) {
          await recordUserChange(tx, {
            userId: id,
            actorId: me.id,
            before: { mfa_enabled: true },
            after: { mfa_enabled: false, mfa_reset_by: me.email },
          });
        }
        // a sign-in waiting for a code of the old secret ends with it
        await endWaitingSignIns(tx, id);
      });
      return { message: securityMessages.mfaReset };
    },
  );

  r.delete(
    '/users/:id/sessions',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'endUserSessions',
        tags,
        summary: "Ends every session of a user (the admin's own current one excepted; audited)",
        params: idParams,
        response: { 200: json(sessionsEndedAnswer, 'How many ended'), ...errors(404) },
      },
    },
    async (request) => {
      const me = currentUser(request);
      const { id } = request.params;
      const ended = await db.transaction(async (tx) => {
        await lockUser(tx, id);
        const n = await endUserSessions(tx, id, request.session?.id ?? null);
        await recordUserChange(tx, {
          userId: id,
          actorId: me.id,
          before: { sessions: n },
          after: { sessions: 0, sessions_ended_by: me.email },
        });
        return n;
      });
      return { ended };
    },
  );
};
