import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { Database } from '../../db/client.ts';

/**
 * A phone as written by a person ('0772 123 456', '+256 772-123456', '256772123456') in E.164
 * ('+256772123456'), read as a number of the calling code given when it has no +code of its own;
 * undefined when it is not a possible phone number.
 */
export const toE164 = (text: string, callingCode: number | string | null | undefined): string | undefined => {
  const s = text.trim();
  if (!/^[+(\d][\d\s().-]{4,24}$/.test(s)) return undefined;
  const code =
    callingCode === null || callingCode === undefined ? '' : String(callingCode).replace(/\D/g, '');
  const phone = s.startsWith('+')
    ? parsePhoneNumberFromString(s)
    : code
      ? (parsePhoneNumberFromString(s, { defaultCallingCode: code }) ??
        parsePhoneNumberFromString(`+${s.replace(/\D/g, '')}`))
      : parsePhoneNumberFromString(`+${s.replace(/\D/g, '')}`);
  return phone?.isPossible() ? phone.number : undefined;
};

/** The dialling code of a company's country (256 for UGA), null when it has none. */
export const companyCallingCode = async (database: Database, companyId: number): Promise<number | null> => {
  const rows = await database.query<{ phone_code: number | null }>(
    `SELECT co.phone_code FROM companies c JOIN countries co ON co.country_code = c.country_code
      WHERE c.id = $1`,
    [companyId],
  );
  const code = Number(rows[0]?.phone_code ?? 0);
  return code > 0 ? code : null;
};
