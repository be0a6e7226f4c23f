import { describe, expect, it } from 'vitest';
import {
  initialsOf,
  publicReceiptSchema,
  receiptPath,
  receiptUrl,
  receiptVoidedMessage,
} from './receipts.ts';

describe('receipts anyone can verify', () => {
  it('gives a tenant’s initials only, whatever the letters', () => {
    expect(initialsOf('Grace', 'Namuli')).toBe('G. N.');
    expect(initialsOf('  élodie ', 'ōkafor')).toBe('É. Ō.');
    expect(initialsOf('', null, undefined)).toBe('');
    expect(initialsOf('𝒜lice', 'Brown')).toBe('𝒜. B.');
  });

  it('makes the public address from PUBLIC_URL and the code', () => {
    expect(receiptPath('ab12')).toBe('/r/ab12');
    expect(receiptUrl('https://kodi.example/', 'ab12')).toBe('https://kodi.example/r/ab12');
    expect(receiptUrl('https://kodi.example/rent', 'a b')).toBe('https://kodi.example/rent/r/a%20b');
  });

  it('knows the statuses a public receipt has, and drops what it does not declare', () => {
    const answer = {
      status: 'completed',
      title: 'Receipt verified',
      message: 'This receipt is valid: the payment was received.',
      company: { name: 'Kampala Homes', logo_url: null },
      receipt_number: 'RCT-000001',
      date: '2026-11-05',
      amount: 1500000,
      voided_on: null,
      currency: 'UGX',
      currency_decimals: 0,
      unit_name: 'A1',
      tenant_initials: 'G. N.',
    };
    expect(publicReceiptSchema.parse(answer)).toEqual(answer);
    expect(publicReceiptSchema.safeParse({ ...answer, status: 'deleted' }).success).toBe(false);
    // a voided receipt (issue 25): the day it was voided, its amount not confirmed
    const voided = { ...answer, status: 'void', amount: null, voided_on: '2026-11-27' };
    expect(publicReceiptSchema.parse(voided)).toEqual(voided);
    expect(receiptVoidedMessage('2026-11-27')).toBe('This receipt was voided on Nov 27, 2026.');
    // what leaves the server is the schema's output: an extra field (an id) never goes out
    expect(publicReceiptSchema.parse({ ...answer, tenant_id: 7 })).not.toHaveProperty('tenant_id');
  });
});
