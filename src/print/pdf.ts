/**
 * The pdf-lib adapter shared by the BOL and the pallet labels: a document with the embedded,
 * subset DejaVu fonts, and the executor of a page's drawing operations. Loads pdf-lib: import
 * lazily.
 */
import { deflateSync } from 'node:zlib';
import fontkit from '@pdf-lib/fontkit';
import { numberToString, PDFDocument, PDFRef, rgb, TextRenderingMode, type PDFFont, type PDFPage, type RGB } from 'pdf-lib';
import { renderBarcodeBars, type BarcodeBars } from './barcodes.js';
import type { BarcodeSymbology, ColorRole, DrawOp } from './drawOps.js';
import { SUBSET_BASE, type LoadedFonts } from './fonts.js';

/** A document's metadata: what a PDF viewer shows as its title, subject and author. */
export interface DocumentInfo {
  title: string;
  subject: string;
  author: string;
  /** The document's own date (its bytes do not depend on when it was rendered). */
  date: Date;
}

/** A shipment's document date: when it was booked (its pickup day for a record without a readable one). */
export function documentDateOf(shipment: { createdAt: string; requiredPickupDate: string }): Date {
  const createdAt = new Date(shipment.createdAt);
  return Number.isNaN(createdAt.getTime()) ? new Date(`${shipment.requiredPickupDate}T00:00:00Z`) : createdAt;
}

export function setDocumentInfo(doc: PDFDocument, info: DocumentInfo): void {
  doc.setTitle(info.title);
  doc.setSubject(info.subject);
  doc.setAuthor(info.author);
  doc.setProducer('shipper');
  doc.setCreator('shipper');
  doc.setCreationDate(info.date);
  doc.setModificationDate(info.date);
}

export interface PdfDocumentParts {
  doc: PDFDocument;
  regular: PDFFont;
  bold: PDFFont;
}

/** An image XObject registered in a document, with its pixel size. */
export interface PlacedImage {
  ref: PDFRef;
  width: number;
  height: number;
}

export function hexToRgb(hex: string): RGB {
  const value = Number.parseInt(hex.slice(1), 16);
  return rgb(((value >> 16) & 0xff) / 255, ((value >> 8) & 0xff) / 255, (value & 0xff) / 255);
}

/**
 * A subset font's name carries a six-letter tag (PDF 32000 9.6.4). Derived from the document's
 * identity instead of pdf-lib's random suffix, so the same document gives the same bytes.
 */
export function subsetTag(seed: string): string {
  let hash = 2166136261;
  for (let index = 0; index < seed.length; index++) hash = Math.imul(hash ^ seed.charCodeAt(index), 16777619) >>> 0;
  let tag = '';
  for (let index = 0; index < 6; index++) {
    tag += String.fromCharCode(65 + (hash % 26));
    hash = Math.floor(hash / 26) + index * 7919;
  }
  return tag;
}

/**
 * zlib's level 3 for what is deflated for one document only (page content, barcode masks): a
 * BOL's page content deflates in under half the time of the default level 6, about 700 bytes
 * larger (a barcode mask, in half the time and 160 bytes larger).
 */
const FAST_DEFLATE = { level: 3 };

/** Deflated streams kept for reuse, by their uncompressed bytes (font subsets, Unicode maps: tens of KB each). */
const deflatedStreams = new Map<string, { raw: Uint8Array; deflated: Uint8Array }[]>();
let deflatedBytes = 0;
/** A few of each document's kind; beyond it, the oldest go. */
const DEFLATED_CACHE_BYTES = 8 * 1024 * 1024;
/** Below this, deflating costs less than looking up. */
const DEFLATED_CACHE_MIN = 1024;

/** `contents` deflated (zlib, level 6), from the cache when the same bytes were deflated before. */
export function deflatedOnce(contents: string | Uint8Array): Uint8Array {
  const raw = typeof contents === 'string' ? Buffer.from(contents, 'latin1') : contents;
  if (raw.length < DEFLATED_CACHE_MIN) return deflateSync(raw);
  // Keyed by length and a sample; equal bytes confirmed with a full comparison.
  const key = `${raw.length}:${raw[raw.length >> 1]}:${raw[raw.length >> 2]}:${raw[raw.length - 1]}`;
  const bucket = deflatedStreams.get(key) ?? [];
  const found = bucket.find((entry) => Buffer.compare(entry.raw, raw) === 0);
  if (found) return found.deflated;
  const deflated = deflateSync(raw);
  const entry = { raw: Uint8Array.from(raw), deflated };
  bucket.push(entry);
  deflatedStreams.set(key, bucket);
  deflatedBytes += entry.raw.length + deflated.length;
  while (deflatedBytes > DEFLATED_CACHE_BYTES) {
    const [oldestKey, oldest] = deflatedStreams.entries().next().value!;
    const gone = oldest.shift()!;
    deflatedBytes -= gone.raw.length + gone.deflated.length;
    if (oldest.length === 0) deflatedStreams.delete(oldestKey);
  }
  return deflated;
}

/** How many deflated streams are kept (for tests). */
export function deflatedStreamCount(): number {
  let count = 0;
  for (const bucket of deflatedStreams.values()) count += bucket.length;
  return count;
}

/** A new document with both faces embedded as subsets named after `seed` (the document's number). */
export async function createPdfDocument(fonts: LoadedFonts, seed: string): Promise<PdfDocumentParts> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  // pdf-lib deflates fonts and images with pako, in JavaScript; Node's zlib writes the same
  // FlateDecode streams in a fraction of the time (a fifth of a BOL's render time).
  // The same font subsets and Unicode maps recur from one document to the next: deflated once.
  doc.context.flateStream = (contents, dict = {}) => doc.context.stream(deflatedOnce(contents), { ...dict, Filter: 'FlateDecode' });
  // pdf-lib parses a font on every embedFont; handing it the fonts parsed once skips that cost.
  doc.registerFontkit({
    create: (data: Uint8Array) => (data === fonts.regularBytes ? fonts.regular : data === fonts.boldBytes ? fonts.bold : fontkit.create(data)),
  });
  const [regular, bold] = await Promise.all([
    doc.embedFont(fonts.regularBytes, { subset: true, customName: `${subsetTag(`R${seed}`)}+DejaVuSans` }),
    doc.embedFont(fonts.boldBytes, { subset: true, customName: `${subsetTag(`B${seed}`)}+DejaVuSans-Bold` }),
  ]);
  // Every subset starts with these characters; their codes, known now, are where encodeTextHex looks first.
  seedGlyphCodes(regular, SUBSET_BASE, regular.encodeText(SUBSET_BASE).toString());
  seedGlyphCodes(bold, SUBSET_BASE, bold.encodeText(SUBSET_BASE).toString());
  return { doc, regular, bold };
}

const barcodeKey = (symbology: BarcodeSymbology, data: string) => `${symbology}\u0000${data}`;

/** The barcodes of `ops`, each rendered and embedded once per document however many pages show it. */
export async function embedBarcodes(doc: PDFDocument, ops: Iterable<DrawOp>): Promise<Map<string, PlacedImage>> {
  const wanted = new Map<string, Extract<DrawOp, { kind: 'barcode' }>>();
  for (const op of ops) if (op.kind === 'barcode') wanted.set(barcodeKey(op.symbology, op.data), op);
  // Embedded in the order of the page plan: object numbers, and so the document's bytes, follow it.
  const placed = new Map<string, PlacedImage>();
  for (const [key, op] of wanted) placed.set(key, placeBarcode(doc, renderBarcodeBars(op.symbology, op.data)));
  return placed;
}

/** Deflated black pixels (DeviceRGB) by image size: every barcode of a size has the same colour stream. */
const blackPixels = new Map<string, Uint8Array>();

/**
 * The image XObject pdf-lib's embedPng makes of bwip-js's PNG of these bars (black RGB pixels and
 * the bars as its soft mask), made from the bars directly.
 */
export function placeBarcode(doc: PDFDocument, bars: BarcodeBars): PlacedImage {
  const context = doc.context;
  const width = bars.row.length;
  const { height } = bars;
  const size = `${width}x${height}`;
  let black = blackPixels.get(size);
  if (!black) {
    black = deflateSync(new Uint8Array(width * height * 3));
    if (blackPixels.size >= 64) blackPixels.clear();
    blackPixels.set(size, black);
  }
  const coverage = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) coverage.set(bars.row, y * width);
  const softMask = context.register(
    context.stream(deflateSync(coverage, FAST_DEFLATE), {
      Type: 'XObject',
      Subtype: 'Image',
      Height: height,
      Width: width,
      BitsPerComponent: 8,
      ColorSpace: 'DeviceGray',
      Decode: [0, 1],
      Filter: 'FlateDecode',
    }),
  );
  const ref = context.register(
    context.stream(black, {
      Type: 'XObject',
      Subtype: 'Image',
      BitsPerComponent: 8,
      Width: width,
      Height: height,
      ColorSpace: 'DeviceRGB',
      SMask: softMask,
      Filter: 'FlateDecode',
    }),
  );
  return { ref, width, height };
}

export interface DrawResources {
  regular: PDFFont;
  bold: PDFFont;
  barcodes: Map<string, PlacedImage>;
  logo: PlacedImage | null;
  palette: Record<ColorRole, RGB>;
}

/** The VOID stamp: a solid outline over a faint fill, both translucent, so the page reads through it. */
const STAMP_STROKE_OPACITY = 0.6;
const STAMP_FILL_OPACITY = 0.12;

/**
 * A number as pdf-lib writes it in a content stream: `String(value)`, spelled out in full where
 * JavaScript would use exponent notation (pdf-lib's numberToString, which splits strings on every
 * call: called only then).
 */
export function pdfNumber(value: number): string {
  const text = String(value);
  return text.includes('e') ? numberToString(value) : text;
}

/**
 * Text as hex glyph codes of a document's subset font, one code point at a time, each code point's
 * code kept for the document. The fonts map one glyph per code point (fonts.ts, `forPdfLib`), so
 * this is exactly what `font.encodeText(text)` gives, and the glyphs enter the subset in the same
 * order; pdf-lib builds a hex string object per call, which cost more than the rest of a page.
 */
const glyphCodes = new WeakMap<PDFFont, Map<string, string>>();

/** Remembers the codes of `text`'s code points from `hex`, pdf-lib's encoding of it (`<...>`, four digits each). */
function seedGlyphCodes(font: PDFFont, text: string, hex: string): void {
  const codes = new Map<string, string>();
  let at = 1;
  for (const char of text) {
    codes.set(char, hex.slice(at, at + 4));
    at += 4;
  }
  if (at === hex.length - 1) glyphCodes.set(font, codes);
}

export function encodeTextHex(font: PDFFont, text: string): string {
  let codes = glyphCodes.get(font);
  if (!codes) glyphCodes.set(font, (codes = new Map()));
  let hex = '';
  for (const char of text) {
    let code = codes.get(char);
    if (code === undefined) {
      code = font.encodeText(char).toString().slice(1, -1);
      codes.set(char, code);
    }
    hex += code;
  }
  return hex;
}

/**
 * Executes a page's operations as one content stream, batched: all fills, then all rules and
 * borders (one path per colour and width), then images, then all text in one text object, then
 * stamps. A BOL page has hundreds of small texts and rules; pdf-lib's drawText and drawLine wrap
 * each one in its own graphics state, which made them most of the render time and content size.
 * Layering this way keeps the painter's order right: text and rules always sit on top of fills,
 * and a stamp on top of everything. The stream is written as text (the operators pdf-lib's
 * operator objects would write, one per line) and deflated by zlib: pdf-lib's operator objects
 * and its JavaScript deflate were a third of a BOL's render time.
 */
export function drawPage(page: PDFPage, ops: readonly DrawOp[], resources: DrawResources): void {
  const { palette } = resources;
  const n = pdfNumber;
  const lines: string[] = ['q'];
  const color = (role: ColorRole, operator: 'rg' | 'RG') => `${n(palette[role].red)} ${n(palette[role].green)} ${n(palette[role].blue)} ${operator}`;
  const fontKeys = new Map<PDFFont, string>();
  const fontKey = (font: PDFFont) => {
    let key = fontKeys.get(font);
    if (!key) fontKeys.set(font, (key = page.node.newFontDictionary(font.name, font.ref).toString()));
    return key;
  };

  const fills = new Map<ColorRole, Array<Extract<DrawOp, { kind: 'rect' }>>>();
  const strokes = new Map<string, { color: ColorRole; thickness: number; ops: DrawOp[] }>();
  const images: Array<Extract<DrawOp, { kind: 'image' | 'barcode' }>> = [];
  const texts: Array<Extract<DrawOp, { kind: 'text' }>> = [];
  const stamps: Array<Extract<DrawOp, { kind: 'stamp' }>> = [];
  const addStroke = (color: ColorRole, thickness: number, op: DrawOp) => {
    const key = `${color} ${thickness}`;
    let group = strokes.get(key);
    if (!group) strokes.set(key, (group = { color, thickness, ops: [] }));
    group.ops.push(op);
  };
  for (const op of ops) {
    if (op.kind === 'rect') {
      if (op.fill) {
        let group = fills.get(op.fill);
        if (!group) fills.set(op.fill, (group = []));
        group.push(op);
      }
      if (op.stroke) addStroke(op.stroke, op.thickness, op);
    } else if (op.kind === 'line') addStroke(op.color, op.thickness, op);
    else if (op.kind === 'image' || op.kind === 'barcode') images.push(op);
    else if (op.kind === 'stamp') stamps.push(op);
    else texts.push(op);
  }

  for (const [role, rects] of fills) {
    lines.push(color(role, 'rg'));
    for (const rect of rects) lines.push(`${n(rect.x)} ${n(rect.y)} ${n(rect.width)} ${n(rect.height)} re`);
    lines.push('f');
  }
  for (const { color: role, thickness, ops: group } of strokes.values()) {
    lines.push(color(role, 'RG'), `${n(thickness)} w`);
    for (const op of group) {
      if (op.kind === 'line') lines.push(`${n(op.x1)} ${n(op.y1)} m`, `${n(op.x2)} ${n(op.y2)} l`);
      else if (op.kind === 'rect') lines.push(`${n(op.x)} ${n(op.y)} ${n(op.width)} ${n(op.height)} re`);
    }
    lines.push('S');
  }
  for (const op of images) {
    const target = op.kind === 'barcode' ? resources.barcodes.get(barcodeKey(op.symbology, op.data)) : resources.logo;
    if (!target) continue;
    const { x } = op;
    let { y, width, height } = op;
    if (op.kind === 'image') {
      // The logo keeps its aspect ratio inside the box, left-aligned and vertically centred; a
      // barcode is stretched: a 1-D barcode only needs its modules scaled evenly across.
      const scale = Math.min(op.width / target.width, op.height / target.height);
      width = target.width * scale;
      height = target.height * scale;
      y += (op.height - height) / 2;
    }
    const name = page.node.newXObject('Image', target.ref).toString();
    lines.push('q', `${n(width)} 0 0 ${n(height)} ${n(x)} ${n(y)} cm`, `${name} Do`, 'Q');
  }
  if (texts.length > 0) {
    lines.push('BT');
    let currentFont: PDFFont | null = null;
    let currentSize = 0;
    let currentColor: ColorRole | null = null;
    for (const text of texts) {
      const font = text.bold ? resources.bold : resources.regular;
      if (font !== currentFont || text.size !== currentSize) {
        lines.push(`${fontKey(font)} ${n(text.size)} Tf`);
        currentFont = font;
        currentSize = text.size;
      }
      if (text.color !== currentColor) {
        lines.push(color(text.color, 'rg'));
        currentColor = text.color;
      }
      lines.push(`1 0 0 1 ${n(text.x)} ${n(text.y)} Tm`, `<${encodeTextHex(font, text.text)}> Tj`);
    }
    lines.push('ET');
  }
  for (const stamp of stamps) {
    const state = page.node.newExtGState('GS', page.doc.context.obj({ Type: 'ExtGState', CA: STAMP_STROKE_OPACITY, ca: STAMP_FILL_OPACITY })).toString();
    const radians = (stamp.angle * Math.PI) / 180;
    const [cos, sin] = [Math.cos(radians), Math.sin(radians)];
    lines.push(
      'q',
      `${state} gs`,
      color(stamp.color, 'rg'),
      color(stamp.color, 'RG'),
      `${n(Math.max(1, stamp.size / 45))} w`,
      'BT',
      `${fontKey(resources.bold)} ${n(stamp.size)} Tf`,
      `${TextRenderingMode.FillAndOutline} Tr`,
      `${n(cos)} ${n(sin)} ${n(-sin)} ${n(cos)} ${n(stamp.x)} ${n(stamp.y)} Tm`,
      `<${encodeTextHex(resources.bold, stamp.text)}> Tj`,
      'ET',
      'Q',
    );
  }
  lines.push('Q', '');
  const context = page.doc.context;
  const contents = context.stream(deflateSync(Buffer.from(lines.join('\n'), 'latin1'), FAST_DEFLATE), { Filter: 'FlateDecode' });
  page.node.addContentStream(context.register(contents));
}
