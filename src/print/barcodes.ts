/**
 * Barcode images for PDF documents (bwip-js): bars only, no quiet zone and no text, 2 pixels per
 * module, to be stretched into the layout's barcode box (a 1-D barcode only needs its modules
 * scaled evenly across). A barcode's content lives only in its image, so documents print the data
 * as text as well. Loads bwip-js: import lazily.
 */
import bwipjs from 'bwip-js';
import type { BarcodeSymbology } from './drawOps.js';

/** PNG bytes of `data` as `symbology` (see BarcodeSymbology for how data is written). */
export async function renderBarcodePng(symbology: BarcodeSymbology, data: string): Promise<Uint8Array> {
  const png = await bwipjs.toBuffer({ bcid: symbology, text: data, scale: 2, height: 10, includetext: false });
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
}
