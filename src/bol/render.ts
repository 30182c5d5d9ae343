/**
 * The pdf-lib adapter: executes the page plan of layout.ts into a PDF. A renderer loads the fonts,
 * templates and logos once and reuses them for every BOL it renders, so that `shipper bol --all`
 * pays for parsing the font a single time.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import { deflateSync } from 'node:zlib';
import fontkit from '@pdf-lib/fontkit';
import type { Font, Glyph, GlyphRun, Subset } from '@pdf-lib/fontkit';
import {
  PDFDocument,
  PDFName,
  PDFRawStream,
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
  setLineWidth,
  setStrokingRgbColor,
  setTextMatrix,
  showText,
  stroke,
  type PDFFont,
  type PDFOperator,
  type PDFPage,
  type RGB,
} from 'pdf-lib';
import type { Shipment } from '../domain/schemas.js';
import { renderBolBarcodePng } from './barcode.js';
import { layoutBol, type BolTextMetrics, type ColorRole, type DrawOp } from './layout.js';
import { listBolTemplates, loadBolTemplate, type BolTemplate, type BolTemplateLogo } from './template.js';

export interface BolRenderer {
  /** One PDF for one shipment with the named template. */
  render(shipment: Shipment, templateName: string): Promise<Uint8Array>;
  /** The templates of the renderer's folder, for `shipper bol --templates`. */
  templates(): Promise<{ name: string; description: string }[]>;
}

export interface BolRendererOptions {
  /** The folder holding `<name>.json` templates and their assets (the shipped one: `findBolTemplatesDir()`). */
  templatesDir: string;
}

/** Printed for a character that neither font can draw (CJK, most emoji): visible, never an empty box. */
export const REPLACEMENT_CHARACTER = '\uFFFD';

interface LoadedFonts {
  regularBytes: Uint8Array;
  boldBytes: Uint8Array;
  regular: Font;
  bold: Font;
  metrics: BolTextMetrics;
}

export function createBolRenderer(options: BolRendererOptions): BolRenderer {
  let fonts: Promise<LoadedFonts> | undefined;
  const templates = new Map<string, Promise<PreparedTemplate>>();

  const loadFonts = () => (fonts ??= readFonts());
  const loadTemplate = (name: string) => {
    let template = templates.get(name);
    if (!template) {
      template = loadBolTemplate(name, options.templatesDir).then(prepareTemplate);
      // A failed load is not remembered: the user may fix the file and ask again (long-lived serve).
      template.catch(() => templates.delete(name));
      templates.set(name, template);
    }
    return template;
  };

  return {
    async render(shipment, templateName) {
      const [loadedFonts, template] = await Promise.all([loadFonts(), loadTemplate(templateName)]);
      return renderBol(shipment, template, loadedFonts);
    },
    templates: () => listBolTemplates(options.templatesDir),
  };
}

interface PreparedTemplate extends BolTemplate {
  logoImage: PreparedImage | null;
}

async function prepareTemplate(template: BolTemplate): Promise<PreparedTemplate> {
  return { ...template, logoImage: template.logo ? await prepareImage(template.logo) : null };
}

/**
 * An image encoded once into PDF streams (pdf-lib decodes a PNG and deflates it again at every
 * embed, which for a logo cost more than the rest of a BOL). Each document gets copies of the
 * same compressed bytes.
 */
interface PreparedImage {
  width: number;
  height: number;
  image: PDFRawStream;
  softMask: PDFRawStream | null;
}

async function prepareImage(logo: BolTemplateLogo): Promise<PreparedImage> {
  const scratch = await PDFDocument.create();
  const image = logo.format === 'png' ? await scratch.embedPng(logo.bytes) : await scratch.embedJpg(logo.bytes);
  await image.embed();
  const stream = scratch.context.lookup(image.ref);
  if (!(stream instanceof PDFRawStream)) throw new Error('pdf-lib embedded the logo in an unexpected form');
  const softMaskRef = stream.dict.get(PDFName.of('SMask'));
  const softMask = softMaskRef instanceof PDFRef ? scratch.context.lookup(softMaskRef) : null;
  if (softMask !== null && !(softMask instanceof PDFRawStream)) throw new Error('pdf-lib embedded the logo mask in an unexpected form');
  return { width: image.width, height: image.height, image: stream, softMask };
}

/** Registers a prepared image in `doc`; returns its reference. */
function placeImage(doc: PDFDocument, prepared: PreparedImage): PDFRef {
  const context = doc.context;
  const dict = prepared.image.dict.clone(context);
  if (prepared.softMask) {
    dict.set(PDFName.of('SMask'), context.register(PDFRawStream.of(prepared.softMask.dict.clone(context), prepared.softMask.contents)));
  }
  return context.register(PDFRawStream.of(dict, prepared.image.contents));
}

async function readFonts(): Promise<LoadedFonts> {
  const require = createRequire(import.meta.url);
  const [regularBytes, boldBytes] = await Promise.all([
    readFile(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')),
    readFile(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf')),
  ]);
  const regular = fontkit.create(regularBytes);
  const bold = fontkit.create(boldBytes);
  return { regularBytes, boldBytes, regular: forPdfLib(regular), bold: forPdfLib(bold), metrics: fontMetrics(regular, bold) };
}

/**
 * The font as handed to pdf-lib, with two changes that make a BOL about twice as fast to render:
 *
 * - Text maps to glyphs one per code point through the cmap, the same way `fontMetrics` measures
 *   it, so what layout measured is exactly what is drawn. pdf-lib would otherwise run fontkit's
 *   full OpenType shaper on every string and then discard its positioning anyway; without it there
 *   are no ligatures and no contextual forms (pdf-lib cannot do right-to-left text either way).
 * - Encoded subsets are remembered by their ordered glyph list. Every BOL starts its subsets with
 *   the same base characters (`SUBSET_BASE`), so BOLs whose text stays within them share one
 *   encoding instead of re-encoding the font each time.
 */
function forPdfLib(font: Font): Font {
  const glyphs = new Map<number, Glyph>();
  const glyphFor = (codePoint: number): Glyph => {
    let glyph = glyphs.get(codePoint);
    if (!glyph) {
      glyph = font.glyphForCodePoint(codePoint);
      glyphs.set(codePoint, glyph);
    }
    return glyph;
  };
  const encodedSubsets = new Map<string, Promise<Uint8Array>>();

  // Inherits everything else (tables, metrics) from the parsed font.
  const pdfLibFont: Font = Object.create(font);
  pdfLibFont.layout = (text: string) => {
    const run: Glyph[] = [];
    for (const char of text) run.push(glyphFor(char.codePointAt(0)!));
    return { glyphs: run, positions: [] } as unknown as GlyphRun;
  };
  pdfLibFont.createSubset = (): Subset => {
    const subset = font.createSubset();
    const order: number[] = [];
    const included = new Set<number>();
    return {
      includeGlyph(glyph) {
        const id = typeof glyph === 'number' ? glyph : glyph.id;
        if (!included.has(id)) {
          included.add(id);
          order.push(id);
        }
        return subset.includeGlyph(glyph);
      },
      encodeStream() {
        const key = order.join(',');
        let encoded = encodedSubsets.get(key);
        if (!encoded) {
          encoded = encodeSubset(subset);
          if (encodedSubsets.size >= SUBSET_CACHE_SIZE) encodedSubsets.delete(encodedSubsets.keys().next().value!);
          encodedSubsets.set(key, encoded);
        }
        const bytes = encoded;
        return Readable.from((async function* () {
          yield await bytes;
        })()) as unknown as ReturnType<Subset['encodeStream']>;
      },
    };
  };
  return pdfLibFont;
}

/** Encoded subsets kept per font: a few MB at most, for documents with unusual characters. */
const SUBSET_CACHE_SIZE = 100;

/** Printable ASCII: included first, in this order, in every BOL's subsets (see `forPdfLib`). */
const SUBSET_BASE = Array.from({ length: 0x7f - 0x20 }, (_, index) => String.fromCharCode(0x20 + index)).join('');

function encodeSubset(subset: Subset): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const parts: Uint8Array[] = [];
    // fontkit's stream is a Node Readable; its type only declares 'data' and 'end'.
    const stream = subset.encodeStream() as unknown as Readable;
    stream.on('data', (part: Uint8Array) => parts.push(part));
    stream.on('end', () => resolve(Buffer.concat(parts)));
    stream.on('error', reject);
  });
}

// ---------------------------------------------------------------------------------------------
// Text: widths and printable characters, both cached per code point

/** Joiners and variation selectors: they have nothing to draw once their cluster is replaced or kept. */
function isDefaultIgnorable(codePoint: number): boolean {
  return (
    codePoint === 0x200d ||
    codePoint === 0x200c ||
    (codePoint >= 0xfe00 && codePoint <= 0xfe0f) ||
    (codePoint >= 0xe0000 && codePoint <= 0xe01ef)
  );
}

export function fontMetrics(regular: Font, bold: Font): BolTextMetrics {
  const printableCodePoints = new Map<number, boolean>();
  const canPrint = (codePoint: number): boolean => {
    let known = printableCodePoints.get(codePoint);
    if (known === undefined) {
      // Any text may be drawn bold or regular, so a character must exist in both faces.
      known = codePoint >= 0x20 && regular.hasGlyphForCodePoint(codePoint) && bold.hasGlyphForCodePoint(codePoint);
      printableCodePoints.set(codePoint, known);
    }
    return known;
  };
  const replacement = canPrint(REPLACEMENT_CHARACTER.codePointAt(0)!) ? REPLACEMENT_CHARACTER : '?';
  const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

  const advance = (font: Font) => {
    const perEm = new Map<number, number>();
    return (codePoint: number) => {
      let width = perEm.get(codePoint);
      if (width === undefined) {
        width = font.glyphForCodePoint(codePoint).advanceWidth / font.unitsPerEm;
        perEm.set(codePoint, width);
      }
      return width;
    };
  };
  const regularAdvance = advance(regular);
  const boldAdvance = advance(bold);

  return {
    widthOf(text, size, isBold) {
      const advanceOf = isBold ? boldAdvance : regularAdvance;
      let width = 0;
      for (const char of text) width += advanceOf(char.codePointAt(0)!);
      return width * size;
    },
    printable(text) {
      const normalized = text.normalize('NFC');
      let allPrintable = true;
      for (const char of normalized) {
        if (!canPrint(char.codePointAt(0)!)) {
          allPrintable = false;
          break;
        }
      }
      if (allPrintable) return normalized;
      // A grapheme with any missing character becomes ONE replacement mark: a family emoji
      // (five code points joined by ZWJ) prints as one mark, not five.
      let result = '';
      for (const { segment } of segmenter.segment(normalized)) {
        const codePoints = [...segment].map((char) => char.codePointAt(0)!).filter((codePoint) => !isDefaultIgnorable(codePoint));
        if (codePoints.length === 0) continue;
        result += codePoints.every(canPrint) ? String.fromCodePoint(...codePoints) : replacement;
      }
      return result;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// PDF

function hexToRgb(hex: string): RGB {
  const value = Number.parseInt(hex.slice(1), 16);
  return rgb(((value >> 16) & 0xff) / 255, ((value >> 8) & 0xff) / 255, (value & 0xff) / 255);
}

/**
 * A subset font's name carries a six-letter tag (PDF 32000 9.6.4). Derived from the BOL number
 * instead of pdf-lib's random suffix, so the same shipment gives the same bytes.
 */
function subsetTag(seed: string): string {
  let hash = 2166136261;
  for (let index = 0; index < seed.length; index++) hash = Math.imul(hash ^ seed.charCodeAt(index), 16777619) >>> 0;
  let tag = '';
  for (let index = 0; index < 6; index++) {
    tag += String.fromCharCode(65 + (hash % 26));
    hash = Math.floor(hash / 26) + index * 7919;
  }
  return tag;
}

async function renderBol(shipment: Shipment, template: PreparedTemplate, fonts: LoadedFonts): Promise<Uint8Array> {
  const plan = layoutBol(shipment, template.spec, fonts.metrics);
  const doc = await PDFDocument.create({ updateMetadata: false });
  // pdf-lib deflates fonts and images with pako, in JavaScript; Node's zlib writes the same
  // FlateDecode streams in a fraction of the time (a fifth of a BOL's render time).
  doc.context.flateStream = (contents, dict = {}) =>
    doc.context.stream(deflateSync(typeof contents === 'string' ? Buffer.from(contents, 'latin1') : contents), { ...dict, Filter: 'FlateDecode' });
  // pdf-lib parses a font on every embedFont; handing it the fonts parsed once skips that cost.
  doc.registerFontkit({
    create: (data: Uint8Array) =>
      data === fonts.regularBytes ? fonts.regular : data === fonts.boldBytes ? fonts.bold : fontkit.create(data),
  });
  const [regular, bold] = await Promise.all([
    doc.embedFont(fonts.regularBytes, { subset: true, customName: `${subsetTag(`R${shipment.bolNumber}`)}+DejaVuSans` }),
    doc.embedFont(fonts.boldBytes, { subset: true, customName: `${subsetTag(`B${shipment.bolNumber}`)}+DejaVuSans-Bold` }),
  ]);
  regular.encodeText(SUBSET_BASE);
  bold.encodeText(SUBSET_BASE);
  const barcode = await doc.embedPng(await renderBolBarcodePng(shipment.bolNumber));
  const logo = template.logoImage ? { ref: placeImage(doc, template.logoImage), width: template.logoImage.width, height: template.logoImage.height } : null;

  const colors = template.spec.colors;
  const palette: Record<ColorRole, RGB> = {
    text: hexToRgb(colors.text),
    accent: hexToRgb(colors.accent),
    headerFill: hexToRgb(colors.headerFill),
    headerText: hexToRgb(colors.headerText),
    rule: hexToRgb(colors.rule),
  };

  for (const pagePlan of plan.pages) {
    const page = doc.addPage([plan.pageWidth, plan.pageHeight]);
    drawPage(page, pagePlan.ops, { regular, bold, barcode, logo, palette });
  }

  const createdAt = new Date(shipment.createdAt);
  const date = Number.isNaN(createdAt.getTime()) ? new Date(`${shipment.pickupDate}T00:00:00Z`) : createdAt;
  doc.setTitle(`Bill of Lading ${shipment.bolNumber}`);
  doc.setSubject(`Order ${shipment.orderNumber}`);
  doc.setAuthor(shipment.shipper.name);
  doc.setProducer('shipper');
  doc.setCreator('shipper');
  doc.setCreationDate(date);
  doc.setModificationDate(date);
  return doc.save();
}

interface DrawResources {
  regular: PDFFont;
  bold: PDFFont;
  barcode: { ref: PDFRef; width: number; height: number };
  logo: { ref: PDFRef; width: number; height: number } | null;
  palette: Record<ColorRole, RGB>;
}

/**
 * Executes a page's operations as raw content-stream operators, batched: all fills, then all
 * rules and borders (one path per colour and width), then images, then all text in one text
 * object. A BOL page has hundreds of small texts and rules; pdf-lib's drawText/drawLine wrap each
 * one in its own graphics state, which made them most of the render time and content size.
 * Layering this way keeps the painter's order right: text and rules always sit on top of fills.
 */
function drawPage(page: PDFPage, ops: readonly DrawOp[], resources: DrawResources): void {
  const { palette } = resources;
  const operators: PDFOperator[] = [pushGraphicsState()];
  const setFill = (role: ColorRole) => setFillingRgbColor(palette[role].red, palette[role].green, palette[role].blue);
  const setStroke = (role: ColorRole) => setStrokingRgbColor(palette[role].red, palette[role].green, palette[role].blue);

  const fills = new Map<ColorRole, Array<Extract<DrawOp, { kind: 'rect' }>>>();
  const strokes = new Map<string, { color: ColorRole; thickness: number; ops: DrawOp[] }>();
  const images: Array<Extract<DrawOp, { kind: 'image' }>> = [];
  const texts: Array<Extract<DrawOp, { kind: 'text' }>> = [];
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
    else if (op.kind === 'image') images.push(op);
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
    const target = op.image === 'barcode' ? resources.barcode : resources.logo;
    if (!target) continue;
    let { x, y, width, height } = op;
    if (op.image === 'logo') {
      // The logo keeps its aspect ratio inside the box, left-aligned and vertically centred; the
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
    const fontKeys = new Map<PDFFont, PDFName>();
    const fontKey = (font: PDFFont) => {
      let key = fontKeys.get(font);
      if (!key) fontKeys.set(font, (key = page.node.newFontDictionary(font.name, font.ref)));
      return key;
    };
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
  operators.push(popGraphicsState());
  // In slices: a 1,000-component BOL has tens of thousands of operators, too many for one spread call.
  for (let index = 0; index < operators.length; index += 5000) page.pushOperators(...operators.slice(index, index + 5000));
}
