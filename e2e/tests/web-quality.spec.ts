import http from 'node:http';
import zlib from 'node:zlib';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { signIn } from './helpers.ts';

const DASHBOARD = 'Kodi Rentals Dashboard';

/** A GET straight over HTTP: the bytes as sent (Playwright's own requests decode them). */
const rawGet = (url: string, headers: Record<string, string>) =>
  new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      })
      .on('error', reject);
  });

test('the main script comes precompressed, brotli or gzip, and decodes to the same bytes', async ({
  baseURL,
}) => {
  const index = await rawGet(`${baseURL}/`, { accept: 'text/html' });
  const main = /<script type="module"[^>]* src="(\/assets\/index-[^"]+\.js)"/.exec(
    index.body.toString(),
  )?.[1];
  expect(main, 'the entry script in index.html').toBeTruthy();
  const plain = await rawGet(`${baseURL}${main}`, { accept: '*/*' });
  expect(plain.status).toBe(200);
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect(plain.body.length).toBeGreaterThan(100_000);

  const br = await rawGet(`${baseURL}${main}`, {
    accept: '*/*',
    'accept-encoding': 'gzip, deflate, br, zstd',
  });
  expect(br.headers['content-encoding']).toBe('br');
  expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(br.body.length).toBeLessThan(plain.body.length / 3);
  expect(zlib.brotliDecompressSync(br.body).equals(plain.body)).toBe(true);

  const gz = await rawGet(`${baseURL}${main}`, { accept: '*/*', 'accept-encoding': 'gzip' });
  expect(gz.headers['content-encoding']).toBe('gzip');
  expect(zlib.gunzipSync(gz.body).equals(plain.body)).toBe(true);

  // a page route asked for anything (`Accept: */*`) is the app, not a 404
  const units = await rawGet(`${baseURL}/units`, { accept: '*/*' });
  expect(units.status).toBe(200);
  expect(units.headers['content-type']).toMatch(/^text\/html/);
});

/** Collects the page's Content-Security-Policy violations and the console's errors about the policy. */
const watchCsp = async (page: Page) => {
  const console: string[] = [];
  page.on('console', (m) => {
    if (/content security policy|unsafe-eval/i.test(m.text())) console.push(m.text());
  });
  // plain script text: it runs in the page (this package's types have no DOM)
  await page.addInitScript({
    content: `window.cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) =>
        window.cspViolations.push(e.violatedDirective + ' ' + e.blockedURI + ' ' + e.sourceFile + ':' + e.lineNumber));`,
  });
  return async () => ({
    events: await page.evaluate<string[]>('window.cspViolations'),
    console,
  });
};

test('the login page and a list with its form break no Content-Security-Policy rule (zod runs without eval)', async ({
  page,
}) => {
  const violations = await watchCsp(page);
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Sign in', level: 1 })).toBeVisible();
  // the login form's zod rules, on an invalid address
  await page.getByLabel('Email').fill('not-an-address');
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page.getByText('E-mail must be valid.')).toBeVisible();
  expect(await violations()).toEqual({ events: [], console: [] });

  await signIn(page);
  await expect(page.getByRole('heading', { name: DASHBOARD })).toBeVisible();
  await page.goto('/units');
  await expect(page.getByRole('heading', { name: 'Units', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Add Unit' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('This field is required.').first()).toBeVisible();
  expect(await violations()).toEqual({ events: [], console: [] });
});

test('the payments list, with a Pending chip, passes axe with color-contrast', async ({ page }) => {
  await signIn(page);
  await expect(page.getByRole('heading', { name: DASHBOARD })).toBeVisible();
  await page.goto('/payments');
  const table = page.getByRole('table', { name: 'Payments' });
  await expect(table.getByRole('row').nth(5)).toBeVisible();
  // by status, descending: pending first (and completed, failed on the pages after)
  const status = table.getByRole('button', { name: 'Status' });
  await status.click();
  await expect(table.getByRole('columnheader', { name: 'Status' })).toHaveAttribute('aria-sort', 'ascending');
  await status.click();
  await expect(table.getByRole('columnheader', { name: 'Status' })).toHaveAttribute(
    'aria-sort',
    'descending',
  );
  await expect(table.getByText('Pending', { exact: true }).first()).toBeVisible();
  await expect(table.getByRole('progressbar')).toHaveCount(0);
  const result = await new AxeBuilder({ page }).include('main').withRules(['color-contrast']).analyze();
  const failures = result.violations.flatMap((v) =>
    v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary}`),
  );
  expect(failures).toEqual([]);
  expect(result.passes.find((p) => p.id === 'color-contrast')?.nodes.length ?? 0).toBeGreaterThan(0);
});

/** axe's serious and critical violations on the page as it is now. */
const seriousViolations = async (page: Page) =>
  (await new AxeBuilder({ page }).analyze()).violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);

test('the menu button names the drawer only while it is in the page: axe passes before its code arrives, after, and closed', async ({
  page,
}) => {
  await signIn(page);
  await expect(page.getByRole('heading', { name: DASHBOARD })).toBeVisible();
  // the drawer's code held back until released (routing also turns the browser's cache off)
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  // the lazy chunk of app-shell.tsx (entity-drawer), or app-drawer when the bundler splits it apart
  await page.route(/\/assets\/(app|entity)-drawer-[^/]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/');
  await expect(page.getByRole('region', { name: 'Available Units' }).getByText(/^\d+$/)).toBeVisible();
  const menu = page.getByRole('button', { name: 'Toggle navigation' });
  const nav = page.locator('#app-navigation');
  await expect(menu).toBeVisible();
  await expect(nav).toHaveCount(0);
  await expect(menu).not.toHaveAttribute('aria-controls');
  expect(await seriousViolations(page), 'before the drawer').toEqual([]);

  release();
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
  await expect(menu).toHaveAttribute('aria-controls', 'app-navigation');
  expect(await seriousViolations(page), 'with the drawer').toEqual([]);

  // closed on a desktop, the drawer stays in the page, hidden, still named by the button
  await menu.click();
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeHidden();
  await expect(nav).toHaveCount(1);
  await expect(menu).toHaveAttribute('aria-controls', 'app-navigation');
  expect(await seriousViolations(page), 'with the drawer closed').toEqual([]);
  await menu.click();
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
});

/** Records every layout shift not caused by input, from the start of the page's load. */
const watchLayoutShifts = (page: Page) =>
  page.addInitScript({
    content: `window.layoutShifts = [];
      const describe = (node) => {
        if (!(node instanceof Element)) return String(node ? node.nodeName : '?');
        const cls = typeof node.className === 'string' ? node.className.split(' ').slice(0, 2).join('.') : '';
        return node.tagName.toLowerCase() + (node.id ? '#' + node.id : '') + (cls ? '.' + cls : '');
      };
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          if (entry.hadRecentInput) continue;
          window.layoutShifts.push({
            value: entry.value,
            at: Math.round(entry.startTime),
            nodes: (entry.sources || []).map((s) => describe(s.node)),
          });
        }
      }).observe({ type: 'layout-shift', buffered: true });`,
  });

const cumulativeShift = async (page: Page) => {
  // shifts come in after the frames that draw them
  await page.waitForTimeout(1500);
  const shifts = await page.evaluate<{ value: number; at: number; nodes: string[] }[]>('window.layoutShifts');
  return { cls: shifts.reduce((sum, s) => sum + s.value, 0), shifts };
};

for (const [name, viewport] of [
  ['desktop', { width: 1280, height: 800 }],
  ['mobile', { width: 390, height: 844 }],
] as const) {
  test(`the dashboard and a list page load with a layout shift under 0.05 (${name})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await signIn(page);
    await expect(page.getByRole('heading', { name: DASHBOARD })).toBeVisible();
    await watchLayoutShifts(page);

    await page.goto('/');
    await expect(page.getByRole('heading', { name: DASHBOARD })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Available Units' }).getByText(/^\d+$/)).toBeVisible();
    const home = await cumulativeShift(page);
    expect(home.cls, JSON.stringify(home.shifts)).toBeLessThan(0.05);

    await page.goto('/payments');
    // a table on a computer, cards on a phone (issue 26)
    const rows =
      name === 'desktop'
        ? page.getByRole('table', { name: 'Payments' }).getByRole('row')
        : page.getByRole('list', { name: 'Payments', exact: true }).getByTestId('row-card');
    await expect(rows.nth(5)).toBeVisible();
    const payments = await cumulativeShift(page);
    expect(payments.cls, JSON.stringify(payments.shifts)).toBeLessThan(0.05);
  });
}
