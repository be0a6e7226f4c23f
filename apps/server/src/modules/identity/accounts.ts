import { sql } from 'drizzle-orm';
import { execRows, type Database, type DbOrTx } from '../../db/client.ts';
import { findPgError } from '../../plugins/errors.ts';

// The writes of the identity tables (one writer per table, issue 24): every insert and update of
// `users`, `user_roles` and `password_reset_tokens` of the account features (accounts, users, portal)
// is one of these named operations; the second factor's are in mfa.ts, a sign-in's in sign-in.ts.
// Each runs its statement as it ran in the feature: on a transaction or the database it is given
// (`Database` where the feature ran a plain query), so the callers keep their transactions and locks.

type Query = Pick<Database, 'query'>;

/** A staff user's profile as an administrator sets it, on a new user and on an edit. */
export type UserProfile = {
  email: string;
  firstName: string;
  lastName: string;
  companyId: number;
  countryCode: string | null | undefined;
  active: boolean;
};

/** An administrator's new user (no roles yet: `setUserRoles`); answers its id. */
export const createUser = async (tx: DbOrTx, u: UserProfile & { passwordHash: string }): Promise<number> => {
  const rows = await execRows<{ id: number }>(
    tx,
    sql`INSERT INTO users (email, first_name, last_name, company_id, country_code, active, password_hash)
        VALUES (${u.email}, ${u.firstName}, ${u.lastName}, ${u.companyId}, ${u.countryCode},
                ${u.active}, ${u.passwordHash})
        RETURNING id`,
  );
  return Number(rows[0]?.id);
};

/**
 * The first run's administrator (an empty database): named Kodi Admin, with the `admin` role.
 */
export const createFirstAdmin = async (
  tx: DbOrTx,
  a: { email: string; companyId: number; countryCode: string; passwordHash: string },
): Promise<void> => {
  const user = await execRows<{ id: number }>(
    tx,
    sql`INSERT INTO users (email, first_name, last_name, company_id, country_code, password_hash)
        VALUES (${a.email}, 'Kodi', 'Admin', ${a.companyId}, ${a.countryCode}, ${a.passwordHash}) RETURNING id`,
  );
  await tx.execute(
    sql`INSERT INTO user_roles (user_id, role_id) SELECT ${Number(user[0]?.id)}, id FROM roles WHERE name = 'admin'`,
  );
};

/** A self-registered user (active, no role, signed in now); answers its id. */
export const createRegisteredUser = async (
  database: Query,
  u: { email: string; firstName: string; lastName: string; companyId: number; passwordHash: string },
): Promise<number> => {
  const rows = await database.query<{ id: number }>(
    `INSERT INTO users (email, first_name, last_name, company_id, active, password_hash, last_login_at)
     VALUES ($1, $2, $3, $4, true, $5, now()) RETURNING id`,
    [u.email, u.firstName, u.lastName, u.companyId, u.passwordHash],
  );
  return Number(rows[0]?.id);
};

/**
 * A portal account (active, no password until the invitation is accepted): a tenant's, with the tenant
 * role, or an owner's (issue 27), with the owner role.
 */
export const createPortalAccount = async (
  database: Query,
  a: {
    email: string | null;
    phone: string | null;
    firstName: string;
    lastName: string;
    companyId: number;
  } & ({ tenantId: number } | { ownerId: number }),
): Promise<void> => {
  const [tenantId, ownerId] = 'tenantId' in a ? [a.tenantId, null] : [null, a.ownerId];
  await database.query(
    `WITH u AS (
       INSERT INTO users (email, phone, first_name, last_name, company_id, tenant_id, owner_id, active)
       VALUES ($1, $2, $3, $4, $5, $6, $7, true) RETURNING id)
     INSERT INTO user_roles (user_id, role_id) SELECT u.id, r.id FROM u, roles r WHERE r.name = $8`,
    [
      a.email,
      a.phone,
      a.firstName,
      a.lastName,
      a.companyId,
      tenantId,
      ownerId,
      tenantId ? 'tenant' : 'owner',
    ],
  );
};

/** A portal account's addresses and name, as its record's are now (an invitation again). */
export const updatePortalAccount = async (
  database: Query,
  userId: number,
  a: { email: string | null; phone: string | null; firstName: string; lastName: string },
): Promise<void> => {
  await database.query(
    `UPDATE users SET email = $2, phone = $3, first_name = $4, last_name = $5, updated_at = now(),
            version = version + 1 WHERE id = $1`,
    [userId, a.email, a.phone, a.firstName, a.lastName],
  );
};

/** A user's profile as an administrator edits it (the row locked by the caller). */
export const updateUserProfile = async (tx: DbOrTx, id: number, p: UserProfile): Promise<void> => {
  await tx.execute(
    sql`UPDATE users SET email = ${p.email}, first_name = ${p.firstName}, last_name = ${p.lastName},
          company_id = ${p.companyId}, country_code = ${p.countryCode},
          active = ${p.active}, version = version + 1, updated_at = now()
        WHERE id = ${id}`,
  );
};

/** Replaces a user's roles by the role ids given. */
export const setUserRoles = async (tx: DbOrTx, userId: number, roleIds: readonly number[]): Promise<void> => {
  await tx.execute(sql`DELETE FROM user_roles WHERE user_id = ${userId}`);
  for (const roleId of roleIds) {
    await tx.execute(sql`INSERT INTO user_roles (user_id, role_id) VALUES (${userId}, ${roleId})`);
  }
};

/** A portal account turned on or off (its sessions and links are the caller's to end). */
export const setUserActive = async (tx: DbOrTx, userId: number, active: boolean): Promise<void> => {
  await tx.execute(
    sql`UPDATE users SET active = ${active}, updated_at = now(), version = version + 1
         WHERE id = ${userId}`,
  );
};

/** A staff user's new password (a reset, a change, an administrator's). */
export const setPassword = async (tx: DbOrTx, userId: number, passwordHash: string): Promise<void> => {
  await tx.execute(
    sql`UPDATE users SET password_hash = ${passwordHash}, updated_at = now() WHERE id = ${userId}`,
  );
};

/** A portal account's password, set when its invitation is accepted (its version moves on). */
export const setPortalPassword = async (
  database: Query,
  userId: number,
  passwordHash: string,
): Promise<void> => {
  await database.query(
    'UPDATE users SET password_hash = $2, updated_at = now(), version = version + 1 WHERE id = $1',
    [userId, passwordHash],
  );
};

/** `last_login_at` stamped (a sign-in that does not go through `completeSignIn`: Google's). */
export const stampLastLogin = async (database: Query, userId: number): Promise<void> => {
  await database.query('UPDATE users SET last_login_at = now() WHERE id = $1', [userId]);
};

/**
 * Makes the address (an e-mail or an E.164 phone) one the account signs in with, if no other account
 * does: answers whether it is the account's now. A unique-index race ends as `false` too.
 */
export const attachSignInAddress = async (
  database: Query,
  userId: number,
  address: string,
): Promise<boolean> => {
  const column = address.includes('@') ? 'email' : 'phone';
  try {
    const rows = await database.query<{ id: number }>(
      `UPDATE users SET ${column} = $2, updated_at = now(), version = version + 1
        WHERE id = $1 AND NOT EXISTS (
          SELECT 1 FROM users o WHERE o.id <> $1 AND ${column === 'email' ? 'lower(o.email) = lower($2)' : 'o.phone = $2'})
        RETURNING id`,
      [userId, address],
    );
    return rows.length === 1;
  } catch (err) {
    if (findPgError(err)?.code === '23505') return false;
    throw err;
  }
};

/** The user's sign-in address of `field` set (a confirmed change: the caller checked it is free). */
export const setSignInAddress = async (
  tx: DbOrTx,
  userId: number,
  field: 'email' | 'phone',
  address: string,
): Promise<void> => {
  await tx.execute(
    sql`UPDATE users SET ${sql.identifier(field)} = ${address}, updated_at = now() WHERE id = ${userId}`,
  );
};

/** The user stops signing in with its e-mail (a portal account that signs in with its phone). */
export const dropSignInEmail = async (tx: DbOrTx, userId: number): Promise<void> => {
  await tx.execute(sql`UPDATE users SET email = NULL, updated_at = now() WHERE id = ${userId}`);
};

/** A password reset token of the user (its hash), valid `minutes`. */
export const createResetToken = async (
  database: Query,
  userId: number,
  tokenHash: string,
  minutes: number,
): Promise<void> => {
  await database.query(
    `INSERT INTO password_reset_tokens (user_id, token_hash, expires_at)
     VALUES ($1, $2, now() + make_interval(mins => $3))`,
    [userId, tokenHash, minutes],
  );
};

/**
 * Uses a reset token up, in the same statement that checks it (unused, not expired, its user active):
 * two requests with one token cannot both pass. Answers its user, or undefined.
 */
export const useResetToken = async (
  tx: DbOrTx,
  tokenHash: string,
): Promise<{ user_id: number; email: string; phone: string | null } | undefined> => {
  const rows = await execRows<{ user_id: number; email: string; phone: string | null }>(
    tx,
    sql`UPDATE password_reset_tokens t SET used_at = now(), updated_at = now()
          FROM users u
         WHERE t.token_hash = ${tokenHash} AND t.used_at IS NULL AND t.expires_at > now()
           AND u.id = t.user_id AND u.active
     RETURNING t.user_id, u.email, u.phone`,
  );
  return rows[0];
};

/** Every reset token of the user not used yet is used up (its password was just set). */
export const endResetTokens = async (tx: DbOrTx, userId: number): Promise<void> => {
  await tx.execute(
    sql`UPDATE password_reset_tokens SET used_at = now(), updated_at = now()
         WHERE user_id = ${userId} AND used_at IS NULL`,
  );
};
