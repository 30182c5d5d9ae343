/**
 * Reads generated PDFs back for assertions: text per page (pdfjs-dist), document info, and the
 * barcode image decoded with ZXing, so tests check what a viewer and a scanner would see.
 */
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import zxing from '@zxing/library';

const { BinaryBitmap, Code128Reader, DecodeHintType, HybridBinarizer, RGBLuminanceSource } = zxing;

export interface TextItem {
  str: string;
  x: number;
  y: number;
  /** Rotation of the text's baseline, in degrees counter-clockwise (0 for ordinary text). */
  angle: number;
  /** Font size as drawn (the length of the text matrix's first column). */
  size: number;
  /** Advance width of the text, in points. */
  width: number;
}

export interface PdfPage {
  items: TextItem[];
  /** Horizontal text items joined per baseline (top to bottom, left to right), items separated by " | ". */
  lines: string[];
  /** All text of the page, items separated by spaces. */
  text: string;
  width: number;
  height: number;
}

export interface ReadPdf {
  pages: PdfPage[];
  info: Record<string, unknown>;
  /** Every decoded GS1-128 / Code 128 barcode, per page, as ZXing reads it with GS1 on ("]C1..."). */
  barcodes: string[][];
  /** Images painted per page (barcode, logo). */
  imageCounts: number[];
}

function openPdf(bytes: Uint8Array) {
  // pdfjs takes ownership of the buffer it is given: hand it a copy.
  return getDocument({ data: bytes.slice(), isEvalSupported: false, useSystemFonts: false, verbosity: 0 }).promise;
}

export async function readPdf(bytes: Uint8Array, options: { barcodes?: boolean } = {}): Promise<ReadPdf> {
  const doc = await openPdf(bytes);
  try {
    const pages: PdfPage[] = [];
    const barcodes: string[][] = [];
    const imageCounts: number[] = [];
    for (let number = 1; number <= doc.numPages; number++) {
      const page = await doc.getPage(number);
      const viewport = page.getViewport({ scale: 1 });
      const content = await page.getTextContent();
      const items: TextItem[] = [];
      for (const item of content.items) {
        // pdfjs adds blank items where it guesses a word space; the text is in the others.
        if (!('str' in item) || item.str.trim() === '') continue;
        const [a, b] = item.transform as number[];
        items.push({
          str: item.str,
          x: item.transform[4] as number,
          y: item.transform[5] as number,
          angle: (Math.atan2(b!, a!) * 180) / Math.PI,
          size: Math.hypot(a!, b!),
          width: item.width,
        });
      }
      pages.push({
        items,
        lines: groupLines(items.filter((item) => Math.abs(item.angle) < 0.5)),
        text: items.map((item) => item.str).join(' '),
        width: viewport.width,
        height: viewport.height,
      });
      const images = await imagesOf(page);
      imageCounts.push(images.length);
      barcodes.push(options.barcodes ? images.map(decodeCode128).filter((text): text is string => text !== null) : []);
    }
    const metadata = await doc.getMetadata();
    return { pages, info: metadata.info as Record<string, unknown>, barcodes, imageCounts };
  } finally {
    await doc.destroy();
  }
}

function groupLines(items: TextItem[]): string[] {
  const byBaseline = new Map<number, TextItem[]>();
  for (const item of items) {
    const key = Math.round(item.y * 2) / 2;
    const line = byBaseline.get(key) ?? [];
    line.push(item);
    byBaseline.set(key, line);
  }
  return [...byBaseline.entries()]
    .sort(([a], [b]) => b - a)
    .map(([, line]) =>
      line
        .sort((a, b) => a.x - b.x)
        .map((item) => item.str)
        .join(' | '),
    );
}

type PdfjsPage = Awaited<ReturnType<Awaited<ReturnType<typeof openPdf>>['getPage']>>;

interface PdfjsImage {
  width: number;
  height: number;
  kind: number;
  data: Uint8ClampedArray;
}

async function imagesOf(page: PdfjsPage): Promise<PdfjsImage[]> {
  const operators = await page.getOperatorList();
  const images: PdfjsImage[] = [];
  for (let index = 0; index < operators.fnArray.length; index++) {
    if (operators.fnArray[index] !== OPS.paintImageXObject) continue;
    const name = (operators.argsArray[index] as [string])[0];
    // Images used on several pages live in the document-wide store, named "g_...".
    const store = name.startsWith('g_') ? page.commonObjs : page.objs;
    images.push(await new Promise<PdfjsImage>((resolve) => store.get(name, resolve)));
  }
  return images;
}

/** Composites the image on white paper, adds a quiet zone and asks ZXing for a Code 128 symbol. */
function decodeCode128(image: PdfjsImage): string | null {
  const channels = image.data.length / (image.width * image.height);
  const pad = 24;
  const width = image.width + 2 * pad;
  const height = image.height + 2 * pad;
  const luminance = new Uint8ClampedArray(width * height).fill(255);
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const offset = (y * image.width + x) * channels;
      const r = image.data[offset]!;
      const g = channels >= 3 ? image.data[offset + 1]! : r;
      const b = channels >= 3 ? image.data[offset + 2]! : r;
      const alpha = channels === 4 ? image.data[offset + 3]! / 255 : 1;
      const value = (r * 299 + g * 587 + b * 114) / 1000;
      luminance[(y + pad) * width + x + pad] = 255 - alpha * (255 - value);
    }
  }
  return decodeCode128Luminance(luminance, width, height);
}

/** ZXing's Code 128 reader (GS1 on: a symbol starting with FNC1 reads "]C1...") over 8-bit luminance; null when it finds none. */
export function decodeCode128Luminance(luminance: Uint8ClampedArray, width: number, height: number): string | null {
  try {
    const bitmap = new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(luminance, width, height)));
    return new Code128Reader().decode(bitmap, new Map([[DecodeHintType.ASSUME_GS1, true]])).getText();
  } catch {
    return null;
  }
}

/**
 * The glyph count of each embedded TrueType font program, by font name: text extraction reads the
 * ToUnicode map and would not notice a subset that lacks the glyphs the text draws.
 */
export async function embeddedFontGlyphCounts(bytes: Uint8Array): Promise<Record<string, number>> {
  const { PDFDocument, PDFDict, PDFName, PDFRawStream, PDFRef, decodePDFRawStream } = await import('pdf-lib');
  const fontkit = (await import('@pdf-lib/fontkit')).default;
  const doc = await PDFDocument.load(bytes);
  const counts: Record<string, number> = {};
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict) || object.get(PDFName.of('Type')) !== PDFName.of('FontDescriptor')) continue;
    const fileRef = object.get(PDFName.of('FontFile2'));
    const file = fileRef instanceof PDFRef ? doc.context.lookup(fileRef) : null;
    if (!(file instanceof PDFRawStream)) continue;
    const name = object
      .get(PDFName.of('FontName'))!
      .toString()
      .replace(/^\/[A-Z]{6}\+/, '');
    counts[name] = fontkit.create(Buffer.from(decodePDFRawStream(file).decode())).numGlyphs;
  }
  return counts;
}
