import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nProvider } from '@lingui/react';
import { activateLanguage, i18n, initialLanguage, loadTexts, registerTextGroup } from './lib/i18n.ts';

/**
 * The entry of `receipt.html`, the page a receipt's QR code opens (`/r/{code}`, served by the server
 * for those paths): React and this page only, none of the staff app (no router, MUI, session or
 * query client), so that a phone on a slow network shows it quickly.
 */
const PublicReceiptPage = lazy(async () => ({
  default: (await import('./features/public-receipt/public-receipt-page.tsx')).PublicReceiptPage,
}));

// the browser's language (issue 30): its catalogue (the base and the receipt's texts) loads with the
// page's chunk
registerTextGroup('receipt', (language) =>
  ({
    en: () => import('virtual:kodi-catalogue/en/receipt'),
    sw: () => import('virtual:kodi-catalogue/sw/receipt'),
    fr: () => import('virtual:kodi-catalogue/fr/receipt'),
  })[language](),
);
void loadTexts('receipt').catch(() => undefined);
void activateLanguage(initialLanguage());

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');

createRoot(container).render(
  <StrictMode>
    <I18nProvider i18n={i18n}>
      <Suspense fallback={null}>
        <PublicReceiptPage />
      </Suspense>
    </I18nProvider>
  </StrictMode>,
);
