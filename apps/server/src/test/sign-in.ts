import type { RoleName } from '@kodi/domain';
import type { TestContext } from './harness.ts';
import { TestClient } from './client.ts';
import { buildUser } from './factories.ts';

/** A new user of the company with these roles, signed in: the client of their session. */
export const signInAs = async (
  t: TestContext,
  companyId: number,
  roles: RoleName[] = ['admin'],
): Promise<TestClient> => {
  const user = await buildUser(t.database, { company_id: companyId, roles });
  const client = new TestClient(t.app);
  await client.login(user.email, user.password);
  return client;
};
