/**
 * Phone numbers as the published Address writes them (issue 40): E.164, `+13125550100`. What a
 * person types (`312-555-0100`, `(312) 555-0100`, `+1 312 555 0100`, `1-312-555-0100`) is read
 * with libphonenumber-js and its smallest metadata (`libphonenumber-js/min`: the numbering plans
 * without the per-type patterns); a number without a + is read in the default country, the US.
 * Pure: no I/O. Heavier than the rest of domain/ (about 80 KB of metadata), so the CLI imports
 * this module lazily, where it reads a phone number, never at start-up.
 *
 * *Decisions:*
 * - Valid, not only possible: the number must be one the country's plan assigns (libphonenumber's
 *   isValid with the min metadata: the country, the length, the area code and exchange ranges), so
 *   `123-456-7890` (no area code starts with 1) and `+1 555 123 4567` (555 is no area code in use)
 *   are refused: a driver has to reach the contact on it. The published document's own examples
 *   `+15551234567` (the confirm description) and `+15555550100` (ShipperDispatch) are of that kind;
 *   its pattern `^\+[1-9]\d{1,14}$` takes them. `accept: 'possible'` takes every number of a
 *   possible length instead, for a caller that must take what the pattern takes.
 * - Extensions: E.164 has none, so `312-555-0100 x12` (also `ext. 12`, `#12`) is read as the number
 *   `+13125550100` and the extension `12`, returned apart and never dropped silently: the caller
 *   keeps it where a person reads it (the address's notes, a field of our own).
 * - Any country: E.164 is international, and the published pattern takes any country code; only
 *   the default for a number without one is the US.
 * - The whole text must be the number: `Phone: 312-555-0100`, vanity letters (`1-800-FLOWERS`) and a
 *   spreadsheet's `3.12555E+09` are refused, not searched for digits.
 */
import { parsePhoneNumberFromString, validatePhoneNumberLength, type CountryCode } from 'libphonenumber-js/min';

export type PhoneNumberResult = { ok: true; phoneNumber: string; extension: string | null } | { ok: false; reason: string };

export interface PhoneNumberOptions {
  /** The country of a number written without a + and its country code; the US by default. */
  defaultCountry?: CountryCode;
  /** `valid` (the default): a number the plan assigns; `possible`: any number of a possible length. */
  accept?: 'valid' | 'possible';
}

const LENGTH_REASONS: Readonly<Record<string, string>> = {
  NOT_A_NUMBER: 'is not a phone number',
  INVALID_COUNTRY: 'has no country code shipper knows: write it with + and the country code',
  TOO_SHORT: 'has too few digits',
  TOO_LONG: 'has too many digits',
  INVALID_LENGTH: 'has a number of digits no number of its country has',
};

/** `+13125550100` from `312-555-0100`; the extension apart; or why the text is not a phone number. */
export function normalisePhoneNumber(text: string, options: PhoneNumberOptions = {}): PhoneNumberResult {
  const defaultCountry = options.defaultCountry ?? 'US';
  const trimmed = text.trim();
  const quoted = JSON.stringify(trimmed);
  if (trimmed === '') return { ok: false, reason: 'the phone number is empty' };
  const parsed = parsePhoneNumberFromString(trimmed, { defaultCountry, extract: false });
  if (!parsed || !parsed.isPossible()) {
    const length = validatePhoneNumberLength(trimmed, { defaultCountry }) ?? 'NOT_A_NUMBER';
    const counted = length === 'TOO_SHORT' || length === 'TOO_LONG' || length === 'INVALID_LENGTH';
    const example = counted && defaultCountry === 'US' && !trimmed.startsWith('+') ? ' (a US number has 10 digits with its area code, e.g. 312-555-0100)' : '';
    return { ok: false, reason: `${quoted} ${LENGTH_REASONS[length] ?? LENGTH_REASONS.NOT_A_NUMBER!}${example}` };
  }
  if ((options.accept ?? 'valid') === 'valid' && !parsed.isValid()) {
    const plan =
      parsed.countryCallingCode === '1'
        ? `a valid North American number: its area code (${parsed.nationalNumber.slice(0, 3)}) or exchange (${parsed.nationalNumber.slice(3, 6)}) is not one in use`
        : `a valid +${parsed.countryCallingCode} number: its digits are no number of that country's plan`;
    return { ok: false, reason: `${quoted} is not ${plan}` };
  }
  // A national prefix read off a number given with its country code (`+49 000000`) leaves one that
  // reads as yet another number: no number a person can be reached on, and no stable E.164.
  const again = parsePhoneNumberFromString(parsed.number, { extract: false });
  if (again?.number !== parsed.number) return { ok: false, reason: `${quoted} is not a number of its country's plan: its digits read as no one number` };
  return { ok: true, phoneNumber: parsed.number, extension: parsed.ext ?? null };
}
