/**
 * The pdf-lib adapter shared by the BOL and the pallet labels: a document with the embedded,
 * subset DejaVu fonts, and the executor of a page's drawing operations. Loads pdf-lib: import
 * lazily.
 */
import { deflateSync } from 'node:zlib';
import fontkit from '@pdf-lib/fontkit';
import {
  PDFDocument,
  PDFName,
  PDFRef,
  beginText,
  concatTransformationMatrix,
  drawObject,
  endText,
  fill,
  lineTo,
  moveTo,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  rgb,
  setFillingRgbColor,
  setFontAndSize,
  setGraphicsState,
  setLineWidth,
  setStrokingRgbColor,
  setTextMatrix,
  setTextRenderingMode,
  showText,
  stroke,
  TextRenderingMode,
  type PDFFont,
  type PDFOperator,
  type PDFPage,
  type RGB,
} from 'pdf-lib';
import { renderBarcodePng } from './barcodes.js';
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
export function documentDateOf(shipment: { createdAt: string; pickupDate: string }): Date {
  const createdAt = new Date(shipment.createdAt);
  return Number.isNaN(createdAt.getTime()) ? new Date(`${shipment.pickupDate}T00:00:00Z`) : createdAt;
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

/** A new document with both faces embedded as subsets named after `seed` (the document's number). */
export async function createPdfDocument(fonts: LoadedFonts, seed: string): Promise<PdfDocumentParts> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  // pdf-lib deflates fonts and images with pako, in JavaScript; Node's zlib writes the same
  // FlateDecode streams in a fraction of the time (a fifth of a BOL's render time).
  doc.context.flateStream = (contents, dict = {}) =>
    doc.context.stream(deflateSync(typeof contents === 'string' ? Buffer.from(contents, 'latin1') : contents), { ...dict, Filter: 'FlateDecode' });
  // pdf-lib parses a font on every embedFont; handing it the fonts parsed once skips that cost.
  doc.registerFontkit({
    create: (data: Uint8Array) => (data === fonts.regularBytes ? fonts.regular : data === fonts.boldBytes ? fonts.bold : fontkit.create(data)),
  });
  const [regular, bold] = await Promise.all([
    doc.embedFont(fonts.regularBytes, { subset: true, customName: `${subsetTag(`R${seed}`)}+DejaVuSans` }),
    doc.embedFont(fonts.boldBytes, { subset: true, customName: `${subsetTag(`B${seed}`)}+DejaVuSans-Bold` }),
  ]);
  regular.encodeText(SUBSET_BASE);
  bold.encodeText(SUBSET_BASE);
  return { doc, regular, bold };
}

const barcodeKey = (symbology: BarcodeSymbology, data: string) => `${symbology}\u0000${data}`;

/** The barcodes of `ops`, each rendered and embedded once per document however many pages show it. */
export async function embedBarcodes(doc: PDFDocument, ops: Iterable<DrawOp>): Promise<Map<string, PlacedImage>> {
  const wanted = new Map<string, Extract<DrawOp, { kind: 'barcode' }>>();
  for (const op of ops) if (op.kind === 'barcode') wanted.set(barcodeKey(op.symbology, op.data), op);
  // Rendered in parallel, embedded in the order of the page plan: object numbers, and so the
  // document's bytes, must not depend on which image finished first.
  const pngs = await Promise.all([...wanted.values()].map((op) => renderBarcodePng(op.symbology, op.data)));
  const placed = new Map<string, PlacedImage>();
  let index = 0;
  for (const key of wanted.keys()) {
    const image = await doc.embedPng(pngs[index++]!);
    placed.set(key, { ref: image.ref, width: image.width, height: image.height });
  }
  return placed;
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
 * Executes a page's operations as raw content-stream operators, batched: all fills, then all
 * rules and borders (one path per colour and width), then images, then all text in one text
 * object, then stamps. A BOL page has hundreds of small texts and rules; pdf-lib's drawText and
 * drawLine wrap each one in its own graphics state, which made them most of the render time and
 * content size. Layering this way keeps the painter's order right: text and rules always sit on
 * top of fills, and a stamp on top of everything.
 */
export function drawPage(page: PDFPage, ops: readonly DrawOp[], resources: DrawResources): void {
  const { palette } = resources;
  const operators: PDFOperator[] = [pushGraphicsState()];
  const setFill = (role: ColorRole) => setFillingRgbColor(palette[role].red, palette[role].green, palette[role].blue);
  const setStroke = (role: ColorRole) => setStrokingRgbColor(palette[role].red, palette[role].green, palette[role].blue);
  const fontKeys = new Map<PDFFont, PDFName>();
  const fontKey = (font: PDFFont) => {
    let key = fontKeys.get(font);
    if (!key) fontKeys.set(font, (key = page.node.newFontDictionary(font.name, font.ref)));
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

  for (const [color, rects] of fills) {
    operators.push(setFill(color));
    for (const rect of rects) operators.push(rectangle(rect.x, rect.y, rect.width, rect.height));
    operators.push(fill());
  }
  for (const { color, thickness, ops: group } of strokes.values()) {
    operators.push(setStroke(color), setLineWidth(thickness));
    for (const op of group) {
      if (op.kind === 'line') operators.push(moveTo(op.x1, op.y1), lineTo(op.x2, op.y2));
      else if (op.kind === 'rect') operators.push(rectangle(op.x, op.y, op.width, op.height));
    }
    operators.push(stroke());
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
    const name = page.node.newXObject('Image', target.ref);
    operators.push(pushGraphicsState(), concatTransformationMatrix(width, 0, 0, height, x, y), drawObject(name), popGraphicsState());
  }
  if (texts.length > 0) {
    operators.push(beginText());
    let currentFont: PDFFont | null = null;
    let currentSize = 0;
    let currentColor: ColorRole | null = null;
    for (const text of texts) {
      const font = text.bold ? resources.bold : resources.regular;
      if (font !== currentFont || text.size !== currentSize) {
        operators.push(setFontAndSize(fontKey(font), text.size));
        currentFont = font;
        currentSize = text.size;
      }
      if (text.color !== currentColor) {
        operators.push(setFill(text.color));
        currentColor = text.color;
      }
      operators.push(setTextMatrix(1, 0, 0, 1, text.x, text.y), showText(font.encodeText(text.text)));
    }
    operators.push(endText());
  }
  for (const stamp of stamps) {
    const state = page.node.newExtGState('GS', page.doc.context.obj({ Type: 'ExtGState', CA: STAMP_STROKE_OPACITY, ca: STAMP_FILL_OPACITY }));
    const radians = (stamp.angle * Math.PI) / 180;
    const [cos, sin] = [Math.cos(radians), Math.sin(radians)];
    operators.push(
      pushGraphicsState(),
      setGraphicsState(state),
      setFill(stamp.color),
      setStroke(stamp.color),
      setLineWidth(Math.max(1, stamp.size / 45)),
      beginText(),
      setFontAndSize(fontKey(resources.bold), stamp.size),
      setTextRenderingMode(TextRenderingMode.FillAndOutline),
      setTextMatrix(cos, sin, -sin, cos, stamp.x, stamp.y),
      showText(resources.bold.encodeText(stamp.text)),
      endText(),
      popGraphicsState(),
    );
  }
  operators.push(popGraphicsState());
  // In slices: a 1,000-component BOL has tens of thousands of operators, too many for one spread call.
  for (let index = 0; index < operators.length; index += 5000) page.pushOperators(...operators.slice(index, index + 5000));
}
