import Holidays from 'date-holidays';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { localDateInZone, zonedTimeToUtc } from '../../src/domain/dates.js';
import {
  addBusinessDays,
  businessDayReason,
  businessDaysBetween,
  DEFAULT_CARRIER_HOLIDAYS,
  estimateDelivery,
  HOLIDAY_RULES,
  holidaysInYear,
  isBusinessDay,
  nextBusinessDay,
  type HolidayCalendar,
  type HolidayRule,
} from '../../src/domain/transit.js';

// ---------------------------------------------------------------------------------------------
// Independent helpers (plain UTC Date maths and Intl), so the tests do not reuse the module's code.

const DEFAULT = DEFAULT_CARRIER_HOLIDAYS;
const MS_PER_DAY = 86_400_000;

const calendar = (rules: readonly HolidayRule[], extraDates: string[] = [], removedDates: string[] = []): HolidayCalendar => ({
  rules,
  extraDates,
  removedDates,
});
const ALL_RULES = calendar(HOLIDAY_RULES);
const NO_HOLIDAYS = calendar([]);

const dayIndex = (date: string): number => Date.parse(`${date}T00:00:00Z`) / MS_PER_DAY;
const dateOfDayIndex = (index: number): string => new Date(index * MS_PER_DAY).toISOString().slice(0, 10);
const utcWeekday = (date: string): number => new Date(`${date}T00:00:00Z`).getUTCDay();
const isWeekendDate = (date: string): boolean => utcWeekday(date) === 0 || utcWeekday(date) === 6;

function wallClock(instant: Date, timeZone: string): { date: string; time: string } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)?.value ?? '?';
  return { date: `${part('year')}-${part('month')}-${part('day')}`, time: `${part('hour')}:${part('minute')}` };
}

/** Business days in (pickup, delivery], one day at a time, against the module's own holiday list. */
function countBusinessDaysNaively(pickup: string, delivery: string, cal: HolidayCalendar): number {
  const holidays = new Set<string>();
  for (let year = Number(pickup.slice(0, 4)); year <= Number(delivery.slice(0, 4)); year += 1) {
    for (const date of holidaysInYear(year, cal)) holidays.add(date);
  }
  let count = 0;
  for (let index = dayIndex(pickup) + 1; index <= dayIndex(delivery); index += 1) {
    const date = dateOfDayIndex(index);
    if (!isWeekendDate(date) && !holidays.has(date)) count += 1;
  }
  return count;
}

/** A date from mid 2019 to mid 2041. */
const dateArb = fc.integer({ min: dayIndex('2019-06-01'), max: dayIndex('2041-06-30') }).map(dateOfDayIndex);
const calendarArb: fc.Arbitrary<HolidayCalendar> = fc.record({
  rules: fc.subarray([...HOLIDAY_RULES]),
  extraDates: fc.array(dateArb, { maxLength: 6 }),
  removedDates: fc.array(dateArb, { maxLength: 6 }),
});

// ---------------------------------------------------------------------------------------------

describe('input validation', () => {
  it.each(['2026-02-30', '2026-13-01', '2026-00-10', '2026-1-5', '26-01-05', '2026-01-05T00:00', '', 'tomorrow', '2027-02-29', '0000-01-01'])(
    'refuses the date %j with a RangeError naming it',
    (bad) => {
      expect(() => isBusinessDay(bad, DEFAULT)).toThrow(RangeError);
      expect(() => businessDayReason(bad, DEFAULT)).toThrow(/^date must be a real calendar date/);
      expect(() => nextBusinessDay(bad, DEFAULT)).toThrow(/^date must be a real calendar date/);
      expect(() => addBusinessDays(bad, 1, DEFAULT)).toThrow(new RegExp(`pickupDate must be a real calendar date.*${JSON.stringify(bad)}`));
    },
  );

  it('accepts 29 February of a leap year, including 2000', () => {
    expect(isBusinessDay('2028-02-29', DEFAULT)).toBe(true);
    expect(isBusinessDay('2000-02-29', DEFAULT)).toBe(true);
    expect(() => isBusinessDay('2100-02-29', DEFAULT)).toThrow(RangeError);
  });

  it('names which argument of businessDaysBetween is wrong', () => {
    expect(() => businessDaysBetween('2026-11-20', '2026-11-31', DEFAULT)).toThrow(/deliveryDate/);
    expect(() => businessDaysBetween('2026-02-29', '2026-11-30', DEFAULT)).toThrow(/pickupDate/);
  });

  it('refuses a delivery before the pickup', () => {
    expect(() => businessDaysBetween('2026-11-30', '2026-11-27', DEFAULT)).toThrow(RangeError);
    expect(() => businessDaysBetween('2026-11-30', '2026-11-27', DEFAULT)).toThrow(/before pickupDate/);
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('refuses %s business days', (days) => {
    expect(() => addBusinessDays('2026-11-20', days, DEFAULT)).toThrow(RangeError);
    expect(() => estimateDelivery({ pickupDate: '2026-11-20', transitDays: days, destinationTimeZone: 'America/Chicago', deliveryCutoff: '17:00', calendar: DEFAULT })).toThrow(
      /transitDays/,
    );
  });

  it('refuses unknown holiday rules and bad calendar dates', () => {
    expect(() => holidaysInYear(2026, calendar(['EASTER' as HolidayRule]))).toThrow(/unknown holiday rule "EASTER"/);
    expect(() => isBusinessDay('2026-11-20', calendar(['CHRISTMAS'], ['2026-11-31']))).toThrow(/calendar\.extraDates\[0\]/);
    expect(() => isBusinessDay('2026-11-20', calendar(['CHRISTMAS'], [], ['x']))).toThrow(/calendar\.removedDates\[0\]/);
  });

  it.each([2026.5, 0, 10_000, Number.NaN])('refuses the year %s', (year) => {
    expect(() => holidaysInYear(year, DEFAULT)).toThrow(RangeError);
  });

  it.each(['Mars/Olympus_Mons', '', 'America/NewYork'])('refuses the time zone %j', (zone) => {
    expect(() => zonedTimeToUtc('2026-11-20', '17:00', zone)).toThrow(RangeError);
    expect(() => localDateInZone(new Date('2026-11-20T12:00:00Z'), zone)).toThrow(/time zone/);
  });

  it.each(['24:00', '9:00', '17:60', '17:00:00', '', '5pm'])('refuses the wall-clock time %j', (time) => {
    expect(() => zonedTimeToUtc('2026-11-20', time, 'America/Chicago')).toThrow(/HH:MM/);
  });

  it('refuses an invalid Date instant', () => {
    expect(() => localDateInZone(new Date('nope'), 'UTC')).toThrow(RangeError);
  });

  it('refuses to run past 9999-12-31', () => {
    expect(addBusinessDays('9999-12-30', 1, DEFAULT)).toBe('9999-12-31');
    expect(() => addBusinessDays('9999-12-30', 2, DEFAULT)).toThrow(/past 9999-12-31/);
  });
});

describe('holidaysInYear with the default carrier holidays', () => {
  it('lists the six observed holidays of 2026 (Independence Day on a Saturday is observed Friday 3 July)', () => {
    expect(holidaysInYear(2026, DEFAULT)).toEqual(['2026-01-01', '2026-05-25', '2026-07-03', '2026-09-07', '2026-11-26', '2026-12-25']);
  });

  it('moves Christmas 2022 (a Sunday) to Monday 26 December', () => {
    expect(holidaysInYear(2022, DEFAULT)).toContain('2022-12-26');
    expect(holidaysInYear(2022, DEFAULT)).not.toContain('2022-12-25');
  });

  it("lists New Year's Day 2028 (a Saturday) as 2027-12-31, in 2027's list, and leaves 2028 without a January holiday", () => {
    expect(holidaysInYear(2027, DEFAULT)).toEqual(['2027-01-01', '2027-05-31', '2027-07-05', '2027-09-06', '2027-11-25', '2027-12-24', '2027-12-31']);
    expect(holidaysInYear(2028, DEFAULT)).toEqual(['2028-05-29', '2028-07-04', '2028-09-04', '2028-11-23', '2028-12-25']);
  });

  it('returns a fresh array each time (mutating it does not change the memoised list)', () => {
    const first = holidaysInYear(2026, DEFAULT);
    first.push('2026-08-14');
    first.shift();
    expect(holidaysInYear(2026, DEFAULT)).toHaveLength(6);
    expect(holidaysInYear(2026, DEFAULT)[0]).toBe('2026-01-01');
  });

  it('is frozen, so no caller can change the shared default', () => {
    expect(Object.isFrozen(DEFAULT_CARRIER_HOLIDAYS)).toBe(true);
    expect(Object.isFrozen(DEFAULT_CARRIER_HOLIDAYS.rules)).toBe(true);
    expect([...DEFAULT_CARRIER_HOLIDAYS.rules].sort()).toEqual(['CHRISTMAS', 'INDEPENDENCE_DAY', 'LABOR_DAY', 'MEMORIAL_DAY', 'NEW_YEARS_DAY', 'THANKSGIVING'].sort());
    expect(DEFAULT_CARRIER_HOLIDAYS.extraDates).toEqual([]);
    expect(DEFAULT_CARRIER_HOLIDAYS.removedDates).toEqual([]);
  });
});

describe('holidaysInYear with other rules', () => {
  it('lists all fourteen rules of 2026 at their observed dates', () => {
    expect(holidaysInYear(2026, ALL_RULES)).toEqual([
      '2026-01-01', // New Year's Day
      '2026-01-19', // MLK Day, 3rd Monday of January
      '2026-02-16', // Presidents' Day, 3rd Monday of February
      '2026-05-25', // Memorial Day, last Monday of May
      '2026-06-19', // Juneteenth (a Friday)
      '2026-07-03', // Independence Day observed
      '2026-09-07', // Labor Day
      '2026-10-12', // Columbus Day
      '2026-11-11', // Veterans Day (a Wednesday)
      '2026-11-26', // Thanksgiving
      '2026-11-27', // day after Thanksgiving
      '2026-12-24', // Christmas Eve (Thursday)
      '2026-12-25', // Christmas
      '2026-12-31', // New Year's Eve (Thursday)
    ]);
  });

  it('skips closing days (eves) that fall on a weekend instead of moving them', () => {
    // 2022: Christmas Eve and New Year's Eve are Saturdays; Christmas (Sunday) is observed Monday.
    const eves = calendar(['CHRISTMAS_EVE', 'NEW_YEARS_EVE']);
    expect(holidaysInYear(2022, eves)).toEqual([]);
    expect(holidaysInYear(2026, eves)).toEqual(['2026-12-24', '2026-12-31']);
  });

  it('lists a day once when two rules share it (Christmas Eve and Christmas observed on Friday 2021-12-24)', () => {
    const list = holidaysInYear(2021, calendar(['CHRISTMAS_EVE', 'CHRISTMAS', 'NEW_YEARS_EVE']));
    expect(list).toEqual(['2021-12-24', '2021-12-31']);
  });

  it('shifts Veterans Day and Juneteenth off weekends like the federal calendar', () => {
    expect(holidaysInYear(2023, calendar(['VETERANS_DAY']))).toEqual(['2023-11-10']); // Saturday -> Friday
    expect(holidaysInYear(2029, calendar(['VETERANS_DAY']))).toEqual(['2029-11-12']); // Sunday -> Monday
    expect(holidaysInYear(2022, calendar(['JUNETEENTH']))).toEqual(['2022-06-20']); // Sunday -> Monday
  });

  it('has Juneteenth only from 2021, when it became a federal holiday', () => {
    expect(holidaysInYear(2020, calendar(['JUNETEENTH']))).toEqual([]);
    expect(holidaysInYear(2021, calendar(['JUNETEENTH']))).toEqual(['2021-06-18']);
  });

  it('always puts the day after Thanksgiving on the Friday after the fourth Thursday of November', () => {
    for (let year = 1990; year <= 2100; year += 1) {
      const [thanksgiving, dayAfter] = holidaysInYear(year, calendar(['THANKSGIVING', 'DAY_AFTER_THANKSGIVING']));
      expect(thanksgiving, `${year}`).toBeDefined();
      expect(utcWeekday(thanksgiving!)).toBe(4);
      expect(Number(thanksgiving!.slice(8))).toBeGreaterThanOrEqual(22);
      expect(Number(thanksgiving!.slice(8))).toBeLessThanOrEqual(28);
      expect(dayAfter).toBe(dateOfDayIndex(dayIndex(thanksgiving!) + 1));
    }
  });

  it('is empty without rules', () => {
    expect(holidaysInYear(2026, NO_HOLIDAYS)).toEqual([]);
  });
});

describe('calendars with extraDates and removedDates', () => {
  it('removes an observed date: Thanksgiving worked', () => {
    const cal = calendar(DEFAULT.rules, [], ['2026-11-26']);
    expect(holidaysInYear(2026, cal)).not.toContain('2026-11-26');
    expect(isBusinessDay('2026-11-26', cal)).toBe(true);
    expect(addBusinessDays('2026-11-25', 1, cal)).toBe('2026-11-26');
    expect(businessDaysBetween('2026-11-25', '2026-11-27', cal)).toBe(2);
  });

  it('removedDates name observed dates: removing the nominal Saturday 2026-07-04 leaves Friday 3 July a holiday', () => {
    const cal = calendar(DEFAULT.rules, [], ['2026-07-04']);
    expect(holidaysInYear(2026, cal)).toContain('2026-07-03');
    expect(isBusinessDay('2026-07-03', cal)).toBe(false);
  });

  it('adds extra closing days, which count like holidays', () => {
    const cal = calendar(DEFAULT.rules, ['2026-11-27', '2026-08-14']);
    expect(holidaysInYear(2026, cal)).toEqual(['2026-01-01', '2026-05-25', '2026-07-03', '2026-08-14', '2026-09-07', '2026-11-26', '2026-11-27', '2026-12-25']);
    expect(isBusinessDay('2026-11-27', cal)).toBe(false);
    expect(addBusinessDays('2026-11-25', 1, cal)).toBe('2026-11-30');
    expect(businessDaysBetween('2026-08-13', '2026-08-17', cal)).toBe(1);
    expect(nextBusinessDay('2026-08-13', cal)).toBe('2026-08-17');
  });

  it('lets removedDates win over extraDates', () => {
    const cal = calendar([], ['2026-08-14'], ['2026-08-14']);
    expect(holidaysInYear(2026, cal)).toEqual([]);
    expect(isBusinessDay('2026-08-14', cal)).toBe(true);
  });

  it('keeps an extra date on a weekend in the list without counting it twice', () => {
    const cal = calendar([], ['2026-08-15']); // a Saturday
    expect(holidaysInYear(2026, cal)).toEqual(['2026-08-15']);
    expect(businessDaysBetween('2026-08-14', '2026-08-17', cal)).toBe(1);
  });

  it('uses a different rule list: closing on the eves and the day after Thanksgiving, not on Thanksgiving', () => {
    const cal = calendar(['DAY_AFTER_THANKSGIVING', 'CHRISTMAS_EVE', 'NEW_YEARS_EVE']);
    expect(isBusinessDay('2026-11-26', cal)).toBe(true);
    expect(isBusinessDay('2026-11-27', cal)).toBe(false);
    expect(isBusinessDay('2026-12-25', cal)).toBe(true);
    expect(addBusinessDays('2026-11-25', 1, cal)).toBe('2026-11-26');
    expect(addBusinessDays('2026-11-25', 2, cal)).toBe('2026-11-30');
    expect(addBusinessDays('2026-12-23', 1, cal)).toBe('2026-12-25');
  });

  it('a calendar without rules only skips weekends', () => {
    expect(addBusinessDays('2026-11-25', 1, NO_HOLIDAYS)).toBe('2026-11-26');
    expect(businessDaysBetween('2026-12-21', '2027-01-04', NO_HOLIDAYS)).toBe(10);
  });

  it('keeps calendars apart (memoisation is per calendar)', () => {
    expect(isBusinessDay('2026-11-26', DEFAULT)).toBe(false);
    expect(isBusinessDay('2026-11-26', NO_HOLIDAYS)).toBe(true);
    expect(isBusinessDay('2026-11-26', calendar(['THANKSGIVING']))).toBe(false);
  });
});

describe('cross-check against the date-holidays package, 2020-2040', () => {
  const usHolidays = new Holidays('US');
  /** date-holidays' names of our rules; substitute entries are named '<name> (substitute day)'. */
  const DATE_HOLIDAYS_NAMES: Record<HolidayRule, string> = {
    NEW_YEARS_DAY: "New Year's Day",
    MLK_DAY: 'Martin Luther King Jr. Day',
    PRESIDENTS_DAY: "Washington's Birthday",
    MEMORIAL_DAY: 'Memorial Day',
    JUNETEENTH: 'Juneteenth',
    INDEPENDENCE_DAY: 'Independence Day',
    LABOR_DAY: 'Labor Day',
    COLUMBUS_DAY: 'Columbus Day',
    VETERANS_DAY: 'Veterans Day',
    THANKSGIVING: 'Thanksgiving Day',
    DAY_AFTER_THANKSGIVING: 'Day after Thanksgiving Day',
    CHRISTMAS_EVE: 'Christmas Eve',
    CHRISTMAS: 'Christmas Day',
    NEW_YEARS_EVE: "New Year's Eve",
  };

  /**
   * date-holidays lists a fixed holiday on its real date (even a weekend) plus, when that is a
   * weekend, a 'substitute day' entry on the observed weekday, in the year the observed day falls in
   * (New Year's Day 2028 is substituted by 2027-12-31 in 2027's list). Observed = the weekday entries.
   */
  function observedByDateHolidays(year: number, rules: readonly HolidayRule[], types: readonly string[]): string[] {
    const names = new Set(rules.map((rule) => DATE_HOLIDAYS_NAMES[rule]));
    const dates = usHolidays
      .getHolidays(year)
      .filter((holiday) => types.includes(holiday.type))
      .filter((holiday) => names.has(holiday.name.replace(/ \(substitute day\)$/, '')))
      .map((holiday) => holiday.date.slice(0, 10))
      .filter((date) => !isWeekendDate(date));
    return [...new Set(dates)].sort();
  }

  const YEARS = Array.from({ length: 21 }, (_, index) => 2020 + index);

  it.each(YEARS)('default carrier holidays of %i = public holidays of the same names, observed', (year) => {
    const expected = observedByDateHolidays(year, DEFAULT.rules, ['public']);
    expect(expected.length).toBeGreaterThanOrEqual(5);
    expect(holidaysInYear(year, DEFAULT)).toEqual(expected);
  });

  it.each(HOLIDAY_RULES)('rule %s matches date-holidays in every year 2020-2040', (rule) => {
    for (const year of YEARS) {
      // Veterans Day's substitute is a 'bank' entry, the eves are 'optional' or 'observance'.
      const expected = observedByDateHolidays(year, [rule], ['public', 'bank', 'optional', 'observance']);
      expect(holidaysInYear(year, calendar([rule])), `${rule} ${year}`).toEqual(expected);
    }
  });
});

describe('isBusinessDay and businessDayReason', () => {
  it('weekdays are business days, weekends are not', () => {
    expect(isBusinessDay('2026-11-20', DEFAULT)).toBe(true); // Friday
    expect(isBusinessDay('2026-11-21', DEFAULT)).toBe(false);
    expect(isBusinessDay('2026-11-22', DEFAULT)).toBe(false);
    expect(isBusinessDay('2026-11-23', DEFAULT)).toBe(true);
  });

  it('observed holidays are not business days, the Saturday or Sunday they move off is a weekend anyway', () => {
    expect(isBusinessDay('2026-07-03', DEFAULT)).toBe(false);
    expect(isBusinessDay('2026-07-06', DEFAULT)).toBe(true);
    expect(isBusinessDay('2022-12-26', DEFAULT)).toBe(false);
    expect(isBusinessDay('2022-12-27', DEFAULT)).toBe(true);
    expect(isBusinessDay('2027-12-31', DEFAULT)).toBe(false); // New Year's Day 2028 observed
    expect(isBusinessDay('2028-01-03', DEFAULT)).toBe(true);
  });

  it.each([
    ['2026-11-23', null],
    ['2026-11-21', 'a Saturday'],
    ['2026-11-22', 'a Sunday'],
    ['2026-11-26', 'Thanksgiving (carrier holiday)'],
    ['2026-12-25', 'Christmas Day (carrier holiday)'],
    ['2022-12-26', 'Christmas Day (observed, carrier holiday)'],
    ['2026-07-03', 'Independence Day (observed, carrier holiday)'],
    ['2026-07-04', 'a Saturday'],
    ['2027-12-31', "New Year's Day (observed, carrier holiday)"],
    ['2026-05-25', 'Memorial Day (carrier holiday)'],
    ['2026-09-07', 'Labor Day (carrier holiday)'],
  ] as const)('%s with the default calendar -> %j', (date, reason) => {
    expect(businessDayReason(date, DEFAULT)).toBe(reason);
  });

  it('words the other rules, extra dates and shared days', () => {
    expect(businessDayReason('2026-11-27', ALL_RULES)).toBe('the day after Thanksgiving (carrier holiday)');
    expect(businessDayReason('2026-12-24', ALL_RULES)).toBe('Christmas Eve (carrier holiday)');
    expect(businessDayReason('2026-01-19', ALL_RULES)).toBe('Martin Luther King Jr. Day (carrier holiday)');
    expect(businessDayReason('2021-12-24', ALL_RULES)).toBe('Christmas Eve and Christmas Day (observed), carrier holidays');
    expect(businessDayReason('2026-08-14', calendar([], ['2026-08-14']))).toBe('a carrier holiday (extra date of the holiday calendar)');
  });

  it('agrees with isBusinessDay on every day of 2026-2027', () => {
    for (let index = dayIndex('2026-01-01'); index <= dayIndex('2027-12-31'); index += 1) {
      const date = dateOfDayIndex(index);
      expect(businessDayReason(date, ALL_RULES) === null, date).toBe(isBusinessDay(date, ALL_RULES));
    }
  });
});

describe('nextBusinessDay', () => {
  it.each([
    ['2026-11-20', '2026-11-23'], // Friday -> Monday
    ['2026-11-21', '2026-11-23'], // Saturday -> Monday
    ['2026-11-23', '2026-11-24'],
    ['2026-11-25', '2026-11-27'], // over Thanksgiving
    ['2026-12-24', '2026-12-28'], // over Christmas (Friday)
    ['2026-07-02', '2026-07-06'], // over Independence Day observed on Friday
    ['2027-12-30', '2028-01-03'], // over New Year's Day 2028 observed on 2027-12-31
    ['2022-12-23', '2022-12-27'], // over Christmas observed on Monday
  ])('%s -> %s', (date, next) => {
    expect(nextBusinessDay(date, DEFAULT)).toBe(next);
  });
});

describe('addBusinessDays and businessDaysBetween (SPEC section 4)', () => {
  it('Friday pickup with 1 transit day delivers Monday, and Friday -> Monday counts 1', () => {
    expect(addBusinessDays('2026-11-20', 1, DEFAULT)).toBe('2026-11-23');
    expect(businessDaysBetween('2026-11-20', '2026-11-23', DEFAULT)).toBe(1);
  });

  it('0 transit days is the pickup day itself, and the same day counts 0', () => {
    expect(addBusinessDays('2026-11-20', 0, DEFAULT)).toBe('2026-11-20');
    expect(addBusinessDays('2026-11-21', 0, DEFAULT)).toBe('2026-11-21'); // even a Saturday
    expect(businessDaysBetween('2026-11-20', '2026-11-20', DEFAULT)).toBe(0);
    expect(businessDaysBetween('2026-11-26', '2026-11-26', DEFAULT)).toBe(0);
  });

  it('never counts a weekend', () => {
    expect(businessDaysBetween('2026-11-20', '2026-11-21', DEFAULT)).toBe(0);
    expect(businessDaysBetween('2026-11-20', '2026-11-22', DEFAULT)).toBe(0);
    expect(businessDaysBetween('2026-11-21', '2026-11-22', DEFAULT)).toBe(0);
    expect(businessDaysBetween('2026-11-21', '2026-11-23', DEFAULT)).toBe(1); // Saturday pickup
    expect(businessDaysBetween('2026-11-16', '2026-11-23', DEFAULT)).toBe(5); // Monday -> Monday
    expect(addBusinessDays('2026-11-16', 5, DEFAULT)).toBe('2026-11-23');
    expect(addBusinessDays('2026-11-16', 10, DEFAULT)).toBe('2026-12-01'); // skips Thanksgiving too
  });

  it('Wednesday before Thanksgiving 2026: +1 -> Friday 27, +2 -> Monday 30', () => {
    expect(addBusinessDays('2026-11-25', 1, DEFAULT)).toBe('2026-11-27');
    expect(addBusinessDays('2026-11-25', 2, DEFAULT)).toBe('2026-11-30');
    expect(businessDaysBetween('2026-11-25', '2026-11-27', DEFAULT)).toBe(1);
    expect(businessDaysBetween('2026-11-25', '2026-11-30', DEFAULT)).toBe(2);
    expect(businessDaysBetween('2026-11-25', '2026-11-26', DEFAULT)).toBe(0); // delivery on the holiday
  });

  it('Christmas 2026 (a Friday) and New Year 2027 (a Friday)', () => {
    expect(addBusinessDays('2026-12-23', 1, DEFAULT)).toBe('2026-12-24');
    expect(addBusinessDays('2026-12-23', 2, DEFAULT)).toBe('2026-12-28');
    expect(addBusinessDays('2026-12-24', 1, DEFAULT)).toBe('2026-12-28');
    expect(addBusinessDays('2026-12-24', 5, DEFAULT)).toBe('2027-01-04'); // 28,29,30,31, (1 Jan), 4
    expect(businessDaysBetween('2026-12-24', '2027-01-04', DEFAULT)).toBe(5);
    expect(businessDaysBetween('2026-12-23', '2026-12-28', DEFAULT)).toBe(2);
  });

  it('Independence Day 2026 observed on Friday 3 July', () => {
    expect(addBusinessDays('2026-07-02', 1, DEFAULT)).toBe('2026-07-06');
    expect(businessDaysBetween('2026-07-02', '2026-07-06', DEFAULT)).toBe(1);
  });

  it("New Year's Day 2028 observed on Friday 2027-12-31", () => {
    expect(addBusinessDays('2027-12-30', 1, DEFAULT)).toBe('2028-01-03');
    expect(businessDaysBetween('2027-12-30', '2028-01-03', DEFAULT)).toBe(1);
  });

  it('counts a whole year: 261 weekdays of 2026 minus its six weekday holidays', () => {
    // (2025-12-31, 2026-12-31]: every weekday of 2026.
    expect(businessDaysBetween('2025-12-31', '2026-12-31', NO_HOLIDAYS)).toBe(261);
    expect(businessDaysBetween('2025-12-31', '2026-12-31', DEFAULT)).toBe(255);
    expect(addBusinessDays('2025-12-31', 255, DEFAULT)).toBe('2026-12-31');
  });

  it('handles years long ago and far ahead', () => {
    expect(addBusinessDays('1900-02-23', 1, NO_HOLIDAYS)).toBe('1900-02-26'); // 1900 is not a leap year
    expect(businessDaysBetween('0001-01-01', '0001-01-08', NO_HOLIDAYS)).toBe(5); // 0001-01-01 was a Monday
    expect(businessDaysBetween('2026-01-01', '2426-01-01', NO_HOLIDAYS)).toBe(104_355); // 400 Gregorian years = 20,871 whole weeks
  });
});

describe('property tests', () => {
  const businessPickupArb = fc.tuple(dateArb, calendarArb).filter(([date, cal]) => isBusinessDay(date, cal));

  it('businessDaysBetween(p, addBusinessDays(p, n)) === n for business-day pickups and n in 0..10', () => {
    fc.assert(
      fc.property(businessPickupArb, fc.integer({ min: 0, max: 10 }), ([pickup, cal], n) => {
        expect(businessDaysBetween(pickup, addBusinessDays(pickup, n, cal), cal)).toBe(n);
        expect(businessDaysBetween(pickup, addBusinessDays(pickup, n, DEFAULT), DEFAULT)).toBe(n);
      }),
      { numRuns: 500 },
    );
  });

  it('the round trip also holds for pickups on weekends and holidays', () => {
    fc.assert(
      fc.property(dateArb, fc.integer({ min: 0, max: 10 }), (pickup, n) => {
        expect(businessDaysBetween(pickup, addBusinessDays(pickup, n, ALL_RULES), ALL_RULES)).toBe(n);
      }),
      { numRuns: 500 },
    );
  });

  it('addBusinessDays never lands on a weekend or holiday for n >= 1, and moves forward', () => {
    fc.assert(
      fc.property(dateArb, calendarArb, fc.integer({ min: 1, max: 10 }), (pickup, cal, n) => {
        const delivery = addBusinessDays(pickup, n, cal);
        expect(isWeekendDate(delivery)).toBe(false);
        expect(holidaysInYear(Number(delivery.slice(0, 4)), cal)).not.toContain(delivery);
        expect(isBusinessDay(delivery, cal)).toBe(true);
        expect(delivery > addBusinessDays(pickup, n - 1, cal)).toBe(true);
        expect(dayIndex(delivery) - dayIndex(pickup)).toBeGreaterThanOrEqual(n);
      }),
      { numRuns: 500 },
    );
  });

  it('businessDaysBetween (arithmetic) equals counting day by day, over spans up to 3 years', () => {
    fc.assert(
      fc.property(dateArb, fc.integer({ min: 0, max: 1100 }), calendarArb, (pickup, span, cal) => {
        const delivery = dateOfDayIndex(dayIndex(pickup) + span);
        expect(businessDaysBetween(pickup, delivery, cal)).toBe(countBusinessDaysNaively(pickup, delivery, cal));
      }),
      { numRuns: 300 },
    );
  });

  it('nextBusinessDay is the first business day strictly after the date', () => {
    fc.assert(
      fc.property(dateArb, calendarArb, (date, cal) => {
        const next = nextBusinessDay(date, cal);
        expect(next > date).toBe(true);
        expect(isBusinessDay(next, cal)).toBe(true);
        for (let index = dayIndex(date) + 1; index < dayIndex(next); index += 1) {
          expect(isBusinessDay(dateOfDayIndex(index), cal)).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('holidaysInYear is sorted, unique, inside the year and on weekdays (rules only), for any year', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9999 }), fc.subarray([...HOLIDAY_RULES]), (year, rules) => {
        const list = holidaysInYear(year, calendar(rules));
        expect([...new Set(list)].sort()).toEqual(list);
        for (const date of list) {
          expect(Number(date.slice(0, 4))).toBe(year);
          expect(businessDayReason(date, calendar(rules))).toMatch(/carrier holiday/);
        }
        expect(list.length).toBeLessThanOrEqual(rules.length + 1); // +1: next year's New Year's Day on 31 Dec
      }),
      { numRuns: 300 },
    );
  });

  it('weekday arithmetic agrees with Date.getUTCDay on any date from 1970 to 2400', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: dayIndex('2400-12-31') }), (index) => {
        const date = dateOfDayIndex(index);
        const reason = businessDayReason(date, NO_HOLIDAYS);
        const weekday = utcWeekday(date);
        expect(reason).toBe(weekday === 6 ? 'a Saturday' : weekday === 0 ? 'a Sunday' : null);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('localDateInZone', () => {
  it.each([
    ['2026-01-01T03:00:00.000Z', 'America/Los_Angeles', '2025-12-31'],
    ['2026-01-01T03:00:00.000Z', 'America/New_York', '2025-12-31'],
    ['2026-01-01T05:00:00.000Z', 'America/New_York', '2026-01-01'],
    ['2026-01-01T03:00:00.000Z', 'UTC', '2026-01-01'],
    ['2026-01-01T15:00:00.000Z', 'Asia/Tokyo', '2026-01-02'],
    ['2026-07-01T09:59:00.000Z', 'Pacific/Honolulu', '2026-06-30'],
    ['2026-07-01T10:00:00.000Z', 'Pacific/Honolulu', '2026-07-01'],
    ['2026-07-01T06:59:00.000Z', 'America/Phoenix', '2026-06-30'],
    ['2026-07-01T07:00:00.000Z', 'America/Phoenix', '2026-07-01'],
    ['2026-11-01T03:59:00.000Z', 'America/New_York', '2026-10-31'], // 23:59 EDT
    ['2026-11-01T04:00:00.000Z', 'America/New_York', '2026-11-01'],
  ])('%s in %s is %s', (instant, zone, date) => {
    expect(localDateInZone(new Date(instant), zone)).toBe(date);
  });
});

describe('zonedTimeToUtc', () => {
  it.each([
    ['2026-01-15', 'America/Los_Angeles', '2026-01-16T01:00:00.000Z'], // PST, UTC-8: next day
    ['2026-07-15', 'America/Los_Angeles', '2026-07-16T00:00:00.000Z'], // PDT, UTC-7
    ['2026-01-15', 'America/New_York', '2026-01-15T22:00:00.000Z'], // EST
    ['2026-07-15', 'America/New_York', '2026-07-15T21:00:00.000Z'], // EDT
    ['2026-01-15', 'America/Chicago', '2026-01-15T23:00:00.000Z'],
    ['2026-07-15', 'America/Chicago', '2026-07-15T22:00:00.000Z'],
    ['2026-01-15', 'America/Denver', '2026-01-16T00:00:00.000Z'],
    ['2026-01-15', 'America/Phoenix', '2026-01-16T00:00:00.000Z'], // MST all year
    ['2026-07-15', 'America/Phoenix', '2026-07-16T00:00:00.000Z'],
    ['2026-01-15', 'Pacific/Honolulu', '2026-01-16T03:00:00.000Z'], // HST all year
    ['2026-07-15', 'Pacific/Honolulu', '2026-07-16T03:00:00.000Z'],
    ['2026-01-15', 'America/Anchorage', '2026-01-16T02:00:00.000Z'],
    ['2026-07-15', 'UTC', '2026-07-15T17:00:00.000Z'],
    ['2026-07-15', 'Asia/Kolkata', '2026-07-15T11:30:00.000Z'],
    ['2026-07-15', 'Asia/Kathmandu', '2026-07-15T11:15:00.000Z'],
  ])('17:00 on %s in %s is %s', (date, zone, instant) => {
    expect(zonedTimeToUtc(date, '17:00', zone).toISOString()).toBe(instant);
  });

  it('reads offsets with seconds (local mean time before 1883)', () => {
    expect(zonedTimeToUtc('1850-01-01', '12:00', 'America/New_York').toISOString()).toBe('1850-01-01T16:56:02.000Z');
  });

  it('is exact on both sides of the March 2026 change in America/New_York', () => {
    expect(zonedTimeToUtc('2026-03-08', '01:59', 'America/New_York').toISOString()).toBe('2026-03-08T06:59:00.000Z'); // EST
    expect(zonedTimeToUtc('2026-03-08', '03:00', 'America/New_York').toISOString()).toBe('2026-03-08T07:00:00.000Z'); // EDT
    expect(zonedTimeToUtc('2026-03-08', '17:00', 'America/New_York').toISOString()).toBe('2026-03-08T21:00:00.000Z');
    expect(zonedTimeToUtc('2026-03-07', '17:00', 'America/New_York').toISOString()).toBe('2026-03-07T22:00:00.000Z');
  });

  it('moves a wall time in the DST gap forward by the gap: 02:30 on 2026-03-08 in New York -> 07:30Z (03:30 EDT)', () => {
    const instant = zonedTimeToUtc('2026-03-08', '02:30', 'America/New_York');
    expect(instant.toISOString()).toBe('2026-03-08T07:30:00.000Z');
    expect(wallClock(instant, 'America/New_York')).toEqual({ date: '2026-03-08', time: '03:30' });
    // The same rule elsewhere: Los Angeles, and Sydney (southern hemisphere, October).
    expect(zonedTimeToUtc('2026-03-08', '02:00', 'America/Los_Angeles').toISOString()).toBe('2026-03-08T10:00:00.000Z');
    expect(zonedTimeToUtc('2026-10-04', '02:30', 'Australia/Sydney').toISOString()).toBe('2026-10-03T16:30:00.000Z');
  });

  it('takes the earlier instant of a wall time that occurs twice: 01:30 on 2026-11-01 in New York -> 05:30Z (01:30 EDT)', () => {
    expect(zonedTimeToUtc('2026-11-01', '01:30', 'America/New_York').toISOString()).toBe('2026-11-01T05:30:00.000Z');
    expect(zonedTimeToUtc('2026-11-01', '00:59', 'America/New_York').toISOString()).toBe('2026-11-01T04:59:00.000Z');
    expect(zonedTimeToUtc('2026-11-01', '02:00', 'America/New_York').toISOString()).toBe('2026-11-01T07:00:00.000Z'); // EST only
    expect(zonedTimeToUtc('2026-04-05', '02:30', 'Australia/Sydney').toISOString()).toBe('2026-04-04T15:30:00.000Z'); // AEDT
  });

  it('gives the same local date as Intl minute by minute across changes at local midnight (offsets are memoised per quarter hour)', () => {
    const intlDate = (zone: string) => new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' });
    // Santiago: DST ends 2026-04-05 at 00:00 local, starts 2026-09-06 at 00:00; Havana changes at 00:00/01:00 too.
    for (const [zone, start] of [
      ['America/Santiago', '2026-04-05T01:00:00Z'],
      ['America/Santiago', '2026-09-06T02:00:00Z'],
      ['America/Havana', '2026-03-08T03:00:00Z'],
      ['America/Havana', '2026-11-01T03:00:00Z'],
    ] as const) {
      const format = intlDate(zone);
      for (let minute = 0; minute < 240; minute++) {
        const instant = new Date(Date.parse(start) + minute * 60_000);
        expect(localDateInZone(instant, zone), `${zone} ${instant.toISOString()}`).toBe(format.format(instant));
      }
    }
  });

  it('moves a skipped calendar day forward too (Samoa skipped 2011-12-30)', () => {
    const instant = zonedTimeToUtc('2011-12-30', '12:00', 'Pacific/Apia');
    expect(localDateInZone(instant, 'Pacific/Apia')).toBe('2011-12-31');
    expect(instant.toISOString()).toBe('2011-12-30T22:00:00.000Z');
  });

  it('returns a new Date each time (a caller mutating one does not change the memo)', () => {
    const first = zonedTimeToUtc('2026-07-15', '17:00', 'America/Chicago');
    first.setTime(0);
    expect(zonedTimeToUtc('2026-07-15', '17:00', 'America/Chicago').toISOString()).toBe('2026-07-15T22:00:00.000Z');
  });

  it('round-trips any instant: back to its wall time, the earlier one when the wall time occurs twice', () => {
    const zones = [
      'America/New_York',
      'America/Chicago',
      'America/Denver',
      'America/Phoenix',
      'America/Los_Angeles',
      'America/Anchorage',
      'Pacific/Honolulu',
      'Europe/London',
      'Australia/Sydney',
      'Asia/Kolkata',
      'UTC',
    ];
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2019, 0, 1) / 60_000, max: Date.UTC(2041, 0, 1) / 60_000 }), fc.constantFrom(...zones), (minute, zone) => {
        const instant = new Date(minute * 60_000);
        const wall = wallClock(instant, zone);
        const back = zonedTimeToUtc(wall.date, wall.time, zone);
        expect(wallClock(back, zone)).toEqual(wall);
        expect([0, 3_600_000]).toContain(instant.getTime() - back.getTime());
        expect(localDateInZone(instant, zone)).toBe(wall.date);
      }),
      { numRuns: 2000 },
    );
  });

  it('round-trips exactly at the instants around each 2026 change in New York', () => {
    for (const iso of ['2026-03-08T06:59:00Z', '2026-03-08T07:00:00Z', '2026-11-01T05:59:00Z', '2026-11-01T07:00:00Z']) {
      const instant = new Date(iso);
      const wall = wallClock(instant, 'America/New_York');
      expect(zonedTimeToUtc(wall.date, wall.time, 'America/New_York').getTime(), iso).toBe(instant.getTime());
    }
    // 06:30Z is 01:30 EST, the second 01:30: it reads back as the first (05:30Z).
    const second = wallClock(new Date('2026-11-01T06:30:00Z'), 'America/New_York');
    expect(second).toEqual({ date: '2026-11-01', time: '01:30' });
    expect(zonedTimeToUtc(second.date, second.time, 'America/New_York').toISOString()).toBe('2026-11-01T05:30:00.000Z');
  });
});

describe('estimateDelivery', () => {
  const estimate = (pickupDate: string, transitDays: number, destinationTimeZone: string, calendar: HolidayCalendar = DEFAULT) =>
    estimateDelivery({ pickupDate, transitDays, destinationTimeZone, deliveryCutoff: '17:00', calendar });

  it('delivers at 17:00 at the destination, as a UTC instant, across time zones', () => {
    expect(estimate('2026-01-13', 2, 'America/Los_Angeles')).toEqual({
      transitDays: 2,
      deliveryDate: '2026-01-15',
      estimatedDeliveryDate: '2026-01-16T01:00:00.000Z',
    });
    expect(estimate('2026-07-13', 2, 'America/Los_Angeles').estimatedDeliveryDate).toBe('2026-07-16T00:00:00.000Z');
    expect(estimate('2026-01-13', 2, 'America/New_York').estimatedDeliveryDate).toBe('2026-01-15T22:00:00.000Z');
    expect(estimate('2026-07-13', 2, 'America/New_York').estimatedDeliveryDate).toBe('2026-07-15T21:00:00.000Z');
  });

  it('skips Thanksgiving on the way', () => {
    expect(estimate('2026-11-25', 1, 'America/Los_Angeles')).toEqual({
      transitDays: 1,
      deliveryDate: '2026-11-27',
      estimatedDeliveryDate: '2026-11-28T01:00:00.000Z',
    });
    expect(estimate('2026-11-25', 2, 'America/New_York').estimatedDeliveryDate).toBe('2026-11-30T22:00:00.000Z');
  });

  it('the March 2026 change week in America/Chicago: 23:00Z before Sunday 8 March, 22:00Z after', () => {
    expect(estimate('2026-03-06', 0, 'America/Chicago').estimatedDeliveryDate).toBe('2026-03-06T23:00:00.000Z'); // Friday, CST
    expect(estimate('2026-03-06', 1, 'America/Chicago')).toEqual({
      transitDays: 1,
      deliveryDate: '2026-03-09',
      estimatedDeliveryDate: '2026-03-09T22:00:00.000Z', // Monday, CDT
    });
    expect(estimate('2026-03-06', 3, 'America/Chicago').estimatedDeliveryDate).toBe('2026-03-11T22:00:00.000Z');
  });

  it('the November 2026 change (Sunday 1 November) in America/Chicago: 22:00Z before, 23:00Z after', () => {
    expect(estimate('2026-10-30', 0, 'America/Chicago').estimatedDeliveryDate).toBe('2026-10-30T22:00:00.000Z'); // Friday, CDT
    expect(estimate('2026-10-30', 1, 'America/Chicago')).toEqual({
      transitDays: 1,
      deliveryDate: '2026-11-02',
      estimatedDeliveryDate: '2026-11-02T23:00:00.000Z', // Monday, CST
    });
  });

  it('America/Phoenix keeps UTC-7 all year while Denver changes', () => {
    expect(estimate('2026-03-06', 1, 'America/Phoenix').estimatedDeliveryDate).toBe('2026-03-10T00:00:00.000Z');
    expect(estimate('2026-03-06', 1, 'America/Denver').estimatedDeliveryDate).toBe('2026-03-09T23:00:00.000Z');
    expect(estimate('2026-01-05', 1, 'America/Phoenix').estimatedDeliveryDate).toBe('2026-01-07T00:00:00.000Z');
  });

  it('Pacific/Honolulu is UTC-10 all year: 17:00 is 03:00Z the next day', () => {
    expect(estimate('2026-03-06', 1, 'Pacific/Honolulu').estimatedDeliveryDate).toBe('2026-03-10T03:00:00.000Z');
    expect(estimate('2026-07-06', 1, 'Pacific/Honolulu').estimatedDeliveryDate).toBe('2026-07-08T03:00:00.000Z');
  });

  it('uses the cut-off it is given', () => {
    const result = estimateDelivery({
      pickupDate: '2026-11-20',
      transitDays: 1,
      destinationTimeZone: 'America/New_York',
      deliveryCutoff: '08:30',
      calendar: DEFAULT,
    });
    expect(result.estimatedDeliveryDate).toBe('2026-11-23T13:30:00.000Z');
  });

  it('its instant falls on the delivery day at the destination and equals addBusinessDays', () => {
    const zones = ['America/New_York', 'America/Chicago', 'America/Denver', 'America/Phoenix', 'America/Los_Angeles', 'America/Anchorage', 'Pacific/Honolulu'];
    fc.assert(
      fc.property(dateArb, fc.integer({ min: 0, max: 10 }), fc.constantFrom(...zones), (pickup, days, zone) => {
        const result = estimate(pickup, days, zone);
        expect(result.deliveryDate).toBe(addBusinessDays(pickup, days, DEFAULT));
        expect(wallClock(new Date(result.estimatedDeliveryDate), zone)).toEqual({ date: result.deliveryDate, time: '17:00' });
        expect(localDateInZone(new Date(result.estimatedDeliveryDate), zone)).toBe(result.deliveryDate);
      }),
      { numRuns: 500 },
    );
  });

  it('handles a batch of 20,000 shipments quickly (memoised holidays and offsets)', () => {
    const zones = ['America/New_York', 'America/Chicago', 'America/Denver', 'America/Los_Angeles'];
    const started = performance.now();
    let last = '';
    for (let index = 0; index < 20_000; index += 1) {
      const tariffCalendar = calendar(DEFAULT.rules, ['2026-12-31']); // a fresh object each time: not memoised
      last = estimate(dateOfDayIndex(dayIndex('2026-11-02') + (index % 60)), index % 8, zones[index % 4]!, index % 2 ? DEFAULT : tariffCalendar).estimatedDeliveryDate;
    }
    expect(last).toMatch(/^2026-/);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('independence from the time zone of the machine', () => {
  const originalTz = process.env.TZ;
  afterEach(() => {
    if (originalTz === undefined) delete process.env.TZ;
    else process.env.TZ = originalTz;
  });

  // [TZ, minutes getTimezoneOffset() reports for 2026-01-01 there], to prove the change took effect.
  it.each([
    ['UTC', 0],
    ['Pacific/Kiritimati', -840],
    ['Pacific/Pago_Pago', 660],
    ['America/St_Johns', 210],
    ['Asia/Kathmandu', -345],
  ] as const)('gives the same answers with TZ=%s', (tz, offsetMinutes) => {
    process.env.TZ = tz;
    expect(new Date(Date.UTC(2026, 0, 1)).getTimezoneOffset()).toBe(offsetMinutes);
    expect(holidaysInYear(2027, DEFAULT)).toEqual(['2027-01-01', '2027-05-31', '2027-07-05', '2027-09-06', '2027-11-25', '2027-12-24', '2027-12-31']);
    expect(addBusinessDays('2026-11-20', 1, DEFAULT)).toBe('2026-11-23');
    expect(businessDaysBetween('2026-11-25', '2026-11-30', DEFAULT)).toBe(2);
    expect(businessDayReason('2026-11-21', DEFAULT)).toBe('a Saturday');
    expect(localDateInZone(new Date('2026-01-01T03:00:00Z'), 'America/Los_Angeles')).toBe('2025-12-31');
    expect(zonedTimeToUtc('2026-03-08', '02:30', 'America/New_York').toISOString()).toBe('2026-03-08T07:30:00.000Z');
    expect(
      estimateDelivery({ pickupDate: '2026-03-06', transitDays: 1, destinationTimeZone: 'America/Chicago', deliveryCutoff: '17:00', calendar: DEFAULT }).estimatedDeliveryDate,
    ).toBe('2026-03-09T22:00:00.000Z');
  });
});
