import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { addDays, agingBuckets, centsToNumber, leaseArrears } from '@kodi/domain';
import { setupApp, testDriver, type TestContext } from '../../test/harness.ts';
import { TestClient } from '../../test/client.ts';
import { buildCompany, buildUser } from '../../test/factories.ts';
import { validTenant, validUnit } from '../../test/entities.ts';
import { loadLeaseBook } from '../leases/lease-book.ts';
import { companyDay } from './post.ts';

/**
 * The books' property (issue 25): for random leases (cycles, rates, opening balances, ends), rate
 * changes, charges, waivers, payments, voids and changed terms, made through the API, the journal's
 * receivable per lease (kept, and Σ of its lines) is the ledger's balance, the trial balance
 * balances, and the arrears' buckets are the ledger's ageing.
 */
type Op =
  | { kind: 'rate'; day: number; rate: number }
  | { kind: 'charge'; day: number; amount: number }
  | { kind: 'waive'; which: number }
  | { kind: 'pay'; day: number; amount: number; method: string }
  | { kind: 'void'; which: number }
  | { kind: 'terms'; rate: number; end: number | null }
  | { kind: 'opening'; amount: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('rate' as const), day: fc.nat(200), rate: fc.integer({ min: 1, max: 30 }) }),
  fc.record({
    kind: fc.constant('charge' as const),
    day: fc.nat(200),
    amount: fc.integer({ min: 1, max: 50 }),
  }),
  fc.record({ kind: fc.constant('waive' as const), which: fc.nat(5) }),
  fc.record({
    kind: fc.constant('pay' as const),
    day: fc.nat(200),
    amount: fc.integer({ min: 1, max: 60 }),
    method: fc.constantFrom('cash', 'mobilemoney', 'banktransfer', 'creditcard'),
  }),
  fc.record({ kind: fc.constant('void' as const), which: fc.nat(5) }),
  fc.record({
    kind: fc.constant('terms' as const),
    rate: fc.integer({ min: 1, max: 30 }),
    end: fc.option(fc.nat(200), { nil: null }),
  }),
  // an opening balance set or changed (owed, a credit, or its sign turned)
  fc.record({ kind: fc.constant('opening' as const), amount: fc.integer({ min: -10, max: 30 }) }),
);

const scenario = fc.record({
  cycle: fc.constantFrom('monthly', 'monthly', 'weekly', 'daily'),
  age: fc.nat(200),
  rate: fc.integer({ min: 1, max: 30 }),
  opening: fc.option(fc.record({ after: fc.nat(60), amount: fc.integer({ min: -10, max: 30 }) }), {
    nil: null,
  }),
  ops: fc.array(op, { maxLength: 7 }),
});

describe(`books: the journal agrees with the ledger (property, ${testDriver})`, () => {
  let t: TestContext;
  let admin: TestClient;
  let companyId: number;
  let today: string;
  let n = 0;

  beforeAll(async () => {
    t = await setupApp();
    companyId = (await buildCompany(t.database, { name: 'Property Homes' })).id;
    const u = await buildUser(t.database, { company_id: companyId, roles: ['admin'] });
    admin = new TestClient(t.app);
    await admin.login(u.email, u.password);
    today = await companyDay(t.database.db, companyId);
  });
  afterAll(async () => {
    await t.app.close();
  });

  it('holds for random leases and their money events', { timeout: 600_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        n += 1;
        const unit = (await admin.post('/units', { ...validUnit(), name: `P${n}` })).json();
        const tenant = (
          await admin.post('/tenants', { ...validTenant(), email: `p${n}@example.com` })
        ).json();
        const age = s.cycle === 'daily' ? Math.min(s.age, 40) : s.age;
        const start = addDays(today, -age);
        const clamp = (d: number) => {
          const day = addDays(start, Math.min(d, age));
          return day > today ? today : day;
        };
        const openingDate = s.opening ? clamp(s.opening.after) : null;
        const body: Record<string, unknown> = {
          tenant_id: tenant.id,
          unit_id: unit.id,
          start_date: start,
          rate: s.rate * 50000,
          rent_cycle: s.cycle,
          ...(s.opening && openingDate
            ? { opening_balance: s.opening.amount * 10000, opening_balance_date: openingDate }
            : {}),
        };
        const created = await admin.post('/occupancy', body);
        expect(created.statusCode, created.body).toBe(201);
        const id = Number(created.json().id);
        const charges: number[] = [];
        const payments: number[] = [];
        for (const o of s.ops) {
          if (o.kind === 'rate') {
            const day = addDays(start, 1 + o.day);
            const lease = (await admin.get(`/occupancy/${id}`)).json();
            if (lease.end_date && day > lease.end_date) continue;
            const res = await admin.post(`/occupancy/${id}/rate-changes`, {
              effective_date: day,
              rate: o.rate * 50000,
            });
            expect([201, 409]).toContain(res.statusCode);
          } else if (o.kind === 'charge') {
            const res = await admin.post(`/occupancy/${id}/charges`, {
              date: clamp(o.day),
              category: 'utility',
              description: 'Water',
              amount: o.amount * 1000,
            });
            expect(res.statusCode, res.body).toBe(201);
            charges.push(Number(res.json().id));
          } else if (o.kind === 'waive') {
            const c = charges[o.which % Math.max(1, charges.length)];
            if (c === undefined) continue;
            const res = await admin.post(`/charges/${c}/waive`, { reason: 'Goodwill' });
            expect([201, 409]).toContain(res.statusCode);
          } else if (o.kind === 'pay') {
            const day = clamp(o.day);
            const res = await admin.post('/payments', {
              tenant_id: tenant.id,
              unit_id: unit.id,
              occupancy_id: id,
              payment_date: day,
              amount_paid: o.amount * 10000,
              payment_method: o.method,
              status: 'completed',
              effective_start_date: day,
              effective_end_date: day,
            });
            expect(res.statusCode, res.body).toBe(201);
            payments.push(Number(res.json().id));
          } else if (o.kind === 'void') {
            const p = payments[o.which % Math.max(1, payments.length)];
            if (p === undefined) continue;
            const res = await admin.post(`/payments/${p}/void`, { reason: 'Property test' });
            expect([200, 409]).toContain(res.statusCode);
          } else if (o.kind === 'opening') {
            const lease = (await admin.get(`/occupancy/${id}`)).json();
            const res = await admin.put(`/occupancy/${id}`, {
              ...lease,
              opening_balance: o.amount * 10000,
              opening_balance_date: lease.opening_balance_date ?? start,
            });
            expect(res.statusCode, res.body).toBe(200);
          } else {
            const lease = (await admin.get(`/occupancy/${id}`)).json();
            const end = o.end === null ? null : addDays(start, o.end);
            const res = await admin.put(`/occupancy/${id}`, {
              ...lease,
              rate: o.rate * 50000,
              end_date: end,
            });
            expect([200, 400]).toContain(res.statusCode);
          }
        }
        // the ledger's balance = the kept receivable = Σ the lease's receivable lines
        const ledger = (await admin.get(`/occupancy/${id}/ledger`)).json();
        const [kept] = await t.database.query<{ r: string }>(
          'SELECT receivable::text AS r FROM lease_balances WHERE company_id = $1 AND occupancy_id = $2',
          [companyId, id],
        );
        const [lines] = await t.database.query<{ r: string }>(
          `SELECT coalesce(sum(l.debit - l.credit), 0)::text AS r FROM journal_lines l
             JOIN ledger_accounts a ON a.company_id = l.company_id AND a.id = l.account_id AND a.role = 'receivable'
            WHERE l.company_id = $1 AND l.occupancy_id = $2`,
          [companyId, id],
        );
        expect(Number(kept?.r ?? 0)).toBe(ledger.balance);
        expect(Number(lines?.r)).toBe(ledger.balance);
        // the trial balance balances
        const [tb] = await t.database.query<{ d: string; c: string }>(
          'SELECT sum(debit)::text AS d, sum(credit)::text AS c FROM account_day_totals WHERE company_id = $1',
          [companyId],
        );
        expect(tb?.d).toBe(tb?.c);
        // the kept month totals are the journal's lines by account, month, property and source
        const monthTotals = async (from: string) =>
          (
            await t.database.query<{ k: string }>(
              `SELECT account_id || '|' || to_char(month, 'YYYY-MM-DD') || '|' || property_id || '|' || source
                      || '|' || debit::text || '|' || credit::text AS k
                 FROM (${from}) x ORDER BY 1`,
              [companyId],
            )
          ).map((r) => r.k);
        expect(
          await monthTotals(
            'SELECT account_id, month, property_id, source, debit, credit FROM account_month_totals WHERE company_id = $1',
          ),
        ).toEqual(
          await monthTotals(
            `SELECT l.account_id, date_trunc('month', l.date)::date AS month, coalesce(l.property_id, 0) AS property_id,
                    e.source, sum(l.debit) AS debit, sum(l.credit) AS credit
               FROM journal_lines l JOIN journal_entries e ON e.company_id = l.company_id AND e.id = l.entry_id
              WHERE l.company_id = $1 GROUP BY 1, 2, 3, 4`,
          ),
        );
        // the kept ageing: the open days add up to what is owed, from the oldest unpaid day on
        const [open] = await t.database.query<{ open: string; oldest: string | null; first: string | null }>(
          `SELECT coalesce(sum(d.open), 0)::text AS open, to_char(b.oldest_due, 'YYYY-MM-DD') AS oldest,
                  to_char(min(d.day) FILTER (WHERE d.open > 0), 'YYYY-MM-DD') AS first
             FROM lease_balances b
             LEFT JOIN lease_debit_days d ON d.company_id = b.company_id AND d.occupancy_id = b.occupancy_id
            WHERE b.company_id = $1 AND b.occupancy_id = $2 GROUP BY b.oldest_due`,
          [companyId, id],
        );
        expect(Number(open?.open ?? 0)).toBe(Math.max(0, ledger.balance));
        expect(open?.oldest ?? null).toBe(open?.first ?? null);
        // the arrears' buckets: the ledger's ageing
        const book = await loadLeaseBook(t.database, companyId, id, today);
        const ageing = leaseArrears(book.lease, book.payments, today, book.extras);
        const arrears = (await admin.get('/arrears?page_size=100')).json();
        const rows = (Array.isArray(arrears) ? arrears : (arrears.data ?? arrears.items ?? [])) as Record<
          string,
          number
        >[];
        const row = rows.find((r) => r.occupancy_id === id);
        if (ageing.overdue > 0n) {
          expect(
            row,
            JSON.stringify(ageing, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)),
          ).toBeDefined();
          for (const b of agingBuckets) expect([b, row?.[b]]).toEqual([b, centsToNumber(ageing[b])]);
          expect(row?.balance).toBe(ledger.balance);
        } else {
          expect(row).toBeUndefined();
        }
      }),
      { numRuns: testDriver === 'pg' ? 12 : 10, seed: 25, endOnFailure: true },
    );
  });
});
