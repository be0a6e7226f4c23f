import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';

/**
 * The entry of `receipt.html`, the page a receipt's QR code opens (`/r/{code}`, served by the server
 * for those paths): React and this page only, none of the staff app (no router, MUI, session or
 * query client), so that a phone on a slow network shows it quickly.
 */
const PublicReceiptPage = lazy(async () => ({
  default: (await import('./features/public-receipt/public-receipt-page.tsx')).PublicReceiptPage,
}));

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');

createRoot(container).render(
  <StrictMode>
    <Suspense fallback={null}>
      <PublicReceiptPage />
    </Suspense>
  </StrictMode>,
);
