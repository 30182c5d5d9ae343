/**
 * Cells of the CSV files shipper writes (reject files, `transit --csv`), safe to open in a
 * spreadsheet, and read back exactly as they were written by the importer.
 *
 * Formula injection (OWASP "CSV Injection"): a cell starting with = + - @, a tab or a carriage
 * return (or the full-width = + - @ some spreadsheets normalise) is run as a formula by Excel,
 * LibreOffice and Google Sheets. Such a cell is written with a leading single quote and quoted:
 * `=HYPERLINK(...)` becomes `"'=HYPERLINK(...)"`, which a spreadsheet shows as text.
 *
 * The round trip is exact: a cell that already starts with quotes before such a character gets one
 * quote more, and the importer (restoreFormulaCell) takes exactly one off every cell of that form.
 * So `-5` comes back as `-5`, `'=x` as `'=x`, and every other cell is never touched.
 * csv-stringify's own `escape_formulas` prefixes the quote too, but neither quotes the cell nor
 * tells `'=x` written by a person from `=x` escaped by us, so that it cannot be undone safely.
 */
import type { Options as StringifyOptions } from 'csv-stringify';

const FORMULA_START = /^'*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
const ESCAPED_FORMULA = /^'+[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/** The cell as the importer should read it: one leading quote off a cell we escaped. */
export function restoreFormulaCell(cell: string): string {
  return ESCAPED_FORMULA.test(cell) ? cell.slice(1) : cell;
}

/**
 * csv-stringify options for every CSV shipper writes: CRLF records ending with one (RFC 4180,
 * what Excel writes), formula cells escaped and quoted, cells with outer blanks quoted (the
 * importer trims unquoted ones), booleans as true/false.
 */
export function safeCsvOptions(delimiter = ','): StringifyOptions {
  return {
    delimiter,
    record_delimiter: '\r\n',
    eof: true,
    quoted_match: /^\s|\s$/,
    cast: {
      string: (value: string) => (FORMULA_START.test(value) ? { value: `'${value}`, quoted: true } : value),
      boolean: (value: boolean) => String(value),
    },
  };
}
