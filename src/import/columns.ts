/**
 * The columns of a shipment CSV (SPEC 7) and how a header row maps onto them. Pure.
 *
 * Column names are the API's field names; a header matches case-insensitively and ignoring spaces,
 * `_` and `-` ("Pallet Count", "pallet_count" and "palletCount" are one column).
 */
import { didYouMean, normaliseName } from '../domain/didYouMean.js';

export const ADDRESS_FIELDS = ['name', 'street1', 'street2', 'city', 'state', 'postalCode', 'countryCode', 'contactName', 'phone'] as const;
export type AddressField = (typeof ADDRESS_FIELDS)[number];
export type Party = 'shipper' | 'consignee';

export type ColumnSpec =
  | { name: string; level: 'component'; field: 'palletCount' | 'poundsWeight' | 'pieceCount'; kind: 'number' }
  | { name: string; level: 'component'; field: 'length' | 'width' | 'height'; kind: 'number' }
  | { name: string; level: 'component'; field: 'description' | 'nmfcCode' | 'packagingType'; kind: 'text' }
  | { name: string; level: 'shipment'; field: 'refNumber' | 'shipmentKey' | 'pickupDate' | 'specialInstructions'; kind: 'text' }
  | { name: string; level: 'shipment'; field: 'accessorials'; kind: 'list' }
  | { name: string; level: 'location'; party: Party; kind: 'text' }
  | { name: string; level: 'address'; party: Party; field: AddressField; kind: 'text' }
  | { name: string; level: 'ignored'; kind: 'text' };

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export const COLUMNS: ReadonlyArray<ColumnSpec> = [
  { name: 'refNumber', level: 'shipment', field: 'refNumber', kind: 'text' },
  { name: 'shipmentKey', level: 'shipment', field: 'shipmentKey', kind: 'text' },
  { name: 'pickupDate', level: 'shipment', field: 'pickupDate', kind: 'text' },
  { name: 'accessorials', level: 'shipment', field: 'accessorials', kind: 'list' },
  { name: 'specialInstructions', level: 'shipment', field: 'specialInstructions', kind: 'text' },
  ...(['shipper', 'consignee'] as const).flatMap((party): ColumnSpec[] => [
    { name: party, level: 'location', party, kind: 'text' },
    ...ADDRESS_FIELDS.map((field): ColumnSpec => ({ name: `${party}${capitalise(field)}`, level: 'address', party, field, kind: 'text' })),
  ]),
  { name: 'palletCount', level: 'component', field: 'palletCount', kind: 'number' },
  { name: 'poundsWeight', level: 'component', field: 'poundsWeight', kind: 'number' },
  { name: 'length', level: 'component', field: 'length', kind: 'number' },
  { name: 'width', level: 'component', field: 'width', kind: 'number' },
  { name: 'height', level: 'component', field: 'height', kind: 'number' },
  { name: 'description', level: 'component', field: 'description', kind: 'text' },
  { name: 'nmfcCode', level: 'component', field: 'nmfcCode', kind: 'text' },
  { name: 'packagingType', level: 'component', field: 'packagingType', kind: 'text' },
  { name: 'pieceCount', level: 'component', field: 'pieceCount', kind: 'number' },
  // The reason column of a reject file: ignored, so a fixed reject file imports as it is.
  { name: 'reason', level: 'ignored', kind: 'text' },
];

export const REASON_COLUMN = 'reason';
const REQUIRED_COMPONENT_COLUMNS = ['palletCount', 'poundsWeight', 'length', 'width', 'height'];
const REQUIRED_ADDRESS_FIELDS: AddressField[] = ['name', 'street1', 'city', 'state', 'postalCode'];

export const normaliseHeaderName = normaliseName;
const BY_NORMALISED_NAME = new Map(COLUMNS.map((column) => [normaliseHeaderName(column.name), column]));

/** The header of one file: for each position, its column (undefined: an unnamed, unused column). */
export interface CsvHeader {
  /** The header cells as written in the file (for messages and the reject file). */
  cells: string[];
  columns: Array<ColumnSpec | undefined>;
  /** Position of each column that the file has, by column name. */
  positions: Map<string, number>;
}

export type HeaderResult = { ok: true; header: CsvHeader } | { ok: false; message: string };

export function resolveHeader(cells: string[]): HeaderResult {
  const columns: Array<ColumnSpec | undefined> = [];
  const positions = new Map<string, number>();
  const unknown: string[] = [];
  const duplicates: string[] = [];
  cells.forEach((cell, position) => {
    const name = cell.trim();
    if (name === '') {
      columns.push(undefined);
      return;
    }
    const column = BY_NORMALISED_NAME.get(normaliseHeaderName(name));
    if (!column) {
      unknown.push(name);
      columns.push(undefined);
      return;
    }
    if (positions.has(column.name)) duplicates.push(name);
    positions.set(column.name, position);
    columns.push(column);
  });

  if (positions.size === 0 || (positions.size === 1 && positions.has(REASON_COLUMN))) {
    return {
      ok: false,
      message: `the first line is not a header row (${preview(cells)}); it must name the columns, e.g. ${SAMPLE_HEADER}`,
    };
  }
  const problems: string[] = [];
  if (unknown.length > 0) {
    problems.push(
      `unknown column${unknown.length === 1 ? '' : 's'} ${unknown.map((name) => `"${name}"${suggestion(name)}`).join(', ')}`,
    );
  }
  if (duplicates.length > 0) problems.push(`column${duplicates.length === 1 ? '' : 's'} ${duplicates.map((name) => `"${name}"`).join(', ')} given twice`);
  const missing: string[] = [];
  const missingComponentColumns = REQUIRED_COMPONENT_COLUMNS.filter((name) => !positions.has(name));
  if (missingComponentColumns.length > 0) missing.push(missingComponentColumns.join(', '));
  for (const party of ['shipper', 'consignee'] as const) {
    if (positions.has(party)) continue;
    const absent = REQUIRED_ADDRESS_FIELDS.map((field) => `${party}${capitalise(field)}`).filter((name) => !positions.has(name));
    if (absent.length > 0) missing.push(`${party} (a saved location) or ${absent.join(', ')}`);
  }
  const missingCount = missingComponentColumns.length + missing.length - (missingComponentColumns.length > 0 ? 1 : 0);
  if (missing.length > 0) problems.push(`missing column${missingCount === 1 ? '' : 's'}: ${missing.join('; ')}`);
  if (problems.length > 0) return { ok: false, message: `${problems.join('; ')}. Known columns: ${COLUMNS.map((column) => column.name).join(', ')}` };
  return { ok: true, header: { cells, columns, positions } };
}

export const SAMPLE_HEADER = 'refNumber,shipper,consignee,palletCount,poundsWeight,length,width,height,description';

function preview(cells: string[]): string {
  const text = cells.slice(0, 3).join(',');
  if (text.length > 40) return `"${text.slice(0, 39)}…"`;
  return `"${text}${cells.length > 3 ? ',…' : ''}"`;
}

/** " (did you mean poundsWeight?)" for a near miss such as "poundWeight" or "weight". */
function suggestion(name: string): string {
  const known = didYouMean(name, COLUMNS.map((column) => column.name));
  return known ? ` (did you mean ${known}?)` : '';
}
