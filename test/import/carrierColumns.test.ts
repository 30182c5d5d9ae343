/**
 * The carrier's columns of a shipment CSV (issue 16): carrier and SCAC, PRO, freight terms and a
 * bill-to, declared value, COD, pickup window, FOB, master BOL, emergency phone, and per row the
 * hazmat description. Each read as exports write it, each located on its line and column when the
 * API refuses it, and a file without them making exactly the request it made before.
 */
import { describe, expect, it } from 'vitest';
import { matchHeader, resolveHeader, type CsvHeader } from '../../src/import/columns.js';
import { readDollarsCell, readFreightTermsCell, readPackingGroupCell, readTimeCell, readYesNoCell } from '../../src/import/cells.js';
import { locateViolations } from '../../src/import/locate.js';
import type { CsvRow } from '../../src/import/rows.js';
import { prepareShipment, type LocationResolver } from '../../src/import/shipmentRows.js';
import { shipmentRequestSchema } from '../../src/domain/schemas.js';
import { violationsFromZod } from '../../src/domain/validation.js';
import { CHICAGO_DC, NYC_STORE } from '../helpers/fixtures.js';

const BILLING_OFFICE = { name: 'Acme Payables', address1: '200 W Monroe St', city: 'Chicago', state: 'IL', zipCode: '60606' };
const locations: LocationResolver = {
  resolve: async (name) => ({ 'chicago-dc': CHICAGO_DC, 'nyc-store': NYC_STORE, 'acme-ap': BILLING_OFFICE })[name.toLowerCase()],
};

/** An ERP-style header: the names exports use, not ours. */
const CELLS = [
  'PO Number',
  'shipper',
  'consignee',
  'Pallets',
  'Weight (lbs)',
  'Length',
  'Width',
  'Height',
  'Description',
  'Carrier',
  'SCAC',
  'PRO #',
  'Freight Terms',
  'Bill To',
  'Declared Value',
  'COD Amount',
  'COD Fee',
  'COD Check',
  'Ready Time',
  'Dock Close',
  'FOB',
  'Master BOL',
  'Emergency Phone',
  'UN Number',
  'Proper Shipping Name',
  'Hazard Class',
  'Packing Group',
];
function header(cells: string[] = CELLS): CsvHeader {
  const result = resolveHeader(cells);
  if (!result.ok) throw new Error(result.message);
  return result.header;
}
const H = header();
type Cell = (typeof CELLS)[number];
const BASE: Partial<Record<Cell, string>> = {
  'PO Number': 'PO-7',
  shipper: 'chicago-dc',
  consignee: 'nyc-store',
  Pallets: '2',
  'Weight (lbs)': '1,200',
  Length: '48',
  Width: '40',
  Height: '48',
};
function row(line: number, values: Partial<Record<Cell, string>>, cells: string[] = CELLS): CsvRow {
  return { line, cells: cells.map((cell) => values[cell] ?? '') };
}
async function requestOf(rows: CsvRow[], csvHeader = H, carrierNameOf?: (scac: string) => string | undefined) {
  const prepared = await prepareShipment({ rows }, csvHeader, locations, { carrierNameOf });
  if (!prepared.ok) throw new Error(JSON.stringify(prepared.violations));
  return prepared.request;
}
/** What the API's schema says of a request, located in the file as the importer reports it. */
function locatedProblems(request: Record<string, unknown>, rows: CsvRow[], csvHeader = H) {
  const parsed = shipmentRequestSchema.safeParse(request);
  if (parsed.success) return [];
  return locateViolations(violationsFromZod(parsed.error, shipmentRequestSchema), { rows }, csvHeader).map(({ line, column, reason }) => ({ line, column, reason }));
}

describe('the header', () => {
  it('knows the names exports give the carrier columns', () => {
    const names = (cells: string[]) =>
      cells.map((cell) => {
        const match = matchHeader(cell);
        return match && 'column' in match ? match.column.name : match;
      });
    expect(names(CELLS.slice(9))).toEqual([
      'carrierName',
      'scac',
      'proNumber',
      'freightTerms',
      'billTo',
      'declaredValue',
      'codAmount',
      'codFeeTerms',
      'codCustomerCheck',
      'readyTime',
      'closeTime',
      'fob',
      'masterBol',
      'emergencyPhone',
      'unNumber',
      'properShippingName',
      'hazardClass',
      'packingGroup',
    ]);
    expect(names(['Bill To Name', 'Bill To Address', 'Bill To City', 'Bill To State', 'Bill To Zip', 'Third Party Name', 'UN/NA', 'PG', 'PRO', 'Carrier SCAC'])).toEqual([
      'billToName',
      'billToAddress1',
      'billToCity',
      'billToState',
      'billToZipCode',
      'billToName',
      'unNumber',
      'packingGroup',
      'proNumber',
      'scac',
    ]);
  });

  it('refuses a bare Hazmat column (which description?) and a bare Third Party (a location or a company?)', () => {
    const hazmat = resolveHeader([...CELLS.slice(0, 9), 'Hazmat']);
    expect(hazmat.ok).toBe(false);
    if (!hazmat.ok) expect(hazmat.message).toContain('column "Hazmat": a hazardous line needs its basic description: give UN Number (unNumber)');
    const party = resolveHeader([...CELLS.slice(0, 9), 'Third Party']);
    expect(party.ok).toBe(false);
    if (!party.ok) expect(party.message).toContain('name the column billTo (a saved location) or Bill To Name (billToName)');
  });

  it('needs no carrier column: the header of last wave reads as before', () => {
    expect(resolveHeader(CELLS.slice(0, 9)).ok).toBe(true);
  });
});

describe('the request a shipment makes', () => {
  it('by default (no carrier cells) has no carrier field at all: the same request, and re-import key, as before', async () => {
    const request = await requestOf([row(2, BASE)]);
    expect(Object.keys(request).sort()).toEqual(['deliveryAddress', 'orderComponents', 'pickupAddress', 'refNumber']);
    const without = await requestOf([row(2, BASE, CELLS.slice(0, 9))], header(CELLS.slice(0, 9)));
    expect(request).toEqual(without);
  });

  it('carries every carrier column into its API field, and the hazmat cells of each row into its line', async () => {
    const rows = [
      row(2, {
        ...BASE,
        Description: 'Gasoline',
        Carrier: 'Old Dominion',
        SCAC: 'odfl',
        'PRO #': '1234567-8',
        'Freight Terms': '3rd Party',
        'Bill To': 'ACME-AP',
        'Declared Value': '$2.50/lb',
        'COD Amount': '$1,250.50',
        'COD Fee': 'PPD',
        'COD Check': 'Y',
        'Ready Time': '8:00 AM',
        'Dock Close': '4:30 PM',
        FOB: 'origin',
        'Master BOL': 'x',
        'Emergency Phone': '800-424-9300',
        'UN Number': 'un 1203',
        'Proper Shipping Name': 'Gasoline',
        'Hazard Class': '3',
        'Packing Group': 'PG II',
      }),
      row(3, { 'PO Number': 'PO-7', Pallets: '1', 'Weight (lbs)': '300', Length: '48', Width: '40', Height: '40', Description: 'Cups' }),
    ];
    const request = await requestOf(rows);
    expect(request).toMatchObject({
      carrier: { name: 'Old Dominion', scac: 'odfl' },
      proNumber: '1234567-8',
      freightChargeTerms: { terms: 'THIRD_PARTY', billTo: BILLING_OFFICE },
      declaredValue: { amountInCents: 250, per: 'POUND' },
      cod: { amountInCents: 125050, feeTerms: 'PREPAID', customerCheckAcceptable: true },
      pickupWindow: { readyTime: '08:00', closeTime: '16:30' },
      fob: 'ORIGIN',
      masterBol: true,
      emergencyContactPhone: '800-424-9300',
    });
    const components = request.orderComponents as Array<Record<string, unknown>>;
    expect(components[0]!.hazmat).toEqual({ unNumber: 'un 1203', properShippingName: 'Gasoline', hazardClass: '3', packingGroup: 'II' });
    expect(components[1]).not.toHaveProperty('hazmat');
    // What the API makes of it: the SCAC and UN number as they are printed.
    const parsed = shipmentRequestSchema.parse(request);
    expect(parsed.carrier).toEqual({ name: 'Old Dominion', scac: 'ODFL' });
    expect(parsed.orderComponents[0]!.hazmat).toEqual({ unNumber: 'UN1203', properShippingName: 'Gasoline', hazardClass: '3', packingGroup: 'II' });
  });

  it('a SCAC alone takes the carrier name from the settings, else the SCAC itself', async () => {
    const rows = [row(2, { ...BASE, SCAC: 'RRFT' })];
    expect((await requestOf(rows, H, (scac) => (scac === 'RRFT' ? 'Roadrunner Freight' : undefined))).carrier).toEqual({ name: 'Roadrunner Freight', scac: 'RRFT' });
    expect((await requestOf(rows)).carrier).toEqual({ name: 'RRFT', scac: 'RRFT' });
  });

  it('a bill-to without freight terms is third party; with other terms the API says why, on the bill-to column', async () => {
    expect((await requestOf([row(2, { ...BASE, 'Bill To': 'acme-ap' })])).freightChargeTerms).toEqual({ terms: 'THIRD_PARTY', billTo: BILLING_OFFICE });
    const rows = [row(2, { ...BASE, 'Bill To': 'acme-ap', 'Freight Terms': 'Prepaid' })];
    expect(locatedProblems(await requestOf(rows), rows)).toEqual([
      { line: 2, column: 'Bill To', reason: 'a bill-to address goes with THIRD_PARTY terms; PREPAID bills the shipper' },
    ]);
    const noBillTo = [row(2, { ...BASE, 'Freight Terms': 'third party' })];
    // The empty column to fill in; a file without one names the terms.
    expect(locatedProblems(await requestOf(noBillTo), noBillTo)).toEqual([{ line: 2, column: 'Bill To', reason: 'third-party freight terms need the bill-to address' }]);
    const termsOnly = CELLS.slice(0, 13);
    const noColumn = [row(2, { ...BASE, 'Freight Terms': 'third party' }, termsOnly)];
    expect(locatedProblems(await requestOf(noColumn, header(termsOnly)), noColumn, header(termsOnly))).toEqual([
      { line: 2, column: 'Freight Terms', reason: 'third-party freight terms need the bill-to address' },
    ]);
  });

  it('locates what the API refuses: the window exactly closed, a COD fee without an amount, a hazmat line half described', async () => {
    const closed = [row(2, { ...BASE, 'Ready Time': '16:00', 'Dock Close': '4:00 PM' })];
    expect(locatedProblems(await requestOf(closed), closed)).toEqual([
      { line: 2, column: 'Dock Close', reason: 'the dock closes (16:00) at the time the freight is ready (16:00): the window is empty' },
    ]);
    const minuteLater = [row(2, { ...BASE, 'Ready Time': '16:00', 'Dock Close': '16:01' })];
    expect(locatedProblems(await requestOf(minuteLater), minuteLater)).toEqual([]);

    const feeOnly = [row(2, { ...BASE, 'COD Fee': 'collect' })];
    expect(locatedProblems(await requestOf(feeOnly), feeOnly)).toEqual([{ line: 2, column: 'COD Amount', reason: expect.stringMatching(/amountInCents/) }]);

    const half = [
      row(2, BASE),
      row(3, { 'PO Number': 'PO-7', Pallets: '1', 'Weight (lbs)': '300', Length: '48', Width: '40', Height: '40', 'UN Number': 'UN1993', 'Hazard Class': '3' }),
    ];
    expect(locatedProblems(await requestOf(half), half)).toEqual([{ line: 3, column: 'Proper Shipping Name', reason: expect.stringMatching(/properShippingName/) }]);
  });

  it('refuses, on its line and column, a cell that is no value of its kind', async () => {
    const prepared = await prepareShipment(
      { rows: [row(2, { ...BASE, 'Freight Terms': 'Net 30', 'COD Amount': '12.345', 'Master BOL': 'maybe', 'Ready Time': '13:00 PM' })] },
      H,
      locations,
    );
    expect(prepared.ok).toBe(false);
    if (prepared.ok) return;
    expect(prepared.violations.map(({ line, column, reason }) => ({ line, column, reason }))).toEqual([
      { line: 2, column: 'Freight Terms', reason: '"Net 30" is not freight terms: prepaid (PPD), collect (COL) or third party (3RD PARTY)' },
      { line: 2, column: 'COD Amount', reason: '12.345 has more than 2 decimals; amounts are in dollars and cents' },
      { line: 2, column: 'Ready Time', reason: '"13:00 PM": an hour before AM or PM is 1 to 12' },
      { line: 2, column: 'Master BOL', reason: '"maybe" is not yes or no (yes, y, x, true, 1 / no, n, false, 0)' },
    ]);
  });
});

describe('carrier cells as exports write them', () => {
  it('dollars to cents: thousands, $ and USD; a cent exactly; a third decimal or text refused', () => {
    expect(readDollarsCell('1250')).toEqual({ value: 125_000 });
    expect(readDollarsCell('$1,250.50')).toEqual({ value: 125_050 });
    expect(readDollarsCell('1250.5 USD')).toEqual({ value: 125_050 });
    expect(readDollarsCell('0.01')).toEqual({ value: 1 });
    expect(readDollarsCell('0.29')).toEqual({ value: 29 });
    expect(readDollarsCell('10000000.01')).toEqual({ value: 1_000_000_001 });
    expect(readDollarsCell('0.015')).toHaveProperty('problem');
    expect(readDollarsCell('about 100')).toEqual({ problem: '"about 100" is not an amount in dollars, e.g. 1250 or $1,250.50' });
    expect(readDollarsCell('1,5', ';')).toHaveProperty('problem');
  });

  it("an amount just over $10,000,000 is the API's to refuse, exactly at it is taken", () => {
    const at = {
      ...shipmentRequestSchema.parse({
        pickupAddress: CHICAGO_DC,
        deliveryAddress: NYC_STORE,
        orderComponents: [{ palletCount: 1, poundsWeight: 500, dimensions: { length: 48, width: 40, height: 48 } }],
      }),
    };
    const withCod = (cents: number) => shipmentRequestSchema.safeParse({ ...at, cod: { amountInCents: cents } }).success;
    expect(withCod(1_000_000_000)).toBe(true);
    expect(withCod(1_000_000_001)).toBe(false);
    expect(withCod(0)).toBe(false);
    expect(withCod(1)).toBe(true);
  });

  it('times: 12- and 24-hour, with or without the colon; midnight and noon exactly', () => {
    expect(readTimeCell('8:00')).toEqual({ value: '08:00' });
    expect(readTimeCell('0800')).toEqual({ value: '08:00' });
    expect(readTimeCell('8:00 AM')).toEqual({ value: '08:00' });
    expect(readTimeCell('12:00 AM')).toEqual({ value: '00:00' });
    expect(readTimeCell('12:00 PM')).toEqual({ value: '12:00' });
    expect(readTimeCell('11:59 p.m.')).toEqual({ value: '23:59' });
    expect(readTimeCell('16:30:00')).toEqual({ value: '16:30' });
    expect(readTimeCell('0:00 AM')).toHaveProperty('problem');
    // Not a time at all: passed on for the API's schema to name.
    expect(readTimeCell('noon')).toEqual({ value: 'noon' });
    expect(readTimeCell('24:00')).toEqual({ value: '24:00' });
  });

  it('yes/no, freight terms and packing groups', () => {
    for (const yes of ['yes', 'Y', 'TRUE', 'x', '1']) expect(readYesNoCell(yes)).toEqual({ value: true });
    for (const no of ['no', 'N', 'false', '0']) expect(readYesNoCell(no)).toEqual({ value: false });
    expect(readYesNoCell('2')).toHaveProperty('problem');
    expect(
      ['Prepaid', 'PPD', 'pp', 'Collect', 'COL', 'cc', 'Third Party', 'third-party', '3rd Party', 'TP'].map((text) => (readFreightTermsCell(text) as { value: string }).value),
    ).toEqual(['PREPAID', 'PREPAID', 'PREPAID', 'COLLECT', 'COLLECT', 'COLLECT', 'THIRD_PARTY', 'THIRD_PARTY', 'THIRD_PARTY', 'THIRD_PARTY']);
    expect(['I', 'ii', 'PG III', 'pg 2', '1', '3'].map((text) => (readPackingGroupCell(text) as { value: string }).value)).toEqual(['I', 'II', 'III', 'II', 'I', 'III']);
    // A fourth group does not exist: the schema refuses it.
    expect(readPackingGroupCell('4')).toEqual({ value: '4' });
  });
});
