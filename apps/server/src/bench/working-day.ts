/**
 * The working day: several staff sessions at once, each a closed loop of random requests drawn from
 * a weighted mix of what staff do all day (issue 15): list pages at random pages with a random
 * sortable column in either direction, searches for words of the dataset, the dashboard, the two
 * reports over random ranges, receipt PDFs, a lease's ledger and statement, the arrears, the journal
 * (pages, either order, a source filtered now and then) and the trial balance, and about
 * a fifth of writes (new payments for random leases, and edits: a record read, then saved with the
 * version read; a 409 from a concurrent edit is a legitimate answer, counted apart).
 *
 * `planMix` runs in the benchmark's process (it reads the database for ids, totals and words);
 * `runMix` runs in the load generator's process (bench/load.ts), so that measuring does not take the
 * server's event loop, with node's http and one keep-alive connection per session.
 */
import http from 'node:http';
import { arrearsSortFields, entities, todayIso } from '@kodi/domain';
import type { Database } from '../db/client.ts';

/** The lists staff page through, and whose search the mix uses. */
export const MIX_LISTS = [
  'payments',
  'tenants',
  'units',
  'occupancy',
  'expenses',
  'maintenance_requests',
] as const;
export type MixList = (typeof MIX_LISTS)[number];

/** The records the mix edits (GET, then PUT with the version read) and the field each edit changes. */
const EDITED = ['payments', 'tenants', 'units', 'occupancy', 'maintenance_requests', 'expenses'] as const;
type Edited = (typeof EDITED)[number];

export type MixSession = { cookie: string; csrf: string; admin: boolean };

/** Everything a run needs, JSON (it is sent to the load generator's process). */
export type MixPlan = {
  /** the server's base URL, e.g. http://127.0.0.1:4000 */
  url: string;
  /** seconds measured, after `warmup` seconds not measured */
  seconds: number;
  warmup: number;
  seed: number;
  sessions: MixSession[];
  lists: Record<MixList, { sort: string[]; total: number; words: string[] }>;
  /** payments to print receipts of and to edit (a random sample, and the newest) */
  paymentIds: number[];
  recentPaymentIds: number[];
  /** leases to show the ledger and statement of */
  leaseIds: number[];
  /** active leases to pay */
  leases: { tenant_id: number; unit_id: number; rate: number }[];
  /** records to edit, per entity */
  editIds: Record<Edited, number[]>;
  /** words to search the arrears for (tenant names) */
  arrearsWords: string[];
  /** the first month of the company's payments (YYYY-MM): reports ask ranges from it to now */
  firstMonth: string;
};

/** A kind of request, as reported; `group` decides which budget applies. */
type Group = 'list' | 'dashboard' | 'report' | 'document' | 'read' | 'write';

export type KindStats = {
  kind: string;
  group: Group;
  /** a line under its kind (the payments list per sort column): reported, not counted twice */
  detail: boolean;
  count: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  errors: number;
  /** 409 answers to an edit (a concurrent edit saved first) */
  conflicts: number;
};

export type MixResult = {
  seconds: number;
  sessions: number;
  requests: number;
  rps: number;
  /** over every request, ms */
  p50: number;
  p95: number;
  p99: number;
  writes: number;
  errors: number;
  conflicts: number;
  kinds: KindStats[];
  /** the first few failures, to tell what went wrong */
  failures: string[];
};

// ------------------------------------------------------------------------------------------ plan

/** The staff sessions' users: `staff1@kodi.test`…; every fourth an admin, the others editors. */
export const staffUser = (i: number) => ({
  email: `staff${i + 1}@kodi.test`,
  admin: i % 4 === 0,
});

const ints = (rows: Record<string, unknown>[], key = 'id') => rows.map((r) => Number(r[key]));
const strings = (rows: Record<string, unknown>[], key = 'w') =>
  [...new Set(rows.map((r) => String(r[key] ?? '').trim()).filter((w) => w.length >= 2))].slice(0, 80);

/**
 * The ids, totals and search words of the large company (`companyId`), read from its data: the words
 * are the dataset's own (tenants' first and last names, areas and blocks of units, serial and
 * receipt prefixes such as `PAY-0012`, categories, the start of request descriptions), so that a
 * search hits a few rows or thousands, as staff's searches do. Samples are drawn in the order of a
 * hash of the ids: the same data gives the same plan.
 */
export const planMix = async (
  db: Database,
  companyId: number,
  base: Omit<
    MixPlan,
    | 'lists'
    | 'paymentIds'
    | 'recentPaymentIds'
    | 'leaseIds'
    | 'leases'
    | 'editIds'
    | 'arrearsWords'
    | 'firstMonth'
  >,
): Promise<MixPlan> => {
  const c = String(Number(companyId));
  const q = (text: string) => db.query<Record<string, unknown>>(text);
  const sample = (table: string, n: number, where = 'TRUE') =>
    q(
      `SELECT id FROM ${table} WHERE company_id = ${c} AND ${where} ORDER BY hashtext(id::text || 'mix') LIMIT ${n}`,
    ).then(ints);
  const total = async (table: string) =>
    Number((await q(`SELECT count(*)::int AS n FROM ${table} WHERE company_id = ${c}`))[0]?.n ?? 0);
  const words = (select: string, from: string, n = 30) =>
    q(`SELECT w FROM (SELECT ${select} AS w FROM ${from} WHERE company_id = ${c} ORDER BY hashtext(id::text || 'mix') LIMIT 2000) s
        GROUP BY w ORDER BY count(*) DESC, w LIMIT ${n}`).then((r) => strings(r));

  const firstNames = await words(`regexp_replace(first_name, '[0-9]+$', '')`, 'tenants', 20);
  const lastNames = await words('last_name', 'tenants', 20);
  const oneTenant = await words('first_name', 'tenants', 20); // 'Grace123': one tenant
  const names = [...firstNames, ...lastNames, ...oneTenant];
  const areas = await words(`split_part(name, ' ', 1)`, 'units', 20);
  const blocks = await words(`substring(name from '[A-Za-z]+ [0-9]+')`, 'units', 20);
  const serials = await words('left(payment_serial, 8)', 'payments', 20); // 'PAY-0012'
  const receipts = await words('left(receipt_number, 7)', 'payments', 10); // 'RCT-001'
  const phones = await words('left(phone, 8)', 'tenants', 10);
  const dates = await words(`to_char(start_date, 'YYYY-MM')`, 'occupancy', 10);
  const categories = await words('category', 'expenses', 10);
  const problems = await words(`split_part(description, ' #', 1)`, 'maintenance_requests', 10);
  const statuses = await words('status', 'maintenance_requests', 5);

  const list = async (name: MixList, searchWords: string[]) => ({
    sort: [...entities[name].sort],
    total: await total(name),
    words: searchWords.length > 0 ? searchWords : ['a'],
  });
  const lists: MixPlan['lists'] = {
    payments: await list('payments', [...names, ...areas, ...serials, ...receipts]),
    tenants: await list('tenants', [...names, ...phones]),
    units: await list('units', [...areas, ...blocks]),
    occupancy: await list('occupancy', [...names, ...areas, ...dates]),
    expenses: await list('expenses', [...categories, ...areas]),
    maintenance_requests: await list('maintenance_requests', [...problems, ...statuses, ...areas]),
  };
  const leases = (
    await q(`SELECT tenant_id, unit_id, rate::float8 AS rate FROM occupancy
              WHERE company_id = ${c} AND is_active ORDER BY hashtext(id::text || 'mix') LIMIT 2000`)
  ).map((r) => ({ tenant_id: Number(r.tenant_id), unit_id: Number(r.unit_id), rate: Number(r.rate) }));
  const first = (
    await q(`SELECT to_char(min(payment_date), 'YYYY-MM') AS m FROM payments WHERE company_id = ${c}`)
  )[0];
  return {
    ...base,
    lists,
    paymentIds: await sample('payments', 5000),
    recentPaymentIds: ints(
      await q(`SELECT id FROM payments WHERE company_id = ${c} ORDER BY id DESC LIMIT 200`),
    ),
    leaseIds: await sample('occupancy', 2000),
    leases,
    editIds: {
      payments: [],
      tenants: await sample('tenants', 2000),
      units: await sample('units', 2000),
      occupancy: await sample('occupancy', 2000),
      maintenance_requests: await sample('maintenance_requests', 2000),
      expenses: await sample('expenses', 2000),
    },
    arrearsWords: lastNames,
    firstMonth: String(first?.m ?? todayIso().slice(0, 7)),
  };
};

// ------------------------------------------------------------------------------------------ run

/** A small seeded generator (mulberry32): each session draws the same sequence from the same seed. */
const generator = (seed: number) => {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = <T>(items: readonly T[]): T => {
    if (items.length === 0) throw new Error('nothing to pick from');
    return items[Math.floor(next() * items.length)] as T;
  };
  return { next, int, pick, chance: (p: number) => next() < p };
};
type Rng = ReturnType<typeof generator>;

const API = '/rentapi/api';

/**
 * The mix, by weight (they add up to 103 actions). An edit is two requests (the read, then the
 * save), so of 114 requests 22 write: about a fifth.
 */
const WEIGHTS = {
  list: { payments: 17, tenants: 7, units: 5, occupancy: 6, expenses: 4, maintenance_requests: 5 },
  search: { payments: 6, tenants: 3, units: 1, occupancy: 1, expenses: 1, maintenance_requests: 1 },
  dashboard: 7,
  incomeStatement: 2,
  cashFlow: 2,
  receipt: 4,
  ledger: 2,
  statement: 1,
  arrears: 3,
  journal: 2,
  trialBalance: 1,
  newPayment: 11,
  edit: 11,
} as const;

/** Which record an edit opens, by weight (expenses only by admins: editors open a payment instead). */
const EDIT_WEIGHTS: Record<Edited, number> = {
  payments: 5,
  tenants: 2,
  units: 1,
  occupancy: 1,
  maintenance_requests: 1,
  expenses: 1,
};

type Action =
  | { a: 'list'; list: MixList }
  | { a: 'search'; list: MixList }
  | {
      a:
        | 'dashboard'
        | 'incomeStatement'
        | 'cashFlow'
        | 'receipt'
        | 'ledger'
        | 'statement'
        | 'arrears'
        | 'journal'
        | 'trialBalance';
    }
  | { a: 'newPayment' }
  | { a: 'edit' };

const ACTIONS: { weight: number; action: Action }[] = [
  ...MIX_LISTS.map((list) => ({ weight: WEIGHTS.list[list], action: { a: 'list', list } as Action })),
  ...MIX_LISTS.map((list) => ({ weight: WEIGHTS.search[list], action: { a: 'search', list } as Action })),
  ...(
    [
      'dashboard',
      'incomeStatement',
      'cashFlow',
      'receipt',
      'ledger',
      'statement',
      'arrears',
      'journal',
      'trialBalance',
      'newPayment',
      'edit',
    ] as const
  ).map((a) => ({ weight: WEIGHTS[a], action: { a } as Action })),
];
const WEIGHT_SUM = ACTIONS.reduce((s, x) => s + x.weight, 0);

const drawAction = (rng: Rng): Action => {
  let r = rng.next() * WEIGHT_SUM;
  for (const x of ACTIONS) {
    r -= x.weight;
    if (r < 0) return x.action;
  }
  return { a: 'dashboard' };
};

/** The kinds reported, in the table's order. */
const KINDS: { kind: string; group: Group }[] = [
  ...MIX_LISTS.flatMap((l) => [
    { kind: `GET /${l} page`, group: 'list' as const },
    { kind: `GET /${l} search`, group: 'list' as const },
  ]),
  { kind: 'GET /dashboard', group: 'dashboard' },
  { kind: 'GET /income-statement', group: 'report' },
  { kind: 'GET /cash-flow', group: 'report' },
  { kind: 'GET /arrears', group: 'report' },
  { kind: 'GET /journal', group: 'report' },
  { kind: 'GET /reports/trial-balance', group: 'report' },
  { kind: 'GET /payments/:id/receipt.pdf', group: 'document' },
  { kind: 'GET /occupancy/:id/ledger', group: 'report' },
  { kind: 'GET /occupancy/:id/statement.pdf', group: 'document' },
  { kind: 'GET /:entity/:id (before an edit)', group: 'read' },
  { kind: 'POST /payments', group: 'write' },
  { kind: 'PUT /payments/:id', group: 'write' },
  { kind: 'PUT /{tenants,units,occupancy,maintenance_requests,expenses}/:id', group: 'write' },
];
const sortDetail = (column: string) => `GET /payments page, sorted by ${column}`;

/**
 * A page as staff reach it with the list's pagination (first, previous, next and last buttons; no
 * page number can be typed): half the time the first page; otherwise a walk of Next clicks from it,
 * each followed by another with probability 0.8 (pages 2–10 mostly, now and then 30 or 40 deep), or
 * the Last button followed by a few Previous clicks. The list's middle is reached only by walking.
 */
const drawPage = (rng: Rng, total: number, pageSize: number) => {
  const last = Math.max(1, Math.ceil(total / pageSize));
  if (rng.chance(0.5)) return 1;
  let steps = 1;
  while (steps < 60 && rng.chance(0.8)) steps++;
  return rng.chance(0.7) ? Math.min(last, 1 + steps) : Math.max(1, last + 1 - Math.ceil(steps / 4));
};

/** A sortable column in either direction; one request in five keeps the list's own order. */
const drawSort = (rng: Rng, sort: readonly string[]) => {
  if (rng.chance(0.2)) return undefined;
  const column = rng.pick(sort);
  return rng.chance(0.5) ? column : `-${column}`;
};

const monthPlus = (month: string, n: number) => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m - 1 + n, 1)).toISOString().slice(0, 7);
};
const monthsFrom = (from: string, to: string) => {
  const [fy, fm] = from.split('-').map(Number) as [number, number];
  const [ty, tm] = to.split('-').map(Number) as [number, number];
  return (ty - fy) * 12 + (tm - fm);
};

/** A report's range: the last 12 months (the page's default) or 1 to 24 months from a random month. */
const drawRange = (rng: Rng, firstMonth: string) => {
  if (rng.chance(0.3)) return '';
  const now = todayIso().slice(0, 7);
  const from = monthPlus(firstMonth, rng.int(0, Math.max(0, monthsFrom(firstMonth, now))));
  const to = monthPlus(from, rng.int(0, 23));
  return `?from=${from}&to=${to < now ? to : now}`;
};

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

type Answer = { status: number; body: Buffer; headers: http.IncomingHttpHeaders };

/** One session: its own keep-alive connection, cookie and CSRF token, and its own random sequence. */
const session = (plan: MixPlan, s: MixSession, index: number) => {
  const target = new URL(plan.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const rng = generator(plan.seed * 1000 + index + 1);
  const call = (method: string, path: string, body?: unknown) =>
    new Promise<Answer>((resolve, reject) => {
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const headers: Record<string, string | number> = { cookie: s.cookie };
      if (method !== 'GET') headers['x-csrf-token'] = s.csrf;
      if (payload) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = payload.length;
      }
      const req = http.request(
        {
          host: target.hostname,
          port: target.port,
          path: `${API}${path}`,
          method,
          agent,
          headers,
          timeout: 30_000,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), headers: res.headers }),
          );
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error('timed out after 30 s')));
      req.on('error', reject);
      req.end(payload);
    });
  return { rng, call, close: () => agent.destroy(), admin: s.admin, index };
};
type Session = ReturnType<typeof session>;

type Recorder = {
  /** times one request: `fn` answers it; `conflictOk` counts a 409 apart instead of as an error */
  time: (
    kind: string,
    detail: string | undefined,
    fn: () => Promise<Answer>,
    conflictOk?: boolean,
  ) => Promise<Answer | undefined>;
  /** totals learnt from answers (a list's, a search's, the arrears'), so that later pages stay in range */
  learnt: Map<string, number>;
};

const totalOf = (a: Answer) => Number(a.headers['x-total-count'] ?? Number.NaN);

const act = async (plan: MixPlan, s: Session, rec: Recorder, action: Action) => {
  const { rng, call } = s;
  const { learnt } = rec;
  switch (action.a) {
    case 'list': {
      const l = plan.lists[action.list];
      const pageSize = rng.chance(0.8) ? 25 : rng.pick([10, 50, 100]);
      const total = learnt.get(action.list) ?? l.total;
      const sort = drawSort(rng, l.sort);
      const qs = `page=${drawPage(rng, total, pageSize)}&page_size=${pageSize}${sort ? `&sort=${sort}` : ''}`;
      const detail =
        action.list === 'payments' ? sortDetail(sort?.replace(/^-/, '') ?? 'default order') : undefined;
      const a = await rec.time(`GET /${action.list} page`, detail, () =>
        call('GET', `/${action.list}?${qs}`),
      );
      if (a && Number.isFinite(totalOf(a))) learnt.set(action.list, totalOf(a));
      return;
    }
    case 'search': {
      const l = plan.lists[action.list];
      const word = rng.pick(l.words);
      const key = `${action.list}?${word}`;
      const known = learnt.get(key);
      const page = known !== undefined && rng.chance(0.2) ? drawPage(rng, known, 25) : 1;
      const sort = rng.chance(0.3) ? drawSort(rng, l.sort) : undefined;
      const qs = `page=${page}&page_size=25&q=${encodeURIComponent(word)}${sort ? `&sort=${sort}` : ''}`;
      const a = await rec.time(`GET /${action.list} search`, undefined, () =>
        call('GET', `/${action.list}?${qs}`),
      );
      if (a && Number.isFinite(totalOf(a))) learnt.set(key, totalOf(a));
      return;
    }
    case 'dashboard':
      await rec.time('GET /dashboard', undefined, () => call('GET', '/dashboard'));
      return;
    case 'incomeStatement':
      await rec.time('GET /income-statement', undefined, () =>
        call('GET', `/income-statement${drawRange(rng, plan.firstMonth)}`),
      );
      return;
    case 'cashFlow':
      await rec.time('GET /cash-flow', undefined, () =>
        call('GET', `/cash-flow${drawRange(rng, plan.firstMonth)}`),
      );
      return;
    case 'receipt':
      await rec.time('GET /payments/:id/receipt.pdf', undefined, () =>
        call('GET', `/payments/${rng.pick(plan.paymentIds)}/receipt.pdf`),
      );
      return;
    case 'ledger':
      await rec.time('GET /occupancy/:id/ledger', undefined, () =>
        call('GET', `/occupancy/${rng.pick(plan.leaseIds)}/ledger`),
      );
      return;
    case 'statement':
      await rec.time('GET /occupancy/:id/statement.pdf', undefined, () =>
        call('GET', `/occupancy/${rng.pick(plan.leaseIds)}/statement.pdf`),
      );
      return;
    case 'arrears': {
      const total = learnt.get('arrears') ?? 75;
      const sort = rng.chance(0.5)
        ? undefined
        : `${rng.chance(0.5) ? '-' : ''}${rng.pick(arrearsSortFields)}`;
      const q = rng.chance(0.1)
        ? `&q=${encodeURIComponent(rng.pick(plan.arrearsWords.length ? plan.arrearsWords : ['a']))}`
        : '';
      const qs = `page=${q ? 1 : drawPage(rng, total, 25)}&page_size=25${sort ? `&sort=${sort}` : ''}${q}`;
      const a = await rec.time('GET /arrears', undefined, () => call('GET', `/arrears?${qs}`));
      if (a && !q && Number.isFinite(totalOf(a))) learnt.set('arrears', totalOf(a));
      return;
    }
    case 'journal': {
      // the journal's pages as the pagination reaches them, newest or oldest first; a source now and then
      const source = rng.chance(0.2) ? rng.pick(['rent', 'payment', 'expense', 'late_fee']) : undefined;
      const total = learnt.get(source ? `journal:${source}` : 'journal') ?? 100;
      const qs =
        `page=${drawPage(rng, total, 25)}&page_size=25${rng.chance(0.3) ? '&sort=date' : ''}` +
        (source ? `&source=${source}` : '');
      const j = await rec.time('GET /journal', undefined, () => call('GET', `/journal?${qs}`));
      if (j && Number.isFinite(totalOf(j))) learnt.set(source ? `journal:${source}` : 'journal', totalOf(j));
      return;
    }
    case 'trialBalance':
      // today's, or as of a day of the last two years
      await rec.time('GET /reports/trial-balance', undefined, () =>
        call('GET', `/reports/trial-balance${rng.chance(0.5) ? '' : `?as_of=${daysAgo(rng.int(1, 730))}`}`),
      );
      return;
    case 'newPayment': {
      const lease = rng.pick(plan.leases);
      const paid = daysAgo(rng.int(0, 30));
      const end = new Date(Date.parse(paid) + 29 * 86_400_000).toISOString().slice(0, 10);
      await rec.time('POST /payments', undefined, () =>
        call('POST', '/payments', {
          tenant_id: lease.tenant_id,
          unit_id: lease.unit_id,
          payment_date: paid,
          amount_paid: lease.rate,
          payment_method: rng.pick(['cash', 'check', 'banktransfer', 'creditcard', 'mobilemoney']),
          status: rng.chance(0.9) ? 'completed' : 'pending',
          effective_start_date: paid,
          effective_end_date: end,
          payment_details: `Rent, taken by staff ${s.index + 1}`,
        }),
      );
      return;
    }
    case 'edit':
      await edit(plan, s, rec);
      return;
  }
};

/** Opens a random record and saves it with one field changed and the version it read. */
const edit = async (plan: MixPlan, s: Session, rec: Recorder) => {
  const { rng, call } = s;
  const choices = EDITED.filter((e) => e !== 'expenses' || s.admin);
  let r = rng.next() * choices.reduce((sum, e) => sum + EDIT_WEIGHTS[e], 0);
  const entity = choices.find((e) => (r -= EDIT_WEIGHTS[e]) < 0) ?? 'payments';
  const id =
    entity === 'payments'
      ? rng.pick(rng.chance(0.5) ? plan.recentPaymentIds : plan.paymentIds)
      : rng.pick(plan.editIds[entity]);
  const read = await rec.time('GET /:entity/:id (before an edit)', undefined, () =>
    call('GET', `/${entity}/${id}`),
  );
  if (!read || read.status !== 200) return;
  const record = JSON.parse(read.body.toString()) as Record<string, unknown>;
  const body: Record<string, unknown> = { version: record.version };
  for (const key of Object.keys(entities[entity].shape)) if (key in record) body[key] = record[key];
  const n = rng.int(1, 999);
  switch (entity) {
    case 'payments':
      body.payment_details = `Checked by staff ${s.index + 1} (${n})`;
      break;
    case 'tenants':
      body.emergency_contact_name = `Contact ${n}`;
      break;
    case 'units':
      body.amenities = `Water, power (${n})`;
      break;
    case 'occupancy':
      body.notice_period_days = rng.int(14, 90);
      break;
    case 'maintenance_requests':
      body.priority = rng.pick(['low', 'medium', 'high']);
      break;
    case 'expenses':
      body.description = `Expense checked (${n})`;
      break;
  }
  const kind =
    entity === 'payments'
      ? 'PUT /payments/:id'
      : 'PUT /{tenants,units,occupancy,maintenance_requests,expenses}/:id';
  await rec.time(kind, undefined, () => call('PUT', `/${entity}/${id}`, body), true);
};

const percentile = (sorted: number[], q: number) =>
  sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number);

const round = (ms: number) => Math.round(ms * 10) / 10;

/**
 * Runs the plan: every session a closed loop (the next request when the last is answered) for
 * `warmup` seconds unmeasured, then `seconds` measured. Answers per kind of request its count,
 * requests per second, p50/p95/p99 and failures (errors, timeouts, answers other than 2xx, except
 * the 409 of an edit, counted as a conflict).
 */
export const runMix = async (plan: MixPlan): Promise<MixResult> => {
  const latencies = new Map<string, number[]>();
  const errors = new Map<string, number>();
  const conflicts = new Map<string, number>();
  const failures: string[] = [];
  const start = performance.now();
  const measureFrom = start + plan.warmup * 1000;
  const until = measureFrom + plan.seconds * 1000;
  const add = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);

  const rec: Recorder = {
    learnt: new Map(),
    time: async (kind, detail, fn, conflictOk = false) => {
      const t0 = performance.now();
      let answer: Answer | undefined;
      let problem: string | undefined;
      try {
        answer = await fn();
        if (answer.status === 409 && conflictOk) problem = undefined;
        else if (answer.status < 200 || answer.status >= 300)
          problem = `${answer.status} ${answer.body.toString().slice(0, 200)}`;
      } catch (err) {
        problem = String(err);
      }
      const ms = performance.now() - t0;
      if (t0 >= measureFrom && t0 < until) {
        for (const k of detail ? [kind, detail] : [kind]) {
          const list = latencies.get(k) ?? [];
          list.push(ms);
          latencies.set(k, list);
          if (problem) add(errors, k);
          else if (answer?.status === 409) add(conflicts, k);
        }
        if (problem && failures.length < 10) failures.push(`${kind}: ${problem}`);
      }
      return answer;
    },
  };

  const sessions = plan.sessions.map((s, i) => session(plan, s, i));
  await Promise.all(
    sessions.map(async (s) => {
      while (performance.now() < until) await act(plan, s, rec, drawAction(s.rng));
      s.close();
    }),
  );

  const details = [...latencies.keys()].filter((k) => k.startsWith(sortDetail(''))).sort();
  const order = [
    ...KINDS.map((k) => ({ ...k, detail: false })),
    ...details.map((kind) => ({ kind, group: 'list' as const, detail: true })),
  ];
  const kinds: KindStats[] = order.flatMap(({ kind, group, detail }) => {
    const times = (latencies.get(kind) ?? []).sort((a, b) => a - b);
    if (times.length === 0) return [];
    return [
      {
        kind,
        group,
        detail,
        count: times.length,
        rps: times.length / plan.seconds,
        p50: round(percentile(times, 0.5)),
        p95: round(percentile(times, 0.95)),
        p99: round(percentile(times, 0.99)),
        max: round(times[times.length - 1] ?? Number.NaN),
        errors: errors.get(kind) ?? 0,
        conflicts: conflicts.get(kind) ?? 0,
      },
    ];
  });
  const main = kinds.filter((k) => !k.detail);
  const requests = main.reduce((s, k) => s + k.count, 0);
  const all = KINDS.flatMap(({ kind }) => latencies.get(kind) ?? []).sort((a, b) => a - b);
  return {
    seconds: plan.seconds,
    sessions: plan.sessions.length,
    requests,
    rps: requests / plan.seconds,
    p50: round(percentile(all, 0.5)),
    p95: round(percentile(all, 0.95)),
    p99: round(percentile(all, 0.99)),
    writes: main.filter((k) => k.group === 'write').reduce((s, k) => s + k.count, 0),
    errors: main.reduce((s, k) => s + k.errors, 0),
    conflicts: main.reduce((s, k) => s + k.conflicts, 0),
    kinds,
    failures,
  };
};
