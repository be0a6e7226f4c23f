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

  it('reads a tenant’s phone in any spelling as E.164, with the row’s country code or the company’s', async () => {
    const text = csv([
      ['First Name', 'Last Name', 'Sex', 'Country Code', 'Phone', 'Date of Birth'],
      ['Ann', 'One', 'F', '+256', '0772 123 456', '1990-01-01'],
      ['Ben', 'Two', 'M', '', '256772123457', '1990-01-01'],
      ['Cat', 'Three', 'F', '', '+256 772 123 458', '1990-01-01'],
      ['Dan', 'Four', 'M', '', '772123459', '1990-01-01'],
      ['Eve', 'Five', 'F', '+254', '0712 345 678', '1990-01-01'],
      // once saved as +256077299887
      ['Fay', 'Six', 'F', '', '0772 99887', '1990-01-01'],
      // ten digits, but not a Ugandan number
      ['Gus', 'Seven', 'M', '', '0772 1234 567', '1990-01-01'],
    ]);
    const p = await preview('tenants', 'phones.csv', text);
    expect(p).toMatchObject({ total_rows: 7, valid_rows: 5, invalid_rows: 2 });
    expect(p.sample.map((r) => r.phone)).toEqual([
      '+256772123456',
      '+256772123457',
      '+256772123458',
      '+256772123459',
      '+254712345678',
    ]);
    expect(p.errors).toEqual([
      { row: 7, field: 'phone', message: 'Invalid phone number format.' },
      { row: 8, field: 'phone', message: 'This is not a possible phone number for Uganda.' },
    ]);
    expect(await commit(p.id)).toMatchObject({ created: 5 });
    const phones = await t.database.query<{ phone: string }>(
      'SELECT phone FROM tenants WHERE company_id = $1 ORDER BY id',
      [companyId],
    );
    expect(phones.map((r) => r.phone)).toEqual(p.sample.map((r) => r.phone));
  });

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
    // and the commit itself is in the audit log
    const log = await admin.get('/audit-log?action=import');
    expect(log.statusCode, log.body).toBe(200);
    expect(log.json()).toEqual([
      expect.objectContaining({
        entity: 'imports',
        record_id: p.id,
        summary: 'Import of tenants: 2 created, 0 updated, 0 unchanged, 0 skipped',
      }),
    ]);
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
  it('reads Windows-1252 text, tab separators and reports each bad cell by row and field', async () => {
    const text = csv(
      [
        ['First Name', 'Last Name', 'Sex', 'Phone', 'Date of Birth', 'Email'],
        ['Zoë', 'Müller', 'F', '0772 000111', '1991-02-03', ''],
        ['Ann', '', 'X', '12', '2091-01-01', 'not-an-email'],
        ['Bob', 'Kato', 'M', '0772 000222', '31/02/1990', ''],
      ],
      '\t',
    );
    const p = await preview('tenants', 'latin.txt', iconv.encode(text, 'windows-1252'), {
      date_format: 'DD/MM/YYYY',
    });
    expect(p).toMatchObject({ total_rows: 3, valid_rows: 1, invalid_rows: 2 });
    expect(p.sample[0]).toMatchObject({ first_name: 'Zoë', last_name: 'Müller', phone: '+256772000111' });
    expect(p.errors).toEqual([
      { row: 3, field: 'last_name', message: 'This field is required.' },
      { row: 3, field: 'sex', message: 'Choose one of the listed values.' },
      { row: 3, field: 'phone', message: 'Invalid phone number format.' },
      { row: 3, field: 'email', message: 'E-mail must be valid.' },
      { row: 3, field: 'date_of_birth', message: 'Date of birth must be in the past.' },
      { row: 4, field: 'date_of_birth', message: "Not a real date as DD/MM/YYYY: '31/02/1990'." },
    ]);
    // the errors file: the rejected rows as they were, and their messages
    const file = await admin.get(`/imports/${p.id}/errors.csv`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('text/csv');
    const lines = file.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('First Name,Last Name,Sex,Phone,Date of Birth,Email,error');
    expect(lines[1]).toMatch(
      /^Ann,,X,12,2091-01-01,not-an-email,"?Last Name: This field is required\.; Sex: Choose one of the listed values\./,
    );
    expect(lines[2]).toBe(
      "Bob,Kato,M,0772 000222,31/02/1990,,Date of Birth: Not a real date as DD/MM/YYYY: '31/02/1990'.",
    );
    expect(lines).toHaveLength(3);
    const done = await commit(p.id);
    expect(done).toMatchObject({ created: 1, skipped_invalid: 2 });
    // the errors file stays after the commit
    expect((await admin.get(`/imports/${p.id}/errors.csv`)).body).toContain('Ann');
  });

  it('writes the errors file without formulas (a quote before them, numbers as they are), and reads it back as it was', async () => {
    const text = csv([
      ['First Name', 'Last Name', 'Sex', 'Phone number', 'Date of Birth'],
      ['=HYPERLINK("http://evil.test","x")', '@SUM(A1)', 'F', '+256 772 123456', '1990-01-02'],
      ['-Ann', '+Kato', 'X', '+256772000333', '1991-02-03'],
      ['Bob', "=cmd|' /C calc'!A0", 'M', '-5', '1992-03-04'],
    ]);
    const p = await preview('tenants', 'formulas.csv', text);
    expect(p).toMatchObject({ total_rows: 3, valid_rows: 1, invalid_rows: 2 });
    const file = await admin.get(`/imports/${p.id}/errors.csv`);
    const lines = file.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines.slice(1)).toEqual([
      "'-Ann,'+Kato,X,+256772000333,1991-02-03,Sex: Choose one of the listed values.",
      "Bob,'=cmd|' /C calc'!A0,M,-5,1992-03-04,Phone: Invalid phone number format.",
    ]);
    // the first row was valid: its cells were taken as written (no quote added to what is saved)
    expect(p.sample[0]).toMatchObject({
      first_name: '=HYPERLINK("http://evil.test","x")',
      last_name: '@SUM(A1)',
    });
    // the errors file, corrected, imports again: the quotes the writer added are taken off
    const fixed = file.body
      .replace(',X,+256772000333', ',F,+256772000333')
      .replace(',M,-5,', ',M,0772 000444,');
    const again = await preview('tenants', 'fixed.csv', fixed);
    expect(again).toMatchObject({ total_rows: 2, valid_rows: 2, invalid_rows: 0 });
    expect(again.sample).toMatchObject([
      { first_name: '-Ann', last_name: '+Kato', phone: '+256772000333' },
      { first_name: 'Bob', last_name: "=cmd|' /C calc'!A0", phone: '+256772000444' },
    ]);
  });

  it('reads an xlsx workbook: dates, date serials and dates as text, amounts as text, numbers as phones', async () => {
    const file = await xlsx([
      ['Name', 'Address', 'Type', 'Rent', 'Weekly Rate', 'Daily Rate', 'Bedrooms', 'External Ref'],
      ['Kololo A1', 'Plot 4, Kololo', 'Apartment', 'UGX 1,200,000', '300,000', 50000, 2, 'U-1'],
      ['Kololo A2', 'Plot 4, Kololo', 'house', '1 500 000', 'USh 375,000', '50000.50', '3', 'U-2'],
      ['Kololo A3', 'Plot 4, Kololo', 'villa', 'USD 500', 'abc', 1, 1, 'U-3'],
    ]);
    const p = await preview('units', 'units.xlsx', file);
    expect(p).toMatchObject({ total_rows: 3, valid_rows: 2, invalid_rows: 1 });
    expect(p.mapping).toMatchObject({
      Rent: 'monthly_rate',
      Type: 'unit_type',
      'External Ref': 'external_ref',
    });
    expect(p.sample[0]).toMatchObject({
      name: 'Kololo A1',
      unit_type: 'apartment',
      monthly_rate: 1200000,
      weekly_rate: 300000,
    });
    expect(p.sample[1]).toMatchObject({
      unit_type: 'house',
      monthly_rate: 1500000,
      weekly_rate: 375000,
      daily_rate: 50000.5,
      bedrooms: 3,
    });
    expect(p.errors).toEqual([
      { row: 4, field: 'unit_type', message: 'Choose one of the listed values.' },
      { row: 4, field: 'monthly_rate', message: "The amount is in USD; the company's currency is UGX." },
      { row: 4, field: 'weekly_rate', message: "Not an amount: 'abc'." },
    ]);

    const tenants = await xlsx(
      [
        ['First Name', 'Last Name', 'Sex', 'Phone', 'Date of Birth', 'Emergency Contact Phone'],
        ['Grace', 'Namuli', 'F', 772123456, new Date(Date.UTC(1990, 3, 12)), '0701 234 567'],
        ['Peter', 'Okello', 'M', '+256772000999', 33000, null],
        ['Sara', 'Akello', 'F', '0772 000888', '5-Nov-1985', null],
        ['Tom', 'Mugisha', 'M', '0772 000777', 'Nov 6, 1985', null],
      ],
      [4],
    );
    const q = await preview('tenants', 'tenants.xlsx', tenants);
    expect(q.errors).toEqual([]);
    expect(q.sample.map((r) => [r.phone, r.date_of_birth, r.emergency_contact_phone ?? null])).toEqual([
      ['+256772123456', '1990-04-12', '+256701234567'],
      ['+256772000999', '1990-05-07', null],
      ['+256772000888', '1985-11-05', null],
      ['+256772000777', '1985-11-06', null],
    ]);
  });

  it("reads phones as numbers of the company's country, which its form sets", async () => {
    const company = (await admin.get(`/companies/${companyId}`)).json();
    expect(company).toMatchObject({ country_code: 'UGA' });
    const bad = await admin.put(`/companies/${companyId}`, { ...company, country_code: 'ZZZ' });
    expect(bad.statusCode).toBe(400);
    const lower = await admin.put(`/companies/${companyId}`, { ...company, country_code: 'ken' });
    expect(lower.json().fields).toEqual({
      country_code: 'Country code must be exactly 3 uppercase letters.',
    });
    const kenya = await admin.put(`/companies/${companyId}`, { ...company, country_code: 'KEN' });
    expect(kenya.statusCode, kenya.body).toBe(200);
    const p = await preview(
      'tenants',
      't.csv',
      csv([TENANT_HEADER, ['Wanjiru', 'Kamau', 'F', '0712 345678', '1990-04-12', 'K-1']]),
    );
    expect(p.sample[0]).toMatchObject({ phone: '+254712345678' });
  });

  it('refuses files that are not CSV or xlsx, and files over the limits', async () => {
    const pdf = await upload(admin, 'tenants', {
      name: 'tenants.csv',
      content: Buffer.from('%PDF-1.4 binary'),
    });
    expect(pdf.statusCode).toBe(400);
    expect(pdf.json()).toMatchObject({ code: 'unsupported_file' });
    const binary = await upload(admin, 'tenants', {
      name: 'x.xlsx',
      content: Buffer.from([1, 2, 0, 4, 5, 0, 7]),
    });
    expect(binary.json()).toMatchObject({ code: 'unsupported_file' });
    const zip = await upload(admin, 'tenants', {
      name: 'fake.xlsx',
      content: Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(200, 7)]),
    });
    expect(zip.json()).toMatchObject({ code: 'unsupported_file' });
    const noFile = await upload(admin, 'tenants', undefined);
    expect(noFile.json()).toMatchObject({
      code: 'validation_failed',
      fields: { file: 'Choose a CSV or xlsx file.' },
    });
    const badEntity = await upload(admin, 'vendors', { name: 'a.csv', content: 'Name\nx' });
    expect(badEntity.statusCode).toBe(400);
    expect(badEntity.json().fields).toHaveProperty('entity');
    const json = await admin.post('/imports', { entity: 'tenants' });
    expect(json.statusCode).toBe(415);
    const big = await upload(admin, 'tenants', {
      name: 'big.csv',
      content: Buffer.alloc(20 * 1024 * 1024 + 10, 'a'),
    });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ code: 'payload_too_large', error: 'The file is larger than 20 MB.' });
    const malformed = await upload(admin, 'tenants', {
      name: 'q.csv',
      content: 'First Name,Last Name\n"Ann,Kato\n',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error).toMatch(/^The CSV file cannot be read at row 2/);
    expect(await count('imports')).toBe(0);
  });

  it('refuses more than 100,000 rows, and keeps nothing of it', async () => {
    const rows = ['Name,Address,Monthly Rate,Weekly Rate,Daily Rate'];
    for (let i = 0; i <= 100_000; i++) rows.push(`U${i},A,1,1,1`);
    const res = await upload(admin, 'units', { name: 'many.csv', content: rows.join('\n') });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'validation_failed',
      error: 'The file has more than 100,000 rows.',
    });
    expect(await count('imports')).toBe(0);
    expect(await count('import_rows')).toBe(0);
  }, 120_000);

  it('imports the same file twice without creating anything twice; a changed row updates its record', async () => {
    const rows = [
      TENANT_HEADER,
      ['Grace', 'Namuli', 'F', '0772 123456', '1990-04-12', 'T-1'],
      ['Peter', 'Okello', 'M', '0772 654321', '1988-01-02', 'T-2'],
    ];
    const first = await preview('tenants', 't.csv', csv(rows));
    expect(await commit(first.id)).toMatchObject({ created: 2, updated: 0, unchanged: 0 });
    const second = await preview('tenants', 't.csv', csv(rows));
    expect(second.sample.map((r) => r.action)).toEqual(['update', 'update']);
    expect(await commit(second.id)).toMatchObject({ created: 0, updated: 0, unchanged: 2 });
    expect(await count('tenants')).toBe(2);
    // a changed phone updates that record only; an unmapped field (status) stays as it was
    const grace = (await admin.get('/tenants?q=Grace')).json()[0] as { id: number; version: number };
    await admin.put(
      `/tenants/${grace.id}`,
      validTenant({
        status: 'inactive',
        phone: '+256772123456',
        version: grace.version,
        external_ref: 'T-1',
      }),
    );
    const changed = rows.map((r) => [...r]);
    changed[1]![3] = '0772 999999';
    const third = await preview('tenants', 't.csv', csv(changed));
    expect(await commit(third.id)).toMatchObject({ created: 0, updated: 1, unchanged: 1 });
    const after = (await admin.get(`/tenants/${grace.id}`)).json();
    expect(after).toMatchObject({
      phone: '+256772999999',
      status: 'inactive',
      external_ref: 'T-1',
      version: 3,
    });
    const history = (await admin.get(`/tenants/${grace.id}/history`)).json() as {
      action: string;
      import_id: number | null;
    }[];
    expect(history[0]).toMatchObject({ action: 'update', import_id: third.id });
    // a row repeating an external_ref of the same file is refused
    const twice = await preview(
      'tenants',
      't.csv',
      csv([...rows, ['Ann', 'Kato', 'F', '0772 111111', '1990-01-01', 'T-1']]),
    );
    expect(twice.errors).toEqual([
      { row: 4, field: 'external_ref', message: 'The same external_ref as row 2.' },
    ]);
  });

  it('takes the mapping given, and previews again with it', async () => {
    const text = csv([
      ['Given', 'Family', 'Sex', 'Cell', 'Born'],
      ['Grace', 'Namuli', 'F', '0772 123456', '1990-04-12'],
    ]);
    const p = await preview('tenants', 't.csv', text);
    expect(p.mapping).toEqual({ Given: null, Family: null, Sex: 'sex', Cell: null, Born: null });
    expect(p.invalid_rows).toBe(1);
    const mapping = { Given: 'first_name', Family: 'last_name', Cell: 'phone', Born: 'date_of_birth' };
    const q = await preview('tenants', 't.csv', text, {
      mapping: JSON.stringify(mapping),
      replaces: String(p.id),
    });
    expect(q).toMatchObject({ valid_rows: 1, invalid_rows: 0, mapping: { ...mapping, Sex: 'sex' } });
    // the preview it replaces is gone
    expect((await admin.get(`/imports/${p.id}`)).statusCode).toBe(404);
    const bad = await upload(
      admin,
      'tenants',
      { name: 't.csv', content: text },
      { mapping: JSON.stringify({ Given: 'phone', Cell: 'phone' }) },
    );
    expect(bad.statusCode).toBe(400);
    const unknown = await upload(
      admin,
      'tenants',
      { name: 't.csv', content: text },
      { mapping: '{"Nope":"phone"}' },
    );
    expect(unknown.json()).toMatchObject({ fields: { mapping: 'Unknown column: Nope.' } });
  });

  it('answers templates with the headers and one example row', async () => {
    const res = await admin.get('/imports/template?entity=tenants&fmt=csv');
    expect(res.statusCode).toBe(200);
    const [header, example] = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(header).toBe(
      'First Name,Last Name,Sex,Country Code,Phone,Email,Date of Birth,ID or Passport Number,Emergency Contact Name,Emergency Contact Phone,Status,Notify by E-mail,Notify by SMS,Notify by WhatsApp,Language,External Ref',
    );
    expect(example).toContain('Grace,Namuli,');
    // the template imports as it is
    const p = await preview('tenants', 'template.csv', res.body);
    expect(p).toMatchObject({ valid_rows: 1, invalid_rows: 0 });
    const x = await admin.get('/imports/template?entity=payments&fmt=xlsx');
    expect(x.headers['content-type']).toContain('spreadsheetml');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(x.rawPayload as unknown as ArrayBuffer);
    const row1 = workbook.worksheets[0]?.getRow(1).values as unknown[];
    expect(row1.slice(1, 4)).toEqual(['Tenant', 'Unit', 'Payment Date']);
    expect((await admin.get('/imports/template?entity=vendors&fmt=csv')).statusCode).toBe(400);
  });

  it('expires a preview after 24 hours: its commit is refused and its rows removed', async () => {
    const p = await preview(
      'tenants',
      't.csv',
      csv([TENANT_HEADER, ['Grace', 'Namuli', 'F', '0772 123456', '1990-04-12', 'T-1']]),
    );
    await t.database.query(`UPDATE imports SET created_at = now() - interval '25 hours' WHERE id = $1`, [
      p.id,
    ]);
    expect((await admin.get(`/imports/${p.id}`)).json()).toMatchObject({ status: 'expired' });
    const res = await admin.post(`/imports/${p.id}/commit`);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'import_expired' });
    expect(await count('import_rows')).toBe(1);
    await preview('tenants', 't.csv', csv([TENANT_HEADER]));
    expect(await count('import_rows')).toBe(0);
    expect(await count('tenants')).toBe(0);
  });

  it('streams the commit progress as lines of JSON when asked', async () => {
    const rows: (string | number)[][] = [TENANT_HEADER];
    for (let i = 0; i < 1500; i++)
      rows.push(['Tenant', `No${i}`, 'F', `0772 ${String(100000 + i)}`, '1990-01-01', `T-${i}`]);
    const p = await preview('tenants', 't.csv', csv(rows));
    expect(p.valid_rows).toBe(1500);
    const res = await admin.post(`/imports/${p.id}/commit`, undefined, { accept: 'application/x-ndjson' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/x-ndjson');
    const lines = res.body
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.slice(0, -1)).toEqual([
      { processed: 0, total: 1500 },
      { processed: 1000, total: 1500 },
      { processed: 1500, total: 1500 },
    ]);
    expect(lines.at(-1)).toMatchObject({ status: 'committed', created: 1500 });
    const again = await admin.post(`/imports/${p.id}/commit`, undefined, { accept: 'application/x-ndjson' });
    expect(again.statusCode).toBe(409);
  });

  it('saves nothing when a row fails at the commit', async () => {
    const p = await preview(
      'tenants',
      't.csv',
      csv([
        TENANT_HEADER,
        ['Grace', 'Namuli', 'F', '0772 123456', '1990-04-12', 'T-1'],
        ['Peter', 'Okello', 'M', '0772 654321', '1988-01-02', 'T-2'],
      ]),
    );
    // someone else takes T-2 between the preview and the commit
    await admin.post('/tenants', validTenant({ external_ref: 'T-2' }));
    const res = await admin.post(`/imports/${p.id}/commit`);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'duplicate' });
    expect(await count('tenants')).toBe(1);
    expect((await admin.get(`/imports/${p.id}`)).json()).toMatchObject({ status: 'previewed' });
  });
});

describe(`imports: references and each entity (${testDriver})`, () => {
  let t: TestContext;
  let admin: TestClient;
  let companyId: number;
  const ids: Record<string, number> = {};

  beforeEach(async () => {
    t = await setupApp();
    companyId = (await buildCompany(t.database, { name: 'Kampala Homes' })).id;
    const u = await buildUser(t.database, { company_id: companyId, roles: ['admin'] });
    admin = new TestClient(t.app);
    await admin.login(u.email, u.password);
    ids.unitA = (await admin.post('/units', validUnit({ name: 'Kololo A1', external_ref: 'U-A' }))).json().id;
    ids.unitB = (await admin.post('/units', validUnit({ name: 'Ntinda B2' }))).json().id;
    ids.grace = (await admin.post('/tenants', validTenant({ external_ref: 'T-GRACE' }))).json().id;
    ids.peter = (
      await admin.post(
        '/tenants',
        validTenant({ first_name: 'Peter', last_name: 'Okello', phone: '+256701234567' }),
      )
    ).json().id;
    // two tenants of one name: a name alone cannot tell them apart
    await admin.post(
      '/tenants',
      validTenant({ first_name: 'John', last_name: 'Doe', phone: '+256700000001' }),
    );
    await admin.post(
      '/tenants',
      validTenant({ first_name: 'John', last_name: 'Doe', phone: '+256700000002' }),
    );
    ids.vendor = (
      await admin.post('/vendors', {
        name: 'Kampala Plumbers',
        service_offered: 'Plumbing',
        phone: '+256700111222',
      })
    ).json().id;
  });
  afterEach(async () => {
    await t.app.close();
  });

  const preview = async (entity: string, rows: (string | number)[][], fields = {}) => {
    const res = await upload(admin, entity, { name: `${entity}.csv`, content: csv(rows) }, fields);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<ImportRecord>();
  };

  it("finds a lease's tenant by external_ref, phone or full name and its unit by name", async () => {
    const p = await preview('occupancy', [
      ['Tenant', 'Unit', 'Start Date', 'End Date', 'Rent', 'Rent Cycle', 'External Ref'],
      // Grace leaves Kololo A1 before Peter moves in (a unit is let once at a time)
      ['T-GRACE', 'U-A', '2026-01-01', '2026-01-31', '1,500,000', 'Monthly', 'L-1'],
      ['0701 234 567', 'ntinda  b2', '2026-01-01', '', '900000', 'weekly', 'L-2'],
      ['peter okello', 'Kololo A1', '2026-02-01', '', '900000', '', 'L-3'],
      ['John Doe', 'Kololo A1', '2026-02-01', '', '900000', '', 'L-4'],
      ['Nobody Here', 'Nowhere', '2026-02-01', '', '900000', '', 'L-5'],
    ]);
    expect(p.sample.map((r) => [r.tenant_id, r.unit_id, r.rent_cycle])).toEqual([
      [ids.grace, ids.unitA, 'monthly'],
      [ids.peter, ids.unitB, 'weekly'],
      [ids.peter, ids.unitA, 'monthly'],
    ]);
    expect(p.errors).toEqual([
      {
        row: 5,
        field: 'tenant_id',
        message: "2 tenants match 'John Doe' by name: give its external_ref or phone instead.",
      },
      {
        row: 6,
        field: 'tenant_id',
        message: "No tenant matches 'Nobody Here' (by external_ref, phone, name).",
      },
      { row: 6, field: 'unit_id', message: "No unit matches 'Nowhere' (by external_ref, name)." },
    ]);
    const res = await admin.post(`/imports/${p.id}/commit`);
    expect(res.json()).toMatchObject({ created: 3, skipped_invalid: 2 });
    const leases = (await admin.get('/occupancy?sort=id')).json() as {
      tenant_name: string;
      unit_name: string;
      external_ref: string;
    }[];
    expect(leases.map((l) => [l.tenant_name, l.unit_name, l.external_ref])).toEqual([
      ['Grace Namuli', 'Kololo A1', 'L-1'],
      ['Peter Okello', 'Ntinda B2', 'L-2'],
      ['Peter Okello', 'Kololo A1', 'L-3'],
    ]);
  });

  it('refuses a lease of a unit let for those dates, in the preview and at the commit (issue 26)', async () => {
    await admin.post('/occupancy', {
      tenant_id: ids.grace,
      unit_id: ids.unitA,
      start_date: '2026-01-01',
      end_date: '2026-06-30',
      rate: 1500000,
    });
    const p = await preview('occupancy', [
      ['Tenant', 'Unit', 'Start Date', 'Rent'],
      ['peter okello', 'Kololo A1', '2026-03-01', '900000'],
      ['peter okello', 'Ntinda B2', '2026-01-01', '900000'],
      // the row before lets Ntinda B2 from January
      ['T-GRACE', 'Ntinda B2', '2026-02-01', '900000'],
      ['peter okello', 'Kololo A1', '2026-07-01', '900000'],
    ]);
    expect(p.errors).toEqual([
      {
        row: 2,
        field: 'unit_id',
        message: 'Unit Kololo A1 is let to Grace Namuli from Jan 1, 2026 to Jun 30, 2026.',
      },
      {
        row: 4,
        field: 'unit_id',
        message: 'Unit Ntinda B2 is let to Peter Okello from Jan 1, 2026, with no end date.',
      },
    ]);
    // between the preview and the commit, Ntinda B2 is let by hand: the commit refuses the file
    await admin.post('/occupancy', {
      tenant_id: ids.grace,
      unit_id: ids.unitB,
      start_date: '2025-06-01',
      rate: 900000,
    });
    const refused = await admin.post(`/imports/${p.id}/commit`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'unit_occupied',
      error: 'Row 3: Unit Ntinda B2 is let to Grace Namuli from Jun 1, 2025, with no end date.',
    });
    const leases = await t.database.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM occupancy WHERE company_id = $1',
      [companyId],
    );
    expect(leases[0]?.n).toBe(2);
  });

  it("checks each payment's lease as the payments form does, and numbers the payments saved", async () => {
    await admin.post('/occupancy', {
      tenant_id: ids.grace,
      unit_id: ids.unitA,
      start_date: '2026-01-01',
      rate: 1500000,
    });
    await admin.post('/payments', {
      tenant_id: ids.grace,
      unit_id: ids.unitA,
      payment_date: '2026-01-05',
      amount_paid: 1,
      status: 'completed',
      effective_start_date: '2026-01-01',
      effective_end_date: '2026-01-31',
    });
    const rows = [
      ['Tenant', 'Unit', 'Date', 'Amount', 'Method', 'Status', 'Period start', 'Period end', 'External Ref'],
      [
        'T-GRACE',
        'Kololo A1',
        '2026-02-05',
        'UGX 1,500,000',
        'Mobile Money',
        'Completed',
        '2026-02-01',
        '2026-02-28',
        'P-1',
      ],
      ['T-GRACE', 'Kololo A1', '2026-03-05', '1500000', 'cash', 'pending', '2026-03-01', '2026-03-31', 'P-2'],
      [
        'Peter Okello',
        'Kololo A1',
        '2026-03-05',
        '1500000',
        'cash',
        'completed',
        '2026-03-01',
        '2026-03-31',
        'P-3',
      ],
    ];
    const p = await preview('payments', rows);
    expect(p.errors).toEqual([{ row: 4, field: 'occupancy_id', message: NO_OCCUPANCY_MESSAGE }]);
    // the preview took no number
    const counters = await t.database.query<{ name: string; value: number }>(
      `SELECT name, value::int AS value FROM counters WHERE company_id = $1 ORDER BY name`,
      [companyId],
    );
    expect(counters).toEqual([
      { name: 'payment_serial', value: 1 },
      { name: 'receipt_number', value: 1 },
    ]);
    const res = await admin.post(`/imports/${p.id}/commit`);
    expect(res.json()).toMatchObject({ created: 2, skipped_invalid: 1 });
    const list = (await admin.get('/payments?sort=payment_serial')).json() as Record<string, unknown>[];
    expect(
      list.map((r) => [
        r.payment_serial,
        r.receipt_number,
        r.payment_method,
        r.amount_paid,
        r.reference_number,
      ]),
    ).toEqual([
      ['PAY-000001', 'RCT-000001', null, 1, 'N/A'],
      ['PAY-000002', 'RCT-000002', 'mobilemoney', 1500000, 'N/A'],
      ['PAY-000003', null, 'cash', 1500000, 'N/A'],
    ]);
    // again: nothing new
    const again = await preview('payments', rows);
    expect((await admin.post(`/imports/${again.id}/commit`)).json()).toMatchObject({
      created: 0,
      updated: 0,
      unchanged: 2,
    });
    // a file of statuses only: the pending payment completed takes its receipt number, keeps its lease
    const statuses = await preview('payments', [
      ['External Ref', 'Status'],
      ['P-1', 'completed'],
      ['P-2', 'Completed'],
    ]);
    expect(statuses.errors).toEqual([]);
    expect((await admin.post(`/imports/${statuses.id}/commit`)).json()).toMatchObject({
      created: 0,
      updated: 1,
      unchanged: 1,
    });
    const p2 = (await admin.get('/payments?q=PAY-000003')).json()[0];
    expect(p2).toMatchObject({ status: 'completed', receipt_number: 'RCT-000003' });
  });

  it('imports expenses with their unit and vendor by name', async () => {
    const p = await preview(
      'expenses',
      [
        ['Unit', 'Date', 'Amount', 'Category', 'Description', 'Vendor', 'External Ref'],
        ['Kololo A1', '05/03/2026', 'UGX 250,000', 'Repairs', 'Tap', 'kampala plumbers', 'E-1'],
        ['', '06/03/2026', '1,000', 'Cleaning', '', '', 'E-2'],
        ['', '07/03/2026', '1,000', 'Lunch', '', 'Unknown Vendor', 'E-3'],
      ],
      { date_format: 'DD/MM/YYYY' },
    );
    expect(
      p.sample.map((r) => [r.unit_id ?? null, r.vendor_id ?? null, r.expense_date, r.amount, r.category]),
    ).toEqual([
      [ids.unitA, ids.vendor, '2026-03-05', 250000, 'repairs'],
      [null, null, '2026-03-06', 1000, 'cleaning'],
    ]);
    expect(p.errors.map((e) => [e.row, e.field])).toEqual([
      [4, 'category'],
      [4, 'vendor_id'],
    ]);
    expect((await admin.post(`/imports/${p.id}/commit`)).json()).toMatchObject({ created: 2 });
    const list = (await admin.get('/expenses?sort=expense_date')).json() as Record<string, unknown>[];
    expect(list.map((r) => [r.unit_name, r.vendor_name, r.amount])).toEqual([
      ['Kololo A1', 'Kampala Plumbers', 250000],
      [null, null, 1000],
    ]);
  });

  it('imports units, and updates them by external_ref', async () => {
    const header = ['Name', 'Address', 'Monthly Rate', 'Weekly Rate', 'Daily Rate', 'External Ref'];
    const p = await preview('units', [
      header,
      ['Kololo A1 renamed', 'Plot 4', '2,000,000', '500,000', '70,000', 'U-A'],
      ['New unit', 'Plot 9', '1', '1', '1', 'U-N'],
    ]);
    expect(p.sample.map((r) => r.action)).toEqual(['update', 'create']);
    expect((await admin.post(`/imports/${p.id}/commit`)).json()).toMatchObject({ created: 1, updated: 1 });
    const unit = (await admin.get(`/units/${ids.unitA}`)).json();
    expect(unit).toMatchObject({
      name: 'Kololo A1 renamed',
      monthly_rate: 2000000,
      description: 'Two-bedroom flat with a balcony.',
    });
  });
});

describe(`imports: who may import what (${testDriver})`, () => {
  let t: TestContext;
  afterEach(async () => {
    await t.app.close();
  });

  it("keeps each company's imports to itself and refuses viewers", async () => {
    t = await setupApp();
    const a = (await buildCompany(t.database, { name: 'A' })).id;
    const b = (await buildCompany(t.database, { name: 'B' })).id;
    const clientOf = async (company: number, role: 'admin' | 'editor' | 'viewer') => {
      const u = await buildUser(t.database, { company_id: company, roles: [role] });
      const c = new TestClient(t.app);
      await c.login(u.email, u.password);
      return c;
    };
    const editorA = await clientOf(a, 'editor');
    const adminB = await clientOf(b, 'admin');
    const viewerA = await clientOf(a, 'viewer');
    const text = csv([
      TENANT_HEADER,
      ['Grace', 'Namuli', 'F', '0772 123456', '1990-04-12', 'T-1'],
      ['Bad', '', '', '', '', ''],
    ]);
    const res = await upload(editorA, 'tenants', { name: 't.csv', content: text });
    expect(res.statusCode).toBe(201);
    const id = res.json<ImportRecord>().id;

    for (const path of [`/imports/${id}`, `/imports/${id}/errors.csv`]) {
      expect((await adminB.get(path)).statusCode).toBe(404);
    }
    expect((await adminB.post(`/imports/${id}/commit`)).statusCode).toBe(404);
    expect(
      (await adminB.post(`/imports/${id}/commit`, undefined, { accept: 'application/x-ndjson' })).statusCode,
    ).toBe(404);
    const listB = await adminB.get('/imports');
    expect(listB.json()).toEqual([]);
    expect(listB.headers['x-total-count']).toBe('0');

    expect((await upload(viewerA, 'tenants', { name: 't.csv', content: text })).statusCode).toBe(403);
    for (const path of [
      '/imports',
      `/imports/${id}`,
      `/imports/${id}/errors.csv`,
      '/imports/template?entity=units&fmt=csv',
    ])
      expect((await viewerA.get(path)).statusCode).toBe(403);
    expect((await viewerA.post(`/imports/${id}/commit`)).statusCode).toBe(403);

    const listA = await editorA.get('/imports?page=1&page_size=10');
    expect(listA.headers['x-total-count']).toBe('1');
    expect(listA.json()[0]).toMatchObject({
      id,
      entity: 'tenants',
      status: 'previewed',
      valid_rows: 1,
      invalid_rows: 1,
      user_name: 'Test Tester',
    });
    expect((await editorA.post(`/imports/${id}/commit`)).json()).toMatchObject({
      created: 1,
      skipped_invalid: 1,
    });
  });

  it('lets an editor add expenses but not change one by its external_ref (admins change expenses)', async () => {
    t = await setupApp();
    const a = (await buildCompany(t.database, { name: 'A' })).id;
    const clientOf = async (role: 'admin' | 'editor') => {
      const u = await buildUser(t.database, { company_id: a, roles: [role] });
      const c = new TestClient(t.app);
      await c.login(u.email, u.password);
      return c;
    };
    const admin = await clientOf('admin');
    const editor = await clientOf('editor');
    await admin.post('/expenses', {
      expense_date: '2026-03-01',
      amount: 5,
      category: 'other',
      external_ref: 'E-1',
    });
    const text = csv([
      ['Date', 'Amount', 'Category', 'External Ref'],
      ['2026-03-02', '10', 'other', 'E-1'],
      ['2026-03-03', '20', 'other', 'E-2'],
    ]);
    const res = await upload(editor, 'expenses', { name: 'e.csv', content: text });
    expect(res.json<ImportRecord>().errors).toEqual([
      {
        row: 2,
        field: 'external_ref',
        message: 'This external_ref is an existing expense, which you may not change.',
      },
    ]);
    const byAdmin = await upload(admin, 'expenses', { name: 'e.csv', content: text });
    expect(byAdmin.json<ImportRecord>()).toMatchObject({ valid_rows: 2, invalid_rows: 0 });
  });
});
