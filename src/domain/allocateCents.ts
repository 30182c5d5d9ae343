/** Sharing whole cents in proportion, exactly (the largest-remainder method). Pure. */
import { decimalFraction } from './density.js';

/**
 * `total` cents shared in proportion to `weights` (finite, >= 0), exactly: each share is the
 * floor of its exact part, and the cents left over go one each to the largest remainders (the
 * earlier line on a tie). All weights 0: shared equally. The shares always add up to `total`.
 */
export function allocateCents(total: number, weights: readonly number[]): number[] {
  if (!Number.isSafeInteger(total) || total < 0) throw new RangeError(`a total to share is a whole number of cents >= 0, got ${total}`);
  if (weights.length === 0) {
    if (total !== 0) throw new RangeError('cannot share a total among no lines');
    return [];
  }
  const whole = wholeShares(total, weights);
  if (whole) return whole;
  const fractions = weights.map((weight) => decimalFraction(weight));
  const denominator = fractions.reduce((product, fraction) => lcm(product, fraction.denominator), 1n);
  let scaled = fractions.map((fraction) => fraction.numerator * (denominator / fraction.denominator));
  let sum = scaled.reduce((a, b) => a + b, 0n);
  if (sum === 0n) {
    scaled = scaled.map(() => 1n);
    sum = BigInt(scaled.length);
  }
  const bigTotal = BigInt(total);
  const shares = scaled.map((weight) => (bigTotal * weight) / sum);
  const remainders = scaled.map((weight, index) => ({ index, remainder: (bigTotal * weight) % sum }));
  let left = bigTotal - shares.reduce((a, b) => a + b, 0n);
  remainders.sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
  for (const { index } of remainders) {
    if (left === 0n) break;
    shares[index]! += 1n;
    left -= 1n;
  }
  return shares.map(Number);
}

/**
 * The same shares in number arithmetic, for whole weights (a line's pounds times a rate in whole
 * cents) small enough that total x their sum is a safe integer: every product below is then
 * exact, and so is each quotient's floor (a safe integer divided by another never rounds up to
 * the next whole number). Undefined otherwise, and BigInts decide.
 */
function wholeShares(total: number, weights: readonly number[]): number[] | undefined {
  let sum = 0;
  for (const weight of weights) {
    if (!Number.isSafeInteger(weight) || weight < 0) return undefined;
    sum += weight;
  }
  // A sum or product of non-negative whole numbers that is a safe integer was computed exactly, and so was each part of it.
  if (sum === 0 || !Number.isSafeInteger(total * sum)) return undefined;
  // Plain loops and number arrays (no object per line): this runs for every quote.
  const count = weights.length;
  const shares = new Array<number>(count);
  const remainders = new Array<number>(count);
  const order = new Array<number>(count);
  let left = total;
  for (let index = 0; index < count; index++) {
    const product = total * weights[index]!;
    const share = Math.floor(product / sum);
    shares[index] = share;
    remainders[index] = product - share * sum;
    order[index] = index;
    left -= share;
  }
  // Fewer cents are left than lines: one each to the largest remainders, the earlier line first among equal ones (exact differences of safe integers).
  order.sort((a, b) => remainders[b]! - remainders[a]! || a - b);
  for (let rank = 0; rank < left; rank++) shares[order[rank]!]! += 1;
  return shares;
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}
const lcm = (a: bigint, b: bigint): bigint => (a / gcd(a, b)) * b;
