import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RoleName } from '@kodi/domain';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import type { TestClient } from '../../test/client.ts';
import { signInAs } from '../../test/sign-in.ts';
import { buildCompany } from '../../test/factories.ts';
import { validTenant, validUnit } from '../../test/entities.ts';
import { pdfText } from '../../test/pdf-text.ts';

type Payment = Record<string, unknown> & { id: number; version: number; status: string };

const RECEIPT_ISSUED = {
  error: 'This payment has a receipt: void it and record a new one.',
  code: 'receipt_issued',
};

describe(`receipts never change: completed payments are voided, never edited (${testDriver})`, () => {
  let t: TestContext;
  let admin: TestClient;
  let companyId: number;
  let unit: { id: number };
  let tenant: { id: number };

  const signIn = (roles: RoleName[], company = companyId) => signInAs(t, company, roles);

  beforeEach(async () => {
    t = await setupApp();
    companyId = (await buildCompany(t.database, { name: 'Kampala Homes' })).id;
    admin = await signIn(['admin']);
    unit = (await admin.post('/units', validUnit())).json();
    tenant = (await admin.post('/tenants', validTenant())).json();
    const lease = await admin.post('/occupancy', {
      tenant_id: tenant.id,
      unit_id: unit.id,
      start_date: '2026-01-01',
      rate: 800000,
    });
    expect(lease.statusCode).toBe(201);
  });
  afterEach(async () => {
    await t.app.close();
  });

  const pay = async (client: TestClient, overrides: Record<string, unknown> = {}): Promise<Payment> => {
    const res = await client.post('/payments', {
      tenant_id: tenant.id,
      unit_id: unit.id,
      payment_date: '2026-11-05',
      amount_paid: 800000,
      payment_method: 'cash',
      status: 'completed',
      effective_start_date: '2026-11-01',
      effective_end_date: '2026-11-30',
      payment_details: 'November rent',
      ...overrides,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<Payment>();
  };

  it('refuses to change a completed payment’s amount, date, tenant, unit, lease, method or status (409), not its notes', async () => {
    const p = await pay(admin);
    const otherUnit = (await admin.post('/units', validUnit({ name: 'Second unit' }))).json<{ id: number }>();
    const otherTenant = (await admin.post('/tenants', validTenant({ first_name: 'Paul' }))).json<{
      id: number;
    }>();
    const lease2 = (
      await admin.post('/occupancy', {
        tenant_id: otherTenant.id,
        unit_id: otherUnit.id,
        start_date: '2026-01-01',
        rate: 10,
      })
    ).json<{ id: number }>();
    const changes: Record<string, unknown>[] = [
      { amount_paid: 80000 },
      { payment_date: '2026-11-06' },
      { tenant_id: otherTenant.id, unit_id: otherUnit.id },
      { unit_id: otherUnit.id, tenant_id: otherTenant.id, occupancy_id: lease2.id },
      { payment_method: 'mobilemoney' },
      { status: 'failed' },
      { status: 'pending' },
      { status: 'void' },
    ];
    for (const change of changes) {
      const res = await admin.put(`/payments/${p.id}`, { ...p, ...change });
      expect(res.statusCode, JSON.stringify(change)).toBe(409);
      expect(res.json(), JSON.stringify(change)).toEqual(RECEIPT_ISSUED);
    }
    const stored = (await admin.get(`/payments/${p.id}`)).json<Payment>();
    expect(stored).toMatchObject({ amount_paid: 800000, status: 'completed', version: p.version });
    // the same amount written otherwise is no change; the other fields change
    const notes = await admin.put(`/payments/${p.id}`, {
      ...p,
      amount_paid: '800000.00',
      payment_details: 'November rent, paid at the office',
      reference_number: 'CASH-7',
    });
    expect(notes.statusCode, notes.body).toBe(200);
    expect(notes.json()).toMatchObject({
      payment_details: 'November rent, paid at the office',
      reference_number: 'CASH-7',
      receipt_number: 'RCT-000001',
    });
  });

  it('keeps pending and failed payments editable, and completing one is allowed', async () => {
    const p = await pay(admin, { status: 'pending' });
    const edited = await admin.put(`/payments/${p.id}`, { ...p, amount_paid: 700000, status: 'failed' });
    expect(edited.statusCode, edited.body).toBe(200);
    const done = await admin.put(`/payments/${p.id}`, {
      ...edited.json<Payment>(),
      amount_paid: 750000,
      status: 'completed',
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({
      status: 'completed',
      amount_paid: 750000,
      receipt_number: 'RCT-000001',
    });
    // a new payment is never recorded void
    const made = await admin.post('/payments', { ...p, id: undefined, status: 'void' });
    expect(made.statusCode).toBe(400);
    expect(made.json().fields).toEqual({ status: 'A payment is recorded as pending, completed or failed.' });
    // nor is a pending one voided
    const pending = await pay(admin, { status: 'pending' });
    const v = await admin.post(`/payments/${pending.id}/void`, { reason: 'Typo' });
    expect(v.statusCode).toBe(409);
    expect(v.json()).toEqual({ error: 'Only a completed payment can be voided.', code: 'not_voidable' });
    const put = await admin.put(`/payments/${pending.id}`, { ...pending, status: 'void' });
    expect(put.statusCode).toBe(409);
    expect(put.json().code).toBe('not_voidable');
  });

  it('voids a completed payment: kept with its numbers, who, when and why; twice is 409', async () => {
    const p = await pay(admin);
    expect((await admin.post(`/payments/${p.id}/void`, { reason: '   ' })).statusCode).toBe(400);
    expect((await admin.post(`/payments/${p.id}/void`, {})).statusCode).toBe(400);
    expect((await admin.post(`/payments/${p.id}/void`, { reason: 'x'.repeat(501) })).statusCode).toBe(400);
    const res = await admin.post(`/payments/${p.id}/void`, { reason: '  Wrong amount typed  ' });
    expect(res.statusCode, res.body).toBe(200);
    const v = res.json<Payment>();
    expect(v).toMatchObject({
      status: 'void',
      receipt_number: 'RCT-000001',
      payment_serial: 'PAY-000001',
      amount_paid: 800000,
      void_reason: 'Wrong amount typed',
      voided_by_name: 'Test Tester',
    });
    expect(typeof v.voided_by).toBe('number');
    expect(Date.now() - Date.parse(String(v.voided_at))).toBeLessThan(60_000);
    const again = await admin.post(`/payments/${p.id}/void`, { reason: 'Again' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: 'This payment is voided already.', code: 'already_void' });
    // a voided payment's receipt fields never change again, nor does it come back; it is not deleted
    const back = await admin.put(`/payments/${p.id}`, { ...v, status: 'completed' });
    expect(back.statusCode).toBe(409);
    expect((await admin.delete(`/payments/${p.id}`)).statusCode).toBe(409);
    // the void is in its history, as a change
    const history = (await admin.get(`/payments/${p.id}/history`)).json<{ action: string }[]>();
    expect(history.map((h) => h.action)).toEqual(['update', 'create']);
    // its receipt PDF says VOID
    const pdf = await admin.get(`/payments/${p.id}/receipt.pdf`);
    expect(pdf.statusCode).toBe(200);
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('VOID');
    expect(text).toContain('Wrong amount typed');
  });

  it('lets company admins void any payment, an editor only one they recorded today, no one else', async () => {
    const companyAdmin = await signIn(['company_admin']);
    const editor = await signIn(['editor']);
    const otherEditor = await signIn(['editor']);
    const viewer = await signIn(['viewer']);

    const a = await pay(editor);
    expect((await viewer.post(`/payments/${a.id}/void`, { reason: 'No' })).statusCode).toBe(403);
    const byOther = await otherEditor.post(`/payments/${a.id}/void`, { reason: 'No' });
    expect(byOther.statusCode).toBe(403);
    expect(byOther.json()).toEqual({
      error: 'You may void only a payment you recorded today.',
      code: 'forbidden',
    });
    // recorded yesterday (in the company's day): not the editor's to void any more
    const b = await pay(editor);
    await t.database.query(
      "UPDATE payments SET created_at = now() - interval '2 days' WHERE company_id = $1 AND id = $2",
      [companyId, b.id],
    );
    expect((await editor.post(`/payments/${b.id}/void`, { reason: 'Late' })).statusCode).toBe(403);
    // recorded by an admin: not the editor's
    const c = await pay(admin);
    expect((await editor.post(`/payments/${c.id}/void`, { reason: 'No' })).statusCode).toBe(403);

    const own = await editor.post(`/payments/${a.id}/void`, { reason: 'Recorded twice' });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().status).toBe('void');
    expect((await companyAdmin.post(`/payments/${b.id}/void`, { reason: 'Late' })).statusCode).toBe(200);
    expect((await admin.post(`/payments/${c.id}/void`, { reason: 'Admin' })).statusCode).toBe(200);

    // another company's payment is not found, whoever asks
    const d = await pay(admin);
    const other = await buildCompany(t.database);
    const stranger = await signIn(['admin'], other.id);
    const res = await stranger.post(`/payments/${d.id}/void`, { reason: 'Not mine' });
    expect(res.statusCode).toBe(404);
    expect((await stranger.delete(`/payments/${d.id}`)).statusCode).toBe(404);
    expect((await admin.get(`/payments/${d.id}`)).json().status).toBe('completed');
  });

  it('DELETE of a completed payment voids it (Deleted); of a pending or failed one deletes it', async () => {
    const p = await pay(admin);
    const del = await admin.delete(`/payments/${p.id}`);
    expect(del.statusCode).toBe(204);
    const kept = await admin.get(`/payments/${p.id}`);
    expect(kept.statusCode).toBe(200);
    expect(kept.json()).toMatchObject({
      status: 'void',
      void_reason: 'Deleted',
      receipt_number: 'RCT-000001',
    });
    const pending = await pay(admin, { status: 'pending' });
    expect((await admin.delete(`/payments/${pending.id}`)).statusCode).toBe(204);
    expect((await admin.get(`/payments/${pending.id}`)).statusCode).toBe(404);
    const failed = await pay(admin, { status: 'failed' });
    expect((await admin.delete(`/payments/${failed.id}`)).statusCode).toBe(204);
    expect((await admin.get(`/payments/${failed.id}`)).statusCode).toBe(404);
  });

  it('hides voided payments from the list (and its total) unless filtered status=void; balances count completed only', async () => {
    const kept = await pay(admin, { amount_paid: 100000 });
    const voided = await pay(admin, { amount_paid: 200000 });
    const pending = await pay(admin, { status: 'pending', amount_paid: 300000 });
    const lease = (await admin.get('/occupancy')).json<{ id: number }[]>()[0];
    const balance = async () =>
      (await admin.get(`/occupancy/${lease?.id}/ledger?as_of=2026-11-30`)).json<{ balance: number }>()
        .balance;
    const before = await balance();
    const dashboard = async () =>
      (await admin.get('/dashboard'))
        .json<{ recent_payments: { id: number }[] }>()
        .recent_payments.map((p) => p.id);
    expect(await dashboard()).toEqual(expect.arrayContaining([kept.id, voided.id]));
    expect((await admin.post(`/payments/${voided.id}/void`, { reason: 'Wrong' })).statusCode).toBe(200);
    // the ledger's balance no longer counts the voided money; the dashboard no longer lists it
    expect(await balance()).toBe(before + 200000);
    expect(await dashboard()).not.toContain(voided.id);

    const list = await admin.get('/payments');
    expect(list.json<Payment[]>().map((p) => p.id)).toEqual([pending.id, kept.id]);
    expect(list.headers['x-total-count']).toBe('2');
    const searched = await admin.get('/payments?q=rct');
    expect(searched.json<Payment[]>().map((p) => p.id)).toEqual([kept.id]);
    const filter = encodeURIComponent(JSON.stringify({ field: 'status', value: 'void' }));
    const onlyVoid = await admin.get(`/payments?filter=${filter}`);
    expect(onlyVoid.json<Payment[]>().map((p) => p.id)).toEqual([voided.id]);
    expect(onlyVoid.headers['x-total-count']).toBe('1');
    const completed = encodeURIComponent(JSON.stringify({ field: 'status', value: 'completed' }));
    expect((await admin.get(`/payments?filter=${completed}`)).json<Payment[]>().map((p) => p.id)).toEqual([
      kept.id,
    ]);
    // the receipt number stays taken: the next one is RCT-000003
    const next = await pay(admin);
    expect(next.receipt_number).toBe('RCT-000003');
  });
});
