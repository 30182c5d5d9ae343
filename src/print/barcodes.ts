/**
 * Barcode images for PDF documents (bwip-js): bars only, no quiet zone and no text, 2 pixels per
 * module, to be stretched into the layout's barcode box (a 1-D barcode only needs its modules
 * scaled evenly across). A barcode's content lives only in its image, so documents print the data
 * as text as well. Loads bwip-js: import lazily.
 */
import bwipjs from 'bwip-js';
import type { BarcodeSymbology } from './drawOps.js';

const options = (symbology: BarcodeSymbology, data: string) => ({ bcid: symbology, text: data, scale: 2, height: 10, includetext: false });
/** Pixels per module across (bwip-js's `scale`). */
const SCALE = 2;

/** PNG bytes of `data` as `symbology` (see BarcodeSymbology for how data is written). */
export async function renderBarcodePng(symbology: BarcodeSymbology, data: string): Promise<Uint8Array> {
  const png = await bwipjs.toBuffer(options(symbology, data));
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
}

/**
 * The pixels of the image `renderBarcodePng` draws, without drawing it: one row of coverage (255
 * under a bar, 0 between bars; the PNG's alpha, its colour being black throughout) and how many
 * such rows the image has. bwip-js encodes the data (and refuses what it refuses, a GS1 check
 * digit that is wrong included) as it does for the PNG; drawing, encoding and decoding the PNG
 * was most of a BOL's barcode time, and every row of a linear barcode is the same.
 */
export interface BarcodeBars {
  row: Uint8Array;
  height: number;
}

export function renderBarcodeBars(symbology: BarcodeSymbology, data: string): BarcodeBars {
  const [symbol] = bwipjs.raw(options(symbology, data)) as unknown as Array<{ sbs: number[] }>;
  if (!symbol || !Array.isArray(symbol.sbs)) throw new Error(`bwip-js gave no bars for ${symbology} ${data}`);
  const modules = symbol.sbs.reduce((sum, width) => sum + width, 0);
  const row = new Uint8Array(modules * SCALE);
  let at = 0;
  symbol.sbs.forEach((width, index) => {
    // Bars and spaces alternate, a bar first.
    if (index % 2 === 0) row.fill(255, at, at + width * SCALE);
    at += width * SCALE;
  });
  return { row, height: BAR_PIXELS_HIGH };
}

/**
 * The height in pixels of every image `renderBarcodePng` draws, as bwip-js draws its `height`
 * option (10 mm) at scale 2; test/bol/barcode.test.ts holds it to bwip-js's own PNGs.
 */
export const BAR_PIXELS_HIGH = 58;
