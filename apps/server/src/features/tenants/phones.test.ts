import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { validTenant } from '../../test/entities.ts';
import { companyWith, expectStatus } from '../../test/rent-cycle.ts';
import type { TestClient } from '../../test/client.ts';
import { pdfText } from '../../test/pdf-text.ts';

/** The ways people write one Ugandan mobile number (docs/decisions.md, 'One phone number'). */
const SPELLINGS = [
  '0772 123 456',
  '0772123456',
  '0772 123456',
  '+256 772 123 456',
  '+256772123456',
  '256772123456',
  '256 772 123 456',
  '0772-123-456',
  '0772.123.456',
];
const E164 = '+256772123456';

type Tenant = { id: number; phone: string; version: number } & Record<string, unknown>;

describe(`a tenant's phone, saved and searched in any usual writing (${testDriver})`, () => {
  let t: TestContext;
  let client: TestClient;
  let companyId: number;

  beforeAll(async () => {
    t = await setupApp();
  });
  // each test in a company of its own (Uganda's, as the factories make them)
  beforeEach(async () => {
    const made = await companyWith(t);
    client = made.client;
    companyId = made.company.id;
  });
  afterAll(async () => {
    await t.app.close();
  });

  const create = (over: Record<string, unknown>) => client.post('/tenants', validTenant(over));
  const ids = async (q: string) =>
    expectStatus(await client.get(`/tenants?q=${encodeURIComponent(q)}&page_size=100`), 200)
      .json<Tenant[]>()
      .map((r) => r.id);

  it('saves every spelling as the same E.164 number, with the tenant’s country code or the company’s', async () => {
    for (const [i, phone] of SPELLINGS.entries()) {
      for (const country_code of ['+256', null]) {
        const res = await create({ phone, country_code, last_name: `Spelling${i}` });
        expect(res.statusCode, `${phone} ${country_code}: ${res.body}`).toBe(201);
        const saved = res.json<Tenant>();
        expect(saved.phone, phone).toBe(E164);
        expect(expectStatus(await client.get(`/tenants/${saved.id}`), 200).json<Tenant>().phone).toBe(E164);
      }
    }
    // a national number is the tenant's own country's when it has one
    const kenyan = expectStatus(await create({ phone: '0712 345 678', country_code: '+254' }), 201);
    expect(kenyan.json<Tenant>().phone).toBe('+254712345678');
    // a change is saved the same way
    const tenant = kenyan.json<Tenant>();
    const { id: _i, full_name: _f, portal_status: _p, created_at: _c, updated_at: _u, ...body } = tenant;
    const changed = expectStatus(
      await client.put(`/tenants/${tenant.id}`, { ...body, country_code: null, phone: '0701 234 567' }),
      200,
    );
    expect(changed.json<Tenant>().phone).toBe('+256701234567');
  });

  it('refuses a number that is not one of its country’s, and a malformed one, with their messages', async () => {
    const refused = async (over: Record<string, unknown>) => {
      const res = expectStatus(await create(over), 400);
      return res.json<{ code: string; fields: Record<string, string> }>();
    };
    // ten digits, the format's minimum, but one too many for a Ugandan number: not +2567721234567
    expect(await refused({ phone: '0772 1234 567' })).toMatchObject({
      code: 'validation_failed',
      fields: { phone: 'This is not a possible phone number for Uganda.' },
    });
    expect((await refused({ phone: '0712 3456 789', country_code: '+254' })).fields.phone).toBe(
      'This is not a possible phone number for Kenya.',
    );
    // too few digits (once read as +256077299887): the spec's format message
    for (const phone of ['0772 99887', '0772 123 456 ext', '12'])
      expect((await refused({ phone })).fields.phone, phone).toBe('Invalid phone number format.');
    // nothing was saved
    expect(await ids('0772')).toEqual([]);
  });

  it('asks for the +code when neither the tenant nor its company has a country', async () => {
    const other = await companyWith(t);
    await t.database.query('UPDATE companies SET country_code = NULL WHERE id = $1', [other.company.id]);
    const res = expectStatus(
      await other.client.post('/tenants', validTenant({ phone: '0772 123 456', country_code: null })),
      400,
    );
    expect(res.json<{ fields: Record<string, string> }>().fields.phone).toMatch(/with its country code/);
    const international = expectStatus(
      await other.client.post('/tenants', validTenant({ phone: '+256 772 123 456', country_code: null })),
      201,
    );
    expect(international.json<Tenant>().phone).toBe(E164);
  });

  it('finds the same tenant by any spelling of its phone, saved now or written before (as typed)', async () => {
    const saved = expectStatus(
      await create({ first_name: 'Saved', last_name: 'Now', phone: '0772 123 456' }),
      201,
    ).json<Tenant>();
    // a row from before phones were saved in E.164 keeps what was typed
    const [old] = await t.database.query<{ id: number }>(
      `INSERT INTO tenants (company_id, first_name, last_name, sex, country_code, phone, date_of_birth)
       VALUES ($1, 'Written', 'Before', 'M', '+256', '0701 234 567', '1980-01-01') RETURNING id`,
      [companyId],
    );
    const before = Number(old?.id);
    expectStatus(await create({ first_name: 'Someone', last_name: 'Else', phone: '0782 660 178' }), 201);

    for (const q of [
      '0772 123456',
      '0772123456',
      '+256 772 123 456',
      '772123456',
      '256772123456',
      '0772-123-456',
    ])
      expect(await ids(q), q).toEqual([saved.id]);
    for (const q of ['0701 234567', '0701234567', '+256 701 234 567', '701234567', '+256701234567'])
      expect(await ids(q), q).toEqual([before]);
    // part of a number, and names, as before
    expect(await ids('0772 12')).toEqual([saved.id]);
    expect(await ids('772 123')).toEqual([saved.id]);
    expect(await ids('Written Before')).toEqual([before]);
    expect(await ids('0799 999 999')).toEqual([]);
    // the export reads the same search
    const exported = expectStatus(
      await client.get(`/tenants/export?fmt=pdf&q=${encodeURIComponent('+256 772 123 456')}`),
      200,
    );
    const text = pdfText(exported.rawPayload);
    expect(text).toContain('Saved');
    expect(text).not.toContain('Someone');
    expect(text).not.toContain('Written');
  });
});
