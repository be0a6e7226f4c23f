import { createBrowserRouter, type LoaderFunctionArgs } from 'react-router';
import { PageLoader } from '../components/page-loader.tsx';
import { setNavigator } from '../lib/navigation.ts';
import { AppShell } from './app-shell.tsx';
import { RootError } from './root-error.tsx';
import { guardLoader } from './route-guard.ts';
import { appRoutes } from './routes.tsx';

export const router = createBrowserRouter([
  {
    id: 'root',
    element: <AppShell />,
    errorElement: <RootError />,
    hydrateFallbackElement: <PageLoader />,
    children: appRoutes.map((route) => ({
      id: route.id,
      path: route.path,
      element: route.element,
      loader: async (args: LoaderFunctionArgs) => {
        const allowed = await guardLoader(route.guard)(args);
        route.prefetch?.();
        // the page's code before the route commits (a failure shows on the page, with a reload)
        await route.load().catch(() => undefined);
        return allowed;
      },
    })),
  },
]);

// Lets the session store and API client navigate (401, logout) without a full page load.
setNavigator((to, options) => {
  void router.navigate(to, options);
});
