import { setTimeout as sleep } from 'node:timers/promises';

/**
 * An answer that must not tell by its time what it found (a known login or not, a receipt code that
 * exists or not): started when the handler starts, `await floor()` before answering waits for what is
 * left of `ms`. What a known case's extra work costs hides under it, on a busy server too.
 */
export const answerFloor = (ms: number): (() => Promise<void>) => {
  const started = performance.now();
  return async () => {
    // a timer may fire up to a millisecond early (libuv counts from the loop's cached time): wait again
    for (let left = ms - (performance.now() - started); left > 0; left = ms - (performance.now() - started))
      await sleep(Math.max(1, Math.ceil(left)));
  };
};
