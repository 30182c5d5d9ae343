/**
 * `shipper bol --all` through the CLI against the same PDFs rendered in process:
 * `node bench/run.mjs bolAll [count]` (default 1,000). Books `count` shipments with an import,
 * renders every one of them with the standard template in this process (the baseline: rendering
 * only), then runs `shipper bol --all -o DIR` on the same store (reading the shipments, rendering,
 * writing every PDF durably). Target: 1,000 BOLs through the CLI in at most 8 s. Build first.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalApi } from '../src/api/local.js';
import { BIN, figure, row } from './lib.js';

const count = Number(process.argv[2] ?? 1000);
const work = mkdtempSync(join(tmpdir(), 'shipper-bench-bolall-'));
const store = join(work, 'store');
const env = { ...process.env, SHIPPER_NOW: '2026-11-23T15:00:00Z', SHIPPER_CONFIG_DIR: join(work, 'config'), NO_COLOR: '1' };
const header =
  'refNumber,pickupDate,shipperName,shipperStreet1,shipperCity,shipperState,shipperPostalCode,consigneeName,consigneeStreet1,consigneeCity,consigneeState,consigneePostalCode,palletCount,poundsWeight,length,width,height,description,nmfcCode,packagingType,pieceCount';
const rows = Array.from(
  { length: count },
  (_, index) =>
    `PO-${10_000 + index},2026-11-25,Acme Chicago DC,2100 S Halsted St,Chicago,IL,60608,Store ${index},1 Penn Plaza,New York,NY,10001,2,1200,48,40,48,Machine parts,161030,crates,10`,
);
writeFileSync(join(work, 'shipments.csv'), `${header}\n${rows.join('\n')}\n`);
const imported = spawnSync(process.execPath, [BIN, '--store', store, 'import', join(work, 'shipments.csv')], { env, stdio: ['ignore', 'ignore', 'pipe'] });
if (imported.status !== 0) throw new Error(`import exited ${imported.status}: ${imported.stderr}`);

// The baseline: the same PDFs rendered in this process, nothing read or written.
const api = new LocalApi({ storeDir: store, now: () => new Date(env.SHIPPER_NOW) });
const shipments = [];
for (let cursor: string | undefined, first = true; first || cursor; first = false) {
  const { data: page } = await api.listShipments({ limit: 500, cursor });
  shipments.push(...page.items);
  cursor = page.nextCursor ?? undefined;
}
const { createBolRenderer, findBolTemplatesDir } = await import('../src/bol/index.js');
const renderer = createBolRenderer({ templatesDir: findBolTemplatesDir() });
let started = performance.now();
for (const shipment of shipments) await renderer.render(shipment, 'standard');
const inProcess = (performance.now() - started) / 1000;

const out = join(work, 'bols');
started = performance.now();
const cli = spawnSync(process.execPath, [BIN, '--store', store, 'bol', '--all', '-q', '-o', out], { env, stdio: ['ignore', 'ignore', 'pipe'] });
const throughCli = (performance.now() - started) / 1000;
if (cli.status !== 0) throw new Error(`bol --all exited ${cli.status}: ${cli.stderr}`);
const written = readdirSync(out).length;
rmSync(work, { recursive: true, force: true });

console.log(`bol --all, ${count.toLocaleString('en-US')} shipments (standard template)`);
row('rendered in process (baseline)', `${inProcess.toFixed(2)} s`);
row('shipper bol --all (read, render, write durably)', `${throughCli.toFixed(2)} s  (${(throughCli / inProcess).toFixed(2)}x baseline, ${written} files)`);
figure({
  bench: 'bolAll',
  name: `shipper bol --all of ${count.toLocaleString('en-US')} shipments`,
  value: throughCli,
  unit: 's',
  baseline: { name: 'the same PDFs rendered in process', value: inProcess, unit: 's' },
  target: { op: '<=', value: (8 * count) / 1000 },
});
