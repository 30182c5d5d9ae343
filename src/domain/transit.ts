/**
 * Business days, carrier holidays and delivery ETAs (SPEC section 4). Pure: no I/O, and no clock —
 * every instant is passed in.
 *
 * Calendar dates are 'YYYY-MM-DD' strings at the edges and integer day numbers (days since
 * 1970-01-01 in the proleptic Gregorian calendar) inside, so that nothing depends on the time zone
 * of the machine. Supported years: 0001-9999.
 *
 * Holiday calendars are treated as immutable values: what is derived from one is memoised per
 * calendar object (and per year), so mutating a calendar's arrays after first use is not seen.
 */

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
// Calendar dates as day numbers

const MS_PER_DAY = 86_400_000;
const MIN_YEAR = 1;
const MAX_YEAR = 9999;

const SUNDAY = 0;
const MONDAY = 1;
const THURSDAY = 4;
const SATURDAY = 6;
const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/** Days since 1970-01-01 (H. Hinnant's days_from_civil); integer maths, valid for any year >= 0. */
function dayNumberFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** Inverse of dayNumberFromCivil (civil_from_days). */
function civilFromDayNumber(dayNumber: number): { year: number; month: number; day: number } {
  const z = dayNumber + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthIndex = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthIndex + 2) / 5) + 1;
  const month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

const FIRST_DAY_NUMBER = dayNumberFromCivil(MIN_YEAR, 1, 1);
const LAST_DAY_NUMBER = dayNumberFromCivil(MAX_YEAR, 12, 31);

function yearOfDayNumber(dayNumber: number): number {
  return civilFromDayNumber(dayNumber).year;
}

/** 0 = Sunday ... 6 = Saturday; 1970-01-01 was a Thursday. */
function weekdayOf(dayNumber: number): number {
  return (((dayNumber + THURSDAY) % 7) + 7) % 7;
}

function isWeekend(dayNumber: number): boolean {
  const weekday = weekdayOf(dayNumber);
  return weekday === SATURDAY || weekday === SUNDAY;
}

function daysInMonth(year: number, month: number): number {
  return dayNumberFromCivil(month === 12 ? year + 1 : year, month === 12 ? 1 : month + 1, 1) - dayNumberFromCivil(year, month, 1);
}

function describeValue(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** 'YYYY-MM-DD' -> day number; a RangeError naming the argument when it is not a real date. */
function parseDate(value: unknown, label: string): number {
  const match = typeof value === 'string' ? DATE_PATTERN.exec(value) : null;
  if (match) {
    const year = Number(match[1]);
    const month = Number(match[2]);
    const day = Number(match[3]);
    if (year >= MIN_YEAR && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month)) {
      return dayNumberFromCivil(year, month, day);
    }
  }
  throw new RangeError(`${label} must be a real calendar date written YYYY-MM-DD (years 0001-9999), got ${describeValue(value)}`);
}

function formatDayNumber(dayNumber: number): string {
  if (dayNumber < FIRST_DAY_NUMBER || dayNumber > LAST_DAY_NUMBER) {
    throw new RangeError(`date out of the supported range 0001-01-01..9999-12-31 (day number ${dayNumber})`);
  }
  const { year, month, day } = civilFromDayNumber(dayNumber);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The n-th (1-based) given weekday of a month. */
function nthWeekdayOfMonth(year: number, month: number, weekday: number, n: number): number {
  const first = dayNumberFromCivil(year, month, 1);
  return first + ((weekday - weekdayOf(first) + 7) % 7) + 7 * (n - 1);
}

function lastWeekdayOfMonth(year: number, month: number, weekday: number): number {
  const last = dayNumberFromCivil(year, month, daysInMonth(year, month));
  return last - ((weekdayOf(last) - weekday + 7) % 7);
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
  const weekday = weekdayOf(nominal);
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
    extraDayNumbers: new Set(extraDates.map((date, index) => parseDate(date, `calendar.extraDates[${index}]`))),
    removedDayNumbers: new Set(removedDates.map((date, index) => parseDate(date, `calendar.removedDates[${index}]`))),
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
    dates: [...reasons.keys()].sort((a, b) => a - b).map(formatDayNumber),
    reasons,
  };
  compiled.years.set(year, result);
  return result;
}

/** Why a day is not a business day (weekend first), or null when it is one. */
function closedReason(compiled: CompiledCalendar, dayNumber: number): string | null {
  const weekday = weekdayOf(dayNumber);
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
  const dayNumber = parseDate(date, 'date');
  return isBusinessDayNumber(compileCalendar(calendar), dayNumber);
}

/**
 * Null for a business day; otherwise why not, worded to follow "it is": 'a Saturday',
 * 'Thanksgiving (carrier holiday)', 'Christmas Day (observed, carrier holiday)'.
 */
export function businessDayReason(date: string, calendar: HolidayCalendar): string | null {
  const dayNumber = parseDate(date, 'date');
  return closedReason(compileCalendar(calendar), dayNumber);
}

/** The first business day strictly after date. */
export function nextBusinessDay(date: string, calendar: HolidayCalendar): string {
  return formatDayNumber(addBusinessDayNumbers(parseDate(date, 'date'), 1, compileCalendar(calendar)));
}

function assertDayCount(value: unknown, label: string): asserts value is number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${label} must be a whole number of business days >= 0, got ${describeValue(value)}`);
  }
}

/** 0 -> pickupDate itself (even when it is not a business day); n -> the n-th business day after it. */
export function addBusinessDays(pickupDate: string, businessDays: number, calendar: HolidayCalendar): string {
  const pickup = parseDate(pickupDate, 'pickupDate');
  assertDayCount(businessDays, 'businessDays');
  return formatDayNumber(addBusinessDayNumbers(pickup, businessDays, compileCalendar(calendar)));
}

function addBusinessDayNumbers(start: number, businessDays: number, compiled: CompiledCalendar): number {
  let dayNumber = start;
  let remaining = businessDays;
  while (remaining > 0) {
    dayNumber += 1;
    if (dayNumber > LAST_DAY_NUMBER) {
      throw new RangeError(`${formatDayNumber(start)} + ${businessDays} business days is past 9999-12-31`);
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
  const pickup = parseDate(pickupDate, 'pickupDate');
  const delivery = parseDate(deliveryDate, 'deliveryDate');
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
// Time zones

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

function offsetFormatter(timeZone: unknown): Intl.DateTimeFormat {
  if (typeof timeZone !== 'string' || timeZone === '') {
    throw new RangeError(`timeZone must be an IANA time zone name such as America/Chicago, got ${describeValue(timeZone)}`);
  }
  let formatter = offsetFormatters.get(timeZone);
  if (!formatter) {
    try {
      // 'longOffset' names the UTC offset directly ('GMT-05:00'), so no wall-clock parts (and no
      // era or two-digit-year quirks) have to be taken apart.
      formatter = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
    } catch (error) {
      if (error instanceof RangeError) {
        throw new RangeError(`unknown time zone ${describeValue(timeZone)}: expected an IANA name such as America/Chicago`, { cause: error });
      }
      throw error;
    }
    offsetFormatters.set(timeZone, formatter);
  }
  return formatter;
}

const OFFSET_PATTERN = /^GMT(?:([+-])(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?)?$/;

/** The zone's UTC offset in ms at an instant (local wall clock = instant + offset). */
/**
 * Offsets per zone and quarter hour: a batch asks for thousands of instants minutes apart, and
 * formatToParts costs ~30 µs. Zones change offset on quarter-hour UTC instants (true of every
 * zone's rules since the 1970s; the API only takes dates from today on).
 */
const offsetMemo = new WeakMap<Intl.DateTimeFormat, Map<number, number>>();
const QUARTER_HOUR_MS = 900_000;
const OFFSET_MEMO_LIMIT = 10_000;

function offsetMsAt(epochMs: number, formatter: Intl.DateTimeFormat): number {
  let memo = offsetMemo.get(formatter);
  if (!memo) offsetMemo.set(formatter, (memo = new Map()));
  const quarter = Math.floor(epochMs / QUARTER_HOUR_MS);
  let offset = memo.get(quarter);
  if (offset === undefined) {
    if (memo.size >= OFFSET_MEMO_LIMIT) memo.clear();
    offset = readOffsetMs(epochMs, formatter);
    memo.set(quarter, offset);
  }
  return offset;
}

function readOffsetMs(epochMs: number, formatter: Intl.DateTimeFormat): number {
  const name = formatter.formatToParts(epochMs).find((part) => part.type === 'timeZoneName')?.value ?? '';
  const match = OFFSET_PATTERN.exec(name);
  if (!match) throw new Error(`cannot read the UTC offset from ${JSON.stringify(name)}`);
  const [, sign, hours, minutes, seconds] = match;
  if (sign === undefined) return 0; // plain 'GMT'
  const magnitude = (Number(hours) * 3600 + Number(minutes ?? 0) * 60 + Number(seconds ?? 0)) * 1000;
  return sign === '-' ? -magnitude : magnitude;
}

/**
 * The date a document prints for an instant: the calendar date where it happens (an ETA at the
 * destination, a booking or a cancellation at the origin), the UTC date only when the place's zone
 * is unknown.
 */
export function placeDateOf(instant: string, timeZone: string | null | undefined): string {
  return timeZone ? localDateInZone(new Date(instant), timeZone) : instant.slice(0, 10);
}

/** The calendar date at that instant in an IANA zone. */
export function localDateInZone(instant: Date, timeZone: string): string {
  if (!(instant instanceof Date) || Number.isNaN(instant.getTime())) {
    throw new RangeError(`instant must be a valid Date, got ${describeValue(instant)}`);
  }
  const epochMs = instant.getTime();
  const localMs = epochMs + offsetMsAt(epochMs, offsetFormatter(timeZone));
  return formatDayNumber(Math.floor(localMs / MS_PER_DAY));
}

const TIME_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Memo of zonedTimeToUtc (epoch ms): a batch asks for the same few (zone, day, cut-off) triples. */
const zonedInstantCache = new Map<string, number>();
const ZONED_INSTANT_CACHE_LIMIT = 20_000;

/**
 * A wall-clock time in a zone -> the UTC instant. Wall times that do not exist or exist twice are
 * resolved like JavaScript's Date and Temporal's 'compatible' disambiguation:
 * - in a DST gap (clocks jump forward) the time is moved forward by the length of the gap, i.e. read
 *   with the offset in force before the change: 02:30 on 2026-03-08 in America/New_York does not
 *   exist and gives 07:30Z (03:30 EDT);
 * - in an overlap (clocks fall back) the earlier instant wins, i.e. the offset in force before the
 *   change: 01:30 on 2026-11-01 in America/New_York gives 05:30Z (01:30 EDT), not 06:30Z.
 */
export function zonedTimeToUtc(date: string, time: string, timeZone: string): Date {
  const dayNumber = parseDate(date, 'date');
  const timeMatch = typeof time === 'string' ? TIME_PATTERN.exec(time) : null;
  if (!timeMatch) throw new RangeError(`time must be a wall-clock time written HH:MM (00:00-23:59), got ${describeValue(time)}`);
  const formatter = offsetFormatter(timeZone);

  const cacheKey = `${timeZone}\u0000${date}T${time}`;
  const cached = zonedInstantCache.get(cacheKey);
  if (cached !== undefined) return new Date(cached);

  const wallMs = dayNumber * MS_PER_DAY + (Number(timeMatch[1]) * 60 + Number(timeMatch[2])) * 60_000;
  // Real offsets are within a day of UTC, so the offsets a day either side of the wall time are
  // those before and after any transition that could touch it.
  const offsetBefore = offsetMsAt(wallMs - MS_PER_DAY, formatter);
  const offsetAfter = offsetMsAt(wallMs + MS_PER_DAY, formatter);
  let epochMs = wallMs - offsetBefore; // right for a plain day, an overlap (earlier instant) and a gap
  if (offsetBefore !== offsetAfter && offsetMsAt(epochMs, formatter) !== offsetBefore) {
    const readWithAfter = wallMs - offsetAfter;
    // Not valid with the old offset: the wall time is after the change (valid with the new offset)
    // or inside the gap, where the old offset is kept on purpose (moved forward by the gap).
    if (offsetMsAt(readWithAfter, formatter) === offsetAfter) epochMs = readWithAfter;
  }

  if (zonedInstantCache.size >= ZONED_INSTANT_CACHE_LIMIT) zonedInstantCache.clear();
  zonedInstantCache.set(cacheKey, epochMs);
  return new Date(epochMs);
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
