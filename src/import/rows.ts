/** The rows of a shipment CSV as read, and what is said about them. Pure. */
import type { CsvHeader } from './columns.js';

export interface CsvRow {
  /** 1-based line of the file where the row starts. */
  line: number;
  cells: string[];
}

/** The rows of one shipment, in file order. */
export interface RowGroup {
  rows: CsvRow[];
}

export interface CsvViolation {
  line: number;
  /** The column as the file's header names it; null when the problem is the row or shipment as a whole. */
  column: string | null;
  /** The API field path, e.g. `orderComponents[1].poundsWeight`. */
  field: string;
  reason: string;
  /** The cell's text, when the problem is one cell. */
  value?: string | undefined;
}

/** Something read in a way the user should know about (a ZIP padded with its lost leading zero). */
export interface CsvWarning {
  line: number;
  column: string;
  message: string;
}

export function cellOf(row: CsvRow, header: CsvHeader, column: string): string {
  const position = header.positions.get(column);
  return position === undefined ? '' : cellAt(row, position);
}

/** The cell at a column's position (header.positions), as cellOf reads it. */
export function cellAt(row: CsvRow, position: number): string {
  const cell = row.cells[position];
  return cell === undefined || cell === '' ? '' : unwrapTextFormula(cell.trim());
}

/** `="02134"`: how exports keep a spreadsheet from dropping leading zeros (written `"=""02134"""` in the CSV). The text inside is the value. */
function unwrapTextFormula(cell: string): string {
  if (cell.charCodeAt(0) !== 61 /* = */) return cell;
  const match = /^="(.*)"$/s.exec(cell);
  return match ? match[1]!.trim() : cell;
}
