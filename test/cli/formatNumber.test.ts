import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatNumber } from '../../src/cli/output.js';

/** What formatNumber stands in for (it avoids loading ICU's number formatting at start-up). */
const icu = (value: number, digits: number) => value.toLocaleString('en-US', { maximumFractionDigits: digits });

describe('numbers as people read them', () => {
  it.each([
    [9.375, 2, '9.38'],
    [1.005, 2, '1.01'],
    [-0.004, 2, '-0'],
    [-0, 2, '-0'],
    [1234567.891, 2, '1,234,567.89'],
    [999.995, 2, '1,000'],
    [2.5, 0, '3'],
    [1e21, 2, '1,000,000,000,000,000,000,000'],
    [1e-7, 2, '0'],
    [Number.NaN, 2, 'NaN'],
  ])('%s with at most %i decimals is %s, as toLocaleString writes it', (value, digits, text) => {
    expect(formatNumber(value, digits)).toBe(text);
    expect(icu(value, digits)).toBe(text);
  });

  it('any number, halves included, with 0 to 4 decimals: what toLocaleString writes', () => {
    const halves = fc.tuple(fc.integer({ min: -1e9, max: 1e9 }), fc.integer({ min: 1, max: 4 })).map(([n, places]) => (n + 0.5) / 10 ** places);
    fc.assert(
      fc.property(fc.oneof(fc.double({ noNaN: true }), fc.double({ min: -1e6, max: 1e6, noNaN: true }), halves), fc.integer({ min: 0, max: 4 }), (value, digits) => {
        expect(formatNumber(value, digits)).toBe(icu(value, digits));
      }),
      { numRuns: 20_000 },
    );
  });
});
