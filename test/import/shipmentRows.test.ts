import { describe, expect, it } from 'vitest';
import { resolveHeader, type CsvHeader } from '../../src/import/columns.js';
import { readDateCell, readNumberCell, readPostalCodeCell } from '../../src/import/cells.js';
import { locateViolations } from '../../src/import/locate.js';
import type { CsvRow, RowGroup } from '../../src/import/rows.js';
import { groupRows, prepareShipment, type LocationResolver } from '../../src/import/shipmentRows.js';
import { shipmentRequestSchema } from '../../src/domain/schemas.js';
import { CHICAGO_DC } from '../helpers/fixtures.js';

function header(cells: string[]): CsvHeader {
  const result = resolveHeader(cells);
  if (!result.ok) throw new Error(result.message);
  return result.header;
}

const noLocations: LocationResolver = { resolve: async () => undefined };
const locations: LocationResolver = { resolve: async (name) => (name.toLowerCase() === 'chicago-dc' ? { ...CHICAGO_DC } : undefined) };

async function* rowsOf(rows: CsvRow[]): AsyncGenerator<CsvRow> {
  yield* rows;
}
async function groupsOf(rows: CsvRow[], csvHeader: CsvHeader): Promise<RowGroup[]> {
  const groups: RowGroup[] = [];
  for await (const group of groupRows(rowsOf(rows), csvHeader)) groups.push(group);
  return groups;
}

const COLUMNS = [
  'refNumber',
  'shipmentKey',
  'shipper',
  'consignee',
  'consigneeName',
  'consigneeStreet1',
  'consigneeCity',
  'consigneeState',
  'consigneePostalCode',
  'accessorials',
  'palletCount',
  'poundsWeight',
  'length',
  'width',
  'height',
  'description',
  'pieceCount',
];
const H = header(COLUMNS);
function row(line: number, values: Partial<Record<(typeof COLUMNS)[number], string>>): CsvRow {
  return { line, cells: COLUMNS.map((column) => values[column] ?? '') };
}
const FREIGHT = { palletCount: '1', poundsWeight: '500', length: '48', width: '40', height: '48' };
const STORE = { consigneeName: 'Store 12', consigneeStreet1: '1 Penn Plaza', consigneeCity: 'New York', consigneeState: 'NY', consigneePostalCode: '10001' };

describe('the header row', () => {
  it('matches column names ignoring case, spaces, _ and -', () => {
    const result = resolveHeader(['Ref Number', 'SHIPPER', 'consignee', 'pallet_count', 'Pounds-Weight', 'length', 'Width', 'height', 'Reason']);
    expect(result.ok).toBe(true);
    if (result.ok) expect([...result.header.positions.keys()]).toEqual(['refNumber', 'shipper', 'consignee', 'palletCount', 'poundsWeight', 'length', 'width', 'height', 'reason']);
  });

  it('names unknown and repeated columns, and every missing one', () => {
    const result = resolveHeader(['refNumber', 'refnumber', 'weigth', 'palletCount']);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.message).toContain('unknown column "weigth"');
      expect(result.message).toContain('"refnumber" given twice');
      expect(result.message).toContain('poundsWeight, length, width, height');
      expect(result.message).toContain('shipper (a saved location) or shipperName, shipperAddress1, shipperCity, shipperState, shipperZipCode');
    }
  });
});

describe('grouping rows into shipments', () => {
  it('puts consecutive rows with the same shipmentKey, else refNumber, into one shipment; rows without either stand alone', async () => {
    const groups = await groupsOf(
      [
        row(2, { refNumber: 'A' }),
        row(3, { refNumber: 'A' }),
        row(4, { refNumber: 'B', shipmentKey: 'k1' }),
        row(5, { refNumber: 'B2', shipmentKey: 'k1' }),
        row(6, {}),
        row(7, {}),
        row(8, { refNumber: 'A' }),
      ],
      H,
    );
    expect(groups.map((group) => group.rows.map((r) => r.line))).toEqual([[2, 3], [4, 5], [6], [7], [8]]);
  });
});

describe('a shipment from its rows', () => {
  it('builds the API request: shipment fields from the first row that has them, one component per row, numbers as numbers', async () => {
    const prepared = await prepareShipment(
      {
        rows: [
          row(2, { refNumber: 'PO-1', shipper: 'Chicago-DC', ...STORE, accessorials: 'liftgate-delivery| APPOINTMENT', ...FREIGHT, description: 'Parts', pieceCount: '0' }),
          row(3, { refNumber: 'PO-1', ...FREIGHT, poundsWeight: '1e3', height: '40.5' }),
        ],
      },
      H,
      locations,
    );
    expect(prepared.ok).toBe(true);
    if (!prepared.ok) return;
    expect(prepared.request).toEqual({
      refNumber: 'PO-1',
      accessorials: ['LIFTGATE_DELIVERY', 'APPOINTMENT'],
      pickupAddress: CHICAGO_DC,
      deliveryAddress: { name: 'Store 12', address1: '1 Penn Plaza', city: 'New York', state: 'NY', zipCode: '10001' },
      orderComponents: [
        { palletCount: 1, poundsWeight: 500, dimensions: { length: 48, width: 40, height: 48 }, description: 'Parts', pieceCount: 0 },
        { palletCount: 1, poundsWeight: 1000, dimensions: { length: 48, width: 40, height: 40.5 } },
      ],
    });
    expect(shipmentRequestSchema.safeParse(prepared.request).success).toBe(true);
  });

  it('refuses a shipment value that differs between its rows, an unknown saved location, a location plus address columns, and cells beyond the header', async () => {
    const prepared = await prepareShipment(
      {
        rows: [
          row(2, { refNumber: 'PO-1', shipper: 'nowhere', consignee: 'chicago-dc', ...STORE, accessorials: 'APPOINTMENT', ...FREIGHT }),
          { line: 3, cells: [...row(3, { refNumber: 'PO-1', accessorials: 'LIFTGATE_PICKUP', ...FREIGHT }).cells, 'extra'] },
        ],
      },
      H,
      locations,
    );
    expect(prepared.ok).toBe(false);
    if (prepared.ok) return;
    const found = prepared.violations.map((violation) => `${violation.line} ${violation.column} ${violation.reason}`);
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^3 accessorials differs from line 2 of the same shipment \("APPOINTMENT"\)/),
        expect.stringMatching(/^2 shipper no saved location named "nowhere"/),
        expect.stringMatching(/^2 consignee names the saved location "chicago-dc" and also has consignee address columns/),
        expect.stringMatching(/^3 null the row has 18 values but the header names 17 columns/),
      ]),
    );
  });
});

describe('violations mapped back to the CSV', () => {
  const group: RowGroup = {
    rows: [row(7, { refNumber: 'PO-1', shipper: 'chicago-dc', ...STORE, ...FREIGHT, pieceCount: '-1' }), row(8, { refNumber: 'PO-1', ...FREIGHT, height: 'tall' })],
  };

  it('name the line and column of each field path', () => {
    const located = locateViolations(
      [
        { field: 'orderComponents[0].pieceCount', reason: 'pieceCount must be 0 or more' },
        { field: 'orderComponents[1].dimensions.height', reason: 'height must be a number' },
        { field: 'orderComponents[1].dimensions', reason: 'dimensions are required' },
        { field: 'deliveryAddress.zipCode', reason: 'unknown ZIP 10001' },
        { field: 'pickupAddress.zipCode', reason: 'unknown ZIP' },
        { field: 'accessorials[0]', reason: 'unknown accessorial' },
        { field: 'orderComponents', reason: 'too many' },
      ],
      group,
      H,
    );
    expect(located.map((violation) => [violation.line, violation.column, violation.value ?? null])).toEqual([
      [7, 'pieceCount', '-1'],
      [8, 'height', 'tall'],
      [8, 'length', '48'],
      [7, 'consigneePostalCode', '10001'],
      [7, 'shipper', 'chicago-dc'],
      [7, 'accessorials', null],
      [7, null, null],
    ]);
  });

  it('use the header as written in the file', () => {
    const custom = header(COLUMNS.map((column) => (column === 'poundsWeight' ? 'Pounds Weight' : column)));
    const [located] = locateViolations([{ field: 'orderComponents[0].poundsWeight', reason: 'x' }], { rows: [row(2, FREIGHT)] }, custom);
    expect(located!.column).toBe('Pounds Weight');
  });
});

describe('no saved locations', () => {
  it('an address given only by columns is passed on for the schema to judge', async () => {
    const prepared = await prepareShipment({ rows: [row(2, { consignee: '', ...STORE, ...FREIGHT, shipper: '' })] }, H, noLocations);
    expect(prepared.ok && prepared.request.pickupAddress).toEqual({});
  });
});

describe('numbers as spreadsheets write them', () => {
  const read = (text: string, delimiter = ',') => {
    const reading = readNumberCell(text, delimiter);
    return reading === undefined ? undefined : 'problem' in reading ? `problem: ${reading.problem}` : reading.value;
  };

  it('reads thousands separators every three digits in a comma file, and refuses them anywhere else', () => {
    expect(read('1200')).toBe(1200);
    expect(read('40.5')).toBe(40.5);
    expect(read('1,200')).toBe(1200);
    expect(read('12,345,678')).toBe(12345678);
    expect(read('1,200.75')).toBe(1200.75);
    expect(read('999')).toBe(999);
    for (const misplaced of ['1,20', '1,2000', '12,34,567', '1,200,00', ',200', '1,', '1,5', '1.200,5']) {
      expect(read(misplaced), misplaced).toMatch(
        /^problem: the commas are not thousands separators \(those come every three digits: 1,200\); a decimal is written with a point \(1\.5\)$/,
      );
    }
  });

  it('reads a space, no-break space or narrow no-break space between groups of three, in any file', () => {
    for (const delimiter of [',', ';', '\t']) {
      expect(read('1 200', delimiter)).toBe(1200);
      expect(read('1\u00A0200', delimiter)).toBe(1200);
      expect(read('12\u202F345.5', delimiter)).toBe(12345.5);
    }
    expect(read('1 20')).toBe('1 20'); // not a number: the schema says so
  });

  it('refuses a comma, or a point before exactly three digits, in a ; or tab file, where either may be the decimal separator', () => {
    for (const delimiter of [';', '\t']) {
      expect(read('1,5', delimiter)).toMatch(/^problem: in a (;|tab)-separated file a comma in a number may be a decimal comma \(1,5 = 1\.5\) or a thousands separator/);
      expect(read('1,200', delimiter)).toMatch(/decimal comma/);
      expect(read('1.200', delimiter)).toMatch(/^problem: in a (;|tab)-separated file "1\.200" may be 1\.2 or 1200 \(a thousands point\)/);
      expect(read('48.250', delimiter)).toMatch(/may be 48\.25 or 48250/);
      expect(read('1.25', delimiter)).toBe(1.25);
      expect(read('1.2500', delimiter)).toBe(1.25);
      expect(read('1200', delimiter)).toBe(1200);
    }
    expect(read('1.200', ',')).toBe(1.2); // a comma file is US: the point is decimal
  });

  it('reads scientific notation as a number, and leaves the absurd to the schema', () => {
    expect(read('1.2E+03')).toBe(1200);
    expect(read('1e3')).toBe(1000);
    expect(read('')).toBeUndefined();
    for (const text of ['heavy', 'NaN', 'Infinity', '12 lbs', '--1', '1..2']) expect(read(text), text).toBe(text);
    // Not a number JSON can carry: passed on as text, so the schema refuses it the same way in both modes.
    expect(read('9'.repeat(400))).toBe('9'.repeat(400));
  });
});

describe('ZIP codes as spreadsheets write them', () => {
  const read = (text: string) => {
    const reading = readPostalCodeCell(text);
    return 'problem' in reading ? `problem: ${reading.problem}` : reading.warning ? `${reading.value} (${reading.warning})` : reading.value;
  };

  it('pads four digits (and a ZIP+4 that lost its zero) with a warning; refuses three or fewer; leaves 5, 6, 9, 10 digits to the schema', () => {
    expect(read('123')).toBe('problem: a US ZIP code has 5 digits, this one 3; if a spreadsheet dropped its leading zeros, write them (e.g. 00123)');
    expect(read('7')).toMatch(/this one 1; .*00007/);
    expect(read('2134')).toBe('02134 (ZIP 2134 read as 02134 (a spreadsheet dropped its leading zero))');
    expect(read('21341234')).toBe('021341234 (ZIP 21341234 read as 021341234 (a spreadsheet dropped its leading zero))');
    expect(read('2134-1234')).toMatch(/^02134-1234 /);
    expect(read('02134')).toBe('02134');
    expect(read('021345')).toBe('021345');
    expect(read('606011234')).toBe('606011234');
    expect(read('60601-1234')).toBe('60601-1234');
    expect(read('6060112345')).toBe('6060112345');
    expect(read('6.06E+04')).toMatch(/^problem: a spreadsheet shortened this number to scientific notation/);
  });

  it('the API takes ZIP+4 with or without the hyphen, and refuses 6 and 10 digits', async () => {
    const { postalCodeSchema } = await import('../../src/domain/schemas.js');
    expect(postalCodeSchema.parse('606011234')).toBe('60601');
    expect(postalCodeSchema.parse('60601-1234')).toBe('60601');
    for (const wrong of ['606011', '6060112345', '60601-123', '60601--1234', '0213']) expect(postalCodeSchema.safeParse(wrong).success, wrong).toBe(false);
  });
});

describe('pickup dates as spreadsheets write them', () => {
  // Wednesday 2026-11-18 at the origin.
  const read = (text: string, delimiter = ',') => {
    const reading = readDateCell(text, delimiter, () => '2026-11-18');
    return 'problem' in reading ? `problem: ${reading.problem}` : reading.value;
  };

  it('reads US dates, ISO dates, year-first slashes, Excel midnight times and the words --pickup-date takes', () => {
    expect(read('11/27/2026')).toBe('2026-11-27');
    expect(read('11/27/26')).toBe('2026-11-27');
    expect(read('1/5/2027')).toBe('2027-01-05');
    expect(read('2026-11-27')).toBe('2026-11-27');
    expect(read('2026/11/27')).toBe('2026-11-27');
    expect(read('11/27/2026 0:00')).toBe('2026-11-27');
    expect(read('2026-11-27 00:00:00')).toBe('2026-11-27');
    expect(read('11/27/2026 12:00:00 AM')).toBe('2026-11-27');
    expect(read('11/27')).toBe('2026-11-27');
    expect(read('Nov 27')).toBe('2026-11-27');
    expect(read('friday')).toBe('2026-11-20');
    expect(read('tomorrow')).toBe('2026-11-19');
    expect(read('+3')).toBe('2026-11-21');
  });

  it('refuses what is not a date, and a day/month date that is ambiguous in a ; or tab file', () => {
    expect(read('2/30/2026')).toMatch(/^problem: 2\/30\/2026 is not a real calendar date/);
    expect(read('soon')).toMatch(/^problem: cannot read "soon" as a date; write e\.g\. 2026-11-27/);
    expect(read('11/27/2026 14:30')).toMatch(/^problem: cannot read/);
    expect(read('05/11/2026', ';')).toBe('problem: in a ;-separated file "05/11/2026" may be month/day or day/month; write the date as YYYY-MM-DD');
    expect(read('05.11.2026', '\t')).toMatch(/may be month\/day or day\/month/);
    expect(read('11/27/2026', ';')).toBe('2026-11-27'); // 27 is no month: not ambiguous
    expect(read('2026-05-11', ';')).toBe('2026-05-11');
  });
});

describe('a shipment from cells as spreadsheets write them', () => {
  const COLUMNS2 = [
    'refNumber',
    'shipper',
    'consigneeName',
    'consigneeStreet1',
    'consigneeCity',
    'consigneeState',
    'consigneePostalCode',
    'consigneePhone',
    'pickupDate',
    'palletCount',
    'poundsWeight',
    'length',
    'width',
    'height',
    'nmfcCode',
  ];
  const H2 = header(COLUMNS2);
  const cells = (values: Partial<Record<(typeof COLUMNS2)[number], string>>) => COLUMNS2.map((column) => values[column] ?? '');
  const BOSTON = { consigneeName: 'Store 7', consigneeStreet1: '1 Congress St', consigneeCity: 'Boston', consigneeState: 'MA' };

  it('pads the ZIP with a warning naming the line, reads "1,200", a US date at the origin and ="..." text cells', async () => {
    const todayAt = (zip: string | undefined) => (zip === '60608' ? '2026-11-18' : 'wrong origin');
    const prepared = await prepareShipment(
      {
        rows: [
          {
            line: 4,
            cells: cells({
              refNumber: '="000123"',
              shipper: 'chicago-dc',
              ...BOSTON,
              consigneePostalCode: '2108',
              pickupDate: 'friday',
              palletCount: '2',
              poundsWeight: '1,200',
              length: '48',
              width: '40',
              height: '48',
              nmfcCode: '="061700"',
            }),
          },
        ],
      },
      H2,
      locations,
      { delimiter: ',', todayAt },
    );
    expect(prepared.ok).toBe(true);
    if (!prepared.ok) return;
    expect(prepared.warnings).toEqual([{ line: 4, column: 'consigneePostalCode', message: 'ZIP 2108 read as 02108 (a spreadsheet dropped its leading zero)' }]);
    expect(prepared.request).toMatchObject({
      refNumber: '000123',
      requiredPickupDate: '2026-11-20',
      deliveryAddress: { zipCode: '02108' },
      orderComponents: [{ palletCount: 2, poundsWeight: 1200, nmfcCode: '061700' }],
    });
  });

  it("lists a refused cell once, with its line, column, API field and value, with the schema's other findings", async () => {
    const prepared = await prepareShipment(
      {
        rows: [
          {
            line: 2,
            cells: cells({
              refNumber: 'A',
              shipper: 'chicago-dc',
              ...BOSTON,
              consigneePostalCode: '213',
              consigneePhone: '3.12555E+09',
              pickupDate: '13/27/2026',
              palletCount: '0',
              poundsWeight: '1,20',
              length: '48',
              width: '40',
              height: '48',
            }),
          },
          { line: 3, cells: cells({ refNumber: 'A', palletCount: '1', poundsWeight: '300', length: '48', width: '40,5', height: '48', nmfcCode: '1.6103E+05' }) },
        ],
      },
      H2,
      locations,
      { delimiter: ',' },
    );
    expect(prepared.ok).toBe(false);
    if (prepared.ok) return;
    expect(prepared.violations.map((violation) => [violation.line, violation.column, violation.field, violation.value])).toEqual([
      [2, 'consigneePostalCode', 'deliveryAddress.zipCode', '213'],
      [2, 'consigneePhone', 'deliveryAddress.phoneNumber', '3.12555E+09'],
      [2, 'pickupDate', 'pickupDate', '13/27/2026'],
      [2, 'poundsWeight', 'orderComponents[0].poundsWeight', '1,20'],
      [2, 'palletCount', 'orderComponents[0].palletCount', '0'],
      [3, 'width', 'orderComponents[1].dimensions.width', '40,5'],
      [3, 'nmfcCode', 'orderComponents[1].nmfcCode', '1.6103E+05'],
    ]);
    expect(prepared.violations[3]!.reason).toMatch(/the commas are not thousands separators/);
    expect(prepared.violations[4]!.reason).toBe('palletCount must be at least 1');
  });
});
