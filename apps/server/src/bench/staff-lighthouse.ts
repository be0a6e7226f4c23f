import { CHROMIUM } from './browser.ts';

export type PageScores = {
  path: string;
  performance: number;
  accessibility: number;
  /** total blocking time and largest contentful paint (ms), as Lighthouse simulates them */
  tbt: number;
  lcp: number;
};

/** The staff pages issue 26 measures on a phone, signed in (the login page signed out). */
export const STAFF_PAGES = ['/login', '/', '/payments', '/arrears', '/tenants'];

/**
 * Staff pages in Lighthouse's default (mobile) mode, in Debian's Chromium (issue 26: performance
 * ≥ 90 and accessibility 100 on each): the signed-in pages carry the staff session's cookie; the
 * login page is measured without it.
 */
export const staffLighthouse = async (
  baseUrl: string,
  cookie: string,
  paths: string[] = STAFF_PAGES,
  /** each page's whole Lighthouse result, e.g. to keep it for a closer look */
  onResult?: (path: string, lhr: unknown) => void,
): Promise<PageScores[]> => {
  const { default: lighthouse } = await import('lighthouse');
  const { chromium } = await import('@playwright/test');
  const port = 9300 + Math.floor(Math.random() * 500);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', `--remote-debugging-port=${port}`],
  });
  const scores: PageScores[] = [];
  try {
    for (const path of paths) {
      const result = await lighthouse(`${baseUrl}${path}`, {
        port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility'],
        extraHeaders: path === '/login' ? {} : { Cookie: cookie },
      });
      const lhr = result?.lhr;
      if (lhr) onResult?.(path, lhr);
      // a signed-in page that ended on the sign-in page measured that page instead: never a figure
      const ended = lhr ? new URL(lhr.finalDisplayedUrl).pathname : '';
      if (path !== '/login' && ended === '/login')
        throw new Error(`Lighthouse: ${path} was not signed in (it ended on /login)`);
      scores.push({
        path,
        performance: Math.round((lhr?.categories.performance?.score ?? 0) * 100),
        accessibility: Math.round((lhr?.categories.accessibility?.score ?? 0) * 100),
        tbt: Math.round(lhr?.audits['total-blocking-time']?.numericValue ?? 0),
        lcp: Math.round(lhr?.audits['largest-contentful-paint']?.numericValue ?? 0),
      });
    }
  } finally {
    await browser.close();
  }
  return scores;
};
