import ExcelJS from 'exceljs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditLogEntry } from '@kodi/domain';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { TestClient } from '../../test/client.ts';
import { buildUser } from '../../test/factories.ts';
import { pdfText } from '../../test/pdf-text.ts';
import { companyWith, createLease, expectStatus } from '../../test/rent-cycle.ts';
import { PORTAL_PASSWORD, portalCompany, portalTenant, tenantWithLease } from '../../test/portal.ts';
import { validUnit } from '../../test/entities.ts';

const logOf = async (c: TestClient, query = '') => {
  const res = expectStatus(await c.get(`/audit-log${query ? `?${query}` : ''}`), 200);
  return { rows: res.json<AuditLogEntry[]>(), total: Number(res.headers['x-total-count']) };
};

/** A database error's SQLSTATE (or 'none' when the statement went through). */
const pgCode = (p: Promise<unknown>) =>
  p.then(
    () => 'none',
    (e: unknown) => {
      const err = e as { code?: string; cause?: { code?: string } };
      return err.code ?? err.cause?.code ?? 'unknown';
    },
  );

describe(`audit log (${testDriver})`, () => {
  let t: TestContext;
  beforeEach(async () => {
    t = await setupApp();
  });
  afterEach(async () => {
    await t.app.close();
  });

  it('lists changes with their fields before and after, filtered, searched, sorted and paged', async () => {
    const { client, signIn } = await companyWith(t);
    const editor = await signIn(['editor']);
    const unit = expectStatus(await editor.post('/units', validUnit({ name: 'Audit A1' })), 201).json<{
      id: number;
      version: number;
    }>();
    expectStatus(
      await editor.put(`/units/${unit.id}`, { ...validUnit({ name: 'Audit A2' }), version: unit.version }),
      200,
    );
    expectStatus(await client.delete(`/units/${unit.id}`), 204);

    const units = await logOf(client, 'entity=units');
    expect(units.total).toBe(3);
    expect(units.rows.map((r) => [r.action, r.record_id, r.user_email])).toEqual([
      ['delete', unit.id, client.user.email],
      ['update', unit.id, editor.user.email],
      ['create', unit.id, editor.user.email],
    ]);
    expect(units.rows[1]?.changes).toEqual([{ field: 'name', before: 'Audit A1', after: 'Audit A2' }]);
    expect(units.rows[1]?.summary).toBe(`Changed units #${unit.id}`);
    // in words: what happened, and the changed fields by their labels
    expect(units.rows.map((r) => r.title)).toEqual(['Unit deleted', 'Unit changed', 'Unit added']);
    expect(units.rows[1]?.details).toEqual(['Name: Audit A1 → Audit A2']);
    expect(units.rows[2]?.details).toContain('Name: Audit A1');
    expect(units.rows[2]?.details).toEqual(
      expect.arrayContaining([expect.stringMatching(/^Monthly Rate: \d{1,3}(,\d{3})+$/)]),
    );
    expect(units.rows[2]?.changes).toContainEqual({ field: 'name', before: null, after: 'Audit A1' });
    expect(units.rows[0]?.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

    // filters: action, user, entity; sort; paging with the total
    expect((await logOf(client, 'entity=units&action=update')).rows.map((r) => r.action)).toEqual(['update']);
    expect(
      (await logOf(client, `entity=units&user_id=${editor.user.id}&sort=at`)).rows.map((r) => r.action),
    ).toEqual(['create', 'update']);
    const page2 = await logOf(client, 'entity=units&sort=at&page=2&page_size=2');
    expect(page2.total).toBe(3);
    expect(page2.rows.map((r) => r.action)).toEqual(['delete']);
    // search: the user's e-mail, the entity, a stored summary
    expect((await logOf(client, `q=${encodeURIComponent(editor.user.email)}&entity=units`)).total).toBe(2);
    expect((await logOf(client, 'q=UNITS')).total).toBe(3);
    expect((await logOf(client, 'q=nothing-like-this')).total).toBe(0);
    // days, in the company's time zone
    const today = new Date().toISOString().slice(0, 10);
    expect((await logOf(client, `entity=units&from=2000-01-01&to=2000-01-31`)).total).toBe(0);
    expect((await logOf(client, `entity=units&from=2000-01-01&to=2099-12-31`)).total).toBe(3);
    expect((await logOf(client, `entity=units&from=${today}`)).total).toBeGreaterThanOrEqual(0);
    // refused queries
    expectStatus(await client.get('/audit-log?action=erase'), 400);
    expectStatus(await client.get('/audit-log?sort=password'), 400);
    expectStatus(await client.get('/audit-log?from=2026-02-30'), 400);
  });

  it('is for admins and company admins of the company only, and no route changes it', async () => {
    const a = await companyWith(t);
    const b = await companyWith(t, ['company_admin']);
    expectStatus(await a.client.post('/units', validUnit({ name: 'Only A' })), 201);
    const bAdmin = await b.signIn(['admin']);
    expectStatus(await bAdmin.post('/units', validUnit({ name: 'Only B' })), 201);
    // each sees its own company's entries, never the other's (whatever the filters say)
    const seenByB = await logOf(b.client, 'entity=units');
    expect(seenByB.rows.map((r) => r.user_email)).toEqual([bAdmin.user.email]);
    expect((await logOf(b.client, `user_id=${a.client.user.id}`)).total).toBe(0);
    expect((await logOf(a.client, 'entity=units')).rows.map((r) => r.user_email)).toEqual([
      a.client.user.email,
    ]);
    for (const roles of [['editor'], ['viewer'], []] as const) {
      const c = await a.signIn([...roles]);
      expect((await c.get('/audit-log')).statusCode).toBe(403);
      expect((await c.get('/audit-log/export?fmt=xlsx')).statusCode).toBe(403);
    }
    expect((await new TestClient(t.app).get('/audit-log')).statusCode).toBe(401);
    const [entry] = (await logOf(a.client)).rows;
    for (const method of ['PUT', 'PATCH', 'DELETE', 'POST'] as const) {
      const res = await a.client.request(
        method,
        `/audit-log/${entry?.id}`,
        method === 'DELETE' ? undefined : {},
      );
      expect(res.statusCode).toBe(404);
    }
    expectStatus(await a.client.delete('/audit-log'), 404);
  });

  it('refuses UPDATE and DELETE of an entry in the database', async () => {
    const { client } = await companyWith(t);
    expectStatus(await client.post('/units', validUnit({ name: 'Kept' })), 201);
    const [row] = await t.database.query<{ id: number }>('SELECT id FROM audit_entries LIMIT 1');
    expect(row).toBeDefined();
    expect(
      await pgCode(t.database.query(`UPDATE audit_entries SET summary = 'x' WHERE id = $1`, [row?.id])),
    ).toBe('42501');
    expect(await pgCode(t.database.query('DELETE FROM audit_entries WHERE id = $1', [row?.id]))).toBe(
      '42501',
    );
    expect(await pgCode(t.database.query('DELETE FROM audit_entries'))).toBe('42501');
    const [n] = await t.database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_entries WHERE summary = 'x'`,
    );
    expect(n?.n).toBe(0);
    // a company with entries cannot be deleted: the foreign key restricts
    expect(['23001', '23503']).toContain(
      await pgCode(t.database.query('DELETE FROM companies WHERE id = $1', [client.user.company_id])),
    );
  });

  it('holds sign-ins, failed sign-ins of known users, role and settings changes, and waivers', async () => {
    const { client, signIn, company } = await companyWith(t);
    const other = await buildUser(t.database, { company_id: company.id, roles: ['viewer'] });
    expectStatus(await new TestClient(t.app).login(other.email, 'wrong password 1'), 401);
    expectStatus(await new TestClient(t.app).login('nobody@example.com', 'wrong password 1'), 401);
    expectStatus(await new TestClient(t.app).login(other.email, other.password), 200);

    const signIns = await logOf(client, `user_id=${other.id}`);
    expect(signIns.rows.map((r) => [r.action, r.entity, r.record_id])).toEqual([
      ['sign_in', 'users', other.id],
      ['sign_in_failed', 'users', other.id],
    ]);
    expect(signIns.rows[0]?.summary).toMatch(/^Password from /);
    // an unknown e-mail has no company: not in any log
    const [unknown] = await t.database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_entries WHERE action = 'sign_in_failed' AND user_id <> $1`,
      [other.id],
    );
    expect(unknown?.n).toBe(0);
    // the admin's own sign-in is there too
    expect((await logOf(client, `action=sign_in&user_id=${client.user.id}`)).total).toBe(1);

    // roles changed
    expectStatus(await client.put(`/users/${other.id}/roles`, { roles: ['editor'] }), 200);
    const [access] = (await logOf(client, 'action=access')).rows;
    expect(access).toMatchObject({ entity: 'users', record_id: other.id, user_email: client.user.email });
    expect(access?.changes).toEqual([{ field: 'roles', before: '["viewer"]', after: '["editor"]' }]);
    expect(access).toMatchObject({ title: 'Roles changed', details: ['Roles: Viewer → Editor'] });

    // settings changed
    const settings = expectStatus(await client.get('/company-settings'), 200).json<{ version: number }>();
    expectStatus(
      await client.put('/company-settings', { daily_run_hour: 9, version: settings.version }),
      200,
    );
    const [changed] = (await logOf(client, 'entity=company_settings')).rows;
    expect(changed?.changes).toContainEqual({ field: 'daily_run_hour', before: '6', after: '9' });
    expect(changed?.title).toBe('Company settings changed');
    expect(changed?.details).toContain('Daily run hour: 6 → 9');

    // a waiver
    const editor = await signIn(['editor']);
    const lease = await createLease(editor, { start_date: '2026-03-01', rate: 1_000_000 });
    const charge = expectStatus(
      await editor.post(`/occupancy/${lease.id}/charges`, {
        date: '2026-03-10',
        category: 'utility',
        description: 'Water',
        amount: 45_000,
      }),
      201,
    ).json<{ id: number }>();
    expectStatus(await client.post(`/charges/${charge.id}/waive`, { reason: 'Goodwill' }), 201);
    const waivers = await logOf(client, 'entity=charge_waivers');
    expect(waivers.rows).toHaveLength(1);
    expect(waivers.rows[0]?.changes).toContainEqual(
      expect.objectContaining({ field: 'reason', after: 'Goodwill' }),
    );
    expect(waivers.rows[0]?.title).toBe('Charge waived');
    expect(waivers.rows[0]?.details).toEqual(expect.arrayContaining(['Amount: 45,000', 'Reason: Goodwill']));
    const [charged] = (await logOf(client, 'entity=charges')).rows;
    expect(charged?.title).toBe('Charge added');
    expect(charged?.details).toEqual(expect.arrayContaining(['Category: utility', 'Description: Water']));

    // a payment recorded, then voided: the receipt's fields as a list, never JSON
    const payment = expectStatus(
      await editor.post('/payments', {
        tenant_id: lease.tenant_id,
        unit_id: lease.unit_id,
        occupancy_id: lease.id,
        payment_date: '2026-03-02',
        effective_start_date: '2026-03-01',
        effective_end_date: '2026-03-31',
        amount_paid: 800_000,
        payment_method: 'mobilemoney',
        status: 'completed',
      }),
      201,
    ).json<{ id: number }>();
    expectStatus(
      await client.post(`/payments/${payment.id}/void`, { reason: 'Typed 800,000 for 80,000' }),
      200,
    );
    const payments = (await logOf(client, 'entity=payments')).rows;
    expect(payments.map((r) => r.title)).toEqual(['Payment voided', 'Payment recorded']);
    expect(payments[0]?.details).toEqual(
      expect.arrayContaining([
        'Payment Status: Completed → Void',
        'Void Reason: — → Typed 800,000 for 80,000',
      ]),
    );
    expect(payments[1]?.details).toEqual(
      expect.arrayContaining(['Amount Paid: 800,000', 'Payment Method: Mobile money']),
    );
    expect(JSON.stringify(payments.map((r) => r.details))).not.toMatch(/[{}]/);
  });

  it("holds a tenant's portal sign-ins and failed ones, under the tenant's company", async () => {
    const { staff } = await portalCompany(t);
    const tl = await tenantWithLease(staff);
    const tenant = await portalTenant(t, staff, tl.tenantId);
    const tryIt = async (password: string) => {
      const c = new TestClient(t.app);
      await c.get('/auth/csrf-token');
      return c.post('/portal/auth/login', { login: tl.email, password });
    };
    expectStatus(await tryIt('not the password'), 401);
    expectStatus(await tryIt(PORTAL_PASSWORD), 200);
    const rows = (await logOf(staff, `user_id=${tenant.user.id}`)).rows;
    expect(rows.map((r) => [r.action, r.summary.split(' from ')[0]])).toEqual([
      ['sign_in', 'Portal password'],
      ['sign_in_failed', 'Portal password'],
      ['sign_in', 'Portal invitation'],
    ]);
    // the invitation and the access turned off are access changes of the tenant
    expectStatus(await staff.post(`/tenants/${tl.tenantId}/portal-access`, { enabled: false }), 200);
    const access = (await logOf(staff, 'action=access&entity=tenants&sort=at')).rows;
    expect(access.map((r) => [r.record_id, r.summary])).toEqual([
      [tl.tenantId, 'Invited to the tenant portal by e-mail'],
      [tl.tenantId, 'Tenant portal access turned off'],
    ]);
    expect(access[1]?.changes).toEqual([{ field: 'portal_access', before: 'true', after: 'false' }]);
    expect(access.map((r) => r.title)).toEqual(['Invited to the tenant portal', 'Portal access turned off']);
    expect(access[1]?.details).toEqual(['Portal access: Yes → No']);
  });

  it("says what happened in the reader's language (issue 30), English as it was", async () => {
    const { client, signIn } = await companyWith(t);
    const editor = await signIn(['editor']);
    expectStatus(await editor.post('/units', validUnit({ name: 'Lugha U1' })), 201);
    const lease = await createLease(editor, { start_date: '2026-03-01', rate: 1_000_000 });
    const charge = expectStatus(
      await editor.post(`/occupancy/${lease.id}/charges`, {
        date: '2026-03-10',
        category: 'utility',
        description: 'Water',
        amount: 45_000,
      }),
      201,
    ).json<{ id: number }>();
    expectStatus(await client.post(`/charges/${charge.id}/waive`, { reason: 'Goodwill' }), 201);
    const read = async (language: string | null) => {
      await t.database.query('UPDATE users SET language = $2 WHERE id = $1', [client.user.id, language]);
      const waiver = (await logOf(client, 'entity=charge_waivers')).rows[0];
      const unit = (await logOf(client, 'entity=units')).rows[0];
      const flat = (s: string | undefined) => (s ?? '').replace(/[\u00a0\u202f]/g, ' ');
      return { title: waiver?.title, details: waiver?.details.map(flat), unit: flat(unit?.title) };
    };
    expect(await read('sw')).toMatchObject({
      title: 'Tozo imesamehewa',
      details: expect.arrayContaining(['Kiasi: 45,000', 'Sababu: Goodwill']),
      unit: 'Nyumba: imeongezwa',
    });
    expect(await read('fr')).toMatchObject({
      title: 'Frais remis',
      details: expect.arrayContaining(['Montant : 45 000', 'Motif : Goodwill']),
      unit: 'Logement : ajout',
    });
    expect(await read(null)).toMatchObject({
      title: 'Charge waived',
      details: expect.arrayContaining(['Amount: 45,000', 'Reason: Goodwill']),
      unit: 'Unit added',
    });
  });

  it('exports the filtered log to xlsx and pdf', async () => {
    const { client } = await companyWith(t);
    expectStatus(await client.post('/units', validUnit({ name: 'Export A1' })), 201);
    expectStatus(await client.post('/units', validUnit({ name: 'Export B2' })), 201);
    const xlsx = expectStatus(await client.get('/audit-log/export?fmt=xlsx&entity=units&sort=at'), 200);
    expect(xlsx.headers['content-disposition']).toContain('audit-log.xlsx');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0];
    const values = (n: number) => (sheet?.getRow(n).values as unknown[]).slice(1);
    expect(values(1)).toEqual(['At', 'User', 'What happened', 'Entity', 'Record', 'Summary', 'Changes']);
    expect(sheet?.rowCount).toBe(3);
    expect(values(2).slice(1, 4)).toEqual([client.user.email, 'Unit added', 'units']);
    expect(String(values(2)[6])).toContain('Name: Export A1; ');
    expect(String(values(2)[6])).not.toMatch(/[{}"]/);
    expect(String(values(3)[6])).toContain('Export B2');

    const pdf = expectStatus(await client.get('/audit-log/export?fmt=pdf&q=units'), 200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = pdfText(pdf.rawPayload);
    expect(text).toContain('Audit Log');
    expect(text).toContain('Export B2');
    expectStatus(await client.get('/audit-log/export?fmt=csv'), 400);
  });
});
