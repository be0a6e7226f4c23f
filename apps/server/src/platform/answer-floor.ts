import { setTimeout as sleep } from 'node:timers/promises';

/**
 * An answer that must not tell by its time what it found (a known login or not, a receipt code that
 * exists or not): started when the handler starts, `await floor()` before answering waits for what is
 * left of `ms`. What a known case's extra work costs hides under it, on a busy server too.
 */
export const answerFloor = (ms: number): (() => Promise<void>) => {
  const started = performance.now();
  return async () => {
    const left = ms - (performance.now() - started);
    if (left > 0) await sleep(left);
  };
};
