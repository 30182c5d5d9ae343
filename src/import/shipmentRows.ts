/**
 * From CSV rows to shipment requests and back: consecutive rows with the same shipmentKey (else
 * refNumber) form one shipment, each row one order component. The request is validated with the
 * API's own zod schema, and every violation path (`orderComponents[1].dimensions.height`) is
 * mapped back to the CSV line and column it came from. Pure, apart from resolving saved locations
 * through the resolver it is given.
 */
import { shipmentRequestSchema, type Violation } from '../domain/schemas.js';
import { violationsFromZod } from '../domain/validation.js';
import { ADDRESS_FIELDS, type CsvHeader, type Party } from './columns.js';

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
  message: string;
  /** The cell's text, when the problem is one cell. */
  value?: string | undefined;
}

/**
 * The request a group of rows makes, as the API will receive it (cells as typed: the API's schema
 * judges them), or the problems found before it could be sent.
 */
export type PreparedShipment =
  | { ok: true; group: RowGroup; request: Record<string, unknown> }
  | { ok: false; group: RowGroup; violations: CsvViolation[] };

/** Saved locations by name (case-insensitive); undefined when there is none. */
export interface LocationResolver {
  resolve(name: string): Promise<Record<string, unknown> | undefined>;
}

/** The grouping key of a row: its shipmentKey, else its refNumber; null makes the row a shipment of its own. */
export function groupKeyOf(row: CsvRow, header: CsvHeader): string | null {
  const shipmentKey = cellOf(row, header, 'shipmentKey');
  if (shipmentKey) return `k\u0000${shipmentKey}`;
  const refNumber = cellOf(row, header, 'refNumber');
  return refNumber ? `r\u0000${refNumber}` : null;
}

/** Groups consecutive rows of the same shipment; holds one shipment's rows at a time. */
export async function* groupRows(rows: AsyncIterable<CsvRow>, header: CsvHeader): AsyncGenerator<RowGroup> {
  let current: CsvRow[] = [];
  let currentKey: string | null = null;
  for await (const row of rows) {
    const key = groupKeyOf(row, header);
    if (current.length > 0 && (key === null || key !== currentKey)) {
      yield { rows: current };
      current = [];
    }
    current.push(row);
    currentKey = key;
  }
  if (current.length > 0) yield { rows: current };
}

export function cellOf(row: CsvRow, header: CsvHeader, column: string): string {
  const position = header.positions.get(column);
  return position === undefined ? '' : (row.cells[position] ?? '').trim();
}

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * A number cell as the schema should judge it: a number when it is written as one, else the text
 * (also for "1e400", which JSON could not carry as a number: the schema names it in both modes).
 */
function numberCell(text: string): number | string | undefined {
  if (text === '') return undefined;
  return DECIMAL.test(text) && Number.isFinite(Number(text)) ? Number(text) : text;
}


interface SourceNotes {
  /** The party's address came from a saved location (the `shipper`/`consignee` column). */
  fromLocation: Record<Party, boolean>;
}

export async function prepareShipment(group: RowGroup, header: CsvHeader, locations: LocationResolver): Promise<PreparedShipment> {
  const violations: CsvViolation[] = [];
  const notes: SourceNotes = { fromLocation: { shipper: false, consignee: false } };
  const first = group.rows[0]!;

  // Cells beyond the header, or under a column without a name, would be silently lost.
  for (const row of group.rows) {
    row.cells.forEach((cell, position) => {
      if (cell.trim() === '' || header.columns[position]) return;
      violations.push({
        line: row.line,
        column: position < header.cells.length ? `#${position + 1}` : null,
        field: '(row)',
        message:
          position < header.cells.length
            ? `a value in column ${position + 1}, which has no name in the header`
            : `the row has ${row.cells.length} values but the header names ${header.cells.length} columns`,
        value: cell,
      });
    });
  }

  // Shipment-level columns: the first non-empty value counts; later rows repeat it or leave it empty.
  const shipmentValue = (column: string): string => {
    let value = '';
    let valueLine = first.line;
    for (const row of group.rows) {
      const cell = cellOf(row, header, column);
      if (cell === '') continue;
      if (value === '') {
        value = cell;
        valueLine = row.line;
      } else if (cell !== value) {
        violations.push({
          line: row.line,
          column: headerName(header, column),
          field: column,
          message: `differs from line ${valueLine} of the same shipment ("${clip(value)}"); repeat the value or leave it empty`,
          value: cell,
        });
      }
    }
    return value;
  };

  const request: Record<string, unknown> = {};
  const refNumber = shipmentValue('refNumber');
  if (refNumber) request.refNumber = refNumber;
  shipmentValue('shipmentKey');
  const pickupDate = shipmentValue('pickupDate');
  if (pickupDate) request.pickupDate = pickupDate;
  const specialInstructions = shipmentValue('specialInstructions');
  if (specialInstructions) request.specialInstructions = specialInstructions;
  const accessorials = shipmentValue('accessorials');
  if (accessorials) {
    request.accessorials = accessorials
      .split('|')
      .map((code) => code.trim().toUpperCase().replace(/[\s-]+/g, '_'))
      .filter(Boolean);
  }

  for (const party of ['shipper', 'consignee'] as const) {
    const locationName = header.positions.has(party) ? shipmentValue(party) : '';
    const address: Record<string, unknown> = {};
    for (const field of ADDRESS_FIELDS) {
      const column = `${party}${field.charAt(0).toUpperCase()}${field.slice(1)}`;
      if (!header.positions.has(column)) continue;
      const value = shipmentValue(column);
      if (value) address[field] = value;
    }
    if (locationName) {
      notes.fromLocation[party] = true;
      if (Object.keys(address).length > 0) {
        violations.push({
          line: first.line,
          column: headerName(header, party),
          field: party,
          message: `names the saved location "${clip(locationName)}" and also has ${party} address columns; use one or the other`,
          value: locationName,
        });
      }
      const saved = await locations.resolve(locationName);
      if (saved) request[party] = saved;
      else {
        violations.push({
          line: lineOf(group, header, party),
          column: headerName(header, party),
          field: party,
          message: `no saved location named "${clip(locationName)}" (see: shipper location list)`,
          value: locationName,
        });
        request[party] = {};
      }
    } else {
      request[party] = address;
    }
  }

  request.orderComponents = group.rows.map((row) => {
    const component: Record<string, unknown> = {};
    for (const field of ['palletCount', 'poundsWeight', 'pieceCount'] as const) {
      const value = numberCell(cellOf(row, header, field));
      if (value !== undefined) component[field] = value;
    }
    const [length, width, height] = (['length', 'width', 'height'] as const).map((side) => numberCell(cellOf(row, header, side)));
    if (length !== undefined || width !== undefined || height !== undefined) component.dimensions = { length, width, height };
    for (const field of ['description', 'nmfcCode', 'packagingType'] as const) {
      const value = cellOf(row, header, field);
      if (value) component[field] = value;
    }
    return component;
  });

  if (violations.length === 0) return { ok: true, group, request };
  // Rejected before the API sees it: add what the API's schema would say, so every problem is listed at once.
  const parsed = shipmentRequestSchema.safeParse(request);
  if (!parsed.success) violations.push(...locateViolations(violationsFromZod(parsed.error, shipmentRequestSchema), group, header, notes));
  return { ok: false, group, violations: sortViolations(violations) };
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
      message: violation.message,
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
    return { line: row.line, column: header.positions.has(name) ? name : null };
  }
  const party = /^(shipper|consignee)(?:\.(\w+))?/.exec(field);
  if (party) {
    const name = party[1] as Party;
    const fromLocation = notes ? notes.fromLocation[name] : header.positions.has(name) && group.rows.some((row) => cellOf(row, header, name) !== '');
    const column = fromLocation || !party[2] ? name : `${name}${party[2].charAt(0).toUpperCase()}${party[2].slice(1)}`;
    const known = header.positions.has(column) ? column : header.positions.has(name) ? name : null;
    return { line: known ? lineOf(group, header, known) : first.line, column: known };
  }
  const name = /^(\w+)/.exec(field)?.[1];
  if (name && name !== 'orderComponents' && header.positions.has(name)) return { line: lineOf(group, header, name), column: name };
  return { line: first.line, column: null };
}

/** The line that holds a shipment-level value (the first non-empty one), else the shipment's first line. */
function lineOf(group: RowGroup, header: CsvHeader, column: string): number {
  return (group.rows.find((row) => cellOf(row, header, column) !== '') ?? group.rows[0]!).line;
}

function headerName(header: CsvHeader, column: string): string {
  const position = header.positions.get(column);
  return position === undefined ? column : header.cells[position]!.trim();
}

function sortViolations(violations: CsvViolation[]): CsvViolation[] {
  return violations.sort((a, b) => a.line - b.line);
}

export function clip(text: string, width = 40): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}
