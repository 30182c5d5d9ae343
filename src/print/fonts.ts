/**
 * The document font, DejaVu Sans regular and bold (Latin, Greek, Cyrillic), loaded once per
 * process and shared by every renderer (BOL, pallet labels): parsing it is the largest fixed cost
 * of a document. Widths and printable characters come from the same parsed font that pdf-lib
 * embeds, so what a layout measured is exactly what is drawn. Loads fontkit: import lazily.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import fontkit from '@pdf-lib/fontkit';
import type { Font, Glyph, GlyphRun, Subset } from '@pdf-lib/fontkit';
import type { TextMetrics } from './drawOps.js';

/** Printed for a character that neither face can draw (CJK, most emoji): visible, never an empty box. */
export const REPLACEMENT_CHARACTER = '\uFFFD';

export interface LoadedFonts {
  regularBytes: Uint8Array;
  boldBytes: Uint8Array;
  /** The faces as handed to pdf-lib (see `forPdfLib`). */
  regular: Font;
  bold: Font;
  metrics: TextMetrics;
}

let loaded: Promise<LoadedFonts> | undefined;

/** The fonts, read and parsed on first use; a failed read is not remembered. */
export function loadDocumentFonts(): Promise<LoadedFonts> {
  if (!loaded) {
    loaded = readFonts();
    loaded.catch(() => {
      loaded = undefined;
    });
  }
  return loaded;
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
      const found = font.glyphForCodePoint(codePoint);
      // fontkit keeps one Glyph per id with the code points of whoever asked first: a glyph first
      // met as a part of another (the dotless i inside í, in an earlier document's subset) has
      // none, and pdf-lib's ToUnicode map, built from them, would lose the character from the
      // PDF's text (search, copy) while the page still shows it.
      glyph = found.codePoints.includes(codePoint) ? found : (Object.create(found, { codePoints: { value: [codePoint] } }) as Glyph);
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
        return Readable.from(
          (async function* () {
            yield await bytes;
          })(),
        ) as unknown as ReturnType<Subset['encodeStream']>;
      },
    };
  };
  return pdfLibFont;
}

/** Encoded subsets kept per font: a few MB at most, for documents with unusual characters. */
const SUBSET_CACHE_SIZE = 100;

/** Printable ASCII: included first, in this order, in every document's subsets (see `forPdfLib`). */
export const SUBSET_BASE = Array.from({ length: 0x7f - 0x20 }, (_, index) => String.fromCharCode(0x20 + index)).join('');

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
  return codePoint === 0x200d || codePoint === 0x200c || (codePoint >= 0xfe00 && codePoint <= 0xfe0f) || (codePoint >= 0xe0000 && codePoint <= 0xe01ef);
}

export function fontMetrics(regular: Font, bold: Font): TextMetrics {
  // Whether each code point can be printed: a table for the Basic Multilingual Plane (0: not
  // looked up yet, 1: yes, 2: no), a map beyond it.
  const printableBasic = new Uint8Array(0x10000);
  const printableAstral = new Map<number, boolean>();
  // Any text may be drawn bold or regular, so a character must exist in both faces.
  const lookUpPrintable = (codePoint: number) => codePoint >= 0x20 && regular.hasGlyphForCodePoint(codePoint) && bold.hasGlyphForCodePoint(codePoint);
  const canPrint = (codePoint: number): boolean => {
    if (codePoint < 0x10000) {
      let known = printableBasic[codePoint]!;
      if (known === 0) printableBasic[codePoint] = known = lookUpPrintable(codePoint) ? 1 : 2;
      return known === 1;
    }
    let known = printableAstral.get(codePoint);
    if (known === undefined) printableAstral.set(codePoint, (known = lookUpPrintable(codePoint)));
    return known;
  };
  const replacement = canPrint(REPLACEMENT_CHARACTER.codePointAt(0)!) ? REPLACEMENT_CHARACTER : '?';
  const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

  // Widths per em by code point: a table for the Basic Multilingual Plane (NaN: not looked up
  // yet), a map beyond it. Layout measures every character of every text; a Map look-up each was
  // a tenth of a BOL's render time.
  const advance = (font: Font) => {
    const basic = new Float64Array(0x10000).fill(Number.NaN);
    const astral = new Map<number, number>();
    const lookUp = (codePoint: number) => font.glyphForCodePoint(codePoint).advanceWidth / font.unitsPerEm;
    return (codePoint: number) => {
      if (codePoint < 0x10000) {
        let width = basic[codePoint]!;
        if (Number.isNaN(width)) basic[codePoint] = width = lookUp(codePoint);
        return width;
      }
      let width = astral.get(codePoint);
      if (width === undefined) astral.set(codePoint, (width = lookUp(codePoint)));
      return width;
    };
  };
  const regularAdvance = advance(regular);
  const boldAdvance = advance(bold);

  return {
    widthOf(text, size, isBold) {
      const advanceOf = isBold ? boldAdvance : regularAdvance;
      let width = 0;
      // Code point by code point, as `for (const char of text)` walks a string (a lone surrogate is one).
      for (let index = 0; index < text.length; index++) {
        let code = text.charCodeAt(index);
        if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
          const low = text.charCodeAt(index + 1);
          if (low >= 0xdc00 && low <= 0xdfff) {
            code = (code - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
            index++;
          }
        }
        width += advanceOf(code);
      }
      return width * size;
    },
    printable(text) {
      const normalized = text.normalize('NFC');
      let allPrintable = true;
      for (let index = 0; index < normalized.length && allPrintable; index++) {
        const codePoint = normalized.codePointAt(index)!;
        if (codePoint > 0xffff) index++;
        allPrintable = canPrint(codePoint);
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
