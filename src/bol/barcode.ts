/**
 * The BOL barcode: GS1-128 with application identifier 402 (Global Shipment Identification
 * Number), whose 17 digits are exactly the VICS BOL number. A barcode's content lives only in its
 * image, so the BOL prints the number as text as well.
 */
import { gs1CheckDigit, isValidBolNumber } from '../domain/bolNumber.js';
import { renderBarcodePng } from '../print/barcodes.js';

export { gs1CheckDigit, isValidBolNumber };

export const GSIN_APPLICATION_IDENTIFIER = '402';

/** The element string encoded in the barcode, in bwip-js's bracketed GS1 notation. */
export function bolBarcodeData(bolNumber: string): string {
  if (!/^\d{17}$/.test(bolNumber)) throw new Error(`a BOL number has 17 digits, got "${bolNumber}"`);
  return `(${GSIN_APPLICATION_IDENTIFIER})${bolNumber}`;
}

/**
 * The GS1-128 barcode of a BOL number as PNG bytes: bars only, 2 pixels per module. A wrong check
 * digit is encoded as it is: the barcode must say what the printed number says (see
 * `isValidBolNumber` to warn about it).
 */
export function renderBolBarcodePng(bolNumber: string): Promise<Uint8Array> {
  return renderBarcodePng('gs1-128', bolBarcodeData(bolNumber));
}
