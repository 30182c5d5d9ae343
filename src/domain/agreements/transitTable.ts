/**
 * transit.csv (optional): the carrier's transit days and service by 3-digit ZIP lane
 * (`D` direct, `I` interline); the most specific row wins, as in base-rates.csv. Pure.
 */
import { csvLines, LaneIndex, parseZip3Range, type TableFault } from './laneTable.js';

export const TRANSIT_HEADER = ['origin_zip3', 'dest_zip3', 'days', 'service'] as const;
export type CarrierService = 'DIRECT' | 'INTERLINE';

export interface LaneTransit {
  days: number;
  service: CarrierService;
}

export class CarrierTransitTable {
  constructor(
    private readonly index: LaneIndex,
    private readonly values: LaneTransit[],
  ) {}

  lane(originZip3: number, destinationZip3: number): LaneTransit | undefined {
    const row = this.index.bestRows(originZip3, destinationZip3).get(0);
    return row === undefined ? undefined : this.values[row];
  }
}

export function parseTransit(text: string): { table: CarrierTransitTable; faults: TableFault[] } {
  const lines = csvLines(text);
  const faults: TableFault[] = [];
  const index = new LaneIndex();
  const values: LaneTransit[] = [];
  const header = lines[0];
  const expected = TRANSIT_HEADER.join(',');
  if (!header || header.cells.map((cell) => cell.toLowerCase()).join(',') !== expected) {
    return { table: new CarrierTransitTable(index, values), faults: [{ line: header?.line ?? 1, message: `the header must be ${expected}` }] };
  }
  for (const { line, cells } of lines.slice(1)) {
    const origin = parseZip3Range(cells[0] ?? '');
    const destination = parseZip3Range(cells[1] ?? '');
    const days = /^\d{1,2}$/.test(cells[2] ?? '') ? Number(cells[2]) : undefined;
    const service = cells[3]?.toUpperCase() === 'D' ? 'DIRECT' : cells[3]?.toUpperCase() === 'I' ? 'INTERLINE' : undefined;
    const problems: string[] = [];
    if (cells.length !== TRANSIT_HEADER.length) problems.push(`${cells.length} cells; a row has ${TRANSIT_HEADER.length} (${expected})`);
    else {
      if (!origin) problems.push(`origin_zip3 "${cells[0]}" is not a ZIP3 (606) or a range (600-629)`);
      if (!destination) problems.push(`dest_zip3 "${cells[1]}" is not a ZIP3 (606) or a range (600-629)`);
      if (days === undefined) problems.push(`days "${cells[2]}" is not a whole number of business days (0-99)`);
      if (!service) problems.push(`service "${cells[3]}" is D (direct) or I (interline)`);
    }
    if (problems.length > 0) {
      faults.push({ line, message: problems.join('; ') });
      continue;
    }
    index.add(origin!, destination!, 0, line);
    values.push({ days: days!, service: service! });
  }
  if (faults.length === 0) faults.push(...index.conflicts(() => 'transit'));
  return { table: new CarrierTransitTable(index, values), faults };
}
