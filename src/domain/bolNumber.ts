/**
 * VICS Bill of Lading numbers: 17 digits = GS1 company prefix + serial + GS1 mod-10 check digit
 * (the same number is the GSIN carried in a GS1-128 barcode under AI 402).
 */
export const BOL_NUMBER_LENGTH = 17;

/** A GS1 company prefix: 7 to 10 digits. BOL numbers and SSCCs are issued under one (the setting bolCompanyPrefix). */
export const GS1_COMPANY_PREFIX_PATTERN = /^\d{7,10}$/;
export const GS1_COMPANY_PREFIX_RULE = 'a GS1 company prefix is 7 to 10 digits';

export function isGs1CompanyPrefix(text: string): boolean {
  return GS1_COMPANY_PREFIX_PATTERN.test(text);
}

/** The RangeError of a function given something else as a company prefix. */
export function assertGs1CompanyPrefix(companyPrefix: string): void {
  if (!isGs1CompanyPrefix(companyPrefix)) throw new RangeError(`${GS1_COMPANY_PREFIX_RULE}, got "${companyPrefix}"`);
}

/** GS1 mod-10: weights 3,1,3,1... from the rightmost data digit; check = (10 - sum mod 10) mod 10. */
export function gs1CheckDigit(digits: string): number {
  // One pass that checks each character too (a pallet's SSCC is made per pallet of every booking).
  let sum = 0;
  let weight = 3;
  for (let i = digits.length - 1; i >= 0; i--) {
    const digit = digits.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) throw new RangeError(`GS1 data must be digits, got "${digits}"`);
    sum += digit * weight;
    weight = 4 - weight;
  }
  if (digits.length === 0) throw new RangeError(`GS1 data must be digits, got ""`);
  return (10 - (sum % 10)) % 10;
}

export function isValidBolNumber(value: string): boolean {
  return new RegExp(`^\\d{${BOL_NUMBER_LENGTH}}$`).test(value) && gs1CheckDigit(value.slice(0, -1)) === Number(value.at(-1));
}

/** Company prefixes are 7 to 10 digits; the serial fills the rest of the 16 data digits. */
export function bolNumberFor(companyPrefix: string, serial: number): string {
  assertGs1CompanyPrefix(companyPrefix);
  const serialDigits = BOL_NUMBER_LENGTH - 1 - companyPrefix.length;
  if (!Number.isSafeInteger(serial) || serial < 0 || String(serial).length > serialDigits) {
    throw new RangeError(`serial ${serial} does not fit in ${serialDigits} digits after prefix ${companyPrefix}`);
  }
  const data = companyPrefix + String(serial).padStart(serialDigits, '0');
  return data + String(gs1CheckDigit(data));
}

/** Internal order numbers: SO- and at least six digits, from a counter that never goes back. */
export function orderNumberFor(serial: number): string {
  return `SO-${String(serial).padStart(6, '0')}`;
}

/** GS1's documentation prefix: every installation that never set its own prints the same numbers. */
export const DOCUMENTATION_BOL_COMPANY_PREFIX = '0614141';

/** The warning every booking under the documentation prefix carries (one line per command, whatever it books). */
export const DOCUMENTATION_PREFIX_WARNING = `BOL numbers are issued under GS1's documentation prefix ${DOCUMENTATION_BOL_COMPANY_PREFIX}, which every installation that never set its own shares; set your GS1 company prefix: shipper config set bolCompanyPrefix NNNNNNN (or SHIPPER_BOL_COMPANY_PREFIX, or shipper serve --bol-company-prefix)`;
