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
  auth: ['auth', 'account'],
  // the glossary's words as messages: the receipt check and the portal's (the staff app's pages say
  // them in their own namespaces)
  receipt: ['receipt', 'glossary'],
  portal: ['portal'],
  staff: ['nav'],
  // (`lease`, `paidFrom`: a lease's ledger, charges, rent changes and deposit in its details, an
  // expense's paying account; the Arrears page shows a lease's ledger too)
  entity: ['entity', 'entityExtras', 'ownership', 'resource', 'lease', 'paidFrom'],
  dashboard: ['dashboard'],
  arrears: ['arrears'],
  // the Help Center's own words (its topics' text is a chunk per language of its own: features/help)
  help: ['help'],
  // the books' pages (Chart of Accounts, Journal), Owner Payouts and the receipt's print page (one
  // chunk: each group's loader weighs on every page), Financial Reports
  books: ['books', 'payouts', 'receiptPrint'],
  reports: ['reports'],
  // the staff's operations pages (issue 30): Import, Collections, Messages and Announcements
  imports: ['imports'],
  collections: ['collections'],
  messages: ['messages'],
  users: ['users'],
  audit: ['audit'],
  security: ['security'],
  utilities: ['utilities'],
  requests: ['requests'],
  settings: ['settings'],
  // the message templates (Messages, Templates)
  templates: ['templates'],
  // the words @kodi/domain makes (a lease's back rent, an import's, a run's items), for the pages
  // that show them
  domain: ['domainTexts'],
  // the default chart's account names (a default account not renamed, in the reader's language): the
  // books' pages, the reports, the journal's entries, an expense's paying account
  accounts: ['accountNames'],
} as const;

export type CatalogueGroup = keyof typeof catalogueGroups;
