import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  addDays,
  addMonths,
  agingBucket,
  daysBetween,
  defaultCompanySettings,
  localTime,
  OPENING_DATE_BEFORE_START,
  OPENING_DATE_IN_FUTURE,
  OPENING_DATE_REQUIRED,
} from '@kodi/domain';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { TestClient } from '../../test/client.ts';
import { validTenant, validUnit } from '../../test/entities.ts';
import { expectStatus } from '../../test/rent-cycle.ts';
import { pdfText } from '../../test/pdf-text.ts';
import { portalCompany, portalTenant } from '../../test/portal.ts';

/**
 * Opening balances (issue 25): a lease taken on with what its tenant owed (or had in credit) on a
 * date charges no rent for the periods due on or before it, and counts the opening balance in its
 * ledger, statement, arrears and the portal; creating or changing a lease answers its back rent.
 */
describe(`opening balances of leases (${testDriver})`, () => {
  let t: TestContext;
  let staff: TestClient;
  const today = localTime(defaultCompanySettings.timezone).date;
  // six months ago; the opening balance on the due day of the period due last month, so that one
  // rent charge (the one due this month, on or before today) is charged after it
  const start = addMonths(today, -6);
  const openedOn = addMonths(start, 5);
  const dueNow = addMonths(start, 6);

  beforeEach(async () => {
    t = await setupApp({ publicUrl: 'https://kodi.example' });
    ({ staff } = await portalCompany(t, 'Opening Homes'));
  });
  afterEach(async () => {
    await t.app.close();
  });

  let n = 0;
  const parties = async () => {
    n += 1;
    const unit = expectStatus(await staff.post('/units', validUnit({ name: `OB unit ${n}` })), 201).json<{
      id: number;
    }>();
    const tenant = expectStatus(
      await staff.post(
        '/tenants',
        validTenant({
          first_name: 'Ola',
          last_name: `Owner${n}`,
          email: `ob${n}@example.com`,
          phone: `+2567729${String(10000 + n).slice(-5)}`,
        }),
      ),
      201,
    ).json<{ id: number }>();
    return { tenant_id: tenant.id, unit_id: unit.id };
  };
  const createLease = async (terms: Record<string, unknown>) =>
    staff.post('/occupancy', { ...(await parties()), rent_cycle: 'monthly', rate: 500_000, ...terms });

  type Entry = { date: string; kind: string; description: string; amount: number; balance: number };
  const ledgerOf = async (id: number) =>
    expectStatus(await staff.get(`/occupancy/${id}/ledger`), 200).json<{
      balance: number;
      entries: Entry[];
    }>();

  it('charges no rent up to the opening balance date and counts the balance in the ledger, arrears, statement and portal', async () => {
    const created = expectStatus(
      await createLease({ start_date: start, opening_balance: 300_000, opening_balance_date: openedOn }),
      201,
    ).json<{ id: number; opening_balance: number; opening_balance_date: string; back_rent: unknown }>();
    expect(created).toMatchObject({ opening_balance: 300_000, opening_balance_date: openedOn });
    // one rent charge after the opening balance date: that is the back rent
    expect(created.back_rent).toEqual({ charges: 1, total: 500_000 });

    const ledger = await ledgerOf(created.id);
    expect(ledger.balance).toBe(800_000);
    expect(ledger.entries.map((e) => [e.date, e.kind, e.description, e.amount, e.balance])).toEqual([
      [openedOn, 'opening_balance', 'Opening balance', 300_000, 300_000],
      [dueNow, 'rent', expect.stringMatching(/^Rent /), 500_000, 800_000],
    ]);

    // the arrears: the opening balance ages from its date, the rent from its due day
    const arrears = expectStatus(await staff.get('/arrears'), 200).json<Record<string, unknown>[]>();
    const row = arrears.find((r) => r.occupancy_id === created.id);
    const buckets = { current: 0, days_1_30: 0, days_31_60: 0, days_61_90: 0, days_over_90: 0 };
    buckets[agingBucket(daysBetween(openedOn, today))] += 300_000;
    buckets[agingBucket(daysBetween(dueNow, today))] += 500_000;
    expect(row).toMatchObject({ balance: 800_000, ...buckets });
    const summary = expectStatus(await staff.get('/arrears/summary'), 200).json<{
      total: number;
      leases: number;
    }>();
    expect(summary.leases).toBe(1);
    expect(summary.total).toBe(800_000 - buckets.current);

    // the statement prints it
    const pdf = expectStatus(await staff.get(`/occupancy/${created.id}/statement.pdf`), 200);
    const text = pdfText(pdf.rawPayload);
    expect(text).toContain('Opening balance');
    expect(text).toMatch(/800,000/);

    // the tenant's portal owes the same
    const tenantId = (await staff.get(`/occupancy/${created.id}`)).json<{ tenant_id: number }>().tenant_id;
    const tenant = await portalTenant(t, staff, tenantId);
    const me = expectStatus(await tenant.get('/portal/me'), 200).json<{
      leases: { id: number; balance: number }[];
    }>();
    expect(me.leases.find((l) => l.id === created.id)?.balance).toBe(800_000);
  });

  it('counts a negative opening balance as a credit that pays the rent after it', async () => {
    const small = expectStatus(
      await createLease({ start_date: start, opening_balance: -200_000, opening_balance_date: openedOn }),
      201,
    ).json<{ id: number }>();
    const ledger = await ledgerOf(small.id);
    expect(ledger.entries[0]).toMatchObject({ kind: 'opening_balance', amount: -200_000, balance: -200_000 });
    expect(ledger.balance).toBe(300_000);
    const big = expectStatus(
      await createLease({ start_date: start, opening_balance: -700_000, opening_balance_date: openedOn }),
      201,
    ).json<{ id: number }>();
    expect((await ledgerOf(big.id)).balance).toBe(-200_000);
    // a credit larger than the rent: not in arrears; the smaller one leaves 300,000 of the rent due
    const arrears = expectStatus(await staff.get('/arrears'), 200).json<
      { occupancy_id: number; balance: number }[]
    >();
    expect(arrears.find((r) => r.occupancy_id === big.id)).toBeUndefined();
    const smallRow = arrears.find((r) => r.occupancy_id === small.id);
    if (daysBetween(dueNow, today) > 0) expect(smallRow?.balance).toBe(300_000);
    else expect(smallRow).toBeUndefined();
  });

  it('refuses an opening balance without its date, a date before the start and one in the future', async () => {
    const fields = async (terms: Record<string, unknown>) => {
      const res = expectStatus(await createLease({ start_date: start, ...terms }), 400);
      return res.json<{ code: string; fields: Record<string, string> }>();
    };
    expect(await fields({ opening_balance: 300_000 })).toMatchObject({
      code: 'validation_failed',
      fields: { opening_balance_date: OPENING_DATE_REQUIRED },
    });
    expect(
      (await fields({ opening_balance: 300_000, opening_balance_date: addDays(start, -1) })).fields,
    ).toEqual({ opening_balance_date: OPENING_DATE_BEFORE_START });
    expect(
      (await fields({ opening_balance: 300_000, opening_balance_date: addDays(today, 1) })).fields,
    ).toEqual({ opening_balance_date: OPENING_DATE_IN_FUTURE });
    // the date alone (nothing owed then) is an opening balance of nothing
    const dateOnly = expectStatus(
      await createLease({ start_date: start, opening_balance_date: openedOn }),
      201,
    ).json<{
      id: number;
      back_rent: { charges: number };
    }>();
    expect(dateOnly.back_rent.charges).toBe(1);
    expect((await ledgerOf(dateOnly.id)).balance).toBe(500_000);
  });

  it('answers the back rent on create and update', async () => {
    const yearAgo = addMonths(today, -12);
    const created = expectStatus(await createLease({ start_date: yearAgo }), 201).json<
      Record<string, unknown> & { id: number; version: number }
    >();
    expect(created.back_rent).toEqual({ charges: 13, total: 6_500_000 });
    const { back_rent: _b, ...record } = created;
    const updated = expectStatus(
      await staff.put(`/occupancy/${created.id}`, {
        ...record,
        opening_balance: 1_000_000,
        opening_balance_date: addMonths(yearAgo, 10),
      }),
      200,
    ).json<{ back_rent: unknown; opening_balance: number }>();
    expect(updated).toMatchObject({
      opening_balance: 1_000_000,
      back_rent: { charges: 2, total: 1_000_000 },
    });
    expect((await ledgerOf(created.id)).balance).toBe(2_000_000);
    // a lease starting today charges no back rent
    const fresh = expectStatus(await createLease({ start_date: today }), 201).json<{ back_rent: unknown }>();
    expect(fresh.back_rent).toEqual({ charges: 0, total: 0 });
  });
});
