/**
 * The staff pages loaded in Debian's Chromium throttled as Lighthouse's phone (150 ms round trip,
 * 1.6 Mbit/s, CPU 4×), as Chrome itself sees them (issue 26): first and largest contentful paint, and
 * the blocking time of the long tasks after the first paint (each one's part over 50 ms, for 6 s),
 * read in the page; a check beside Lighthouse's simulation, which a busy machine makes noisy.
 *
 *   KODI_URL=… ADMIN_EMAIL=… ADMIN_PASSWORD=… CAPTCHA_TEST_ANSWER=… \
 *     npx tsx apps/server/src/bench/staff-phone-load.ts <loads> /login / /payments …
 */
import { HttpClient } from '../test/processes.ts';
import { CHROMIUM } from './browser.ts';
const base = process.env.KODI_URL ?? 'http://127.0.0.1:4381';
const paths = process.argv.slice(3);
const times = Number(process.argv[2] ?? 3);
const c = new HttpClient();
await c.call(base, 'GET', '/auth/csrf-token');
await c.call(base, 'GET', '/captcha');
await c.call(base, 'POST', '/auth/login', {
  email: process.env.ADMIN_EMAIL,
  password: process.env.ADMIN_PASSWORD,
  captcha_answer: process.env.CAPTCHA_TEST_ANSWER,
});
const { chromium } = await import('@playwright/test');
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
const observe = `(() => {
  window.__m = { lcp: 0, fcp: 0, tasks: [] };
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__m.lcp = e.startTime; }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((l) => { for (const e of l.getEntries()) if (e.name === 'first-contentful-paint') window.__m.fcp = e.startTime; }).observe({ type: 'paint', buffered: true });
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__m.tasks.push([e.startTime, e.duration]); }).observe({ type: 'longtask', buffered: true });
})()`;
for (const path of paths) {
  const rows: string[] = [];
  for (let i = 0; i < times; i++) {
    const ctx = await browser.newContext({
      viewport: { width: 412, height: 823 },
      extraHTTPHeaders: path === '/login' ? {} : { Cookie: c.cookie },
    });
    const page = await ctx.newPage();
    await page.addInitScript(observe);
    const cdp = await ctx.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 150,
      downloadThroughput: (1.6 * 1024 * 1024) / 8,
      uploadThroughput: (750 * 1024) / 8,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.goto(base + path, { waitUntil: 'load' });
    await page.waitForTimeout(6000);
    const m = (await page.evaluate('window.__m')) as { lcp: number; fcp: number; tasks: [number, number][] };
    const tbt = m.tasks.filter(([s]) => s >= m.fcp).reduce((sum, [, d]) => sum + Math.max(0, d - 50), 0);
    const longest = Math.max(0, ...m.tasks.map(([, d]) => d));
    rows.push(
      `FCP ${Math.round(m.fcp)} LCP ${Math.round(m.lcp)} TBT ${Math.round(tbt)} longest ${Math.round(longest)}`,
    );
    await ctx.close();
  }
  console.log(path.padEnd(10), rows.join(' | '));
}
await browser.close();
