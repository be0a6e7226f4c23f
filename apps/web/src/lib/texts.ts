import { useEffect, useState } from 'react';
import type { CatalogueGroup } from '@kodi/domain/i18n/web';
import { loadTexts, registerTextGroup } from './i18n.ts';

/**
 * The staff app's catalogue groups beyond `base` (issue 30, packages/domain/src/i18n/groups.ts), one
 * chunk per language and group: `auth` with sign-in and register, `staff` (the drawer) once a staff
 * user is signed in, `entity` with the entities' pages and dialogs. The router asks for them beside the page's code
 * (app/router.tsx). Only the staff app's entry imports this module: the receipt check and the portal
 * never ship these loaders.
 */
registerTextGroup('auth', (language) =>
  ({
    en: () => import('virtual:kodi-catalogue/en/auth'),
    sw: () => import('virtual:kodi-catalogue/sw/auth'),
    fr: () => import('virtual:kodi-catalogue/fr/auth'),
  })[language](),
);
registerTextGroup('staff', (language) =>
  ({
    en: () => import('virtual:kodi-catalogue/en/staff'),
    sw: () => import('virtual:kodi-catalogue/sw/staff'),
    fr: () => import('virtual:kodi-catalogue/fr/staff'),
  })[language](),
);
// (English without the `entity` namespace: the definitions' own words, vite-catalogues.ts)
registerTextGroup('entity', (language) =>
  ({
    en: () => import('virtual:kodi-catalogue/en/entity'),
    sw: () => import('virtual:kodi-catalogue/sw/entity'),
    fr: () => import('virtual:kodi-catalogue/fr/entity'),
  })[language](),
);

registerTextGroup('dashboard', (language) =>
  ({
    en: () => import('virtual:kodi-catalogue/en/dashboard'),
    sw: () => import('virtual:kodi-catalogue/sw/dashboard'),
    fr: () => import('virtual:kodi-catalogue/fr/dashboard'),
  })[language](),
);

registerTextGroup('arrears', (language) =>
  ({
    en: () => import('virtual:kodi-catalogue/en/arrears'),
    sw: () => import('virtual:kodi-catalogue/sw/arrears'),
    fr: () => import('virtual:kodi-catalogue/fr/arrears'),
  })[language](),
);

registerTextGroup('help', (language) =>
  ({
    en: () => import('virtual:kodi-catalogue/en/help'),
    sw: () => import('virtual:kodi-catalogue/sw/help'),
    fr: () => import('virtual:kodi-catalogue/fr/help'),
  })[language](),
);

registerTextGroup('books', (language) =>
  ({
    en: () => import('virtual:kodi-catalogue/en/books'),
    sw: () => import('virtual:kodi-catalogue/sw/books'),
    fr: () => import('virtual:kodi-catalogue/fr/books'),
  })[language](),
);

registerTextGroup('reports', (language) =>
  ({
    en: () => import('virtual:kodi-catalogue/en/reports'),
    sw: () => import('virtual:kodi-catalogue/sw/reports'),
    fr: () => import('virtual:kodi-catalogue/fr/reports'),
  })[language](),
);

registerTextGroup('imports', (language) =>
  ({
    en: () => import('virtual:kodi-catalogue/en/imports'),
    sw: () => import('virtual:kodi-catalogue/sw/imports'),
    fr: () => import('virtual:kodi-catalogue/fr/imports'),
  })[language](),
);

registerTextGroup('collections', (language) =>
  ({
    en: () => import('virtual:kodi-catalogue/en/collections'),
    sw: () => import('virtual:kodi-catalogue/sw/collections'),
    fr: () => import('virtual:kodi-catalogue/fr/collections'),
  })[language](),
);

registerTextGroup('messages', (language) =>
  ({
    en: () => import('virtual:kodi-catalogue/en/messages'),
    sw: () => import('virtual:kodi-catalogue/sw/messages'),
    fr: () => import('virtual:kodi-catalogue/fr/messages'),
  })[language](),
);

registerTextGroup('users', (language) =>
  ({
    en: () => import('virtual:kodi-catalogue/en/users'),
    sw: () => import('virtual:kodi-catalogue/sw/users'),
    fr: () => import('virtual:kodi-catalogue/fr/users'),
  })[language](),
);

registerTextGroup('audit', (language) =>
  ({
    en: () => import('virtual:kodi-catalogue/en/audit'),
    sw: () => import('virtual:kodi-catalogue/sw/audit'),
    fr: () => import('virtual:kodi-catalogue/fr/audit'),
  })[language](),
);

registerTextGroup('security', (language) =>
  ({
    en: () => import('virtual:kodi-catalogue/en/security'),
    sw: () => import('virtual:kodi-catalogue/sw/security'),
    fr: () => import('virtual:kodi-catalogue/fr/security'),
  })[language](),
);

registerTextGroup('utilities', (language) =>
  ({
    en: () => import('virtual:kodi-catalogue/en/utilities'),
    sw: () => import('virtual:kodi-catalogue/sw/utilities'),
    fr: () => import('virtual:kodi-catalogue/fr/utilities'),
  })[language](),
);

/**
 * Asks for a catalogue group like `useTexts`, and says when it is in: a part shown on pages that do
 * not load its group (a lease's Request payment) waits for it rather than show its keys.
 */
export const useTextsReady = (group: CatalogueGroup): boolean => {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let live = true;
    void loadTexts(group)
      .then(() => {
        if (live) setReady(true);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [group]);
  return ready;
};

registerTextGroup('requests', (language) =>
  ({
    en: () => import('virtual:kodi-catalogue/en/requests'),
    sw: () => import('virtual:kodi-catalogue/sw/requests'),
    fr: () => import('virtual:kodi-catalogue/fr/requests'),
  })[language](),
);

registerTextGroup('settings', (language) =>
  ({
    en: () => import('virtual:kodi-catalogue/en/settings'),
    sw: () => import('virtual:kodi-catalogue/sw/settings'),
    fr: () => import('virtual:kodi-catalogue/fr/settings'),
  })[language](),
);

registerTextGroup('templates', (language) =>
  ({
    en: () => import('virtual:kodi-catalogue/en/templates'),
    sw: () => import('virtual:kodi-catalogue/sw/templates'),
    fr: () => import('virtual:kodi-catalogue/fr/templates'),
  })[language](),
);

registerTextGroup('domain', (language) =>
  ({
    en: () => import('virtual:kodi-catalogue/en/domain'),
    sw: () => import('virtual:kodi-catalogue/sw/domain'),
    fr: () => import('virtual:kodi-catalogue/fr/domain'),
  })[language](),
);

registerTextGroup('accounts', (language) =>
  ({
    en: () => import('virtual:kodi-catalogue/en/accounts'),
    sw: () => import('virtual:kodi-catalogue/sw/accounts'),
    fr: () => import('virtual:kodi-catalogue/fr/accounts'),
  })[language](),
);

/** Asks for a catalogue group when a part that needs it shows outside the pages that load it. */
export const useTexts = (group: CatalogueGroup): void => {
  useEffect(() => {
    void loadTexts(group).catch(() => undefined);
  }, [group]);
};
