import { describe, expect, it } from 'vitest';
import { resolveHeader, type CsvHeader } from '../../src/import/columns.js';
import { groupRows, locateViolations, prepareShipment, type CsvRow, type LocationResolver, type RowGroup } from '../../src/import/shipmentRows.js';
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

const COLUMNS = ['refNumber', 'shipmentKey', 'shipper', 'consignee', 'consigneeName', 'consigneeStreet1', 'consigneeCity', 'consigneeState', 'consigneePostalCode', 'accessorials', 'palletCount', 'poundsWeight', 'length', 'width', 'height', 'description', 'pieceCount'];
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
      expect(result.message).toContain('shipper (a saved location) or shipperName, shipperStreet1, shipperCity, shipperState, shipperPostalCode');
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
      shipper: CHICAGO_DC,
      consignee: { name: 'Store 12', street1: '1 Penn Plaza', city: 'New York', state: 'NY', postalCode: '10001' },
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
    const found = prepared.violations.map((violation) => `${violation.line} ${violation.column} ${violation.message}`);
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
        { field: 'orderComponents[0].pieceCount', message: 'pieceCount must be 0 or more' },
        { field: 'orderComponents[1].dimensions.height', message: 'height must be a number' },
        { field: 'orderComponents[1].dimensions', message: 'dimensions are required' },
        { field: 'consignee.postalCode', message: 'unknown ZIP 10001' },
        { field: 'shipper.postalCode', message: 'unknown ZIP' },
        { field: 'accessorials[0]', message: 'unknown accessorial' },
        { field: 'orderComponents', message: 'too many' },
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
    const [located] = locateViolations([{ field: 'orderComponents[0].poundsWeight', message: 'x' }], { rows: [row(2, FREIGHT)] }, custom);
    expect(located!.column).toBe('Pounds Weight');
  });
});

describe('no saved locations', () => {
  it('an address given only by columns is passed on for the schema to judge', async () => {
    const prepared = await prepareShipment({ rows: [row(2, { consignee: '', ...STORE, ...FREIGHT, shipper: '' })] }, H, noLocations);
    expect(prepared.ok && prepared.request.shipper).toEqual({});
  });
});
