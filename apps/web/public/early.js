// The first requests of a page load, started before the app's code has arrived (index.html loads
// this file on its own, async): who is signed in on every page, and on Home its dashboard. The app
// takes each answer once while it is fresh (src/lib/early.ts); without them it asks as usual.
(() => {
  const ask = (path) =>
    fetch(`/rentapi/api${path}`, {
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
    }).then(
      (res) => (res.ok ? res.json() : null),
      () => null,
    );
  // Home shows one property when the URL names one, or when one is remembered (src/lib/property-filter.ts;
  // the app uses this answer only if that is the property it shows, after checking whose it is)
  const property = () => {
    const named = new URLSearchParams(window.location.search).get('property_id');
    if (named !== null) return /^\d{1,10}$/.test(named) && Number(named) > 0 ? Number(named) : null;
    try {
      const kept = JSON.parse(localStorage.getItem('kodi.property') || 'null');
      return kept && typeof kept.id === 'number' ? kept.id : null;
    } catch {
      return null;
    }
  };
  // The sign-in and register pages: the first CAPTCHA image, whose answer the server keeps with the
  // session that who-is-signed-in opens (its cookie); the page shows this image
  // (src/components/ui/captcha.tsx) and so does not wait for its own code before asking for it. After
  // that answer, never beside it: two first requests at once could each open a session.
  const captchaPage = /^\/(login|register)\/?$/.test(window.location.pathname);
  const status = ask('/auth/status');
  const captcha = captchaPage
    ? status.then((answer) => {
        if (!answer || answer.user) return null;
        const nonce = Date.now();
        const image = new window.Image();
        image.src = `/rentapi/api/captcha?t=${nonce}`;
        return { nonce, image };
      })
    : null;
  // An entity's list page: its HTML names the list it shows first (apps/server/src/plugins/web.ts), whose
  // first page is asked here as the app will ask it (page 1 of 25 rows, the remembered property for a
  // list by property); the answer is kept as it came, and the app takes it only for that very URL
  // (src/lib/early.ts), so a guess that does not fit costs one request and nothing else.
  const firstList = window.document.querySelector('meta[name="kodi-first-list"]');
  let list = null;
  if (firstList && window.location.search === '') {
    const params = new URLSearchParams({ page: '1', page_size: '25' });
    const kept = firstList.hasAttribute('data-by-property') ? property() : null;
    if (kept !== null) params.set('property_id', String(kept));
    const url = `/rentapi/api/${firstList.getAttribute('content')}?${params.toString()}`;
    const response = fetch(url, { credentials: 'same-origin', headers: { accept: 'application/json' } });
    response.catch(() => null); // a failure is the app's to meet (it asks again)
    list = { url, response };
  }
  // The page's HTML draws Arrears' first line (apps/server/src/plugins/web.ts, issue 26) but not its
  // date: the browser's day, written here as the app writes it (packages/domain/src/dates.ts), once
  // the line is in the document (before the app's scripts run).
  const writeToday = () => {
    const line = window.document.querySelector('[data-kodi-today]');
    if (!line) return;
    const now = new Date();
    const day = Date.UTC(now.getFullYear(), now.getMonth(), now.getDate());
    const format = { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' };
    const text = line.getAttribute('data-kodi-today') || '';
    try {
      line.textContent = text.replace(
        '{date}',
        new Intl.DateTimeFormat(line.getAttribute('data-locale') || 'en-US', format).format(day),
      );
    } catch {
      // a locale the browser does not know: the app writes the line when it renders
    }
  };
  if (window.document.readyState === 'loading')
    window.document.addEventListener('readystatechange', writeToday, { once: true });
  else writeToday();
  const home = window.location.pathname === '/';
  const dashboardProperty = home ? property() : null;
  window.kodiEarly = {
    at: Date.now(),
    dashboardProperty,
    list,
    answers: {
      status,
      ...(captcha ? { captcha } : {}),
      ...(home
        ? {
            dashboard: ask(
              dashboardProperty === null ? '/dashboard' : `/dashboard?property_id=${dashboardProperty}`,
            ),
          }
        : {}),
    },
  };
})();
