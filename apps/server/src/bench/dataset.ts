import { sql } from 'drizzle-orm';
import { execRows, type Database, type DbOrTx } from '../db/client.ts';

/** How big the benchmark's large company is (the sizes at scale 1). */
export type DatasetSize = {
  units: number;
  tenants: number;
  leases: number;
  payments: number;
  expenses: number;
  requests: number;
  employees: number;
  vendors: number;
  smallCompanies: number;
};

export const fullSize: DatasetSize = {
  units: 2_000,
  tenants: 10_000,
  leases: 10_000,
  payments: 200_000,
  expenses: 50_000,
  requests: 10_000,
  employees: 1_000,
  vendors: 100,
  smallCompanies: 9,
};

export const scaledSize = (scale: number): DatasetSize => {
  const s = (n: number, min: number) => Math.max(min, Math.round(n * scale));
  return {
    units: s(fullSize.units, 20),
    tenants: s(fullSize.tenants, 50),
    leases: s(fullSize.leases, 50),
    payments: s(fullSize.payments, 500),
    expenses: s(fullSize.expenses, 100),
    requests: s(fullSize.requests, 50),
    employees: s(fullSize.employees, 10),
    vendors: s(fullSize.vendors, 10),
    smallCompanies: fullSize.smallCompanies,
  };
};

/** A deterministic "random" integer in [0, n) from a row number and a salt, in SQL. */
const rnd = (i: string, salt: string, n: number) => `(abs(hashtext(${i}::text || '${salt}')) % ${n})`;

const FIRST = `(ARRAY['Grace','Joseph','Sarah','Moses','Esther','David','Ruth','Peter','Agnes','Brian','Irene','Samuel','Joan','Patrick','Rita','Allan'])`;
const LAST = `(ARRAY['Namuli','Okello','Nakato','Mugisha','Auma','Ssempa','Kintu','Achieng','Tumusiime','Nabirye','Opio','Kato','Akello','Byaruhanga'])`;
const AREAS = `(ARRAY['Kololo','Ntinda','Bugolobi','Muyenga','Naguru','Kisaasi','Bukoto','Makindye','Nakasero','Kyanja'])`;
const METHODS = `(ARRAY['cash','check','banktransfer','creditcard','mobilemoney'])`;
const CATEGORIES = `(ARRAY['plumbing','fixes','fittings','electrical','cleaning','repairs','condo_fees','other'])`;

/**
 * Fills one company with `size` rows, all in SQL (INSERT ... SELECT over generate_series) so that
 * 200,000 payments take seconds. Ids are explicit ranges starting after `base` ids, then the identity
 * sequences are moved past them.
 */
const fillCompany = async (
  tx: DbOrTx,
  companyId: number,
  size: DatasetSize,
  base: Record<string, number>,
) => {
  const q = async (text: string) => {
    const t0 = Date.now();
    await execRows(tx, sql.raw(text));
    if (process.env.BENCH_VERBOSE) console.log(`${Date.now() - t0} ms  ${text.trim().slice(0, 40)}`);
  };
  const b = base;
  await q(`INSERT INTO vendors (company_id, id, name, service_offered, phone)
    SELECT ${companyId}, ${b.vendors} + i, 'Vendor ' || i, (ARRAY['plumbing','electrical','cleaning','security','painting'])[1 + ${rnd('i', 'v', 5)}],
           '+256 7' || lpad((${rnd('i', 'vp', 100000000)})::text, 8, '0')
      FROM generate_series(1, ${size.vendors}) i`);
  // a property per 20 units (100 at full size); units spread over them in order, one in 50 in none
  const propertyCount = Math.max(1, Math.round(size.units / 20));
  await q(`INSERT INTO properties (company_id, id, name, address, property_type, manager_name, manager_phone)
    SELECT ${companyId}, ${b.properties} + i, ${AREAS}[1 + ${rnd('i', 'pa', 10)}] || ' Court ' || i,
           'Plot ' || (100 + i) || ', ' || ${AREAS}[1 + ${rnd('i', 'pa', 10)}] || ', Kampala',
           (ARRAY['residential','residential','residential','commercial','mixed'])[1 + ${rnd('i', 'pt', 5)}],
           ${FIRST}[1 + ${rnd('i', 'pmf', 16)}] || ' ' || ${LAST}[1 + ${rnd('i', 'pml', 14)}],
           '+256 7' || lpad((${rnd('i', 'pmp', 100000000)})::text, 8, '0')
      FROM generate_series(1, ${propertyCount}) i`);
  await q(`INSERT INTO units (company_id, id, name, address, monthly_rate, weekly_rate, daily_rate, bedrooms, bathrooms,
                              size_sqft, unit_type, status, description, property_id)
    SELECT ${companyId}, ${b.units} + i, ${AREAS}[1 + ${rnd('i', 'ua', 10)}] || ' Block ' || (i / 20 + 1) || '-' || i,
           'Plot ' || i || ', ' || ${AREAS}[1 + ${rnd('i', 'ua', 10)}] || ', Kampala',
           m, round(m / 4, -3), round(m / 30, -3), 1 + ${rnd('i', 'ub', 4)}, 1 + ${rnd('i', 'uc', 3)}, 400 + ${rnd('i', 'us', 2000)},
           (ARRAY['apartment','house','studio','commercial'])[1 + ${rnd('i', 'ut', 4)}],
           (ARRAY['occupied','occupied','occupied','available','maintenance'])[1 + ${rnd('i', 'ust', 5)}],
           'Unit ' || i || ' with ' || (1 + ${rnd('i', 'ub', 4)}) || ' bedrooms',
           CASE WHEN i % 50 = 0 THEN NULL ELSE ${b.properties} + 1 + ((i - 1) * ${propertyCount}) / ${size.units} END
      FROM generate_series(1, ${size.units}) i, LATERAL (SELECT (600000 + ${rnd('i', 'um', 40)} * 100000)::numeric AS m) r`);
  await q(`INSERT INTO tenants (company_id, id, first_name, last_name, sex, country_code, phone, email, date_of_birth, status)
    SELECT ${companyId}, ${b.tenants} + i, ${FIRST}[1 + ${rnd('i', 'tf', 16)}] || i, ${LAST}[1 + ${rnd('i', 'tl', 14)}],
           (ARRAY['M','F'])[1 + ${rnd('i', 'ts', 2)}], '+256', '+256' || lpad((700000000 + ${rnd('i', 'tp', 99999999)})::text, 9, '0'),
           'tenant' || i || '@example.com', date '1960-01-01' + ${rnd('i', 'td', 15000)},
           (ARRAY['active','active','active','inactive'])[1 + ${rnd('i', 'tst', 4)}]
      FROM generate_series(1, ${size.tenants}) i`);
  await q(`INSERT INTO occupancy (company_id, id, tenant_id, unit_id, start_date, end_date, rate, deposit_amount, deposit_status,
                                  rent_cycle, occupancy_status, notice_period_days, is_active, tenant_name, unit_name)
    SELECT ${companyId}, ${b.occupancy} + i, ${b.tenants} + 1 + ((i - 1) % ${size.tenants}), ${b.units} + 1 + ((i - 1) % ${size.units}),
           s, CASE WHEN i % 5 = 0 THEN s + 365 ELSE NULL END,
           CASE c.cycle WHEN 'daily' THEN u.daily_rate WHEN 'weekly' THEN u.weekly_rate ELSE u.monthly_rate END,
           u.monthly_rate, 'held', c.cycle,
           CASE WHEN i % 5 = 0 THEN 'terminated' ELSE 'active' END, 30, i % 5 <> 0,
           tn.first_name || ' ' || tn.last_name, u.name
      FROM generate_series(1, ${size.leases}) i
      JOIN units u ON u.company_id = ${companyId} AND u.id = ${b.units} + 1 + ((i - 1) % ${size.units})
      JOIN tenants tn ON tn.company_id = ${companyId} AND tn.id = ${b.tenants} + 1 + ((i - 1) % ${size.tenants}),
      LATERAL (SELECT (date '2021-01-01' + ${rnd('i', 'os', 1400)}) AS s) d,
      LATERAL (SELECT (ARRAY['monthly','monthly','monthly','weekly','daily'])[1 + ${rnd('i', 'orc', 5)}] AS cycle) c`);
  // receipt numbers: gapless in id order over the completed payments, computed in the same INSERT;
  // numbers past 999,999 take a seventh digit as formatSerial's do (lpad would cut them)
  await q(`INSERT INTO payments (company_id, id, unit_id, tenant_id, occupancy_id, payment_date, payment_serial, amount_paid,
                                 payment_details, effective_start_date, effective_end_date, payment_method, status,
                                 invoice_id, reference_number, receipt_number, tenant_name, unit_name, receipt_queued)
    SELECT ${companyId}, ${b.payments} + g.i, o.unit_id, o.tenant_id, o.id, pd, 'PAY-' || lpad(g.i::text, greatest(6, length(g.i::text)), '0'), o.rate,
           'Rent ' || to_char(pd, 'Mon YYYY'), pd, pd + 29, ${METHODS}[1 + ${rnd('g.i', 'pm', 5)}], g.st, 'N/A', 'REF-' || g.i,
           CASE WHEN g.st = 'completed'
                THEN 'RCT-' || lpad(g.n::text, greatest(6, length(g.n::text)), '0') END,
           o.tenant_name, o.unit_name, true
      FROM (SELECT i, st, count(*) FILTER (WHERE st = 'completed') OVER (ORDER BY i) AS n
              FROM (SELECT i, (ARRAY['completed','completed','completed','completed','completed','completed','completed','completed','pending','failed'])[1 + ${rnd('i', 'pst', 10)}] AS st
                      FROM generate_series(1, ${size.payments}) i) s) g
      JOIN occupancy o ON o.company_id = ${companyId} AND o.id = ${b.occupancy} + 1 + ((g.i - 1) % ${size.leases}),
      LATERAL (SELECT LEAST(o.start_date + (((g.i - 1) / ${size.leases}) * 30)::int, current_date) AS pd) d`);
  await q(`INSERT INTO counters (company_id, name, value)
    SELECT ${companyId}, 'payment_serial', count(*) FROM payments WHERE company_id = ${companyId}
    UNION ALL SELECT ${companyId}, 'receipt_number', count(receipt_number) FROM payments WHERE company_id = ${companyId}
    ON CONFLICT (company_id, name) DO UPDATE SET value = excluded.value`);
  await q(`INSERT INTO expenses (company_id, id, unit_id, vendor_id, expense_date, amount, category, description)
    SELECT ${companyId}, ${b.expenses} + i, CASE WHEN i % 3 = 0 THEN NULL ELSE ${b.units} + 1 + ${rnd('i', 'eu', size.units)} END,
           CASE WHEN i % 2 = 0 THEN NULL ELSE ${b.vendors} + 1 + ${rnd('i', 'ev', size.vendors)} END,
           current_date - ${rnd('i', 'ed', 1800)}, 10000 + ${rnd('i', 'ea', 200)} * 5000, ${CATEGORIES}[1 + ${rnd('i', 'ec', 8)}],
           'Expense ' || i
      FROM generate_series(1, ${size.expenses}) i`);
  await q(`INSERT INTO maintenance_requests (company_id, id, unit_id, tenant_id, vendor_id, request_date, description, priority,
                                             status, estimated_cost)
    SELECT ${companyId}, ${b.requests} + i, ${b.units} + 1 + ${rnd('i', 'mu', size.units)}, ${b.tenants} + 1 + ${rnd('i', 'mt', size.tenants)},
           ${b.vendors} + 1 + ${rnd('i', 'mv', size.vendors)}, current_date - ${rnd('i', 'md', 900)},
           (ARRAY['Leaking tap','Broken window','No power in kitchen','Blocked drain','Door lock stuck','Paint peeling'])[1 + ${rnd('i', 'mdesc', 6)}] || ' #' || i,
           (ARRAY['low','medium','high'])[1 + ${rnd('i', 'mp', 3)}], (ARRAY['open','in_progress','closed','closed'])[1 + ${rnd('i', 'ms', 4)}],
           ${rnd('i', 'mc', 100)} * 10000
      FROM generate_series(1, ${size.requests}) i`);
  await q(`INSERT INTO employees (company_id, id, first_name, last_name, email, phone_number, job_title, hire_date, salary,
                                  expected_pay_day, status)
    SELECT ${companyId}, ${b.employees} + i, ${FIRST}[1 + ${rnd('i', 'ef', 16)}], ${LAST}[1 + ${rnd('i', 'el', 14)}] || i,
           'staff' || i || '@example.com', '+2567' || lpad((${rnd('i', 'ep', 100000000)})::text, 8, '0'),
           (ARRAY['Caretaker','Property Manager','Accountant','Security Guard','Cleaner'])[1 + ${rnd('i', 'ej', 5)}],
           date '2020-01-01' + ${rnd('i', 'eh', 1500)}, 500000 + ${rnd('i', 'es', 30)} * 100000, 1 + ${rnd('i', 'epd', 28)}, 'active'
      FROM generate_series(1, ${size.employees}) i`);
  await q(`INSERT INTO commission_wages (company_id, id, employee_id, payment_date, payment_category, payment_method,
                                         payment_start_date, payment_end_date, status, description, amount)
    SELECT ${companyId}, ${b.wages} + (e - 1) * 12 + m + 1, ${b.employees} + e,
           (date_trunc('month', current_date) - (m || ' months')::interval + interval '27 days')::date, 'salary', 'banktransfer',
           (date_trunc('month', current_date) - (m || ' months')::interval)::date,
           (date_trunc('month', current_date) - (m || ' months')::interval + interval '1 month - 1 day')::date,
           CASE WHEN m = 0 THEN 'pending' ELSE 'paid' END, 'Salary', emp.salary
      FROM generate_series(1, ${size.employees}) e, generate_series(0, 11) m
      JOIN LATERAL (SELECT salary FROM employees WHERE company_id = ${companyId} AND id = ${b.employees} + e) emp ON TRUE`);
};

/** The tables the generator fills (their highest ids are where its ids start), by their size's key. */
const KEYS: Record<string, string> = {
  properties: 'properties',
  vendors: 'vendors',
  units: 'units',
  tenants: 'tenants',
  occupancy: 'occupancy',
  payments: 'payments',
  expenses: 'expenses',
  maintenance_requests: 'requests',
  employees: 'employees',
  commission_wages: 'wages',
};

/** The benchmark's data: the first company made large, then nine small companies. */
export const generateDataset = async (database: Database, largeCompanyId: number, size: DatasetSize) => {
  const base = async (tx: DbOrTx) => {
    const out: Record<string, number> = {};
    for (const [t, key] of Object.entries(KEYS)) {
      const r = await execRows<{ m: number }>(tx, sql.raw(`SELECT COALESCE(max(id), 0)::int AS m FROM ${t}`));
      out[key] = Number(r[0]?.m ?? 0);
    }
    return out;
  };
  // One transaction with the foreign-key triggers off (the generated rows are consistent by construction):
  // loading 200,000 payments takes seconds instead of a minute.
  await database.db.transaction(async (tx) => {
    await execRows(tx, sql.raw('SET LOCAL session_replication_role = replica'));
    await fillCompany(tx, largeCompanyId, size, await base(tx));
    const small: DatasetSize = {
      units: 20,
      tenants: 50,
      leases: 50,
      payments: 500,
      expenses: 100,
      requests: 20,
      employees: 5,
      vendors: 5,
      smallCompanies: 0,
    };
    for (let i = 1; i <= size.smallCompanies; i++) {
      const companyRows = await execRows<{ id: number }>(
        tx,
        sql.raw(
          `INSERT INTO companies (name, currency_code) VALUES ('Small Landlord ${i}', 'UGX') RETURNING id`,
        ),
      );
      await fillCompany(tx, Number(companyRows[0]?.id), small, await base(tx));
    }
  });
  for (const t of Object.keys(KEYS)) {
    await database.query(
      `SELECT setval(pg_get_serial_sequence('${t}', 'id'), (SELECT COALESCE(max(id), 1) FROM ${t}))`,
    );
  }
  // the triggers keeping the totals and copied names (units' property names, the rows' property ids,
  // the properties' unit counts) were off during the load (replica): recount
  await database.query('SELECT derived_rebuild()');
  await database.query('ANALYZE');
};
