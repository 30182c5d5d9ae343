import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { componentClass, componentDensity, decimalFraction, freightClassForDensity, scaledWeightClass } from '../../src/domain/density.js';
import { FREIGHT_CLASSES } from '../../src/domain/schemas.js';

/**
 * The oracle, written independently of src/domain/density.ts: SPEC 2's scale with every bound
 * doubled so that all are integers (22.5 pcf -> 45), and inputs given as decimal TEXT, scaled to
 * integers by moving the decimal point. density >= bound  <=>  2 x weight x 1728 >= 2bound x cube.
 */
const SCALE_TWICE: Array<[twiceBound: bigint, freightClass: string]> = [
  [100n, '50'],
  [70n, '55'],
  [60n, '60'],
  [45n, '65'],
  [30n, '70'],
  [24n, '85'],
  [20n, '92.5'],
  [16n, '100'],
  [12n, '125'],
  [8n, '175'],
  [4n, '250'],
  [2n, '300'],
];
const BOUNDS = SCALE_TWICE.map(([twice]) => Number(twice) / 2);

/** "47.5" -> [475n, 10n]; plain decimal notation only (what the tests write). */
function scaled(text: string): [bigint, bigint] {
  const [whole, fraction = ''] = text.split('.');
  return [BigInt(`${whole}${fraction}`), 10n ** BigInt(fraction.length)];
}

function oracleClass(weight: string, pallets: string, length: string, width: string, height: string): string {
  const [w, wScale] = scaled(weight);
  let cube = 1n;
  let cubeScale = 1n;
  for (const factor of [pallets, length, width, height]) {
    const [value, scale] = scaled(factor);
    cube *= value;
    cubeScale *= scale;
  }
  // weight/wScale x 1728 / (cube/cubeScale) >= twice/2  <=>  2 x 1728 x w x cubeScale >= twice x cube x wScale
  const left = 2n * 1728n * w * cubeScale;
  for (const [twice, freightClass] of SCALE_TWICE) if (left >= twice * cube * wScale) return freightClass;
  return '400';
}

const classOf = (weight: number, pallets: number, length: number, width: number, height: number) => componentDensity(weight, pallets, { length, width, height }).freightClass;

const rank = (freightClass: string) => FREIGHT_CLASSES.indexOf(freightClass as (typeof FREIGHT_CLASSES)[number]);

describe('componentDensity: the class on every boundary of the scale', () => {
  it('puts 1,000 lb on one 48x48x50 pallet (exactly 15 pcf) in class 70, not 85', () => {
    expect(componentDensity(1000, 1, { length: 48, width: 48, height: 50 })).toEqual({ densityPcf: 15, freightClass: '70' });
    expect(classOf(999, 1, 48, 48, 50)).toBe('85');
    expect(classOf(1001, 1, 48, 48, 50)).toBe('70');
    // The floating-point formula the code used before lands just under 15 here.
    expect(1000 / ((48 * 48 * 50) / 1728)).toBeLessThan(15);
  });

  it('agrees with the exact oracle on a sweep of integer pallets: on each boundary, one pound below and above, a hundredth below and above', () => {
    let onBoundary = 0;
    let floatWouldMiss = 0;
    for (let pallets = 1; pallets <= 3; pallets++) {
      for (let length = 36; length <= 60; length++) {
        for (let width = 36; width <= 48; width += 2) {
          for (let height = 24; height <= 72; height += 3) {
            const cube = pallets * length * width * height;
            for (const bound of BOUNDS) {
              const exactWeight = (bound * cube) / 1728;
              if (!Number.isInteger(exactWeight)) continue;
              onBoundary++;
              if (freightClassForNaiveFloat(exactWeight, cube) !== oracleClass(String(exactWeight), String(pallets), String(length), String(width), String(height)))
                floatWouldMiss++;
              for (const weight of [exactWeight, exactWeight - 1, exactWeight + 1, exactWeight - 0.01, exactWeight + 0.01]) {
                if (weight <= 0) continue;
                const expected = oracleClass(String(weight), String(pallets), String(length), String(width), String(height));
                const actual = classOf(weight, pallets, length, width, height);
                if (actual !== expected) expect({ weight, pallets, length, width, height, actual }).toEqual({ weight, pallets, length, width, height, actual: expected });
              }
              // On the boundary the class is the one the boundary opens, a hundredth below the one before.
              const at = classOf(exactWeight, pallets, length, width, height);
              expect(SCALE_TWICE.find(([twice]) => Number(twice) / 2 === bound)![1]).toBe(at);
              expect(rank(classOf(exactWeight - 0.01, pallets, length, width, height))).toBe(rank(at) + 1);
            }
          }
        }
      }
    }
    // The sweep has teeth: thousands of pallets sit exactly on a boundary, and plain floating point gets some wrong.
    expect(onBoundary).toBeGreaterThan(5000);
    expect(floatWouldMiss).toBeGreaterThan(0);
  });

  it('covers every boundary of the scale, 22.5 pcf included', () => {
    for (const [twice, freightClass] of SCALE_TWICE) {
      // One cubic foot (12x12x12): the weight in pounds is the density in pcf.
      const bound = Number(twice) / 2;
      expect(classOf(bound, 1, 12, 12, 12)).toBe(freightClass);
      expect(rank(classOf(bound - 0.001, 1, 12, 12, 12))).toBe(rank(freightClass) + 1);
      expect(classOf(bound + 0.001, 1, 12, 12, 12)).toBe(freightClass);
    }
    expect(classOf(0.999, 1, 12, 12, 12)).toBe('400');
    expect(classOf(1_000_000, 1, 12, 12, 12)).toBe('50');
  });

  it('is exact for decimal inputs: 47.5 in, 0.1 lb steps, on their boundaries and a hair off', () => {
    // 47.5 x 40 x 45.6 in = 86,640 in3: 22.5 pcf is exactly 1,128.125 lb; 15 pcf exactly 752.083.. (not a short decimal).
    expect(classOf(1128.125, 1, 47.5, 40, 45.6)).toBe('65');
    expect(classOf(1128.124, 1, 47.5, 40, 45.6)).toBe('70');
    const decimals = ['47.5', '40.25', '45.6', '48', '42.75', '36.4'];
    let checked = 0;
    for (const length of decimals) {
      for (const width of decimals) {
        for (const height of decimals) {
          for (const pallets of ['1', '2', '7']) {
            const [l, ls] = scaled(length);
            const [w, ws] = scaled(width);
            const [h, hs] = scaled(height);
            const cube = BigInt(pallets) * l * w * h;
            const cubeScale = ls * ws * hs;
            for (const [twice] of SCALE_TWICE) {
              // Boundary weight = twice/2 x cube/cubeScale / 1728, written with 4 decimals when that is exact.
              const numerator = twice * cube * 10_000n;
              const denominator = 2n * 1728n * cubeScale;
              if (numerator % denominator !== 0n) continue;
              const tenThousandths = numerator / denominator;
              for (const delta of [0n, -1n, 1n]) {
                const text = formatTenThousandths(tenThousandths + delta);
                expect(classOf(Number(text), Number(pallets), Number(length), Number(width), Number(height)), `${text} lb on ${pallets} x ${length}x${width}x${height}`).toBe(
                  oracleClass(text, pallets, length, width, height),
                );
                checked++;
              }
            }
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('agrees with the oracle on random decimal freight', () => {
    const decimal = (max: number, places: number) =>
      fc.integer({ min: 10 ** places, max: max * 10 ** places }).map((units) => (units / 10 ** places).toFixed(places).replace(/\.?0+$/, ''));
    fc.assert(
      fc.property(decimal(45000, 2), fc.integer({ min: 1, max: 60 }), decimal(636, 2), decimal(102, 2), decimal(110, 2), (weight, pallets, length, width, height) => {
        expect(classOf(Number(weight), pallets, Number(length), Number(width), Number(height))).toBe(oracleClass(weight, String(pallets), length, width, height));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('componentClass and scaledWeightClass (the freight check what-ifs)', () => {
  it('class a weight scaled by a fraction exactly, whole or decimal, small or too large for exact numbers', () => {
    // weight x scale x 1728 / cube >= twice / 2, all in BigInts (weights with up to 2 decimals).
    const oracle = (hundredthsOfPound: bigint, cube: bigint, numerator: bigint, denominator: bigint) =>
      SCALE_TWICE.find(([twice]) => 2n * 1728n * hundredthsOfPound * numerator >= twice * cube * denominator * 100n)?.[1] ?? '400';
    const side = fc.oneof(fc.integer({ min: 1, max: 120 }), fc.integer({ min: 1, max: 2 ** 30 }));
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: 1, max: 50_000 }).map((pounds) => pounds * 100),
          fc.integer({ min: 1, max: 4_500_000 }),
          fc.integer({ min: 1, max: 2 ** 45 }).map((pounds) => pounds * 100),
        ),
        fc.integer({ min: 1, max: 60 }),
        side,
        side,
        side,
        fc.constantFrom([1, 1], [90, 100], [975, 1000], [0, 100], [1, 3]),
        (hundredthsOfPound, pallets, length, width, height, [numerator, denominator]) => {
          const weight = hundredthsOfPound / 100;
          const cube = BigInt(pallets) * BigInt(length) * BigInt(width) * BigInt(height);
          const expected = oracle(BigInt(hundredthsOfPound), cube, BigInt(numerator!), BigInt(denominator!));
          expect(scaledWeightClass(weight, pallets, { length, width, height }, { numerator: numerator!, denominator: denominator! })).toBe(expected);
          if (numerator === 1 && denominator === 1)
            expect(componentClass(weight, pallets, { length, width, height })).toBe(componentDensity(weight, pallets, { length, width, height }).freightClass);
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe('componentDensity: the density shown never contradicts the class', () => {
  it.each([
    // [lb on one cubic foot, shown pcf, class]
    [14.996, 14.99, '85'], // rounds to 15.00, which is class 70: cut to 14.99
    [14.994, 14.99, '85'],
    [15, 15, '70'],
    [15.004, 15, '70'],
    [15.005, 15.01, '70'], // half up
    [22.499, 22.49, '70'],
    [22.5, 22.5, '65'],
    [0.996, 0.99, '400'],
    [49.999, 49.99, '55'],
    [11.25, 11.25, '92.5'],
  ])('%s lb per cubic foot shows %s pcf, class %s', (weight, shown, freightClass) => {
    expect(componentDensity(weight, 1, { length: 12, width: 12, height: 12 })).toEqual({ densityPcf: shown, freightClass });
  });

  it('shows a density (2 decimals) inside the interval of its class, within a hundredth of the exact one', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4_500_000 }),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 1, max: 110 }),
        fc.integer({ min: 1, max: 102 }),
        fc.integer({ min: 1, max: 110 }),
        (hundredthsOfPound, pallets, length, width, height) => {
          const weight = hundredthsOfPound / 100;
          const { densityPcf, freightClass } = componentDensity(weight, pallets, { length, width, height });
          expect(Math.round(densityPcf * 100)).toBeCloseTo(densityPcf * 100, 6);
          expect(freightClassForDensity(densityPcf)).toBe(freightClass);
          expect(Math.abs(densityPcf - (weight * 1728) / (pallets * length * width * height))).toBeLessThanOrEqual(0.01 + 1e-9);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('shows exactly the oracle density and class for whole pounds, pallets and inches, small or too large for exact numbers', () => {
    // Hundredths of weight x 1728 / cube, half up, cut to the hundredth below when that reaches the next class.
    const oracle = (weight: bigint, cube: bigint) => {
      const freightClass = SCALE_TWICE.find(([twice]) => 2n * 1728n * weight >= twice * cube)?.[1] ?? '400';
      const upperTwice = SCALE_TWICE[SCALE_TWICE.findIndex(([, known]) => known === freightClass) - 1]?.[0] ?? (freightClass === '400' ? 2n : undefined);
      let hundredths = (200n * 1728n * weight + cube) / (2n * cube);
      if (upperTwice !== undefined && 2n * hundredths >= 100n * upperTwice) hundredths = (100n * 1728n * weight) / cube;
      return { densityPcf: Number(hundredths) / 100, freightClass };
    };
    const whole = (max: number) => fc.oneof(fc.integer({ min: 1, max }), fc.integer({ min: 1, max: 200 }));
    fc.assert(
      fc.property(
        fc.oneof(whole(50_000), fc.integer({ min: 1, max: 2 ** 45 })),
        whole(60),
        whole(700),
        whole(110),
        fc.oneof(whole(120), fc.integer({ min: 1, max: 2 ** 30 })),
        (weight, pallets, length, width, height) => {
          const cube = BigInt(pallets) * BigInt(length) * BigInt(width) * BigInt(height);
          expect(componentDensity(weight, pallets, { length, width, height })).toEqual(oracle(BigInt(weight), cube));
        },
      ),
      { numRuns: 3000 },
    );
    // On a boundary: exactly 15 pcf, and a pound under it.
    expect(componentDensity(1000, 1, { length: 48, width: 48, height: 50 })).toEqual(oracle(1000n, 48n * 48n * 50n));
    expect(componentDensity(999, 1, { length: 48, width: 48, height: 50 })).toEqual(oracle(999n, 48n * 48n * 50n));
  });

  it('keeps the old figures where no boundary is near: 1,200 lb on two 48x40x48 pallets is 11.25 pcf', () => {
    expect(componentDensity(1200, 2, { length: 48, width: 40, height: 48 })).toEqual({ densityPcf: 11.25, freightClass: '92.5' });
    // Dimensions are those of ONE pallet: twice the pallets, half the density.
    expect(componentDensity(500, 2, { length: 48, width: 40, height: 40 }).densityPcf).toBe(5.63);
    expect(componentDensity(500, 1, { length: 48, width: 40, height: 40 }).densityPcf).toBe(11.25);
  });
});

describe('freightClassForDensity (NMFC 13-subprovision scale)', () => {
  const boundaries: Array<[below: number, at: number, classBelow: string, classAt: string]> = [
    [0.99, 1, '400', '300'],
    [1.99, 2, '300', '250'],
    [3.99, 4, '250', '175'],
    [5.99, 6, '175', '125'],
    [7.99, 8, '125', '100'],
    [9.99, 10, '100', '92.5'],
    [11.99, 12, '92.5', '85'],
    [14.99, 15, '85', '70'],
    [22.49, 22.5, '70', '65'],
    [29.99, 30, '65', '60'],
    [34.99, 35, '60', '55'],
    [49.99, 50, '55', '50'],
  ];
  it.each(boundaries)('%s pcf -> class %s, %s pcf -> class %s', (below, at, classBelow, classAt) => {
    expect(freightClassForDensity(below)).toBe(classBelow);
    expect(freightClassForDensity(at)).toBe(classAt);
  });
  it('puts anything under 1 pcf in class 400 and anything from 50 pcf in class 50', () => {
    expect(freightClassForDensity(0)).toBe('400');
    expect(freightClassForDensity(0.0001)).toBe('400');
    expect(freightClassForDensity(5e-324)).toBe('400');
    expect(freightClassForDensity(1000)).toBe('50');
    expect(freightClassForDensity(1e300)).toBe('50');
  });
  it('never raises the class as density grows (monotonic)', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 200, noNaN: true }), fc.double({ min: 0, max: 200, noNaN: true }), (a, b) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        expect(Number(freightClassForDensity(high))).toBeLessThanOrEqual(Number(freightClassForDensity(low)));
      }),
    );
  });
  it('refuses what is not a density', () => {
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, -1]) expect(() => freightClassForDensity(bad)).toThrow(RangeError);
  });
});

/** The formula the code used before: weight / (cube / 1728) in floating point. */
function freightClassForNaiveFloat(weight: number, cube: number): string {
  const pcf = weight / (cube / 1728);
  for (const [twice, freightClass] of SCALE_TWICE) if (pcf >= Number(twice) / 2) return freightClass;
  return '400';
}

function formatTenThousandths(value: bigint): string {
  const text = value.toString().padStart(5, '0');
  return `${text.slice(0, -4)}.${text.slice(-4)}`.replace(/\.?0+$/, '');
}

describe('decimalFraction', () => {
  it('reads whole numbers up to the largest safe integer exactly, and past it, and decimals, as the decimals they print as', () => {
    expect(decimalFraction(0)).toEqual({ numerator: 0n, denominator: 1n });
    expect(decimalFraction(1200)).toEqual({ numerator: 1200n, denominator: 1n });
    expect(decimalFraction(Number.MAX_SAFE_INTEGER)).toEqual({ numerator: 9007199254740991n, denominator: 1n });
    expect(decimalFraction(Number.MAX_SAFE_INTEGER + 1)).toEqual({ numerator: 9007199254740992n, denominator: 1n });
    expect(decimalFraction(1e21)).toEqual({ numerator: 10n ** 21n, denominator: 1n });
    expect(decimalFraction(47.3)).toEqual({ numerator: 473n, denominator: 10n });
    expect(decimalFraction(0.1)).toEqual({ numerator: 1n, denominator: 10n });
  });

  it('refuses what is not a finite non-negative number', () => {
    for (const absurd of [-1, -0.5, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => decimalFraction(absurd)).toThrow(RangeError);
  });
});
