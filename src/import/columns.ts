/**
 * The columns of a shipment CSV (SPEC 7) and how a header row maps onto them. Pure.
 *
 * Column names are the API's field names; a header matches case-insensitively and ignoring spaces
 * and punctuation ("Pallet Count", "pallet_count" and "palletCount" are one column). The names
 * that real exports use (PO Number, Ship To Zip, Weight (lbs), Handling Units...) are aliases,
 * listed below for the help and the README. A name that could mean two columns (`Zip`: the
 * shipper's or the consignee's? `Qty`: pallets or pieces?), a unit we do not take (`Weight (kg)`)
 * or a value we compute (`Class`) is refused with a message that says what to write: never guessed.
 */

export const ADDRESS_FIELDS = ['name', 'address1', 'address2', 'city', 'state', 'zipCode', 'countryCode', 'contactPerson', 'phoneNumber'] as const;
export type AddressField = (typeof ADDRESS_FIELDS)[number];
export type Party = 'shipper' | 'consignee' | 'billTo';
/** The parties an address row needs; a bill-to is optional (third-party freight terms). */
export const REQUIRED_PARTIES = ['shipper', 'consignee'] as const;

/** What a carrier needs beyond the freight (issue 16): shipment-level columns, each read by shipmentRows.ts. */
export const CARRIER_COLUMNS = [
  'carrierName',
  'scac',
  'proNumber',
  'freightTerms',
  'declaredValue',
  'codAmount',
  'codFeeTerms',
  'codCustomerCheck',
  'readyTime',
  'closeTime',
  'fob',
  'masterBol',
  'emergencyPhone',
] as const;
export type CarrierColumn = (typeof CARRIER_COLUMNS)[number];

/** A hazardous line's basic description (49 CFR 172.202), one per row. */
export const HAZMAT_COLUMNS = ['unNumber', 'properShippingName', 'hazardClass', 'packingGroup'] as const;
export type HazmatColumn = (typeof HAZMAT_COLUMNS)[number];

export type ColumnSpec =
  | { name: string; level: 'component'; field: 'palletCount' | 'poundsWeight' | 'pieceCount'; kind: 'number' }
  | { name: string; level: 'component'; field: 'length' | 'width' | 'height'; kind: 'number' }
  | { name: string; level: 'component'; field: 'description' | 'nmfcCode' | 'packagingType' | 'stackable' | HazmatColumn; kind: 'text' }
  | { name: string; level: 'shipment'; field: 'refNumber' | 'shipmentKey' | 'pickupDate' | 'specialInstructions' | CarrierColumn; kind: 'text' }
  | { name: string; level: 'shipment'; field: 'accessorials'; kind: 'list' }
  | { name: string; level: 'location'; party: Party; kind: 'text' }
  | { name: string; level: 'address'; party: Party; field: AddressField; kind: 'text' }
  | { name: string; level: 'ignored'; kind: 'text' };

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** `shipperZipCode`: the column of one field of a party's address. */
export const addressColumn = (party: Party, field: AddressField): string => `${party}${capitalise(field)}`;

export const COLUMNS: ReadonlyArray<ColumnSpec> = [
  { name: 'refNumber', level: 'shipment', field: 'refNumber', kind: 'text' },
  { name: 'shipmentKey', level: 'shipment', field: 'shipmentKey', kind: 'text' },
  { name: 'pickupDate', level: 'shipment', field: 'pickupDate', kind: 'text' },
  { name: 'accessorials', level: 'shipment', field: 'accessorials', kind: 'list' },
  { name: 'specialInstructions', level: 'shipment', field: 'specialInstructions', kind: 'text' },
  ...CARRIER_COLUMNS.map((name): ColumnSpec => ({ name, level: 'shipment', field: name, kind: 'text' })),
  ...(['shipper', 'consignee', 'billTo'] as const).flatMap((party): ColumnSpec[] => [
    { name: party, level: 'location', party, kind: 'text' },
    ...ADDRESS_FIELDS.map((field): ColumnSpec => ({ name: addressColumn(party, field), level: 'address', party, field, kind: 'text' })),
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
  // yes/no: no is a non-stackable line (the freight check classes it at 96 in high), yes may be stacked.
  { name: 'stackable', level: 'component', field: 'stackable', kind: 'text' },
  ...HAZMAT_COLUMNS.map((name): ColumnSpec => ({ name, level: 'component', field: name, kind: 'text' })),
  // The reason column of a reject file: ignored, so a fixed reject file imports as it is.
  { name: 'reason', level: 'ignored', kind: 'text' },
];

// ---------------------------------------------------------------------------------------------
// Aliases: the names real exports use (ERP, WMS, spreadsheets). Matched like the column names.

export interface ColumnAliases {
  column: string;
  aliases: readonly string[];
}

/** Aliases of the shipment and freight-line columns. */
export const COLUMN_ALIASES: ReadonlyArray<ColumnAliases> = [
  {
    column: 'refNumber',
    aliases: [
      'Ref',
      'Ref #',
      'Reference',
      'Reference Number',
      'PO',
      'PO #',
      'PO Number',
      'PO No',
      'Purchase Order',
      'Customer PO',
      'Customer Reference',
      'Order Number',
      'Order #',
      'Order No',
      'Sales Order',
    ],
  },
  { column: 'shipmentKey', aliases: ['Shipment Key'] },
  { column: 'pickupDate', aliases: ['Pickup Date', 'Pick Up Date', 'Ship Date', 'Shipping Date', 'Ready Date'] },
  { column: 'accessorials', aliases: ['Accessorial', 'Accessorial Codes', 'Accessorial Services', 'Services', 'Special Services'] },
  { column: 'specialInstructions', aliases: ['Instructions', 'Special Instructions', 'Delivery Instructions', 'Shipping Instructions', 'BOL Instructions'] },
  {
    column: 'palletCount',
    aliases: [
      'Pallets',
      'Pallet Count',
      'Pallet Qty',
      'Pallet Quantity',
      '# Pallets',
      'No of Pallets',
      'Number of Pallets',
      'Handling Units',
      'Handling Unit Count',
      'HU',
      'HU Count',
      'Skids',
      'Skid Count',
    ],
  },
  { column: 'poundsWeight', aliases: ['Weight', 'Weight (lbs)', 'Gross Weight', 'Total Weight', 'Wt', 'Gross Wt', 'Lbs', 'Pounds'] },
  { column: 'length', aliases: ['L', 'Len', 'Length (in)'] },
  { column: 'width', aliases: ['W', 'Wid', 'Width (in)'] },
  { column: 'height', aliases: ['H', 'Ht', 'Hgt', 'Height (in)'] },
  {
    column: 'description',
    aliases: ['Desc', 'Commodity', 'Commodity Description', 'Item Description', 'Product', 'Product Description', 'Contents', 'Freight Description'],
  },
  { column: 'nmfcCode', aliases: ['NMFC', 'NMFC #', 'NMFC Code', 'NMFC Number', 'NMFC No', 'NMFC Item'] },
  { column: 'packagingType', aliases: ['Packaging', 'Packaging Type', 'Package Type', 'Pkg Type', 'Pkg', 'Handling Unit Type', 'HU Type'] },
  { column: 'pieceCount', aliases: ['Pieces', 'Piece Count', 'Pcs', 'Packages', 'Package Count', 'Cartons', 'Carton Count', 'Boxes'] },
  { column: 'stackable', aliases: ['Stackable', 'Stackable?', 'Stackable (Y/N)', 'Stack', 'Can Stack', 'Stackable Freight'] },
  { column: 'carrierName', aliases: ['Carrier', 'Carrier Name'] },
  { column: 'scac', aliases: ['SCAC', 'Carrier SCAC', 'SCAC Code'] },
  { column: 'proNumber', aliases: ['PRO', 'PRO #', 'PRO Number', 'PRO No'] },
  { column: 'freightTerms', aliases: ['Freight Terms', 'Freight Charge Terms', 'Freight Payment Terms'] },
  { column: 'declaredValue', aliases: ['Declared Value', 'Declared Value ($)'] },
  { column: 'codAmount', aliases: ['COD', 'COD Amount', 'COD ($)', 'Collect on Delivery'] },
  { column: 'codFeeTerms', aliases: ['COD Fee', 'COD Fee Terms'] },
  { column: 'codCustomerCheck', aliases: ['COD Check', 'Customer Check OK', 'Customer Check Acceptable'] },
  { column: 'readyTime', aliases: ['Ready Time', 'Ready At', 'Pickup Ready Time', 'Dock Open Time'] },
  { column: 'closeTime', aliases: ['Close Time', 'Closing Time', 'Dock Close', 'Dock Close Time', 'Pickup Close Time'] },
  { column: 'fob', aliases: ['FOB', 'FOB Point'] },
  { column: 'masterBol', aliases: ['Master BOL', 'Master Bill of Lading'] },
  { column: 'emergencyPhone', aliases: ['Emergency Phone', 'Emergency Contact', 'Emergency Contact Phone', 'Emergency Response Phone', '24 Hour Phone', 'ERG Phone'] },
  { column: 'unNumber', aliases: ['UN', 'UN #', 'UN Number', 'UN/NA', 'UN/NA Number', 'UN ID'] },
  { column: 'properShippingName', aliases: ['Proper Shipping Name', 'PSN', 'Hazmat Description', 'Shipping Name'] },
  { column: 'hazardClass', aliases: ['Hazard Class', 'Hazmat Class', 'HM Class', 'DOT Class', 'Hazard Class/Division'] },
  { column: 'packingGroup', aliases: ['Packing Group', 'PG', 'Hazmat Packing Group'] },
];

/** What a party's address columns may start with; the canonical `shipper` and `consignee` alone name a saved location. */
export const PARTY_ALIASES: Readonly<Record<Party, readonly string[]>> = {
  shipper: ['Shipper', 'Ship From', 'From', 'Origin', 'Pickup', 'Sender'],
  consignee: ['Consignee', 'Ship To', 'To', 'Destination', 'Dest', 'Delivery', 'Deliver To', 'Receiver', 'Recipient'],
  billTo: ['Bill To', 'Third Party', 'Third Party Bill To', 'Billing'],
};

/**
 * What a party's address columns may end with: `Ship To Zip` is consigneeZipCode. The first alias of
 * a renamed field is its name before the published names (issue 40): `shipperPostalCode`,
 * `consigneeStreet1`, ... of files written for earlier versions still read.
 */
export const ADDRESS_FIELD_ALIASES: Readonly<Record<AddressField, readonly string[]>> = {
  name: ['Name', 'Company', 'Company Name'],
  address1: ['Street1', 'Street', 'Street Address', 'Address', 'Address 1', 'Address Line 1', 'Addr1'],
  address2: ['Street2', 'Address 2', 'Address Line 2', 'Addr2', 'Suite'],
  city: ['City', 'Town'],
  state: ['State', 'ST', 'State Code', 'Province'],
  zipCode: ['PostalCode', 'Postal Code', 'Zip', 'Zip Code', 'Zipcode', 'Zip+4', 'Postcode'],
  countryCode: ['CountryCode', 'Country', 'Country Code'],
  contactPerson: ['ContactName', 'Contact', 'Contact Name', 'Attention', 'Attn'],
  phoneNumber: ['Phone', 'Phone Number', 'Telephone', 'Tel'],
};

/** Headers that are refused rather than guessed, each with what to write instead. */
export interface RefusedHeader {
  names: readonly string[];
  message: string;
}

const SHIP_FROM_EXAMPLE: Partial<Record<AddressField, string>> = {
  name: 'Name',
  address1: 'Address',
  address2: 'Address 2',
  state: 'State',
  zipCode: 'Zip',
  countryCode: 'Country',
  contactPerson: 'Contact',
  phoneNumber: 'Phone',
};

export const REFUSED_HEADERS: ReadonlyArray<RefusedHeader> = [
  { names: ['Class', 'Freight Class', 'NMFC Class', 'Density'], message: 'the freight class is computed from the weight and dimensions (density); remove the column' },
  { names: ['Delivery Date', 'ETA', 'Transit Days', 'Transit Time'], message: 'the delivery date is computed from the pickup date and the lane; remove the column' },
  { names: ['Qty', 'Quantity', 'Count', 'Units', 'Unit Count'], message: 'pallets or pieces? name it Pallets (palletCount) or Pieces (pieceCount)' },
  { names: ['Date'], message: 'which date? name it Pickup Date (pickupDate)' },
  {
    names: ['Dimensions', 'Dims', 'LxWxH', 'L x W x H'],
    message: 'give the dimensions of one pallet in three columns, in inches: Length, Width, Height',
  },
  { names: ['Net Weight', 'Net Wt'], message: 'the weight on a bill of lading is the gross weight (freight and pallets); name the column Gross Weight if it is that' },
  {
    names: ['Unit Weight', 'Weight Each', 'Weight per Pallet', 'Pallet Weight'],
    message: 'the weight is that of the whole line (all its pallets); multiply by the pallets, and name the column Weight',
  },
  {
    names: ['Notes', 'Comments', 'Remarks'],
    message: 'is it for the carrier? Special Instructions (specialInstructions) are printed on the bill of lading; rename the column or remove it',
  },
  { names: ['Pickup'], message: 'the pickup date or the shipper? name it Pickup Date (pickupDate), or shipper (a saved location)' },
  { names: ['Delivery'], message: 'the delivery date is computed; for the consignee name it consignee (a saved location) or Ship To Name (consigneeName)' },
  // A party without a field: the saved location's name, or the company's name?
  ...(['shipper', 'consignee', 'billTo'] as const).map((party) => ({
    names: PARTY_ALIASES[party].filter((alias) => normaliseHeaderName(alias) !== normaliseHeaderName(party) && !['Pickup', 'Delivery'].includes(alias)),
    message: `a saved location's name or the company's name? name the column ${party} (a saved location) or ${{ shipper: 'Ship From', consignee: 'Ship To', billTo: 'Bill To' }[party]} Name (${party}Name)`,
  })),
  // A field without a party: the shipper's or the consignee's?
  ...ADDRESS_FIELDS.map((field) => {
    const example = SHIP_FROM_EXAMPLE[field] ?? capitalise(field);
    return {
      names: ADDRESS_FIELD_ALIASES[field],
      message: `the shipper's or the consignee's? name it Ship From ${example} (${addressColumn('shipper', field)}) or Ship To ${example} (${addressColumn('consignee', field)})`,
    };
  }),
  {
    names: ['Hazmat', 'HM', 'H.M.', 'Hazardous', 'Dangerous Goods', 'DG'],
    message:
      'a hazardous line needs its basic description: give UN Number (unNumber), Proper Shipping Name (properShippingName), Hazard Class (hazardClass) and Packing Group (packingGroup) columns',
  },
  {
    names: ['Customer', 'Customer Name', 'Customer Address', 'Customer City', 'Customer State', 'Customer Zip'],
    message: 'is the customer where the freight goes? name the columns Ship To Name, Ship To Address, ... (consigneeName, consigneeAddress1, ...)',
  },
];

/** Units a header may name: the ones the column is in are accepted, the others refused. */
const WEIGHT_UNITS = { accepted: ['lbs', 'lb', 'pounds', 'pound'], refused: ['kilograms', 'kilogram', 'kilos', 'kgs', 'kg', 'grams', 'g', 'tonnes', 'tons'] };
const LENGTH_UNITS = {
  accepted: ['inches', 'inch', 'in'],
  refused: ['centimeters', 'centimetres', 'millimeters', 'millimetres', 'meters', 'metres', 'cm', 'mm', 'm', 'feet', 'ft'],
};
const UNIT_MESSAGES = {
  weight: (unit: string) => `weights are in pounds, not ${unit}; convert the column to pounds and name it Weight (lbs)`,
  length: (unit: string, column: string) => `dimensions are in inches, not ${unit}; convert the column to inches and name it ${capitalise(column)} (in)`,
};

// ---------------------------------------------------------------------------------------------
// Matching

export const REASON_COLUMN = 'reason';
const REQUIRED_COMPONENT_COLUMNS = ['palletCount', 'poundsWeight', 'length', 'width', 'height'];
const REQUIRED_ADDRESS_FIELDS: AddressField[] = ['name', 'address1', 'city', 'state', 'zipCode'];

/** Case, spaces and punctuation do not count; `#` and `+` do (`PO #`, `Zip+4`). */
export function normaliseHeaderName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9#+]+/g, '');
}

const BY_NAME = new Map(COLUMNS.map((column) => [column.name, column]));

interface HeaderIndex {
  /** Every accepted spelling, normalised, to its column. */
  known: Map<string, ColumnSpec>;
  /** Every refused spelling, normalised, to why. */
  refused: Map<string, string>;
  /** Spellings close enough to suggest: those of 4 letters or more (`L`, `HU` would match anything short). */
  suggestable: Array<[string, ColumnSpec]>;
}

let index: HeaderIndex | undefined;

/** Built on first use: the help shows the tables above without paying for it. */
function headerIndex(): HeaderIndex {
  if (index) return index;
  const known = new Map<string, ColumnSpec>();
  const refused = new Map<string, string>();
  const add = (alias: string, column: string) => known.set(normaliseHeaderName(alias), BY_NAME.get(column)!);
  for (const column of COLUMNS) add(column.name, column.name);
  for (const { column, aliases } of COLUMN_ALIASES) for (const alias of aliases) add(alias, column);
  for (const party of ['shipper', 'consignee', 'billTo'] as const) {
    for (const prefix of PARTY_ALIASES[party]) {
      for (const field of ADDRESS_FIELDS) for (const suffix of ADDRESS_FIELD_ALIASES[field]) add(`${prefix} ${suffix}`, addressColumn(party, field));
    }
  }
  for (const { names, message } of REFUSED_HEADERS) for (const name of names) if (!known.has(normaliseHeaderName(name))) refused.set(normaliseHeaderName(name), message);
  index = { known, refused, suggestable: [...known.entries()].filter(([alias]) => alias.length >= 4) };
  return index;
}

type HeaderMatch = { column: ColumnSpec } | { refused: string } | undefined;

/** The column a header cell names, the reason it is refused, or undefined (unknown). */
export function matchHeader(cell: string): HeaderMatch {
  const name = normaliseHeaderName(cell);
  const known = headerIndex().known.get(name);
  if (known) return { column: known };
  const refused = headerIndex().refused.get(name);
  if (refused) return { refused };
  return matchWithUnit(name);
}

/** `Weight (lbs)`, `Length in`, `Gross Weight (kg)`: the column without its unit, and the unit checked. */
function matchWithUnit(name: string): HeaderMatch {
  for (const [kind, units] of [
    ['weight', WEIGHT_UNITS],
    ['length', LENGTH_UNITS],
  ] as const) {
    for (const unit of [...units.accepted, ...units.refused].sort((a, b) => b.length - a.length)) {
      if (!name.endsWith(unit) || name.length === unit.length) continue;
      // "Width (in inches)": the unit, then the word "in".
      const stems = [name.slice(0, -unit.length), name.slice(0, -unit.length).replace(/in$/, '')];
      for (const stem of stems) {
        const known = headerIndex().known.get(stem);
        const refused = headerIndex().refused.get(stem);
        if (refused) return { refused };
        if (!known || !isMeasuredIn(known, kind)) continue;
        return units.accepted.includes(unit) ? { column: known } : { refused: UNIT_MESSAGES[kind](unit, known.name) };
      }
    }
  }
  return undefined;
}

function isMeasuredIn(column: ColumnSpec, kind: 'weight' | 'length'): boolean {
  return kind === 'weight' ? column.name === 'poundsWeight' : ['length', 'width', 'height'].includes(column.name);
}

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
  const refused: string[] = [];
  const duplicates: string[] = [];
  cells.forEach((cell, position) => {
    const name = cell.trim();
    columns.push(undefined);
    if (name === '') return;
    const match = matchHeader(name);
    if (!match) return void unknown.push(name);
    if ('refused' in match) return void refused.push(`column "${clipName(name)}": ${match.refused}`);
    const { column } = match;
    const earlier = positions.get(column.name);
    if (earlier !== undefined) {
      const first = cells[earlier]!.trim();
      duplicates.push(
        normaliseHeaderName(first) === normaliseHeaderName(name)
          ? `column "${clipName(name)}" given twice`
          : `columns "${clipName(first)}" and "${clipName(name)}" both mean ${column.name}; keep one`,
      );
      return;
    }
    positions.set(column.name, position);
    columns[position] = column;
  });

  if (positions.size === 0 || (positions.size === 1 && positions.has(REASON_COLUMN))) {
    return {
      ok: false,
      message: `the first line is not a header row (${preview(cells)}); it must name the columns, e.g. ${SAMPLE_HEADER}`,
    };
  }
  const problems: string[] = [];
  if (unknown.length > 0) {
    problems.push(`unknown column${unknown.length === 1 ? '' : 's'} ${unknown.map((name) => `"${clipName(name)}"${suggestion(name)}`).join(', ')}`);
  }
  problems.push(...refused, ...duplicates);
  const missing: string[] = [];
  const missingComponentColumns = REQUIRED_COMPONENT_COLUMNS.filter((name) => !positions.has(name));
  if (missingComponentColumns.length > 0) missing.push(missingComponentColumns.join(', '));
  for (const party of REQUIRED_PARTIES) {
    if (positions.has(party)) continue;
    const absent = REQUIRED_ADDRESS_FIELDS.map((field) => addressColumn(party, field)).filter((name) => !positions.has(name));
    if (absent.length > 0) missing.push(`${party} (a saved location) or ${absent.join(', ')}`);
  }
  const missingCount = missingComponentColumns.length + missing.length - (missingComponentColumns.length > 0 ? 1 : 0);
  if (missing.length > 0) problems.push(`missing column${missingCount === 1 ? '' : 's'}: ${missing.join('; ')}`);
  if (problems.length > 0) {
    return {
      ok: false,
      message: `${problems.join('; ')}. Known columns: ${COLUMNS.map((column) => column.name).join(', ')} (and the names in: shipper import --help)`,
    };
  }
  return { ok: true, header: { cells, columns, positions } };
}

export const SAMPLE_HEADER = 'refNumber,shipper,consignee,palletCount,poundsWeight,length,width,height,description';

function preview(cells: string[]): string {
  const text = cells.slice(0, 3).join(',');
  if (text.length > 40) return `"${text.slice(0, 39)}…"`;
  return `"${text}${cells.length > 3 ? ',…' : ''}"`;
}

/** A header is quoted in messages; a runaway one (a whole row pasted in the header) is cut. */
function clipName(name: string): string {
  return name.length > 60 ? `${name.slice(0, 59)}…` : name;
}

/** " (did you mean poundsWeight?)" for a near miss such as "poundWeight", "weigth" or "Total Pallets". */
function suggestion(name: string): string {
  const wanted = normaliseHeaderName(name);
  if (wanted.length === 0) return '';
  let best: { name: string; distance: number } | undefined;
  for (const [alias, column] of headerIndex().suggestable) {
    // "Total Pallets" holds a known name whole; other near misses are a few edits away.
    const contains = wanted.includes(alias) && alias.length >= 5;
    const distance = contains ? 1 : Math.abs(alias.length - wanted.length) > 3 ? Infinity : editDistance(wanted, alias);
    if (!best || distance < best.distance) best = { name: column.name, distance };
  }
  return best && best.distance <= Math.max(2, Math.floor(wanted.length / 4)) ? ` (did you mean ${best.name}?)` : '';
}

/** Edits from one name to the other, a swap of two neighbours counting as one (`weigth`). */
function editDistance(a: string, b: string): number {
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) current[j] = Math.min(current[j]!, beforePrevious[j - 2]! + 1);
    }
    beforePrevious = previous;
    previous = current;
  }
  return previous[b.length]!;
}
