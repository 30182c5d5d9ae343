import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { densityPcf, freightClassForDensity } from '../../src/domain/density.js';
import { FREIGHT_CLASSES } from '../../src/domain/schemas.js';

describe('densityPcf', () => {
  it('divides the total weight by the cube of all pallets in cubic feet', () => {
    // 2 pallets of 48x40x48 in = 2 x 53.333 ft3 = 106.667 ft3; 1200 lb / 106.667 = 11.25 pcf
    expect(densityPcf(1200, 2, { length: 48, width: 40, height: 48 })).toBeCloseTo(11.25, 10);
  });
  it('treats dimensions as those of ONE pallet', () => {
    const one = densityPcf(500, 1, { length: 48, width: 40, height: 40 });
    const two = densityPcf(500, 2, { length: 48, width: 40, height: 40 });
    expect(one).toBeCloseTo(2 * two, 10);
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
    expect(freightClassForDensity(1000)).toBe('50');
  });
  it('never raises the class as density grows (monotonic)', () => {
    const rank = (freightClass: string) => Number(freightClass);
    fc.assert(
      fc.property(fc.double({ min: 0, max: 200, noNaN: true }), fc.double({ min: 0, max: 200, noNaN: true }), (a, b) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        expect(rank(freightClassForDensity(high))).toBeLessThanOrEqual(rank(freightClassForDensity(low)));
      }),
    );
  });
  it('only ever answers one of the 13 classes', () => {
    fc.assert(fc.property(fc.double({ min: 0, max: 1e6, noNaN: true }), (pcf) => {
      expect(FREIGHT_CLASSES).toContain(freightClassForDensity(pcf));
    }));
  });
});
