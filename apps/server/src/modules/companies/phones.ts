import { AsYouType, parsePhoneNumberFromString, type CountryCallingCode } from 'libphonenumber-js';
import metadata from 'libphonenumber-js/metadata.min.json';
import { sql } from 'drizzle-orm';
import { execRows, type DbOrTx } from '../../db/client.ts';

/**
 * Phone numbers, one way everywhere (docs/decisions.md, 'One phone number'): what a person typed
 * ('0772 123 456', '+256 772-123456', '256772123456', '00256…') read by libphonenumber-js as a number
 * of the record's own country code when it has one, else of the company's country, and written in
 * E.164 ('+256772123456'). Tenants' and portal users' phones are saved so, statements and webhooks
 * are matched so, list searches look for its national number, and SMS go to it.
 */

/** A calling code as records give it: a tenant's '+256', a country's 256; null or '' when none. */
export type CallingCode = number | string | null | undefined;

/** What a person typed: digits with spaces, dots, dashes or brackets, perhaps a leading + or 00. */
const WRITTEN = /^\+?[\d\s().-]{3,30}$/;

const digitsOf = (code: CallingCode): string =>
  code === null || code === undefined ? '' : String(code).replace(/\D/g, '');

/** The record's own calling code when it has one ('+256'), else the company's (256); null for none. */
export const callingCodeOf = (own: CallingCode, company: CallingCode): string | null =>
  digitsOf(own) || digitsOf(company) || null;

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });
const mainCountries = (metadata as { country_calling_codes: Record<string, string[] | undefined> })
  .country_calling_codes;

/** The country a calling code is first of (256 → 'Uganda', 1 → 'United States'), or '+999'. */
export const callingCodeCountry = (code: string): string => {
  const region = mainCountries[code]?.[0];
  return (region && regionNames.of(region)) || `+${code}`;
};

/** The message for a number that cannot be one of its country's. */
export const impossiblePhoneMessage = (code: string | null): string =>
  code
    ? `This is not a possible phone number for ${callingCodeCountry(code)}.`
    : 'This is not a possible phone number.';

/** The message for a number written without +code where no country says what it is. */
export const NO_COUNTRY_MESSAGE =
  'Enter the number with its country code (e.g. +256 772 123 456): neither the record nor the company has a country.';

export type PhoneReading = { e164: string } | { error: string };

/**
 * A typed phone in E.164, or why it is not one: a number with +code (or 00) is read as written,
 * any other as one of `callingCode`'s country (with or without its trunk 0 or its calling code).
 * The number must fit its country's numbering plan (libphonenumber-js `isValid`, the min metadata):
 * '0772 99887' is not a Ugandan number, where `isPossible` alone would take it as +256077299887.
 */
export const readPhoneNumber = (text: string, callingCode: CallingCode): PhoneReading => {
  const s = text.trim().replace(/^00(?=\d)/, '+');
  const code = digitsOf(callingCode) || null;
  if (!WRITTEN.test(s)) return { error: 'Invalid phone number format.' };
  const international = s.startsWith('+');
  if (!international && !code) return { error: NO_COUNTRY_MESSAGE };
  const phone = international
    ? parsePhoneNumberFromString(s)
    : parsePhoneNumberFromString(s, { defaultCallingCode: code ?? undefined });
  if (phone?.isValid()) return { e164: phone.number };
  return { error: impossiblePhoneMessage(phone?.countryCallingCode ?? (international ? null : code)) };
};

/** `readPhoneNumber`'s E.164, or undefined when the text is not a phone number of its country. */
export const toE164 = (text: string | null | undefined, callingCode: CallingCode): string | undefined => {
  if (!text) return undefined;
  const reading = readPhoneNumber(text, callingCode);
  return 'e164' in reading ? reading.e164 : undefined;
};

/**
 * The digits a list search looks for when the staff type a phone, whole or in part: the national
 * number as libphonenumber-js reads it ('0772 123456', '+256 772 123 456', '772123456' → '772123456';
 * '0772 12' → '77212'), and the digits as typed ('077212'); undefined when the text is not a phone.
 * Searched phones are kept without their separators (db/list-indexes.ts), so any of them is found.
 */
export const phoneSearchDigits = (text: string, callingCode: CallingCode): string[] | undefined => {
  const s = text.trim().replace(/^00(?=\d)/, '+');
  if (!WRITTEN.test(s) || !/\d{3}/.test(s.replace(/\D/g, ''))) return undefined;
  const typed = s.replace(/[^\d+]/g, '');
  const code = digitsOf(callingCode);
  const typing =
    s.startsWith('+') || !code
      ? new AsYouType()
      : new AsYouType({ defaultCallingCode: code as CountryCallingCode });
  typing.input(s);
  const national = typing.getNationalNumber();
  return [...new Set([typed, ...(national.length >= 3 ? [national] : [])])];
};

/**
 * Where an SMS to a tenant goes: its phone in E.164, read with its own country code, else the
 * company's (`companyCode`); null when it has none that is a number of its country (the message is
 * skipped as having no address, never sent to a made-up number).
 */
export const smsAddress = (
  phone: string | null | undefined,
  ownCode: CallingCode,
  companyCode: CallingCode,
): string | null => toE164(phone, callingCodeOf(ownCode, companyCode)) ?? null;

/** The dialling code of a company's country (256 for UGA), null when it has none. */
export const companyCallingCode = async (db: DbOrTx, companyId: number): Promise<number | null> => {
  const rows = await execRows<{ phone_code: number | null }>(
    db,
    sql`SELECT co.phone_code FROM companies c JOIN countries co ON co.country_code = c.country_code
         WHERE c.id = ${companyId}`,
  );
  const code = Number(rows[0]?.phone_code ?? 0);
  return code > 0 ? code : null;
};

/** A tenant who has one of the phones looked for (`tenantsWithPhones`). */
export type PhoneHolder = { id: number; phone: string; name: string };

/**
 * The company's tenants whose saved phone (E.164) is one of `phones`, but `exceptId` (the tenant being
 * changed): two tenants with one phone are warned of (issue 26), since a payment from it cannot say
 * whose it is. The import's preview and the tenant form's check (`GET /tenants/phone-check`) ask it.
 */
export const tenantsWithPhones = async (
  db: DbOrTx,
  companyId: number,
  phones: readonly string[],
  exceptId?: number,
): Promise<PhoneHolder[]> => {
  if (phones.length === 0) return [];
  const rows = await execRows<{ id: number | string; phone: string; name: string }>(
    db,
    sql`SELECT id, phone, concat_ws(' ', first_name, last_name) AS name FROM tenants
         WHERE company_id = ${companyId}
           AND phone IN (SELECT jsonb_array_elements_text(${JSON.stringify([...new Set(phones)])}::jsonb))
           AND id <> ${exceptId ?? 0}
         ORDER BY last_name, first_name, id`,
  );
  return rows.map((r) => ({ id: Number(r.id), phone: r.phone, name: r.name }));
};
