/** Header names as real exports write them: the alias table, what is refused rather than guessed, and the suggestions. */
import { describe, expect, it } from 'vitest';
import {
  ADDRESS_FIELD_ALIASES,
  ADDRESS_FIELDS,
  addressColumn,
  COLUMN_ALIASES,
  COLUMNS,
  matchHeader,
  normaliseHeaderName,
  PARTY_ALIASES,
  REFUSED_HEADERS,
  resolveHeader,
} from '../../src/import/columns.js';

const columnOf = (header: string) => {
  const match = matchHeader(header);
  return match && 'column' in match ? match.column.name : match && 'refused' in match ? `refused: ${match.refused}` : undefined;
};

function message(cells: string[]): string {
  const result = resolveHeader(cells);
  if (result.ok) throw new Error(`expected ${cells.join(',')} to be refused`);
  return result.message;
}

/** A complete header but for the columns under test. */
const REST = ['shipper', 'consignee', 'palletCount', 'poundsWeight', 'length', 'width', 'height'];

describe('the alias table', () => {
  it('maps every alias to its column, and no spelling to two columns or to a column and a refusal', () => {
    const seen = new Map<string, string>();
    const spellings: Array<[string, string]> = [
      ...COLUMNS.map((column): [string, string] => [column.name, column.name]),
      ...COLUMN_ALIASES.flatMap(({ column, aliases }) => aliases.map((alias): [string, string] => [alias, column])),
      ...(['shipper', 'consignee'] as const).flatMap((party) =>
        PARTY_ALIASES[party].flatMap((prefix) =>
          ADDRESS_FIELDS.flatMap((field) => ADDRESS_FIELD_ALIASES[field].map((suffix): [string, string] => [`${prefix} ${suffix}`, addressColumn(party, field)])),
        ),
      ),
    ];
    expect(spellings.length).toBeGreaterThan(500);
    for (const [spelling, column] of spellings) {
      expect(columnOf(spelling), spelling).toBe(column);
      const earlier = seen.get(normaliseHeaderName(spelling));
      if (earlier) expect(earlier, spelling).toBe(column);
      seen.set(normaliseHeaderName(spelling), column);
    }
    for (const { names } of REFUSED_HEADERS) for (const name of names) expect(seen.has(normaliseHeaderName(name)), name).toBe(false);
  });

  it('reads the names of the issue and of common exports, ignoring case, spaces and punctuation', () => {
    const expected: Record<string, string> = {
      PO: 'refNumber',
      'PO Number': 'refNumber',
      'PO #': 'refNumber',
      'po#': 'refNumber',
      Reference: 'refNumber',
      Ref: 'refNumber',
      'Customer PO': 'refNumber',
      'Order Number': 'refNumber',
      'Ship Date': 'pickupDate',
      'Pickup Date': 'pickupDate',
      Weight: 'poundsWeight',
      'Weight (lbs)': 'poundsWeight',
      WEIGHT_LB: 'poundsWeight',
      'Gross Weight': 'poundsWeight',
      'Gross Weight (lbs)': 'poundsWeight',
      Pallets: 'palletCount',
      'Pallet Qty': 'palletCount',
      'Handling Units': 'palletCount',
      Pieces: 'pieceCount',
      NMFC: 'nmfcCode',
      'NMFC #': 'nmfcCode',
      Commodity: 'description',
      Description: 'description',
      'Length (in)': 'length',
      'Width (inches)': 'width',
      'Height in': 'height',
      L: 'length',
      W: 'width',
      H: 'height',
      'Consignee Name': 'consigneeName',
      'Ship To Name': 'consigneeName',
      'Ship-To Zip': 'consigneeZipCode',
      'Ship To Postal Code': 'consigneeZipCode',
      'Ship To ZIP+4': 'consigneeZipCode',
      'Ship From Zip Code': 'shipperZipCode',
      'Origin Zip': 'shipperZipCode',
      'Dest City': 'consigneeCity',
      'Ship To Address Line 2': 'consigneeAddress2',
      'Shipper Attn': 'shipperContactPerson',
      pallet_count: 'palletCount',
      reason: 'reason',
    };
    for (const [header, column] of Object.entries(expected)) expect(columnOf(header), header).toBe(column);
  });

  it('reads the column names of earlier versions (before the published names, issue 40) as the columns they were', () => {
    // The templates and files written for those versions name the columns so.
    const earlier: Record<string, string> = {
      Street1: 'Address1',
      Street2: 'Address2',
      PostalCode: 'ZipCode',
      ContactName: 'ContactPerson',
      Phone: 'PhoneNumber',
      Name: 'Name',
      City: 'City',
      State: 'State',
      CountryCode: 'CountryCode',
    };
    for (const party of ['shipper', 'consignee', 'billTo']) {
      for (const [before, now] of Object.entries(earlier)) expect(columnOf(`${party}${before}`), `${party}${before}`).toBe(`${party}${now}`);
    }
    expect(ADDRESS_FIELDS.map((field) => addressColumn('shipper', field))).toEqual([
      'shipperName',
      'shipperAddress1',
      'shipperAddress2',
      'shipperCity',
      'shipperState',
      'shipperZipCode',
      'shipperCountryCode',
      'shipperContactPerson',
      'shipperPhoneNumber',
    ]);
    const header = resolveHeader([
      'refNumber',
      'shipperName',
      'shipperStreet1',
      'shipperCity',
      'shipperState',
      'shipperPostalCode',
      'shipperPhone',
      'consigneeName',
      'consigneeStreet1',
      'consigneeStreet2',
      'consigneeCity',
      'consigneeState',
      'consigneePostalCode',
      'consigneeContactName',
      'palletCount',
      'poundsWeight',
      'length',
      'width',
      'height',
    ]);
    expect(header.ok ? [...header.header.positions.keys()] : header.message).toEqual([
      'refNumber',
      'shipperName',
      'shipperAddress1',
      'shipperCity',
      'shipperState',
      'shipperZipCode',
      'shipperPhoneNumber',
      'consigneeName',
      'consigneeAddress1',
      'consigneeAddress2',
      'consigneeCity',
      'consigneeState',
      'consigneeZipCode',
      'consigneeContactPerson',
      'palletCount',
      'poundsWeight',
      'length',
      'width',
      'height',
    ]);
  });

  it('refuses a name that could mean two columns, saying what to write', () => {
    expect(columnOf('Zip')).toBe("refused: the shipper's or the consignee's? name it Ship From Zip (shipperZipCode) or Ship To Zip (consigneeZipCode)");
    expect(columnOf('Postal Code')).toMatch(/Ship From Zip \(shipperZipCode\) or Ship To Zip/);
    expect(columnOf('City')).toMatch(/Ship From City \(shipperCity\) or Ship To City \(consigneeCity\)/);
    expect(columnOf('Qty')).toBe('refused: pallets or pieces? name it Pallets (palletCount) or Pieces (pieceCount)');
    expect(columnOf('Quantity')).toMatch(/pallets or pieces/);
    expect(columnOf('Ship To')).toMatch(/a saved location's name or the company's name\? name the column consignee \(a saved location\) or Ship To Name \(consigneeName\)/);
    expect(columnOf('Pickup')).toMatch(/the pickup date or the shipper\?/);
    expect(columnOf('Date')).toMatch(/which date\? name it Pickup Date/);
    expect(columnOf('Customer Name')).toMatch(/is the customer where the freight goes\?.*\(consigneeName, consigneeAddress1, \.\.\.\)/);
    expect(columnOf('Notes')).toMatch(/printed on the bill of lading/);
  });

  it('refuses computed values and units it cannot take, never reading them as pounds or inches', () => {
    expect(columnOf('Class')).toBe('refused: the freight class is computed from the weight and dimensions (density); remove the column');
    expect(columnOf('Freight Class')).toMatch(/computed/);
    expect(columnOf('Weight (kg)')).toBe('refused: weights are in pounds, not kg; convert the column to pounds and name it Weight (lbs)');
    expect(columnOf('Gross Weight (KGS)')).toMatch(/not kgs/);
    expect(columnOf('Weight_kg')).toMatch(/not kg/);
    expect(columnOf('Length (cm)')).toBe('refused: dimensions are in inches, not cm; convert the column to inches and name it Length (in)');
    expect(columnOf('H (mm)')).toMatch(/not mm; .* Height \(in\)/);
    expect(columnOf('Width ft')).toMatch(/not ft/);
    expect(columnOf('Net Weight (lbs)')).toMatch(/gross weight/);
    expect(columnOf('Weight per Pallet')).toMatch(/the whole line/);
    expect(columnOf('Dims')).toMatch(/three columns/);
    // A unit on a column that has none is just unknown.
    expect(columnOf('Pallets (kg)')).toBeUndefined();
  });
});

describe('a header row', () => {
  it('resolves an ERP export header to the API columns, keeping the names as written', () => {
    const result = resolveHeader([
      'PO Number',
      'Ship From',
      'Ship To Name',
      'Ship To Address',
      'Ship To City',
      'Ship To State',
      'Ship To Zip',
      'Pallets',
      'Weight (lbs)',
      'L',
      'W',
      'H',
    ]);
    expect(result.ok ? '' : result.message).toMatch(/Ship From/);
    const fixed = resolveHeader([
      'PO Number',
      'Shipper',
      'Ship To Name',
      'Ship To Address',
      'Ship To City',
      'Ship To State',
      'Ship To Zip',
      'Pallets',
      'Weight (lbs)',
      'L',
      'W',
      'H',
    ]);
    expect(fixed.ok).toBe(true);
    if (!fixed.ok) return;
    expect([...fixed.header.positions.keys()]).toEqual([
      'refNumber',
      'shipper',
      'consigneeName',
      'consigneeAddress1',
      'consigneeCity',
      'consigneeState',
      'consigneeZipCode',
      'palletCount',
      'poundsWeight',
      'length',
      'width',
      'height',
    ]);
    expect(fixed.header.cells[6]).toBe('Ship To Zip');
  });

  it('names two columns that mean the same, and a column given twice', () => {
    expect(message(['PO Number', 'Order Number', ...REST])).toContain('columns "PO Number" and "Order Number" both mean refNumber; keep one');
    expect(message(['Weight', ...REST])).toContain('columns "Weight" and "poundsWeight" both mean poundsWeight; keep one');
    expect(message(['refNumber', 'ref number', ...REST])).toContain('column "ref number" given twice');
  });

  it('lists every refusal with the unknown and missing columns, each with its reason', () => {
    const text = message(['Zip', 'Weight (kg)', 'Class', 'Hazmat', 'Frobnicate', ...REST.filter((name) => name !== 'poundsWeight')]);
    expect(text).toContain('unknown column "Frobnicate"');
    expect(text).toContain('column "Hazmat": a hazardous line needs its basic description');
    expect(text).toContain('column "Zip": the shipper\'s or the consignee\'s?');
    expect(text).toContain('column "Weight (kg)": weights are in pounds, not kg');
    expect(text).toContain('column "Class": the freight class is computed');
    expect(text).toContain('missing column: poundsWeight');
    expect(text).toContain('(and the names in: shipper import --help)');
  });

  it('suggests the column for a near miss of a name or an alias, and nothing for what is far from all', () => {
    const cases: Record<string, string | undefined> = {
      weigth: 'poundsWeight',
      'PO Numbr': 'refNumber',
      'Pallet Cnt': 'palletCount',
      'Total Pallets': 'palletCount',
      'Ship To Zipp': 'consigneeZipCode',
      'Consigne Name': 'consigneeName',
      Commodty: 'description',
      descripton: 'description',
      'Proper Shiping Name': 'properShippingName',
      'Emergency Phon': 'emergencyPhone',
      Frobnicate: undefined,
      X: undefined,
      'Insured Amount': undefined,
    };
    for (const [header, column] of Object.entries(cases)) {
      const text = message([header, ...REST]);
      if (column) expect(text, header).toContain(`unknown column "${header}" (did you mean ${column}?)`);
      else expect(text, header).toMatch(new RegExp(`unknown column "${header}"(?! \\(did you mean)`));
    }
  });

  it('cuts a runaway header name in messages', () => {
    const text = message(['x'.repeat(5000), ...REST]);
    expect(text).toContain(`unknown column "${'x'.repeat(59)}…"`);
    expect(text.length).toBeLessThan(2000);
  });
});
