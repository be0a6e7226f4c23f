/** What public/early.js asked before the app started: each answer once, while fresh. */
export type EarlyRequest = 'status' | 'dashboard' | 'captcha';

declare global {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- a global's augmentation needs an interface
  interface Window {
    kodiEarly?: {
      at: number;
      /** the property whose dashboard was asked (null: the company's) */
      dashboardProperty?: number | null;
      answers: Partial<Record<EarlyRequest, Promise<unknown>>>;
      /** the first page of the list the page shows (an entity's list page), as the server answered it */
      list?: { url: string; response: Promise<Response> } | null;
    };
  }
}

/** An early answer is used only this soon after the page started loading. */
const FRESH_MS = 10_000;

/**
 * The answer of an early request (its JSON, or null when it failed or was refused), taken once: the
 * next caller asks the server itself. Undefined when there is none, or it is too old.
 */
export const takeEarly = <T>(name: EarlyRequest): Promise<T | null> | undefined => {
  const early = typeof window === 'undefined' ? undefined : window.kodiEarly;
  const answer = early?.answers[name];
  if (!early || !answer) return undefined;
  delete early.answers[name];
  if (Date.now() - early.at > FRESH_MS) return undefined;
  return answer as Promise<T | null>;
};

/** The property whose dashboard public/early.js asked for (null: the whole company's). */
export const earlyDashboardProperty = (): number | null =>
  (typeof window === 'undefined' ? undefined : window.kodiEarly?.dashboardProperty) ?? null;

/**
 * The answer public/early.js had for `url` (a list page's first page, asked before the app started,
 * its parameters in the order the API client writes them), taken once while fresh; undefined when it
 * asked for another URL or nothing.
 */
export const takeEarlyFetch = (url: string): Promise<Response> | undefined => {
  const early = globalThis.window?.kodiEarly;
  const list = early?.list;
  if (!early || !list || list.url !== url || Date.now() - early.at > FRESH_MS) return undefined;
  early.list = null;
  return list.response;
};
