/**
 * The BOL barcode: GS1-128 with application identifier 402 (Global Shipment Identification
 * Number), whose 17 digits are exactly the VICS BOL number. A barcode's content lives only in its
 * image, so the BOL prints the number as text as well.
 */
import bwipjs from 'bwip-js';

export const GSIN_APPLICATION_IDENTIFIER = '402';

/** The GS1 mod-10 check digit of `digits` (weights 3, 1, 3... from the right). */
export function gs1CheckDigit(digits: string): number {
  if (!/^\d+$/.test(digits)) throw new Error(`a GS1 check digit needs digits, got "${digits}"`);
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    const fromRight = digits.length - 1 - index;
    sum += Number(digits[index]) * (fromRight % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}

/** True for 17 digits whose last one is the GS1 check digit of the first 16. */
export function isValidBolNumber(bolNumber: string): boolean {
  return /^\d{17}$/.test(bolNumber) && gs1CheckDigit(bolNumber.slice(0, 16)) === Number(bolNumber[16]);
}

/** The element string encoded in the barcode, in bwip-js's bracketed GS1 notation. */
export function bolBarcodeData(bolNumber: string): string {
  if (!/^\d{17}$/.test(bolNumber)) throw new Error(`a BOL number has 17 digits, got "${bolNumber}"`);
  return `(${GSIN_APPLICATION_IDENTIFIER})${bolNumber}`;
}

/**
 * The GS1-128 barcode of a BOL number as PNG bytes: bars only (no quiet zone, no text), 2 pixels
 * per module, to be stretched into the layout's barcode box. A wrong check digit is encoded as it
 * is: the barcode must say what the printed number says (see `isValidBolNumber` to warn about it).
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
