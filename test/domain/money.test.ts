import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dollarsText, formatCents } from '../../src/domain/money.js';
import { formatLimit } from '../../src/domain/limits.js';
import { groupedDigits } from '../../src/domain/numberText.js';

/** Written independently of the code under test: digits grouped by hand. */
function referenceDollars(cents: number): string {
  const digits = String(Math.abs(cents)).padStart(3, '0');
  const whole = digits.slice(0, -2).replace(/\B(?=(\d{3})+$)/g, ',');
  return `${cents < 0 ? '-' : ''}$${whole}.${digits.slice(-2)}`;
}

describe('money as people read it', () => {
  it.each([
    [0, '$0.00'],
    [-0, '$0.00'],
    [1, '$0.01'],
    [99, '$0.99'],
    [100, '$1.00'],
    [125_050, '$1,250.50'],
    [-8_020, '-$80.20'],
    [99_999_999, '$999,999.99'],
    [100_000_000, '$1,000,000.00'],
    [1_000_000_000, '$10,000,000.00'],
  ])('%i cents is %s', (cents, text) => {
    expect(formatCents(cents)).toBe(text);
  });

  it('every whole number of cents up to a trillion dollars, either sign, as grouped by hand', () => {
    fc.assert(
      fc.property(fc.integer({ min: -100_000_000_000_000, max: 100_000_000_000_000 }), (cents) => {
        expect(formatCents(cents)).toBe(referenceDollars(cents));
      }),
    );
  });

  it('absurd amounts still print, without throwing', () => {
    expect(formatCents(Number.NaN)).toBe('$NaN');
    expect(formatCents(Infinity)).toBe('$∞');
    expect(formatCents(0.5)).toBe('$0.01');
  });

  it('dollars with two decimals for files: CSV, X12 and eBOL amounts', () => {
    expect(dollarsText(0)).toBe('0.00');
    expect(dollarsText(5)).toBe('0.05');
    expect(dollarsText(125_050)).toBe('1250.50');
    expect(dollarsText(-8_020)).toBe('-80.20');
    expect(dollarsText(1_000_000_000)).toBe('10000000.00');
  });
});

describe('formatLimit', () => {
  it('writes thousands with commas, and numbers below 1,000 as they are (its short cut)', () => {
    const bySeparator = (value: number) => {
      const [whole, fraction] = String(value).split('.');
      return `${whole!.replace(/\B(?=(\d{3})+$)/g, ',')}${fraction === undefined ? '' : `.${fraction}`}`;
    };
    expect([formatLimit(45000), formatLimit(45000.5), formatLimit(999.99), formatLimit(-1234), formatLimit(1000), formatLimit(20)]).toEqual([
      '45,000',
      '45,000.5',
      '999.99',
      '-1,234',
      '1,000',
      '20',
    ]);
    fc.assert(
      fc.property(fc.oneof(fc.double({ min: -2000, max: 2000 }), fc.integer({ min: -5000, max: 5000 }), fc.double()), (value) => {
        expect(formatLimit(value)).toBe(bySeparator(value));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('groupedDigits', () => {
  it('writes what the separator regex writes, for any text', () => {
    const byRegex = (text: string) => text.replace(/\B(?=(\d{3})+$)/g, ',');
    for (const text of ['', '1', '12', '123', '1234', '123456', '1234567', '-1234', '1e+21', 'Infinity', 'NaN', '12a456']) expect(groupedDigits(text)).toBe(byRegex(text));
    fc.assert(
      fc.property(fc.oneof(fc.stringMatching(/^\d{0,25}$/), fc.string(), fc.bigInt({ min: 0n }).map(String)), (text) => {
        expect(groupedDigits(text)).toBe(byRegex(text));
      }),
      { numRuns: 2000 },
    );
  });
});
