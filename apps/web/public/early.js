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
  window.kodiEarly = {
    at: Date.now(),
    answers: {
      status: ask('/auth/status'),
      ...(window.location.pathname === '/' ? { dashboard: ask('/dashboard') } : {}),
    },
  };
})();
