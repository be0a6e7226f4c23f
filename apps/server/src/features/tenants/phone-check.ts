import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { phoneCheckSchema, type PhoneCheck } from '@kodi/domain';
import type { AppContext } from '../../context.ts';
import { currentUser } from '../../plugins/guard.ts';
import { errors, json, named } from '../../plugins/openapi.ts';
import {
  callingCodeOf,
  companyCallingCode,
  readPhoneNumber,
  tenantsWithPhones,
} from '../../modules/companies/phones.ts';

const ID_MESSAGE = 'Must be a whole number.';

const phoneCheckQuery = z.object({
  phone: z.string().max(40).describe('The phone as typed'),
  country_code: z
    .string()
    .max(8)
    .optional()
    .describe("The tenant's own calling code ('+256'); else the company's country's"),
  except_id: z
    .string()
    .regex(/^\d{1,10}$/, ID_MESSAGE)
    .transform(Number)
    .refine((n) => n >= 1 && n <= 2147483647, ID_MESSAGE)
    .optional()
    .describe('The tenant being changed (not counted as sharing its own phone)'),
});

/**
 * `GET /tenants/phone-check?phone=&country_code=&except_id=`: the tenant form's check as the phone is
 * typed (issue 26). The phone is read as a save would read it (the tenant's own country code, else the
 * company's country's); when it is a number, the company's other tenants who have it are named.
 * Those who may edit tenants ask it; the company is the session's.
 */
export const phoneCheckRoute = (app: FastifyInstance, ctx: AppContext) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/tenants/phone-check',
    {
      config: { access: 'canEdit' },
      schema: {
        operationId: 'checkTenantPhone',
        tags: ['tenants'],
        summary: 'Whether a phone is a number of its country, and which other tenants have it',
        querystring: phoneCheckQuery,
        response: {
          200: json(named(phoneCheckSchema, 'PhoneCheck'), 'The phone as it would be saved, and who has it'),
          ...errors(400, 401, 403),
        },
      },
    },
    async (request): Promise<PhoneCheck> => {
      const companyId = currentUser(request).company_id;
      const { phone, country_code, except_id } = request.query;
      const own = callingCodeOf(country_code, null);
      const code = own ?? (await companyCallingCode(ctx.database.db, companyId));
      const reading = readPhoneNumber(phone, code);
      if (!('e164' in reading)) return { valid: false, e164: null, shared_with: [] };
      const holders = await tenantsWithPhones(ctx.database.db, companyId, [reading.e164], except_id);
      return {
        valid: true,
        e164: reading.e164,
        shared_with: holders.map((h) => ({ id: h.id, name: h.name })),
      };
    },
  );
};
