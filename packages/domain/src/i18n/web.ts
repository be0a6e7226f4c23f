// What the pages need of the languages (issue 30), without zod or the catalogues: the app's entry
// and the receipt page load it before they show (apps/web/src/lib/i18n.ts).
export * from './languages.ts';
export * from './keys.ts';
export type { CatalogueGroup } from './groups.ts';
