/**
 * Business days, carrier holidays and delivery ETAs (SPEC section 4). Pure: no I/O, and no clock —
 * every instant is passed in.
 *
 * Calendar dates are 'YYYY-MM-DD' strings at the edges and day numbers inside (dates.ts), so that
 * nothing depends on the time zone of the machine. Supported years: 0001-9999.
 *
 * Holiday calendars are treated as immutable values: what is derived from one is memoised per
 * calendar object (and per year), so mutating a calendar's arrays after first use is not seen.
 */
import {
  dateOfDayNumber,
  dayNumberFromCivil,
  dayNumberOf,
  daysInMonth,
  describeValue,
  LAST_DAY_NUMBER,
  MAX_YEAR,
  MIN_YEAR,
  weekdayOfDayNumber,
  yearOfDayNumber,
  zonedTimeToUtc,
} from './dates.js';

export const HOLIDAY_RULES = [
  'NEW_YEARS_DAY',
  'MLK_DAY',
  'PRESIDENTS_DAY',
  'MEMORIAL_DAY',
  'JUNETEENTH',
  'INDEPENDENCE_DAY',
  'LABOR_DAY',
  'COLUMBUS_DAY',
  'VETERANS_DAY',
  'THANKSGIVING',
  'DAY_AFTER_THANKSGIVING',
  'CHRISTMAS_EVE',
  'CHRISTMAS',
  'NEW_YEARS_EVE',
] as const;
export type HolidayRule = (typeof HOLIDAY_RULES)[number];

/** Which days a carrier does not work. Dates are 'YYYY-MM-DD'. */
export interface HolidayCalendar {
  /** Holidays by rule; each yields its observed date every year. */
  rules: readonly HolidayRule[];
  /** One-off closing days added to the rules. */
  extraDates: readonly string[];
  /** Observed dates (as holidaysInYear lists them) taken out again; wins over rules and extraDates. */
  removedDates: readonly string[];
}

/** SPEC section 4: the six carrier holidays, at their observed dates. */
export const DEFAULT_CARRIER_HOLIDAYS: HolidayCalendar = Object.freeze({
  rules: Object.freeze(['NEW_YEARS_DAY', 'MEMORIAL_DAY', 'INDEPENDENCE_DAY', 'LABOR_DAY', 'THANKSGIVING', 'CHRISTMAS'] as const),
  extraDates: Object.freeze([] as string[]),
  removedDates: Object.freeze([] as string[]),
});

// ---------------------------------------------------------------------------------------------
// Weekdays

const SUNDAY = 0;
const MONDAY = 1;
const THURSDAY = 4;
const SATURDAY = 6;
const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

function isWeekend(dayNumber: number): boolean {
  const weekday = weekdayOfDayNumber(dayNumber);
  return weekday === SATURDAY || weekday === SUNDAY;
}

/** The n-th (1-based) given weekday of a month. */
function nthWeekdayOfMonth(year: number, month: number, weekday: number, n: number): number {
  const first = dayNumberFromCivil(year, month, 1);
  return first + ((weekday - weekdayOfDayNumber(first) + 7) % 7) + 7 * (n - 1);
}

function lastWeekdayOfMonth(year: number, month: number, weekday: number): number {
  const last = dayNumberFromCivil(year, month, daysInMonth(year, month));
  return last - ((weekdayOfDayNumber(last) - weekday + 7) % 7);
}

// ---------------------------------------------------------------------------------------------
// Holiday rules

interface RuleDefinition {
  name: string;
  /** The nominal date in a year, or null when the rule does not apply that year. */
  nominal(year: number): number | null;
  /**
   * 'shift': a fixed date on a Saturday is observed the Friday before, on a Sunday the Monday after
   * (US federal practice). 'skip': a closing day (eve) on a weekend is simply not a holiday.
   * 'none': the rule always falls on a weekday.
   */
  weekend: 'shift' | 'skip' | 'none';
}

/** Juneteenth became a federal holiday in 2021; the other rules are defined as they are today for every year. */
const JUNETEENTH_FIRST_YEAR = 2021;

const thanksgiving = (year: number): number => nthWeekdayOfMonth(year, 11, THURSDAY, 4);

const RULE_DEFINITIONS: Record<HolidayRule, RuleDefinition> = {
  NEW_YEARS_DAY: { name: "New Year's Day", nominal: (year) => dayNumberFromCivil(year, 1, 1), weekend: 'shift' },
  MLK_DAY: { name: 'Martin Luther King Jr. Day', nominal: (year) => nthWeekdayOfMonth(year, 1, MONDAY, 3), weekend: 'none' },
  PRESIDENTS_DAY: { name: "Presidents' Day", nominal: (year) => nthWeekdayOfMonth(year, 2, MONDAY, 3), weekend: 'none' },
  MEMORIAL_DAY: { name: 'Memorial Day', nominal: (year) => lastWeekdayOfMonth(year, 5, MONDAY), weekend: 'none' },
  JUNETEENTH: {
    name: 'Juneteenth',
    nominal: (year) => (year >= JUNETEENTH_FIRST_YEAR ? dayNumberFromCivil(year, 6, 19) : null),
    weekend: 'shift',
  },
  INDEPENDENCE_DAY: { name: 'Independence Day', nominal: (year) => dayNumberFromCivil(year, 7, 4), weekend: 'shift' },
  LABOR_DAY: { name: 'Labor Day', nominal: (year) => nthWeekdayOfMonth(year, 9, MONDAY, 1), weekend: 'none' },
  COLUMBUS_DAY: { name: 'Columbus Day', nominal: (year) => nthWeekdayOfMonth(year, 10, MONDAY, 2), weekend: 'none' },
  VETERANS_DAY: { name: 'Veterans Day', nominal: (year) => dayNumberFromCivil(year, 11, 11), weekend: 'shift' },
  THANKSGIVING: { name: 'Thanksgiving', nominal: thanksgiving, weekend: 'none' },
  DAY_AFTER_THANKSGIVING: { name: 'the day after Thanksgiving', nominal: (year) => thanksgiving(year) + 1, weekend: 'none' },
  CHRISTMAS_EVE: { name: 'Christmas Eve', nominal: (year) => dayNumberFromCivil(year, 12, 24), weekend: 'skip' },
  CHRISTMAS: { name: 'Christmas Day', nominal: (year) => dayNumberFromCivil(year, 12, 25), weekend: 'shift' },
  NEW_YEARS_EVE: { name: "New Year's Eve", nominal: (year) => dayNumberFromCivil(year, 12, 31), weekend: 'skip' },
};

const KNOWN_RULES: ReadonlySet<string> = new Set(HOLIDAY_RULES);

interface ObservedHoliday {
  dayNumber: number;
  name: string;
  observed: boolean; // moved off a weekend
}

function observedHoliday(rule: HolidayRule, year: number): ObservedHoliday | null {
  const definition = RULE_DEFINITIONS[rule];
  const nominal = definition.nominal(year);
  if (nominal === null) return null;
  const weekday = weekdayOfDayNumber(nominal);
  if (definition.weekend === 'shift') {
    if (weekday === SATURDAY) return { dayNumber: nominal - 1, name: definition.name, observed: true };
    if (weekday === SUNDAY) return { dayNumber: nominal + 1, name: definition.name, observed: true };
  } else if (definition.weekend === 'skip' && (weekday === SATURDAY || weekday === SUNDAY)) {
    return null;
  }
  return { dayNumber: nominal, name: definition.name, observed: false };
}

// ---------------------------------------------------------------------------------------------
// Compiled (validated, memoised) calendars

interface YearHolidays {
  /** Sorted observed dates of the year. */
  dates: readonly string[];
  /** Day number -> why it is not a business day. */
  reasons: ReadonlyMap<number, string>;
}

interface CompiledCalendar {
  rules: readonly HolidayRule[];
  extraDayNumbers: ReadonlySet<number>;
  removedDayNumbers: ReadonlySet<number>;
  years: Map<number, YearHolidays>;
}

const compiledCalendars = new WeakMap<HolidayCalendar, CompiledCalendar>();

function compileCalendar(calendar: HolidayCalendar): CompiledCalendar {
  const cached = compiledCalendars.get(calendar);
  if (cached) return cached;
  if (typeof calendar !== 'object' || calendar === null) throw new TypeError('calendar must be a HolidayCalendar object');
  const { rules, extraDates, removedDates } = calendar;
  if (!Array.isArray(rules) || !Array.isArray(extraDates) || !Array.isArray(removedDates)) {
    throw new TypeError('calendar needs the arrays rules, extraDates and removedDates');
  }
  for (const rule of rules) {
    if (!KNOWN_RULES.has(rule)) {
      throw new RangeError(`unknown holiday rule ${describeValue(rule)}; known rules: ${HOLIDAY_RULES.join(', ')}`);
    }
  }
  const compiled: CompiledCalendar = {
    rules: [...new Set(rules)],
    extraDayNumbers: new Set(extraDates.map((date, index) => dayNumberOf(date, `calendar.extraDates[${index}]`))),
    removedDayNumbers: new Set(removedDates.map((date, index) => dayNumberOf(date, `calendar.removedDates[${index}]`))),
    years: new Map(),
  };
  compiledCalendars.set(calendar, compiled);
  return compiled;
}

function holidayReason(holidays: readonly ObservedHoliday[]): string {
  const [only] = holidays;
  if (only && holidays.length === 1) return `${only.name} (${only.observed ? 'observed, ' : ''}carrier holiday)`;
  // Two rules on one day, e.g. Christmas Eve and Christmas observed on Friday 24 December.
  const names = holidays.map((holiday) => (holiday.observed ? `${holiday.name} (observed)` : holiday.name));
  return `${names.join(' and ')}, carrier holidays`;
}

function holidaysOfYear(compiled: CompiledCalendar, year: number): YearHolidays {
  const cached = compiled.years.get(year);
  if (cached) return cached;

  const firstDay = dayNumberFromCivil(year, 1, 1);
  const lastDay = dayNumberFromCivil(year, 12, 31);
  const byDay = new Map<number, ObservedHoliday[]>();
  // Observance can cross a year boundary (New Year's Day on a Saturday is observed on 31 December
  // of the year before), so the neighbouring years' rules are evaluated too.
  for (let ruleYear = Math.max(MIN_YEAR, year - 1); ruleYear <= Math.min(MAX_YEAR, year + 1); ruleYear += 1) {
    for (const rule of compiled.rules) {
      const holiday = observedHoliday(rule, ruleYear);
      if (!holiday || holiday.dayNumber < firstDay || holiday.dayNumber > lastDay) continue;
      const sameDay = byDay.get(holiday.dayNumber);
      if (sameDay) sameDay.push(holiday);
      else byDay.set(holiday.dayNumber, [holiday]);
    }
  }

  const reasons = new Map<number, string>();
  for (const [dayNumber, holidays] of byDay) reasons.set(dayNumber, holidayReason(holidays));
  for (const dayNumber of compiled.extraDayNumbers) {
    if (dayNumber >= firstDay && dayNumber <= lastDay && !reasons.has(dayNumber)) {
      reasons.set(dayNumber, 'a carrier holiday (extra date of the holiday calendar)');
    }
  }
  for (const dayNumber of compiled.removedDayNumbers) reasons.delete(dayNumber);

  const result: YearHolidays = {
    dates: [...reasons.keys()].sort((a, b) => a - b).map(dateOfDayNumber),
    reasons,
  };
  compiled.years.set(year, result);
  return result;
}

/** Why a day is not a business day (weekend first), or null when it is one. */
function closedReason(compiled: CompiledCalendar, dayNumber: number): string | null {
  const weekday = weekdayOfDayNumber(dayNumber);
  if (weekday === SATURDAY || weekday === SUNDAY) return `a ${WEEKDAY_NAMES[weekday]}`;
  return holidaysOfYear(compiled, yearOfDayNumber(dayNumber)).reasons.get(dayNumber) ?? null;
}

function isBusinessDayNumber(compiled: CompiledCalendar, dayNumber: number): boolean {
  if (isWeekend(dayNumber)) return false;
  return !holidaysOfYear(compiled, yearOfDayNumber(dayNumber)).reasons.has(dayNumber);
}

// ---------------------------------------------------------------------------------------------
// Business days

/** Sorted observed holiday dates that fall in the calendar year (observed dates may belong to the year before). */
export function holidaysInYear(year: number, calendar: HolidayCalendar): string[] {
  if (!Number.isInteger(year) || year < MIN_YEAR || year > MAX_YEAR) {
    throw new RangeError(`year must be an integer from ${MIN_YEAR} to ${MAX_YEAR}, got ${describeValue(year)}`);
  }
  return [...holidaysOfYear(compileCalendar(calendar), year).dates];
}

/** Monday to Friday and not an observed holiday of the calendar. */
export function isBusinessDay(date: string, calendar: HolidayCalendar): boolean {
  const dayNumber = dayNumberOf(date, 'date');
  return isBusinessDayNumber(compileCalendar(calendar), dayNumber);
}

/**
 * Null for a business day; otherwise why not, worded to follow "it is": 'a Saturday',
 * 'Thanksgiving (carrier holiday)', 'Christmas Day (observed, carrier holiday)'.
 */
export function businessDayReason(date: string, calendar: HolidayCalendar): string | null {
  const dayNumber = dayNumberOf(date, 'date');
  return closedReason(compileCalendar(calendar), dayNumber);
}

/** The first business day strictly after date. */
export function nextBusinessDay(date: string, calendar: HolidayCalendar): string {
  return dateOfDayNumber(addBusinessDayNumbers(dayNumberOf(date, 'date'), 1, compileCalendar(calendar)));
}

function assertDayCount(value: unknown, label: string): asserts value is number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${label} must be a whole number of business days >= 0, got ${describeValue(value)}`);
  }
}

/** 0 -> pickupDate itself (even when it is not a business day); n -> the n-th business day after it. */
export function addBusinessDays(pickupDate: string, businessDays: number, calendar: HolidayCalendar): string {
  const pickup = dayNumberOf(pickupDate, 'pickupDate');
  assertDayCount(businessDays, 'businessDays');
  return dateOfDayNumber(addBusinessDayNumbers(pickup, businessDays, compileCalendar(calendar)));
}

function addBusinessDayNumbers(start: number, businessDays: number, compiled: CompiledCalendar): number {
  let dayNumber = start;
  let remaining = businessDays;
  while (remaining > 0) {
    dayNumber += 1;
    if (dayNumber > LAST_DAY_NUMBER) {
      throw new RangeError(`${dateOfDayNumber(start)} + ${businessDays} business days is past 9999-12-31`);
    }
    if (isBusinessDayNumber(compiled, dayNumber)) remaining -= 1;
  }
  return dayNumber;
}

/** A Monday long before year 1, so that day numbers minus it are never negative. */
const WEEK_ANCHOR_MONDAY = 4 - 7 * 150_000; // 1970-01-05 was a Monday

/** Monday-to-Friday days in [WEEK_ANCHOR_MONDAY, dayNumber). */
function weekdaysBefore(dayNumber: number): number {
  const days = dayNumber - WEEK_ANCHOR_MONDAY;
  return 5 * Math.floor(days / 7) + Math.min(days % 7, 5);
}

/**
 * Business days after the pickup day up to and including the delivery day (SPEC section 4).
 * Counted arithmetically (weekdays minus weekday holidays), so long spans cost per year, not per day.
 */
export function businessDaysBetween(pickupDate: string, deliveryDate: string, calendar: HolidayCalendar): number {
  const pickup = dayNumberOf(pickupDate, 'pickupDate');
  const delivery = dayNumberOf(deliveryDate, 'deliveryDate');
  if (delivery < pickup) {
    throw new RangeError(`deliveryDate ${deliveryDate} is before pickupDate ${pickupDate}`);
  }
  const compiled = compileCalendar(calendar);
  let count = weekdaysBefore(delivery + 1) - weekdaysBefore(pickup + 1);
  for (let year = yearOfDayNumber(pickup); year <= yearOfDayNumber(delivery); year += 1) {
    for (const holiday of holidaysOfYear(compiled, year).reasons.keys()) {
      if (holiday > pickup && holiday <= delivery && !isWeekend(holiday)) count -= 1;
    }
  }
  return count;
}

// ---------------------------------------------------------------------------------------------
// ETA

export interface DeliveryEstimate {
  transitDays: number;
  deliveryDate: string;
  /** ISO-8601 UTC instant (toISOString()). */
  estimatedDeliveryDate: string;
}

/** The delivery day (pickup + transit business days) at the destination's cut-off, as a UTC instant. */
export function estimateDelivery(input: {
  pickupDate: string;
  transitDays: number;
  destinationTimeZone: string;
  deliveryCutoff: string;
  calendar: HolidayCalendar;
}): DeliveryEstimate {
  const { pickupDate, transitDays, destinationTimeZone, deliveryCutoff, calendar } = input;
  assertDayCount(transitDays, 'transitDays');
  const deliveryDate = addBusinessDays(pickupDate, transitDays, calendar);
  const estimatedDeliveryDate = zonedTimeToUtc(deliveryDate, deliveryCutoff, destinationTimeZone).toISOString();
  return { transitDays, deliveryDate, estimatedDeliveryDate };
}
