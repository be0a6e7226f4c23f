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
import { validTenant, validUnit } from '../../test/entities.ts';
import { companyDay } from '../../modules/books/post.ts';

type Account = {
  id: number;
  code: string;
  role: string | null;
  type: string;
  balance: string;
  is_active: boolean;
};
type Entry = {
  id: number;
  date: string;
  memo: string;
  source: string;
  lines: { account_code: string; account_role: string | null; debit: string }[];
};

describe(`books: accounts, journal and close routes (${testDriver})`, () => {
  let t: TestContext;
  let admin: TestClient;
  let editor: TestClient;
  let other: TestClient;
  let companyId: number;

  const signIn = (company: number, roles: RoleName[]) => signInAs(t, company, roles);

  beforeEach(async () => {
    t = await setupApp();
    companyId = (await buildCompany(t.database, { name: 'Kampala Homes' })).id;
    const otherCompany = (await buildCompany(t.database, { name: 'Other' })).id;
    admin = await signIn(companyId, ['admin']);
    editor = await signIn(companyId, ['editor']);
    other = await signIn(otherCompany, ['company_admin']);
  });
  afterEach(async () => {
    await t.app.close();
  });

  const accounts = async (c = admin) => (await c.get('/ledger-accounts')).json<Account[]>();
  const byRole = async (role: string) => (await accounts()).find((a) => a.role === role) as Account;

  it('lists the chart to any staff with balances signed by type; admins add, change and delete accounts', async () => {
    const list = await accounts(editor);
    expect(list).toHaveLength(27);
    expect(list[0]).toMatchObject({
      code: '1000',
      role: 'cash',
      type: 'asset',
      balance: '0.00',
      is_active: true,
    });
    expect(
      (await editor.post('/ledger-accounts', { code: '1040', name: 'Safe', type: 'asset' })).statusCode,
    ).toBe(403);
    const made = await admin.post('/ledger-accounts', { code: '1040', name: 'Safe', type: 'asset' });
    expect(made.statusCode, made.body).toBe(201);
    const safe = made.json<Account>();
    expect(safe).toMatchObject({ role: null, balance: '0.00' });
    const dup = await admin.post('/ledger-accounts', { code: '1040', name: 'Again', type: 'asset' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({
      code: 'duplicate',
      fields: { code: 'An account of this code exists already.' },
    });
    // another company's account: 404
    expect(
      (await other.put(`/ledger-accounts/${safe.id}`, { code: '9', name: 'X', type: 'asset' })).statusCode,
    ).toBe(404);
    expect((await other.delete(`/ledger-accounts/${safe.id}`)).statusCode).toBe(404);
    // a manual entry makes it used: its type stays, it cannot be deleted, it can be deactivated
    const cash = await byRole('cash');
    const posted = await admin.post('/journal', {
      date: '2026-02-01',
      memo: 'Float to the safe',
      lines: [
        { account_id: safe.id, debit: '250.50' },
        { account_id: cash.id, credit: 250.5 },
      ],
    });
    expect(posted.statusCode, posted.body).toBe(201);
    const after = await accounts();
    expect(after.find((a) => a.id === safe.id)?.balance).toBe('250.50');
    expect(after.find((a) => a.id === cash.id)?.balance).toBe('-250.50');
    const retype = await admin.put(`/ledger-accounts/${safe.id}`, {
      code: '1040',
      name: 'Safe',
      type: 'expense',
    });
    expect(retype.statusCode).toBe(409);
    expect(retype.json().code).toBe('in_use');
    expect((await admin.delete(`/ledger-accounts/${safe.id}`)).json().code).toBe('in_use');
    const off = await admin.put(`/ledger-accounts/${safe.id}`, {
      code: '1041',
      name: 'Old safe',
      type: 'asset',
      is_active: false,
    });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({ code: '1041', is_active: false });
    const unused = (
      await admin.post('/ledger-accounts', { code: '1050', name: 'Spare', type: 'asset' })
    ).json<Account>();
    expect((await admin.delete(`/ledger-accounts/${unused.id}`)).statusCode).toBe(204);
    expect((await admin.delete(`/ledger-accounts/${cash.id}`)).statusCode).toBe(409);
  });

  it('refuses a manual entry that does not balance, has one line or names an inactive or foreign account', async () => {
    const cash = await byRole('cash');
    const bank = await byRole('bank');
    const foreign = (await accounts(other))[0] as Account;
    const send = (lines: unknown[]) => admin.post('/journal', { date: '2026-02-01', memo: 'x', lines });
    const unbalanced = await send([
      { account_id: cash.id, debit: 10 },
      { account_id: bank.id, credit: 9 },
    ]);
    expect(unbalanced.statusCode).toBe(400);
    expect(unbalanced.json().error).toBe('The entry does not balance: its debits must equal its credits.');
    expect((await send([{ account_id: cash.id, debit: 10 }])).statusCode).toBe(400);
    const theirs = await send([
      { account_id: cash.id, debit: 10 },
      { account_id: foreign.id, credit: 10 },
    ]);
    expect(theirs.statusCode).toBe(400);
    expect(theirs.json().error).toBe('Every line must name an active account of the company.');
    expect(
      (
        await editor.post('/journal', {
          date: '2026-02-01',
          memo: 'x',
          lines: [
            { account_id: cash.id, debit: 10 },
            { account_id: bank.id, credit: 10 },
          ],
        })
      ).statusCode,
    ).toBe(403);
    // CSRF as every mutation
    const noToken = await admin.post(
      '/journal',
      { date: '2026-02-01', memo: 'x', lines: [] },
      { 'x-csrf-token': 'wrong' },
    );
    expect(noToken.statusCode).toBe(403);
  });

  it('lists the journal paged, filtered and searched; one entry; another company’s is 404', async () => {
    const unit = (await admin.post('/units', validUnit())).json();
    const tenant = (await admin.post('/tenants', validTenant())).json();
    const lease = (
      await admin.post('/occupancy', {
        tenant_id: tenant.id,
        unit_id: unit.id,
        start_date: '2026-01-01',
        rate: 1000,
        // nothing owed through today: no rent posted (issue 25, "Rent posting"), only these entries
        opening_balance_date: await companyDay(t.database.db, companyId),
      })
    ).json();
    for (const [d, amount] of [
      ['2026-02-05', 100],
      ['2026-03-05', 200],
      ['2026-04-05', 300],
    ] as const)
      await admin.post('/payments', {
        tenant_id: tenant.id,
        unit_id: unit.id,
        payment_date: d,
        amount_paid: amount,
        payment_method: 'cash',
        status: 'completed',
        effective_start_date: d,
        effective_end_date: d,
      });
    const cash = await byRole('cash');
    const bank = await byRole('bank');
    await admin.post('/journal', {
      date: '2026-03-10',
      memo: 'Banked the takings',
      lines: [
        { account_id: bank.id, debit: 300 },
        { account_id: cash.id, credit: 300 },
      ],
    });
    const page = await editor.get('/journal?page_size=2');
    expect(page.statusCode, page.body).toBe(200);
    expect(page.headers['x-total-count']).toBe('4');
    expect(page.json<Entry[]>().map((e) => e.date)).toEqual(['2026-04-05', '2026-03-10']);
    const asc = (await admin.get('/journal?sort=date&from=2026-03-01&to=2026-03-31')).json<Entry[]>();
    expect(asc.map((e) => e.date)).toEqual(['2026-03-05', '2026-03-10']);
    const byLease = (await admin.get(`/journal?occupancy_id=${lease.id}&source=payment`)).json<Entry[]>();
    expect(byLease).toHaveLength(3);
    expect(byLease[0]?.lines.map((l) => [l.account_code, l.debit])).toEqual([
      ['1000', '300.00'],
      ['1100', '0.00'],
    ]);
    const byAccount = (await admin.get(`/journal?account_id=${bank.id}`)).json<Entry[]>();
    expect(byAccount.map((e) => e.memo)).toEqual(['Banked the takings']);
    const searched = await admin.get('/journal?q=takings');
    expect(searched.json<Entry[]>()).toHaveLength(1);
    const one = await editor.get(`/journal/${byAccount[0]?.id}`);
    expect(one.json()).toMatchObject({ memo: 'Banked the takings', source: 'manual' });
    // a line's account with its role (a default account's name in the reader's language: issue 30)
    expect(one.json<Entry>().lines.map((l) => l.account_role)).toContain('bank');
    expect((await other.get(`/journal/${byAccount[0]?.id}`)).statusCode).toBe(404);
    expect((await other.get('/journal')).json()).toEqual([]);
    // the export: a row a line of the entries the filters keep, oldest first
    const xlsx = await editor.get(`/journal/export?fmt=xlsx&account_id=${bank.id}`);
    expect(xlsx.statusCode, xlsx.body).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    wb.worksheets[0]?.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows[0]).toEqual([
      'Date',
      'Entry',
      'Memo',
      'Source',
      'Account',
      'Account name',
      'Debit',
      'Credit',
    ]);
    expect(rows.slice(1).map((r) => [r[2], r[4]])).toEqual([
      ['Banked the takings', '1020'],
      ['Banked the takings', '1000'],
    ]);
    const pdf = await admin.get('/journal/export?fmt=pdf&q=takings');
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 4).toString()).toBe('%PDF');
    const dir = mkdtempSync(join(tmpdir(), 'kodi-journal-'));
    writeFileSync(join(dir, 'j.pdf'), pdf.rawPayload);
    const text = execFileSync('pdftotext', ['-layout', join(dir, 'j.pdf'), '-']).toString();
    expect(text).toContain('Banked the takings');
    expect(text).not.toContain('Rent due');
    const foreign = await other.get('/journal/export?fmt=xlsx');
    const empty = new ExcelJS.Workbook();
    await empty.xlsx.load(foreign.rawPayload as unknown as ArrayBuffer);
    expect(empty.worksheets[0]?.rowCount).toBe(1);
  });

  it('closes the books: posting or voiding on or before that day answers 409 period_closed', async () => {
    expect((await editor.get('/books/close')).json()).toEqual({
      through: null,
      closed_at: null,
      user_id: null,
    });
    expect((await editor.post('/books/close', { through: '2026-01-31' })).statusCode).toBe(403);
    const closed = await admin.post('/books/close', { through: '2026-01-31' });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json().through).toBe('2026-01-31');
    expect((await editor.get('/books/close')).json().through).toBe('2026-01-31');
    expect((await other.get('/books/close')).json().through).toBeNull();
    const earlier = await admin.post('/books/close', { through: '2026-01-01' });
    expect(earlier.statusCode).toBe(400);
    const future = await admin.post('/books/close', { through: '2999-01-01' });
    expect(future.statusCode).toBe(400);

    const unit = (await admin.post('/units', validUnit())).json();
    const tenant = (await admin.post('/tenants', validTenant())).json();
    await admin.post('/occupancy', {
      tenant_id: tenant.id,
      unit_id: unit.id,
      start_date: '2026-01-01',
      rate: 1000,
    });
    const body = (d: string) => ({
      tenant_id: tenant.id,
      unit_id: unit.id,
      payment_date: d,
      amount_paid: 100,
      payment_method: 'cash',
      status: 'completed',
      effective_start_date: d,
      effective_end_date: d,
    });
    const refused = await admin.post('/payments', body('2026-01-31'));
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toEqual({
      code: 'period_closed',
      error: 'The books are closed through Jan 31, 2026.',
    });
    expect((await admin.get('/payments')).json()).toEqual([]);
    const cash = await byRole('cash');
    const bank = await byRole('bank');
    const manual = await admin.post('/journal', {
      date: '2026-01-15',
      memo: 'late',
      lines: [
        { account_id: bank.id, debit: 1 },
        { account_id: cash.id, credit: 1 },
      ],
    });
    expect(manual.statusCode).toBe(409);
    expect(manual.json().code).toBe('period_closed');
    expect((await admin.post('/payments', body('2026-02-01'))).statusCode).toBe(201);
  });
});
