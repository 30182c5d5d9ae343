/**
 * Density and the NMFC 13-subprovision freight class scale (in force since 2025-07-19).
 *
 * The class is decided in exact rational arithmetic: each input is read as the decimal number it
 * prints as (47.5, 1200, 0.1) and the density weight x 1728 / (pallets x L x W x H) is compared
 * with each boundary as a fraction of BigInts. In floating point 1,000 lb on a 48x48x50 pallet is
 * 14.999999999999998 pcf and would land one class too high; here it is exactly 15, class 70.
 * Whole pounds, pallets and inches (most freight) make the same fractions with numbers for parts
 * (fitsNumbers): every product stays a safe integer, as exact and far cheaper than BigInts.
 */
import type { Dimensions, FreightClass } from './schemas.js';

const CUBIC_INCHES_PER_CUBIC_FOOT = 1728n;

/** Lower density bound (inclusive) of each class, densest first, as numerator / denominator. */
const DENSITY_SCALE: ReadonlyArray<readonly [numerator: bigint, denominator: bigint, freightClass: FreightClass]> = [
  [50n, 1n, '50'],
  [35n, 1n, '55'],
  [30n, 1n, '60'],
  [45n, 2n, '65'],
  [15n, 1n, '70'],
  [12n, 1n, '85'],
  [10n, 1n, '92.5'],
  [8n, 1n, '100'],
  [6n, 1n, '125'],
  [4n, 1n, '175'],
  [2n, 1n, '250'],
  [1n, 1n, '300'],
];
/** The bounds of DENSITY_SCALE with numbers for parts, for densities in numbers (fitsNumbers). */
const WHOLE_BOUNDS: ReadonlyArray<{ numerator: number; denominator: number }> = DENSITY_SCALE.map(([numerator, denominator]) => ({
  numerator: Number(numerator),
  denominator: Number(denominator),
}));

/** A non-negative exact fraction. */
interface Fraction {
  numerator: bigint;
  denominator: bigint;
}

/**
 * A finite non-negative number as the exact decimal it prints as: JavaScript prints the shortest
 * decimal that reads back as the same double, which is what the user wrote ("47.3", not the
 * binary 47.2999999999999971578...).
 */
export function decimalFraction(value: number): Fraction {
  // Whole numbers (most weights, counts and inches) need no reading of digits.
  if (Number.isSafeInteger(value) && value >= 0) return { numerator: BigInt(value), denominator: 1n };
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`not a finite non-negative number: ${value}`);
  const match = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(value));
  if (!match) throw new RangeError(`cannot read ${value} as a decimal`);
  const [, whole, fraction = '', exponentText = '0'] = match;
  const digits = BigInt(whole! + fraction);
  const scale = fraction.length - Number(exponentText);
  return scale >= 0 ? { numerator: digits, denominator: 10n ** BigInt(scale) } : { numerator: digits * 10n ** BigInt(-scale), denominator: 1n };
}

/** Pounds per cubic foot of a component, exactly: its total weight over the cube of all its pallets. */
export function exactDensity(poundsWeight: number, palletCount: number, dimensions: Dimensions): Fraction {
  const factors = [palletCount, dimensions.length, dimensions.width, dimensions.height].map(decimalFraction);
  const weight = decimalFraction(poundsWeight);
  const cubicInches = factors.reduce((product, factor) => ({
    numerator: product.numerator * factor.numerator,
    denominator: product.denominator * factor.denominator,
  }));
  if (cubicInches.numerator === 0n) throw new RangeError('a component with no volume has no density');
  return {
    numerator: weight.numerator * CUBIC_INCHES_PER_CUBIC_FOOT * cubicInches.denominator,
    denominator: weight.denominator * cubicInches.numerator,
  };
}

const isWhole = (value: number) => Number.isSafeInteger(value) && value >= 0;

/** Whether pounds, pallets and sides are whole numbers: weight x 1728 / cube is then a fraction of whole numbers. */
function wholeInputs(poundsWeight: number, palletCount: number, dimensions: Dimensions): boolean {
  return isWhole(poundsWeight) && isWhole(palletCount) && isWhole(dimensions.length) && isWhole(dimensions.width) && isWhole(dimensions.height);
}

/**
 * Whether a density of whole numbers leaves room in numbers for every product made of it below:
 * 200 x numerator + 100 x denominator a safe integer (scale bounds are at most 50/1) bounds them
 * all, and a product of non-negative whole numbers that is a safe integer was computed exactly
 * (so was each partial product, which is no larger). Otherwise the BigInt fractions decide.
 */
function fitsNumbers(numerator: number, denominator: number): boolean {
  return denominator > 0 && Number.isSafeInteger(200 * numerator + 100 * denominator);
}

/** classOf for a density in numbers (fitsNumbers): the index in DENSITY_SCALE of its class, the scale's length for class 400. */
function wholeClassIndex(numerator: number, denominator: number): number {
  let index = 0;
  while (index < WHOLE_BOUNDS.length && numerator * WHOLE_BOUNDS[index]!.denominator < WHOLE_BOUNDS[index]!.numerator * denominator) index++;
  return index;
}

const classAt = (index: number): FreightClass => DENSITY_SCALE[index]?.[2] ?? '400';

function atLeast(value: Fraction, numerator: bigint, denominator: bigint): boolean {
  return value.numerator * denominator >= numerator * value.denominator;
}

/** The class of an exact density and the bounds of its interval: [lower, upper) in pcf, upper null for class 50. */
function classOf(density: Fraction): { freightClass: FreightClass; lower: Fraction | null; upper: Fraction | null } {
  let upper: Fraction | null = null;
  for (const [numerator, denominator, freightClass] of DENSITY_SCALE) {
    if (atLeast(density, numerator, denominator)) return { freightClass, lower: { numerator, denominator }, upper };
    upper = { numerator, denominator };
  }
  return { freightClass: '400', lower: null, upper };
}

export interface ComponentDensity {
  /**
   * Density in pcf to 2 decimals, rounded half up, except that it never leaves its class's
   * interval: 14.996 pcf (class 85) is 14.99, not 15 (which would be class 70).
   */
  densityPcf: number;
  freightClass: FreightClass;
}

/** The density shown and the class of a component, both from the exact density. */
export function componentDensity(poundsWeight: number, palletCount: number, dimensions: Dimensions): ComponentDensity {
  if (wholeInputs(poundsWeight, palletCount, dimensions)) {
    const numerator = poundsWeight * 1728;
    const denominator = palletCount * dimensions.length * dimensions.width * dimensions.height;
    if (fitsNumbers(numerator, denominator)) {
      // As below, with numbers for parts. The floor of a safe integer over another is exact: the
      // quotient never rounds up to the next whole number.
      const index = wholeClassIndex(numerator, denominator);
      const upper = WHOLE_BOUNDS[index - 1];
      let hundredths = Math.floor((200 * numerator + denominator) / (2 * denominator));
      if (upper && hundredths * upper.denominator >= 100 * upper.numerator) hundredths = Math.floor((100 * numerator) / denominator);
      return { densityPcf: hundredths / 100, freightClass: classAt(index) };
    }
  }
  const density = exactDensity(poundsWeight, palletCount, dimensions);
  const { freightClass, upper } = classOf(density);
  // Hundredths, half up: floor((100 n + d / 2) / d) = floor((200 n + d) / 2d).
  let hundredths = (200n * density.numerator + density.denominator) / (2n * density.denominator);
  // Every bound of the scale is a whole number of hundredths, so the lower bound can never be
  // crossed by rounding up; only the (exclusive) upper one can, and then the value is cut instead.
  if (upper && hundredths * upper.denominator >= 100n * upper.numerator) hundredths = (100n * density.numerator) / density.denominator;
  return { densityPcf: Number(hundredths) / 100, freightClass };
}

/** The class of a density already known in pcf (a number, taken as the decimal it prints as). */
export function freightClassForDensity(pcf: number): FreightClass {
  return classOf(decimalFraction(pcf)).freightClass;
}

/** The class of a component's density (componentDensity's, without the density shown): for the freight check's what-ifs. */
export function componentClass(poundsWeight: number, palletCount: number, dimensions: Dimensions): FreightClass {
  return scaledWeightClass(poundsWeight, palletCount, dimensions, { numerator: 1, denominator: 1 });
}

/**
 * The class of a component whose weight is scaled by `scale` (a fraction of whole numbers, the
 * denominator positive): the freight check's what-if of a scale that reads a percentage less.
 */
export function scaledWeightClass(poundsWeight: number, palletCount: number, dimensions: Dimensions, scale: { numerator: number; denominator: number }): FreightClass {
  if (wholeInputs(poundsWeight, palletCount, dimensions) && isWhole(scale.numerator) && isWhole(scale.denominator)) {
    const numerator = poundsWeight * 1728 * scale.numerator;
    const denominator = palletCount * dimensions.length * dimensions.width * dimensions.height * scale.denominator;
    if (fitsNumbers(numerator, denominator)) return classAt(wholeClassIndex(numerator, denominator));
  }
  const density = exactDensity(poundsWeight, palletCount, dimensions);
  return classOf({ numerator: density.numerator * BigInt(scale.numerator), denominator: density.denominator * BigInt(scale.denominator) }).freightClass;
}
