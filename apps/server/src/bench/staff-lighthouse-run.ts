/**
 * Only the staff pages' Lighthouse scores (issue 26), against a running server, without the rest of
 * `npm run bench`:
 *
 *   npm run -s build
 *   DEMO_DATA=1 ADMIN_EMAIL=… ADMIN_PASSWORD=… CAPTCHA_TEST_ANSWER=… PORT=4321 node apps/server/dist/main.js
 *   KODI_URL=http://127.0.0.1:4321 ADMIN_EMAIL=… ADMIN_PASSWORD=… CAPTCHA_TEST_ANSWER=… \
 *     npx tsx apps/server/src/bench/staff-lighthouse-run.ts [runs] [path…]
 *
 * Signs in as the administrator, works in the demo company (as e2e/tests/demo.setup.ts does), runs
 * Lighthouse `runs` times (default 1) over the pages and prints each run and the median per page,
 * with the load average. LIGHTHOUSE_KEEP=<dir> keeps each page's report (JSON) there.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HttpClient } from '../test/processes.ts';
import { STAFF_PAGES, staffLighthouse, type PageScores } from './staff-lighthouse.ts';

const base = process.env.KODI_URL ?? 'http://127.0.0.1:3000';
const runs = Number(process.argv[2] ?? 1);
const paths = process.argv.length > 3 ? process.argv.slice(3) : STAFF_PAGES;
const keep = process.env.LIGHTHOUSE_KEEP;

const signIn = async () => {
  const client = new HttpClient();
  await client.call(base, 'GET', '/auth/csrf-token');
  await client.call(base, 'GET', '/captcha');
  const login = await client.call(base, 'POST', '/auth/login', {
    email: process.env.ADMIN_EMAIL,
    password: process.env.ADMIN_PASSWORD,
    captcha_answer: process.env.CAPTCHA_TEST_ANSWER,
  });
  if (login.status !== 200) throw new Error(`sign-in: ${login.status} ${JSON.stringify(login.json)}`);
  return client;
};
let c = await signIn();
const status = await c.call(base, 'GET', '/auth/status');
const user = status.json.user as { id: number; company_id: number };
const companies = (await c.call(base, 'GET', '/companies')).json as unknown as { id: number; name: string }[];
const demo = companies.find((co) => co.name === 'Demo Properties');
if (demo && demo.id !== user.company_id) {
  const me = (await c.call(base, 'GET', `/users/${user.id}`)).json;
  const { email, first_name, last_name, country_code, active } = me;
  await c.call(base, 'PUT', `/users/${user.id}`, {
    email,
    first_name,
    last_name,
    country_code,
    active,
    company_id: demo.id,
  });
  // a user moved to another company is signed out everywhere: sign in again, in the demo company
  c = await signIn();
}
// the pages must be measured signed in: a report that ends on the sign-in page measures that instead
const check = await c.call(base, 'GET', '/auth/status');
if (!check.json.user) throw new Error('staff-lighthouse-run: not signed in');

const all: PageScores[][] = [];
for (let run = 1; run <= runs; run++) {
  const load = os.loadavg()[0]?.toFixed(2);
  const scores = await staffLighthouse(base, c.cookie, paths, (p, lhr) => {
    if (!keep) return;
    fs.mkdirSync(keep, { recursive: true });
    const name = `${p === '/' ? 'dashboard' : p.slice(1).replaceAll('/', '-')}-${run}.json`;
    fs.writeFileSync(path.join(keep, name), JSON.stringify(lhr));
  });
  all.push(scores);
  console.log(`run ${run} (load average ${load} before, ${os.loadavg()[0]?.toFixed(2)} after)`);
  for (const s of scores)
    console.log(
      `  ${s.path.padEnd(10)} performance ${s.performance}  accessibility ${s.accessibility}  TBT ${s.tbt} ms  LCP ${s.lcp} ms`,
    );
}
const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? 0)
    : Math.round(((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2);
};
console.log('median');
for (const p of paths) {
  const of = all.map((r) => r.find((s) => s.path === p)).filter((s): s is PageScores => !!s);
  console.log(
    `  ${p.padEnd(10)} performance ${median(of.map((s) => s.performance))}  accessibility ${median(of.map((s) => s.accessibility))}  TBT ${median(of.map((s) => s.tbt))} ms  LCP ${median(of.map((s) => s.lcp))} ms`,
  );
}
