import { describe, expect, it } from 'vitest';
import { messageReason, NO_SMS_PROVIDER, NO_SMTP_SERVER } from './messages.ts';

const m = (error: string | null, more: Partial<{ status: string; channel: string; kind: string }> = {}) =>
  messageReason({ status: 'skipped', channel: 'email', kind: 'reminder', error, ...more });

describe('messageReason', () => {
  it('says nothing when nothing went wrong', () => {
    expect(m(null, { status: 'sent' })).toBeNull();
    expect(m(null, { status: 'queued' })).toBeNull();
  });

  it('words each code the sender and the daily run record', () => {
    expect(m('stale')).toBe(
      'Too late: more than 2 days after its send date (a reminder is never sent late).',
    );
    expect(m('no_address')).toBe('The tenant has no e-mail address.');
    expect(m('no_address', { channel: 'sms' })).toBe('The tenant has no phone number.');
    expect(m('no_address', { kind: 'maintenance_request' })).toBe(
      'The company has no contact e-mail address.',
    );
    expect(m(NO_SMS_PROVIDER, { channel: 'sms' })).toBe(
      'No SMS provider is set up on this server (SMS_URL).',
    );
    expect(m(NO_SMTP_SERVER)).toBe('No e-mail server is set up on this server (SMTP_URL).');
  });

  it("keeps a provider's own words, saying when it will be tried again", () => {
    expect(m('The SMS provider refused it: 400.', { status: 'failed' })).toBe(
      'The SMS provider refused it: 400.',
    );
    expect(m('timeout', { status: 'queued' })).toBe('Will be tried again: timeout');
  });
});
