/**
 * base-rates.csv: the carrier's base rates (its tariff or SMC3 CzarLite) by 3-digit ZIP lane,
 * class and weight break, in cents per hundredweight; MC, the minimum charge, in cents per
 * shipment. Pure: text in, a table and its faults out.
 */
import { NMFC_CLASSES, type NmfcClass } from '../schemas.js';
import { WEIGHT_BREAKS, type WeightBreak } from './agreement.js';
import { csvLines, LaneIndex, parseZip3Range, type TableFault } from './laneTable.js';

export const BASE_RATES_HEADER = ['origin_zip3', 'dest_zip3', 'class', 'MC', ...WEIGHT_BREAKS] as const;
const RATE_COLUMNS = 1 + WEIGHT_BREAKS.length;
/** Faults past this many are summarised: a broken file of 50,000 rows is not printed whole. */
export const MAX_FAULTS_PER_FILE = 50;

/** The rates of one lane and class: MC (cents per shipment) and cents per hundredweight by break. */
export interface LaneRates {
  minimumChargeInCents: number;
  perCwtInCents: Readonly<Record<WeightBreak, number>>;
  line: number;
}

export class BaseRateTable {
  constructor(
    private readonly index: LaneIndex,
    private readonly rates: Int32Array,
  ) {}

  get rows(): number {
    return this.index.size;
  }

  /** The most specific rates of a lane, by class (only the classes the table has for it). */
  lane(originZip3: number, destinationZip3: number): Map<NmfcClass, LaneRates> {
    const found = new Map<NmfcClass, LaneRates>();
    for (const [classIndex, row] of this.index.bestRows(originZip3, destinationZip3)) {
      const base = row * RATE_COLUMNS;
      const perCwtInCents = Object.fromEntries(WEIGHT_BREAKS.map((name, i) => [name, this.rates[base + 1 + i]!])) as Record<WeightBreak, number>;
      found.set(NMFC_CLASSES[classIndex]!, { minimumChargeInCents: this.rates[base]!, perCwtInCents, line: this.index.lineOf(row) });
    }
    return found;
  }
}

/** A cell of 1 to 9 digits as a number, else NaN (no regex: 500,000 rows x 10 cells). */
function wholeCents(cell: string): number {
  if (cell.length === 0 || cell.length > 9) return Number.NaN;
  let value = 0;
  for (let i = 0; i < cell.length; i++) {
    const digit = cell.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return Number.NaN;
    value = value * 10 + digit;
  }
  return value;
}

export function parseBaseRates(text: string): { table: BaseRateTable; faults: TableFault[] } {
  const lines = csvLines(text);
  const faults: TableFault[] = [];
  const index = new LaneIndex(Math.max(64, lines.length));
  const rates = new Int32Array(Math.max(64, lines.length) * RATE_COLUMNS);
  const header = lines[0];
  if (!header) return { table: new BaseRateTable(index, rates), faults: [{ line: 1, message: `empty; the header is ${BASE_RATES_HEADER.join(',')}` }] };
  const expected = BASE_RATES_HEADER.map((name) => name.toLowerCase());
  if (header.cells.length !== expected.length || header.cells.some((cell, i) => cell.toLowerCase() !== expected[i])) {
    faults.push({ line: header.line, message: `the header must be ${BASE_RATES_HEADER.join(',')}` });
    return { table: new BaseRateTable(index, rates), faults };
  }
  let rates32 = rates;
  for (const { line, cells } of lines.slice(1)) {
    if (faults.length >= MAX_FAULTS_PER_FILE) break;
    if (cells.length !== BASE_RATES_HEADER.length) {
      faults.push({ line, message: `${cells.length} cells; a row has ${BASE_RATES_HEADER.length} (${BASE_RATES_HEADER.join(',')})` });
      continue;
    }
    const origin = parseZip3Range(cells[0]!);
    const destination = parseZip3Range(cells[1]!);
    // Every NMFC class: carriers' base rates have columns for 77.5, 110, 150, 200 and 500 too.
    const classIndex = NMFC_CLASSES.indexOf(cells[2] as NmfcClass);
    const values = cells.slice(3).map(wholeCents);
    const problems: string[] = [];
    if (!origin) problems.push(`origin_zip3 "${cells[0]}" is not a ZIP3 (606) or a range (600-629)`);
    if (!destination) problems.push(`dest_zip3 "${cells[1]}" is not a ZIP3 (606) or a range (600-629)`);
    if (classIndex === -1) problems.push(`class "${cells[2]}" is not an NMFC class (${NMFC_CLASSES.join(', ')})`);
    values.forEach((value, i) => {
      if (Number.isNaN(value)) problems.push(`${BASE_RATES_HEADER[3 + i]} "${cells[3 + i]}" is not a whole number of cents`);
      else if (i > 0 && value === 0) problems.push(`${BASE_RATES_HEADER[3 + i]} is 0: a rate per hundredweight is at least 1 cent`);
    });
    if (problems.length > 0) {
      faults.push({ line, message: problems.join('; ') });
      continue;
    }
    const row = index.add(origin!, destination!, classIndex, line);
    if ((row + 1) * RATE_COLUMNS > rates32.length) {
      const larger = new Int32Array(rates32.length * 2);
      larger.set(rates32);
      rates32 = larger;
    }
    rates32.set(values, row * RATE_COLUMNS);
  }
  if (faults.length === 0) faults.push(...index.conflicts((key) => `class ${NMFC_CLASSES[key]}`).slice(0, MAX_FAULTS_PER_FILE));
  return { table: new BaseRateTable(index, rates32), faults };
}
