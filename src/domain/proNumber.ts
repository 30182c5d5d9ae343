/**
 * Carrier PRO numbers (the carrier's "progressive" shipment number), assigned from a block of
 * numbers a carrier gives a shipper, with that carrier's check digit. Pure: zod and arithmetic.
 *
 * A PRO is written `<prefix><base><check>`: the prefix is constant for a block (YRC prints it as
 * the first 3 digits), the base runs from `first` to `last` (digits, zero-padded to the width of
 * `first`), and the check digit is computed on the base alone. The schemes LTL carriers publish:
 *
 * - `MOD7`: the base modulo 7 (0 to 6). XPO LTL: "divide the first eight digits by seven; the
 *   remainder is the check digit"; the same rule as U.S. CBP in-bond numbers (CBP Form 7512).
 * - `MOD11`: 11 minus (base modulo 11); 0 when the remainder is 0 and `X` for 10 (YRC Freight,
 *   "Freight bill numbering", 999-999999-X, on the middle six digits).
 * - `MOD10`: the GS1 mod-10 digit (weights 3 and 1 from the rightmost digit), as UPC, GS1 and
 *   carriers that follow the same rule compute it.
 * - `NONE`: no check digit: the PRO is the prefix and the base.
 */
import { z } from 'zod';
import { gs1CheckDigit } from './bolNumber.js';
import { SCAC_PATTERN } from './carrier.js';

export const PRO_CHECK_DIGIT_SCHEMES = ['NONE', 'MOD7', 'MOD10', 'MOD11'] as const;
export type ProCheckDigitScheme = (typeof PRO_CHECK_DIGIT_SCHEMES)[number];

/** The longest PRO the shipment schema accepts (proNumberSchema in carrier.ts). */
export const MAX_PRO_NUMBER_LENGTH = 20;

/** The check character of `base` under `scheme`; null for NONE. `base` is digits. */
export function proCheckDigit(scheme: ProCheckDigitScheme, base: string): string | null {
  if (!/^\d+$/.test(base)) throw new RangeError(`a PRO base number is digits, got "${base}"`);
  switch (scheme) {
    case 'NONE':
      return null;
    case 'MOD7':
      return String(BigInt(base) % 7n);
    case 'MOD10':
      return String(gs1CheckDigit(base));
    case 'MOD11': {
      const remainder = BigInt(base) % 11n;
      if (remainder === 0n) return '0';
      const check = 11n - remainder;
      return check === 10n ? 'X' : String(check);
    }
  }
}

const digits = (field: string, max: number) =>
  z
    .string({ error: `${field} must be a string of digits` })
    .trim()
    .regex(new RegExp(`^\\d{1,${max}}$`), { message: `${field} is 1 to ${max} digits` });

/** A block of PRO numbers a carrier has given the shipper, with the carrier's check digit scheme. */
export const proNumberRangeSchema = z
  .object({
    scac: z
      .string({ error: 'scac must be a string' })
      .trim()
      .transform((value) => value.toUpperCase())
      .pipe(z.string().regex(SCAC_PATTERN, { message: 'a SCAC is 2 to 4 letters, e.g. ODFL' })),
    prefix: z
      .string({ error: 'prefix must be a string of digits' })
      .trim()
      .regex(/^\d{0,10}$/, { message: 'prefix is at most 10 digits' })
      .default('')
      .meta({ description: "Digits printed before the base number and left out of the check digit (e.g. YRC's 3-digit block prefix)" }),
    first: digits('first', 19).meta({ description: 'The first base number of the block, without the check digit; its width is the width of every base' }),
    last: digits('last', 19).meta({ description: 'The last base number of the block, without the check digit' }),
    checkDigit: z.enum(PRO_CHECK_DIGIT_SCHEMES, { error: `checkDigit is one of ${PRO_CHECK_DIGIT_SCHEMES.join(', ')}` }),
  })
  .superRefine((range, ctx) => {
    if (!/^\d+$/.test(range.first) || !/^\d+$/.test(range.last)) return;
    if (range.last.length !== range.first.length) {
      ctx.addIssue({ code: 'custom', path: ['last'], message: `last must have as many digits as first (${range.first.length})` });
    } else if (BigInt(range.last) < BigInt(range.first)) {
      ctx.addIssue({ code: 'custom', path: ['last'], message: `last (${range.last}) is below first (${range.first})` });
    }
    const length = range.prefix.length + range.first.length + (range.checkDigit === 'NONE' ? 0 : 1);
    if (length > MAX_PRO_NUMBER_LENGTH) {
      ctx.addIssue({ code: 'custom', path: ['first'], message: `prefix, base and check digit make ${length} characters; a PRO number has at most ${MAX_PRO_NUMBER_LENGTH}` });
    }
  })
  .meta({ description: "A carrier's PRO number block: SCAC, prefix, first and last base numbers and the check digit scheme" });
export type ProNumberRangeInput = z.input<typeof proNumberRangeSchema>;
export type ProNumberRange = z.output<typeof proNumberRangeSchema>;

/** How many PRO numbers the block holds. */
export function proRangeSize(range: ProNumberRange): bigint {
  return BigInt(range.last) - BigInt(range.first) + 1n;
}

/** The PRO of base number `base` (digits, already as wide as `first`) in the block's format. */
function formatPro(range: ProNumberRange, base: string): string {
  return `${range.prefix}${base}${proCheckDigit(range.checkDigit, base) ?? ''}`;
}

/**
 * The n-th PRO number of the block (n = 1 is `first`). Refuses n below 1 and past the end of the
 * block: the caller's counter must never wrap onto numbers already printed.
 */
export function proNumberFor(range: ProNumberRange, n: number): string {
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`a PRO serial counts from 1, got ${n}`);
  const size = proRangeSize(range);
  if (BigInt(n) > size) {
    throw new RangeError(`the ${range.scac} PRO range ${range.first}-${range.last} holds ${size} numbers: number ${n} is past its end; configure a new range`);
  }
  const base = (BigInt(range.first) + BigInt(n - 1)).toString().padStart(range.first.length, '0');
  return formatPro(range, base);
}

/** Which PRO of the block `proNumber` is (1 for `first`), as proNumberFor counts; null when it is not one of the block's. */
export function proSerialOf(range: ProNumberRange, proNumber: string): number | null {
  const check = checkProNumber(proNumber, range);
  if (!check.ok || !check.inRange) return null;
  const base = proNumber.replace(/[\s-]/g, '').slice(range.prefix.length, range.prefix.length + range.first.length);
  return Number(BigInt(base) - BigInt(range.first) + 1n);
}

export type ProNumberCheck = { ok: true; inRange: boolean } | { ok: false; message: string };

/**
 * Checks a PRO number given by hand (dashes and spaces ignored, letters upper-cased) against the
 * block's format and check digit. `inRange` says whether its base lies inside the block: a
 * carrier may hand out several blocks, so a valid PRO outside this one is not refused here.
 */
export function checkProNumber(proNumber: string, range: ProNumberRange): ProNumberCheck {
  const pro = proNumber.replace(/[\s-]/g, '').toUpperCase();
  const checkLength = range.checkDigit === 'NONE' ? 0 : 1;
  const expectedLength = range.prefix.length + range.first.length + checkLength;
  const shape = `${range.prefix ? `${range.prefix} then ` : ''}${range.first.length} digits${checkLength ? ' and a check digit' : ''}`;
  if (pro.length !== expectedLength || !pro.startsWith(range.prefix)) {
    return { ok: false, message: `${range.scac} PRO numbers here are ${shape} (${expectedLength} characters)` };
  }
  const base = pro.slice(range.prefix.length, range.prefix.length + range.first.length);
  if (!/^\d+$/.test(base)) return { ok: false, message: `${range.scac} PRO numbers here are ${shape}` };
  const expected = proCheckDigit(range.checkDigit, base);
  if (expected !== null && pro.slice(-1) !== expected) {
    return { ok: false, message: `${proNumber} fails the ${range.scac} check digit (${range.checkDigit}): it ends in ${pro.slice(-1)}, the check digit of ${base} is ${expected}` };
  }
  const value = BigInt(base);
  return { ok: true, inRange: value >= BigInt(range.first) && value <= BigInt(range.last) };
}
