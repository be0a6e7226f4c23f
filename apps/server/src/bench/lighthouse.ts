import { HttpClient } from '../test/processes.ts';
import type { Database } from '../db/client.ts';
import { CHROMIUM } from './browser.ts';

export type PortalScores = { performance: number; accessibility: number; url: string };

/**
 * The tenant portal's home in Lighthouse's default (mobile) mode, in Debian's Chromium (issue 19:
 * performance ≥ 90, accessibility 100): a tenant of the large company with a lease is invited (the
 * invitation's link read from the messages outbox), accepts it, and its session's cookie goes with
 * Lighthouse's requests.
 */
export const portalLighthouse = async (
  baseUrl: string,
  db: Database,
  staff: { cookie: string; csrf: string },
): Promise<PortalScores> => {
  // a tenant with a lease and an e-mail no account uses yet
  const rows = await db.query<{ id: number }>(
    `SELECT t.id FROM tenants t
      WHERE t.company_id = 1 AND t.email IS NOT NULL
        AND EXISTS (SELECT 1 FROM occupancy o WHERE o.company_id = t.company_id AND o.tenant_id = t.id)
        AND NOT EXISTS (SELECT 1 FROM users u WHERE lower(u.email) = lower(t.email))
      ORDER BY t.id LIMIT 1`,
  );
  const tenantId = rows[0]?.id;
  if (!tenantId) throw new Error('no tenant with a lease to invite');
  const admin = new HttpClient();
  admin.cookie = staff.cookie;
  admin.csrf = staff.csrf;
  const invited = await admin.call(baseUrl, 'POST', `/tenants/${tenantId}/invite`, { channel: 'email' });
  if (invited.status !== 201) throw new Error(`invite: ${invited.status} ${JSON.stringify(invited.json)}`);
  const message = await db.query<{ body: string }>(
    `SELECT body FROM messages WHERE tenant_id = $1 AND kind = 'invitation' ORDER BY id DESC LIMIT 1`,
    [tenantId],
  );
  const token = /token=([\w%-]+)/.exec(message[0]?.body ?? '')?.[1];
  if (!token) throw new Error('no invitation link');
  const tenant = new HttpClient();
  await tenant.call(baseUrl, 'GET', '/auth/csrf-token');
  const accepted = await tenant.call(baseUrl, 'POST', '/portal/auth/accept', {
    token: decodeURIComponent(token),
    password: 'bench-tenant-password',
  });
  if (accepted.status !== 200) throw new Error(`accept: ${accepted.status} ${JSON.stringify(accepted.json)}`);

  const { default: lighthouse } = await import('lighthouse');
  const { chromium } = await import('@playwright/test');
  const port = 9300 + Math.floor(Math.random() * 500);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', `--remote-debugging-port=${port}`],
  });
  try {
    const url = `${baseUrl}/portal`;
    const result = await lighthouse(url, {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility'],
      extraHeaders: { Cookie: tenant.cookie },
    });
    const categories = result?.lhr.categories;
    return {
      url,
      performance: Math.round((categories?.performance?.score ?? 0) * 100),
      accessibility: Math.round((categories?.accessibility?.score ?? 0) * 100),
    };
  } finally {
    await browser.close();
  }
};
