import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Announcement, PortalAnnouncements } from '@kodi/domain';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { TestClient } from '../../test/client.ts';
import { buildUser } from '../../test/factories.ts';
import { validTenant, validUnit } from '../../test/entities.ts';
import { expectStatus } from '../../test/rent-cycle.ts';
import { portalCompany, portalTenant } from '../../test/portal.ts';
import { startSmsServer, startSmtpReceiver, type SmsServer } from '../../test/message-servers.ts';
import { createMessageSender, type MessageSender } from '../../modules/messaging/sender.ts';
import { hostileBody, hostileRuns } from '../../reliability/hostile.ts';
import { errorShapeProblem } from '../../reliability/world.ts';

const { runs: RUNS } = hostileRuns({ announcements: 40 }, 20261128);

type Row = {
  tenant_id: number;
  channel: string;
  status: string;
  error: string | null;
  to: string | null;
  body: string;
};

let n = 0;
const key = () => `announce-key-${Date.now()}-${++n}`;

/** Announcements (issue 29): to every tenant of a property or of the company, once, counted. */
describe(`announcements (${testDriver})`, { timeout: 120_000 }, () => {
  let t: TestContext;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let sms: SmsServer;
  let sender: MessageSender;
  let A: Awaited<ReturnType<typeof portalCompany>>;
  let B: Awaited<ReturnType<typeof portalCompany>>;
  let north: number;
  let south: number;
  let otherCompanyProperty: number;
  /** tenants of company A: two leases on North; one on South; an ended one on North; one opted out of SMS, without e-mail */
  let twoLeases: number;
  let southTenant: number;
  let ended: number;
  let quiet: number;
  let bTenant: number;

  const property = async (staff: TestClient, name: string) =>
    expectStatus(await staff.post('/properties', { name, address: `${name} road` }), 201).json<{
      id: number;
    }>().id;
  const tenant = async (staff: TestClient, overrides: Record<string, unknown> = {}) => {
    n += 1;
    return expectStatus(
      await staff.post(
        '/tenants',
        validTenant({
          first_name: 'Ann',
          last_name: `Tenant${n}`,
          email: `ann${n}@example.com`,
          phone: `+2567722${String(10000 + n).slice(-5)}`,
          ...overrides,
        }),
      ),
      201,
    ).json<{ id: number }>().id;
  };
  const lease = async (
    staff: TestClient,
    tenantId: number,
    propertyId: number,
    dates: { start_date: string; end_date?: string } = { start_date: '2026-01-01' },
  ) => {
    n += 1;
    const unit = expectStatus(
      await staff.post('/units', validUnit({ name: `Unit ${n}`, property_id: propertyId })),
      201,
    ).json<{ id: number }>();
    expectStatus(
      await staff.post('/occupancy', {
        tenant_id: tenantId,
        unit_id: unit.id,
        rent_cycle: 'monthly',
        rate: 500_000,
        ...dates,
      }),
      201,
    );
  };
  const roleClient = async (companyId: number, role: 'viewer' | 'editor' | 'company_admin') => {
    const u = await buildUser(t.database, { company_id: companyId, roles: [role] });
    const c = new TestClient(t.app);
    expectStatus(await c.login(u.email, u.password), 200);
    return c;
  };
  const messagesOf = (announcementId: number) =>
    t.database.query<Row>(
      `SELECT tenant_id, channel, status, error, "to", body FROM messages WHERE announcement_id = $1 ORDER BY tenant_id, channel`,
      [announcementId],
    );
  const listOf = async (c: TestClient) =>
    expectStatus(await c.get('/announcements'), 200).json<Announcement[]>();

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    sms = await startSmsServer('africastalking');
    t = await setupApp({ smtpUrl: smtp.url, smsUrl: sms.url });
    sender = createMessageSender(t.database, t.config, { intervalMs: 0, retryBaseSeconds: 0 });
    A = await portalCompany(t, 'Announce Homes');
    B = await portalCompany(t, 'Other Homes');
    north = await property(A.staff, 'North Court');
    south = await property(A.staff, 'South Court');
    otherCompanyProperty = await property(B.staff, 'Bravo Court');
    twoLeases = await tenant(A.staff);
    await lease(A.staff, twoLeases, north);
    await lease(A.staff, twoLeases, north);
    southTenant = await tenant(A.staff);
    await lease(A.staff, southTenant, south);
    ended = await tenant(A.staff);
    await lease(A.staff, ended, north, { start_date: '2025-01-01', end_date: '2025-06-30' });
    quiet = await tenant(A.staff, { email: null, notify_sms: false });
    await lease(A.staff, quiet, north);
    bTenant = await tenant(B.staff);
    await lease(B.staff, bTenant, otherCompanyProperty);
  }, 120_000);
  afterAll(async () => {
    await sender.stop();
    await t.app.close();
    await smtp.stop();
    await sms.stop();
  });

  let northId: number;

  it("reaches every active tenant of the property once per channel: two leases once, another property's and an ended lease's not", async () => {
    const res = await A.staff.post('/announcements', {
      property_id: north,
      channels: ['email', 'sms'],
      subject: 'Water off on Saturday',
      body: 'The water will be off from 9 to 12 on Saturday.',
      idempotency_key: key(),
    });
    const sent = expectStatus(res, 201).json<Announcement>();
    northId = sent.id;
    expect(sent).toMatchObject({
      property_id: north,
      property_name: 'North Court',
      channels: ['email', 'sms'],
      subject: 'Water off on Saturday',
      recipients: 2,
    });
    const rows = await messagesOf(sent.id);
    expect(rows.map((r) => [r.tenant_id, r.channel, r.status, r.error])).toEqual(
      [
        [twoLeases, 'email', 'queued', null],
        [twoLeases, 'sms', 'queued', null],
        // no e-mail address; opted out of SMS: logged as skipped with the reason
        [quiet, 'email', 'skipped', 'no_address'],
        [quiet, 'sms', 'skipped', 'opted_out'],
      ].sort((a, b) => Number(a[0]) - Number(b[0])),
    );
    expect(rows.some((r) => r.tenant_id === southTenant || r.tenant_id === ended)).toBe(false);
    expect(sent.counts).toEqual({
      email: { queued: 1, sent: 0, failed: 0, skipped: 1 },
      sms: { queued: 1, sent: 0, failed: 0, skipped: 1 },
    });
    // the log says why in words, and lists them among the messages
    const log = expectStatus(await A.staff.get('/messages?kind=announcement'), 200).json<
      { reason: string | null; error: string | null }[]
    >();
    expect(log).toHaveLength(4);
    expect(log.find((m) => m.error === 'opted_out')?.reason).toBe(
      'The tenant chose not to get messages by SMS.',
    );
    // an audit entry says it was sent
    const audit = await t.database.query<{ action: string; summary: string }>(
      `SELECT action, summary FROM audit_entries WHERE company_id = $1 AND entity = 'announcements' AND record_id = $2`,
      [A.company.id, sent.id],
    );
    expect(audit).toEqual([
      { action: 'create', summary: 'Announcement sent to 2 tenants: Water off on Saturday' },
    ]);
  });

  it('is sent by the outbox’s sender and counted in GET /announcements', async () => {
    await sender.drain();
    const [latest] = await listOf(A.staff);
    expect(latest?.id).toBe(northId);
    expect(latest?.counts).toEqual({
      email: { queued: 0, sent: 1, failed: 0, skipped: 1 },
      sms: { queued: 0, sent: 1, failed: 0, skipped: 1 },
    });
    expect(
      smtp.received.some((m) => m.to.includes(`ann${twoLeases}@example.com`) || m.raw.includes('Water off')),
    ).toBe(true);
    expect(sms.requests.filter((r) => r.form.message?.includes('Water off on Saturday'))).toHaveLength(1);
  });

  it('answers the same idempotency key again with the one already sent, queueing nothing more', async () => {
    const body = {
      channels: ['sms'],
      subject: 'Office closed',
      body: 'The office is closed on Monday.',
      idempotency_key: key(),
    };
    const first = expectStatus(await A.staff.post('/announcements', body), 201).json<Announcement>();
    const again = expectStatus(await A.staff.post('/announcements', body), 200).json<Announcement>();
    expect(again.id).toBe(first.id);
    expect(await messagesOf(first.id)).toHaveLength(3);
  });

  it('reaches every active tenant of the company when no property is given, each once', async () => {
    const sent = expectStatus(
      await A.staff.post('/announcements', {
        property_id: null,
        channels: ['email'],
        subject: 'New office hours',
        body: 'We open at 8 from Monday.',
        idempotency_key: key(),
      }),
      201,
    ).json<Announcement>();
    expect(sent).toMatchObject({ property_id: null, property_name: null, recipients: 3 });
    const rows = await messagesOf(sent.id);
    expect(rows.map((r) => r.tenant_id)).toEqual([twoLeases, southTenant, quiet].sort((a, b) => a - b));
    // another company's list shows none of it
    expect((await listOf(B.staff)).map((a) => a.subject)).not.toContain('New office hours');
    // paged like the other lists, newest first, with the total in X-Total-Count
    const page = expectStatus(await A.staff.get('/announcements?page=2&page_size=1'), 200);
    expect(page.headers['x-total-count']).toBe('3');
    expect(page.json<Announcement[]>().map((a) => a.subject)).toEqual(['Office closed']);
  });

  it('shows a tenant in the portal the announcements sent to it, newest first; another’s tenant none of them', async () => {
    const south1 = expectStatus(
      await A.staff.post('/announcements', {
        property_id: south,
        channels: ['sms'],
        subject: 'South gate repairs',
        body: 'The gate is repaired on Tuesday.',
        idempotency_key: key(),
      }),
      201,
    ).json<Announcement>();
    const northClient = await portalTenant(t, A.staff, twoLeases);
    const seen = expectStatus(
      await northClient.get('/portal/announcements'),
      200,
    ).json<PortalAnnouncements>();
    expect(seen.rows.map((a) => a.subject)).toEqual([
      'New office hours',
      'Office closed',
      'Water off on Saturday',
    ]);
    expect(seen.rows[2]).toMatchObject({ property_name: 'North Court' });
    expect(seen.total).toBe(3);
    const southClient = await portalTenant(t, A.staff, southTenant);
    const southSeen = expectStatus(
      await southClient.get('/portal/announcements'),
      200,
    ).json<PortalAnnouncements>();
    expect(southSeen.rows.map((a) => a.id)).toContain(south1.id);
    expect(southSeen.rows.map((a) => a.subject)).not.toContain('Water off on Saturday');
    const bClient = await portalTenant(t, B.staff, bTenant);
    const bSeen = expectStatus(await bClient.get('/portal/announcements'), 200).json<PortalAnnouncements>();
    expect(bSeen).toMatchObject({ rows: [], total: 0 });
    // staff are refused the portal's list
    expect((await A.staff.get('/portal/announcements')).statusCode).toBe(403);
  });

  it('lets admins and editors send, any staff read; a viewer and a company admin are refused (403)', async () => {
    const body = () => ({
      channels: ['email'],
      subject: 'Hello',
      body: 'Hello all.',
      idempotency_key: key(),
    });
    const viewer = await roleClient(A.company.id, 'viewer');
    const companyAdmin = await roleClient(A.company.id, 'company_admin');
    const editor = await roleClient(A.company.id, 'editor');
    for (const c of [viewer, companyAdmin]) {
      const res = await c.post('/announcements', body());
      expect(res.statusCode).toBe(403);
      expect(res.json<{ code: string }>().code).toBe('forbidden');
      expect((await listOf(c)).length).toBeGreaterThan(0);
    }
    expectStatus(await editor.post('/announcements', body()), 201);
    const tenantClient = await portalTenant(t, A.staff, ended);
    expect((await tenantClient.post('/announcements', body())).statusCode).toBe(403);
    expect((await tenantClient.get('/announcements')).statusCode).toBe(403);
  });

  it("answers another company's property (or none) with 404, sending nothing", async () => {
    const before = await t.database.query<{ n: number }>('SELECT count(*)::int AS n FROM announcements');
    for (const id of [otherCompanyProperty, 2_000_000_000]) {
      const res = await A.staff.post('/announcements', {
        property_id: id,
        channels: ['email'],
        subject: 'Not yours',
        body: 'Not yours.',
        idempotency_key: key(),
      });
      expect(res.statusCode).toBe(404);
      expect(res.json<{ code: string; error: string }>()).toMatchObject({
        code: 'not_found',
        error: 'Property not found.',
      });
    }
    const after = await t.database.query<{ n: number }>('SELECT count(*)::int AS n FROM announcements');
    expect(after[0]?.n).toBe(before[0]?.n);
  });

  it('never answers hostile bodies with a 5xx; a refused one saves nothing', async () => {
    const base = () => ({
      property_id: north,
      channels: ['email', 'sms'],
      subject: 'Notice',
      body: 'A notice.',
      idempotency_key: key(),
    });
    const counts = async () =>
      (
        await t.database.query<{ a: number; m: number }>(
          `SELECT (SELECT count(*)::int FROM announcements) AS a, (SELECT count(*)::int FROM messages) AS m`,
        )
      )[0];
    await fc.assert(
      fc.asyncProperty(hostileBody(Object.keys(base()), base), async (raw) => {
        const before = await counts();
        const res = await A.staff.request('POST', '/announcements', raw, {
          'content-type': 'application/json',
        });
        expect([200, 201, 400, 404, 413, 415], `${res.statusCode} ${res.body.slice(0, 200)}`).toContain(
          res.statusCode,
        );
        if (res.statusCode >= 400) {
          expect(errorShapeProblem(res)).toBeUndefined();
          expect(await counts()).toEqual(before);
        }
      }),
      { numRuns: RUNS.announcements },
    );
  });

  it('refuses no channel, an unknown channel, an empty subject or body, with clear messages', async () => {
    const res = await A.staff.post('/announcements', {
      channels: [],
      subject: ' ',
      body: '',
      idempotency_key: key(),
    });
    expect(res.statusCode).toBe(400);
    const answer = res.json<{ code: string; fields: Record<string, string> }>();
    expect(answer.code).toBe('validation_failed');
    expect(answer.fields).toMatchObject({
      channels: 'Choose at least one channel.',
      subject: 'The subject is required.',
      body: 'The message is required.',
    });
    const unknown = await A.staff.post('/announcements', {
      channels: ['fax'],
      subject: 'S',
      body: 'B',
      idempotency_key: key(),
    });
    expect(unknown.statusCode).toBe(400);
    expect(JSON.stringify(unknown.json())).toContain("Use 'email', 'sms'");
    const noKey = await A.staff.post('/announcements', { channels: ['sms'], subject: 'S', body: 'B' });
    expect(noKey.statusCode).toBe(400);
    expect(noKey.json<{ fields: Record<string, string> }>().fields.idempotency_key).toMatch(/^Required/);
  });
});
