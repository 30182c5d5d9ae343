// Draws the logo of the example partner template (templates/bol/assets/acme-logistics.png): a
// vector drawing made with pdf-lib, rasterised with poppler's pdftocairo. Run by hand when the logo
// changes (`node scripts/make-bol-logo.mjs`, needs poppler-utils); the PNG is committed.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, rgb } from 'pdf-lib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const out = join(root, 'templates/bol/assets/acme-logistics.png');

const navy = rgb(0x1b / 255, 0x3f / 255, 0x73 / 255);
const orange = rgb(0xe8 / 255, 0x7a / 255, 0x1e / 255);
const white = rgb(1, 1, 1);

const doc = await PDFDocument.create();
doc.registerFontkit(fontkit);
const bold = await doc.embedFont(readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf')), { subset: true });
const [width, height] = [120, 36];
const page = doc.addPage([width, height]);
// Badge: a rounded navy square with a white "A" roof and an orange road stripe.
page.drawSvgPath('M 5 0 H 31 Q 36 0 36 5 V 31 Q 36 36 31 36 H 5 Q 0 36 0 31 V 5 Q 0 0 5 0 Z', { x: 0, y: height, color: navy });
page.drawSvgPath('M 18 6 L 30 27 H 24.5 L 18 15.5 L 11.5 27 H 6 Z', { x: 0, y: height, color: white });
page.drawSvgPath('M 9 29.5 H 27 V 32 H 9 Z', { x: 0, y: height, color: orange });
page.drawText('ACME', { x: 41, y: 14, size: 19, font: bold, color: navy });
page.drawText('L O G I S T I C S', { x: 41.5, y: 4, size: 6.6, font: bold, color: orange });

const dir = mkdtempSync(join(tmpdir(), 'bol-logo-'));
try {
  writeFileSync(join(dir, 'logo.pdf'), await doc.save());
  // 4x the box in points: sharp in print at ~290 dpi while staying a few kilobytes.
  execFileSync('pdftocairo', ['-png', '-singlefile', '-transp', '-r', '288', join(dir, 'logo.pdf'), join(dir, 'logo')]);
  writeFileSync(out, readFileSync(join(dir, 'logo.png')));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(`${out}: ${statSync(out).size} bytes`);
