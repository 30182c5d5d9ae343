// A local quote end to end: median wall time of `shipper quote ... --json` on a temporary store
// against bare `node -e 0`, in the same run. Target: within 3x of bare node.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, figure, row, timeCommand } from './lib.js';

const runs = Number(process.argv[2] ?? 21);
const store = mkdtempSync(join(tmpdir(), 'shipper-bench-quote-'));
try {
  const node = timeCommand(process.execPath, ['-e', '0'], runs);
  const quote = timeCommand(
    process.execPath,
    [BIN, '--store', store, 'quote', '--from', '60601', '--to', '10001', '--component', 'pallets=2,weight=1200,dims=48x40x48', '--json'],
    runs,
  );
  console.log(`local quote, median of ${runs} runs (ms)`);
  row('node -e 0 (baseline)', `${node.toFixed(1)} ms`);
  row('shipper quote --json (local, new quote)', `${quote.toFixed(1)} ms  (${(quote / node).toFixed(2)}x baseline)`);
  figure({
    bench: 'quote',
    name: 'local shipper quote --json',
    value: quote,
    unit: 'ms',
    baseline: { name: 'node -e 0', value: node },
    target: { op: '<=', value: 3, of: 'ratio' },
  });
} finally {
  rmSync(store, { recursive: true, force: true });
}
