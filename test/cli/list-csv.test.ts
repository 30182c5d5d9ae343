/**
 * `shipment list --csv` and `quote list --csv`: the daily report. Every match (page after page, not
 * only the first --limit), every column a spreadsheet needs, read back with csv-parse and checked
 * against the --json list; formula cells neutralised; an empty list is the header alone.
 */
import { parse } from 'csv-parse/sync';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Quote, Shipment } from '../../src/domain/schemas.js';
import { tempDir } from '../helpers/cli.js';
import { shipmentsCsv } from '../helpers/csv.js';
import { runInProcess } from '../helpers/inProcess.js';
import { withContact } from '../helpers/fixtures.js';

const NOW = '2026-11-23T15:00:00Z';
const SHIPMENT_HEADER =
  'id,orderNumber,bolNumber,status,refNumber,createdAt,pickupDate,shipperName,originPostalCode,originCity,originState,consigneeName,destinationPostalCode,destinationCity,destinationState,miles,pallets,poundsWeight,freightClasses,accessorials,price,transitDays,estimatedDeliveryDate,estimatedDeliveryLocal,carrier,scac,proNumber,freightChargeTerms,quoteId,cancelledAt,trackingStatus,deliveredAt';
const QUOTE_HEADER =
  'id,createdAt,status,bookedAs,originPostalCode,originCity,originState,destinationPostalCode,destinationCity,destinationState,miles,pallets,poundsWeight,freightClasses,accessorials,price,pickupDate,transitDays,estimatedDeliveryDate,estimatedDeliveryLocal,expiresAt';
/** More than one page of the largest size (500): the CSV must page. */
const IMPORTED = 503;

let dir: string;
let cleanup: () => Promise<void>;
let store: string;
let cancelledId: string;
let carriedId: string;
const run = (args: string[], storeDir = store) => runInProcess(['--store', storeDir, ...args], { env: { SHIPPER_NOW: NOW, SHIPPER_BOL_COMPANY_PREFIX: '0614141' } });
const records = (csv: string) => parse(csv, { columns: true, bom: true }) as Array<Record<string, string>>;

async function allShipments(): Promise<Shipment[]> {
  const items: Shipment[] = [];
  let cursor: string | undefined;
  do {
    const page = JSON.parse((await run(['shipment', 'list', '--json', '--limit', '500', ...(cursor ? ['--cursor', cursor] : [])])).stdout) as {
      items: Shipment[];
      nextCursor: string | null;
    };
    items.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return items;
}

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('shipper-list-csv-'));
  store = join(dir, 'store');
  const file = join(dir, 'orders.csv');
  await writeFile(file, shipmentsCsv(IMPORTED, 1));
  expect((await run(['import', file])).code).toBe(0);
  // One with a carrier and a PRO, one cancelled, one whose reference a spreadsheet would run as a formula.
  const consignee = withContact('name=Store 12,address1=1 Penn Plaza,city=New York,state=NY,zip=10001');
  const shipper = withContact('name=Acme Chicago DC,address1=2100 S Halsted St,city=Chicago,state=IL,zip=60608');
  const formula = await run([
    '-q',
    'ship',
    '--shipper',
    shipper,
    '--consignee',
    consignee,
    '-c',
    'pallets=1,weight=500,dims=48x40x48,desc=Parts',
    '--ref',
    '=HYPERLINK("http://x.example")',
  ]);
  expect(formula.code).toBe(0);
  cancelledId = formula.stdout.trim();
  expect((await run(['shipment', 'cancel', cancelledId])).code).toBe(0);
  carriedId = (await run(['-q', 'shipment', 'list', '--ref', 'PO-0001'])).stdout.trim();
  expect((await run(['shipment', 'update', carriedId, '--carrier', 'Old Dominion', '--scac', 'ODFL', '--pro', '1234567897'])).code).toBe(0);
}, 60_000);
afterAll(() => cleanup());

describe('shipment list --csv', () => {
  it('writes every shipment, past the first page, each row agreeing with the --json list', async () => {
    const result = await run(['shipment', 'list', '--csv']);
    expect(result.code).toBe(0);
    expect(result.stderr.replace(/^warning: \[DOCUMENTATION_PREFIX\] BOL numbers.*\n/gm, '')).toBe('');
    expect(result.stdout.split('\r\n')[0]).toBe(SHIPMENT_HEADER);
    expect(result.stdout.endsWith('\r\n')).toBe(true);
    const rows = records(result.stdout);
    const shipments = await allShipments();
    expect(rows).toHaveLength(IMPORTED + 1);
    expect(rows.map((row) => row.id)).toEqual(shipments.map((shipment) => shipment.id));
    for (const [index, shipment] of shipments.entries()) {
      const row = rows[index]!;
      expect(row).toMatchObject({
        orderNumber: shipment.orderNumber,
        bolNumber: shipment.bolNumber,
        status: shipment.orderStatus,
        pickupDate: shipment.requiredPickupDate,
        originPostalCode: shipment.pickupAddress.zipCode,
        destinationPostalCode: shipment.deliveryAddress.zipCode,
        destinationCity: shipment.deliveryAddress.city,
        pallets: String(shipment.orderComponents.reduce((sum, line) => sum + line.palletCount, 0)),
        poundsWeight: String(shipment.orderComponents.reduce((sum, line) => sum + line.poundsWeight, 0)),
        estimatedDeliveryDate: shipment.estimatedDeliveryDate ?? '',
        quoteId: shipment.quoteId,
      });
      // Dollars, exact to the cent.
      expect(Math.round(Number(row.price) * 100)).toBe(shipment.totalPriceInCents);
    }
  });

  it('has the carrier, the PRO, the local ETA with its offset, the cancellation and a formula cell made inert', async () => {
    const rows = records((await run(['shipment', 'list', '--csv'])).stdout);
    const cancelled = rows.find((row) => row.id === cancelledId);
    const carried = rows.find((row) => row.id === carriedId);
    expect(cancelled).toMatchObject({ status: 'CANCELLED', refNumber: '\'=HYPERLINK("http://x.example")', cancelledAt: expect.stringMatching(/^2026-11-23T15:0/) });
    expect(carried).toMatchObject({
      refNumber: 'PO-0001',
      carrier: 'Old Dominion',
      scac: 'ODFL',
      proNumber: '1234567897',
      // Imported from a file without contacts or phones: created, not confirmed.
      status: 'INITIALIZED',
      cancelledAt: '',
      freightChargeTerms: 'PREPAID',
    });
    expect(rows.filter((row) => row.carrier !== '')).toHaveLength(1);
    // New York in late November is UTC-5: the ETA at 17:00 local is 22:00 UTC.
    const newYork = rows.find((row) => row.destinationPostalCode === '10001' && row.estimatedDeliveryDate)!;
    expect(newYork.estimatedDeliveryLocal).toMatch(/T17:00:00-05:00$/);
    expect(newYork.estimatedDeliveryDate).toMatch(/T22:00:00\.000Z$/);
  });

  it('applies the filters, and an explicit --limit caps the rows (the default page size does not)', async () => {
    const cancelled = records((await run(['shipment', 'list', '--csv', '--status', 'cancelled'])).stdout);
    expect(cancelled.map((row) => row.status)).toEqual(['CANCELLED']);
    const byRef = records((await run(['shipment', 'list', '--csv', '--ref', 'PO-0007'])).stdout);
    expect(byRef.map((row) => row.refNumber)).toEqual(['PO-0007']);
    for (const limit of ['1', '20', '500']) {
      expect(records((await run(['shipment', 'list', '--csv', '--limit', limit])).stdout)).toHaveLength(Number(limit));
    }
  });

  it('continues after --cursor, to the end', async () => {
    const shipments = await allShipments();
    const rows = records((await run(['shipment', 'list', '--csv', '--cursor', shipments[9]!.id])).stdout);
    expect(rows.map((row) => row.id)).toEqual(shipments.slice(10).map((shipment) => shipment.id));
  });

  it('an empty list, or a filter that matches nothing, is the header alone', async () => {
    const empty = join(dir, 'empty-store');
    for (const [args, storeDir] of [
      [['shipment', 'list', '--csv'], empty],
      [['shipment', 'list', '--csv', '--ref', 'NOTHING'], store],
    ] as const) {
      const result = await run([...args], storeDir);
      expect(result).toMatchObject({ code: 0, stdout: `${SHIPMENT_HEADER}\r\n` });
    }
  });

  it('--csv wins over -q; --csv with --json is a usage error (exit 2, a ProblemDetail on stdout)', async () => {
    const quiet = await run(['-q', 'shipment', 'list', '--csv', '--limit', '2']);
    expect(records(quiet.stdout)).toHaveLength(2);
    const both = await run(['shipment', 'list', '--csv', '--json']);
    expect(both.code).toBe(2);
    expect(JSON.parse(both.stdout)).toMatchObject({ status: 400, detail: expect.stringMatching(/--csv and --json/) });
  });
});

describe('quote list --csv', () => {
  it('writes every quote, each agreeing with --json: status, bookings, price in dollars, expiry', async () => {
    const quoteStore = join(dir, 'quotes');
    const quote = (args: string[]) => run(['-q', 'quote', '--from', '60608', '-c', 'pallets=1,weight=500,dims=48x40x48,desc=Parts', ...args], quoteStore);
    const open = (await quote(['--to', '90210', '-a', 'liftgate_delivery'])).stdout.trim();
    const booked = (await quote(['--to', '10001'])).stdout.trim();
    const consignee = withContact('name=Store 12,address1=1 Penn Plaza,city=New York,state=NY,zip=10001');
    const shipper = withContact('name=Acme Chicago DC,address1=2100 S Halsted St,city=Chicago,state=IL,zip=60608');
    expect((await run(['ship', '--quote', booked, '--shipper', shipper, '--consignee', consignee], quoteStore)).code).toBe(0);
    const rows = records((await run(['quote', 'list', '--csv'], quoteStore)).stdout);
    expect(rows.map((row) => row.id).sort()).toEqual([open, booked].sort());
    const json = JSON.parse((await run(['quote', 'get', open, '--json'], quoteStore)).stdout) as Quote;
    expect(rows.find((row) => row.id === open)).toMatchObject({
      status: 'OPEN',
      bookedAs: '',
      originPostalCode: '60608',
      destinationPostalCode: '90210',
      destinationState: 'CA',
      accessorials: 'LIFTGATE_DELIVERY',
      pallets: '1',
      poundsWeight: '500',
      expiresAt: json.quoteExpirationTime,
      pickupDate: json.requiredPickupDate,
      estimatedDeliveryLocal: expect.stringMatching(/T17:00:00-08:00$/),
      price: String(json.quotedPriceInCents / 100),
    });
    expect(rows.find((row) => row.id === booked)).toMatchObject({ status: 'BOOKED', bookedAs: 'SO-000001' });
    expect(records((await run(['quote', 'list', '--csv', '--status', 'open'], quoteStore)).stdout).map((row) => row.id)).toEqual([open]);
  });

  it('an empty list is the header alone', async () => {
    expect(await run(['quote', 'list', '--csv'], join(dir, 'no-quotes'))).toMatchObject({ code: 0, stdout: `${QUOTE_HEADER}\r\n` });
  });
});
