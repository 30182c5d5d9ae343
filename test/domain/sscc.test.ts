import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidSscc, ssccElementString, ssccFor, ssccHumanReadable, ssccSerialCapacity, ssccSerialOf } from '../../src/domain/sscc.js';

describe('ssccFor', () => {
  it("gives GS1's published example SSCC (00) 1 0614141 123456789 7", () => {
    expect(ssccFor('0614141', 123456789, 1)).toBe('106141411234567897');
    expect(ssccFor('0614141', 123456789)).toBe('006141411234567890');
  });

  it('fills 16 digits with the serial after a 7- to 10-digit prefix', () => {
    expect(ssccFor('0614141', 0)).toBe('006141410000000005'); // by hand: 18 + 1 + 12 + 1 + 12 + 1 = 45
    expect(ssccFor('0614141999', 42)).toMatch(/^00614141999000042\d$/);
    expect(ssccSerialCapacity('0614141')).toBe(1_000_000_000);
    expect(ssccSerialCapacity('0614141999')).toBe(1_000_000);
  });

  it('refuses a serial that does not fit, on the boundary', () => {
    expect(ssccFor('0614141999', 999_999)).toMatch(/^00614141999999999\d$/);
    expect(() => ssccFor('0614141999', 1_000_000)).toThrow('SSCC serial 1000000 does not fit in the 6 digits that company prefix 0614141999 leaves (0 to 999999)');
    expect(() => ssccFor('0614141', 1_000_000_000)).toThrow(RangeError);
    for (const serial of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => ssccFor('0614141', serial)).toThrow(RangeError);
  });

  it('refuses a bad company prefix or extension digit', () => {
    for (const prefix of ['061414', '06141419999', '06141a1', '']) expect(() => ssccFor(prefix, 1)).toThrow('a GS1 company prefix is 7 to 10 digits');
    for (const digit of [-1, 10, 0.5]) expect(() => ssccFor('0614141', 1, digit)).toThrow('extension digit');
  });

  it('always gives 18 digits that pass the check (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 7, max: 10 }), fc.nat(), fc.integer({ min: 0, max: 9 }), (prefixLength, seed, extension) => {
        const prefix = String(seed).padStart(prefixLength, '7').slice(-prefixLength);
        const serial = seed % ssccSerialCapacity(prefix);
        const sscc = ssccFor(prefix, serial, extension);
        expect(sscc).toHaveLength(18);
        expect(isValidSscc(sscc)).toBe(true);
        expect(sscc.slice(1, 1 + prefixLength)).toBe(prefix);
      }),
    );
  });
});

describe('isValidSscc', () => {
  it('accepts the check digit and nothing else', () => {
    expect(isValidSscc('106141411234567897')).toBe(true);
    for (let digit = 0; digit <= 9; digit++) if (digit !== 7) expect(isValidSscc(`10614141123456789${digit}`)).toBe(false);
    expect(isValidSscc('10614141123456789')).toBe(false);
    expect(isValidSscc('1061414112345678977')).toBe(false);
    expect(isValidSscc('10614141123456789X')).toBe(false);
    expect(isValidSscc('')).toBe(false);
  });
});

describe('the printed forms', () => {
  it('element string in bracketed GS1 notation', () => {
    expect(ssccElementString('106141411234567897')).toBe('(00)106141411234567897');
    expect(() => ssccElementString('123')).toThrow('18 digits');
  });

  it('human-readable text grouped as GS1 prints it, for every prefix length', () => {
    expect(ssccHumanReadable('106141411234567897', '0614141')).toBe('(00) 1 0614141 123456789 7');
    expect(ssccHumanReadable(ssccFor('0614141999', 42), '0614141999')).toMatch(/^\(00\) 0 0614141999 000042 \d$/);
  });

  it('ungrouped when the prefix is unknown or another one issued the SSCC', () => {
    expect(ssccHumanReadable('106141411234567897')).toBe('(00) 106141411234567897');
    expect(ssccHumanReadable('106141411234567897', '0999999')).toBe('(00) 106141411234567897');
  });
});

describe('ssccSerialOf (what a store that lost its counter reads back)', () => {
  it('is the inverse of ssccFor, on the smallest and the largest serial, with any extension digit', () => {
    const capacity = ssccSerialCapacity('0614141');
    for (const serial of [0, 1, 123456789, capacity - 1]) for (const extension of [0, 9]) expect(ssccSerialOf(ssccFor('0614141', serial, extension), '0614141')).toBe(serial);
  });
  it('is null for another company prefix, a bad check digit and junk', () => {
    const sscc = ssccFor('0614141', 42);
    expect(ssccSerialOf(sscc, '0614142')).toBeNull();
    expect(ssccSerialOf(`${sscc.slice(0, -1)}${(Number(sscc.at(-1)) + 1) % 10}`, '0614141')).toBeNull();
    expect(ssccSerialOf('', '0614141')).toBeNull();
    expect(ssccSerialOf('1'.repeat(18), '0614141')).toBeNull();
  });
});
