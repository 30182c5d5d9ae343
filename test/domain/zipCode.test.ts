import { describe, expect, it } from 'vitest';
import { isZipCode, leadingZip5 } from '../../src/domain/zipCode.js';

describe('the ZIP rule', () => {
  it.each(['10001', '00501', '99950', '10001-1234', '100011234'])('%s is a ZIP code', (text) => {
    expect(isZipCode(text)).toBe(true);
  });

  it.each([
    ['', 'empty'],
    ['1000', 'four digits'],
    ['100012', 'six digits'],
    ['10001-123', 'a short +4'],
    ['10001-12345', 'a long +4'],
    ['10001--1234', 'two hyphens'],
    ['10001 1234', 'a blank for the hyphen'],
    [' 10001', 'untrimmed (callers trim)'],
    ['1000a', 'a letter'],
    ['１０００１', 'full-width digits'],
    ['10001\n', 'a newline after it'],
  ])('%j is not (%s)', (text) => {
    expect(isZipCode(text)).toBe(false);
  });

  it('reads the 5 digits a ZIP+4 or a carrier value starts with, and nothing shorter', () => {
    expect(leadingZip5('10001')).toBe('10001');
    expect(leadingZip5('10001-1234')).toBe('10001');
    expect(leadingZip5('100011234')).toBe('10001');
    expect(leadingZip5('60601 IL')).toBe('60601');
    expect(leadingZip5('1000')).toBeUndefined();
    expect(leadingZip5('A10001')).toBeUndefined();
    expect(leadingZip5('')).toBeUndefined();
  });
});
