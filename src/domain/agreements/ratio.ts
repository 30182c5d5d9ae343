/**
 * Exact rational arithmetic for carrier rating (BigInt numerator and denominator): rates, weights
 * and percentages are decimals, and a price must come out the same on every machine. Only the
 * final rounding to the cent (halves away from zero) leaves the rationals. Pure.
 */
import { decimalFraction } from '../density.js';

export interface Ratio {
  readonly n: bigint;
  readonly d: bigint;
}

/**
 * A ratio as given, not reduced: a price takes a few dozen operations on small numbers, and a gcd
 * per operation cost more than the arithmetic (rate shopping prices with every agreement).
 */
export function ratio(n: bigint, d: bigint = 1n): Ratio {
  if (d === 0n) throw new RangeError('division by zero');
  return d < 0n ? { n: -n, d: -d } : { n, d };
}

/** A finite, non-negative JavaScript number (a weight, an integer of cents) read exactly as its decimal. */
export function ofNumber(value: number): Ratio {
  const fraction = decimalFraction(value);
  return ratio(fraction.numerator, fraction.denominator);
}

/** "72", "31.25", "0.40": a decimal string (validated by the schemas) as a ratio. */
export function ofDecimal(text: string): Ratio {
  const [whole, fraction = ''] = text.split('.');
  return ratio(BigInt(whole! + fraction), 10n ** BigInt(fraction.length));
}

export const ZERO = ratio(0n);
export const add = (a: Ratio, b: Ratio): Ratio => ratio(a.n * b.d + b.n * a.d, a.d * b.d);
export const sub = (a: Ratio, b: Ratio): Ratio => ratio(a.n * b.d - b.n * a.d, a.d * b.d);
export const mul = (a: Ratio, b: Ratio): Ratio => ratio(a.n * b.n, a.d * b.d);
export const compare = (a: Ratio, b: Ratio): number => {
  const left = a.n * b.d;
  const right = b.n * a.d;
  return left < right ? -1 : left > right ? 1 : 0;
};
/** `percent` % of `amount`. */
export const percentOf = (amount: Ratio, percent: Ratio): Ratio => mul(amount, ratio(percent.n, percent.d * 100n));

/** To whole cents, halves away from zero: the one rounding each breakdown line gets. */
export function roundHalfAwayFromZero(value: Ratio): number {
  const negative = value.n < 0n;
  const magnitude = negative ? -value.n : value.n;
  const rounded = (2n * magnitude + value.d) / (2n * value.d);
  return Number(negative ? -rounded : rounded);
}

/** A ratio written as a decimal with at most `places` places (for a percentage shown to people). */
export function toDecimalString(value: Ratio, places = 4): string {
  const scale = 10n ** BigInt(places);
  const scaled = (value.n * scale * 2n + value.d) / (2n * value.d);
  const whole = scaled / scale;
  const fraction = (scaled % scale).toString().padStart(places, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : `${whole}`;
}
