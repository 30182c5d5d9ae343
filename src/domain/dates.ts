/**
 * Calendar dates, the one home of their rules (domain, CLI, import and audit use it):
 * - dates 'YYYY-MM-DD' as day numbers (days since 1970-01-01 in the proleptic Gregorian calendar),
 *   so that nothing depends on the machine's time zone: validation, adding days, weekdays;
 * - the date at an instant in an IANA zone, and a zone's wall-clock time as an instant;
 * - dates in people's words both ways: `tomorrow`, `friday`, `+3`, `11/27`, `Nov 27` or
 *   `2026-11-27` read as a date, and dates shown as people say them ("tomorrow", "Fri Nov 27").
 * Pure: "today" and every instant are passed in. Arithmetic covers the years 0001-9999; a date
 * read from a person, a file, a carrier or a request is a year from 1000 (0026 is a typo).
 */

// ---------------------------------------------------------------------------------------------
// Day numbers

const MS_PER_DAY = 86_400_000;
export const MIN_YEAR = 1;
export const MAX_YEAR = 9999;
/** The first year of a date read (from people, files, carriers, requests). */
const FIRST_READ_YEAR = 1000;

/** Days since 1970-01-01 (H. Hinnant's days_from_civil); integer maths, valid for any year >= 0. */
export function dayNumberFromCivil(year: number, month: number, day: number): number {
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
export const LAST_DAY_NUMBER = dayNumberFromCivil(MAX_YEAR, 12, 31);

export function yearOfDayNumber(dayNumber: number): number {
  return civilFromDayNumber(dayNumber).year;
}

/** 0 = Sunday ... 6 = Saturday; 1970-01-01 was a Thursday (4). */
export function weekdayOfDayNumber(dayNumber: number): number {
  return (((dayNumber + 4) % 7) + 7) % 7;
}

export function daysInMonth(year: number, month: number): number {
  return dayNumberFromCivil(month === 12 ? year + 1 : year, month === 12 ? 1 : month + 1, 1) - dayNumberFromCivil(year, month, 1);
}

/** A value as a message quotes it: strings in quotes, anything else as it prints. */
export function describeValue(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

/** How a date is written: YYYY-MM-DD (whether it is a real one is isCalendarDate's call). */
export const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

const isRealDay = (year: number, month: number, day: number): boolean =>
  Number.isInteger(year) && Number.isInteger(month) && Number.isInteger(day) && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);

/** 'YYYY-MM-DD' -> day number; a RangeError naming the argument (`label`) when it is not a real date. */
export function dayNumberOf(value: unknown, label = 'date'): number {
  const match = typeof value === 'string' ? DATE_PATTERN.exec(value) : null;
  if (match) {
    const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
    if (year >= MIN_YEAR && isRealDay(year, month, day)) return dayNumberFromCivil(year, month, day);
  }
  throw new RangeError(`${label} must be a real calendar date written YYYY-MM-DD (years 0001-9999), got ${describeValue(value)}`);
}

/** Day number -> 'YYYY-MM-DD'; a RangeError outside 0001-01-01..9999-12-31. */
export function dateOfDayNumber(dayNumber: number): string {
  if (!Number.isSafeInteger(dayNumber) || dayNumber < FIRST_DAY_NUMBER || dayNumber > LAST_DAY_NUMBER) {
    throw new RangeError(`date out of the supported range 0001-01-01..9999-12-31 (day number ${dayNumber})`);
  }
  const { year, month, day } = civilFromDayNumber(dayNumber);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

// ---------------------------------------------------------------------------------------------
// Dates: validation and arithmetic

/** The date of a year, month and day when it is a real one (years 1000-9999: 2/30 and 0026 are not). */
export function calendarDate(year: number, month: number, day: number): string | undefined {
  if (!Number.isInteger(year) || year < FIRST_READ_YEAR || year > MAX_YEAR || !isRealDay(year, month, day)) return undefined;
  return dateOfDayNumber(dayNumberFromCivil(year, month, day));
}

/** True for a real calendar date written YYYY-MM-DD, years 1000-9999. */
export function isCalendarDate(text: string): boolean {
  const match = DATE_PATTERN.exec(text);
  return match !== null && calendarDate(Number(match[1]), Number(match[2]), Number(match[3])) !== undefined;
}

export function addDays(date: string, days: number): string {
  if (!Number.isSafeInteger(days)) throw new RangeError(`days must be a whole number, got ${describeValue(days)}`);
  return dateOfDayNumber(dayNumberOf(date) + days);
}

/** Calendar days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return dayNumberOf(to, 'to') - dayNumberOf(from, 'from');
}

/** 0 = Sunday ... 6 = Saturday. */
export function weekdayOf(date: string): number {
  return weekdayOfDayNumber(dayNumberOf(date));
}

/** The UTC date of an instant: the day the lists and the API's since/until count in. */
export function utcDateOf(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

// ---------------------------------------------------------------------------------------------
// Time zones

/**
 * A zone's UTC offsets and en-US short names ("EST", "GMT+9") over a span of instants, exactly as
 * Intl gives them: the build writes one for each zone of the ZIP geodata (scripts/zoneTransitions.mjs).
 * The first Intl.DateTimeFormat of a process costs about 15 ms (ICU's zone, calendar and pattern
 * data), more than the rest of a quote's dates; a command that reads its zone's periods from a
 * small file never pays it.
 */
export interface ZoneTransitions {
  timeZone: string;
  /** The instants covered (epoch ms): from <= instant < until. */
  from: number;
  until: number;
  /** In order, the first starting at `from`: when the period starts (epoch ms), its UTC offset (ms) and short name. */
  periods: ReadonlyArray<readonly [start: number, offsetMs: number, name: string]>;
}

/** A zone's transitions, or undefined when there are none for it (Intl then answers). */
export type ZoneTransitionSource = (timeZone: string) => ZoneTransitions | undefined;

/** A zone as this module reads it: its transitions when known, Intl for the instants they do not cover. */
interface Zone {
  name: string;
  transitions: ZoneTransitions | undefined;
  /** Built on first use: 'longOffset' names the UTC offset directly ('GMT-05:00'), no wall-clock parts to take apart. */
  offsetFormat: Intl.DateTimeFormat | undefined;
  /**
   * Intl's offsets per quarter hour: a batch asks for thousands of instants minutes apart, and
   * formatToParts costs ~30 µs. Zones change offset on quarter-hour UTC instants (true of every
   * zone's rules since the 1970s; the API only takes dates from today on).
   */
  offsetMemo: Map<number, number>;
}

let transitionSource: ZoneTransitionSource = () => undefined;
const zones = new Map<string, Zone>();

/**
 * Where zones' transitions come from: the CLI reads the build's files (src/geo/zoneTransitions.ts).
 * Without a source, every offset and name comes from Intl; with one, the same ones, sooner.
 */
export function useZoneTransitions(source: ZoneTransitionSource): void {
  transitionSource = source;
  zones.clear();
  zonedInstantCache.clear();
}

/** Zones named so far (a name Intl refuses too, so that its file is looked for once). */
const ZONE_LIMIT = 1000;

function zoneEntry(timeZone: string): Zone {
  let zone = zones.get(timeZone);
  if (!zone) {
    if (zones.size >= ZONE_LIMIT) zones.clear();
    zone = { name: timeZone, transitions: transitionSource(timeZone), offsetFormat: undefined, offsetMemo: new Map() };
    zones.set(timeZone, zone);
  }
  return zone;
}

function zoneNamed(timeZone: unknown): Zone {
  if (typeof timeZone !== 'string' || timeZone === '') {
    throw new RangeError(`timeZone must be an IANA time zone name such as America/Chicago, got ${describeValue(timeZone)}`);
  }
  const zone = zoneEntry(timeZone);
  // A zone without transitions is checked now, so that an unknown one is refused before any instant.
  if (!zone.transitions) offsetFormatOf(zone);
  return zone;
}

/** True for a zone that has transitions or that Intl knows. */
export function isTimeZone(timeZone: string): boolean {
  try {
    zoneNamed(timeZone);
    return true;
  } catch (error) {
    if (error instanceof RangeError) return false;
    throw error;
  }
}

function offsetFormatOf(zone: Zone): Intl.DateTimeFormat {
  try {
    return (zone.offsetFormat ??= new Intl.DateTimeFormat('en-US', { timeZone: zone.name, timeZoneName: 'longOffset' }));
  } catch (error) {
    if (error instanceof RangeError) {
      throw new RangeError(`unknown time zone ${describeValue(zone.name)}: expected an IANA name such as America/Chicago`, { cause: error });
    }
    throw error;
  }
}

/** The period of the zone's transitions at an instant, undefined outside them. */
function periodAt(zone: Zone, epochMs: number): readonly [start: number, offsetMs: number, name: string] | undefined {
  const transitions = zone.transitions;
  if (!transitions || !(epochMs >= transitions.from && epochMs < transitions.until)) return undefined;
  const { periods } = transitions;
  let low = 0;
  let high = periods.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (periods[middle]![0] <= epochMs) low = middle;
    else high = middle - 1;
  }
  return periods[low];
}

const QUARTER_HOUR_MS = 900_000;
const OFFSET_MEMO_LIMIT = 10_000;

/** The zone's UTC offset in ms at an instant (local wall clock = instant + offset). */
function offsetMsAt(epochMs: number, zone: Zone): number {
  const period = periodAt(zone, epochMs);
  if (period) return period[1];
  const memo = zone.offsetMemo;
  const quarter = Math.floor(epochMs / QUARTER_HOUR_MS);
  let offset = memo.get(quarter);
  if (offset === undefined) {
    if (memo.size >= OFFSET_MEMO_LIMIT) memo.clear();
    offset = readOffsetMs(epochMs, offsetFormatOf(zone));
    memo.set(quarter, offset);
  }
  return offset;
}

const OFFSET_PATTERN = /^GMT(?:([+-])(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?)?$/;

function readOffsetMs(epochMs: number, formatter: Intl.DateTimeFormat): number {
  const name = formatter.formatToParts(epochMs).find((part) => part.type === 'timeZoneName')?.value ?? '';
  const match = OFFSET_PATTERN.exec(name);
  if (!match) throw new Error(`cannot read the UTC offset from ${JSON.stringify(name)}`);
  const [, sign, hours, minutes, seconds] = match;
  if (sign === undefined) return 0; // plain 'GMT'
  const magnitude = (Number(hours) * 3600 + Number(minutes ?? 0) * 60 + Number(seconds ?? 0)) * 1000;
  return sign === '-' ? -magnitude : magnitude;
}

/** An instant as a zone's clocks show it, with the zone's UTC offset and en-US short name then. */
export interface WallClock {
  /** YYYY-MM-DD */
  date: string;
  /** "17:00:00" */
  time: string;
  offsetMs: number;
  /** "EST", "CDT", "GMT+9", "UTC": what Intl's timeZoneName 'short' writes in en-US. */
  zoneName: string;
}

/**
 * The wall clock in a zone at an instant that the zone's transitions cover; undefined for any
 * other instant or zone (and an invalid Date), which the caller formats with Intl.
 */
export function tabulatedWallClock(instant: Date, timeZone: string): WallClock | undefined {
  if (typeof timeZone !== 'string' || timeZone === '') return undefined;
  const epochMs = instant.getTime();
  const period = periodAt(zoneEntry(timeZone), epochMs);
  if (!period) return undefined;
  const localMs = epochMs + period[1];
  const dayNumber = Math.floor(localMs / MS_PER_DAY);
  const seconds = Math.floor((localMs - dayNumber * MS_PER_DAY) / 1000);
  const two = (value: number) => String(value).padStart(2, '0');
  const time = `${two(Math.floor(seconds / 3600))}:${two(Math.floor(seconds / 60) % 60)}:${two(seconds % 60)}`;
  return { date: dateOfDayNumber(dayNumber), time, offsetMs: period[1], zoneName: period[2] };
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
  const localMs = epochMs + offsetMsAt(epochMs, zoneNamed(timeZone));
  return dateOfDayNumber(Math.floor(localMs / MS_PER_DAY));
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
  const dayNumber = dayNumberOf(date, 'date');
  const timeMatch = typeof time === 'string' ? TIME_PATTERN.exec(time) : null;
  if (!timeMatch) throw new RangeError(`time must be a wall-clock time written HH:MM (00:00-23:59), got ${describeValue(time)}`);
  const zone = zoneNamed(timeZone);

  const cacheKey = `${timeZone}\u0000${date}T${time}`;
  const cached = zonedInstantCache.get(cacheKey);
  if (cached !== undefined) return new Date(cached);

  const wallMs = dayNumber * MS_PER_DAY + (Number(timeMatch[1]) * 60 + Number(timeMatch[2])) * 60_000;
  // Real offsets are within a day of UTC, so the offsets a day either side of the wall time are
  // those before and after any transition that could touch it.
  const offsetBefore = offsetMsAt(wallMs - MS_PER_DAY, zone);
  const offsetAfter = offsetMsAt(wallMs + MS_PER_DAY, zone);
  let epochMs = wallMs - offsetBefore; // right for a plain day, an overlap (earlier instant) and a gap
  if (offsetBefore !== offsetAfter && offsetMsAt(epochMs, zone) !== offsetBefore) {
    const readWithAfter = wallMs - offsetAfter;
    // Not valid with the old offset: the wall time is after the change (valid with the new offset)
    // or inside the gap, where the old offset is kept on purpose (moved forward by the gap).
    if (offsetMsAt(readWithAfter, zone) === offsetAfter) epochMs = readWithAfter;
  }

  if (zonedInstantCache.size >= ZONED_INSTANT_CACHE_LIMIT) zonedInstantCache.clear();
  zonedInstantCache.set(cacheKey, epochMs);
  return new Date(epochMs);
}

// ---------------------------------------------------------------------------------------------
// Dates in people's words

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
const WEEKDAY_ALIASES: Record<string, number> = {
  sun: 0,
  mon: 1,
  tue: 2,
  tues: 2,
  wed: 3,
  thu: 4,
  thur: 4,
  thurs: 4,
  fri: 5,
  sat: 6,
};
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'] as const;
const SHORT_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const SHORT_WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;

export const DATE_EXAMPLES = '2026-11-27, tomorrow, friday, +3, 11/27 or Nov 27';

export type ParsedDate = { ok: true; date: string } | { ok: false; message: string };

/**
 * A month and day without a year: the nearest such date, last, this or next year's. `1/4` typed
 * in late November is next January's; `11/23` typed on November 24 is yesterday, which the pickup
 * checks refuse as past (as they refuse `11/23/2026`), never a pickup 364 days away. Whichever is
 * nearer wins; at an equal distance, the future one.
 */
function upcoming(month: number, day: number, today: string): string | undefined {
  const year = Number(today.slice(0, 4));
  const distance = (date: string) => Math.abs(daysBetween(today, date));
  // Last year's, this year's and next year's (those that exist: Feb 29), the future first so that it wins a tie.
  const candidates = [year, year + 1, year - 1].map((candidate) => calendarDate(candidate, month, day)).filter((date): date is string => date !== undefined);
  return candidates.sort((a, b) => distance(a) - distance(b) || (a >= today ? -1 : 1))[0];
}

function monthIndex(word: string): number | undefined {
  const lower = word.toLowerCase().replace(/\.$/, '');
  if (lower.length < 3) return undefined;
  const index = MONTHS.findIndex((month) => month.startsWith(lower));
  return index === -1 ? undefined : index + 1;
}

const fullYear = (text: string): number => (text.length === 2 ? 2000 + Number(text) : Number(text));

/**
 * Reads a date the way people type it; `today` is YYYY-MM-DD. A weekday is the next one (a pickup),
 * or with `past` the last one (`--since friday` in a list).
 */
export function parseUserDate(input: string, today: string, options: { past?: boolean } = {}): ParsedDate {
  const text = input.trim().toLowerCase().replace(/\s+/g, ' ');
  const fail: ParsedDate = { ok: false, message: `cannot read "${input.trim()}" as a date; write e.g. ${DATE_EXAMPLES}` };
  if (text === '') return fail;
  let match: RegExpExecArray | null;
  if ((match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text))) {
    const date = calendarDate(Number(match[1]), Number(match[2]), Number(match[3]));
    return date ? { ok: true, date } : { ok: false, message: `${input.trim()} is not a real calendar date` };
  }
  if (text === 'today') return { ok: true, date: today };
  if (text === 'tomorrow' || text === 'tmrw') return { ok: true, date: addDays(today, 1) };
  if (text === 'yesterday') return { ok: true, date: addDays(today, -1) };
  if ((match = /^(?:\+ ?(\d{1,3})|in (\d{1,3}) days?)$/.exec(text))) return { ok: true, date: addDays(today, Number(match[1] ?? match[2])) };
  if ((match = /^(?:- ?(\d{1,3})|(\d{1,3}) days? ago)$/.exec(text))) return { ok: true, date: addDays(today, -Number(match[1] ?? match[2])) };
  if ((match = /^(next |this |last )?([a-z]+)$/.exec(text))) {
    const word = match[2]!;
    const weekday = WEEKDAYS.indexOf(word as (typeof WEEKDAYS)[number]) !== -1 ? WEEKDAYS.indexOf(word as (typeof WEEKDAYS)[number]) : WEEKDAY_ALIASES[word];
    if (weekday !== undefined) {
      // "friday" on a Friday means the one a week later (or before): today is written "today".
      if (options.past || match[1] === 'last ') return { ok: true, date: addDays(today, -((weekdayOf(today) - weekday + 7) % 7 || 7)) };
      const ahead = (weekday - weekdayOf(today) + 7) % 7 || 7;
      return { ok: true, date: addDays(today, ahead) };
    }
    return fail;
  }
  if ((match = /^(\d{1,2})\/(\d{1,2})(?:\/(\d{2}|\d{4}))?$/.exec(text))) {
    const [month, day] = [Number(match[1]), Number(match[2])];
    const date = match[3] ? calendarDate(fullYear(match[3]), month, day) : upcoming(month, day, today);
    return date ? { ok: true, date } : { ok: false, message: `${input.trim()} is not a real calendar date (month/day)` };
  }
  // "Nov 27", "November 27, 2026", "27 Nov", "27 November 2026"
  if ((match = /^([a-z]+\.?) (\d{1,2})(?:,? (\d{4}))?$/.exec(text)) || (match = /^(\d{1,2}) ([a-z]+\.?)(?:,? (\d{4}))?$/.exec(text))) {
    const [first, second] = [match[1]!, match[2]!];
    const monthFirst = /^[a-z]/.test(first);
    const month = monthIndex(monthFirst ? first : second);
    const day = Number(monthFirst ? second : first);
    if (month === undefined) return fail;
    const date = match[3] ? calendarDate(Number(match[3]), month, day) : upcoming(month, day, today);
    return date ? { ok: true, date } : { ok: false, message: `${input.trim()} is not a real calendar date` };
  }
  return fail;
}

/** "today", "tomorrow" or "yesterday" when the date is one of those, else null. */
export function relativeDay(date: string, today: string): string | null {
  const offset = daysBetween(today, date);
  return offset === 0 ? 'today' : offset === 1 ? 'tomorrow' : offset === -1 ? 'yesterday' : null;
}

/** "today", "tomorrow", "yesterday", else "Fri Nov 27" (with the year when it is not this year's). */
export function describeDate(date: string, today: string): string {
  const offset = daysBetween(today, date);
  if (offset === 0) return 'today';
  if (offset === 1) return 'tomorrow';
  if (offset === -1) return 'yesterday';
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const text = `${SHORT_WEEKDAYS[weekdayOf(date)]} ${SHORT_MONTHS[month - 1]} ${day}`;
  return year === Number(today.slice(0, 4)) ? text : `${text}, ${year}`;
}

/** "Mon 2026-11-23" */
export function formatDate(date: string): string {
  return `${SHORT_WEEKDAYS[weekdayOf(date)]} ${date}`;
}
