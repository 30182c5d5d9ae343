// Start-up cost: median wall time of `shipper --version`, `shipper --help` and a local
// `shipper quote` against bare `node -e 0`, measured in the same run. Targets: --version within
// 2x of bare node, the local quote within 3x.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, figure, row, timeCommand } from './lib.js';

const runs = Number(process.argv[2] ?? 21);
const store = mkdtempSync(join(tmpdir(), 'shipper-bench-startup-'));
// A fixed clock and no user settings: every run quotes the same lane the same way.
const env = { ...process.env, SHIPPER_NOW: '2026-11-23T15:00:00Z', SHIPPER_CONFIG_DIR: join(store, 'config'), NO_COLOR: '1' };
const node = timeCommand(process.execPath, ['-e', '0'], runs);
const version = timeCommand(process.execPath, [BIN, '--version'], runs);
const help = timeCommand(process.execPath, [BIN, '--help'], runs);
const quote = timeCommand(process.execPath, [BIN, '--store', store, 'quote', '--from', '60607', '--to', '10001', '-c', 'pallets=1,weight=500,dims=48x40x48'], runs, env);
rmSync(store, { recursive: true, force: true });

console.log(`startup, median of ${runs} runs (ms)`);
row('node -e 0 (baseline)', `${node.toFixed(1)} ms`);
row('shipper --version', `${version.toFixed(1)} ms  (${(version / node).toFixed(2)}x baseline)`);
row('shipper --help', `${help.toFixed(1)} ms  (${(help / node).toFixed(2)}x baseline)`);
row('shipper quote (local)', `${quote.toFixed(1)} ms  (${(quote / node).toFixed(2)}x baseline)`);
const baseline = { name: 'node -e 0', value: node };
figure({ bench: 'startup', name: 'shipper --version', value: version, unit: 'ms', baseline, target: { op: '<=', value: 2, of: 'ratio' } });
figure({ bench: 'startup', name: 'shipper --help', value: help, unit: 'ms', baseline });
figure({ bench: 'startup', name: 'shipper quote (local)', value: quote, unit: 'ms', baseline, target: { op: '<=', value: 3, of: 'ratio' } });
