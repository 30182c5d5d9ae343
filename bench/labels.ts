/**
 * Pallet label figures: `node bench/run.mjs labels [count]`.
 * Targets: a 3-pallet shipment's labels under 100 ms (PDF and ZPL) once the font is loaded, its PDF
 * under 80 KB, a 500-pallet shipment's labels under 10 s.
 */
import { ssccFor } from '../src/domain/sscc.js';
import { renderLabels } from '../src/labels/index.js';
import { component, makeShipment } from '../test/bol/fixtures.js';
import { figure } from './lib.js';

const count = Number(process.argv[2] ?? 200);
const threePallets = () => [
  component({ palletCount: 2, poundsWeight: 1200, description: 'Steel shelving units', packagingType: 'crates', pieceCount: 10 }),
  component({ palletCount: 1, poundsWeight: 400, description: 'Café glassware, Größe XL' }),
];
const shipments = Array.from({ length: count }, (_, index) => makeShipment({ serial: 1000 + index, components: threePallets() }));
const ssccsOf = (index: number, pallets: number) => Array.from({ length: pallets }, (_, unit) => ssccFor('0614141', index * 1000 + unit));

const verdict = (ok: boolean) => (ok ? 'ok' : 'OVER TARGET');
console.log(`node ${process.version}, ${count} shipments of 3 pallets`);
for (const format of ['pdf', 'zpl'] as const) {
  let bytes = 0;
  let first = 0;
  const started = performance.now();
  for (let index = 0; index < count; index++) {
    const before = performance.now();
    const output = await renderLabels(shipments[index]!, ssccsOf(index, 3), format, { companyPrefix: '0614141' });
    if (index === 0) first = performance.now() - before;
    bytes += output.byteLength;
  }
  const each = (performance.now() - started) / count;
  const kb = bytes / count / 1024;
  figure({ bench: 'labels', name: `${format}: one 3-pallet shipment's labels`, value: each, unit: 'ms', target: { op: '<', value: 100 } });
  figure({ bench: 'labels', name: `${format}: one 3-pallet shipment's file`, value: kb, unit: 'KB', ...(format === 'pdf' ? { target: { op: '<' as const, value: 80 } } : {}) });
  console.log(
    `  ${format}: ${each.toFixed(1)} ms per shipment (3 labels), first ${first.toFixed(0)} ms, mean ${kb.toFixed(1)} KB  [${verdict(each < 100)} vs < 100 ms, ${verdict(kb < 80)} vs < 80 KB]`,
  );
}
const big = makeShipment({ serial: 9, components: Array.from({ length: 50 }, () => component({ palletCount: 10, description: 'Bulk pallets' })) });
for (const format of ['pdf', 'zpl'] as const) {
  const started = performance.now();
  const output = await renderLabels(big, ssccsOf(9, 500), format, { companyPrefix: '0614141' });
  const seconds = (performance.now() - started) / 1000;
  figure({ bench: 'labels', name: `${format}: a 500-pallet shipment's labels`, value: seconds, unit: 's', target: { op: '<', value: 10 } });
  console.log(
    `500-pallet shipment, ${format}: ${seconds.toFixed(2)} s, ${(output.byteLength / 1024).toFixed(0)} KB (${(output.byteLength / 500 / 1024).toFixed(1)} KB a label)  [${verdict(seconds < 10)} vs < 10 s]`,
  );
}
