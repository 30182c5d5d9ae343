/**
 * The BOL barcode: GS1-128 with application identifier 402 (Global Shipment Identification
 * Number), whose 17 digits are exactly the VICS BOL number. A barcode's content lives only in its
 * image, so the BOL prints the number as text as well.
 */
import bwipjs from 'bwip-js';

export const GSIN_APPLICATION_IDENTIFIER = '402';

/** The element string encoded in the barcode, in bwip-js's bracketed GS1 notation. */
export function bolBarcodeData(bolNumber: string): string {
  if (!/^\d{17}$/.test(bolNumber)) throw new Error(`a BOL number has 17 digits, got "${bolNumber}"`);
  return `(${GSIN_APPLICATION_IDENTIFIER})${bolNumber}`;
}

/**
 * The GS1-128 barcode of a BOL number as PNG bytes: bars only (no quiet zone, no text), 2 pixels
 * per module, to be stretched into the layout's barcode box. A wrong check digit is encoded as it
 * is: the barcode must say what the printed number says (see `isValidBolNumber` in domain/bolNumber.ts to warn about it).
 */
export async function renderBolBarcodePng(bolNumber: string): Promise<Uint8Array> {
  const png = await bwipjs.toBuffer({
    bcid: 'gs1-128',
    text: bolBarcodeData(bolNumber),
    scale: 2,
    height: 10,
    includetext: false,
  });
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
}
