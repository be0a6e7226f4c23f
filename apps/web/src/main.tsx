import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import './lib/session.ts';
import { App } from './app/app.tsx';
import { activateLanguage, initialLanguage } from './lib/i18n.ts';

// the language's catalogue loads while React starts (the pages show once it is in)
void activateLanguage(initialLanguage());

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');

// The first render as a transition: React renders it in slices of a few milliseconds, yielding to the
// browser between them, instead of in one long task (a phone's main thread stays responsive while the
// app starts; issue 26, total blocking time).
const root = createRoot(container);
startTransition(() => {
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
