import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BOL_NUMBER_LENGTH, bolNumberFor, gs1CheckDigit, isGs1CompanyPrefix, isValidBolNumber, orderNumberFor } from '../../src/domain/bolNumber.js';

/**
 * GS1 General Specifications 7.9.1, written independently of the code under test: from the LEFT,
 * positions alternate weights so that the digit next to the check digit weighs 3.
 */
function referenceCheckDigit(data: string): number {
  let sum = 0;
  for (let i = 0; i < data.length; i++) {
    const weight = (data.length - i) % 2 === 1 ? 3 : 1;
    sum += Number(data[i]) * weight;
  }
  return (10 - (sum % 10)) % 10;
}

describe('GS1 mod-10 check digit', () => {
  it.each([
    // Published examples: UPC-A 036000291452, EAN-13 4006381333931, GS1's GTIN-13 6291041500213,
    // and GS1's SSCC (00) 106141411234567897.
    ['03600029145', 2],
    ['400638133393', 1],
    ['629104150021', 3],
    ['10614141123456789', 7],
    // A BOL number worked by hand (sum 59), and all zeros.
    ['0614141000000123', 1],
    ['0000000000000000', 0],
  ])('check digit of %s is %i', (data, expected) => {
    expect(gs1CheckDigit(data)).toBe(expected);
    expect(referenceCheckDigit(data)).toBe(expected);
  });

  it('refuses anything but digits', () => {
    expect(() => gs1CheckDigit('12a4')).toThrow(RangeError);
    expect(() => gs1CheckDigit('')).toThrow(RangeError);
  });

  it('agrees with the reference computation for any 16 data digits', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{16}$/), (data) => {
        expect(gs1CheckDigit(data)).toBe(referenceCheckDigit(data));
      }),
    );
  });
});

describe('VICS BOL numbers', () => {
  it('are 17 digits: company prefix, zero-padded serial, check digit', () => {
    const bol = bolNumberFor('0614141', 1);
    expect(bol).toBe('06141410000000012');
    expect(bol).toHaveLength(BOL_NUMBER_LENGTH);
    expect(isValidBolNumber(bol)).toBe(true);
  });

  it('are valid and keep their prefix for any prefix of 7 to 10 digits and any serial that fits', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 7, max: 10 }).chain((length) => fc.tuple(fc.stringMatching(new RegExp(`^\\d{${length}}$`)), fc.integer({ min: 0, max: 10 ** (16 - length) - 1 }))),
        ([prefix, serial]) => {
          const bol = bolNumberFor(prefix, serial);
          expect(bol).toMatch(/^\d{17}$/);
          expect(bol.startsWith(prefix)).toBe(true);
          expect(Number(bol.slice(prefix.length, 16))).toBe(serial);
          expect(isValidBolNumber(bol)).toBe(true);
          expect(Number(bol.at(-1))).toBe(referenceCheckDigit(bol.slice(0, 16)));
        },
      ),
    );
  });

  it('detect every single-digit error (the point of a mod-10 check digit)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999_999_999 }), fc.integer({ min: 0, max: 16 }), fc.integer({ min: 1, max: 9 }), (serial, position, delta) => {
        const bol = bolNumberFor('0614141', serial);
        const wrong = bol.slice(0, position) + String((Number(bol[position]) + delta) % 10) + bol.slice(position + 1);
        expect(isValidBolNumber(wrong)).toBe(false);
      }),
    );
  });

  it('rejects malformed numbers and impossible inputs', () => {
    expect(isValidBolNumber('0614141000000001')).toBe(false);
    expect(isValidBolNumber('06141410000000013')).toBe(false);
    expect(isValidBolNumber('0614141000000001x')).toBe(false);
    expect(() => bolNumberFor('061414', 1)).toThrow(RangeError);
    expect(() => bolNumberFor('0614141', 10 ** 9)).toThrow(RangeError);
    expect(() => bolNumberFor('0614141', -1)).toThrow(RangeError);
  });
});

describe('internal order numbers', () => {
  it('are SO- and at least six digits', () => {
    expect(orderNumberFor(1)).toBe('SO-000001');
    expect(orderNumberFor(123456)).toBe('SO-123456');
    expect(orderNumberFor(1234567)).toBe('SO-1234567');
  });
});

describe('GS1 company prefixes', () => {
  it.each(['0614141', '1234567890', '0000000'])('%s (7 to 10 digits) is one', (prefix) => {
    expect(isGs1CompanyPrefix(prefix)).toBe(true);
  });

  it.each(['061414', '12345678901', '', '06141a1', ' 0614141', '0614141\n', '０６１４１４１'])('%j is not, and no number is issued under it', (prefix) => {
    expect(isGs1CompanyPrefix(prefix)).toBe(false);
    expect(() => bolNumberFor(prefix, 1)).toThrow(`a GS1 company prefix is 7 to 10 digits, got "${prefix}"`);
  });
});
