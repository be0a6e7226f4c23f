import { createBrowserRouter, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { PageLoader } from '../components/page-loader.tsx';
import { setNavigator } from '../lib/navigation.ts';
import { loadTexts } from '../lib/i18n.ts';
import { getSession } from '../lib/session.ts';
import '../lib/texts.ts';
import { AppShell } from './app-shell.tsx';
import { RootError } from './root-error.tsx';
import { guardLoader } from './route-guard.ts';
import { appRoutes, type AppRoute } from './routes.tsx';

const routeObject = (route: AppRoute): RouteObject => ({
  id: route.id,
  path: route.path,
  element: route.element,
  loader: async (args: LoaderFunctionArgs) => {
    // the page's code, asked beside the guard's status check, is there before the route commits (a
    // failure shows on the page, with a reload)
    const loading = route.load().catch(() => undefined);
    // the page's texts (issue 30) beside its code: the staff app's once signed in, and the page's own
    // groups; a page that needs a sign-in asks for them at once, another once the guard has answered
    const staffPage = route.guard !== 'guest' && route.guard !== 'none';
    const groups = [...(staffPage ? ['staff'] : []), ...(route.texts ?? [])];
    const early = groups.length > 0 ? loadTexts(...groups).catch(() => undefined) : undefined;
    const allowed = await guardLoader(route.guard)(args);
    route.prefetch?.(new URL(args.request.url));
    const texts =
      getSession().user && route.guard === 'none'
        ? Promise.all([early, loadTexts('staff').catch(() => undefined)])
        : early;
    await Promise.all([loading, texts]);
    return allowed;
  },
  // A change of the page's query alone (a property chosen, a filter cleared) is no new page: its guard,
  // code and texts are those already in, and the page shows the new query at once. Running the loader
  // again held the old URL while a filter's own effects ran against it (issue 30's texts made it wait).
  shouldRevalidate: ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
    currentUrl.pathname === nextUrl.pathname && currentUrl.search !== nextUrl.search
      ? false
      : defaultShouldRevalidate,
});

let entityRoutesAdded = false;

export const router = createBrowserRouter(
  [
    {
      id: 'root',
      element: <AppShell />,
      errorElement: <RootError />,
      hydrateFallbackElement: <PageLoader />,
      children: appRoutes.map(routeObject),
    },
  ],
  {
    // The entities' routes, made from their definitions, are added the first time a path is matched
    // only by a route with parameters or '*' (React Router asks then): the definitions load on demand.
    patchRoutesOnNavigation: async ({ patch }) => {
      if (entityRoutesAdded) return;
      // an entity's list page is the likely one: its code loads beside the routes', not after them
      void import('./entity-route.tsx').catch(() => undefined);
      const { entityRoutes } = await import('./entity-routes.tsx');
      if (entityRoutesAdded) return;
      entityRoutesAdded = true;
      patch('root', entityRoutes.map(routeObject));
    },
  },
);

// Lets the session store and API client navigate (401, logout) without a full page load.
setNavigator((to, options) => {
  void router.navigate(to, options);
});
