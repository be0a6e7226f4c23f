import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImportRecord } from '@kodi/domain';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import type { TestClient } from '../../test/client.ts';
import { unitsToLet } from '../../test/units-to-let.ts';
import { csv, upload } from './import-test-kit.ts';

const ACCOUNT_REFERENCE_TAKEN = 'This account number is already another lease’s.';
type Lease = { id: number; version: number; account_reference: string | null } & Record<string, unknown>;

describe(`imports of leases with their account numbers (issue 29) (${testDriver})`, () => {
  let t: TestContext;
  let admin: TestClient;
  let lease: Awaited<ReturnType<typeof unitsToLet>>['lease'];
  let start: string;

  beforeEach(async () => {
    t = await setupApp();
    ({ admin, lease, start } = await unitsToLet(t, ['A-12', 'a 12', 'B7', 'Flat 3', 'C1', 'C2']));
  });
  afterEach(async () => {
    await t.app.close();
  });

  it('refuses a number given twice or held, and numbers the rows without one', async () => {
    expect((await lease(admin, 'A-12')).json<Lease>().account_reference).toBe('A12');
    const sheet = csv([
      ['Tenant name', 'Phone', 'Unit', 'Rent', 'Start date', 'Account number'],
      ['Carol Cheptoo', '0701 000 001', 'C1', '400000', start, 'c-1'],
      ['Dan Dungu', '0701 000 002', 'C2', '400000', start, 'C-1'],
      ['Esther Nakato', '0701 000 003', 'B7', '400000', start, ''],
    ]);
    const fill = JSON.stringify({ new_tenant_sex: 'Female', new_tenant_date_of_birth: '1990-01-01' });
    const preview = await upload(admin, 'occupancy', { name: 'leases.csv', content: sheet }, { fill });
    expect(preview.statusCode, preview.body).toBe(201);
    const p = preview.json<ImportRecord>();
    expect(p.mapping).toMatchObject({ 'Account number': 'account_reference' });
    expect(p, JSON.stringify(p.errors)).toMatchObject({ valid_rows: 2, invalid_rows: 1 });
    expect(p.errors).toEqual([{ row: 3, field: 'account_reference', message: ACCOUNT_REFERENCE_TAKEN }]);
    const done = await admin.post(`/imports/${p.id}/commit`);
    expect(done.statusCode, done.body).toBe(200);
    const leases = (await admin.get('/occupancy?sort=id&page_size=100')).json<Lease[]>();
    expect(leases.map((l) => l.account_reference).sort()).toEqual(['A12', 'B7', 'C-1']);
  });
});
