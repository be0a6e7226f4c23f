import ExcelJS from 'exceljs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setupApp, testDriver, type TestContext } from '../test/harness.ts';
import { TestClient } from '../test/client.ts';
import { buildCompany, buildUser } from '../test/factories.ts';
import { validTenant, validUnit } from '../test/entities.ts';
import { pdfText } from '../test/pdf-text.ts';

const q = (params: Record<string, string>) => new URLSearchParams(params).toString();

describe(`list exports to xlsx and pdf (${testDriver})`, () => {
  let t: TestContext;
  let admin: TestClient;

  beforeEach(async () => {
    t = await setupApp();
    const company = await buildCompany(t.database, { name: 'Export Estates' });
    const other = await buildCompany(t.database, { name: 'Other Estates' });
    const u = await buildUser(t.database, { company_id: company.id });
    admin = new TestClient(t.app);
    await admin.login(u.email, u.password);
    for (const [i, name] of ['Okello', 'Auma', 'Okello', '=HYPERLINK("http://evil.example","x")'].entries()) {
      await admin.post('/tenants', validTenant({ first_name: `T${i}`, last_name: name }));
    }
    await admin.post('/units', validUnit({ name: 'Alpha', monthly_rate: 1234567 }));
    await admin.post('/units', validUnit({ name: 'Beta', monthly_rate: 890000, status: 'occupied' }));
    const stranger = await buildUser(t.database, { company_id: other.id });
    const s = new TestClient(t.app);
    await s.login(stranger.email, stranger.password);
    await s.post('/tenants', validTenant({ last_name: 'Okello', first_name: 'Stranger' }));
  });
  afterEach(async () => {
    await t.app.close();
  });

  it('exports exactly the searched rows, in the columns asked for, to xlsx with real types', async () => {
    const res = await admin.get(
      `/tenants/export?${q({ fmt: 'xlsx', q: 'okello', sort: 'first_name', headers: JSON.stringify(['Last Name', 'First Name', 'Phone']) })}`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-suggested-filename']).toBe('tenants.xlsx');
    expect(res.headers['content-disposition']).toContain('tenants.xlsx');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.getRow(1).values).toEqual([undefined, 'Last Name', 'First Name', 'Phone']);
    expect(ws.getRow(1).font?.bold).toBe(true);
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(ws.rowCount).toBe(3);
    expect(ws.getRow(2).values).toEqual([undefined, 'Okello', 'T0', '+256772123456']);
    expect(ws.getRow(3).values).toEqual([undefined, 'Okello', 'T2', '+256772123456']);
  });

  it('writes money as numbers with the currency format and text typed by users as text', async () => {
    const units = await admin.get(`/units/export?${q({ fmt: 'xlsx', sort: 'name' })}`);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(units.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.getRow(1).values).toEqual([
      undefined,
      'Name',
      'Property',
      'Address',
      'Unit Type',
      'Monthly Rate',
      'Status',
    ]);
    const rate = ws.getRow(2).getCell(5);
    expect(rate.value).toBe(1234567);
    expect(rate.numFmt).toContain('UGX');
    expect(ws.getRow(3).getCell(6).value).toBe('Occupied');

    const tenants = await admin.get(`/tenants/export?${q({ fmt: 'xlsx', q: 'HYPERLINK' })}`);
    const wb2 = new ExcelJS.Workbook();
    await wb2.xlsx.load(tenants.rawPayload as unknown as ArrayBuffer);
    const cell = wb2.worksheets[0]!.getRow(2).getCell(2);
    expect(cell.type).toBe(ExcelJS.ValueType.String);
    expect(cell.value).toBe('=HYPERLINK("http://evil.example","x")');
  });

  it('exports a pdf table with the company, title and the searched rows', async () => {
    const res = await admin.get(
      `/tenants/export?${q({ fmt: 'pdf', q: 'okello', headers: JSON.stringify(['First Name', 'Last Name']) })}`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['x-suggested-filename']).toBe('tenants.pdf');
    const text = pdfText(res.rawPayload);
    expect(text).toContain('Export Estates');
    expect(text).toContain('Tenants Management');
    expect(text).toContain('First Name');
    expect(text).toContain('Page 1');
    expect(text).toMatch(/T0\s+Okello/);
    expect(text).not.toContain('Auma');
    expect(text).not.toContain('Stranger');
  });

  it('refuses unknown columns and formats with 400 JSON', async () => {
    const bad = await admin.get(
      `/tenants/export?${q({ fmt: 'xlsx', headers: JSON.stringify(['Password']) })}`,
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'validation_failed', error: 'Unknown column: Password.' });
    expect((await admin.get(`/tenants/export?${q({ fmt: 'csv' })}`)).statusCode).toBe(400);
  });
});
