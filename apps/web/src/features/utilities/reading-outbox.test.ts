import { beforeEach, describe, expect, it } from 'vitest';
import {
  flushOutbox,
  newIdempotencyKey,
  queued,
  readOutbox,
  writeOutbox,
  type OutboxReading,
  type SendOutcome,
} from './reading-outbox.ts';

/** The phone's storage, in memory (the tests run in node). */
const memoryStorage = () => {
  const items = new Map<string, string>();
  return {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
    clear: () => items.clear(),
  };
};

const reading = (meter_id: number, value: number): OutboxReading => ({
  idempotency_key: newIdempotencyKey(),
  meter_id,
  reading_date: '2026-11-28',
  value,
});

describe('the reading round’s outbox', () => {
  beforeEach(() => {
    Object.assign(globalThis, { localStorage: memoryStorage() });
  });

  it('keeps readings until sent, stops at the first network failure, and sends each key once', async () => {
    const a = reading(1, 10);
    const b = reading(2, 20);
    writeOutbox(queued(queued([], a), b));
    const sent: string[] = [];
    let online = false;
    const send = (r: OutboxReading): Promise<SendOutcome<string>> => {
      if (!online) return Promise.resolve({ kind: 'offline' });
      sent.push(r.idempotency_key);
      return Promise.resolve({ kind: 'sent', record: r.idempotency_key });
    };
    const outcomes: string[] = [];
    await flushOutbox(send, (_r, o) => outcomes.push(o.kind));
    expect(outcomes).toEqual(['offline']);
    expect(readOutbox().map((r) => r.meter_id)).toEqual([1, 2]);

    online = true;
    await flushOutbox(send, () => undefined);
    await flushOutbox(send, () => undefined);
    expect(sent).toEqual([a.idempotency_key, b.idempotency_key]);
    expect(readOutbox()).toEqual([]);
  });

  it('drops a refused reading, and a reading typed again replaces the unsent one of that meter and day', async () => {
    const first = reading(1, 10);
    const again = { ...reading(1, 11) };
    const other = reading(2, 5);
    writeOutbox(queued(queued(queued([], first), other), again));
    expect(readOutbox().map((r) => [r.meter_id, r.value])).toEqual([
      [2, 5],
      [1, 11],
    ]);
    await flushOutbox<string>(
      (r) =>
        Promise.resolve(
          r.meter_id === 2 ? { kind: 'refused', message: 'No.' } : { kind: 'sent', record: 'ok' },
        ),
      () => undefined,
    );
    expect(readOutbox()).toEqual([]);
    expect(new Set([first, again, other].map((r) => r.idempotency_key)).size).toBe(3);
  });
});
