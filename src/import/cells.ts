/**
 * Cells as spreadsheets and ERPs write them (numbers with separators, ZIPs that lost a zero,
 * dates in words, dollars, yes/no, freight terms, packing groups, times), read into what the API
 * takes, or a problem that says what to write instead. Pure.
 */
import { DATE_PATTERN, parseUserDate, utcDateOf } from '../domain/dates.js';
import { DECIMAL_NUMBER } from '../domain/numberText.js';

export type CellReading<T> = { value: T; warning?: string | undefined } | { problem: string };

const DECIMAL = DECIMAL_NUMBER;
const COMMA_THOUSANDS = /^[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;
/** Thousands in groups of three after a space, a no-break space or a narrow one (French and Swiss spreadsheets). */
const SPACE_THOUSANDS = /^[+-]?\d{1,3}(?:[ \u00A0\u202F\u2009]\d{3})+(?:\.\d+)?$/;
const THREE_DECIMALS = /^[+-]?\d{1,3}\.\d{3}$/;

const delimiterName = (delimiter: string) => (delimiter === ';' ? 'a ;-separated' : 'a tab-separated');

/**
 * A number cell: a number when it is written as one (`1200`, `40.5`, `1e3`, `"1,200"` in a
 * comma-separated file, `1 200`), the text when it is not one at all (the schema names it), or a
 * problem when the separators are ambiguous or misplaced. A `;` or tab file may come from a
 * spreadsheet that writes `1,5` for 1.5 and `1.200` for 1200: there a comma, or a point before
 * exactly three digits, is refused rather than guessed.
 */
export function readNumberCell(text: string, delimiter = ','): CellReading<number | string> | undefined {
  if (text === '') return undefined;
  const usStyle = delimiter === ',';
  if (DECIMAL.test(text)) {
    if (!usStyle && THREE_DECIMALS.test(text)) {
      return {
        problem: `in ${delimiterName(delimiter)} file "${text}" may be ${Number(text)} or ${text.replace(/^[+-]/, '').replace('.', '')} (a thousands point); write it without a thousands separator`,
      };
    }
    // "1e400" is not a number JSON can carry: passed on as text, the schema names it in both modes.
    return { value: Number.isFinite(Number(text)) ? Number(text) : text };
  }
  if (SPACE_THOUSANDS.test(text)) return { value: Number(text.replace(/[ \u00A0\u202F\u2009]/g, '')) };
  if (/^[+-]?[\d.,]*\d[\d.,]*$/.test(text) && text.includes(',')) {
    if (!usStyle) {
      return {
        problem: `in ${delimiterName(delimiter)} file a comma in a number may be a decimal comma (1,5 = 1.5) or a thousands separator (1,500 = 1500); write the number with a decimal point and no separator`,
      };
    }
    if (COMMA_THOUSANDS.test(text)) return { value: Number(text.replace(/,/g, '')) };
    return { problem: 'the commas are not thousands separators (those come every three digits: 1,200); a decimal is written with a point (1.5)' };
  }
  return { value: text };
}

/** Excel writes a long number as `1.23457E+11` unless its column is Text: the digits are gone. */
const EXCEL_SCIENTIFIC = /^[+-]?\d(?:\.\d+)?E\+\d+$/i;
const SCIENTIFIC_PROBLEM = 'a spreadsheet shortened this number to scientific notation and its digits are lost; format the column as Text and save the file again';

/** An identifier (reference, NMFC code, phone): refused when a spreadsheet has shortened it, else as written. */
export function readIdentifierCell(text: string): CellReading<string> {
  return EXCEL_SCIENTIFIC.test(text) ? { problem: SCIENTIFIC_PROBLEM } : { value: text };
}

/**
 * A ZIP code: a spreadsheet that took `02134` for a number wrote `2134` (and `021341234`, a
 * ZIP+4 without its hyphen, as `21341234`): four digits get their zero back, with a warning.
 * Three digits or fewer are refused (which zeros were lost is a guess). The rest is the schema's.
 */
export function readPostalCodeCell(text: string): CellReading<string> {
  if (/^\d{4}(?:-?\d{4})?$/.test(text)) return { value: `0${text}`, warning: `ZIP ${text} read as 0${text} (a spreadsheet dropped its leading zero)` };
  if (/^\d{1,3}$/.test(text)) {
    return { problem: `a US ZIP code has 5 digits, this one ${text.length}; if a spreadsheet dropped its leading zeros, write them (e.g. ${text.padStart(5, '0')})` };
  }
  return readIdentifierCell(text);
}

/** A time of midnight that a spreadsheet adds to a date cell (`11/27/2026 0:00`, `2026-11-27 00:00:00`). */
const MIDNIGHT = /(?:[ T]+(?:0?0:00(?::00(?:\.0+)?)?|12:00(?::00)? ?AM))$/i;

/**
 * A pickup date: `2026-11-27` as it is (the schema judges it), `2026/11/27`, and the words and
 * US dates `--pickup-date` takes (`11/27/2026`, `11/27/26`, `11/27`, `Nov 27`, `friday`, `+3`),
 * counted from `today`. In a `;` or tab file a date such as `05/11/2026` may be day/month: when
 * both numbers could be a month it is refused.
 */
export function readDateCell(text: string, delimiter: string, today: () => string): CellReading<string> {
  const value = text.replace(MIDNIGHT, '').trim();
  if (DATE_PATTERN.test(value)) return { value };
  const yearFirst = /^(\d{4})[/.](\d{1,2})[/.](\d{1,2})$/.exec(value);
  if (yearFirst) return { value: `${yearFirst[1]}-${yearFirst[2]!.padStart(2, '0')}-${yearFirst[3]!.padStart(2, '0')}` };
  const dayOrMonth = /^(\d{1,2})[/.](\d{1,2})(?:[/.]\d{2,4})?$/.exec(value);
  if (dayOrMonth && delimiter !== ',' && Number(dayOrMonth[1]) <= 12 && Number(dayOrMonth[2]) <= 12) {
    return { problem: `in ${delimiterName(delimiter)} file "${value}" may be month/day or day/month; write the date as YYYY-MM-DD` };
  }
  const parsed = parseUserDate(value, today());
  return parsed.ok ? { value: parsed.date } : { problem: parsed.message };
}

/** Without a clock from the caller: today in UTC. */
export const utcToday = () => utcDateOf(new Date());

/**
 * Dollars as spreadsheets write them (`1250`, `1,250.50`, `$1,250.50`) to whole cents. A third
 * decimal is refused (a carrier bills in cents), as is anything that is not an amount.
 */
export function readDollarsCell(text: string, delimiter = ','): CellReading<number> {
  const reading = readNumberCell(text.replace(/^\$\s*/, '').replace(/\s*(USD|\$)$/i, ''), delimiter);
  if (!reading || 'problem' in reading) return reading ?? { problem: 'an amount in dollars is required' };
  const { value } = reading;
  if (typeof value !== 'number') return { problem: `"${clip(text)}" is not an amount in dollars, e.g. 1250 or $1,250.50` };
  const cents = Math.round(value * 100);
  if (Math.abs(value * 100 - cents) > 1e-6) return { problem: `${text} has more than 2 decimals; amounts are in dollars and cents` };
  return { value: cents };
}

const YES = new Set(['yes', 'y', 'true', 'x', '1']);
const NO = new Set(['no', 'n', 'false', '0']);

/** A yes/no cell: yes, y, true, x, 1 or no, n, false, 0 (an empty cell is no). */
export function readYesNoCell(text: string): CellReading<boolean> {
  const word = text.trim().toLowerCase();
  if (YES.has(word)) return { value: true };
  if (NO.has(word)) return { value: false };
  return { problem: `"${clip(text)}" is not yes or no (yes, y, x, true, 1 / no, n, false, 0)` };
}

/** Freight charge terms as bills of lading and ERPs write them. */
const FREIGHT_TERMS: Record<string, string> = {
  prepaid: 'PREPAID',
  ppd: 'PREPAID',
  pp: 'PREPAID',
  collect: 'COLLECT',
  col: 'COLLECT',
  coll: 'COLLECT',
  cc: 'COLLECT',
  thirdparty: 'THIRD_PARTY',
  '3rdparty': 'THIRD_PARTY',
  tp: 'THIRD_PARTY',
  '3p': 'THIRD_PARTY',
};

export function readFreightTermsCell(text: string): CellReading<string> {
  const terms = FREIGHT_TERMS[text.toLowerCase().replace(/[^a-z0-9]/g, '')];
  return terms ? { value: terms } : { problem: `"${clip(text)}" is not freight terms: prepaid (PPD), collect (COL) or third party (3RD PARTY)` };
}

/** A packing group as people write it: II, PG II, 2; the roman numeral is what the schema and the BOL take. */
export function readPackingGroupCell(text: string): CellReading<string> {
  const bare = text
    .trim()
    .toUpperCase()
    .replace(/^PG\s*/, '');
  const roman = ({ '1': 'I', '2': 'II', '3': 'III' } as Record<string, string>)[bare] ?? bare;
  return { value: roman };
}

/** `8:00`, `8:00 AM`, `14:30`, `2:30 PM`, `0800`: the HH:MM (24-hour) the API takes; anything else as written, for the schema to judge. */
export function readTimeCell(text: string): CellReading<string> {
  const match = /^(\d{1,2}):?(\d{2})(?::00)?\s*([AaPp])?\.?[Mm]?\.?$/.exec(text.trim());
  if (!match) return { value: text };
  let hour = Number(match[1]);
  const minute = match[2]!;
  const half = match[3]?.toLowerCase();
  if (half) {
    if (hour < 1 || hour > 12) return { problem: `"${text}": an hour before AM or PM is 1 to 12` };
    hour = (hour % 12) + (half === 'p' ? 12 : 0);
  }
  return { value: `${String(hour).padStart(2, '0')}:${minute}` };
}

/** A time as people write it (`8:00 AM`) as the HH:MM the API takes, for the wizard and the flags too; other text as written, for the schema to judge. */
export function timeOfDay(value: string): string {
  const reading = readTimeCell(value.trim());
  return 'value' in reading ? reading.value : value.trim();
}

export function clip(text: string, width = 40): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}
