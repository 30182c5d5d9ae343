/**
 * Carrier-file figures: `node bench/run.mjs edi [count]`.
 * Targets: 1,000 three-line tenders of each format in one process under 2 s; a 999-line 204 or
 * 211 under 100 ms; reading a 210 interchange of 10,000 segments under 200 ms.
 */
import { performance } from 'node:perf_hooks';
import { tenderFile } from '../src/edi/tender.js';
import { readX12Interchange } from '../src/edi/x12.js';
import { ebolSettingsSchema } from '../src/edi/settings.js';
import { figure } from './lib.js';
import { fullShipment, manyLines, shipment, x12Settings, CREATED_AT } from '../test/edi/fixtures.js';

const count = Number(process.argv[2] ?? 1000);
const x12 = x12Settings();
const ebol = ebolSettingsSchema.parse({});
const verdict = (ok: boolean) => (ok ? 'ok' : 'OVER TARGET');
const source = fullShipment();
console.log(`node ${process.version}`);

for (const format of ['ebol', 'x12-204', 'x12-211'] as const) {
  const started = performance.now();
  let bytes = 0;
  for (let index = 0; index < count; index++) {
    const result =
      format === 'ebol'
        ? tenderFile({ format, shipment: source, settings: ebol })
        : tenderFile({ format, shipment: source, settings: x12, control: { interchangeControlNumber: index + 1, groupControlNumber: index + 1 }, createdAt: CREATED_AT });
    if (!result.ok) throw new Error(JSON.stringify(result.violations));
    bytes += result.document.body.length;
  }
  const seconds = (performance.now() - started) / 1000;
  figure({ bench: 'edi', name: `${count.toLocaleString('en-US')} three-line ${format} files`, value: seconds, unit: 's', target: { op: '<', value: (2 * count) / 1000 } });
  console.log(
    `  ${format.padEnd(8)} ${count} three-line files in ${seconds.toFixed(2)} s (${(count / seconds).toFixed(0)}/s), mean ${(bytes / count / 1024).toFixed(1)} KB  [${verdict(seconds * (1000 / count) < 2)} vs 1,000 < 2 s]`,
  );
}

const big = shipment({ orderComponents: manyLines(999) });
for (const format of ['x12-204', 'x12-211'] as const) {
  const started = performance.now();
  const result = tenderFile({ format, shipment: big, settings: x12, control: { interchangeControlNumber: 1, groupControlNumber: 1 }, createdAt: CREATED_AT });
  const ms = performance.now() - started;
  if (!result.ok) throw new Error(JSON.stringify(result.violations));
  figure({ bench: 'edi', name: `a 999-line ${format}`, value: ms, unit: 'ms', target: { op: '<', value: 100 } });
  console.log(`  999-line ${format}: ${ms.toFixed(0)} ms, ${(result.document.body.length / 1024).toFixed(0)} KB  [${verdict(ms < 100)} vs < 100 ms]`);
}

// A 210 file of about 10,000 segments: one transaction set with many LX/L1 lines.
const lines = ['ST*210*0001~', 'B3**I1*06141410000001231*PP*L*20261201*100****RLCA~'];
for (let index = 1; lines.length < 9_994; index++) lines.push(`LX*${index}~`, `L1*${index}***100****FUE~`);
lines.push(`SE*${lines.length + 1}*0001~`);
const text = [
  'ISA*00*          *00*          *02*RLCA           *ZZ*SHIPPERCO      *261201*0930*U*00401*000004711*0*P*>~',
  'GS*IM*RLCA*SHIPPERCO*20261201*0930*4711*X*004010~',
  ...lines,
  'GE*1*4711~',
  'IEA*1*000004711~',
].join('\n');
const readStarted = performance.now();
const read = readX12Interchange(text);
const readMs = performance.now() - readStarted;
if (!read.ok) throw new Error(JSON.stringify(read.errors.slice(0, 3)));
figure({ bench: 'edi', name: `reading a 210 of ${(lines.length + 4).toLocaleString('en-US')} segments`, value: readMs, unit: 'ms', target: { op: '<', value: 200 } });
console.log(`  reading a 210 of ${lines.length + 4} segments (${(text.length / 1024).toFixed(0)} KB): ${readMs.toFixed(0)} ms  [${verdict(readMs < 200)} vs < 200 ms]`);
