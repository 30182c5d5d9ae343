import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bolNumberFor, gs1CheckDigit, isValidBolNumber, orderNumberFor } from '../../src/domain/bolNumber.js';

describe('GS1 mod-10 check digit', () => {
  it.each([
    // 6291041500213 (GS1's calculator example), 036000291452 (UPC-A), 4006381333931 (EAN-13)
    ['629104150021', 3],
    ['00614141123456789', 0],
    ['03600029145', 2],
    ['400638133393', 1],
  ])('%s -> %i', (data, check) => {
    expect(gs1CheckDigit(data)).toBe(check);
  });
  it('catches every single-digit error', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99_999_999 }), fc.integer({ min: 0, max: 15 }), fc.integer({ min: 1, max: 9 }), (serial, position, delta) => {
        const bol = bolNumberFor('0614141', serial);
        const digits = bol.split('');
        digits[position] = String((Number(digits[position]) + delta) % 10);
        expect(isValidBolNumber(digits.join(''))).toBe(false);
      }),
    );
  });
});

describe('BOL and order numbers', () => {
  it('builds 17-digit numbers with the prefix, the zero-padded serial and a valid check digit', () => {
    const bol = bolNumberFor('0614141', 123);
    expect(bol).toMatch(/^\d{17}$/);
    expect(bol.startsWith('0614141000000123')).toBe(true);
    expect(isValidBolNumber(bol)).toBe(true);
  });
  it('refuses prefixes of the wrong length and serials that do not fit', () => {
    expect(() => bolNumberFor('123', 1)).toThrow(RangeError);
    expect(() => bolNumberFor('0614141', 10 ** 9)).toThrow(RangeError);
    expect(() => bolNumberFor('0614141', -1)).toThrow(RangeError);
  });
  it('writes order numbers SO- with six digits or more', () => {
    expect(orderNumberFor(123)).toBe('SO-000123');
    expect(orderNumberFor(1_234_567)).toBe('SO-1234567');
  });
});
