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
  const home = window.location.pathname === '/';
  const dashboardProperty = home ? property() : null;
  window.kodiEarly = {
    at: Date.now(),
    dashboardProperty,
    answers: {
      status: ask('/auth/status'),
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
