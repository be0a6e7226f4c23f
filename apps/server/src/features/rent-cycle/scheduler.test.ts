import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { companyWith, createLease, lateFee, setSettings } from '../../test/rent-cycle.ts';
import { companiesDue, startRentCycleScheduler, type RentCycleScheduler } from './scheduler.ts';

/** Waits until `check` holds (the job runner polls every second here). */
const eventually = async (check: () => Promise<boolean>, ms = 30_000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 200));
  }
};

describe(`the daily run's scheduler (${testDriver})`, { timeout: 90_000 }, () => {
  let t: TestContext;
  const schedulers: RentCycleScheduler[] = [];
  beforeEach(async () => {
    t = await setupApp();
  });
  afterEach(async () => {
    await Promise.all(schedulers.splice(0).map((s) => s.stop()));
    await t.app.close();
  });

  it('finds each company due at its own hour in its own time zone', async () => {
    const kampala = await companyWith(t); // the defaults: Africa/Kampala (UTC+3), 6 o'clock
    const la = await companyWith(t);
    await setSettings(la.client, { timezone: 'America/Los_Angeles', daily_run_hour: 23 });
    // 02:30 UTC: 05:30 in Kampala (not yet), 19:30 the day before in Los Angeles (not yet)
    expect(await companiesDue(t.database, new Date('2026-03-07T02:30:00Z'))).toEqual([]);
    // 03:00 UTC: 06:00 in Kampala
    expect(await companiesDue(t.database, new Date('2026-03-07T03:00:00Z'))).toEqual([
      { company_id: kampala.company.id, as_of: '2026-03-07' },
    ]);
    // 07:10 UTC: 23:10 on the 6th in Los Angeles
    expect(await companiesDue(t.database, new Date('2026-03-07T07:10:00Z'))).toEqual([
      { company_id: kampala.company.id, as_of: '2026-03-07' },
      { company_id: la.company.id, as_of: '2026-03-06' },
    ]);
  });

  it('runs a company’s day once, with two schedulers on one database', async () => {
    const { client, company } = await companyWith(t);
    await setSettings(client, { late_fee: lateFee(), timezone: 'UTC', daily_run_hour: 6 });
    const lease = await createLease(client, { start_date: '2026-03-01', rate: 1_000_000 });
    const now = () => new Date('2026-03-07T09:00:00Z');
    for (let i = 0; i < 2; i++) {
      schedulers.push(await startRentCycleScheduler(t.database, { tickSeconds: 1, now }));
    }
    const runs = () =>
      t.database.query<{ trigger: string; late_fees_posted: number }>(
        `SELECT trigger, late_fees_posted FROM rent_cycle_runs WHERE company_id = $1`,
        [company.id],
      );
    await eventually(async () => (await runs()).length > 0);
    // both keep ticking: the day is done, nothing more is queued or run
    await Promise.all(schedulers.map((s) => s.tick()));
    await new Promise((r) => setTimeout(r, 2_500));
    expect(await runs()).toEqual([{ trigger: 'schedule', late_fees_posted: 1 }]);
    expect(await Promise.all(schedulers.map((s) => s.tick()))).toEqual([0, 0]);
    const fees = await t.database.query(
      `SELECT to_char(date, 'YYYY-MM-DD') AS date FROM charges WHERE company_id = $1 AND occupancy_id = $2`,
      [company.id, lease.id],
    );
    expect(fees).toEqual([{ date: '2026-03-07' }]);
  });
});
