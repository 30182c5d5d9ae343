/**
 * CSV text for the invoice, audit and report commands: csv-stringify with the options every CSV
 * shipper writes shares (src/csvCells.ts: CRLF, formula cells neutralised). Numbers stay numbers.
 */
import { stringify } from 'csv-stringify/sync';
import { safeCsvOptions } from '../csvCells.js';

export type CsvCell = string | number | null;

export function csvText(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<CsvCell>>): string {
  return stringify([[...header], ...rows.map((row) => row.map((cell) => cell ?? ''))], safeCsvOptions(','));
}

/** CSV records without a header (the pages after the first of a long list), with the same options. */
export function csvRecords(rows: ReadonlyArray<ReadonlyArray<CsvCell>>): string {
  if (rows.length === 0) return '';
  return stringify(
    rows.map((row) => row.map((cell) => cell ?? '')),
    safeCsvOptions(','),
  );
}
