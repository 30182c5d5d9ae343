/**
 * Regenerates docs/label.png, the first pallet label of a sample shipment, for the README. A
 * documentation helper only: it needs pdftoppm (poppler-utils), which the tests do not. Run with
 *   node bench/run.mjs scripts/make-label-image.ts
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ssccFor } from '../src/domain/sscc.js';
import { renderLabels } from '../src/labels/index.js';
import { component, makeShipment } from '../test/bol/fixtures.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const shipment = makeShipment({
  serial: 4471,
  refNumber: 'PO-4471',
  shipperName: 'Acme Machine Co',
  consigneeName: 'Peach Supply Co',
  components: [
    component({ palletCount: 2, poundsWeight: 1200, description: 'Machine parts', nmfcCode: '161030', packagingType: 'crates', pieceCount: 10 }),
    component({ palletCount: 1, poundsWeight: 300, description: 'Spare belts' }),
  ],
  extra: { carrier: { name: 'Old Dominion Freight Line', scac: 'ODFL' }, proNumber: '1234567892' },
});
const ssccs = [1, 2, 3].map((serial) => ssccFor('0614141', 4470 + serial));
const work = await mkdtemp(join(tmpdir(), 'label-image-'));
try {
  const pdf = join(work, 'labels.pdf');
  await writeFile(pdf, await renderLabels(shipment, ssccs, 'pdf', { companyPrefix: '0614141' }));
  execFileSync('pdftoppm', ['-png', '-r', '120', '-f', '1', '-l', '1', '-singlefile', pdf, join(root, 'docs', 'label')]);
  console.log('wrote docs/label.png');
} finally {
  await rm(work, { recursive: true, force: true });
}
