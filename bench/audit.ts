/**
 * Invoice and audit figures: `node bench/run.mjs audit [shipments] [bills]` (default 2,000 and 500).
 *
 * - Looking shipments up by PRO: the proNumber filter (key index: its first build, then warm)
 *   against the baseline a client without it has, reading every page of the shipment list.
 * - `shipper audit` of a bill CSV end to end (in this process), per bill; with dispute packs.
 * - The invoice: JSON and PDF per shipment.
 * Targets: a warm look-up of 100 PROs under 50 ms (10,000 shipments); an audit under 5 ms a bill (without packs).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { LocalApi } from '../src/api/local.js';
import { main } from '../src/cli/main.js';
import { figure } from './lib.js';

const shipmentCount = Number(process.argv[2] ?? 2_000);
const billCount = Math.min(Number(process.argv[3] ?? 500), shipmentCount);
const dir = await mkdtemp(join(tmpdir(), 'shipper-bench-audit-'));
const verdict = (ok: boolean) => (ok ? 'ok' : 'OVER TARGET');
const NOW = '2026-11-18T18:00:00.000Z';

try {
  const store = join(dir, 'store');
  const api = new LocalApi({ storeDir: store, now: () => new Date(NOW) });
  const address = (name: string, city: string, state: string, zipCode: string) => ({ name, address1: '1 Main St', city, state, zipCode });
  const request = (index: number) => ({
    pickupAddress: address('Acme Machine Co', 'Chicago', 'IL', '60601'),
    deliveryAddress: address('Peach Supply Co', 'Atlanta', 'GA', '30303'),
    accessorials: ['LIFTGATE_DELIVERY'],
    carrier: { name: 'Roadrunner Freight', scac: 'RRFT' },
    proNumber: `72${String(index).padStart(6, '0')}`,
    orderComponents: [
      { palletCount: 2, poundsWeight: 1200, dimensions: { length: 48, width: 40, height: 48 }, description: 'Machine parts' },
      { palletCount: 1, poundsWeight: 300, dimensions: { length: 40, width: 48, height: 60 }, description: 'Spare belts' },
    ],
  });
  let started = performance.now();
  for (let first = 0; first < shipmentCount; first += 500) {
    const items = Array.from({ length: Math.min(500, shipmentCount - first) }, (_, offset) => ({ request: request(first + offset) }));
    await api.createShipments({ items } as never);
  }
  console.log(`node ${process.version}: ${shipmentCount} shipments booked in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  // Look-ups of 100 PROs spread over the store.
  const pros = Array.from({ length: 100 }, (_, index) => `72${String(Math.floor((index * shipmentCount) / 100)).padStart(6, '0')}`).join(',');
  const fresh = new LocalApi({ storeDir: store });
  started = performance.now();
  const cold = (await fresh.listShipments({ proNumber: pros, limit: 500 })).data.items.length;
  const coldMs = performance.now() - started;
  started = performance.now();
  const warm = (await fresh.listShipments({ proNumber: pros, limit: 500 })).data.items.length;
  const warmMs = performance.now() - started;
  const another = new LocalApi({ storeDir: store });
  started = performance.now();
  await another.listShipments({ proNumber: pros, limit: 500 });
  const loadedMs = performance.now() - started;
  started = performance.now();
  let scanned = 0;
  let cursor: string | undefined;
  do {
    const { data } = await another.listShipments({ limit: 500, cursor });
    scanned += data.items.length;
    cursor = data.nextCursor ?? undefined;
  } while (cursor);
  const scanMs = performance.now() - started;
  console.log(
    `100 PROs by the proNumber filter: first ${coldMs.toFixed(0)} ms (builds the index), warm ${warmMs.toFixed(1)} ms, new process ${loadedMs.toFixed(0)} ms (${cold}/${warm} found)  [${verdict(warmMs < 50)} vs < 50 ms]`,
  );
  figure({
    bench: 'audit',
    name: `100 PROs by the proNumber filter, warm (${shipmentCount.toLocaleString('en-US')} shipments)`,
    value: warmMs,
    unit: 'ms',
    baseline: { name: 'every page of the list', value: scanMs },
    target: { op: '<', value: 50 },
  });
  figure({
    bench: 'audit',
    name: '100 PROs by the proNumber filter, first (builds the index)',
    value: coldMs,
    unit: 'ms',
    baseline: { name: 'every page of the list', value: scanMs },
  });
  console.log(`baseline, every page of the list (${scanned} shipments): ${scanMs.toFixed(0)} ms`);

  // A bill CSV as the carrier sends it: every bill as quoted but one in ten reweighed.
  const lines = ['proNumber,billedWeight,billedClass,linehaul,discount,fuel,accessorials,total'];
  for (let index = 0; index < billCount; index++) {
    const pro = `72${String(index).padStart(6, '0')}`;
    if (index % 10 === 0) lines.push(`${pro},1450,92.5,1618.57,-1133.00,145.67,LFT=75.00,706.24`, `,300,175,,,,,`);
    else lines.push(`${pro},1200,92.5,1412.94,-989.06,127.16,LFT=75.00,626.04`, `,300,175,,,,,`);
  }
  const bills = join(dir, 'bills.csv');
  await writeFile(bills, lines.join('\n'));
  const run = async (args: string[]) => {
    const sink = () => Object.assign(new PassThrough().resume(), { isTTY: false });
    const stdin = Object.assign(new PassThrough(), { isTTY: false });
    stdin.end();
    const before = performance.now();
    const code = await main(
      ['--store', store, 'audit', bills, ...args],
      { stdout: sink(), stderr: sink(), stdin },
      { ...process.env, SHIPPER_NOW: '2026-12-02T10:00:00Z', NO_COLOR: '1' },
    );
    return { code, ms: performance.now() - before };
  };
  const audit = await run(['--json', '--no-save']);
  const saved = await run(['--json']);
  console.log(
    `audit of ${billCount} bills (${billCount / 10} reweighed): ${audit.ms.toFixed(0)} ms, ${(audit.ms / billCount).toFixed(2)} ms a bill; saving them ${saved.ms.toFixed(0)} ms (exit ${audit.code})  [${verdict(audit.ms / billCount < 5)} vs < 5 ms a bill]`,
  );
  figure({ bench: 'audit', name: `audit of ${billCount} bills, a bill`, value: audit.ms / billCount, unit: 'ms', target: { op: '<', value: 5 } });
  const packs = await run(['--no-save', '--dispute-dir', join(dir, 'packs')]);
  console.log(`  with ${billCount / 10} dispute packs (PDF and BOL each): ${packs.ms.toFixed(0)} ms, ${((packs.ms - audit.ms) / (billCount / 10)).toFixed(0)} ms a pack`);

  // Invoices.
  const { data: page } = await fresh.listShipments({ limit: 200 });
  started = performance.now();
  for (const shipment of page.items) await fresh.getInvoice(shipment.id);
  const jsonMs = (performance.now() - started) / page.items.length;
  started = performance.now();
  let bytes = 0;
  for (const shipment of page.items) bytes += (await fresh.renderInvoice(shipment.id)).data.byteLength;
  const pdfMs = (performance.now() - started) / page.items.length;
  figure({ bench: 'audit', name: 'an invoice as JSON', value: jsonMs, unit: 'ms' });
  figure({ bench: 'audit', name: 'an invoice as PDF', value: pdfMs, unit: 'ms' });
  console.log(
    `invoice of ${page.items.length} shipments: JSON ${jsonMs.toFixed(2)} ms each, PDF ${pdfMs.toFixed(1)} ms each (${(bytes / page.items.length / 1024).toFixed(1)} KB)`,
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
