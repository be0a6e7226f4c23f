import iconv from 'iconv-lite';
import ExcelJS from 'exceljs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NO_OCCUPANCY_MESSAGE, type ImportRecord } from '@kodi/domain';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { TestClient } from '../../test/client.ts';
import { buildCompany, buildUser } from '../../test/factories.ts';
import { validTenant, validUnit } from '../../test/entities.ts';
import { csv, upload, xlsx } from './import-test-kit.ts';

const TENANT_HEADER = ['First Name', 'Last Name', 'Sex', 'Phone number', 'Date of Birth', 'External Ref'];

describe(`imports: preview and commit (${testDriver})`, () => {
  let t: TestContext;
  let admin: TestClient;
  let companyId: number;

  beforeEach(async () => {
    t = await setupApp();
    companyId = (await buildCompany(t.database, { name: 'Kampala Homes' })).id;
    const u = await buildUser(t.database, { company_id: companyId, roles: ['admin'] });
    admin = new TestClient(t.app);
    await admin.login(u.email, u.password);
  });
  afterEach(async () => {
    await t.app.close();
  });

  const count = async (table: string) =>
    Number(
      (
        await t.database.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM ${table} WHERE company_id = $1`,
          [companyId],
        )
      )[0]?.n,
    );

  const preview = async (entity: string, name: string, content: Buffer | string, fields = {}) => {
    const res = await upload(admin, entity, { name, content }, fields);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<ImportRecord>();
  };

  const commit = async (id: number) => {
    const res = await admin.post(`/imports/${id}/commit`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ created: number; updated: number; unchanged: number; skipped_invalid: number }>();
  };

  it('maps tenants by header, reads a messy CSV, saves nothing until the commit', async () => {
    // a BOM, ';' separators, synonyms and odd spacing in headers, a quoted line break, phones with
    // spaces and a leading 0, a date as DD/MM/YYYY and one as an Excel serial, trailing empty columns and rows
    const text =
      '\uFEFF' +
      csv(
        [
          ['first_name', 'LAST  NAME', 'Gender', 'Mobile', 'DOB', 'Notes', '', ''],
          ['Grace', 'Namuli', 'Female', '0772 123 456', '12/04/1990', 'line one\nline two', '', ''],
          ['Peter', 'Okello', 'm', '+256 701 234567', '33000', '', '', ''],
          ['', '', '', '', '', '', '', ''],
        ],
        ';',
      ) +
      '\r\n;;;;;;;\r\n\r\n';
    const p = await preview('tenants', 'tenants.csv', text, { date_format: 'DD/MM/YYYY' });
    expect(p).toMatchObject({
      entity: 'tenants',
      status: 'previewed',
      file_name: 'tenants.csv',
      total_rows: 2,
      valid_rows: 2,
      invalid_rows: 0,
      errors: [],
      columns: ['first_name', 'LAST  NAME', 'Gender', 'Mobile', 'DOB', 'Notes'],
      mapping: {
        first_name: 'first_name',
        'LAST  NAME': 'last_name',
        Gender: 'sex',
        Mobile: 'phone',
        DOB: 'date_of_birth',
        Notes: null,
      },
    });
    expect(p.sample).toEqual([
      expect.objectContaining({
        row: 2,
        action: 'create',
        first_name: 'Grace',
        sex: 'F',
        phone: '+256772123456',
        date_of_birth: '1990-04-12',
        status: 'active',
      }),
      expect.objectContaining({ row: 3, sex: 'M', phone: '+256701234567', date_of_birth: '1990-05-07' }),
    ]);
    expect(await count('tenants')).toBe(0);

    const done = await commit(p.id);
    expect(done).toEqual({
      id: p.id,
      status: 'committed',
      created: 2,
      updated: 0,
      unchanged: 0,
      skipped_invalid: 0,
    });
    const list = await admin.get('/tenants?sort=first_name');
    expect(list.json().map((r: { full_name: string }) => r.full_name)).toEqual([
      'Grace Namuli',
      'Peter Okello',
    ]);
    // every record created has its audit entry naming the import
    const audits = await t.database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_entries WHERE company_id = $1 AND entity = 'tenants' AND import_id = $2 AND action = 'create'`,
      [companyId, p.id],
    );
    expect(audits[0]?.n).toBe(2);
    const again = await admin.post(`/imports/${p.id}/commit`);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'conflict',
      error: 'This import has already been committed.',
    });
    expect(await count('tenants')).toBe(2);
    const got = (await admin.get(`/imports/${p.id}`)).json<ImportRecord>();
    expect(got).toMatchObject({
      status: 'committed',
      created: 2,
      skipped_invalid: 0,
      user_name: 'Test Tester',
    });
  });
});
