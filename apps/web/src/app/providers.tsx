import type { ReactNode } from 'react';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { QueryClientProvider } from '@tanstack/react-query';
import { I18nProvider } from '@lingui/react';
import { SnackbarProvider } from '../components/snackbar-provider.tsx';
import { i18n } from '../lib/i18n.ts';
import { queryClient } from '../lib/query-client.ts';
import { LanguageFollow } from './language-follow.tsx';
import { SessionWatch } from './session-watch.tsx';
import { theme } from './theme.ts';

/** Theme, server-state cache, snackbar, the session watch and the pages' language (issue 30). */
export const Providers = ({ children }: { children: ReactNode }) => (
  <ThemeProvider theme={theme}>
    <CssBaseline />
    <QueryClientProvider client={queryClient}>
      {/* around everything that shows words, the snackbar's and the session's notices too (main.tsx
          renders once a language's catalogue is in) */}
      <I18nProvider i18n={i18n}>
        <SnackbarProvider>
          <SessionWatch />
          <LanguageFollow />
          {children}
        </SnackbarProvider>
      </I18nProvider>
    </QueryClientProvider>
  </ThemeProvider>
);
