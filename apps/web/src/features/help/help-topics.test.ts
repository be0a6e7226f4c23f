import { describe, expect, it } from 'vitest';
import {
  IMPORT_EXPIRY_HOURS,
  MAX_IMPORT_BYTES,
  MAX_PORTAL_PHOTOS,
  MAX_SEND_ATTEMPTS,
  RECOVERY_CODE_COUNT,
  STALE_REMINDER_DAYS,
  roleDescriptions,
  statementSourceLabels,
} from '@kodi/domain';
import { IMPORT_MAX_MB, helpTopics, topicText } from './help-topics.ts';

const topic = (id: string) => {
  const found = helpTopics.find((t) => t.id === id);
  if (!found) throw new Error(`no help topic ${id}`);
  return topicText(found);
};

describe('the Help Center', () => {
  it('has a topic for each part of Kodi a landlord meets in the first week', () => {
    for (const id of [
      'properties',
      'imports',
      'combined-sheet',
      'books',
      'collections',
      'matching-memory',
      'late-fees-reminders',
      'tenant-portal',
      'two-factor',
    ])
      expect(topic(id).length).toBeGreaterThan(300);
    expect(new Set(helpTopics.map((t) => t.id)).size).toBe(helpTopics.length);
  });

  it("says the numbers Kodi's rules use, from their constants", () => {
    expect(IMPORT_MAX_MB * 1024 * 1024).toBe(MAX_IMPORT_BYTES);
    expect(topic('imports')).toContain(`${IMPORT_MAX_MB} MB`);
    expect(topic('imports')).toContain(`within ${IMPORT_EXPIRY_HOURS} hours`);
    expect(topic('late-fees-reminders')).toContain(`never more than ${STALE_REMINDER_DAYS} days late`);
    expect(topic('late-fees-reminders')).toContain(`up to ${MAX_SEND_ATTEMPTS} times`);
    expect(topic('two-factor')).toContain(`${RECOVERY_CODE_COUNT} recovery codes`);
    expect(topic('tenant-portal')).toContain(`up to ${MAX_PORTAL_PHOTOS} photos`);
    for (const label of Object.values(statementSourceLabels)) expect(topic('collections')).toContain(label);
    for (const description of Object.values(roleDescriptions))
      expect(topic('user-roles')).toContain(description);
  });

  it('describes the books as they behave: receipts never change, closing cannot be undone', () => {
    const books = topic('books');
    expect(books).toContain('A posted entry never changes');
    expect(books).toContain('a close cannot be undone');
    expect(books).toContain('a receipt never changes');
    expect(books).toContain('opening balance');
    expect(topic('payments')).toContain('void the payment');
    // the old rule (completed payments edited freely, deleted by admins) is gone
    expect(topic('payments')).not.toContain('only admins delete them');
  });
});
