/**
 * Serial Shipping Container Codes (SSCC-18), the GS1 identifier of one logistic unit (here: one
 * pallet, one handling unit): extension digit + GS1 company prefix (7 to 10 digits, the same
 * setting as the BOL numbers) + serial reference filling 16 digits + GS1 mod-10 check digit.
 * Carried in GS1-128 under application identifier (00). Pure.
 */
import { assertGs1CompanyPrefix, gs1CheckDigit, isGs1CompanyPrefix } from './bolNumber.js';

export const SSCC_LENGTH = 18;
export const SSCC_APPLICATION_IDENTIFIER = '00';

/** How many serial references a company prefix leaves per extension digit: 10^(16 - prefix length). */
export function ssccSerialCapacity(companyPrefix: string): number {
  // The prefix is checked once, not for every pallet of every booking.
  if (companyPrefix !== lastPrefixChecked) {
    assertGs1CompanyPrefix(companyPrefix);
    lastPrefixChecked = companyPrefix;
  }
  return 10 ** (SSCC_LENGTH - 2 - companyPrefix.length);
}
let lastPrefixChecked: string | undefined;

/**
 * The SSCC of `serial` under `companyPrefix`. Refuses a serial that does not fit the digits the
 * prefix leaves (9 with a 7-digit prefix, 6 with a 10-digit one): a wrapped serial would reuse a
 * pallet's identity.
 */
export function ssccFor(companyPrefix: string, serial: number, extensionDigit = 0): string {
  const capacity = ssccSerialCapacity(companyPrefix);
  if (!Number.isInteger(extensionDigit) || extensionDigit < 0 || extensionDigit > 9) {
    throw new RangeError(`an SSCC extension digit is 0 to 9, got ${extensionDigit}`);
  }
  const serialDigits = SSCC_LENGTH - 2 - companyPrefix.length;
  if (!Number.isSafeInteger(serial) || serial < 0 || serial >= capacity) {
    throw new RangeError(`SSCC serial ${serial} does not fit in the ${serialDigits} digits that company prefix ${companyPrefix} leaves (0 to ${capacity - 1})`);
  }
  const data = `${extensionDigit}${companyPrefix}${String(serial).padStart(serialDigits, '0')}`;
  return data + String(gs1CheckDigit(data));
}

/** The serial reference of an SSCC issued under `companyPrefix` (any extension digit); null for another prefix's. */
export function ssccSerialOf(sscc: string, companyPrefix: string): number | null {
  if (!isValidSscc(sscc) || sscc.slice(1, 1 + companyPrefix.length) !== companyPrefix) return null;
  return Number(sscc.slice(1 + companyPrefix.length, -1));
}

/** True for 18 digits whose last one is the GS1 check digit of the first 17. */
export function isValidSscc(value: string): boolean {
  return /^\d{18}$/.test(value) && gs1CheckDigit(value.slice(0, -1)) === Number(value.at(-1));
}

/** The element string in bracketed GS1 notation, as barcode encoders take it: `(00)106141411234567897`. */
export function ssccElementString(sscc: string): string {
  if (!/^\d{18}$/.test(sscc)) throw new RangeError(`an SSCC has 18 digits, got "${sscc}"`);
  return `(${SSCC_APPLICATION_IDENTIFIER})${sscc}`;
}

/**
 * The human-readable interpretation under the barcode, grouped as GS1 prints it:
 * `(00) 1 0614141 123456789 7` (extension digit, company prefix, serial reference, check digit).
 * Without the company prefix (or when the SSCC was issued under another one) the digits are not
 * grouped, since the prefix length cannot be read from the number.
 */
export function ssccHumanReadable(sscc: string, companyPrefix?: string): string {
  const element = ssccElementString(sscc);
  if (!companyPrefix || !isGs1CompanyPrefix(companyPrefix) || !sscc.startsWith(companyPrefix, 1)) return element.replace(')', ') ');
  const serialEnd = SSCC_LENGTH - 1;
  return `(${SSCC_APPLICATION_IDENTIFIER}) ${sscc[0]} ${companyPrefix} ${sscc.slice(1 + companyPrefix.length, serialEnd)} ${sscc[serialEnd]}`;
}
