/**
 * When a carrier's event happened, PURE: carriers write the local date and time at the place of the
 * event (X12 AT705/AT706, with AT707 naming the zone or LT for local time; ITV with a UTC offset),
 * and shipper keeps the instant in UTC. The zone of a place is looked up by the caller (ZIP
 * geodata); here a wall time and a zone, or an offset, become an instant, across DST changes
 * (zonedTimeToUtc's rules: a time in the spring gap moves forward, one in the autumn overlap is
 * the earlier instant).
 */
import { DATE_PATTERN, isCalendarDate, zonedTimeToUtc } from './dates.js';

/** A carrier's local date and time: YYYY-MM-DD and HH:MM[:SS] (null: no time given). */
export interface LocalStamp {
  date: string;
  time: string | null;
}

/** The zone a time is written in: an IANA zone (DST applies), or a fixed offset from UTC in minutes. */
export type WrittenZone = { timeZone: string } | { offsetMinutes: number };

/**
 * X12 time codes (element 623) that name a zone. ET/CT/MT/PT follow the zone's DST; the S and D
 * codes are its standard and daylight offsets, whatever the date; UT/GM are UTC. LT (local time)
 * is `local`: the zone of the event's place.
 */
const X12_TIME_CODES: Readonly<Record<string, WrittenZone | 'local'>> = {
  LT: 'local',
  UT: { offsetMinutes: 0 },
  GM: { offsetMinutes: 0 },
  ET: { timeZone: 'America/New_York' },
  CT: { timeZone: 'America/Chicago' },
  MT: { timeZone: 'America/Denver' },
  PT: { timeZone: 'America/Los_Angeles' },
  AT: { timeZone: 'America/Halifax' },
  HT: { timeZone: 'Pacific/Honolulu' },
  NT: { timeZone: 'America/St_Johns' },
  ED: { offsetMinutes: -240 },
  ES: { offsetMinutes: -300 },
  CD: { offsetMinutes: -300 },
  CS: { offsetMinutes: -360 },
  MD: { offsetMinutes: -360 },
  MS: { offsetMinutes: -420 },
  PD: { offsetMinutes: -420 },
  PS: { offsetMinutes: -480 },
  AD: { offsetMinutes: -180 },
  AS: { offsetMinutes: -240 },
  HS: { offsetMinutes: -600 },
};

/** The zone an X12 time code names; `local` for LT or no code; undefined for a code not known. */
export function zoneOfX12TimeCode(code: string): WrittenZone | 'local' | undefined {
  const trimmed = code.trim().toUpperCase();
  if (trimmed === '') return 'local';
  return X12_TIME_CODES[trimmed];
}

/**
 * An ITV `TimeZoneOfShipment` ("the time in UTC (-X format)"): "-5", "-05:00", "UTC-5", "-0500",
 * "+5:30" -> minutes east of UTC; undefined when it is not an offset of at most 14 hours.
 */
export function parseUtcOffset(text: string): number | undefined {
  const match = /^\s*(?:UTC|GMT)?\s*([+-])?\s*(\d{1,2})(?::?(\d{2}))?\s*$/i.exec(text);
  if (!match) return undefined;
  const minutes = Number(match[2]) * 60 + Number(match[3] ?? 0);
  if (minutes > 14 * 60 || Number(match[3] ?? 0) >= 60) return undefined;
  return match[1] === '-' ? -minutes : minutes;
}

/** A fixed whole-hour offset as the IANA zone that keeps it (Etc/GMT+5 is UTC-5); null otherwise. */
export function zoneOfFixedOffset(offsetMinutes: number): string | null {
  if (offsetMinutes === 0) return 'UTC';
  if (offsetMinutes % 60 !== 0) return null;
  const hours = -offsetMinutes / 60;
  return `Etc/GMT${hours > 0 ? '+' : ''}${hours}`;
}

const TIME = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/;

/** The instant of a local stamp in a zone; a stamp without a time is read at noon (the caller says so). */
export function instantOf(stamp: LocalStamp, zone: WrittenZone): Date {
  if (!DATE_PATTERN.test(stamp.date)) throw new RangeError(`${JSON.stringify(stamp.date)} is not a date YYYY-MM-DD`);
  if (!isCalendarDate(stamp.date)) throw new RangeError(`${stamp.date} is not a real calendar date`);
  const time = stamp.time ?? '12:00';
  const match = TIME.exec(time);
  if (!match) throw new RangeError(`${JSON.stringify(time)} is not a time HH:MM or HH:MM:SS`);
  const seconds = Number(match[3] ?? 0) * 1000;
  if ('timeZone' in zone) return new Date(zonedTimeToUtc(stamp.date, `${match[1]}:${match[2]}`, zone.timeZone).getTime() + seconds);
  const wall = Date.parse(`${stamp.date}T${match[1]}:${match[2]}:00Z`);
  return new Date(wall - zone.offsetMinutes * 60_000 + seconds);
}

/** X12 CCYYMMDD -> YYYY-MM-DD (checked against the calendar); null when it is not a date. */
export function x12Date(text: string): string | null {
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(text.trim());
  if (!match) return null;
  const iso = `${match[1]}-${match[2]}-${match[3]}`;
  return isCalendarDate(iso) ? iso : null;
}

/** X12 time HHMM[SS[D[D]]] -> HH:MM[:SS] (decimal seconds dropped); null when it is not a time. */
export function x12Time(text: string): string | null {
  const match = /^([01]\d|2[0-3])([0-5]\d)(?:([0-5]\d)\d{0,2})?$/.exec(text.trim());
  if (!match) return null;
  return match[3] ? `${match[1]}:${match[2]}:${match[3]}` : `${match[1]}:${match[2]}`;
}
