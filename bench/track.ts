/**
 * Tracking figures: `node bench/run.mjs track [shipments] [statuses per shipment]` (default 2,000
 * and 5: a 214 file of 10,000 status messages).
 *
 * - `shipper track import` of one X12 214 file (in this process, through the same code as the CLI:
 *   read, matched by PRO and SCAC 100 at a time, zones resolved, one POST of events per shipment),
 *   against the baseline of reading the file alone (the X12 reader and the 214 mapping).
 * - The same file imported again: every message a duplicate, nothing written.
 * Target: the 10,000 messages imported in under 60 s on this 2-core machine.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalApi } from '../src/api/local.js';
import { readX12StatusMessages } from '../src/edi/x12-214.js';
import { CityZones } from '../src/geo/cityZones.js';
import { ZipDirectory } from '../src/geo/zipDirectory.js';
import { importStatusMessages } from '../src/tracking/importMessages.js';
import { figure } from './lib.js';

const shipmentCount = Number(process.argv[2] ?? 2_000);
const perShipment = Math.min(Number(process.argv[3] ?? 5), 5);
const dir = await mkdtemp(join(tmpdir(), 'shipper-bench-track-'));
const BOOKED = '2026-11-23T15:00:00.000Z';
const IMPORTED = '2026-12-01T18:00:00.000Z';

/** A carrier's day of 214s: 20 interchanges of 100 shipments, one transaction set per shipment. */
function file214(count: number): string {
  const statuses: Array<[code: string, date: string, time: string, city: string, state: string]> = [
    ['X3', '20261124', '0930', 'CHICAGO', 'IL'],
    ['AF', '20261124', '1410', 'CHICAGO', 'IL'],
    ['X4', '20261125', '0205', 'COLUMBUS', 'OH'],
    ['X6', '20261130', '0715', 'NEW YORK', 'NY'],
    ['D1', '20261130', '1045', 'NEW YORK', 'NY'],
  ].slice(0, perShipment) as never;
  const out: string[] = [];
  for (let first = 0, interchange = 1; first < count; first += 100, interchange += 1) {
    const control = String(interchange).padStart(9, '0');
    out.push(`ISA*00*          *00*          *02*ODFL           *ZZ*ACMESHIPPER    *261201*0600*U*00401*${control}*0*P*>~`);
    out.push(`GS*QM*ODFL*ACMESHIPPER*20261201*0600*${interchange}*X*004010~`);
    const sets = Math.min(100, count - first);
    for (let index = first; index < first + sets; index += 1) {
      const st = String(index - first + 1).padStart(4, '0');
      const body = [`B10*72${String(index).padStart(6, '0')}**ODFL~`];
      statuses.forEach(([code, date, time, city, state], step) => body.push(`LX*${step + 1}~`, `AT7*${code}*NS***${date}*${time}*LT~`, `MS1*${city}*${state}*US~`));
      out.push(`ST*214*${st}~`, ...body, `SE*${body.length + 2}*${st}~`);
    }
    out.push(`GE*${sets}*${interchange}~`, `IEA*1*${control}~`);
  }
  return `${out.join('\n')}\n`;
}

try {
  const store = join(dir, 'store');
  const api = new LocalApi({ storeDir: store, now: () => new Date(BOOKED) });
  const address = (name: string, city: string, state: string, zipCode: string) => ({ name, address1: '1 Main St', city, state, zipCode });
  let started = performance.now();
  for (let first = 0; first < shipmentCount; first += 500) {
    const items = Array.from({ length: Math.min(500, shipmentCount - first) }, (_, offset) => ({
      request: {
        pickupAddress: address('Acme DC', 'Chicago', 'IL', '60608'),
        deliveryAddress: address('Store 12', 'New York', 'NY', '10001'),
        carrier: { name: 'Old Dominion', scac: 'ODFL' },
        proNumber: `72${String(first + offset).padStart(6, '0')}`,
        orderComponents: [{ palletCount: 2, poundsWeight: 1200, dimensions: { length: 48, width: 40, height: 48 } }],
      },
    }));
    await api.createShipments({ items } as never);
  }
  await api.close();
  console.log(`node ${process.version}: ${shipmentCount.toLocaleString('en-US')} shipments booked in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const content = file214(shipmentCount);
  const messages = shipmentCount * perShipment;
  started = performance.now();
  const read = readX12StatusMessages(content, 'bench.edi');
  const readMs = performance.now() - started;
  if (read.messages.length !== messages || read.issues.length > 0) throw new Error(`read ${read.messages.length} messages, ${read.issues.length} issues`);

  const zips = new ZipDirectory();
  const cities = new CityZones();
  const zones = { zipZone: (zip: string) => zips.lookup(zip)?.timeZone, cityZone: (city: string, state: string) => cities.lookup(city, state) };
  const importer = new LocalApi({ storeDir: store, now: () => new Date(IMPORTED) });
  const heapBefore = process.memoryUsage().heapUsed;
  started = performance.now();
  const report = await importStatusMessages(importer, [{ name: 'bench.edi', content }], { zones, now: new Date(IMPORTED) });
  const importMs = performance.now() - started;
  const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1048576;
  if (report.added !== messages || report.unmatched.length > 0) throw new Error(`imported ${report.added} of ${messages}; ${report.unmatched.length} unmatched`);
  started = performance.now();
  const again = await importStatusMessages(importer, [{ name: 'bench.edi', content }], { zones, now: new Date(IMPORTED) });
  const againMs = performance.now() - started;
  if (again.added !== 0 || again.duplicates !== messages) throw new Error(`re-import added ${again.added}`);
  await importer.close();

  const mb = (Buffer.byteLength(content) / 1048576).toFixed(1);
  console.log(`214 file of ${messages.toLocaleString('en-US')} status messages (${mb} MB): read in ${readMs.toFixed(0)} ms`);
  console.log(
    `imported in ${(importMs / 1000).toFixed(1)} s (${((importMs * 1000) / messages).toFixed(0)} µs a message, ${report.shipments.toLocaleString('en-US')} shipments; heap +${heapMb.toFixed(0)} MB)  [${importMs < 60_000 ? 'ok' : 'OVER TARGET'} vs < 60 s]`,
  );
  console.log(`imported again (all duplicates) in ${(againMs / 1000).toFixed(1)} s`);
  figure({
    bench: 'track',
    name: `track import of a 214 with ${messages.toLocaleString('en-US')} statuses for ${shipmentCount.toLocaleString('en-US')} shipments`,
    value: importMs / 1000,
    unit: 's',
    baseline: { name: 'reading the file alone', value: readMs / 1000 },
    target: { op: '<', value: 60 },
  });
  figure({ bench: 'track', name: 'the same file again (all duplicates)', value: againMs / 1000, unit: 's', baseline: { name: 'first import', value: importMs / 1000 } });
} finally {
  await rm(dir, { recursive: true, force: true });
}
