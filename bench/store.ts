// `shipper quote get ID` with 100,000 records in the store against the same with 10: reading one
// record must not read the others. Target: within 1.5x.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, figure, row, timeCommand } from './lib.js';

const runs = Number(process.argv[2] ?? 21);
const big = Number(process.argv[3] ?? 100_000);

function makeStore(records: number): { store: string; id: string } {
  const store = mkdtempSync(join(tmpdir(), `shipper-bench-store-${records}-`));
  const quote = JSON.parse(
    execFileSync(process.execPath, [BIN, '--store', store, 'quote', '--from', '60601', '--to', '10001', '-c', 'pallets=2,weight=1200,dims=48x40x48', '--json'], {
      encoding: 'utf8',
    }),
  );
  // Fill the collection with copies under other time-sorted ids (written directly: this is setup).
  mkdirSync(join(store, 'quotes'), { recursive: true });
  const base = quote.id.slice(0, 13);
  for (let i = 1; i < records; i++) {
    const id = `${base}${String(i).padStart(16, '0')}`;
    writeFileSync(join(store, 'quotes', `${id}.json`), JSON.stringify({ ...quote, id }));
  }
  return { store, id: quote.id };
}

const small = makeStore(10);
const large = makeStore(big);
try {
  const get = (store: string, id: string) => timeCommand(process.execPath, [BIN, '--store', store, 'quote', 'get', id, '--json'], runs);
  const smallMs = get(small.store, small.id);
  const largeMs = get(large.store, large.id);
  console.log(`quote get, median of ${runs} runs (ms)`);
  row('10 records (baseline)', `${smallMs.toFixed(1)} ms`);
  row(`${big.toLocaleString('en-US')} records`, `${largeMs.toFixed(1)} ms  (${(largeMs / smallMs).toFixed(2)}x baseline)`);
  figure({
    bench: 'store',
    name: `quote get with ${big.toLocaleString('en-US')} records`,
    value: largeMs,
    unit: 'ms',
    baseline: { name: 'with 10 records', value: smallMs },
    target: { op: '<=', value: 1.5, of: 'ratio' },
  });
} finally {
  rmSync(small.store, { recursive: true, force: true });
  rmSync(large.store, { recursive: true, force: true });
}
