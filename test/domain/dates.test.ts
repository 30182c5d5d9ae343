import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, calendarDate, daysBetween, formatDate, isCalendarDate, utcDateOf, weekdayOf } from '../../src/domain/dates.js';
import { mondayOnOrBefore } from '../../src/domain/agreements/fuel.js';

describe('calendar dates', () => {
  it.each(['1000-01-01', '2024-02-29', '2000-02-29', '2026-12-31', '9999-12-31'])('%s is a date', (text) => {
    expect(isCalendarDate(text)).toBe(true);
  });

  it.each([
    ['0999-12-31', 'before the year 1000'],
    ['0000-01-01', 'year 0'],
    ['2026-02-29', 'not a leap year'],
    ['1900-02-29', 'a century that is not a leap year'],
    ['2026-02-30', 'a day February never has'],
    ['2026-04-31', 'a day April never has'],
    ['2026-13-01', 'month 13'],
    ['2026-00-10', 'month 0'],
    ['2026-01-00', 'day 0'],
    ['2026-1-5', 'not zero-padded'],
    ['2026-01-05T00:00', 'an instant'],
    ['20260105', 'no hyphens'],
    ['', 'empty'],
  ])('%j is not (%s)', (text) => {
    expect(isCalendarDate(text)).toBe(false);
  });

  it('builds a date from its parts only when it is real', () => {
    expect(calendarDate(2026, 11, 27)).toBe('2026-11-27');
    expect(calendarDate(2026, 2, 29)).toBeUndefined();
    expect(calendarDate(999, 1, 1)).toBeUndefined();
    expect(calendarDate(10_000, 1, 1)).toBeUndefined();
    expect(calendarDate(2026, 1.5, 1)).toBeUndefined();
  });

  it('adds days across months, years and leap days', () => {
    expect(addDays('2026-11-27', 0)).toBe('2026-11-27');
    expect(addDays('2026-11-30', 1)).toBe('2026-12-01');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDays('2026-01-01', -35)).toBe('2025-11-27');
    expect(daysBetween('2026-01-01', '2027-01-01')).toBe(365);
    expect(daysBetween('2027-01-01', '2026-01-01')).toBe(-365);
  });

  it('refuses what is no date, a fraction of a day and a date past 9999-12-31', () => {
    expect(() => addDays('2026-02-30', 1)).toThrow(RangeError);
    expect(() => addDays('tomorrow', 1)).toThrow(/must be a real calendar date written YYYY-MM-DD/);
    expect(() => addDays('2026-01-01', 0.5)).toThrow(/whole number/);
    expect(() => addDays('9999-12-31', 1)).toThrow(/out of the supported range/);
  });

  it('agrees with the UTC calendar of Date on every day of 1900-2200', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1900, 0, 1), max: Date.UTC(2200, 0, 1) }), fc.integer({ min: -800, max: 800 }), (ms, days) => {
        const date = new Date(ms).toISOString().slice(0, 10);
        const later = new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000);
        expect(addDays(date, days)).toBe(later.toISOString().slice(0, 10));
        expect(weekdayOf(date)).toBe(new Date(ms).getUTCDay());
        expect(isCalendarDate(date)).toBe(true);
      }),
    );
  });

  it('weekdays, Mondays and the UTC date of an instant', () => {
    expect(weekdayOf('1970-01-01')).toBe(4);
    expect(weekdayOf('2026-11-22')).toBe(0);
    expect(formatDate('2026-11-23')).toBe('Mon 2026-11-23');
    expect(mondayOnOrBefore('2026-11-23')).toBe('2026-11-23');
    expect(mondayOnOrBefore('2026-11-22')).toBe('2026-11-16');
    expect(utcDateOf(new Date('2026-11-23T23:59:59.999Z'))).toBe('2026-11-23');
    expect(utcDateOf(new Date('2026-11-23T23:59:59.999-01:00'))).toBe('2026-11-24');
  });
});
