import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER_NAME_MESSAGE, type RoleName } from '@kodi/domain';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { TestClient } from '../../test/client.ts';
import { buildCompany, buildUser } from '../../test/factories.ts';
import { xlsxRows } from '../../reliability/matrix.ts';

type Row = Record<string, unknown>;

/** Issue 27, first slice: owners, who owns what (shares with their history), management agreements. */
describe(`owners, their shares of properties and management agreements (${testDriver})`, () => {
  let t: TestContext;
  let companyA: number;
  let admin: TestClient;
  let stranger: TestClient;
  const clients: Partial<Record<RoleName, TestClient>> = {};

  const as = async (role: RoleName, companyId = companyA) => {
    const u = await buildUser(t.database, { company_id: companyId, roles: [role] });
    const c = new TestClient(t.app);
    expect((await c.login(u.email, u.password)).statusCode).toBe(200);
    return c;
  };
  const make = async (c: TestClient, path: string, body: Row): Promise<Row> => {
    const res = await c.post(path, body);
    if (res.statusCode !== 201) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
    return res.json<Row>();
  };
  const property = (c: TestClient, name: string) => make(c, '/properties', { name, address: `${name} road` });
  const owner = (c: TestClient, body: Row) => make(c, '/owners', body);

  beforeAll(async () => {
    t = await setupApp();
    companyA = (await buildCompany(t.database, { name: 'A Agency' })).id;
    const companyB = (await buildCompany(t.database, { name: 'B Agency' })).id;
    admin = await as('admin');
    stranger = await as('admin', companyB);
    for (const role of ['company_admin', 'editor', 'viewer'] as const) clients[role] = await as(role);
  }, 120_000);
  afterAll(async () => {
    await t?.app.close();
  });

  it('keeps owners as persons or companies, their phones in E.164, searched, sorted and exported', async () => {
    const person = await owner(admin, {
      first_name: 'Grace',
      last_name: 'Namuli',
      phone: '0772 123 456',
      email: 'grace@example.com',
      tax_id: 'TIN-1001',
      payout_method: 'mobilemoney',
      payout_account_name: 'Grace Namuli',
      payout_account_number: '0772123456',
      payout_bank: 'MTN MoMo',
    });
    expect(person).toMatchObject({ display_name: 'Grace Namuli', phone: '+256772123456', version: 1 });
    const firm = await owner(admin, { company_name: 'Acacia Holdings Ltd', payout_method: 'BANK' });
    expect(firm).toMatchObject({ display_name: 'Acacia Holdings Ltd', payout_method: 'bank', phone: null });

    // neither a person nor a company; half a person
    for (const [body, field] of [
      [{ email: 'x@example.com' }, 'company_name'],
      [{ first_name: 'Only' }, 'last_name'],
      [{ last_name: 'Only' }, 'first_name'],
    ] as const) {
      const res = await admin.post('/owners', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json<Row>().fields).toEqual({ [field]: OWNER_NAME_MESSAGE });
    }
    const badPhone = await admin.post('/owners', { company_name: 'X', phone: '0123 456 789' });
    expect(badPhone.statusCode).toBe(400);
    expect(badPhone.json<{ fields: Row }>().fields.phone).toMatch(/not a possible phone number for Uganda/);
    const badMethod = await admin.post('/owners', { company_name: 'X', payout_method: 'gold' });
    expect(badMethod.json<{ fields: Row }>().fields.payout_method).toBe('Choose one of the listed values.');
    // an owner abroad: written with its +code
    expect(await owner(admin, { company_name: 'Diaspora Ltd', phone: '+44 20 7946 0958' })).toMatchObject({
      phone: '+442079460958',
    });

    const names = async (q: string) =>
      (await admin.get(`/owners?${q}`)).json<Row[]>().map((r) => r.display_name);
    expect(await names('q=namuli')).toEqual(['Grace Namuli']);
    expect(await names('q=0772123')).toEqual(['Grace Namuli']);
    expect(await names('q=tin-1001')).toEqual(['Grace Namuli']);
    expect(await names('sort=display_name')).toEqual(['Acacia Holdings Ltd', 'Diaspora Ltd', 'Grace Namuli']);
    const xlsx = await admin.get('/owners/export?fmt=xlsx&sort=display_name');
    expect(xlsx.statusCode, xlsx.body).toBe(200);
    const sheet = await xlsxRows(xlsx.rawPayload);
    expect(sheet[0]).toEqual(expect.arrayContaining(['Name', 'Payout Method', 'Phone', 'Email']));
    expect(sheet.map((row) => row[0])).toContain('Acacia Holdings Ltd');

    // admins and company admins keep them; editors and viewers read them; another company sees none
    expect((await clients.editor?.post('/owners', { company_name: 'E' }))?.statusCode).toBe(403);
    expect((await clients.viewer?.get(`/owners/${String(person.id)}`))?.statusCode).toBe(200);
    expect((await clients.company_admin?.post('/owners', { company_name: 'CA Ltd' }))?.statusCode).toBe(201);
    expect((await stranger.get(`/owners/${String(person.id)}`)).statusCode).toBe(404);
    expect((await stranger.get('/owners')).json()).toEqual([]);
  });

  it('sets the owners of a property: shares adding up to 100, owners of the company, history by day', async () => {
    const p = await property(admin, 'Kololo Court');
    const url = `/properties/${String(p.id)}/owners`;
    const a = await owner(admin, { first_name: 'Amos', last_name: 'Okello' });
    const b = await owner(admin, { company_name: 'Bakery Ltd' });
    const c = await owner(admin, { first_name: 'Cissy', last_name: 'Atim' });
    const theirs = await owner(stranger, { company_name: 'Their Owner' });

    // none yet: the company's own
    expect((await admin.get(url)).json()).toEqual({ property_id: p.id, effective_from: null, owners: [] });

    const refused = async (body: unknown) => {
      const res = await admin.put(url, body);
      expect(res.statusCode, res.body).toBe(400);
      return res.json<{ code: string; fields: Record<string, string> }>();
    };
    expect(
      (
        await refused([
          { owner_id: a.id, share_percent: 60 },
          { owner_id: b.id, share_percent: 30 },
        ])
      ).fields,
    ).toEqual({ owners: 'The shares must add up to 100% (they add up to 90%).' });
    expect(
      (
        await refused({
          owners: [
            { owner_id: a.id, share_percent: 33.33 },
            { owner_id: b.id, share_percent: 33.33 },
            { owner_id: c.id, share_percent: 33.33 },
          ],
        })
      ).fields,
    ).toEqual({ owners: 'The shares must add up to 100% (they add up to 99.99%).' });
    expect((await refused([{ owner_id: a.id, share_percent: 100.001 }])).fields['0.share_percent']).toBe(
      'A share is more than 0 and at most 100.',
    );
    expect((await refused([{ owner_id: a.id, share_percent: 99.995 }])).fields['0.share_percent']).toBe(
      'At most 2 decimals.',
    );
    expect(
      (
        await refused([
          { owner_id: a.id, share_percent: 0 },
          { owner_id: b.id, share_percent: 100 },
        ])
      ).fields['0.share_percent'],
    ).toBe('A share is more than 0 and at most 100.');
    expect(
      (
        await refused([
          { owner_id: a.id, share_percent: 50 },
          { owner_id: a.id, share_percent: 50 },
        ])
      ).fields,
    ).toEqual({ 'owners.1.owner_id': 'This owner is listed twice.' });
    // another company's owner is not one of this company's
    const foreign = await refused([
      { owner_id: a.id, share_percent: 50 },
      { owner_id: theirs.id, share_percent: 50 },
    ]);
    expect(foreign).toMatchObject({
      code: 'validation_failed',
      fields: { 'owners.1.owner_id': 'Not found.' },
    });

    const thirds = [
      { owner_id: a.id, share_percent: 33.33 },
      { owner_id: b.id, share_percent: 33.33 },
      { owner_id: c.id, share_percent: 33.34 },
    ];
    const set = await admin.put(url, thirds);
    expect(set.statusCode, set.body).toBe(200);
    const today = set.json<{ effective_from: string }>().effective_from;
    expect(today).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(set.json<Row>().owners).toEqual([
      { owner_id: c.id, owner_name: 'Cissy Atim', share_percent: 33.34 },
      { owner_id: a.id, owner_name: 'Amos Okello', share_percent: 33.33 },
      { owner_id: b.id, owner_name: 'Bakery Ltd', share_percent: 33.33 },
    ]);
    // set again the same day: that day's shares are replaced, not added to
    const again = await admin.put(url, [
      { owner_id: a.id, share_percent: 60 },
      { owner_id: b.id, share_percent: 40 },
    ]);
    expect(again.statusCode, again.body).toBe(200);
    const sets = await t.database.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM property_owner_sets WHERE company_id = $1 AND property_id = $2',
      [companyA, p.id],
    );
    expect(sets[0]?.n).toBe(1);

    // the shares of an earlier day stay: the set is dated back, then the owners change today
    await t.database.query(
      `UPDATE property_owner_sets SET effective_from = DATE '2025-01-01' WHERE company_id = $1 AND property_id = $2`,
      [companyA, p.id],
    );
    const sold = await admin.put(url, [{ owner_id: c.id, share_percent: 100 }]);
    expect(sold.json<Row>()).toEqual({
      property_id: p.id,
      effective_from: today,
      owners: [{ owner_id: c.id, owner_name: 'Cissy Atim', share_percent: 100 }],
    });
    const then = (await admin.get(`${url}?as_of=2025-06-30`)).json<Row>();
    expect(then).toMatchObject({ effective_from: '2025-01-01' });
    expect((then.owners as Row[]).map((o) => [o.owner_id, o.share_percent])).toEqual([
      [a.id, 60],
      [b.id, 40],
    ]);
    expect((await admin.get(`${url}?as_of=2024-12-31`)).json<Row>()).toMatchObject({
      effective_from: null,
      owners: [],
    });
    expect((await admin.get(`${url}?as_of=2025-13-01`)).statusCode).toBe(400);
    // an owner with shares in the history is not deleted
    expect((await admin.delete(`/owners/${String(a.id)}`)).statusCode).toBe(409);

    // the GET's answer goes back to the PUT; an empty list makes it the company's own again
    const read = (await admin.get(url)).json<Row>();
    expect((await admin.put(url, read)).statusCode).toBe(200);
    const own = await admin.put(url, []);
    expect(own.json<Row>()).toMatchObject({ effective_from: today, owners: [] });
    expect((await admin.get(`${url}?as_of=2025-06-30`)).json<{ owners: Row[] }>().owners).toHaveLength(2);

    // the audit log has the change
    const entries = await t.database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_entries WHERE entity = 'property_owners' AND record_id = $1`,
      [p.id],
    );
    expect(entries[0]?.n).toBe(5);
  });

  it('lets staff who read properties read owners, and admins and company admins change them', async () => {
    const p = await property(admin, 'Ntinda Flats');
    const o = await owner(admin, { company_name: 'Ntinda Ltd' });
    const url = `/properties/${String(p.id)}/owners`;
    const body = [{ owner_id: o.id, share_percent: 100 }];
    for (const role of ['editor', 'viewer'] as const) {
      expect((await clients[role]?.get(url))?.statusCode, role).toBe(200);
      expect((await clients[role]?.put(url, body))?.statusCode, role).toBe(403);
    }
    expect((await clients.company_admin?.put(url, body))?.statusCode).toBe(200);
    // another company's property: not found, to read and to change
    expect((await stranger.get(url)).statusCode).toBe(404);
    const theirOwner = await owner(stranger, { company_name: 'Theirs Ltd' });
    expect((await stranger.put(url, [{ owner_id: theirOwner.id, share_percent: 100 }])).statusCode).toBe(404);
    expect((await admin.get('/properties/2000000000/owners')).statusCode).toBe(404);
    expect((await admin.get(url)).json<{ owners: Row[] }>().owners).toHaveLength(1);
  });

  it('keeps a management agreement per property: validated, versioned, company-scoped', async () => {
    const p = await property(admin, 'Bugolobi Villas');
    const url = `/properties/${String(p.id)}/agreement`;
    const none = await admin.get(url);
    expect(none.statusCode).toBe(404);
    expect(none.json()).toEqual({
      error: 'This property has no management agreement.',
      code: 'agreement_not_found',
    });

    const refused = async (body: Row) => {
      const res = await admin.put(url, body);
      expect(res.statusCode, res.body).toBe(400);
      return res.json<{ fields: Record<string, string> }>().fields;
    };
    const terms = { fee_kind: 'percent_of_collected', fee_amount: 10 };
    expect(await refused({ ...terms, fee_kind: 'yearly' })).toEqual({
      fee_kind: 'Choose one of the listed values.',
    });
    expect(await refused({ ...terms, fee_amount: 150 })).toEqual({ fee_amount: 'A percent from 0 to 100.' });
    expect(await refused({ ...terms, reserve: -1 })).toEqual({ reserve: 'Must be a positive number >= 0.' });
    expect(await refused({ ...terms, minimum_fee: 1.234 })).toEqual({ minimum_fee: 'At most 2 decimals.' });
    expect(await refused({ ...terms, withhold_rental_tax: true, rental_tax_rate: 101 })).toEqual({
      rental_tax_rate: 'A percent from 0 to 100.',
    });
    expect(await refused({ fee_kind: 'fixed_monthly' })).toEqual({ fee_amount: 'This field is required.' });

    const made = await admin.put(url, {
      ...terms,
      minimum_fee: 50_000,
      reserve: 200_000,
      withhold_rental_tax: true,
      rental_tax_rate: 7.5,
    });
    expect(made.statusCode, made.body).toBe(200);
    const first = made.json<Row>();
    expect(first).toMatchObject({
      property_id: p.id,
      fee_kind: 'percent_of_collected',
      fee_amount: 10,
      minimum_fee: 50_000,
      reserve: 200_000,
      withhold_rental_tax: true,
      rental_tax_rate: 7.5,
      version: 1,
    });
    expect((await admin.get(url)).json()).toEqual(first);

    // a change sends the version read: none is a 400, an old one a 409
    const monthly = { fee_kind: 'fixed_monthly', fee_amount: 1_500_000.5 };
    expect((await admin.put(url, monthly)).statusCode).toBe(400);
    expect((await admin.put(url, { ...monthly, version: 7 })).statusCode).toBe(409);
    const changed = await admin.put(url, { ...first, ...monthly });
    expect(changed.json<Row>()).toMatchObject({
      fee_kind: 'fixed_monthly',
      fee_amount: 1_500_000.5,
      minimum_fee: 50_000,
      version: 2,
    });
    // a fixed fee is an amount, not a percent
    expect((await admin.put(url, { ...first, ...monthly, version: 1 })).statusCode).toBe(409);

    // roles: editors and viewers read it; company admins change it; another company finds nothing
    for (const role of ['editor', 'viewer'] as const) {
      expect((await clients[role]?.get(url))?.statusCode, role).toBe(200);
      expect((await clients[role]?.put(url, { ...terms, version: 2 }))?.statusCode, role).toBe(403);
    }
    expect((await clients.company_admin?.put(url, { ...terms, version: 2 }))?.statusCode).toBe(200);
    expect((await stranger.get(url)).statusCode).toBe(404);
    expect((await stranger.put(url, terms)).statusCode).toBe(404);
    expect((await admin.get('/properties/2000000000/agreement')).json()).toMatchObject({ code: 'not_found' });
    const audit = await t.database.query<{ action: string }>(
      `SELECT action FROM audit_entries WHERE entity = 'management_agreements' AND record_id = $1 ORDER BY id`,
      [p.id],
    );
    expect(audit.map((a) => a.action)).toEqual(['create', 'update', 'update']);

    // deleting the property takes its agreement and its owners' history with it
    await admin.put(`/properties/${String(p.id)}/owners`, []);
    expect((await admin.delete(`/properties/${String(p.id)}`)).statusCode).toBe(204);
    expect(
      await t.database.query(
        'SELECT 1 FROM management_agreements WHERE company_id = $1 AND property_id = $2',
        [companyA, p.id],
      ),
    ).toEqual([]);
  });
});
