/**
 * Tables keyed by 3-digit ZIP lanes (base-rates.csv, transit.csv): a ZIP3 cell is `606` or a range
 * `600-629`; the most specific row wins (narrowest origin range, then narrowest destination range);
 * two equally specific rows that both cover one lane (and key, e.g. the class) make the table
 * invalid. Rows live in typed arrays: a lookup scans them once (50,000 rows in well under a
 * millisecond), so nothing is expanded per ZIP3. Pure.
 */

/** A row of a small CSV file: its 1-based line number and its cells (trimmed, quotes removed). */
export interface CsvLine {
  line: number;
  cells: string[];
}

/**
 * The lines of a plain CSV (BOM, CRLF and blank lines tolerated; quoted cells without commas in
 * them): the formats are digits and codes, so a parser of our own keeps `file:line` exact and the
 * load of 50,000 rows fast.
 */
export function csvLines(text: string): CsvLine[] {
  const lines: CsvLine[] = [];
  const raw = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  raw.forEach((content, index) => {
    if (content.trim() === '') return;
    const cells = content.split(',');
    for (let i = 0; i < cells.length; i++) {
      const cell = cells[i]!.trim();
      cells[i] = cell.length >= 2 && cell.startsWith('"') && cell.endsWith('"') ? cell.slice(1, -1).trim() : cell;
    }
    lines.push({ line: index + 1, cells });
  });
  return lines;
}

export interface Zip3Range {
  low: number;
  high: number;
}

/** `606` or `600-629` (low <= high), or undefined. */
export function parseZip3Range(cell: string): Zip3Range | undefined {
  const match = /^(\d{3})(?:\s*-\s*(\d{3}))?$/.exec(cell);
  if (!match) return undefined;
  const low = Number(match[1]);
  const high = match[2] === undefined ? low : Number(match[2]);
  return low <= high ? { low, high } : undefined;
}

export const formatZip3Range = (range: Zip3Range): string => {
  const text = (value: number) => String(value).padStart(3, '0');
  return range.low === range.high ? text(range.low) : `${text(range.low)}-${text(range.high)}`;
};

/** Origin ranges at least this wide are scanned on every lookup; narrower ones are indexed per ZIP3. */
const NARROW_ORIGIN = 10;

/** A fault of a table file, at its line. */
export interface TableFault {
  line: number;
  message: string;
}

/** Rows of lanes with a key each (0 when the table has none), built row by row, then frozen. */
export class LaneIndex {
  private oLow: Int16Array;
  private oHigh: Int16Array;
  private dLow: Int16Array;
  private dHigh: Int16Array;
  private keys: Int32Array;
  private lines: Int32Array;
  private count = 0;

  constructor(capacity = 64) {
    this.oLow = new Int16Array(capacity);
    this.oHigh = new Int16Array(capacity);
    this.dLow = new Int16Array(capacity);
    this.dHigh = new Int16Array(capacity);
    this.keys = new Int32Array(capacity);
    this.lines = new Int32Array(capacity);
  }

  get size(): number {
    return this.count;
  }

  lineOf(row: number): number {
    return this.lines[row]!;
  }

  /** Adds a row; its position is the row number payloads are kept under. */
  add(origin: Zip3Range, destination: Zip3Range, key: number, line: number): number {
    if (this.count === this.keys.length) this.grow();
    const row = this.count++;
    this.oLow[row] = origin.low;
    this.oHigh[row] = origin.high;
    this.dLow[row] = destination.low;
    this.dHigh[row] = destination.high;
    this.keys[row] = key;
    this.lines[row] = line;
    return row;
  }

  private grow(): void {
    const size = this.keys.length * 2;
    const copy = <T extends Int16Array | Int32Array>(array: T): T => {
      const larger = new (array.constructor as new (length: number) => T)(size);
      larger.set(array);
      return larger;
    };
    this.oLow = copy(this.oLow);
    this.oHigh = copy(this.oHigh);
    this.dLow = copy(this.dLow);
    this.dHigh = copy(this.dHigh);
    this.keys = copy(this.keys);
    this.lines = copy(this.lines);
  }

  /**
   * Rows by origin ZIP3, built on the first lookup: a row whose origin range is narrower than
   * NARROW_ORIGIN is listed under each of its ZIP3s, a wider one in `wide`, scanned always. A
   * lookup reads its origin's rows only (a carrier's table is mostly single-origin rows).
   */
  private byOrigin: { narrow: Int32Array[]; wide: Int32Array } | undefined;

  private originIndex(): { narrow: Int32Array[]; wide: Int32Array } {
    if (this.byOrigin) return this.byOrigin;
    const counts = new Int32Array(1000);
    let wideCount = 0;
    for (let row = 0; row < this.count; row++) {
      if (this.oHigh[row]! - this.oLow[row]! >= NARROW_ORIGIN) wideCount++;
      else for (let o = this.oLow[row]!; o <= this.oHigh[row]!; o++) counts[o]!++;
    }
    const narrow = Array.from(counts, (count) => new Int32Array(count));
    const filled = new Int32Array(1000);
    const wide = new Int32Array(wideCount);
    let w = 0;
    for (let row = 0; row < this.count; row++) {
      if (this.oHigh[row]! - this.oLow[row]! >= NARROW_ORIGIN) wide[w++] = row;
      else for (let o = this.oLow[row]!; o <= this.oHigh[row]!; o++) narrow[o]![filled[o]!++] = row;
    }
    this.byOrigin = { narrow, wide };
    return this.byOrigin;
  }

  /** The most specific row per key for a lane: key -> row. */
  bestRows(origin: number, destination: number): Map<number, number> {
    const best = new Map<number, number>();
    const { oLow, oHigh, dLow, dHigh, keys } = this;
    const index = this.originIndex();
    const visit = (row: number) => {
      if (origin < oLow[row]! || origin > oHigh[row]! || destination < dLow[row]! || destination > dHigh[row]!) return;
      const key = keys[row]!;
      const current = best.get(key);
      if (current === undefined || this.narrower(row, current)) best.set(key, row);
    };
    if (origin >= 0 && origin < 1000) for (const row of index.narrow[origin]!) visit(row);
    for (const row of index.wide) visit(row);
    return best;
  }

  private narrower(row: number, than: number): boolean {
    const originWidth = this.oHigh[row]! - this.oLow[row]!;
    const thanOriginWidth = this.oHigh[than]! - this.oLow[than]!;
    if (originWidth !== thanOriginWidth) return originWidth < thanOriginWidth;
    return this.dHigh[row]! - this.dLow[row]! < this.dHigh[than]! - this.dLow[than]!;
  }

  /**
   * Equally specific rows (same key, same origin width, same destination width) that share a lane.
   * Two ranges of one width overlap when their starts are less than that width apart, so rows are
   * bucketed by start / width and compared with the neighbouring buckets only: linear, not n².
   */
  conflicts(describeKey: (key: number) => string): TableFault[] {
    const faults: TableFault[] = [];
    // Numeric bucket keys (a string per neighbour and row made the check of 500,000 rows slow).
    const buckets = new Map<number, number[]>();
    for (let row = 0; row < this.count; row++) {
      const oWidth = this.oHigh[row]! - this.oLow[row]! + 1;
      const dWidth = this.dHigh[row]! - this.dLow[row]! + 1;
      const oCell = Math.floor(this.oLow[row]! / oWidth);
      const dCell = Math.floor(this.dLow[row]! / dWidth);
      const group = ((this.keys[row]! * 1001 + oWidth) * 1001 + dWidth) * 1002 * 1002;
      const cellKey = (o: number, d: number) => group + (o + 1) * 1002 + (d + 1);
      let clash: number | undefined;
      for (let i = -1; i <= 1 && clash === undefined; i++) {
        for (let j = -1; j <= 1 && clash === undefined; j++) {
          for (const other of buckets.get(cellKey(oCell + i, dCell + j)) ?? []) {
            if (Math.abs(this.oLow[other]! - this.oLow[row]!) < oWidth && Math.abs(this.dLow[other]! - this.dLow[row]!) < dWidth) {
              clash = other;
              break;
            }
          }
        }
      }
      if (clash !== undefined) {
        const lane = `${formatZip3Range({ low: Math.max(this.oLow[row]!, this.oLow[clash]!), high: Math.min(this.oHigh[row]!, this.oHigh[clash]!) })} -> ${formatZip3Range({
          low: Math.max(this.dLow[row]!, this.dLow[clash]!),
          high: Math.min(this.dHigh[row]!, this.dHigh[clash]!),
        })}`;
        faults.push({
          line: this.lines[row]!,
          message: `as specific as line ${this.lines[clash]} for ${describeKey(this.keys[row]!)} on lane ${lane}: equally specific rows make the agreement invalid`,
        });
      }
      const cell = cellKey(oCell, dCell);
      const bucket = buckets.get(cell);
      if (bucket) bucket.push(row);
      else buckets.set(cell, [row]);
    }
    return faults;
  }
}
