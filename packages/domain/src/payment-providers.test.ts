import { describe, expect, it } from 'vitest';
import { providerOfPhone } from './payment-providers.ts';

describe('the provider of a phone number’s network (docs/decisions.md, issue 29)', () => {
  it('reads Kenyan, Ugandan and Rwandan prefixes', () => {
    expect(providerOfPhone('+254712345678')).toBe('mpesa');
    expect(providerOfPhone('+254110123456')).toBe('mpesa');
    expect(providerOfPhone('+254733123456')).toBe('airtel_money');
    expect(providerOfPhone('+256772123456')).toBe('mtn_momo');
    expect(providerOfPhone('+256701123456')).toBe('airtel_money');
    expect(providerOfPhone('+250788123456')).toBe('mtn_momo');
    expect(providerOfPhone('+250731123456')).toBe('airtel_money');
    expect(providerOfPhone('+254201234567')).toBeNull();
    expect(providerOfPhone('+4915112345678')).toBeNull();
  });
});
