import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedPhoneWarning, type PhoneCheck, type RoleName } from '@kodi/domain';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { validTenant } from '../../test/entities.ts';
import { companyWith, expectStatus } from '../../test/rent-cycle.ts';
import { TestClient } from '../../test/client.ts';

type Tenant = { id: number };

/** The tenant form's phone check (issue 26): a phone two tenants share is a warning, not an error. */
describe(`GET /tenants/phone-check (${testDriver})`, () => {
  let t: TestContext;
  let client: TestClient;
  let signIn: (roles: RoleName[]) => Promise<TestClient>;
  let grace: Tenant;
  let paul: Tenant;

  beforeAll(async () => {
    t = await setupApp();
    const made = await companyWith(t);
    client = made.client;
    signIn = made.signIn;
    grace = expectStatus(
      await client.post(
        '/tenants',
        validTenant({ first_name: 'Grace', last_name: 'Namuli', phone: '0772 123 456' }),
      ),
      201,
    ).json<Tenant>();
    paul = expectStatus(
      await client.post(
        '/tenants',
        validTenant({
          first_name: 'Paul',
          last_name: 'Okello',
          phone: '+256 772 123456',
          email: 'p@example.com',
        }),
      ),
      201,
    ).json<Tenant>();
  });
  afterAll(async () => {
    await t.app.close();
  });

  const check = async (c: TestClient, query: Record<string, string>) =>
    expectStatus(
      await c.get(`/tenants/phone-check?${new URLSearchParams(query).toString()}`),
      200,
    ).json<PhoneCheck>();

  it('names the tenants who have the number, however it is written, but the one being changed', async () => {
    expect(await check(client, { phone: '0772-123-456' })).toEqual({
      valid: true,
      e164: '+256772123456',
      shared_with: [
        { id: grace.id, name: 'Grace Namuli' },
        { id: paul.id, name: 'Paul Okello' },
      ],
    });
    // Grace's own form: only Paul has her phone
    expect(await check(client, { phone: '256772123456', except_id: String(grace.id) })).toEqual({
      valid: true,
      e164: '+256772123456',
      shared_with: [{ id: paul.id, name: 'Paul Okello' }],
    });
    // a number nobody has
    expect(await check(client, { phone: '0701 234 567' })).toEqual({
      valid: true,
      e164: '+256701234567',
      shared_with: [],
    });
    // the tenant's own country code reads a national number (a Kenyan one is not Grace's)
    expect(await check(client, { phone: '0772 123 456', country_code: '+254' })).toMatchObject({
      valid: true,
      e164: '+254772123456',
      shared_with: [],
    });
    expect(sharedPhoneWarning(['Paul Okello'])).toBe(
      'Paul Okello has this phone too: a payment from it cannot say whose it is.',
    );
  });

  it('says a number that is not one of its country’s is not valid, and names nobody', async () => {
    expect(await check(client, { phone: '0772 1234 567' })).toEqual({
      valid: false,
      e164: null,
      shared_with: [],
    });
    expect(await check(client, { phone: 'call me' })).toEqual({ valid: false, e164: null, shared_with: [] });
  });

  it('keeps to the session’s company', async () => {
    const other = await companyWith(t);
    expect(await check(other.client, { phone: '0772 123 456' })).toEqual({
      valid: true,
      e164: '+256772123456',
      shared_with: [],
    });
  });

  it('is for those who may edit tenants, and refuses a malformed request', async () => {
    const editor = await signIn(['editor']);
    expect((await check(editor, { phone: '0772 123 456' })).shared_with).toHaveLength(2);
    const viewer = await signIn(['viewer']);
    expectStatus(await viewer.get('/tenants/phone-check?phone=0772123456'), 403);
    expectStatus(await client.get('/tenants/phone-check?phone=0772123456&except_id=abc'), 400);
    expectStatus(await client.get('/tenants/phone-check'), 400);
    expectStatus(await client.get(`/tenants/phone-check?phone=${'1'.repeat(41)}`), 400);
    expectStatus(await new TestClient(t.app).get('/tenants/phone-check?phone=0772123456'), 401);
  });
});
