import { Component, Suspense, lazy, type ComponentType, type ErrorInfo, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { PageLoader } from './page-loader.tsx';
import { useT } from '../lib/i18n.ts';

/** A page's code could not be loaded (network, new deployment, or it took longer than the limit). */
export class ChunkLoadError extends Error {
  constructor(cause?: unknown) {
    super('Loading chunk failed', { cause });
    this.name = 'ChunkLoadError';
  }
}

export const PAGE_LOAD_TIMEOUT_MS = 120_000;

const withTimeout = <T,>(promise: Promise<T>, ms: number): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError('timeout')), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(new ChunkLoadError(error));
      },
    );
  });

type BoundaryState = { error: Error | null };

/** Catches a failed page load (or a crash while rendering it) and offers a reload. */
export class PageErrorBoundary extends Component<{ children: ReactNode }, BoundaryState> {
  override state: BoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): BoundaryState {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Page failed', error, info.componentStack);
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return <PageErrorOf chunk={error instanceof ChunkLoadError} />;
  }
}

/** The boundary's message in the page's language. */
const PageErrorOf = ({ chunk }: { chunk: boolean }) => {
  const { t } = useT();
  return <PageError message={chunk ? t('shell.chunkFailed') : t('shell.somethingWrong')} />;
};

export const PageError = ({ message }: { message: string }) => {
  const { t } = useT();
  return (
    <Box sx={{ py: 4, maxWidth: 560, mx: 'auto' }}>
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => window.location.reload()}>
            {t('shell.reload')}
          </Button>
        }
      >
        {message}
      </Alert>
    </Box>
  );
};

/** A page of the route table: its element, and `load`, which fetches its code (once). */
export type LazyPage = { element: ReactNode; load: () => Promise<unknown> };

/**
 * A lazily loaded page for the route table: `...lazyPage(() => import('./x-page.tsx'), 'XPage')`.
 * The route's loader awaits `load()`, so that the page renders at once when the route commits: no
 * Suspense fallback is shown, and React's wait before revealing a suspended page (up to 300 ms) is
 * not paid. Should the code still be missing when the page renders, it shows a loader meanwhile,
 * and 'Loading chunk failed' with a reload button when the code does not arrive (error, or more
 * than 120 s).
 */
export const lazyPage = <K extends string, M extends Record<K, ComponentType>>(
  load: () => Promise<M>,
  exportName: K,
): LazyPage => {
  let loaded: ComponentType | undefined;
  let loading: Promise<{ default: ComponentType }> | undefined;
  const loadPage = () => {
    loading ??= withTimeout(load(), PAGE_LOAD_TIMEOUT_MS).then((module) => {
      loaded = module[exportName] as ComponentType;
      return { default: loaded };
    });
    return loading;
  };
  const Lazy = lazy<ComponentType>(loadPage);
  const Page = () => {
    const Loaded = loaded;
    return Loaded ? <Loaded /> : <Lazy />;
  };
  return {
    element: (
      <PageErrorBoundary>
        <Suspense fallback={<PageLoader />}>
          <Page />
        </Suspense>
      </PageErrorBoundary>
    ),
    load: loadPage,
  };
};
