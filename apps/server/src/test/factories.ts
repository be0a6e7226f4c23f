import type { RoleName } from '@kodi/domain';
import type { Database } from '../db/client.ts';
import { hashPassword } from '../platform/passwords.ts';

export const PASSWORD = 'correct-horse-42';
let passwordHash: Promise<string> | undefined;

let seq = 0;

export const buildCompany = async (
  database: Database,
  overrides: { name?: string; currency_code?: string; country_code?: string | null } = {},
): Promise<{ id: number; name: string }> => {
  const name = overrides.name ?? `Company ${++seq}`;
  const rows = await database.query<{ id: number }>(
    'INSERT INTO companies (name, currency_code, country_code) VALUES ($1, $2, $3) RETURNING id',
    [
      name,
      overrides.currency_code ?? 'UGX',
      overrides.country_code === undefined ? 'UGA' : overrides.country_code,
    ],
  );
  return { id: Number(rows[0]?.id), name };
};

export type BuiltUser = {
  id: number;
  email: string;
  password: string;
  company_id: number;
  roles: RoleName[];
};

export const buildUser = async (
  database: Database,
  opts: { company_id: number; roles?: RoleName[]; email?: string; active?: boolean; first_name?: string },
): Promise<BuiltUser> => {
  passwordHash ??= hashPassword(PASSWORD);
  const email = opts.email ?? `user${++seq}@example.com`;
  const rows = await database.query<{ id: number }>(
    `INSERT INTO users (email, first_name, last_name, company_id, active, country_code, password_hash)
     VALUES ($1, $2, 'Tester', $3, $4, 'UGA', $5) RETURNING id`,
    [email, opts.first_name ?? 'Test', opts.company_id, opts.active ?? true, await passwordHash],
  );
  const id = Number(rows[0]?.id);
  const roles = opts.roles ?? ['admin'];
  for (const r of roles) {
    await database.query(
      'INSERT INTO user_roles (user_id, role_id) SELECT $1, id FROM roles WHERE name = $2',
      [id, r],
    );
  }
  return { id, email, password: PASSWORD, company_id: opts.company_id, roles };
};
