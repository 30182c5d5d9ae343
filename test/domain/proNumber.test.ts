import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkProNumber, proCheckDigit, proNumberFor, proNumberRangeSchema, proRangeSize, proSerialOf, type ProNumberRangeInput } from '../../src/domain/proNumber.js';
import { parseRequest } from '../../src/domain/validation.js';

const range = (input: ProNumberRangeInput) => proNumberRangeSchema.parse(input);
const violations = (input: unknown) => {
  const parsed = parseRequest(proNumberRangeSchema, input);
  return parsed.ok ? [] : parsed.violations.map((violation) => `${violation.reason} (${violation.field})`);
};

describe('PRO check digits on published examples', () => {
  it('MOD7: the 21 in-bond numbers CBP publishes for Form 7512 (the rule XPO LTL states for its 9-digit PROs)', () => {
    const published = [
      '257700004',
      '257700015',
      '257700026',
      '257700030',
      '257700041',
      '257700052',
      '257700063',
      '257700074',
      '257700085',
      '257700096',
      '257700100',
      '257700111',
      '257700122',
      '257700133',
      '257700144',
      '257700155',
      '257700166',
      '257700170',
      '257700181',
      '257700192',
      '257700203',
    ];
    const block = range({ scac: 'cnwy', first: '25770000', last: '25770020', checkDigit: 'MOD7' });
    expect(published.map((_, index) => proNumberFor(block, index + 1))).toEqual(published);
    for (const pro of published) expect(checkProNumber(pro, block)).toEqual({ ok: true, inRange: true });
  });

  it("MOD11: YRC Freight's three examples, the check digit on the six middle digits and X for 10", () => {
    expect(proCheckDigit('MOD11', '340397')).toBe('9');
    expect(proCheckDigit('MOD11', '561881')).toBe('X');
    expect(proCheckDigit('MOD11', '003542')).toBe('0');
    expect(checkProNumber('100-340397-9', range({ scac: 'RDWY', prefix: '100', first: '340000', last: '349999', checkDigit: 'MOD11' }))).toEqual({ ok: true, inRange: true });
    expect(checkProNumber('828-561881-x', range({ scac: 'RDWY', prefix: '828', first: '000000', last: '999999', checkDigit: 'MOD11' }))).toEqual({ ok: true, inRange: true });
    expect(proNumberFor(range({ scac: 'RDWY', prefix: '111', first: '003542', last: '003542', checkDigit: 'MOD11' }), 1)).toBe('1110035420');
  });

  it('MOD10: the GS1 digit (UPC-A 036000291452, GS1 SSCC 106141411234567897)', () => {
    expect(proCheckDigit('MOD10', '03600029145')).toBe('2');
    expect(proCheckDigit('MOD10', '10614141123456789')).toBe('7');
  });

  it('NONE: the PRO is the prefix and the base', () => {
    expect(proCheckDigit('NONE', '123')).toBeNull();
    expect(proNumberFor(range({ scac: 'ABFS', prefix: '07', first: '0001', last: '9999', checkDigit: 'NONE' }), 12)).toBe('070012');
  });
});

describe('proNumberFor', () => {
  const block = range({ scac: 'ODFL', first: '70000000', last: '70000009', checkDigit: 'MOD7' });

  it('gives first for n = 1 and last for n = the size of the block, and refuses n = size + 1', () => {
    expect(proRangeSize(block)).toBe(10n);
    expect(proNumberFor(block, 1)).toBe(`70000000${70000000 % 7}`);
    expect(proNumberFor(block, 10)).toBe(`70000009${70000009 % 7}`);
    expect(() => proNumberFor(block, 11)).toThrow('the ODFL PRO range 70000000-70000009 holds 10 numbers: number 11 is past its end; configure a new range');
  });

  it('refuses n below 1, fractions and absurd numbers', () => {
    for (const n of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER + 2]) expect(() => proNumberFor(block, n)).toThrow(RangeError);
  });

  it('keeps leading zeros and handles 19-digit bases exactly (beyond floating point)', () => {
    const wide = range({ scac: 'SAIA', first: '0000000000000000001', last: '9999999999999999999', checkDigit: 'MOD7' });
    expect(proNumberFor(wide, 1)).toBe('00000000000000000011');
    const base = 9_007_199_254_740_993n; // 2^53 + 1: a Number would round it
    const high = range({ scac: 'SAIA', first: base.toString(), last: (base + 5n).toString(), checkDigit: 'MOD7' });
    expect(proNumberFor(high, 1)).toBe(`${base}${base % 7n}`);
  });

  it('gives PROs that pass their own check, in order, without repeats (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('NONE', 'MOD7', 'MOD10', 'MOD11' as const),
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.integer({ min: 1, max: 500 }),
        (checkDigit, first, size) => {
          const block = range({ scac: 'XPOL', first: first.toString().padStart(13, '0'), last: (first + BigInt(size - 1)).toString().padStart(13, '0'), checkDigit });
          const pros = [1, Math.ceil(size / 2), size].map((n) => proNumberFor(block, n));
          for (const pro of pros) expect(checkProNumber(pro, block)).toEqual({ ok: true, inRange: true });
          expect(new Set(pros).size).toBe(new Set([1, Math.ceil(size / 2), size]).size);
        },
      ),
    );
  });
});

describe('checkProNumber', () => {
  const block = range({ scac: 'XPOL', first: '12345670', last: '12349999', checkDigit: 'MOD7' });

  it('names the scheme and the expected digit when the check digit is wrong', () => {
    expect(checkProNumber('123456702', block)).toEqual({ ok: false, message: '123456702 fails the XPOL check digit (MOD7): it ends in 2, the check digit of 12345670 is 1' });
    expect(12345670 - 7 * 1763667).toBe(1);
  });

  it('accepts a valid PRO outside the block, saying so', () => {
    expect(checkProNumber('999999991', block)).toEqual({ ok: true, inRange: false });
    expect(99999999 - 7 * 14285714).toBe(1);
  });

  it('refuses the wrong length, letters in the base and the empty string, and ignores dashes and spaces', () => {
    expect(checkProNumber('12345670', block)).toMatchObject({ ok: false, message: expect.stringContaining('8 digits and a check digit (9 characters)') });
    expect(checkProNumber('1234567001', block)).toMatchObject({ ok: false });
    expect(checkProNumber('1234A6701', block)).toMatchObject({ ok: false });
    expect(checkProNumber('', block)).toMatchObject({ ok: false });
    expect(checkProNumber('123-45670 1', block)).toEqual({ ok: true, inRange: true });
  });

  it('refuses a PRO without the block prefix', () => {
    const yrc = range({ scac: 'RDWY', prefix: '100', first: '000000', last: '999999', checkDigit: 'MOD11' });
    expect(checkProNumber('101-340397-9', yrc)).toMatchObject({ ok: false, message: expect.stringContaining('100 then 6 digits and a check digit') });
  });
});

describe('proNumberRangeSchema', () => {
  it('accepts a block and upper-cases the SCAC; the prefix defaults to none', () => {
    expect(range({ scac: ' odfl ', first: '1', last: '9', checkDigit: 'NONE' })).toEqual({ scac: 'ODFL', prefix: '', first: '1', last: '9', checkDigit: 'NONE' });
  });

  it('refuses last below first, different widths, a bad scheme and a PRO longer than 20 characters', () => {
    expect(violations({ scac: 'ODFL', first: '20', last: '19', checkDigit: 'MOD7' })).toEqual(['last (19) is below first (20) (last)']);
    expect(violations({ scac: 'ODFL', first: '20', last: '20', checkDigit: 'MOD7' })).toEqual([]);
    expect(violations({ scac: 'ODFL', first: '020', last: '99', checkDigit: 'MOD7' })).toEqual(['last must have as many digits as first (3) (last)']);
    expect(violations({ scac: 'ODFL', first: '1', last: '2', checkDigit: 'LUHN' })).toEqual(['checkDigit is one of NONE, MOD7, MOD10, MOD11 (checkDigit)']);
    expect(violations({ scac: 'ODFL', prefix: '1', first: '1'.repeat(18), last: '1'.repeat(18), checkDigit: 'MOD7' })).toEqual([]);
    expect(violations({ scac: 'ODFL', prefix: '12', first: '1'.repeat(18), last: '1'.repeat(18), checkDigit: 'MOD7' })).toEqual([
      'prefix, base and check digit make 21 characters; a PRO number has at most 20 (first)',
    ]);
    expect(violations({ scac: 'ODFL5', first: 'abc', last: '', checkDigit: 'MOD7' }).length).toBe(3);
  });
});

describe('proSerialOf (what a store that lost its counter reads back)', () => {
  const block = range({ scac: 'ODFL', prefix: '12', first: '0000990', last: '0001000', checkDigit: 'MOD7' });
  it('is the inverse of proNumberFor on the whole block, first and last included', () => {
    const size = Number(proRangeSize(block));
    for (let n = 1; n <= size; n++) expect(proSerialOf(block, proNumberFor(block, n))).toBe(n);
  });
  it('is null just outside the block, for a wrong check digit, another prefix and junk', () => {
    const before = `120000989${proCheckDigit('MOD7', '0000989')}`;
    const after = `120001001${proCheckDigit('MOD7', '0001001')}`;
    expect(proSerialOf(block, before)).toBeNull();
    expect(proSerialOf(block, after)).toBeNull();
    const first = proNumberFor(block, 1);
    expect(proSerialOf(block, `${first.slice(0, -1)}${(Number(first.at(-1)) + 1) % 10}`)).toBeNull();
    expect(proSerialOf(block, `99${first.slice(2)}`)).toBeNull();
    expect(proSerialOf(block, '')).toBeNull();
    expect(proSerialOf(block, 'x'.repeat(1000))).toBeNull();
  });
  it('reads dashes and spaces as checkProNumber does', () => {
    const pro = proNumberFor(block, 3);
    expect(proSerialOf(block, `${pro.slice(0, 4)}-${pro.slice(4)}`)).toBe(3);
  });
});
