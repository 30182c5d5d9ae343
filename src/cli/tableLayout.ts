/**
 * Fitting a cli-table3 table to the terminal: columns keep their natural width while the table
 * fits; otherwise the caller's steps run in order until it does: shrink a group of columns (their
 * cells are then truncated with "…" by cli-table3) or leave out an optional column. As a last
 * resort every column shrinks but those the caller keeps whole (an id to copy, a price, an ETA:
 * a cut one is useless). A table is never wider than the terminal, so it never wraps into garbage,
 * unless the columns kept whole alone are wider: then they stay whole and the table wraps.
 */
import { stripVTControlCharacters } from 'node:util';

/** Columns of text as wide as it is long (ANSI colour codes take no room). */
export function displayWidth(text: string): number {
  return Math.max(
    0,
    ...stripVTControlCharacters(text)
      .split('\n')
      .map((line) => [...line].length),
  );
}

const CELL_PADDING = 2;
const LAST_RESORT_WIDTH = 3;

/**
 * Shrink these columns (widest first) down to `min` characters of text (default: fitTable's
 * minWidth); leave this column out; or show this column's shorter form (a date without the time,
 * a status folded into another column), one cell per row, with its own head if given.
 */
export type FitStep = { shrink: number[]; min?: number } | { drop: number } | { replace: number; cells: ReadonlyArray<string>; head?: string };

export interface FittedTable {
  head: string[];
  rows: string[][];
  /** cli-table3 colWidths (padding included), or undefined when the table fits as it is. */
  colWidths: number[] | undefined;
}

const tableWidth = (widths: ReadonlyArray<number>) => widths.reduce((sum, width) => sum + width, widths.length + 1);

export function fitTable(
  head: ReadonlyArray<string>,
  rows: ReadonlyArray<ReadonlyArray<string>>,
  maxWidth: number,
  steps: ReadonlyArray<FitStep>,
  minWidth = 12,
  whole: ReadonlyArray<number> = [],
): FittedTable {
  const heads = [...head];
  const cells = rows.map((row) => [...row]);
  const naturalWidth = (column: number) => Math.max(displayWidth(heads[column] ?? ''), ...cells.map((row) => displayWidth(row[column] ?? ''))) + CELL_PADDING;
  const widths = heads.map((_, column) => naturalWidth(column));
  let kept = heads.map((_, column) => column);
  const excess = () => tableWidth(kept.map((column) => widths[column]!)) - maxWidth;
  if (excess() <= 0) return { head: heads, rows: cells, colWidths: undefined };

  const shrink = (columns: ReadonlyArray<number>, floor: number) => {
    let over = excess();
    while (over > 0) {
      let widest = -1;
      for (const column of columns) {
        if (kept.includes(column) && widths[column]! > floor && (widest === -1 || widths[column]! > widths[widest]!)) widest = column;
      }
      if (widest === -1) return;
      widths[widest]! -= 1;
      over -= 1;
    }
  };
  const natural = [...widths];
  const shrunk: number[] = [];
  for (const step of steps) {
    if (excess() <= 0) break;
    if ('drop' in step) kept = kept.filter((column) => column !== step.drop);
    else if ('replace' in step) {
      step.cells.forEach((cell, index) => {
        if (cells[index]) cells[index]![step.replace] = cell;
      });
      if (step.head !== undefined) heads[step.replace] = step.head;
      widths[step.replace] = natural[step.replace] = naturalWidth(step.replace);
    } else {
      shrink(step.shrink, (step.min ?? minWidth) + CELL_PADDING);
      shrunk.push(...step.shrink);
    }
  }
  if (excess() > 0)
    shrink(
      kept.filter((column) => !whole.includes(column)),
      LAST_RESORT_WIDTH + CELL_PADDING,
    );
  // Leaving a column out may have freed more room than needed: give it back, last shrunk first.
  for (const column of shrunk.reverse()) {
    if (!kept.includes(column)) continue;
    const room = -excess();
    if (room <= 0) break;
    widths[column] = Math.min(natural[column]!, widths[column]! + room);
  }
  return {
    head: kept.map((column) => heads[column]!),
    rows: cells.map((row) => kept.map((column) => row[column] ?? '')),
    colWidths: kept.map((column) => widths[column]!),
  };
}
