/**
 * Weekly DOE/EIA US on-highway diesel prices as files give them: EIA's CSV download of series
 * EMD_EPD2D_PTE_NUS_DPG (title lines, then `Date,<series name>` and rows `11/17/2025,3.818` or
 * `Nov 17, 2025,3.818`), or a CSV with the header `week,usdPerGallon` and rows `2026-11-16,3.712`.
 * A week is its Monday; a price is kept in mills (thousandths of a dollar). Pure: the caller
 * gives today's date, which bounds the weeks a file may carry.
 */
import { addDays, isCalendarDate } from '../dates.js';
import { mondayOnOrBefore } from './fuel.js';

export interface FuelWeekPrice {
  week: string;
  mills: number;
}

/** The first week of the DOE/EIA weekly on-highway diesel series (EMD_EPD2D_PTE_NUS_DPG): nothing older exists. */
export const FIRST_FUEL_WEEK = '1994-03-21';
/** The latest week a file may carry: a week after today (EIA publishes a week's price on its Monday or Tuesday). */
export const FUEL_WEEKS_AHEAD_DAYS = 7;
/** Weekly prices one file may carry: the whole series since 1994 is about 1,700 weeks. */
export const MAX_FUEL_WEEKS_PER_FILE = 5000;

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** `2026-11-16`, `11/16/2026`, `Nov 16, 2026` or `16-Nov-2026` as YYYY-MM-DD; undefined otherwise. */
function readDate(cell: string): string | undefined {
  const pad = (value: number) => String(value).padStart(2, '0');
  let match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(cell);
  let date: string | undefined;
  if (match) date = cell;
  else if ((match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(cell))) date = `${match[3]}-${pad(Number(match[1]))}-${pad(Number(match[2]))}`;
  else if ((match = /^([A-Za-z]{3})[a-z]*\.? (\d{1,2}),? (\d{4})$/.exec(cell))) {
    const month = MONTHS.indexOf(match[1]!.toLowerCase());
    if (month !== -1) date = `${match[3]}-${pad(month + 1)}-${pad(Number(match[2]))}`;
  } else if ((match = /^(\d{1,2})-([A-Za-z]{3})-(\d{4})$/.exec(cell))) {
    const month = MONTHS.indexOf(match[2]!.toLowerCase());
    if (month !== -1) date = `${match[3]}-${pad(month + 1)}-${pad(Number(match[1]))}`;
  }
  return date && isCalendarDate(date) ? date : undefined;
}

/** A cell as a fault quotes it: at most 40 characters. */
const shown = (cell: string): string => (cell.length > 40 ? `${cell.slice(0, 40)}…` : cell);

/** The cells of a CSV line (quoted cells may hold commas: `"Nov 17, 2025",3.818`). */
function cellsOf(line: string): string[] {
  return line.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/).map((cell) =>
    cell
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .trim(),
  );
}

/**
 * The weeks of a price file, and a fault per line that looks like data but is not (`line: message`):
 * a week before FIRST_FUEL_WEEK or more than a week after `today` is one. A file of more than
 * MAX_FUEL_WEEKS_PER_FILE data lines is refused at the first line past it, which comes first among
 * the faults; the lines after it are not read.
 */
export function parseFuelHistory(text: string, options: { today: string }): { weeks: FuelWeekPrice[]; faults: Array<{ line: number; message: string }> } {
  const weeks: FuelWeekPrice[] = [];
  const faults: Array<{ line: number; message: string }> = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const seen = new Map<string, number>();
  const latest = addDays(options.today, FUEL_WEEKS_AHEAD_DAYS);
  let dataLines = 0;
  lines.some((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return false;
    // Unquoted `Nov 17, 2025,3.818` splits in three: the first two cells are the date.
    let cells = cellsOf(raw);
    if (cells.length === 3 && /^[A-Za-z]{3}/.test(cells[0]!) && /^\d{4}$/.test(cells[1]!)) cells = [`${cells[0]}, ${cells[1]}`, cells[2]!];
    const [first = '', second = ''] = cells;
    // Title, source and header lines: the first cell starts with no digit and is no month name.
    const looksLikeData = /^\d/.test(first) || MONTHS.some((month) => first.toLowerCase().startsWith(month));
    if (!looksLikeData) return false;
    if (++dataLines > MAX_FUEL_WEEKS_PER_FILE) {
      faults.unshift({
        line,
        message: `more than ${MAX_FUEL_WEEKS_PER_FILE.toLocaleString('en-US')} weekly prices in one file (the whole series since 1994 is about 1,700 weeks): split the file`,
      });
      return true;
    }
    const fault = (message: string) => void faults.push({ line, message });
    const date = readDate(first);
    if (!date) return fault(`"${shown(first)}" is not a date (YYYY-MM-DD or MM/DD/YYYY)`);
    if (date < FIRST_FUEL_WEEK) return fault(`${date} is before ${FIRST_FUEL_WEEK}, the first week of the DOE/EIA weekly diesel series`);
    if (date > latest) return fault(`${date} is more than a week after today (${options.today}): no price is published for it yet`);
    if (!/^\d{1,2}(\.\d{1,3})?$/.test(second)) return fault(`"${shown(second)}" is not a price in dollars per gallon, e.g. 3.712`);
    const week = mondayOnOrBefore(date);
    if (week !== date) return fault(`${date} is not a Monday: a DOE week is written as its Monday (${week})`);
    if (seen.has(week)) return fault(`the week of ${week} is also on line ${seen.get(week)}`);
    seen.set(week, line);
    const [dollars, fraction = ''] = second.split('.');
    weeks.push({ week, mills: Number(dollars) * 1000 + Number(fraction.padEnd(3, '0')) });
    return false;
  });
  return { weeks, faults };
}

/** 3712 mills as the store keeps a price: "3.712" (dollars per gallon). */
export const usdPerGallonOf = (mills: number): string => `${Math.floor(mills / 1000)}.${String(mills % 1000).padStart(3, '0')}`;

/** Stored weekly prices as the rating reads them: Monday -> mills. */
export function historyOf(prices: ReadonlyArray<{ week: string; usdPerGallon: string }>): Map<string, number> {
  const history = new Map<string, number>();
  for (const { week, usdPerGallon } of prices) {
    const [dollars = '0', fraction = ''] = usdPerGallon.split('.');
    history.set(week, Number(dollars) * 1000 + Number(fraction.padEnd(3, '0').slice(0, 3)));
  }
  return history;
}
