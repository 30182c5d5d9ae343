import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { E164_PATTERN } from '../../src/domain/confirmChecks.js';
import { normalisePhoneNumber } from '../../src/domain/phone.js';

const number = (text: string, options?: Parameters<typeof normalisePhoneNumber>[1]) => {
  const result = normalisePhoneNumber(text, options);
  return result.ok ? result.phoneNumber : null;
};
const reason = (text: string, options?: Parameters<typeof normalisePhoneNumber>[1]) => {
  const result = normalisePhoneNumber(text, options);
  return result.ok ? null : result.reason;
};

describe('phone numbers to E.164', () => {
  it.each([
    '312-555-0100',
    '+1 (312) 555-0100',
    '(312) 555-0100',
    '312.555.0100',
    '3125550100',
    '1-312-555-0100',
    '1 312 555 0100',
    '+13125550100',
    '+1-312-555-0100',
    '  312-555-0100\n',
    '３１２-５５５-０１００',
  ])('%j is +13125550100', (text) => {
    expect(normalisePhoneNumber(text)).toEqual({ ok: true, phoneNumber: '+13125550100', extension: null });
  });

  it.each([
    ['800-424-9300', '+18004249300'],
    ['+1 808 785 7650', '+18087857650'],
    ['(212) 555-0188', '+12125550188'],
    ['+44 20 7946 0958', '+442079460958'],
    ['011 44 20 7946 0958', '+442079460958'],
    ['+52 55 1234 5678', '+525512345678'],
  ])('%j is %s (toll-free, Hawaii, another country)', (text, expected) => {
    expect(number(text)).toBe(expected);
  });

  it('a number without + is read in the default country, the US unless told', () => {
    expect(number('020 7946 0958')).toBeNull();
    expect(number('020 7946 0958', { defaultCountry: 'GB' })).toBe('+442079460958');
    expect(number('(312) 555-0100', { defaultCountry: 'GB' })).toBeNull();
  });

  describe('extensions: kept apart, never dropped', () => {
    it.each([
      ['312-555-0100 x12', '12'],
      ['(312) 555-0100 ext. 12', '12'],
      ['312-555-0100 ext 7', '7'],
      ['312 555 0100 #12', '12'],
      ['+1 312 555 0100 x204', '204'],
    ])('%j is +13125550100 and extension %s', (text, extension) => {
      expect(normalisePhoneNumber(text)).toEqual({ ok: true, phoneNumber: '+13125550100', extension });
    });

    it('"x" with no digits after it is no number', () => {
      expect(number('312-555-0100 x')).toBeNull();
    });
  });

  describe('refused, with the reason', () => {
    it.each([
      ['', 'the phone number is empty'],
      ['   ', 'the phone number is empty'],
      ['Phone: 312-555-0100', '"Phone: 312-555-0100" is not a phone number'],
      ['1-800-FLOWERS', '"1-800-FLOWERS" is not a phone number'],
      ['3.12555E+09', '"3.12555E+09" is not a phone number'],
      ['tel:+1-312-555-0100;ext=12', '"tel:+1-312-555-0100;ext=12" is not a phone number'],
      ['+1-312-555-0100 (cell)', '"+1-312-555-0100 (cell)" is not a phone number'],
      ['none', '"none" is not a phone number'],
      ['555-0199', '"555-0199" has too few digits (a US number has 10 digits with its area code, e.g. 312-555-0100)'],
      ['312-555-010', '"312-555-010" has too few digits (a US number has 10 digits with its area code, e.g. 312-555-0100)'],
      ['312 555 0100 312 555 0101', '"312 555 0100 312 555 0101" has too many digits (a US number has 10 digits with its area code, e.g. 312-555-0100)'],
      ['+1 312 555 01000', '"+1 312 555 01000" has too many digits'],
      ['+999 123 4567', '"+999 123 4567" has no country code shipper knows: write it with + and the country code'],
      ['123-456-7890', '"123-456-7890" is not a valid North American number: its area code (123) or exchange (456) is not one in use'],
      ['+1 555 123 4567', '"+1 555 123 4567" is not a valid North American number: its area code (555) or exchange (123) is not one in use'],
      ['+44 10 1234 5678', `"+44 10 1234 5678" is not a valid +44 number: its digits are no number of that country's plan`],
    ])('%j: %s', (text, expected) => {
      expect(normalisePhoneNumber(text)).toEqual({ ok: false, reason: expected });
    });

    it("the published document's own examples +15551234567 and +15555550100 are refused as valid, taken as possible", () => {
      expect(number('+15551234567')).toBeNull();
      expect(number('+15555550100')).toBeNull();
      expect(number('+15551234567', { accept: 'possible' })).toBe('+15551234567');
      expect(number('+15555550100', { accept: 'possible' })).toBe('+15555550100');
      expect(reason('555-0199', { accept: 'possible' })).toMatch(/too few digits/);
    });
  });

  it('refuses digits that read as another number once read (the property found +49 000000: +4900000, then +490000)', () => {
    for (const accept of ['valid', 'possible'] as const) {
      const result = normalisePhoneNumber('+49 000000', { accept });
      expect(result.ok).toBe(false);
    }
  });

  it('every number it gives matches the published E.164 pattern, and reads back as itself', () => {
    const digits = (min: number, max: number) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: min, maxLength: max }).map((list) => list.join(''));
    const separator = fc.constantFrom('', ' ', '-', '.');
    const text = fc.oneof(
      fc.tuple(digits(3, 3), separator, digits(3, 3), separator, digits(4, 4)).map((parts) => parts.join('')),
      fc.tuple(fc.constantFrom('+1 ', '+44 ', '+52 ', '+49 ', '1-', '(', ''), digits(6, 13)).map((parts) => parts.join('')),
      fc.string({ maxLength: 20 }),
    );
    fc.assert(
      fc.property(text, fc.constantFrom<'valid' | 'possible'>('valid', 'possible'), (value, accept) => {
        const result = normalisePhoneNumber(value, { accept });
        if (!result.ok) {
          expect(result.reason.length).toBeGreaterThan(10);
          return;
        }
        expect(result.phoneNumber).toMatch(E164_PATTERN);
        expect(normalisePhoneNumber(result.phoneNumber, { accept })).toEqual({ ok: true, phoneNumber: result.phoneNumber, extension: null });
      }),
      { numRuns: 1000 },
    );
  });
});
