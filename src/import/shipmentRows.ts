/**
 * From CSV rows to shipment requests and back: consecutive rows with the same shipmentKey (else
 * refNumber) form one shipment, each row one order component. The request is validated with the
 * API's own zod schema, and every violation path (`orderComponents[1].dimensions.height`) is
 * mapped back to the CSV line and column it came from. Pure, apart from resolving saved locations
 * through the resolver it is given.
 */
import { parseUserDate } from '../cli/dates.js';
import { shipmentRequestSchema, type Violation } from '../domain/schemas.js';
import { violationsFromZod } from '../domain/validation.js';
import { ADDRESS_FIELDS, addressColumn, HAZMAT_COLUMNS, type CsvHeader, type Party } from './columns.js';

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

/** Something read in a way the user should know about (a ZIP padded with its lost leading zero). */
export interface CsvWarning {
  line: number;
  column: string;
  message: string;
}

/**
 * The request a group of rows makes, as the API will receive it (cells as spreadsheets write them
 * made plain: `"1,200"` is 1200, `2134` is `02134`, `11/27/26` is `2026-11-27`; otherwise as typed:
 * the API's schema judges them), or the problems found before it could be sent.
 */
export type PreparedShipment =
  | { ok: true; group: RowGroup; request: Record<string, unknown>; warnings: CsvWarning[] }
  | { ok: false; group: RowGroup; violations: CsvViolation[]; warnings: CsvWarning[] };

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

export function cellOf(row: CsvRow, header: CsvHeader, column: string): string {
  const position = header.positions.get(column);
  return position === undefined ? '' : unwrapTextFormula((row.cells[position] ?? '').trim());
}

/** `="02134"`: how exports keep a spreadsheet from dropping leading zeros (written `"=""02134"""` in the CSV). The text inside is the value. */
function unwrapTextFormula(cell: string): string {
  if (cell.charCodeAt(0) !== 61 /* = */) return cell;
  const match = /^="(.*)"$/s.exec(cell);
  return match ? match[1]!.trim() : cell;
}

// ---------------------------------------------------------------------------------------------
// Cells as spreadsheets write them. Pure.

export type CellReading<T> = { value: T; warning?: string | undefined } | { problem: string };

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const COMMA_THOUSANDS = /^[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;
/** Thousands in groups of three after a space, a no-break space or a narrow one (French and Swiss spreadsheets). */
const SPACE_THOUSANDS = /^[+-]?\d{1,3}(?:[ \u00A0\u202F\u2009]\d{3})+(?:\.\d+)?$/;
const THREE_DECIMALS = /^[+-]?\d{1,3}\.\d{3}$/;

const delimiterName = (delimiter: string) => (delimiter === ';' ? 'a ;-separated' : 'a tab-separated');

/**
 * A number cell: a number when it is written as one (`1200`, `40.5`, `1e3`, `"1,200"` in a
 * comma-separated file, `1 200`), the text when it is not one at all (the schema names it), or a
 * problem when the separators are ambiguous or misplaced. A `;` or tab file may come from a
 * spreadsheet that writes `1,5` for 1.5 and `1.200` for 1200: there a comma, or a point before
 * exactly three digits, is refused rather than guessed.
 */
export function readNumberCell(text: string, delimiter = ','): CellReading<number | string> | undefined {
  if (text === '') return undefined;
  const usStyle = delimiter === ',';
  if (DECIMAL.test(text)) {
    if (!usStyle && THREE_DECIMALS.test(text)) {
      return { problem: `in ${delimiterName(delimiter)} file "${text}" may be ${Number(text)} or ${text.replace(/^[+-]/, '').replace('.', '')} (a thousands point); write it without a thousands separator` };
    }
    // "1e400" is not a number JSON can carry: passed on as text, the schema names it in both modes.
    return { value: Number.isFinite(Number(text)) ? Number(text) : text };
  }
  if (SPACE_THOUSANDS.test(text)) return { value: Number(text.replace(/[ \u00A0\u202F\u2009]/g, '')) };
  if (/^[+-]?[\d.,]*\d[\d.,]*$/.test(text) && text.includes(',')) {
    if (!usStyle) {
      return {
        problem: `in ${delimiterName(delimiter)} file a comma in a number may be a decimal comma (1,5 = 1.5) or a thousands separator (1,500 = 1500); write the number with a decimal point and no separator`,
      };
    }
    if (COMMA_THOUSANDS.test(text)) return { value: Number(text.replace(/,/g, '')) };
    return { problem: 'the commas are not thousands separators (those come every three digits: 1,200); a decimal is written with a point (1.5)' };
  }
  return { value: text };
}

/** Excel writes a long number as `1.23457E+11` unless its column is Text: the digits are gone. */
const EXCEL_SCIENTIFIC = /^[+-]?\d(?:\.\d+)?E\+\d+$/i;
const SCIENTIFIC_PROBLEM = 'a spreadsheet shortened this number to scientific notation and its digits are lost; format the column as Text and save the file again';

/** An identifier (reference, NMFC code, phone): refused when a spreadsheet has shortened it, else as written. */
export function readIdentifierCell(text: string): CellReading<string> {
  return EXCEL_SCIENTIFIC.test(text) ? { problem: SCIENTIFIC_PROBLEM } : { value: text };
}

/**
 * A ZIP code: a spreadsheet that took `02134` for a number wrote `2134` (and `021341234`, a
 * ZIP+4 without its hyphen, as `21341234`): four digits get their zero back, with a warning.
 * Three digits or fewer are refused (which zeros were lost is a guess). The rest is the schema's.
 */
export function readPostalCodeCell(text: string): CellReading<string> {
  if (/^\d{4}(?:-?\d{4})?$/.test(text)) return { value: `0${text}`, warning: `ZIP ${text} read as 0${text} (a spreadsheet dropped its leading zero)` };
  if (/^\d{1,3}$/.test(text)) {
    return { problem: `a US ZIP code has 5 digits, this one ${text.length}; if a spreadsheet dropped its leading zeros, write them (e.g. ${text.padStart(5, '0')})` };
  }
  return readIdentifierCell(text);
}

/** A time of midnight that a spreadsheet adds to a date cell (`11/27/2026 0:00`, `2026-11-27 00:00:00`). */
const MIDNIGHT = /(?:[ T]+(?:0?0:00(?::00(?:\.0+)?)?|12:00(?::00)? ?AM))$/i;

/**
 * A pickup date: `2026-11-27` as it is (the schema judges it), `2026/11/27`, and the words and
 * US dates `--pickup-date` takes (`11/27/2026`, `11/27/26`, `11/27`, `Nov 27`, `friday`, `+3`),
 * counted from `today`. In a `;` or tab file a date such as `05/11/2026` may be day/month: when
 * both numbers could be a month it is refused.
 */
export function readDateCell(text: string, delimiter: string, today: () => string): CellReading<string> {
  const value = text.replace(MIDNIGHT, '').trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return { value };
  const yearFirst = /^(\d{4})[/.](\d{1,2})[/.](\d{1,2})$/.exec(value);
  if (yearFirst) return { value: `${yearFirst[1]}-${yearFirst[2]!.padStart(2, '0')}-${yearFirst[3]!.padStart(2, '0')}` };
  const dayOrMonth = /^(\d{1,2})[/.](\d{1,2})(?:[/.]\d{2,4})?$/.exec(value);
  if (dayOrMonth && delimiter !== ',' && Number(dayOrMonth[1]) <= 12 && Number(dayOrMonth[2]) <= 12) {
    return { problem: `in ${delimiterName(delimiter)} file "${value}" may be month/day or day/month; write the date as YYYY-MM-DD` };
  }
  const parsed = parseUserDate(value, today());
  return parsed.ok ? { value: parsed.date } : { problem: parsed.message };
}

/** Without a clock from the caller: today in UTC. */
const utcToday = () => new Date().toISOString().slice(0, 10);

/**
 * Dollars as spreadsheets write them (`1250`, `1,250.50`, `$1,250.50`) to whole cents. A third
 * decimal is refused (a carrier bills in cents), as is anything that is not an amount.
 */
export function readDollarsCell(text: string, delimiter = ','): CellReading<number> {
  const reading = readNumberCell(text.replace(/^\$\s*/, '').replace(/\s*(USD|\$)$/i, ''), delimiter);
  if (!reading || 'problem' in reading) return reading ?? { problem: 'an amount in dollars is required' };
  const { value } = reading;
  if (typeof value !== 'number') return { problem: `"${clip(text)}" is not an amount in dollars, e.g. 1250 or $1,250.50` };
  const cents = Math.round(value * 100);
  if (Math.abs(value * 100 - cents) > 1e-6) return { problem: `${text} has more than 2 decimals; amounts are in dollars and cents` };
  return { value: cents };
}

const YES = new Set(['yes', 'y', 'true', 'x', '1']);
const NO = new Set(['no', 'n', 'false', '0']);

/** A yes/no cell: yes, y, true, x, 1 or no, n, false, 0 (an empty cell is no). */
export function readYesNoCell(text: string): CellReading<boolean> {
  const word = text.trim().toLowerCase();
  if (YES.has(word)) return { value: true };
  if (NO.has(word)) return { value: false };
  return { problem: `"${clip(text)}" is not yes or no (yes, y, x, true, 1 / no, n, false, 0)` };
}

/** Freight charge terms as bills of lading and ERPs write them. */
const FREIGHT_TERMS: Record<string, string> = {
  prepaid: 'PREPAID',
  ppd: 'PREPAID',
  pp: 'PREPAID',
  collect: 'COLLECT',
  col: 'COLLECT',
  coll: 'COLLECT',
  cc: 'COLLECT',
  thirdparty: 'THIRD_PARTY',
  '3rdparty': 'THIRD_PARTY',
  tp: 'THIRD_PARTY',
  '3p': 'THIRD_PARTY',
};

export function readFreightTermsCell(text: string): CellReading<string> {
  const terms = FREIGHT_TERMS[text.toLowerCase().replace(/[^a-z0-9]/g, '')];
  return terms ? { value: terms } : { problem: `"${clip(text)}" is not freight terms: prepaid (PPD), collect (COL) or third party (3RD PARTY)` };
}

/** A packing group as people write it: II, PG II, 2; the roman numeral is what the schema and the BOL take. */
export function readPackingGroupCell(text: string): CellReading<string> {
  const bare = text.trim().toUpperCase().replace(/^PG\s*/, '');
  const roman = ({ '1': 'I', '2': 'II', '3': 'III' } as Record<string, string>)[bare] ?? bare;
  return { value: roman };
}

/** `8:00`, `8:00 AM`, `14:30`, `2:30 PM`, `0800`: the HH:MM (24-hour) the API takes; anything else as written, for the schema to judge. */
export function readTimeCell(text: string): CellReading<string> {
  const match = /^(\d{1,2}):?(\d{2})(?::00)?\s*([AaPp])?\.?[Mm]?\.?$/.exec(text.trim());
  if (!match) return { value: text };
  let hour = Number(match[1]);
  const minute = match[2]!;
  const half = match[3]?.toLowerCase();
  if (half) {
    if (hour < 1 || hour > 12) return { problem: `"${text}": an hour before AM or PM is 1 to 12` };
    hour = (hour % 12) + (half === 'p' ? 12 : 0);
  }
  return { value: `${String(hour).padStart(2, '0')}:${minute}` };
}


interface SourceNotes {
  /** The party's address came from a saved location (the `shipper`/`consignee` column). */
  fromLocation: Record<Party, boolean>;
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
  /** A cell read by `read`: its value, or a violation (field: the API path) and undefined. */
  const readCell = <T>(reading: CellReading<T>, line: number, column: string, field: string, text: string): T | undefined => {
    if ('problem' in reading) {
      violations.push({ line, column: headerName(header, column), field, message: reading.problem, value: text });
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
      .map((code) => code.trim().toUpperCase().replace(/[\s-]+/g, '_'))
      .filter(Boolean);
  }

  for (const party of ['shipper', 'consignee', 'billTo'] as const) {
    const locationName = header.positions.has(party) ? shipmentValue(party) : '';
    const address: Record<string, unknown> = {};
    for (const field of ADDRESS_FIELDS) {
      const column = addressColumn(party, field);
      if (!header.positions.has(column)) continue;
      const text = shipmentValue(column);
      if (!text) continue;
      const read = field === 'postalCode' ? readPostalCodeCell : field === 'phone' ? readIdentifierCell : undefined;
      const value = read ? readCell(read(text), lineOf(group, header, column), column, `${party}.${field}`, text) : text;
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
    } else if (party !== 'billTo' || Object.keys(address).length > 0) {
      request[party] = address;
    }
  }
  readCarrierFields(request, shipmentValue, shipmentCell, context, delimiter);

  // Words and US dates count from today at the origin, as --pickup-date does.
  const origin = (request.shipper as { postalCode?: unknown }).postalCode;
  const today = () => (context.todayAt ?? utcToday)(typeof origin === 'string' ? origin.slice(0, 5) : undefined);
  const pickupDate = shipmentCell('pickupDate', (text) => readDateCell(text, delimiter, today));
  if (pickupDate) request.pickupDate = pickupDate;

  request.orderComponents = group.rows.map((row, index) => {
    const component: Record<string, unknown> = {};
    const path = `orderComponents[${index}]`;
    const numberAt = (column: 'palletCount' | 'poundsWeight' | 'pieceCount' | 'length' | 'width' | 'height', field: string) => {
      const text = cellOf(row, header, column);
      const reading = readNumberCell(text, delimiter);
      return reading && readCell(reading, row.line, column, `${path}.${field}`, text);
    };
    for (const field of ['palletCount', 'poundsWeight', 'pieceCount'] as const) {
      const value = numberAt(field, field);
      if (value !== undefined) component[field] = value;
    }
    const [length, width, height] = (['length', 'width', 'height'] as const).map((side) => numberAt(side, `dimensions.${side}`));
    if (length !== undefined || width !== undefined || height !== undefined) component.dimensions = { length, width, height };
    for (const field of ['description', 'nmfcCode', 'packagingType'] as const) {
      const text = cellOf(row, header, field);
      const value = field === 'nmfcCode' && text ? readCell(readIdentifierCell(text), row.line, field, `${path}.${field}`, text) : text;
      if (value) component[field] = value;
    }
    // Any hazmat cell makes the line hazardous: the schema then asks for the rest of the description.
    if (HAZMAT_COLUMNS.some((column) => cellOf(row, header, column) !== '')) {
      const hazmat: Record<string, unknown> = {};
      for (const column of HAZMAT_COLUMNS) {
        const text = cellOf(row, header, column);
        if (text === '') continue;
        hazmat[column] = column === 'packingGroup' ? readCell(readPackingGroupCell(text), row.line, column, `${path}.hazmat.${column}`, text) : text;
      }
      component.hazmat = hazmat;
    }
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
  if (terms || billTo) request.freightChargeTerms = { terms: terms ?? 'THIRD_PARTY', ...(billTo ? { billTo } : {}) };
  const declared = value('declaredValue');
  if (declared) {
    // "2.50/lb" is per pound, as --declared-value takes it.
    const [amount, per] = declared.split('/');
    const perPound = per !== undefined && /^\s*(lb|lbs|pound)\s*$/i.test(per);
    const cents = cell('declaredValue', () => (per !== undefined && !perPound ? { problem: `"${clip(declared)}": per lb or per shipment, e.g. 2.50/lb` } : readDollarsCell(amount!, delimiter)));
    if (cents !== undefined) request.declaredValue = { amountInCents: cents, per: perPound ? 'POUND' : 'SHIPMENT' };
  }
  const cod = cell('codAmount', (text) => readDollarsCell(text, delimiter));
  const feeTerms = cell('codFeeTerms', readFreightTermsCell);
  const customerCheck = cell('codCustomerCheck', readYesNoCell);
  if (cod !== undefined) {
    request.cod = { amountInCents: cod, ...(feeTerms ? { feeTerms } : {}), ...(customerCheck ? { customerCheckAcceptable: true } : {}) };
  } else if (feeTerms !== undefined || customerCheck) {
    request.cod = { ...(feeTerms ? { feeTerms } : {}), ...(customerCheck ? { customerCheckAcceptable: true } : {}) };
  }
  const readyTime = cell('readyTime', readTimeCell);
  const closeTime = cell('closeTime', readTimeCell);
  if (readyTime !== undefined || closeTime !== undefined) request.pickupWindow = { ...(readyTime ? { readyTime } : {}), ...(closeTime ? { closeTime } : {}) };
  const fob = value('fob');
  if (fob) request.fob = fob.toUpperCase().replace(/\s+/g, '_');
  if (cell('masterBol', readYesNoCell)) request.masterBol = true;
  const emergencyPhone = cell('emergencyPhone', readIdentifierCell);
  if (emergencyPhone) request.emergencyContactPhone = emergencyPhone;
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
    if (name === 'hazmat') {
      const column = inner ?? HAZMAT_COLUMNS.find((candidate) => header.positions.has(candidate));
      return { line: row.line, column: column && header.positions.has(column) ? column : null };
    }
    return { line: row.line, column: header.positions.has(name) ? name : null };
  }
  const carrierColumn = CARRIER_FIELD_COLUMNS.find(([prefix]) => field === prefix || field.startsWith(`${prefix}.`))?.[1].find((column) => header.positions.has(column));
  if (carrierColumn) return { line: lineOf(group, header, carrierColumn), column: carrierColumn };
  const party = /^(shipper|consignee|freightChargeTerms\.billTo)(?:\.(\w+))?/.exec(field);
  if (party) {
    const name = (party[1] === 'freightChargeTerms.billTo' ? 'billTo' : party[1]) as Party;
    const fromLocation = notes ? notes.fromLocation[name] : header.positions.has(name) && group.rows.some((row) => cellOf(row, header, name) !== '');
    const column = fromLocation || !party[2] ? name : `${name}${party[2].charAt(0).toUpperCase()}${party[2].slice(1)}`;
    const known = [column, name, ...(name === 'billTo' ? ['freightTerms'] : [])].find((candidate) => header.positions.has(candidate)) ?? null;
    return { line: known ? lineOf(group, header, known) : first.line, column: known };
  }
  const name = /^(\w+)/.exec(field)?.[1];
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
