import fs from 'node:fs';

export type BrowserTiming = {
  /** ms from `page.goto('/')` to the dashboard's 'Available Units' count showing the right number, per load. */
  dashboardMs: number[];
  /** ms from `page.goto('/')` to the `/rentapi/api/dashboard` response, per load. */
  apiMs: number[];
};

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = () => fs.existsSync(CHROMIUM);

/**
 * Signs in through the login page in headless Chromium, then times the dashboard: from navigation to
 * the 'Available Units' card showing `availableUnits` (its data rendered), for `tries` loads.
 */
export const timeDashboard = async (
  baseUrl: string,
  login: { email: string; password: string; captcha: string },
  availableUnits: number,
  tries = 3,
): Promise<BrowserTiming> => {
  const { chromium } = await import('@playwright/test');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    const page = await browser.newPage({ baseURL: baseUrl });
    await page.goto('/login');
    await page.getByLabel('Email').fill(login.email);
    await page.getByLabel('Password', { exact: true }).fill(login.password);
    await page.getByRole('textbox', { name: 'CAPTCHA' }).fill(login.captcha);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.getByRole('heading', { name: 'Kodi Rentals Dashboard' }).waitFor({ timeout: 30_000 });
    const card = page.getByRole('region', { name: 'Available Units' });
    const timing: BrowserTiming = { dashboardMs: [], apiMs: [] };
    for (let i = 0; i < tries; i++) {
      await page.goto('about:blank');
      const t0 = Date.now();
      const api = page
        .waitForResponse((r) => r.url().includes('/rentapi/api/dashboard'), { timeout: 30_000 })
        .then(() => Date.now() - t0);
      await page.goto('/');
      await card.getByText(String(availableUnits), { exact: true }).waitFor({ timeout: 30_000 });
      timing.dashboardMs.push(Date.now() - t0);
      timing.apiMs.push(await api);
    }
    return timing;
  } finally {
    await browser.close();
  }
};
