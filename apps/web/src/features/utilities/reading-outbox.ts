import { readLocalJson, writeLocalJson } from '../../lib/storage.ts';

/**
 * The readings of a round typed on the phone, kept on it until the server has them (issue 28): each
 * with its idempotency key, made once when it is typed, so that a reading sent again (the network
 * came back, the page was reloaded, two tabs) is saved once (`POST /meter_readings/round`).
 */
export type OutboxReading = {
  idempotency_key: string;
  meter_id: number;
  reading_date: string;
  value: number;
  photo?: string;
};

export const OUTBOX_KEY = 'kodi.readingOutbox';

export const readOutbox = (): OutboxReading[] => readLocalJson<OutboxReading[]>(OUTBOX_KEY) ?? [];
export const writeOutbox = (items: readonly OutboxReading[]): void => writeLocalJson(OUTBOX_KEY, items);

/** A key no other reading of any phone has. */
export const newIdempotencyKey = (): string =>
  `reading-${typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`}`;

/** Adds a reading (replacing one of the same meter and day not sent yet: typed again). */
export const queued = (items: readonly OutboxReading[], r: OutboxReading): OutboxReading[] => [
  ...items.filter((i) => !(i.meter_id === r.meter_id && i.reading_date === r.reading_date)),
  r,
];

/** What a send of one reading came to: sent (the server's record), kept (no network), or refused. */
export type SendOutcome<T> =
  { kind: 'sent'; record: T } | { kind: 'offline' } | { kind: 'refused'; message: string };

/**
 * Sends the readings in their order, one at a time, until the network fails: the sent and the refused
 * leave the outbox, the rest stay for the next time. Answers each outcome by key.
 */
export const flushOutbox = async <T>(
  send: (r: OutboxReading) => Promise<SendOutcome<T>>,
  onOutcome: (r: OutboxReading, outcome: SendOutcome<T>) => void,
): Promise<void> => {
  for (const r of readOutbox()) {
    const outcome = await send(r);
    onOutcome(r, outcome);
    if (outcome.kind === 'offline') return;
    // read again: a reading typed meanwhile stays
    writeOutbox(readOutbox().filter((i) => i.idempotency_key !== r.idempotency_key));
  }
};

/** A photo made smaller for the phone's storage and the network: at most 1280 px, JPEG. */
export const shrinkPhoto = (file: File): Promise<string> =>
  new Promise((resolve, reject) => {
    const url = URL.createObjectURL(file);
    const img = new Image();
    img.onload = () => {
      const scale = Math.min(1, 1280 / Math.max(img.width, img.height));
      const canvas = document.createElement('canvas');
      canvas.width = Math.max(1, Math.round(img.width * scale));
      canvas.height = Math.max(1, Math.round(img.height * scale));
      canvas.getContext('2d')?.drawImage(img, 0, 0, canvas.width, canvas.height);
      URL.revokeObjectURL(url);
      resolve(canvas.toDataURL('image/jpeg', 0.8));
    };
    img.onerror = () => {
      URL.revokeObjectURL(url);
      reject(new Error('Not an image.'));
    };
    img.src = url;
  });
