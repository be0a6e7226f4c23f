import fs from 'node:fs';

export type BrowserTiming = {
  /**
   * ms from the navigation's start to the frame that shows the dashboard's 'Available Units' count
   * with the right number, per load, read in the page (`performance.now()` is counted from the
   * navigation's start; a MutationObserver sees the count arrive, the next animation frame is when
   * it is drawn).
   */
  dashboardMs: number[];
  /** ms from `page.goto('/')` until Playwright saw the count (its polling adds up to ~100 ms), per load. */
  observedMs: number[];
};

/**
 * Runs in each page before its scripts (a string: this package is typed for Node, not the DOM):
 * notes in `window.kodiShownAt` when the 'Available Units' card (a section labelled by its title)
 * first holds the count, at the next animation frame.
 */
const watchCount = (count: string) => `(() => {
  const count = ${JSON.stringify(count)};
  const shows = () =>
    [...document.querySelectorAll('section[aria-labelledby]')].some((section) => {
      const title = document.getElementById(section.getAttribute('aria-labelledby') || '');
      return (
        title && title.textContent === 'Available Units' &&
        [...section.querySelectorAll('*')].some((e) => e.childElementCount === 0 && e.textContent === count)
      );
    });
  const observer = new MutationObserver(() => {
    if (window.kodiShownAt !== undefined || !shows()) return;
    window.kodiShownAt = -1;
    observer.disconnect();
    requestAnimationFrame((frame) => { window.kodiShownAt = frame; });
  });
  observer.observe(document, { subtree: true, childList: true, characterData: true });
})();`;

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
    const count = String(availableUnits);
    await page.addInitScript(watchCount(count));
    const timing: BrowserTiming = { dashboardMs: [], observedMs: [] };
    for (let i = 0; i < tries; i++) {
      await page.goto('about:blank');
      const t0 = Date.now();
      await page.goto('/');
      await card.getByText(count, { exact: true }).waitFor({ timeout: 30_000 });
      timing.observedMs.push(Date.now() - t0);
      await page.waitForFunction('(window.kodiShownAt ?? -1) >= 0', undefined, { timeout: 5_000 });
      timing.dashboardMs.push(Math.round(Number(await page.evaluate('window.kodiShownAt'))));
    }
    return timing;
  } finally {
    await browser.close();
  }
};
