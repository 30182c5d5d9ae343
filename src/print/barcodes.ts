/**
 * Barcode images for PDF documents (bwip-js): bars only, no quiet zone and no text, 2 pixels per
 * module, to be stretched into the layout's barcode box (a 1-D barcode only needs its modules
 * scaled evenly across). A barcode's content lives only in its image, so documents print the data
 * as text as well. Loads bwip-js: import lazily.
 */
import bwipjs from 'bwip-js';
import { gs1CheckDigit } from '../domain/bolNumber.js';
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
  const sbs = (symbology === 'gs1-128' ? gs1DigitsBars(data) : null) ?? bwipjsBars(symbology, data);
  const modules = sbs.reduce((sum, width) => sum + width, 0);
  const row = new Uint8Array(modules * SCALE);
  let at = 0;
  sbs.forEach((width, index) => {
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

function bwipjsBars(symbology: BarcodeSymbology, data: string): number[] {
  const [symbol] = bwipjs.raw(options(symbology, data)) as unknown as Array<{ sbs: number[] }>;
  if (!symbol || !Array.isArray(symbol.sbs)) throw new Error(`bwip-js gave no bars for ${symbology} ${data}`);
  return symbol.sbs;
}

/** Code 128's bar and space widths of each symbol value (ISO/IEC 15417); the last, stop, with its termination bar. */
const CODE_128 =
  '212222 222122 222221 121223 121322 131222 122213 122312 132212 221213 221312 231212 112232 122132 122231 113222 123122 123221 223211 221132 221231 213212 223112 312131 311222 321122 321221 312212 322112 322211 212123 212321 232121 111323 131123 131321 112313 132113 132311 211313 231113 231311 112133 112331 132131 113123 113321 133121 313121 211331 231131 213113 213311 213131 311123 311321 331121 312113 312311 332111 314111 221411 431111 111224 111422 121124 121421 141122 141221 112214 112412 122114 122411 142112 142211 241211 221114 413111 241112 134111 111242 121142 121241 114212 124112 124211 411212 421112 421211 212141 214121 412121 111143 111341 131141 114113 114311 411113 411311 113141 114131 311141 411131 211412 211214 211232 2331112'
    .split(' ')
    .map((widths) => [...widths].map(Number));
const START_C = 105;
const FNC1 = 102;
const STOP = 106;
/** The GS1 element strings of the documents' barcodes that are digits only with a mod-10 check digit: AI 00 (SSCC, 18 digits) and AI 402 (GSIN, the BOL number, 17). */
const CHECKED_DIGITS: Record<string, number> = { '00': 18, '402': 17 };

/**
 * The bars of an SSCC's or a BOL number's GS1-128, as bwip-js encodes them (start C, FNC1, the
 * digits in pairs, check, stop; test/print/pdf.test.ts holds them to bwip-js's), without its
 * general encoder, the larger part of a BOL's barcode time. Anything else, a wrong check digit
 * included, is bwip-js's to encode or refuse: null.
 */
function gs1DigitsBars(data: string): number[] | null {
  const match = /^\((\d{2,3})\)(\d+)$/.exec(data);
  if (!match || CHECKED_DIGITS[match[1]!] !== match[2]!.length) return null;
  const value = match[2]!;
  if (gs1CheckDigit(value.slice(0, -1)) !== Number(value.at(-1))) return null;
  const digits = match[1]! + value;
  if (digits.length % 2 !== 0) return null;
  const symbols = [START_C, FNC1];
  for (let index = 0; index < digits.length; index += 2) symbols.push(Number(digits.slice(index, index + 2)));
  const check = symbols.reduce((total, symbol, position) => total + symbol * Math.max(position, 1), 0) % 103;
  symbols.push(check, STOP);
  return symbols.flatMap((symbol) => CODE_128[symbol]!);
}
