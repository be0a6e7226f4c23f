import { useEffect } from 'react';
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

/** Asks for a catalogue group when a part that needs it shows outside the pages that load it. */
export const useTexts = (group: CatalogueGroup): void => {
  useEffect(() => {
    void loadTexts(group).catch(() => undefined);
  }, [group]);
};
