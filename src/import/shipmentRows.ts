/**
 * From CSV rows to shipment requests and back: consecutive rows with the same shipmentKey (else
 * refNumber) form one shipment, each row one order component. The request is validated with the
 * API's own zod schema, and every violation path (`orderComponents[1].dimensions.height`) is
 * mapped back to the CSV line and column it came from. Pure, apart from resolving saved locations
 * through the resolver it is given.
 */
import { shipmentRequestSchema } from '../domain/schemas.js';
import { violationsFromZod } from '../domain/validation.js';
import { ADDRESS_FIELDS, addressColumn, HAZMAT_COLUMNS, type AddressField, type CsvHeader } from './columns.js';
import {
  clip,
  readDateCell,
  readDollarsCell,
  readFreightTermsCell,
  readIdentifierCell,
  readNumberCell,
  readPackingGroupCell,
  readPostalCodeCell,
  readTimeCell,
  readYesNoCell,
  type CellReading,
  utcToday,
} from './cells.js';
import { headerName, lineOf, locateViolations, sortViolations, type SourceNotes } from './locate.js';

import { cellAt, cellOf, type CsvRow, type CsvViolation, type CsvWarning, type RowGroup } from './rows.js';

/** The request field each CSV party fills (a bill-to goes into freightChargeTerms below). */
const REQUEST_FIELD_OF_PARTY = { shipper: 'pickupAddress', consignee: 'deliveryAddress', billTo: 'billTo' } as const;

/**
 * The request a group of rows makes, as the API will receive it (cells as spreadsheets write them
 * made plain: `"1,200"` is 1200, `2134` is `02134`, `11/27/26` is `2026-11-27`; otherwise as typed:
 * the API's schema judges them), or the problems found before it could be sent.
 */
export type PreparedShipment =
  { ok: true; group: RowGroup; request: Record<string, unknown>; warnings: CsvWarning[] } | { ok: false; group: RowGroup; violations: CsvViolation[]; warnings: CsvWarning[] };

/** What reading cells depends on besides the rows. */
export interface CellContext {
  /** The file's delimiter: in a `;` or tab file a comma or a three-decimal point in a number, or a day/month date, is ambiguous. */
  delimiter?: string | undefined;
  /** Today's date (YYYY-MM-DD) at the shipment's origin ZIP: a pickup date in words (`friday`, `+3`) counts from it, as --pickup-date does. */
  todayAt?: ((originPostalCode: string | undefined) => string) | undefined;
  /** The carrier's name for a SCAC given without a carrierName (the carriers' settings); default: the SCAC. */
  carrierNameOf?: ((scac: string) => string | undefined) | undefined;
}

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

export async function prepareShipment(group: RowGroup, header: CsvHeader, locations: LocationResolver, context: CellContext = {}): Promise<PreparedShipment> {
  const delimiter = context.delimiter ?? ',';
  const violations: CsvViolation[] = [];
  const warnings: CsvWarning[] = [];
  const notes: SourceNotes = { fromLocation: { shipper: false, consignee: false, billTo: false } };
  const first = group.rows[0]!;

  // Cells beyond the header, or under a column without a name, would be silently lost.
  for (const row of group.rows) {
    row.cells.forEach((cell, position) => {
      if (header.columns[position] || cell.trim() === '') return;
      violations.push({
        line: row.line,
        column: position < header.cells.length ? `#${position + 1}` : null,
        field: '(row)',
        reason:
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
    const position = header.positions.get(column);
    if (position === undefined) return value;
    for (const row of group.rows) {
      const cell = cellAt(row, position);
      if (cell === '') continue;
      if (value === '') {
        value = cell;
        valueLine = row.line;
      } else if (cell !== value) {
        violations.push({
          line: row.line,
          column: headerName(header, column),
          field: column,
          reason: `differs from line ${valueLine} of the same shipment ("${clip(value)}"); repeat the value or leave it empty`,
          value: cell,
        });
      }
    }
    return value;
  };
  /** A cell read by `read`: its value, or a violation (field: the API path) and undefined. */
  const readCell = <T>(reading: CellReading<T>, line: number, column: string, field: string, text: string): T | undefined => {
    if ('problem' in reading) {
      violations.push({ line, column: headerName(header, column), field, reason: reading.problem, value: text });
      return undefined;
    }
    if (reading.warning) warnings.push({ line, column: headerName(header, column), message: reading.warning });
    return reading.value;
  };
  const shipmentCell = <T>(column: string, read: (text: string) => CellReading<T>): T | undefined => {
    const text = shipmentValue(column);
    return text === '' ? undefined : readCell(read(text), lineOf(group, header, column), column, column, text);
  };

  const request: Record<string, unknown> = {};
  const refNumber = shipmentCell('refNumber', readIdentifierCell);
  if (refNumber) request.refNumber = refNumber;
  shipmentCell('shipmentKey', readIdentifierCell);
  const specialInstructions = shipmentValue('specialInstructions');
  if (specialInstructions) request.specialInstructions = specialInstructions;
  const accessorials = shipmentValue('accessorials');
  if (accessorials) {
    request.accessorials = accessorials
      .split('|')
      .map((code) =>
        code
          .trim()
          .toUpperCase()
          .replace(/[\s-]+/g, '_'),
      )
      .filter(Boolean);
  }

  for (const party of ['shipper', 'consignee', 'billTo'] as const) {
    // The CSV's parties are the request's stops: shipper the pickup, consignee the delivery.
    const target = REQUEST_FIELD_OF_PARTY[party];
    const locationName = header.positions.has(party) ? shipmentValue(party) : '';
    // Read in column order (so are problems listed), keyed in sorted order (as components are).
    const values = new Map<AddressField, unknown>();
    for (const field of ADDRESS_FIELDS) {
      const column = addressColumn(party, field);
      if (!header.positions.has(column)) continue;
      const text = shipmentValue(column);
      if (!text) continue;
      const read = field === 'zipCode' ? readPostalCodeCell : field === 'phoneNumber' ? readIdentifierCell : undefined;
      const value = read ? readCell(read(text), lineOf(group, header, column), column, `${target}.${field}`, text) : text;
      if (value) values.set(field, value);
    }
    const address: Record<string, unknown> = {};
    if (values.size > 0) for (const field of SORTED_ADDRESS_FIELDS) if (values.has(field)) address[field] = values.get(field);
    if (locationName) {
      notes.fromLocation[party] = true;
      if (Object.keys(address).length > 0) {
        violations.push({
          line: first.line,
          column: headerName(header, party),
          field: target,
          reason: `names the saved location "${clip(locationName)}" and also has ${party} address columns; use one or the other`,
          value: locationName,
        });
      }
      const saved = await locations.resolve(locationName);
      if (saved) request[target] = saved;
      else {
        violations.push({
          line: lineOf(group, header, party),
          column: headerName(header, party),
          field: target,
          reason: `no saved location named "${clip(locationName)}" (see: shipper location list)`,
          value: locationName,
        });
        request[target] = {};
      }
    } else if (party !== 'billTo' || Object.keys(address).length > 0) {
      request[target] = address;
    }
  }
  readCarrierFields(request, shipmentValue, shipmentCell, context, delimiter);

  // Words and US dates count from today at the origin, as --pickup-date does.
  const origin = (request.pickupAddress as { zipCode?: unknown }).zipCode;
  const today = () => (context.todayAt ?? utcToday)(typeof origin === 'string' ? origin.slice(0, 5) : undefined);
  const pickupDate = shipmentCell('pickupDate', (text) => readDateCell(text, delimiter, today));
  if (pickupDate) request.requiredPickupDate = pickupDate;

  // Each component's keys are set in sorted order (the cells are read, and refused, in column
  // order): its import key's canonical text is then its own JSON, without a sorted copy (importKey.ts).
  request.orderComponents = group.rows.map((row, index) => {
    const path = `orderComponents[${index}]`;
    const numberAt = (column: 'palletCount' | 'poundsWeight' | 'pieceCount' | 'length' | 'width' | 'height', field: string) => {
      const text = cellOf(row, header, column);
      const reading = readNumberCell(text, delimiter);
      return reading && readCell(reading, row.line, column, `${path}.${field}`, text);
    };
    const palletCount = numberAt('palletCount', 'palletCount');
    const poundsWeight = numberAt('poundsWeight', 'poundsWeight');
    const pieceCount = numberAt('pieceCount', 'pieceCount');
    const length = numberAt('length', 'dimensions.length');
    const width = numberAt('width', 'dimensions.width');
    const height = numberAt('height', 'dimensions.height');
    const description = cellOf(row, header, 'description');
    const nmfcText = cellOf(row, header, 'nmfcCode');
    const nmfcCode = nmfcText ? readCell(readIdentifierCell(nmfcText), row.line, 'nmfcCode', `${path}.nmfcCode`, nmfcText) : nmfcText;
    const packagingType = cellOf(row, header, 'packagingType');
    const stackableText = cellOf(row, header, 'stackable');
    const stackable = stackableText !== '' ? readCell(readYesNoCell(stackableText), row.line, 'stackable', `${path}.stackable`, stackableText) : undefined;
    // Any hazmat cell makes the line hazardous: the schema then asks for the rest of the description.
    let hazmat: Record<string, unknown> | undefined;
    if (HAZMAT_COLUMNS.some((column) => cellOf(row, header, column) !== '')) {
      hazmat = {};
      for (const column of SORTED_HAZMAT_COLUMNS) {
        const text = cellOf(row, header, column);
        if (text === '') continue;
        hazmat[column] = column === 'packingGroup' ? readCell(readPackingGroupCell(text), row.line, column, `${path}.hazmat.${column}`, text) : text;
      }
    }
    const component: Record<string, unknown> = {};
    if (description) component.description = description;
    if (length !== undefined || width !== undefined || height !== undefined) component.dimensions = { height, length, width };
    if (hazmat) component.hazmat = hazmat;
    if (nmfcCode) component.nmfcCode = nmfcCode;
    if (packagingType) component.packagingType = packagingType;
    if (palletCount !== undefined) component.palletCount = palletCount;
    if (pieceCount !== undefined) component.pieceCount = pieceCount;
    if (poundsWeight !== undefined) component.poundsWeight = poundsWeight;
    if (stackableText !== '') component.stackable = stackable;
    return component;
  });

  if (violations.length === 0) return { ok: true, group, request, warnings };
  // Rejected before the API sees it: add what the API's schema would say, so every problem is
  // listed at once (but not a second time for a cell already refused here).
  const parsed = shipmentRequestSchema.safeParse(request);
  if (!parsed.success) {
    const refused = new Set(violations.map((violation) => violation.field));
    violations.push(...locateViolations(violationsFromZod(parsed.error, shipmentRequestSchema), group, header, notes).filter((violation) => !refused.has(violation.field)));
  }
  return { ok: false, group, violations: sortViolations(violations), warnings };
}

/** The hazmat columns in the order of their keys (the order they are read in is HAZMAT_COLUMNS'). */
const SORTED_HAZMAT_COLUMNS = [...HAZMAT_COLUMNS].sort();
const SORTED_ADDRESS_FIELDS = [...ADDRESS_FIELDS].sort();

type ShipmentCellReader = <T>(column: string, read: (text: string) => CellReading<T>) => T | undefined;

/**
 * The carrier's fields of a shipment (issue 16) from its shipment-level columns, into `request`.
 * Only the columns a file has, and only non-empty values, add fields: a file without them makes
 * the same request (and the same re-import key) as before they existed.
 */
function readCarrierFields(request: Record<string, unknown>, value: (column: string) => string, cell: ShipmentCellReader, context: CellContext, delimiter: string): void {
  const scac = value('scac');
  const carrierName = value('carrierName');
  if (scac || carrierName) {
    const name = carrierName || context.carrierNameOf?.(scac.toUpperCase()) || scac;
    request.carrier = { name, ...(scac ? { scac } : {}) };
  }
  const proNumber = cell('proNumber', readIdentifierCell);
  if (proNumber) request.proNumber = proNumber;
  const terms = cell('freightTerms', readFreightTermsCell);
  const billTo = request.billTo;
  delete request.billTo;
  if (terms || billTo) request.freightChargeTerms = { ...(billTo ? { billTo } : {}), terms: terms ?? 'THIRD_PARTY' };
  const declared = value('declaredValue');
  if (declared) {
    // "2.50/lb" is per pound, as --declared-value takes it.
    const [amount, per] = declared.split('/');
    const perPound = per !== undefined && /^\s*(lb|lbs|pound)\s*$/i.test(per);
    const cents = cell('declaredValue', () =>
      per !== undefined && !perPound ? { problem: `"${clip(declared)}": per lb or per shipment, e.g. 2.50/lb` } : readDollarsCell(amount!, delimiter),
    );
    if (cents !== undefined) request.declaredValue = { amountInCents: cents, per: perPound ? 'POUND' : 'SHIPMENT' };
  }
  const cod = cell('codAmount', (text) => readDollarsCell(text, delimiter));
  const feeTerms = cell('codFeeTerms', readFreightTermsCell);
  const customerCheck = cell('codCustomerCheck', readYesNoCell);
  if (cod !== undefined) {
    request.cod = { amountInCents: cod, ...(customerCheck ? { customerCheckAcceptable: true } : {}), ...(feeTerms ? { feeTerms } : {}) };
  } else if (feeTerms !== undefined || customerCheck) {
    request.cod = { ...(customerCheck ? { customerCheckAcceptable: true } : {}), ...(feeTerms ? { feeTerms } : {}) };
  }
  const readyTime = cell('readyTime', readTimeCell);
  const closeTime = cell('closeTime', readTimeCell);
  if (readyTime !== undefined || closeTime !== undefined) request.pickupWindow = { ...(closeTime ? { closeTime } : {}), ...(readyTime ? { readyTime } : {}) };
  const fob = value('fob');
  if (fob) request.fob = fob.toUpperCase().replace(/\s+/g, '_');
  if (cell('masterBol', readYesNoCell)) request.masterBol = true;
  const emergencyPhone = cell('emergencyPhone', readIdentifierCell);
  if (emergencyPhone) request.emergencyContactPhone = emergencyPhone;
}
