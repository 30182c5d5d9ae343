/**
 * `node bench/run.mjs check [shipments]` (default 2000, i.e. 10,000 rows of 5 per shipment)
 *
 * Issue 21: `shipper check FILE.csv` within 1.5x of `shipper import FILE.csv --dry-run` of the same
 * file. Generates a CSV in which about a third of the lines earn a freight check warning (density
 * margins, non-stackable, wide, long units), then runs the two commands alternately, each on a
 * fresh store, and prints their median wall times and the ratio. Build first (`npm run build`).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, figure, median, row } from './lib.js';

const shipments = Number(process.argv[2] ?? 2000) || 2000;
const runs = Number(process.env.BENCH_CHECK_RUNS ?? 3);
const rowsPerShipment = 5;
const work = mkdtempSync(join(tmpdir(), 'shipper-bench-check-'));
const LANES = [
  ['60608', 'Chicago', 'IL', '2100 S Halsted St'],
  ['10001', 'New York', 'NY', '1 Penn Plaza'],
  ['30308', 'Atlanta', 'GA', '400 Peachtree St NE'],
  ['75207', 'Dallas', 'TX', '1200 Industrial Blvd'],
] as const;

const lines = [
  'refNumber,shipperName,shipperStreet1,shipperCity,shipperState,shipperPostalCode,consigneeName,consigneeStreet1,consigneeCity,consigneeState,consigneePostalCode,palletCount,poundsWeight,length,width,height,description,stackable',
];
for (let s = 0; s < shipments; s++) {
  const from = LANES[s % LANES.length]!;
  const to = LANES[(s + 1) % LANES.length]!;
  for (let r = 0; r < rowsPerShipment; r++) {
    const first = r === 0;
    const party = (place: (typeof LANES)[number], name: string) => (first ? [name, place[3], place[1], place[2], place[0]] : ['', '', '', '', '']);
    const kind = (s + r) % 6;
    const dims = kind === 1 ? [48, 72, 40] : kind === 2 ? [100, 40, 40] : [48, 40, 36 + ((s + r) % 4) * 6];
    lines.push(
      [
        `CHECK-${String(s).padStart(6, '0')}`,
        ...party(from, `Shipper ${s % 97}`),
        ...party(to, `Consignee ${s % 89}`),
        String(1 + ((s + r) % 2)),
        String(200 + ((s * 7 + r * 13) % 1200)),
        ...dims.map(String),
        kind === 3 ? '' : `Line ${r + 1} parts`,
        kind === 4 ? 'no' : kind === 5 ? 'yes' : '',
      ].join(','),
    );
  }
}
const file = join(work, 'orders.csv');
writeFileSync(file, `${lines.join('\n')}\n`);

function timed(args: string[]): { ms: number; stdout: string } {
  const store = mkdtempSync(join(work, 'store-'));
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [BIN, '--store', store, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  rmSync(store, { recursive: true, force: true });
  if (result.status !== 0) throw new Error(`shipper ${args.join(' ')} exited ${result.status}: ${result.stderr.slice(0, 500)}`);
  return { ms, stdout: result.stdout };
}

const dry: number[] = [];
const check: number[] = [];
let report = '';
for (let run = 0; run < runs + 1; run++) {
  // Alternated, the first pair untimed (warm-up: disk cache, compile cache).
  const a = timed(['import', file, '--dry-run']);
  const b = timed(['check', file, '--json']);
  if (run === 0) continue;
  dry.push(a.ms);
  check.push(b.ms);
  report = b.stdout;
}
const { counts } = JSON.parse(report) as { counts: { warn: number; risk: number } };
const rows = shipments * rowsPerShipment;
const dryMs = median(dry);
const checkMs = median(check);
row(`import --dry-run, ${rows.toLocaleString('en-US')} rows`, `${(dryMs / 1000).toFixed(2)} s (median of ${runs})`);
row(`check, ${rows.toLocaleString('en-US')} rows (${counts.warn + counts.risk} warnings)`, `${(checkMs / 1000).toFixed(2)} s (median of ${runs})`);
row('check / dry run', `${(checkMs / dryMs).toFixed(2)}x (target <= 1.5x)`);
figure({
  bench: 'check',
  name: `shipper check, ${rows.toLocaleString('en-US')} rows`,
  value: checkMs / 1000,
  unit: 's',
  baseline: { name: 'import --dry-run of the same file', value: dryMs / 1000, unit: 's' },
  target: { op: '<=', value: 1.5, of: 'ratio' },
});
rmSync(work, { recursive: true, force: true });
