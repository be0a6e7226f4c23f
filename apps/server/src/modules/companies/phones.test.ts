import { describe, expect, it } from 'vitest';
import { toE164 } from './phones.ts';

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
