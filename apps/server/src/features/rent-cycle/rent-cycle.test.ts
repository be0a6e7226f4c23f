import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { TestClient } from '../../test/client.ts';
import {
  companyWith,
  createLease,
  expectStatus,
  lateFee,
  ledgerOf,
  pay,
  runCycle,
  setSettings,
} from '../../test/rent-cycle.ts';

type Fee = { date: string; kind: string; amount: number; rent_due_date: string | null; description: string };

describe(`the daily run (${testDriver})`, () => {
  let t: TestContext;
  beforeEach(async () => {
    t = await setupApp();
  });
  afterEach(async () => {
    await t.app.close();
  });

  const feesOf = async (client: TestClient, leaseId: number) =>
    expectStatus(await client.get(`/occupancy/${leaseId}/charges`), 200)
      .json<Fee[]>()
      .filter((c) => c.kind === 'late_fee')
      .map((c) => [c.date, c.rent_due_date, c.amount]);

  const messages = async (companyId: number) =>
    t.database.query<{
      event: string;
      channel: string;
      status: string;
      error: string | null;
      send_date: string;
      to: string | null;
    }>(
      `SELECT split_part(dedup_key, ':', 3) AS event, channel, status, error, to_char(send_date, 'YYYY-MM-DD') AS send_date, "to"
         FROM messages WHERE company_id = $1 ORDER BY send_date, event, channel`,
      [companyId],
    );

  it('posts each fee on its own date, once however often a day is run', async () => {
    const { client } = await companyWith(t);
    await setSettings(client, { late_fee: lateFee({ repeat: 'weekly', cap: 120_000 }) });
    const lease = await createLease(client, {
      start_date: '2026-03-01',
      end_date: '2026-03-31',
      rate: 1_000_000,
    });

    // due 1 March, grace 5: nothing on the 6th, a fee dated the 7th
    expect(await runCycle(client, '2026-03-06')).toEqual({
      as_of: '2026-03-06',
      late_fees_posted: 0,
      escalations_applied: 0,
      reminders_queued: 0,
      made: [],
      not_listed: 0,
    });
    expect((await runCycle(client, '2026-03-07')).late_fees_posted).toBe(1);
    expect(await feesOf(client, lease.id)).toEqual([['2026-03-07', '2026-03-01', 50_000]]);
    // the same day again: nothing the second time
    expect((await runCycle(client, '2026-03-07')).late_fees_posted).toBe(0);
    // weekly, within the cap of 120,000: 50,000 on the 14th, the 20,000 left on the 21st, then none
    expect((await runCycle(client, '2026-03-14')).late_fees_posted).toBe(1);
    expect((await runCycle(client, '2026-03-21')).late_fees_posted).toBe(1);
    expect((await runCycle(client, '2026-03-28')).late_fees_posted).toBe(0);
    expect(await feesOf(client, lease.id)).toEqual([
      ['2026-03-07', '2026-03-01', 50_000],
      ['2026-03-14', '2026-03-01', 50_000],
      ['2026-03-21', '2026-03-01', 20_000],
    ]);
    // the ledger and the arrears count them
    const ledger = await ledgerOf(client, lease.id, '2026-03-28');
    expect(ledger.balance).toBe(1_120_000);
    expect(ledger.entries.filter((e) => e.kind === 'late_fee').map((e) => e.description)).toEqual([
      'Late fee: rent due Mar 1, 2026',
      'Late fee: rent due Mar 1, 2026',
      'Late fee: rent due Mar 1, 2026',
    ]);
    const arrears = expectStatus(await client.get('/arrears?as_of=2026-03-28'), 200).json<
      { occupancy_id: number; balance: number; current: number; days_1_30: number }[]
    >();
    expect(arrears).toEqual([
      expect.objectContaining({
        occupancy_id: lease.id,
        balance: 1_120_000,
        current: 0,
        days_1_30: 1_120_000,
      }),
    ]);
  });

  it('counts a partial payment before the fee day, follows a percent policy, and leaves paid and exempt leases alone', async () => {
    const { client } = await companyWith(t);
    await setSettings(client, { late_fee: lateFee({ kind: 'percent', amount: 10, grace_days: 0 }) });
    const part = await createLease(client, { start_date: '2026-03-01', rate: 1_000_000 });
    await pay(client, part, '2026-03-01', 400_000);
    const paid = await createLease(client, { start_date: '2026-03-01', rate: 1_000_000 });
    await pay(client, paid, '2026-03-01', 1_000_000);
    const exempt = await createLease(client, {
      start_date: '2026-03-01',
      rate: 1_000_000,
      late_fee_exempt: true,
    });
    // a lease with its own policy: flat 7,000
    const own = await createLease(client, { start_date: '2026-03-01', rate: 1_000_000 });
    expectStatus(
      await client.put(`/occupancy/${own.id}/late-fee`, {
        late_fee: lateFee({ amount: 7_000, grace_days: 0 }),
      }),
      200,
    );
    expect((await runCycle(client, '2026-03-02')).late_fees_posted).toBe(2);
    expect(await feesOf(client, part.id)).toEqual([['2026-03-02', '2026-03-01', 60_000]]);
    expect(await feesOf(client, paid.id)).toEqual([]);
    expect(await feesOf(client, exempt.id)).toEqual([]);
    expect(await feesOf(client, own.id)).toEqual([['2026-03-02', '2026-03-01', 7_000]]);
    const policy = expectStatus(await client.get(`/occupancy/${exempt.id}/late-fee`), 200).json();
    expect(policy).toMatchObject({ late_fee_exempt: true, effective: null });
  });

  it('catches up after 10 days: missed fees with their own dates, late reminders skipped as stale', async () => {
    const { client, company } = await companyWith(t);
    await setSettings(client, {
      late_fee: lateFee({ repeat: 'weekly' }),
      reminders: [
        { event: 'overdue', days: 10, channels: ['email'] },
        { event: 'overdue', days: 15, channels: ['email', 'sms'] },
      ],
    });
    const lease = await createLease(
      client,
      { start_date: '2026-03-01', end_date: '2026-03-31', rate: 1_000_000 },
      { first: 'Jane', last: 'Doe', unit: 'A3' },
    );
    expect((await runCycle(client, '2026-03-07')).late_fees_posted).toBe(1);
    // ten days down: the run of the 17th does the 8th to the 17th; it says for whom (issue 26)
    const caught = await runCycle(client, '2026-03-17');
    const made = { occupancy_id: lease.id, tenant_name: 'Jane Doe', unit_name: 'A3' };
    expect(caught).toEqual({
      as_of: '2026-03-17',
      late_fees_posted: 1,
      escalations_applied: 0,
      reminders_queued: 2,
      made: [
        { ...made, kind: 'late_fee', date: '2026-03-14', amount: 50_000, channel: null, status: null },
        { ...made, kind: 'reminder', date: '2026-03-11', amount: null, channel: 'email', status: 'skipped' },
        { ...made, kind: 'reminder', date: '2026-03-16', amount: null, channel: 'email', status: 'queued' },
        { ...made, kind: 'reminder', date: '2026-03-16', amount: null, channel: 'sms', status: 'queued' },
      ],
      not_listed: 0,
    });
    expect(await feesOf(client, lease.id)).toEqual([
      ['2026-03-07', '2026-03-01', 50_000],
      ['2026-03-14', '2026-03-01', 50_000],
    ]);
    // the reminder of the 11th is 6 days late: recorded as skipped, never sent; those of the 16th go
    expect(await messages(company.id)).toEqual([
      expect.objectContaining({
        event: 'overdue',
        channel: 'email',
        send_date: '2026-03-11',
        status: 'skipped',
        error: 'stale',
      }),
      expect.objectContaining({
        event: 'overdue',
        channel: 'email',
        send_date: '2026-03-16',
        status: 'queued',
        error: null,
      }),
      expect.objectContaining({
        event: 'overdue',
        channel: 'sms',
        send_date: '2026-03-16',
        status: 'queued',
        to: '+256772123456',
      }),
    ]);
    // run again: nothing new, nothing queued twice
    expect(await runCycle(client, '2026-03-17')).toMatchObject({ late_fees_posted: 0, reminders_queued: 0 });
    expect(await messages(company.id)).toHaveLength(3);
    const runs = await t.database.query<{ from_date: string; as_of: string }>(
      `SELECT to_char(from_date, 'YYYY-MM-DD') AS from_date, to_char(as_of, 'YYYY-MM-DD') AS as_of
         FROM rent_cycle_runs WHERE company_id = $1 ORDER BY id`,
      [company.id],
    );
    expect(runs).toEqual([
      { from_date: '2026-03-07', as_of: '2026-03-07' },
      { from_date: '2026-03-08', as_of: '2026-03-17' },
      { from_date: '2026-03-17', as_of: '2026-03-17' },
    ]);
  });

  it('queues reminders before and on the due date for what is unpaid, rendered from the templates', async () => {
    const { client, company } = await companyWith(t);
    await setSettings(client, {
      reminders: [
        { event: 'before_due', days: 3, channels: ['email'], template_id: 12 },
        { event: 'due', days: 0, channels: ['email'] },
      ],
    });
    const lease = await createLease(client, { start_date: '2026-03-01', rate: 250_000 }, { first: 'Amina' });
    const noEmail = await createLease(client, { start_date: '2026-03-01', rate: 250_000 }, { email: null });
    await pay(client, lease, '2026-02-27', 100_000);
    expect((await runCycle(client, '2026-03-29')).reminders_queued).toBe(1);
    const rows = await t.database.query<{
      occupancy_id: number;
      status: string;
      error: string | null;
      subject: string;
      body: string;
      template_id: number | null;
    }>(
      `SELECT occupancy_id, status, error, subject, body, template_id FROM messages WHERE company_id = $1 ORDER BY occupancy_id`,
      [company.id],
    );
    expect(rows).toEqual([
      expect.objectContaining({
        occupancy_id: lease.id,
        status: 'queued',
        // template 12 is no template of the company: its first template of that event and channel
        template_id: expect.any(Number),
        subject: expect.stringContaining('Rent reminder'),
      }),
      expect.objectContaining({ occupancy_id: noEmail.id, status: 'skipped', error: 'no_address' }),
    ]);
    expect(rows[0]?.body).toMatch(
      /^Dear Amina,\n\nThis is a friendly reminder that your rent of UGX\s*250,000 for Unit \d+ is due on Apr 1, 2026\. Your balance is UGX\s*150,000\./,
    );
    // on the 1st the due-date reminder (the rent of April is unpaid; March's paid in part counts first)
    expect((await runCycle(client, '2026-04-01')).reminders_queued).toBe(1);
  });

  it('takes two reminders of one event and day on different channels, and sends both; refuses a channel twice', async () => {
    const { client, company } = await companyWith(t);
    // an e-mail template and an SMS template, both two days after the due date (issue 26)
    await setSettings(client, {
      reminders: [
        { event: 'overdue', days: 2, channels: ['email'] },
        { event: 'overdue', days: 2, channels: ['sms'] },
      ],
    });
    const settings = expectStatus(await client.get('/company-settings'), 200).json<{
      version: number;
      reminders: { event: string; days: number; channels: string[] }[];
    }>();
    expect(settings.reminders.map((r) => [r.event, r.days, r.channels])).toEqual([
      ['overdue', 2, ['email']],
      ['overdue', 2, ['sms']],
    ]);
    // the same channel twice on one day is still refused, whichever rule names it
    for (const second of [['email'], ['sms', 'email']]) {
      const refused = await client.put('/company-settings', {
        reminders: [
          { event: 'overdue', days: 2, channels: ['email'] },
          { event: 'overdue', days: 2, channels: second },
        ],
        version: settings.version,
      });
      expect(refused.statusCode).toBe(400);
      expect(Object.values(refused.json<{ fields: Record<string, string> }>().fields)).toEqual([
        'This reminder is there already.',
      ]);
    }
    const lease = await createLease(client, { start_date: '2026-03-01', rate: 250_000 });
    expect((await runCycle(client, '2026-03-03')).reminders_queued).toBe(2);
    const rows = await t.database.query<{ occupancy_id: number; channel: string; status: string }>(
      `SELECT occupancy_id, channel, status FROM messages WHERE company_id = $1 AND kind = 'reminder' ORDER BY channel`,
      [company.id],
    );
    expect(rows).toEqual([
      { occupancy_id: lease.id, channel: 'email', status: 'queued' },
      { occupancy_id: lease.id, channel: 'sms', status: 'queued' },
    ]);
  });

  it('turns an escalation rule into rate changes on their dates, charged from that period on', async () => {
    const { client } = await companyWith(t);
    const lease = await createLease(client, {
      start_date: '2025-03-10',
      rate: 1_000_000,
      escalation_percent: 10,
      escalation_every_months: 12,
    });
    expect((await runCycle(client, '2026-03-09')).escalations_applied).toBe(0);
    expect(await runCycle(client, '2026-03-10')).toMatchObject({
      escalations_applied: 1,
      made: [expect.objectContaining({ kind: 'rent_increase', occupancy_id: lease.id, amount: 1_100_000 })],
    });
    expect((await runCycle(client, '2026-03-10')).escalations_applied).toBe(0);
    const changes = expectStatus(await client.get(`/occupancy/${lease.id}/rate-changes`), 200).json();
    expect(changes).toEqual([
      expect.objectContaining({
        effective_date: '2026-03-10',
        rate: 1_100_000,
        source: 'escalation',
        user_id: null,
      }),
    ]);
    const ledger = await ledgerOf(client, lease.id, '2026-04-10');
    expect(
      ledger.entries
        .filter((e) => e.kind === 'rent')
        .slice(-3)
        .map((e) => [e.date, e.amount]),
    ).toEqual([
      ['2026-02-10', 1_000_000],
      ['2026-03-10', 1_100_000],
      ['2026-04-10', 1_100_000],
    ]);
  });

  it('runs for the session’s company only, for its admins and company admins', async () => {
    const a = await companyWith(t, ['company_admin']);
    const b = await companyWith(t);
    for (const c of [a, b]) {
      const admin = c === a ? await c.signIn(['admin']) : c.client;
      await setSettings(admin, { late_fee: lateFee() });
    }
    const leaseA = await createLease(await a.signIn(['editor']), { start_date: '2026-03-01', rate: 1_000 });
    const leaseB = await createLease(b.client, { start_date: '2026-03-01', rate: 1_000 });
    expect((await runCycle(a.client, '2026-03-07')).late_fees_posted).toBe(1);
    expect(await feesOf(a.client, leaseA.id)).toHaveLength(1);
    expect(await feesOf(b.client, leaseB.id)).toEqual([]);
    // another company's lease is not found
    expect((await a.client.get(`/occupancy/${leaseB.id}/charges`)).statusCode).toBe(404);
    for (const roles of [['editor'], ['viewer']] as const) {
      const c = await a.signIn([...roles]);
      const res = await c.post('/rent-cycle/run', { as_of: '2026-03-07' });
      expect(res.statusCode, roles[0]).toBe(403);
      expect(res.json()).toMatchObject({ code: 'forbidden' });
    }
    expect((await (await a.signIn([])).post('/rent-cycle/run', {})).json()).toMatchObject({
      code: 'no_role',
    });
    expect((await new TestClient(t.app).post('/rent-cycle/run', {})).statusCode).toBe(403); // no CSRF token
  });

  it('runs today without as_of, and refuses as_of in production', async () => {
    const { client } = await companyWith(t);
    const today = await runCycle(client);
    expect(today.as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await t.app.close();
    t = await setupApp({ nodeEnv: 'production' });
    const prod = await companyWith(t);
    const res = await prod.client.post('/rent-cycle/run', { as_of: '2026-03-07' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed', fields: { as_of: expect.any(String) } });
    expect((await runCycle(prod.client)).as_of).toBe(today.as_of);
  });
});
