import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { createSchema, formSchema } from './entity.ts';
import { tenants } from './entities/index.ts';
import { portalMeBody } from './portal.ts';

/**
 * The spec's phone rule ('Invalid phone number format.'), shared by the staff's tenant form, the
 * server's tenant routes and the portal: separators anywhere, so '0772 123 456' (the way Ugandans
 * write it) is taken like '0772123456'. Whether the number is one of its country's is the server's
 * check (apps/server/src/lib/phones.ts).
 */
const tenant = (phone: string) => ({
  first_name: 'Grace',
  last_name: 'Namuli',
  sex: 'F',
  phone,
  date_of_birth: '1990-04-12',
});
type Parser = {
  safeParse: (v: unknown) => { success: true } | { success: false; error: z.ZodError };
};
const phoneError = (schema: Parser, phone: string) => {
  const result = schema.safeParse(tenant(phone));
  return result.success ? undefined : result.error.issues.find((i) => i.path[0] === 'phone')?.message;
};

describe('the phone format', () => {
  const taken = [
    '0772 123 456',
    '0772123456',
    '0772 123456',
    '+256 772 123 456',
    '+256772123456',
    '256772123456',
    '0772-123-456',
    '0772.123.456',
    '+44 20 7946 0958',
  ];
  const refused = [
    '0772 99887',
    '772123456',
    '12',
    '0772 123 456 ext',
    '+256 772 123 456 789',
    'phone',
    '0772  123 456',
  ];

  it('is the same in the staff’s form and on the server, and in the portal', () => {
    for (const schema of [formSchema(tenants), createSchema(tenants)]) {
      for (const phone of taken) expect(phoneError(schema, phone), phone).toBeUndefined();
      for (const phone of refused)
        expect(phoneError(schema, phone), phone).toBe('Invalid phone number format.');
    }
    for (const phone of taken)
      expect(portalMeBody.safeParse({ version: 1, phone }).success, phone).toBe(true);
    for (const phone of refused)
      expect(portalMeBody.safeParse({ version: 1, phone }).success, phone).toBe(false);
  });
});
