import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupApp, testDriver, type TestContext } from '../test/harness.ts';
import type { TestClient } from '../test/client.ts';
import { expectStatus } from '../test/rent-cycle.ts';
import { portalCompany, portalTenant, tenantWithLease } from '../test/portal.ts';
import { errorShapeProblem } from './world.ts';

/**
 * Rows the checks now keep out, stored before they did (issue 23, item 3): the payment webhook took
 * `paid_at` `+275760-09-13` and `-271821-04-20` and stored lines (and, matched, payments) of years
 * 275760 and 271822 that PostgreSQL's `date` holds but YYYY-MM-DD cannot write; after that
 * `GET /statement-lines` answered 500 on every page. Put in directly in SQL here, with the earliest
 * date PostgreSQL holds: every GET of the API that reads them answers, never a 5xx, and the lists
 * that show them answer 200 with a date they can read (the nearest one YYYY-MM-DD writes).
 */

/** The dates PostgreSQL's `date` holds that YYYY-MM-DD cannot write. */
const EXTREMES = ['275760-09-13', '271822-04-20', '4713-01-01 BC', '5874897-12-31'] as const;

type Doc = { paths: Record<string, Record<string, { parameters?: { in: string; name: string }[] }>> };

describe(`stored rows with dates out of range never make an answer a 500 (${testDriver})`, () => {
  let t: TestContext;
  let staff: TestClient;
  let tenant: TestClient;
  let world: Awaited<ReturnType<typeof tenantWithLease>>;
  const lineIds: number[] = [];
  let matchedLine = 0;
  const paymentIds: number[] = [];

  beforeAll(async () => {
    t = await setupApp();
    const company = await portalCompany(t, 'Extreme Estates');
    staff = company.staff;
    world = await tenantWithLease(staff);
    tenant = await portalTenant(t, staff, world.tenantId);
    const companyId = company.company.id;
    // lines of the webhook, of a statement and matched by hand, then their dates (and their payments') moved
    const made = await t.database.query<{ id: number }>(
      `INSERT INTO statement_lines (company_id, source, transaction_id, date, amount, direction, payer_phone, status)
       SELECT $1, 'webhook', 'EXTREME-' || n, DATE '2026-02-10', 1000 * n, 'in', $2, 'unmatched'
         FROM generate_series(1, ${EXTREMES.length + 1}) AS n
       RETURNING id`,
      [companyId, world.phone],
    );
    lineIds.push(...made.map((r) => Number(r.id)));
    matchedLine = lineIds[EXTREMES.length] ?? 0;
    expectStatus(
      await staff.post(`/statement-lines/${matchedLine}/match`, {
        allocations: [{ occupancy_id: world.leaseId, amount: 1000 * (EXTREMES.length + 1) }],
      }),
      200,
    );
    const [posted] = await t.database.query<{ payment_id: number }>(
      'SELECT payment_id FROM statement_line_payments WHERE line_id = $1',
      [matchedLine],
    );
    paymentIds.push(Number(posted?.payment_id), world.paymentId);
    for (const [i, date] of EXTREMES.entries())
      await t.database.query('UPDATE statement_lines SET date = $2::date WHERE id = $1', [lineIds[i], date]);
    await t.database.query(`UPDATE statement_lines SET date = DATE '275760-09-13' WHERE id = $1`, [
      matchedLine,
    ]);
    for (const [id, date] of [
      [paymentIds[0], '275760-09-13'],
      [paymentIds[1], '4713-01-01 BC'],
    ] as const)
      await t.database.query(
        `UPDATE payments SET payment_date = $2::date, effective_start_date = $2::date, effective_end_date = $2::date
          WHERE id = $1`,
        [id, date],
      );
    const stored = await t.database.query<{ date: string }>(
      `SELECT date::text AS date FROM statement_lines WHERE id = ANY($1::int[]) ORDER BY id`,
      [`{${lineIds.join(',')}}`],
    );
    expect(stored.map((r) => r.date)).toEqual([
      '275760-09-13',
      '271822-04-20',
      '4713-01-01 BC',
      '5874897-12-31',
      '275760-09-13',
    ]);
  }, 120_000);
  afterAll(async () => {
    await t?.app.close();
  });

  it('lists them with the nearest date YYYY-MM-DD writes: statement lines, payments, the ledger', async () => {
    for (const sort of ['open', 'date', '-date', 'amount', 'id']) {
      const res = expectStatus(await staff.get(`/statement-lines?sort=${sort}&page_size=2&page=2`), 200);
      expect(res.headers['x-total-count']).toBe(String(EXTREMES.length + 1));
    }
    const lines = expectStatus(await staff.get('/statement-lines?sort=id&page_size=100'), 200).json<
      { id: number; date: string }[]
    >();
    expect(lines.map((l) => l.date)).toEqual([
      '9999-12-31',
      '9999-12-31',
      '0001-01-01',
      '9999-12-31',
      '9999-12-31',
    ]);
    expect(
      expectStatus(await staff.get(`/statement-lines/${lineIds[2]}`), 200).json<{ date: string }>().date,
    ).toBe('0001-01-01');
    expectStatus(await staff.get('/statements'), 200);
    for (const sort of ['payment_date', '-payment_date', 'id']) {
      const payments = expectStatus(await staff.get(`/payments?sort=${sort}`), 200).json<
        { id: number; payment_date: string }[]
      >();
      expect(payments.find((p) => p.id === paymentIds[0])?.payment_date).toBe('9999-12-31');
      expect(payments.find((p) => p.id === paymentIds[1])?.payment_date).toBe('0001-01-01');
    }
    for (const id of paymentIds) expectStatus(await staff.get(`/payments/${id}`), 200);
    // such a line makes no payment (it would be dated 9999-12-31); it can be ignored
    const match = expectStatus(
      await staff.post(`/statement-lines/${lineIds[0]}/match`, {
        allocations: [{ occupancy_id: world.leaseId, amount: 1000 }],
      }),
      409,
    );
    expect(match.json<{ error: string }>().error).toBe(
      "This line's date (9999-12-31) cannot be a day money came in: ignore the line.",
    );
    expectStatus(
      await staff.post(`/statement-lines/${lineIds[0]}/ignore`, { reason: 'Impossible date' }),
      200,
    );
    expectStatus(await staff.get(`/occupancy/${world.leaseId}/ledger`), 200);
    expectStatus(await tenant.get('/portal/payments'), 200);
  });

  it('answers every GET of the API document without a 5xx, staff and tenant alike', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/rentapi/docs/json' })).json<Doc>();
    const ids: Record<string, number> = {
      payments: paymentIds[0] ?? 0,
      'statement-lines': lineIds[0] ?? 0,
      occupancy: world.leaseId,
      leases: world.leaseId,
      tenants: world.tenantId,
      units: world.unitId,
    };
    const problems: string[] = [];
    let calls = 0;
    for (const [path, methods] of Object.entries(doc.paths)) {
      if (!methods.get || /logout|sign-out/.test(path)) continue;
      const api = path.replace('/rentapi/api', '');
      const segment = /^\/(?:portal\/)?([^/]+)/.exec(api)?.[1] ?? '';
      const url = api.replace(/\{[a-zA-Z_]+\}/g, String(ids[segment] ?? 1));
      for (const client of api.startsWith('/portal/') ? [tenant] : [staff]) {
        for (const query of ['', '?fmt=pdf', '?as_of=2026-11-01&from=2026-01-01&to=2026-12-31']) {
          const res = await client.get(`${url}${query}`);
          calls++;
          if (res.statusCode >= 500 || (res.statusCode >= 400 && errorShapeProblem(res)))
            problems.push(`GET ${url}${query}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        }
      }
    }
    console.info(
      `[reliability] stored extremes (${testDriver}): ${calls} GETs over rows of years 4713 BC–5874897`,
    );
    expect(problems, problems.join('\n')).toEqual([]);
  });
});
