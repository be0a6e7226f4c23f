// The tenant portal's service worker (scope /portal): its page and its built scripts and styles are
// kept, so that a tenant offline still opens the portal and reads what it last saw (the answers and
// files themselves are kept by the page, in localStorage and the Cache API: portal-api.ts).
const CACHE = 'kodi-portal-shell-v1';

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const isPage = request.mode === 'navigate' && url.pathname.startsWith('/portal');
  const isAsset = url.pathname.startsWith('/assets/');
  if (!isPage && !isAsset) return;
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      const key = isPage ? '/portal' : request;
      try {
        const response = await fetch(request);
        if (response.ok) await cache.put(key, response.clone());
        return response;
      } catch (err) {
        const kept = await cache.match(key);
        if (kept) return kept;
        throw err;
      }
    })(),
  );
});
