/**
 * Runs `task` once the page has been idle a moment after it showed (or after `timeoutMs` at the
 * latest): code a page may need later (its dialogs) is fetched then, not before the page shows
 * (issue 26: a phone waits for every script of the first load). Answers a function that cancels it.
 */
export const whenIdle = (task: () => void, timeoutMs = 4000): (() => void) => {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(task, { timeout: timeoutMs });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(task, 1500);
  return () => window.clearTimeout(id);
};
