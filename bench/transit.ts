/**
 * `shipper transit` timings against the start-up baseline measured in the same run
 * (`shipper --version`): one lane, 1,000 lanes from a file, and 100 lanes x 30 pickup days.
 * Run: npm run build && node bench/run.mjs transit
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, figure, ROOT, row, timeCommand } from './lib.js';

const RUNS = Number(process.argv[2] ?? 15);
const work = mkdtempSync(join(tmpdir(), 'shipper-bench-transit-'));
const env = { ...process.env, NO_COLOR: '1', SHIPPER_NOW: '2026-10-05T15:00:00Z', SHIPPER_STORE: join(work, 'store') };

/** The first `count` ZIPs of the generated geodata, spread over the prefixes. */
function zipCodes(count: number): string[] {
  const geo = join(ROOT, 'dist', 'geo');
  const zips: string[] = [];
  for (const file of readdirSync(geo).filter((name) => /^\d{3}\.json$/.test(name))) {
    zips.push(...Object.keys(JSON.parse(readFileSync(join(geo, file), 'utf8')) as Record<string, unknown>).slice(0, 3));
    if (zips.length >= count) break;
  }
  return zips.slice(0, count);
}

try {
  const thousand = join(work, 'zips-1000.txt');
  writeFileSync(thousand, zipCodes(1000).join('\n'));
  const hundred = join(work, 'zips-100.txt');
  writeFileSync(hundred, zipCodes(100).join('\n'));

  const node = process.execPath;
  const baseline = timeCommand(node, [BIN, '--version'], RUNS, env);
  const cases: Array<[string, string[]]> = [
    ['transit, 1 lane (table)', ['transit', '--from', '60601', '--to', '10001']],
    ['transit, 1,000 lanes from a file (table)', ['transit', '--from', '60601', '--to', thousand]],
    ['transit, 1,000 lanes --json', ['transit', '--from', '60601', '--to', thousand, '--json']],
    ['transit, 100 lanes x 30 pickup days --csv', ['transit', '--from', '60601', '--to', hundred, '--days', '30', '--csv']],
  ];
  console.log(`shipper transit, median of ${RUNS} runs (Node ${process.version})`);
  row('baseline: shipper --version', `${baseline.toFixed(0)} ms`);
  for (const [label, args] of cases) {
    const ms = timeCommand(node, [BIN, ...args], RUNS, env);
    row(label, `${ms.toFixed(0)} ms  (${(ms / baseline).toFixed(2)}x baseline, +${(ms - baseline).toFixed(0)} ms)`);
    figure({ bench: 'transit', name: label.replace(/^transit, /, ''), value: ms, unit: 'ms', baseline: { name: 'shipper --version', value: baseline } });
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
