import ExcelJS from 'exceljs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Language } from '@kodi/domain';
import { setupApp, testDriver, type TestContext } from '../test/harness.ts';
import { TestClient } from '../test/client.ts';
import { buildCompany, buildUser } from '../test/factories.ts';
import { validUnit } from '../test/entities.ts';
import { pdfText } from '../test/pdf-text.ts';

const q = (params: Record<string, string>) => new URLSearchParams(params).toString();

const sheetOf = async (payload: Buffer) => {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(payload as unknown as ArrayBuffer);
  return wb.worksheets[0]!;
};

/** The web sends the visible columns' English labels, whatever the page's language. */
const UNIT_HEADERS = JSON.stringify(['Name', 'Address', 'Unit Type', 'Monthly Rate', 'Status']);

describe(`exports in the staff user's language (${testDriver})`, () => {
  let t: TestContext;
  let staff: TestClient;
  let companyId: number;

  const speak = async (language: Language) => {
    const res = await staff.put('/auth/language', { language });
    expect(res.statusCode, res.body).toBe(200);
  };

  beforeEach(async () => {
    t = await setupApp();
    companyId = (await buildCompany(t.database, { name: 'Langues Estates' })).id;
    const u = await buildUser(t.database, { company_id: companyId });
    staff = new TestClient(t.app);
    await staff.login(u.email, u.password);
    await staff.post(
      '/units',
      validUnit({ name: 'Alpha', monthly_rate: 1234567, unit_type: 'apartment', status: 'occupied' }),
    );
  });
  afterEach(async () => {
    await t.app.close();
  });

  it('writes an English user exactly the English of before', async () => {
    await speak('en');
    const ws = await sheetOf(
      (await staff.get(`/units/export?${q({ fmt: 'xlsx', headers: UNIT_HEADERS })}`)).rawPayload,
    );
    expect(ws.getRow(1).values).toEqual([
      undefined,
      'Name',
      'Address',
      'Unit Type',
      'Monthly Rate',
      'Status',
    ]);
    expect(ws.getRow(2).getCell(3).value).toBe('Apartment');
    expect(ws.getRow(2).getCell(5).value).toBe('Occupied');
    const text = pdfText(
      (await staff.get(`/units/export?${q({ fmt: 'pdf', headers: UNIT_HEADERS })}`)).rawPayload,
    );
    expect(text).toContain('Page 1');
    expect(text).toMatch(/Rental Units · exported [A-Z][a-z]{2} \d{1,2}, \d{4}/);
    expect(text).toMatch(/Name\s+Address\s+Unit Type\s+Monthly Rate\s+Status/);
    expect(text).toContain('UGX 1,234,567');
    expect(text).toMatch(/Apartment\s+UGX 1,234,567\s+Occupied/);
  });

  it('writes a French user the list in French: title, headings, options, numbers and page', async () => {
    await speak('fr');
    const res = await staff.get(`/units/export?${q({ fmt: 'xlsx', headers: UNIT_HEADERS })}`);
    expect(res.statusCode, res.body).toBe(200);
    const ws = await sheetOf(res.rawPayload);
    expect(ws.getRow(1).values).toEqual([
      undefined,
      'Nom',
      'Adresse',
      'Type de logement',
      'Loyer mensuel',
      'Statut',
    ]);
    expect(ws.getRow(2).getCell(3).value).toBe('Appartement');
    expect(ws.getRow(2).getCell(4).value).toBe(1234567);
    expect(ws.getRow(2).getCell(5).value).toBe('Occupé');
    const pdf = await staff.get(`/units/export?${q({ fmt: 'pdf', headers: UNIT_HEADERS })}`);
    expect(pdf.statusCode).toBe(200);
    const text = pdfText(pdf.rawPayload);
    expect(text).toContain('Langues Estates');
    expect(text).toMatch(/Logements locatifs · exporté le \d{1,2} \S+ \d{4}/);
    expect(text).toMatch(/Nom\s+Adresse\s+Type de logement\s+Loyer mensuel\s+Statut/);
    expect(text).toMatch(/Appartement\s+1\s234\s567\sUGX\s+Occupé/);
    expect(text).toContain('Page 1');
    expect(text).not.toContain('exported');
    expect(text).not.toContain('Rental Units');
  });

  it('writes a Kiswahili user the list in Kiswahili', async () => {
    await speak('sw');
    const ws = await sheetOf(
      (await staff.get(`/units/export?${q({ fmt: 'xlsx', headers: UNIT_HEADERS })}`)).rawPayload,
    );
    expect(ws.getRow(1).values).toEqual([
      undefined,
      'Jina',
      'Anwani',
      'Aina ya nyumba',
      'Kiwango cha mwezi',
      'Hali',
    ]);
    expect(ws.getRow(2).getCell(5).value).toBe('Ina mpangaji');
    const text = pdfText(
      (await staff.get(`/units/export?${q({ fmt: 'pdf', headers: UNIT_HEADERS })}`)).rawPayload,
    );
    expect(text).toContain('Nyumba za kupangisha · imetolewa');
    expect(text).toMatch(/Jina\s+Anwani\s+Aina ya nyumba\s+Kiwango cha mwezi\s+Hali/);
    expect(text).toContain('Ukurasa 1');
    expect(text).not.toContain('Page 1');
  });

  it('writes a French user the income statement PDF and sheet in French', async () => {
    await t.database.query(
      `INSERT INTO tenants (company_id, first_name, last_name, sex, phone, date_of_birth)
       VALUES ($1, 'T', 'N', 'M', '+256700000000', '1980-01-01')`,
      [companyId],
    );
    await t.database.query(
      `INSERT INTO occupancy (company_id, tenant_id, unit_id, start_date, rate)
       SELECT $1, (SELECT id FROM tenants WHERE company_id = $1), (SELECT id FROM units WHERE company_id = $1), '2025-01-01', 100`,
      [companyId],
    );
    await t.database.query(
      `INSERT INTO payments (company_id, tenant_id, unit_id, occupancy_id, payment_date, payment_serial, amount_paid,
                             effective_start_date, effective_end_date, status, payment_method)
       SELECT $1, o.tenant_id, o.unit_id, o.id, '2025-02-05', 'PAY-FR-1', 1234567, '2025-02-05', '2025-02-05',
              'completed', 'cash' FROM occupancy o WHERE o.company_id = $1`,
      [companyId],
    );
    const range = 'from=2025-01&to=2025-03';
    await speak('en');
    const english = pdfText((await staff.get(`/income-statement/export?fmt=pdf&${range}`)).rawPayload);
    expect(english).toContain('Monthly Income Statement · Jan 2025 to Mar 2025 · amounts in UGX · exported');
    expect(english).toMatch(/Rental income\s+0\s+1,234,567\s+0\s+1,234,567/);
    expect(english).toContain('Page 1');

    await speak('fr');
    const pdf = await staff.get(`/income-statement/export?fmt=pdf&${range}`);
    expect(pdf.statusCode).toBe(200);
    const text = pdfText(pdf.rawPayload);
    expect(text).toMatch(
      /Compte de résultat mensuel · de janv\. 2025 à mars 2025 · montants en UGX · exporté le/,
    );
    expect(text).toMatch(/Revenus locatifs\s+0\s+1\s234\s567\s+0\s+1\s234\s567/);
    expect(text).toMatch(/févr\. 2025\s+mars 2025\s+Total/);
    expect(text).toContain('Résultat d’exploitation net');
    expect(text).not.toContain('Rental income');
    const ws = await sheetOf((await staff.get(`/income-statement/export?fmt=xlsx&${range}`)).rawPayload);
    expect(ws.getRow(1).getCell(1).value).toBe('De 2025-01 à 2025-03');
    expect(ws.getRow(2).getCell(1).value).toBe('Revenus locatifs');
  });

  it("writes the books reports in the reader's language, a default account by its name there", async () => {
    type Account = { id: number; code: string; name: string; type: string; role: string | null };
    const accounts = (await staff.get('/ledger-accounts')).json<Account[]>();
    const cash = accounts.find((a) => a.role === 'cash')!;
    const bank = accounts.find((a) => a.role === 'bank')!;
    // a renamed default account keeps the company's name
    const renamed = await staff.put(`/ledger-accounts/${bank.id}`, { ...bank, name: 'Stanbic' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const posted = await staff.post('/journal', {
      date: '2026-01-15',
      memo: 'Float',
      lines: [
        { account_id: bank.id, debit: '100' },
        { account_id: cash.id, credit: '100' },
      ],
    });
    expect(posted.statusCode, posted.body).toBe(201);

    await speak('en');
    const englishTb = await sheetOf(
      (await staff.get('/reports/trial-balance/export?fmt=xlsx&as_of=2026-01-31')).rawPayload,
    );
    expect(englishTb.getRow(1).values).toEqual([undefined, 'Code', 'Account', 'Type', 'Debit', 'Credit']);
    expect(englishTb.getColumn(2).values).toEqual([undefined, 'Account', 'Cash on hand', 'Stanbic', 'Total']);

    await speak('fr');
    const tb = await sheetOf(
      (await staff.get('/reports/trial-balance/export?fmt=xlsx&as_of=2026-01-31')).rawPayload,
    );
    expect(tb.getRow(1).values).toEqual([undefined, 'Code', 'Compte', 'Type', 'Débit', 'Crédit']);
    expect(tb.getColumn(2).values).toEqual([undefined, 'Compte', 'Caisse', 'Stanbic', 'Total']);
    expect(tb.getColumn(3).values).toEqual([undefined, 'Type', 'Actif', 'Actif']);
    const bs = pdfText(
      (await staff.get('/reports/balance-sheet/export?fmt=pdf&as_of=2026-01-31')).rawPayload,
    );
    expect(bs).toContain('Bilan au 31 janv. 2026 · exporté le');
    expect(bs).toMatch(/Caisse\s+-100\sUGX/);
    expect(bs).toContain('Total du passif et des capitaux propres');
    const journal = pdfText((await staff.get('/journal/export?fmt=pdf')).rawPayload);
    expect(journal).toMatch(/Date\s+Écriture/);
    expect(journal).toContain('Caisse');
    expect(journal).toContain('Stanbic');
  });
});
