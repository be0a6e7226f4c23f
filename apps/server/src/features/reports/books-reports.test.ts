import type { RoleName } from '@kodi/domain';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { TestClient } from '../../test/client.ts';
import { signInAs } from '../../test/sign-in.ts';
import { buildCompany } from '../../test/factories.ts';
import { books, type PostEntry } from '../../modules/books/post.ts';

type TbLine = { code: string; name: string; role: string | null; debit: string; credit: string };
type Tb = { accounts: TbLine[]; total_debit: string; total_credit: string };
type Account = { id: number; role: string | null; type: string; balance: string };

const pdfText = (payload: Buffer): string => {
  const dir = mkdtempSync(join(tmpdir(), 'kodi-pdf-'));
  const file = join(dir, 'r.pdf');
  writeFileSync(file, payload);
  return execFileSync('pdftotext', ['-layout', file, '-']).toString();
};

const xlsxRows = async (payload: Buffer): Promise<unknown[][]> => {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(payload as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  wb.worksheets[0]?.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
};

describe(`books reports: trial balance, general ledger, balance sheet, income basis (${testDriver})`, () => {
  let t: TestContext;
  let admin: TestClient;
  let viewer: TestClient;
  let other: TestClient;
  let c: number;
  let otherCompany: number;
  let p1: number;
  let p2: number;

  const exec = (text: string, params: unknown[] = []) =>
    t.database.query<Record<string, unknown>>(text, params);
  const post = (company: number, entries: PostEntry[]) =>
    t.database.db.transaction((tx) => books.post(tx, company, entries));
  const signIn = (company: number, roles: RoleName[]) => signInAs(t, company, roles);
  const entry = (
    date: string,
    source: PostEntry['source'],
    dr: string,
    cr: string,
    amount: string,
    property_id: number | null = null,
  ): PostEntry => ({
    date,
    memo: `${source} ${amount}`,
    source,
    lines: [
      { role: dr, debit: amount, property_id },
      { role: cr, credit: amount, property_id },
    ],
  });

  beforeEach(async () => {
    t = await setupApp();
    c = (await buildCompany(t.database, { name: 'Books Court' })).id;
    otherCompany = (await buildCompany(t.database, { name: 'Elsewhere' })).id;
    admin = await signIn(c, ['admin']);
    viewer = await signIn(c, ['viewer']);
    other = await signIn(otherCompany, ['company_admin']);
    const prop = async (name: string) =>
      Number(
        (
          await exec(
            `INSERT INTO properties (company_id, name, address) VALUES ($1, $2, 'Kampala') RETURNING id`,
            [c, name],
          )
        )[0]?.id,
      );
    p1 = await prop('One Court');
    p2 = await prop('Two Court');
  });
  afterEach(async () => {
    await t.app.close();
  });

  /** Entries of several sources over two years and two properties (see the figures below). */
  const postBooks = async () => {
    await post(c, [
      entry('2025-06-01', 'opening_balance', 'receivable', 'opening_balances', '150.00', p1),
      entry('2025-12-01', 'rent', 'receivable', 'rental_income', '1000.00', p1),
      entry('2026-01-01', 'rent', 'receivable', 'rental_income', '500.00', p2),
      entry('2026-01-02', 'deposit', 'cash', 'deposits_held', '300.00', p1),
      entry('2026-01-05', 'late_fee', 'receivable', 'late_fee_income', '50.00', p1),
      entry('2026-01-10', 'payment', 'cash', 'receivable', '800.00', p1),
      entry('2026-01-15', 'expense', 'expense:repairs', 'bank', '120.00', p2),
      entry('2026-02-01', 'wage', 'wages', 'cash', '200.00'),
    ]);
    await post(otherCompany, [entry('2026-01-10', 'payment', 'cash', 'receivable', '9999.00')]);
  };

  it('answers the trial balance as of a day from the kept totals: each account on its side, equal totals', async () => {
    await postBooks();
    const res = await viewer.get('/reports/trial-balance?as_of=2026-01-31');
    expect(res.statusCode, res.body).toBe(200);
    const tb = res.json<Tb>();
    expect(tb.accounts.map((a) => [a.code, a.debit, a.credit])).toEqual([
      ['1000', '1100.00', '0.00'], // cash: deposit 300 + payment 800
      ['1020', '0.00', '120.00'], // bank: the expense paid
      ['1100', '900.00', '0.00'], // receivable: 150 + 1000 + 500 + 50 − 800
      ['2100', '0.00', '300.00'],
      ['3000', '0.00', '150.00'],
      ['4000', '0.00', '1500.00'],
      ['4100', '0.00', '50.00'],
      ['5050', '120.00', '0.00'],
    ]);
    expect(tb).toMatchObject({ total_debit: '2120.00', total_credit: '2120.00' });
    // each with its role: the pages name a default account in the reader's language (issue 30)
    expect(tb.accounts[0]).toMatchObject({ name: 'Cash on hand', role: 'cash' });
    expect(tb.accounts.find((a) => a.code === '5050')?.role).toBe('expense:repairs');
    // a day later the wage is in; the totals still agree
    const feb = (await admin.get('/reports/trial-balance?as_of=2026-02-28')).json<Tb>();
    expect(feb.total_debit).toBe(feb.total_credit);
    expect(feb.accounts.find((a) => a.code === '5900')).toMatchObject({ debit: '200.00' });
    // one property: its lines only (the wage has none)
    const one = (await admin.get(`/reports/trial-balance?as_of=2026-02-28&property_id=${p1}`)).json<Tb>();
    expect(one.accounts.map((a) => [a.code, a.debit, a.credit])).toEqual([
      ['1000', '1100.00', '0.00'],
      ['1100', '400.00', '0.00'],
      ['2100', '0.00', '300.00'],
      ['3000', '0.00', '150.00'],
      ['4000', '0.00', '1000.00'],
      ['4100', '0.00', '50.00'],
    ]);
    expect(one).toMatchObject({ total_debit: '1500.00', total_credit: '1500.00' });
    // another company's property: 404; a bad day: 400
    const theirs = Number(
      (
        await exec(
          `INSERT INTO properties (company_id, name, address) VALUES ($1, 'Theirs', 'X') RETURNING id`,
          [otherCompany],
        )
      )[0]?.id,
    );
    expect((await admin.get(`/reports/trial-balance?property_id=${theirs}`)).statusCode).toBe(404);
    expect((await admin.get('/reports/trial-balance?as_of=2026-13-01')).statusCode).toBe(400);
    // the other company sees only its own books
    const mine = (await other.get('/reports/trial-balance?as_of=2026-01-31')).json<Tb>();
    expect(mine.total_debit).toBe('9999.00');
  });

  it('answers the general ledger of an account: opening, lines with running balances, closing, paged', async () => {
    await postBooks();
    const accounts = (await admin.get('/ledger-accounts')).json<Account[]>();
    const receivable = accounts.find((a) => a.role === 'receivable') as Account;
    const res = await viewer.get(
      `/reports/general-ledger?account_id=${receivable.id}&from=2026-01-01&to=2026-01-31`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const gl = res.json<{
      opening_balance: string;
      closing_balance: string;
      total: number;
      lines: { date: string; source: string; debit: string; credit: string; balance: string }[];
    }>();
    expect(gl).toMatchObject({
      account: { name: 'Accounts receivable (tenants)', role: 'receivable' },
      opening_balance: '1150.00',
      closing_balance: '900.00',
      total: 3,
    });
    expect(gl.lines.map((l) => [l.date, l.source, l.debit, l.credit, l.balance])).toEqual([
      ['2026-01-01', 'rent', '500.00', '0.00', '1650.00'],
      ['2026-01-05', 'late_fee', '50.00', '0.00', '1700.00'],
      ['2026-01-10', 'payment', '0.00', '800.00', '900.00'],
    ]);
    // page 2 of 2 lines a page: the running balance carries over
    const page2 = (
      await admin.get(
        `/reports/general-ledger?account_id=${receivable.id}&from=2026-01-01&to=2026-01-31&page=2&page_size=2`,
      )
    ).json<typeof gl>();
    expect(page2.lines.map((l) => l.balance)).toEqual(['900.00']);
    expect(page2.total).toBe(3);
    // a credit account runs credit − debit; one property's lines only
    const rental = accounts.find((a) => a.role === 'rental_income') as Account;
    const p2Rent = (
      await admin.get(
        `/reports/general-ledger?account_id=${rental.id}&from=2025-01-01&to=2026-12-31&property_id=${p2}`,
      )
    ).json<typeof gl>();
    expect(p2Rent).toMatchObject({ opening_balance: '0.00', closing_balance: '500.00', total: 1 });
    // another company's account: 404
    expect((await other.get(`/reports/general-ledger?account_id=${receivable.id}`)).statusCode).toBe(404);
    expect(
      (await admin.get(`/reports/general-ledger?account_id=${receivable.id}&from=2026-02-01&to=2026-01-01`))
        .statusCode,
    ).toBe(400);
    // the export holds the opening, every line and the closing
    const pdf = await admin.get(
      `/reports/general-ledger/export?fmt=pdf&account_id=${receivable.id}&from=2026-01-01&to=2026-01-31`,
    );
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 4).toString()).toBe('%PDF');
    const text = pdfText(pdf.rawPayload);
    expect(text).toContain('Opening balance');
    expect(text).toMatch(/rent\s+UGX 500\s+UGX 0\s+UGX 1,650/); // the company's money: UGX, no decimals
    expect(text).toContain('UGX 1,700');
    expect(text).toContain('Closing balance');
    const xlsx = await xlsxRows(
      (
        await admin.get(
          `/reports/general-ledger/export?fmt=xlsx&account_id=${receivable.id}&from=2026-01-01&to=2026-01-31`,
        )
      ).rawPayload,
    );
    expect(xlsx.map((r) => r[6])).toEqual(['Balance', 1150, 1650, 1700, 900, 900]);
  });

  it("answers the balance sheet: assets = liabilities + equity, with earlier years' and the year's result", async () => {
    await postBooks();
    const res = await viewer.get('/reports/balance-sheet?as_of=2026-01-31');
    expect(res.statusCode, res.body).toBe(200);
    const bs = res.json<{
      assets: { name: string; role: string | null; balance: string }[];
      equity: { name: string; role: string | null; balance: string }[];
      [k: string]: unknown;
    }>();
    expect(bs).toMatchObject({
      year_start: '2026-01-01',
      total_assets: '1880.00', // cash 1100 − bank 120 + receivable 900
      total_liabilities: '300.00',
      retained_result: '1000.00', // December's rent
      year_result: '430.00', // 500 + 50 − 120
      total_equity: '1580.00', // opening balances 150 + 1000 + 430
      total_liabilities_and_equity: '1880.00',
    });
    expect(bs.assets.map((a) => [a.name, a.balance])).toEqual([
      ['Cash on hand', '1100.00'],
      ['Bank', '-120.00'],
      ['Accounts receivable (tenants)', '900.00'],
    ]);
    expect(bs.assets.map((a) => a.role)).toEqual(['cash', 'bank', 'receivable']);
    expect(bs.equity.map((a) => a.role)).toEqual(['opening_balances', null, null]);
    expect(bs.equity.map((a) => [a.name, a.balance])).toEqual([
      ['Opening balances', '150.00'],
      ["Earlier years' result", '1000.00'],
      ["The year's result", '430.00'],
    ]);
    // at the end of 2025 December's rent is the year's result; of one property it still balances
    const dec = (await admin.get('/reports/balance-sheet?as_of=2025-12-31')).json<Record<string, string>>();
    expect(dec).toMatchObject({ retained_result: '0.00', year_result: '1000.00', total_assets: '1150.00' });
    expect(dec.total_liabilities_and_equity).toBe(dec.total_assets);
    const one = (await admin.get(`/reports/balance-sheet?as_of=2026-02-28&property_id=${p2}`)).json<
      Record<string, string>
    >();
    expect(one).toMatchObject({
      total_assets: '380.00',
      year_result: '380.00',
      total_liabilities_and_equity: '380.00',
    });
    // exports: xlsx opens with the figures, the pdf shows them
    const rows = await xlsxRows(
      (await admin.get('/reports/balance-sheet/export?fmt=xlsx&as_of=2026-01-31')).rawPayload,
    );
    expect(rows.find((r) => r[1] === 'Total assets')?.[2]).toBe(1880);
    expect(rows.find((r) => r[1] === 'Total liabilities and equity')?.[2]).toBe(1880);
    const pdf = await admin.get('/reports/balance-sheet/export?fmt=pdf&as_of=2026-01-31');
    expect(pdf.rawPayload.subarray(0, 4).toString()).toBe('%PDF');
    expect(pdfText(pdf.rawPayload)).toMatch(/Total liabilities and equity\s+UGX 1,880/);
    // the trial balance's exports too
    const tbRows = await xlsxRows(
      (await admin.get('/reports/trial-balance/export?fmt=xlsx&as_of=2026-01-31')).rawPayload,
    );
    expect(tbRows.at(-1)?.slice(1)).toEqual(['Total', undefined, 2120, 2120]);
    const tbPdf = await admin.get('/reports/trial-balance/export?fmt=pdf&as_of=2026-01-31');
    expect(tbPdf.headers['x-suggested-filename']).toBe('trial-balance_2026-01-31.pdf');
    expect(pdfText(tbPdf.rawPayload)).toMatch(/Total\s+UGX 2,120\s+UGX 2,120/);
    expect((await other.get(`/reports/balance-sheet/export?fmt=pdf&property_id=${p1}`)).statusCode).toBe(404);
  });

  it('splits the cash basis by what payments paid, oldest first: a paid late fee is counted once', async () => {
    await exec(
      `INSERT INTO units (company_id, name, address, monthly_rate, weekly_rate, daily_rate, property_id)
       VALUES ($1, 'U', 'A', 100, 30, 5, $2)`,
      [c, p1],
    );
    await exec(
      `INSERT INTO tenants (company_id, first_name, last_name, sex, phone, date_of_birth)
       VALUES ($1, 'T', 'N', 'M', '+256700000000', '1980-01-01')`,
      [c],
    );
    const lease = Number(
      (
        await exec(
          `INSERT INTO occupancy (company_id, tenant_id, unit_id, start_date, rate)
           SELECT $1, (SELECT id FROM tenants WHERE company_id = $1), (SELECT id FROM units WHERE company_id = $1),
                  '2026-01-01', 100 RETURNING id`,
          [c],
        )
      )[0]?.id,
    );
    await exec(
      `INSERT INTO charges (company_id, occupancy_id, date, kind, category, description, amount, rent_due_date)
       VALUES ($1, $2, '2026-01-06', 'late_fee', NULL, 'Late fee', 10, '2026-01-01'),
              ($1, $2, '2026-01-10', 'charge', 'utility', 'Power', 25, NULL)`,
      [c, lease],
    );
    const pay = (date: string, amount: string, status: string, n: number) =>
      exec(
        `INSERT INTO payments (company_id, tenant_id, unit_id, occupancy_id, payment_date, payment_serial, amount_paid,
                               effective_start_date, effective_end_date, status, payment_method)
         SELECT $1, o.tenant_id, o.unit_id, o.id, $2, $5, $3, $2, $2, $4, 'cash' FROM occupancy o WHERE o.id = $6`,
        [c, date, amount, status, `PAY-${n}`, lease],
      );
    await pay('2026-01-20', '120.00', 'completed', 1); // rent 100, the fee 10, 10 of the charge
    await pay('2026-01-21', '500.00', 'pending', 2);
    await pay('2026-02-15', '200.00', 'completed', 3); // 15 of the charge, Feb's rent 100, 85 ahead
    type Month = {
      month: string;
      rental_income: number;
      late_fees: number;
      other_income: number;
      completed_payments: number;
      basis: string;
    };
    for (const q of ['', `&property_id=${p1}`]) {
      const months = (await admin.get(`/income-statement?from=2026-01&to=2026-02${q}`)).json<Month[]>();
      expect(
        months.map((m) => [m.month, m.rental_income, m.late_fees, m.other_income, m.completed_payments]),
      ).toEqual([
        ['2026-01', 100, 10, 10, 120],
        ['2026-02', 185, 0, 15, 200],
      ]);
      for (const m of months) {
        expect(m.basis).toBe('cash');
        expect(Math.round((m.rental_income + m.late_fees + m.other_income) * 100)).toBe(
          Math.round(m.completed_payments * 100),
        );
      }
    }
    // another property has none of it
    const none = (await admin.get(`/income-statement?from=2026-01&to=2026-02&property_id=${p2}`)).json<
      Month[]
    >();
    expect(none.map((m) => m.late_fees + m.other_income + m.rental_income)).toEqual([0, 0]);
  });

  it("answers the accrual basis as the journal's income accounts, to the cent", async () => {
    await post(c, [
      entry('2026-01-01', 'rent', 'receivable', 'rental_income', '100.10', p1),
      entry('2026-01-06', 'late_fee', 'receivable', 'late_fee_income', '10.05', p1),
      entry('2026-01-10', 'charge', 'receivable', 'charge_income:utility', '25.00', p1),
      entry('2026-01-12', 'waiver', 'charge_income:utility', 'receivable', '5.00', p1),
      entry('2026-01-20', 'rent_adjustment', 'rental_income', 'receivable', '20.00', p2),
      entry('2026-02-01', 'rent', 'receivable', 'rental_income', '100.10', p1),
      entry('2026-02-03', 'payment', 'cash', 'receivable', '50.00', p1),
    ]);
    type Month = {
      month: string;
      rental_income: number;
      late_fees: number;
      other_income: number;
      basis: string;
    };
    const months = (await admin.get('/income-statement?from=2026-01&to=2026-02&basis=accrual')).json<
      Month[]
    >();
    expect(months.map((m) => [m.month, m.rental_income, m.late_fees, m.other_income, m.basis])).toEqual([
      ['2026-01', 80.1, 10.05, 20, 'accrual'],
      ['2026-02', 100.1, 0, 0, 'accrual'],
    ]);
    // the journal's income accounts through February add up to the same cents
    const income = (await admin.get('/ledger-accounts')).json<Account[]>().filter((a) => a.type === 'income');
    const journal = income.reduce((s, a) => s + Math.round(Number(a.balance) * 100), 0);
    const report = months.reduce(
      (s, m) => s + Math.round((m.rental_income + m.late_fees + m.other_income) * 100),
      0,
    );
    expect(report).toBe(journal);
    expect(journal).toBe(21025);
    // one property: its lines (the adjustment is the other property's)
    const one = (
      await admin.get(`/income-statement?from=2026-01&to=2026-01&basis=accrual&property_id=${p1}`)
    ).json<Month[]>();
    expect(one[0]).toMatchObject({ rental_income: 100.1, late_fees: 10.05, other_income: 20 });
    expect((await admin.get('/income-statement?basis=neither')).statusCode).toBe(400);
  });
});
