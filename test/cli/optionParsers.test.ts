import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { wholeNumberOption } from '../../src/cli/optionParsers.js';

const reading = (parse: (value: string) => number, value: string): number | string => {
  try {
    return parse(value);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidArgumentError);
    return (error as Error).message;
  }
};

describe('whole-number options', () => {
  const days = wholeNumberOption(1, 10);

  it('takes the range, both ends included, in the one number syntax', () => {
    expect(reading(days, '1')).toBe(1);
    expect(reading(days, '10')).toBe(10);
    expect(reading(days, ' 7 ')).toBe(7);
    expect(reading(days, '1e1')).toBe(10);
  });

  it.each(['0', '11', '-1', '1.5', '0x5', '1,0', '', ' ', 'five', 'NaN', 'Infinity', '99999999999999999999'])('refuses %j, saying the range', (value) => {
    expect(reading(days, value)).toBe('must be a whole number from 1 to 10');
  });

  it('without an upper bound, says so; an option may word its own message', () => {
    expect(reading(wholeNumberOption(0), '-1')).toBe('must be a whole number, 0 or more');
    expect(reading(wholeNumberOption(0), '0')).toBe(0);
    expect(reading(wholeNumberOption(1), '0')).toBe('must be a whole number greater than 0');
    expect(reading(wholeNumberOption(1), String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
    expect(reading(wholeNumberOption(0, 65535, 'must be a port'), '65536')).toBe('must be a port');
  });
});
