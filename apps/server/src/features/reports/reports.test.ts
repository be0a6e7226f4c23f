import ExcelJS from 'exceljs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { TestClient } from '../../test/client.ts';
import { buildCompany, buildUser } from '../../test/factories.ts';
import { books } from '../../modules/books/post.ts';
import { pdfText } from '../../test/pdf-text.ts';

describe(`income statement and cash flow (${testDriver})`, () => {
  let t: TestContext;
  let admin: TestClient;
  let c: number;
  let other: number;

  const exec = (text: string, params: unknown[] = []) => t.database.query(text, params);

  beforeEach(async () => {
    t = await setupApp();
    c = (await buildCompany(t.database, { name: 'Ledger Lane' })).id;
    other = (await buildCompany(t.database)).id;
    const u = await buildUser(t.database, { company_id: c });
    admin = new TestClient(t.app);
    await admin.login(u.email, u.password);

    for (const company of [c, other]) {
      await exec(
        `INSERT INTO units (company_id, name, address, monthly_rate, weekly_rate, daily_rate) VALUES ($1, 'U', 'A', 100, 30, 5)`,
        [company],
      );
      await exec(
        `INSERT INTO tenants (company_id, first_name, last_name, sex, phone, date_of_birth) VALUES ($1, 'T', 'N', 'M', '+256700000000', '1980-01-01')`,
        [company],
      );
      await exec(
        `INSERT INTO occupancy (company_id, tenant_id, unit_id, start_date, rate)
         SELECT $1, (SELECT id FROM tenants WHERE company_id = $1), (SELECT id FROM units WHERE company_id = $1), '2025-01-01', 100`,
        [company],
      );
      await exec(
        `INSERT INTO employees (company_id, first_name, last_name, phone_number, job_title, hire_date, salary, expected_pay_day)
         VALUES ($1, 'E', 'M', '+256700000001', 'Caretaker', '2024-01-01', 500, 28)`,
        [company],
      );
    }
    const pay = (
      company: number,
      date: string,
      amount: string,
      status: string,
      method: string | null,
      n: number,
    ) =>
      exec(
        `INSERT INTO payments (company_id, tenant_id, unit_id, occupancy_id, payment_date, payment_serial, amount_paid,
                               effective_start_date, effective_end_date, status, payment_method)
         SELECT $1, o.tenant_id, o.unit_id, o.id, $2, $6, $3, $2, $2, $4, $5 FROM occupancy o WHERE o.company_id = $1`,
        [company, date, amount, status, method, `PAY-${company}-${n}`],
      );
    // before the range (opening balance): +1000.10 in, -200.05 spent, -300 wages
    await pay(c, '2025-12-15', '1000.10', 'completed', 'cash', 1);
    await pay(c, '2025-12-16', '999.99', 'pending', 'cash', 2);
    // January 2026: 250.25 cash + 100.10 mobile money completed; pending and failed excluded
    await pay(c, '2026-01-05', '250.25', 'completed', 'cash', 3);
    await pay(c, '2026-01-31', '100.10', 'completed', 'mobilemoney', 4);
    await pay(c, '2026-01-10', '77.77', 'pending', 'cash', 5);
    await pay(c, '2026-01-11', '66.66', 'failed', 'cash', 6);
    // March 2026: 0.01 with no method
    await pay(c, '2026-03-01', '0.01', 'completed', null, 7);
    // another company's money never counts
    await pay(other, '2026-01-05', '5000.00', 'completed', 'cash', 8);
    const expense = (company: number, date: string, amount: string, category: string) =>
      exec(`INSERT INTO expenses (company_id, expense_date, amount, category) VALUES ($1, $2, $3, $4)`, [
        company,
        date,
        amount,
        category,
      ]);
    await expense(c, '2025-11-30', '200.05', 'repairs');
    await expense(c, '2026-01-02', '40.40', 'plumbing');
    await expense(c, '2026-01-20', '9.60', 'plumbing');
    await expense(c, '2026-01-21', '15.00', 'condo_fees');
    await expense(other, '2026-01-21', '999.00', 'repairs');
    const wage = (company: number, date: string, amount: string, status: string) =>
      exec(
        `INSERT INTO commission_wages (company_id, employee_id, payment_date, payment_category, payment_method,
                                       payment_start_date, payment_end_date, status, description, amount)
         SELECT $1, id, $2, 'salary', 'cash', $2, $2, $3, 'Pay', $4 FROM employees WHERE company_id = $1`,
        [company, date, status, amount],
      );
    await wage(c, '2025-10-28', '300.00', 'paid');
    await wage(c, '2026-01-28', '120.00', 'paid');
    await wage(c, '2026-01-29', '55.00', 'pending');
    await wage(c, '2026-01-30', '44.00', 'voided');
  });
  afterEach(async () => {
    await t.app.close();
  });

  it('computes the income statement to the cent, with empty months as 0', async () => {
    const res = await admin.get('/income-statement?from=2026-01&to=2026-03');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      {
        month: '2026-01',
        rental_income: 350.35,
        late_fees: 0,
        other_income: 0,
        expenses: { plumbing: 50, condo_fees: 15, salaries_and_commissions: 120 },
        total_expenses: 185,
        net_income: 165.35,
        basis: 'cash',
        completed_payments: 350.35,
      },
      {
        month: '2026-02',
        rental_income: 0,
        late_fees: 0,
        other_income: 0,
        expenses: {},
        total_expenses: 0,
        net_income: 0,
        basis: 'cash',
        completed_payments: 0,
      },
      {
        month: '2026-03',
        rental_income: 0.01,
        late_fees: 0,
        other_income: 0,
        expenses: {},
        total_expenses: 0,
        net_income: 0.01,
        basis: 'cash',
        completed_payments: 0.01,
      },
    ]);
  });

  it('reads the cash flow from the journal’s money accounts, by source, with opening and closing balances', async () => {
    // the journal as the money events post it (the raw rows above post nothing)
    const money = (
      date: string,
      source: 'payment' | 'expense' | 'wage',
      role: string,
      amount: string,
      inflow: boolean,
    ) => ({
      date,
      memo: `${source} ${amount}`,
      source,
      lines: inflow
        ? [
            { role, debit: amount },
            { role: 'receivable', credit: amount },
          ]
        : [
            { role: source === 'wage' ? 'wages' : 'expense:plumbing', debit: amount },
            { role, credit: amount },
          ],
    });
    await t.database.db.transaction(async (tx) => {
      await books.post(tx, c, [
        money('2025-12-15', 'payment', 'cash', '1000.10', true),
        money('2025-11-30', 'expense', 'cash', '200.05', false),
        money('2025-10-28', 'wage', 'cash', '300.00', false),
        money('2026-01-05', 'payment', 'cash', '250.25', true),
        money('2026-01-31', 'payment', 'mobile_money', '100.10', true),
        money('2026-01-02', 'expense', 'cash', '40.40', false),
        money('2026-01-20', 'expense', 'bank', '9.60', false),
        money('2026-01-21', 'expense', 'cash', '15.00', false),
        money('2026-01-28', 'wage', 'cash', '120.00', false),
        money('2026-03-01', 'payment', 'cash', '0.01', true),
        // rent due is not money: it moves no money account
        {
          date: '2026-01-01',
          memo: 'Rent',
          source: 'rent',
          lines: [
            { role: 'receivable', debit: '100.00' },
            { role: 'rental_income', credit: '100.00' },
          ],
        },
      ]);
      await books.post(tx, other, [money('2026-01-05', 'payment', 'cash', '5000.00', true)]);
    });
    const res = await admin.get('/cash-flow?from=2026-01&to=2026-03');
    // opening = 1000.10 - 200.05 - 300.00 = 500.05
    expect(res.json()).toEqual([
      {
        month: '2026-01',
        inflows: { payment: 350.35 },
        total_inflow: 350.35,
        outflows: { expense: 65, wage: 120 },
        total_outflow: 185,
        opening_balance: 500.05,
        closing_balance: 665.4,
      },
      {
        month: '2026-02',
        inflows: {},
        total_inflow: 0,
        outflows: {},
        total_outflow: 0,
        opening_balance: 665.4,
        closing_balance: 665.4,
      },
      {
        month: '2026-03',
        inflows: { payment: 0.01 },
        total_inflow: 0.01,
        outflows: {},
        total_outflow: 0,
        opening_balance: 665.4,
        closing_balance: 665.41,
      },
    ]);
    const xlsx = await admin.get('/cash-flow/export?fmt=xlsx&from=2026-01&to=2026-01');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const labels = wb.worksheets[0]!.getColumn(1).values;
    expect(labels).toContain('Inflow: Payments received');
    expect(labels).toContain('Outflow: Wages');
  });

  it('defaults to the last 12 months and refuses a bad range', async () => {
    const res = await admin.get('/income-statement');
    const months = res.json().map((m: { month: string }) => m.month);
    expect(months).toHaveLength(12);
    expect(months[11]).toBe(new Date().toISOString().slice(0, 7));
    expect((await admin.get('/cash-flow?from=2026-05&to=2026-01')).statusCode).toBe(400);
    expect((await admin.get('/cash-flow?from=2026-13')).statusCode).toBe(400);
  });

  it('exports the income statement to xlsx with the report lines by month', async () => {
    const res = await admin.get('/income-statement/export?fmt=xlsx&from=2026-01&to=2026-02');
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-suggested-filename']).toBe('income-statement_2026-01_2026-02.xlsx');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.getRow(1).values).toEqual([undefined, '2026-01 to 2026-02', '2026-01', '2026-02', 'Total']);
    const rows = new Map<string, unknown[]>();
    ws.eachRow((row, i) => {
      if (i > 1)
        rows.set(String(row.getCell(1).value), [
          row.getCell(2).value,
          row.getCell(3).value,
          row.getCell(4).value,
        ]);
    });
    expect(rows.get('Rental income')).toEqual([350.35, 0, 350.35]);
    expect(rows.get('Condominium fees')).toEqual([15, 0, 15]);
    expect(rows.get('Salaries and commissions')).toEqual([120, 0, 120]);
    expect(rows.get('Net Operating Income')).toEqual([165.35, 0, 165.35]);
    const pdf = await admin.get('/cash-flow/export?fmt=pdf&from=2026-01&to=2026-02');
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('totals each line over the range: sums, and the first opening and last closing balance', async () => {
    const xlsx = await admin.get('/cash-flow/export?fmt=xlsx&from=2026-01&to=2026-03');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.getRow(1).getCell(5).value).toBe('Total');
    const byLabel = new Map<string, unknown[]>();
    ws.eachRow((row, i) => {
      if (i > 1)
        byLabel.set(
          String(row.getCell(1).value),
          [2, 3, 4, 5].map((n) => row.getCell(n).value),
        );
    });
    const months = (await admin.get('/cash-flow?from=2026-01&to=2026-03')).json<
      { opening_balance: number; closing_balance: number; total_inflow: number }[]
    >();
    const opening = byLabel.get('Opening balance');
    const closing = byLabel.get('Closing balance');
    const inflow = byLabel.get('Total inflow');
    expect(opening?.[3]).toBe(months[0]?.opening_balance);
    expect(closing?.[3]).toBe(months[2]?.closing_balance);
    expect(inflow?.[3]).toBeCloseTo(
      months.reduce((a, m) => a + m.total_inflow, 0),
      2,
    );
  });

  it('writes the income statement PDF with every number whole on one line, and its total', async () => {
    // twelve months of large amounts: 'UGX 1,234,567,890' is wider than an even share of the page
    for (let m = 1; m <= 12; m += 1) {
      const month = `2024-${String(m).padStart(2, '0')}`;
      await exec(
        `INSERT INTO payments (company_id, tenant_id, unit_id, occupancy_id, payment_date, payment_serial, amount_paid,
                               effective_start_date, effective_end_date, status, payment_method)
         SELECT $1, o.tenant_id, o.unit_id, o.id, $2::date, $3, 1234567890, $2::date, $2::date, 'completed', 'mobilemoney'
           FROM occupancy o WHERE o.company_id = $1`,
        [c, `${month}-05`, `PAY-BIG-${m}`],
      );
    }
    const pdf = await admin.get('/income-statement/export?fmt=pdf&from=2024-01&to=2024-12');
    expect(pdf.statusCode).toBe(200);
    const text = pdfText(pdf.rawPayload);
    const lines = text.split('\n');
    const header = lines.find((l) => l.includes('Feb 2024')) ?? '';
    // one header line holds the twelve months and the total: the table fits the page's width
    expect(header).toContain('Dec 2024');
    expect(header).toContain('Total');
    const rental = lines.find((l) => l.trimStart().startsWith('Rental income')) ?? '';
    expect(rental.match(/1,234,567,890/g)).toHaveLength(12);
    expect(rental).toContain('14,814,814,680');
    // no number is cut: every run of digits and commas on the page is a whole number
    const table = lines.filter((l) => !l.includes('exported')).join('\n');
    const numbers = table.match(/[\d,]*,[\d,]*/g) ?? [];
    expect(numbers.length).toBeGreaterThan(24);
    for (const n of numbers) expect(n).toMatch(/^\d{1,3}(,\d{3})+$/);
  });
});
