import { describe, expect, it } from 'vitest';
import {
  callingCodeOf,
  NO_COUNTRY_MESSAGE,
  phoneSearchDigits,
  readPhoneNumber,
  smsAddress,
  toE164,
} from './phones.ts';

describe('phones in any usual writing', () => {
  it('reads international, national and spaced, dashed or bracketed writings as one E.164 number', () => {
    for (const written of ['+256772123456', '+256 772 123 456', '+256 (772) 123-456', '256772123456'])
      expect(toE164(written, 256), written).toBe('+256772123456');
    for (const written of ['0772 123456', '0772-123-456', '772123456', '(0772) 123 456'])
      expect(toE164(written, 256), written).toBe('+256772123456');
    // a national number is the given country's
    expect(toE164('0712 345678', 254)).toBe('+254712345678');
    expect(toE164('+254 712 345678', 256)).toBe('+254712345678');
  });

  it('refuses what is not a phone number', () => {
    for (const written of ['', 'abc', '12', '+', 'tenant@example.com', '0772 123456 ext 9 and more'])
      expect(toE164(written, 256), written).toBeUndefined();
  });
});

describe('the one reading of phones (docs/decisions.md, One phone number)', () => {
  const SPELLINGS = [
    '0772 123 456',
    '0772123456',
    '+256 772 123 456',
    '256772123456',
    '772123456',
    '00256772123456',
  ];

  it('reads every spelling as one E.164 number of the record’s or the company’s country', () => {
    for (const s of SPELLINGS) expect(readPhoneNumber(s, 256), s).toEqual({ e164: '+256772123456' });
    // the record's own code ('+254') before the company's
    expect(readPhoneNumber('0712 345 678', callingCodeOf('+254', 256))).toEqual({ e164: '+254712345678' });
    expect(callingCodeOf(null, 256)).toBe('256');
    expect(callingCodeOf('', null)).toBeNull();
  });

  it('refuses a number that is not one of its country’s, naming the country', () => {
    // once written as +256077299887 (libphonenumber-js's isPossible alone takes it)
    expect(readPhoneNumber('0772 99887', 256)).toEqual({
      error: 'This is not a possible phone number for Uganda.',
    });
    expect(readPhoneNumber('0772 1234 567', 256)).toEqual({
      error: 'This is not a possible phone number for Uganda.',
    });
    expect(readPhoneNumber('+254 7123 456 789', 256)).toEqual({
      error: 'This is not a possible phone number for Kenya.',
    });
    expect(readPhoneNumber('+999 123 456 789', 256)).toEqual({
      error: 'This is not a possible phone number.',
    });
    expect(readPhoneNumber('0772 123 456', null)).toEqual({ error: NO_COUNTRY_MESSAGE });
    expect(readPhoneNumber('call me', 256)).toEqual({ error: 'Invalid phone number format.' });
  });

  it('sends an SMS to the E.164 number whatever the stored spelling, and to none that is not a number', () => {
    for (const s of SPELLINGS) expect(smsAddress(s, null, 256), s).toBe('+256772123456');
    expect(smsAddress('0712 345 678', '+254', 256)).toBe('+254712345678');
    // the hand-written rule made these +256256772123456 and +256772 123 456
    expect(smsAddress('256772123456', '+256', 256)).toBe('+256772123456');
    expect(smsAddress('0772 123 456', '+256', null)).toBe('+256772123456');
    expect(smsAddress('0772 99887', '+256', 256)).toBeNull();
    expect(smsAddress(null, '+256', 256)).toBeNull();
  });

  it('searches a typed phone, whole or in part, by its national number and its digits', () => {
    for (const s of ['0772 123456', '0772123456', '+256 772 123 456', '772123456', '256772123456'])
      expect(phoneSearchDigits(s, 256), s).toContain('772123456');
    expect(phoneSearchDigits('0772 12', 256)).toEqual(['077212', '77212']);
    expect(phoneSearchDigits('Grace', 256)).toBeUndefined();
    expect(phoneSearchDigits('12', 256)).toBeUndefined();
  });
});
