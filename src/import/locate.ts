/** Violations of a shipment request, from the API or the schema, located on the CSV line and column that gave the field. Pure. */
import type { Violation } from '../domain/schemas.js';
import { HAZMAT_COLUMNS, type CsvHeader, type Party } from './columns.js';
import { cellOf, type CsvViolation, type RowGroup } from './rows.js';

export interface SourceNotes {
  /** The party's address came from a saved location (the `shipper`/`consignee` column). */
  fromLocation: Record<Party, boolean>;
}

/**
 * API violations (from the schema here, or from the engine or server later) mapped to the CSV
 * line and column that produced the field.
 */
export function locateViolations(violations: Violation[], group: RowGroup, header: CsvHeader, notes?: SourceNotes): CsvViolation[] {
  return violations.map((violation) => {
    const { line, column } = locateField(violation.field, group, header, notes);
    const row = group.rows.find((candidate) => candidate.line === line);
    const value = column && row ? cellOf(row, header, column) : undefined;
    return {
      line,
      column: column ? headerName(header, column) : null,
      field: violation.field,
      reason: violation.reason,
      ...(value ? { value } : {}),
    };
  });
}

function locateField(field: string, group: RowGroup, header: CsvHeader, notes?: SourceNotes): { line: number; column: string | null } {
  const first = group.rows[0]!;
  const component = /^orderComponents\[(\d+)\](?:\.(\w+))?(?:\.(\w+))?/.exec(field);
  if (component) {
    const row = group.rows[Number(component[1])] ?? first;
    const [, , name, inner] = component;
    if (!name) return { line: row.line, column: null };
    if (name === 'dimensions' || name === 'palletDimensions') return { line: row.line, column: inner ?? 'length' };
    if (name === 'hazmat') {
      const column = inner ?? HAZMAT_COLUMNS.find((candidate) => header.positions.has(candidate));
      return { line: row.line, column: column && header.positions.has(column) ? column : null };
    }
    return { line: row.line, column: header.positions.has(name) ? name : null };
  }
  const carrierColumn = CARRIER_FIELD_COLUMNS.find(([prefix]) => field === prefix || field.startsWith(`${prefix}.`))?.[1].find((column) => header.positions.has(column));
  if (carrierColumn) return { line: lineOf(group, header, carrierColumn), column: carrierColumn };
  const party = /^(pickupAddress|deliveryAddress|freightChargeTerms\.billTo|billTo)(?:\.(\w+))?/.exec(field);
  if (party) {
    const name: Party = party[1] === 'pickupAddress' ? 'shipper' : party[1] === 'deliveryAddress' ? 'consignee' : 'billTo';
    const fromLocation = notes ? notes.fromLocation[name] : header.positions.has(name) && group.rows.some((row) => cellOf(row, header, name) !== '');
    const column = fromLocation || !party[2] ? name : `${name}${party[2].charAt(0).toUpperCase()}${party[2].slice(1)}`;
    const known = [column, name, ...(name === 'billTo' ? ['freightTerms'] : [])].find((candidate) => header.positions.has(candidate)) ?? null;
    return { line: known ? lineOf(group, header, known) : first.line, column: known };
  }
  // The request's requiredPickupDate is the file's pickupDate column (its name of before the published wire).
  const name = field === 'requiredPickupDate' ? 'pickupDate' : /^(\w+)/.exec(field)?.[1];
  if (name && name !== 'orderComponents' && header.positions.has(name)) return { line: lineOf(group, header, name), column: name };
  return { line: first.line, column: null };
}

/** API fields of the carrier's part and the columns that give them, most specific first. */
const CARRIER_FIELD_COLUMNS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['carrier.name', ['carrierName', 'scac']],
  ['carrier.scac', ['scac', 'carrierName']],
  ['carrier', ['scac', 'carrierName']],
  ['freightChargeTerms.terms', ['freightTerms']],
  ['declaredValue', ['declaredValue']],
  ['cod.feeTerms', ['codFeeTerms']],
  ['cod.customerCheckAcceptable', ['codCustomerCheck']],
  ['cod', ['codAmount', 'codFeeTerms', 'codCustomerCheck']],
  ['pickupWindow.closeTime', ['closeTime']],
  ['pickupWindow', ['readyTime', 'closeTime']],
  ['emergencyContactPhone', ['emergencyPhone']],
];

/** The line that holds a shipment-level value (the first non-empty one), else the shipment's first line. */
export function lineOf(group: RowGroup, header: CsvHeader, column: string): number {
  return (group.rows.find((row) => cellOf(row, header, column) !== '') ?? group.rows[0]!).line;
}

export function headerName(header: CsvHeader, column: string): string {
  const position = header.positions.get(column);
  return position === undefined ? column : header.cells[position]!.trim();
}

export function sortViolations(violations: CsvViolation[]): CsvViolation[] {
  return violations.sort((a, b) => a.line - b.line);
}
