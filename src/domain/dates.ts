/**
 * Dates in the user's words, both ways: `tomorrow`, `friday`, `+3`, `11/27`, `Nov 27` or
 * `2026-11-27` read as a YYYY-MM-DD date; and dates shown as people say them ("tomorrow",
 * "Fri Nov 27"). Pure: "today" is always passed in (the caller's clock and the origin's zone).
 */

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
const MS_PER_DAY = 86_400_000;

export const DATE_EXAMPLES = '2026-11-27, tomorrow, friday, +3, 11/27 or Nov 27';

export type ParsedDate = { ok: true; date: string } | { ok: false; message: string };

const epochDay = (date: string): number => Date.parse(`${date}T00:00:00Z`) / MS_PER_DAY;
const fromEpochDay = (day: number): string => new Date(day * MS_PER_DAY).toISOString().slice(0, 10);

export function addDays(date: string, days: number): string {
  return fromEpochDay(epochDay(date) + days);
}

export function weekdayOf(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

function realDate(year: number, month: number, day: number): string | undefined {
  if (!Number.isInteger(year) || year < 1000 || year > 9999) return undefined;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return date.toISOString().slice(0, 10);
}

/**
 * A month and day without a year: the nearest such date, last, this or next year's. `1/4` typed
 * in late November is next January's; `11/23` typed on November 24 is yesterday, which the pickup
 * checks refuse as past (as they refuse `11/23/2026`), never a pickup 364 days away. Whichever is
 * nearer wins; at an equal distance, the future one.
 */
function upcoming(month: number, day: number, today: string): string | undefined {
  const year = Number(today.slice(0, 4));
  const distance = (date: string) => Math.abs(epochDay(date) - epochDay(today));
  // Last year's, this year's and next year's (those that exist: Feb 29), the future first so that it wins a tie.
  const candidates = [year, year + 1, year - 1].map((candidate) => realDate(candidate, month, day)).filter((date): date is string => date !== undefined);
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
    const date = realDate(Number(match[1]), Number(match[2]), Number(match[3]));
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
    const date = match[3] ? realDate(fullYear(match[3]), month, day) : upcoming(month, day, today);
    return date ? { ok: true, date } : { ok: false, message: `${input.trim()} is not a real calendar date (month/day)` };
  }
  // "Nov 27", "November 27, 2026", "27 Nov", "27 November 2026"
  if ((match = /^([a-z]+\.?) (\d{1,2})(?:,? (\d{4}))?$/.exec(text)) || (match = /^(\d{1,2}) ([a-z]+\.?)(?:,? (\d{4}))?$/.exec(text))) {
    const [first, second] = [match[1]!, match[2]!];
    const monthFirst = /^[a-z]/.test(first);
    const month = monthIndex(monthFirst ? first : second);
    const day = Number(monthFirst ? second : first);
    if (month === undefined) return fail;
    const date = match[3] ? realDate(Number(match[3]), month, day) : upcoming(month, day, today);
    return date ? { ok: true, date } : { ok: false, message: `${input.trim()} is not a real calendar date` };
  }
  return fail;
}

/** "today", "tomorrow" or "yesterday" when the date is one of those, else null. */
export function relativeDay(date: string, today: string): string | null {
  const offset = epochDay(date) - epochDay(today);
  return offset === 0 ? 'today' : offset === 1 ? 'tomorrow' : offset === -1 ? 'yesterday' : null;
}

/** "today", "tomorrow", "yesterday", else "Fri Nov 27" (with the year when it is not this year's). */
export function describeDate(date: string, today: string): string {
  const offset = epochDay(date) - epochDay(today);
  if (offset === 0) return 'today';
  if (offset === 1) return 'tomorrow';
  if (offset === -1) return 'yesterday';
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const text = `${SHORT_WEEKDAYS[weekdayOf(date)]} ${SHORT_MONTHS[month - 1]} ${day}`;
  return year === Number(today.slice(0, 4)) ? text : `${text}, ${year}`;
}
