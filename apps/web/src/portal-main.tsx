import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nProvider } from '@lingui/react';
import { activateLanguage, i18n, initialLanguage } from './lib/i18n.ts';
import { PortalApp } from './features/portal/portal-app.tsx';
import './features/portal/portal.css';

// The tenant portal's own entry (portal.html): it never loads the staff app (docs/decisions.md).
// the chosen or the browser's language until the session says the tenant's (portal-app.tsx)
void activateLanguage(initialLanguage());

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');

createRoot(container).render(
  <StrictMode>
    <I18nProvider i18n={i18n}>
      <PortalApp />
    </I18nProvider>
  </StrictMode>,
);

// What the tenant last saw stays readable offline: the service worker keeps the portal's page and
// scripts; the answers and files are kept by the pages themselves (portal-api.ts).
if ('serviceWorker' in navigator && import.meta.env.PROD) {
  void navigator.serviceWorker.register('/portal-sw.js', { scope: '/portal' }).catch(() => undefined);
}
