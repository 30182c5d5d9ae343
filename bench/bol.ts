/**
 * BOL rendering figures: `node bench/run.mjs bol [count]`.
 * Targets: 1,000 single-page BOLs in one process under 20 s, one single-page PDF under 80 KB,
 * one 500-component BOL under 2 s.
 */
import { PDFDocument } from 'pdf-lib';
import { createBolRenderer, findBolTemplatesDir } from '../src/bol/index.js';
import { component, describedComponents, makeShipment } from '../test/bol/fixtures.js';
import { figure } from './lib.js';

const count = Number(process.argv[2] ?? 1000);
const renderer = createBolRenderer({ templatesDir: findBolTemplatesDir() });
const threeComponents = () => [
  component({ palletCount: 2, poundsWeight: 1200, description: 'Steel shelving units', nmfcCode: '61680-03', packagingType: 'crates', pieceCount: 10 }),
  component({ palletCount: 1, poundsWeight: 180, description: 'Café glassware, Größe XL', nmfcCode: '12345', packagingType: 'cartons', pieceCount: 24 }),
  component({ palletCount: 3, poundsWeight: 2400 }),
];

const templates = ['standard', 'acme-logistics'];
// Built beforehand: the figure is about rendering, not about building fixtures.
const shipments = Array.from({ length: count }, (_, index) => makeShipment({ serial: 1000 + index, components: threeComponents() }));
let bytes = 0;
let first = 0;
const started = performance.now();
for (let index = 0; index < count; index++) {
  const before = performance.now();
  const pdf = await renderer.render(shipments[index]!, templates[index % 2]!);
  if (index === 0) first = performance.now() - before;
  bytes += pdf.byteLength;
}
const elapsed = (performance.now() - started) / 1000;
const rssAfterLoop = process.memoryUsage().rss;

const single = await renderer.render(makeShipment({ serial: 7, components: threeComponents() }), 'standard');
const partner = await renderer.render(makeShipment({ serial: 7, components: threeComponents() }), 'acme-logistics');
const bigStarted = performance.now();
const big = await renderer.render(makeShipment({ serial: 8, components: describedComponents(500) }), 'standard');
const bigSeconds = (performance.now() - bigStarted) / 1000;

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const verdict = (ok: boolean) => (ok ? 'ok' : 'OVER TARGET');
console.log(`node ${process.version}, ${count} BOLs of ${await countPages(single)} page(s) each, standard and acme-logistics alternating`);
console.log(
  `  total ${elapsed.toFixed(2)} s, ${(count / elapsed).toFixed(1)} BOLs/s, first ${first.toFixed(0)} ms (loads fonts and template)  [${verdict(elapsed * (1000 / count) < 20)} vs 1,000 < 20 s]`,
);
console.log(`  resident memory after the loop ${(rssAfterLoop / 2 ** 20).toFixed(0)} MB`);
console.log(
  `  mean size ${kb(bytes / count)}; one standard PDF ${kb(single.byteLength)}, one acme-logistics PDF ${kb(partner.byteLength)}  [${verdict(Math.max(single.byteLength, partner.byteLength) < 80 * 1024)} vs < 80 KB]`,
);
console.log(`500-component BOL: ${bigSeconds.toFixed(2)} s, ${await countPages(big)} pages, ${kb(big.byteLength)}  [${verdict(bigSeconds < 2)} vs < 2 s]`);
figure({ bench: 'bol', name: `${count.toLocaleString('en-US')} single-page BOLs in one process`, value: elapsed, unit: 's', target: { op: '<', value: (20 * count) / 1000 } });
figure({ bench: 'bol', name: 'BOLs per second', value: count / elapsed, unit: '/s' });
figure({ bench: 'bol', name: 'the first BOL (loads fonts and template)', value: first, unit: 'ms' });
figure({ bench: 'bol', name: 'one standard PDF', value: single.byteLength / 1024, unit: 'KB', target: { op: '<', value: 80 } });
figure({ bench: 'bol', name: 'one acme-logistics PDF', value: partner.byteLength / 1024, unit: 'KB', target: { op: '<', value: 80 } });
figure({ bench: 'bol', name: 'one 500-component BOL', value: bigSeconds, unit: 's', target: { op: '<', value: 2 } });

async function countPages(pdf: Uint8Array): Promise<number> {
  return (await PDFDocument.load(pdf)).getPageCount();
}
