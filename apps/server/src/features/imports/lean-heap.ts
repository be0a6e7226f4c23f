import v8 from 'node:v8';

/** How far V8 lets the heap grow over what a full collection found live, while an import runs. */
export const IMPORT_HEAP_GROWING_PERCENT = 50;

let running = 0;

/**
 * Runs an import's preview or commit with V8's heap kept near what is live. An import allocates
 * steadily for seconds, and what lives across a batch (its rows, a few MB) is promoted to the old
 * generation; when collecting is cheap V8 lets that generation grow to about four times what is live
 * before a full collection, so a 100,000-row preview with ~55 MB live peaked at 330–345 MB of RSS.
 * With `--heap-growing-percent=50` (a V8 flag, read at each collection) the same preview peaked at
 * 190–210 MB with no measurable change in its time (docs/decisions.md, Import). The flag is set
 * while at least one import runs in this process and put back to V8's own rule (0) after the last.
 */
export const withLeanHeap = async <T>(work: () => Promise<T>): Promise<T> => {
  if (running++ === 0) v8.setFlagsFromString(`--heap-growing-percent=${IMPORT_HEAP_GROWING_PERCENT}`);
  try {
    return await work();
  } finally {
    if (--running === 0) v8.setFlagsFromString('--heap-growing-percent=0');
  }
};
