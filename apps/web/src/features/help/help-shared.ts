/**
 * What the Help Center's texts share in every language (issue 30): the blocks a topic is made of, the
 * numbers of Kodi's rules the texts state, and the search's words. help-topics.ts is the English source;
 * help-topics.sw.ts and help-topics.fr.ts say the same topics (same ids, same blocks, same numbers) in
 * Kiswahili and French. Each is a chunk of its own: the page loads its language's only (help-loader.ts).
 */

/** Sign-in lock (server: 5 failures in a row for one address lock it for 15 minutes). */
export const LOCK_AFTER_FAILURES = 5;
export const LOCK_MINUTES = 15;
/** The dashboard's own refresh (features/dashboard/dashboard-query.ts: 600 000 ms). */
export const DASHBOARD_REFRESH_MINUTES = 10;
/** A portal invitation's link and a sign-in code (server: features/portal/accounts.ts INVITATION_DAYS, CODE_MINUTES). */
export const PORTAL_INVITATION_DAYS = 7;
export const PORTAL_CODE_MINUTES = 10;
/** The largest import file (domain MAX_IMPORT_BYTES: 20 MB). */
export const IMPORT_MAX_MB = 20;

export type HelpBlock =
  | { kind: 'p'; text: string }
  | { kind: 'list'; items: string[] }
  | { kind: 'qa'; items: { q: string; a: string }[] }
  | { kind: 'terms'; items: { term: string; text: string }[] };

export type HelpTopic = { id: string; title: string; blocks: HelpBlock[] };

/** The topic open when the page opens (the first one, in every language). */
export const FIRST_TOPIC = 'getting-started';

export const p = (text: string): HelpBlock => ({ kind: 'p', text });
export const list = (...items: string[]): HelpBlock => ({ kind: 'list', items });

/** A topic's words, for the search box. */
export const topicText = (topic: HelpTopic): string =>
  [
    topic.title,
    ...topic.blocks.flatMap((block) => {
      switch (block.kind) {
        case 'p':
          return [block.text];
        case 'list':
          return block.items;
        case 'qa':
          return block.items.flatMap((i) => [i.q, i.a]);
        case 'terms':
          return block.items.flatMap((i) => [i.term, i.text]);
      }
    }),
  ].join(' ');
