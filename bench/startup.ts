// Start-up cost: median wall time of `shipper --version` and `shipper --help` against bare
// `node -e 0`, measured in the same run. Target: --version within 2x of bare node.
import { BIN, figure, row, timeCommand } from './lib.js';

const runs = Number(process.argv[2] ?? 21);
const node = timeCommand(process.execPath, ['-e', '0'], runs);
const version = timeCommand(process.execPath, [BIN, '--version'], runs);
const help = timeCommand(process.execPath, [BIN, '--help'], runs);

console.log(`startup, median of ${runs} runs (ms)`);
row('node -e 0 (baseline)', `${node.toFixed(1)} ms`);
row('shipper --version', `${version.toFixed(1)} ms  (${(version / node).toFixed(2)}x baseline)`);
row('shipper --help', `${help.toFixed(1)} ms  (${(help / node).toFixed(2)}x baseline)`);
const baseline = { name: 'node -e 0', value: node };
figure({ bench: 'startup', name: 'shipper --version', value: version, unit: 'ms', baseline, target: { op: '<=', value: 2, of: 'ratio' } });
figure({ bench: 'startup', name: 'shipper --help', value: help, unit: 'ms', baseline });
