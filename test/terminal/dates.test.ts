import { describe, expect, it } from 'vitest';
import { describeDate, parseUserDate, relativeDay } from '../../src/domain/dates.js';

const TODAY = '2026-11-23'; // a Monday
const read = (text: string) => {
  const parsed = parseUserDate(text, TODAY);
  return parsed.ok ? parsed.date : `error: ${parsed.message}`;
};

describe('dates in the user words', () => {
  it('reads ISO dates, words, weekdays, offsets and US month/day', () => {
    expect(read('2026-11-27')).toBe('2026-11-27');
    expect(read('today')).toBe('2026-11-23');
    expect(read(' Tomorrow ')).toBe('2026-11-24');
    expect(read('friday')).toBe('2026-11-27');
    expect(read('Fri')).toBe('2026-11-27');
    expect(read('next thursday')).toBe('2026-11-26');
    expect(read('monday')).toBe('2026-11-30'); // today is Monday: "monday" is the next one
    expect(read('+3')).toBe('2026-11-26');
    expect(read('in 10 days')).toBe('2026-12-03');
    expect(read('11/27')).toBe('2026-11-27');
    expect(read('1/4')).toBe('2027-01-04'); // already past this year: next year's
    expect(read('12/31/26')).toBe('2026-12-31');
    expect(read('Nov 27')).toBe('2026-11-27');
    expect(read('27 November 2026')).toBe('2026-11-27');
    expect(read('Dec. 1, 2026')).toBe('2026-12-01');
  });

  it('says why it cannot read a date', () => {
    expect(read('2026-02-30')).toBe('error: 2026-02-30 is not a real calendar date');
    expect(read('13/01')).toBe('error: 13/01 is not a real calendar date (month/day)');
    expect(read('someday')).toBe('error: cannot read "someday" as a date; write e.g. 2026-11-27, tomorrow, friday, +3, 11/27 or Nov 27');
    expect(read('')).toMatch(/^error: cannot read "" as a date/);
    expect(read('Foo 12')).toMatch(/^error: cannot read/);
  });

  it('shows dates as people say them', () => {
    expect(describeDate('2026-11-23', TODAY)).toBe('today');
    expect(describeDate('2026-11-24', TODAY)).toBe('tomorrow');
    expect(describeDate('2026-11-22', TODAY)).toBe('yesterday');
    expect(describeDate('2026-11-27', TODAY)).toBe('Fri Nov 27');
    expect(describeDate('2027-01-04', TODAY)).toBe('Mon Jan 4, 2027');
    expect(relativeDay('2026-11-24', TODAY)).toBe('tomorrow');
    expect(relativeDay('2026-11-27', TODAY)).toBeNull();
  });
});
