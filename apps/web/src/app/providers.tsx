import type { ReactNode } from 'react';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { QueryClientProvider } from '@tanstack/react-query';
import { SnackbarProvider } from '../components/snackbar-provider.tsx';
import { queryClient } from '../lib/query-client.ts';
import { SessionWatch } from './session-watch.tsx';
import { theme } from './theme.ts';

/** Theme, server-state cache, snackbar and the session watch. */
export const Providers = ({ children }: { children: ReactNode }) => (
  <ThemeProvider theme={theme}>
    <CssBaseline />
    <QueryClientProvider client={queryClient}>
      <SnackbarProvider>
        <SessionWatch />
        {children}
      </SnackbarProvider>
    </QueryClientProvider>
  </ThemeProvider>
);
