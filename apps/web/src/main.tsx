import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import './lib/session.ts';
import { App } from './app/app.tsx';
import { activateLanguage, initialLanguage } from './lib/i18n.ts';

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');

// The first render as a transition: React renders it in slices of a few milliseconds, yielding to the
// browser between them, instead of in one long task (a phone's main thread stays responsive while the
// app starts; issue 26, total blocking time). The pages show once a language's catalogue is in (the
// page's HTML names it beside the entry, so it has usually arrived by now): the first render waits for
// it here, rather than being started by the catalogue's arrival (Lingui's provider re-rendering, one
// long task outside the transition). A catalogue that fails to load is asked once more (English).
const root = createRoot(container);
const render = () =>
  startTransition(() => {
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
activateLanguage(initialLanguage())
  .catch(() => activateLanguage('en'))
  .then(render, render);
