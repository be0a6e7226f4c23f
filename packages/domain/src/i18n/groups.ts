/**
 * The catalogues' namespaces by the group that loads them together (issue 30): the web loads a
 * language's `base` first (every page: the top bar, the errors, the validation messages), sign-in and
 * register add `auth`, the receipt check `receipt`; the portal's build puts `portal` and `auth` in its
 * own base (vite.portal.config.ts); the staff app adds `staff` once a staff user is signed in (the
 * drawer), `entity` with the entities' list pages and their dialogs, and a page's own group
 * with the page (`dashboard`: Home). Each group is a chunk of its
 * own per language (apps/web/vite-catalogues.ts); every namespace is in exactly one group (a test
 * checks).
 */
export const catalogueGroups = {
  base: ['common', 'validation', 'shell'],
  auth: ['auth'],
  // the glossary's words as messages: the receipt check and the portal's (the staff app's pages say
  // them in their own namespaces)
  receipt: ['receipt', 'glossary'],
  portal: ['portal'],
  staff: ['nav'],
  entity: ['entity', 'entityExtras', 'ownership', 'resource'],
  dashboard: ['dashboard'],
  arrears: ['arrears'],
  // the message templates (Messages, Templates)
  templates: ['templates'],
  // the words @kodi/domain makes (a lease's back rent, an import's, a run's items), for the pages
  // that show them
  domain: ['domainTexts'],
} as const;

export type CatalogueGroup = keyof typeof catalogueGroups;
