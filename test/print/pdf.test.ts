/**
 * The shortcuts of the shared PDF adapter (src/print) against what pdf-lib and bwip-js make the
 * long way: barcode images built from the bars, text encoded a code point at a time, numbers
 * written as pdf-lib writes them, deflated streams reused.
 */
import { inflateSync } from 'node:zlib';
import bwipjs from 'bwip-js';
import { numberToString, PDFDocument, PDFRawStream, type PDFRef } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { BAR_PIXELS_HIGH, renderBarcodeBars, renderBarcodePng } from '../../src/print/barcodes.js';
import type { BarcodeSymbology } from '../../src/print/drawOps.js';
import { loadDocumentFonts } from '../../src/print/fonts.js';
import { ssccFor } from '../../src/domain/sscc.js';
import { bolNumberFor } from '../bol/fixtures.js';
import { wrapText } from '../../src/print/text.js';
import { createPdfDocument, deflatedOnce, deflatedStreamCount, encodeTextHex, pdfNumber, placeBarcode } from '../../src/print/pdf.js';

/** An image XObject as a reader sees it: its dictionary (Length aside), its pixels, and its soft mask's. */
function imageOf(doc: PDFDocument, ref: PDFRef): unknown {
  const stream = doc.context.lookup(ref);
  if (!(stream instanceof PDFRawStream)) throw new Error('not a raw stream');
  const entries = stream.dict
    .entries()
    .filter(([key]) => key.toString() !== '/Length')
    .map(([key, value]) => [key.toString(), key.toString() === '/SMask' ? imageOf(doc, value as PDFRef) : value.toString()]);
  return { dict: Object.fromEntries(entries), pixels: inflateSync(stream.contents).toString('base64') };
}

describe('barcode images from the bars', () => {
  const cases: Array<[BarcodeSymbology, string]> = [
    ['gs1-128', '(402)06141410000001231'],
    ['gs1-128', `(402)${bolNumberFor(599)}`],
    ['code128', 'ODFL0123456789'],
    ['code128', 'TCLF12345678'],
    ['code128', 'ab-CD 12/x'],
  ];
  for (const [symbology, data] of cases) {
    it(`are the image pdf-lib embeds from bwip-js's PNG: ${symbology} ${data}`, async () => {
      const doc = await PDFDocument.create();
      const png = await doc.embedPng(await renderBarcodePng(symbology, data));
      await png.embed();
      const bars = renderBarcodeBars(symbology, data);
      expect(bars.height).toBe(BAR_PIXELS_HIGH);
      const placed = placeBarcode(doc, bars);
      expect([placed.width, placed.height]).toEqual([png.width, png.height]);
      expect(imageOf(doc, placed.ref)).toEqual(imageOf(doc, png.ref));
    });
  }

  it('refuse what bwip-js refuses: a GS1 check digit that is wrong', () => {
    expect(() => renderBarcodeBars('gs1-128', '(402)06141410000001232')).toThrow(/checksum/i);
  });
});

describe('text encoded a code point at a time', () => {
  it('gives the hex codes pdf-lib gives for the whole text, the subset filled in the same order', async () => {
    const fonts = await loadDocumentFonts();
    const texts = ['Bill of Lading', 'Жёлтый ящик', 'café – 48"x40"', '\uFFFD and Ωmega', 'Bill of Lading again'];
    const whole = await createPdfDocument(fonts, 'one');
    const byCodePoint = await createPdfDocument(fonts, 'one');
    for (const text of texts) {
      expect(encodeTextHex(byCodePoint.regular, text)).toBe(whole.regular.encodeText(text).toString().slice(1, -1));
      expect(encodeTextHex(byCodePoint.bold, text)).toBe(whole.bold.encodeText(text).toString().slice(1, -1));
    }
  });

  it('keeps codes per document: another document numbers its own subset', async () => {
    const fonts = await loadDocumentFonts();
    const first = await createPdfDocument(fonts, 'first');
    encodeTextHex(first.regular, 'ЖЁЛ');
    const second = await createPdfDocument(fonts, 'second');
    expect(encodeTextHex(second.regular, 'Ё')).toBe(second.regular.encodeText('Ё').toString().slice(1, -1));
    expect(encodeTextHex(second.regular, 'Ё')).not.toBe(encodeTextHex(first.regular, 'Ё'));
  });
});

describe('numbers in content streams', () => {
  it('are written as pdf-lib writes them', () => {
    for (const value of [0, -0, 1, -1, 7.5, 0.9019607843137255, 612, 841.89, 1e-7, -2.5e-8, 1e21, 123456789012345680000, 0.1 + 0.2, -0.70710678118654])
      expect(pdfNumber(value)).toBe(numberToString(value));
  });
});

describe('deflated streams', () => {
  it('are deflated once for the same bytes, and inflate to them', () => {
    const bytes = new TextEncoder().encode('a font subset, say '.repeat(200) + Math.random());
    const first = deflatedOnce(bytes);
    const count = deflatedStreamCount();
    const again = deflatedOnce(Uint8Array.from(bytes));
    expect(again).toBe(first);
    expect(deflatedStreamCount()).toBe(count);
    expect(inflateSync(again).equals(Buffer.from(bytes))).toBe(true);
  });

  it('tell bytes of the same length apart', () => {
    const one = new Uint8Array(4096).fill(1);
    const other = Uint8Array.from(one);
    other[1] = 2;
    expect(inflateSync(deflatedOnce(one))[1]).toBe(1);
    expect(inflateSync(deflatedOnce(other))[1]).toBe(2);
    expect(deflatedOnce(other)).not.toBe(deflatedOnce(one));
  });

  it('are not kept when small', () => {
    const count = deflatedStreamCount();
    deflatedOnce('short');
    expect(deflatedStreamCount()).toBe(count);
  });

  it('reach documents through pdf-lib: the next document embeds the same font subset bytes, deflated once', async () => {
    const fonts = await loadDocumentFonts();
    const largeStreams = async (seed: string) => {
      const { doc, regular } = await createPdfDocument(fonts, seed);
      doc.addPage().drawText('same text', { font: regular });
      await doc.save();
      return doc.context.enumerateIndirectObjects().flatMap(([, object]) => (object instanceof PDFRawStream && object.contents.length > 1024 ? [object.contents] : []));
    };
    const first = await largeStreams('one');
    const count = deflatedStreamCount();
    const second = await largeStreams('two');
    expect(deflatedStreamCount()).toBe(count);
    // The font files: the very same deflated bytes in both documents.
    expect(second.filter((contents) => first.includes(contents)).length).toBeGreaterThanOrEqual(2);
  });
});

describe('GS1-128 bars of SSCCs and BOL numbers', () => {
  const raw = (data: string) => (bwipjs.raw({ bcid: 'gs1-128', text: data, scale: 2, height: 10, includetext: false }) as unknown as Array<{ sbs: number[] }>)[0]!.sbs;
  const pixels = (sbs: number[]) => sbs.flatMap((width, index) => Array<number>(width * 2).fill(index % 2 === 0 ? 255 : 0));

  it("are bwip-js's bars, for BOL numbers and SSCCs of every kind of digit", () => {
    const serials = [0, 1, 9, 10, 99, 123, 4567, 99_999, 123_456_789, 999_999_999, ...Array.from({ length: 150 }, (_, index) => (index * 7_919_993) % 1_000_000_000)];
    for (const serial of serials) {
      for (const data of [`(402)${bolNumberFor(serial)}`, `(00)${ssccFor('0614141', serial % 1_000_000_000)}`]) {
        expect([...renderBarcodeBars('gs1-128', data).row], data).toEqual(pixels(raw(data)));
      }
    }
  });

  it('leave to bwip-js what they do not know: other AIs, other lengths, a wrong check digit', () => {
    expect([...renderBarcodeBars('gs1-128', '(01)00614141999996').row]).toEqual(pixels(raw('(01)00614141999996')));
    expect(() => renderBarcodeBars('gs1-128', `(00)${ssccFor('0614141', 5).slice(0, -1)}${(Number(ssccFor('0614141', 5).at(-1)) + 1) % 10}`)).toThrow(/checksum/i);
  });
});

describe('text widths', () => {
  it('add up the glyph advances code point by code point, remembered or not, astral and lone surrogates included', async () => {
    const { regular, bold, metrics } = await loadDocumentFonts();
    const expected = (text: string, size: number, isBold: boolean) => {
      const font = isBold ? bold : regular;
      let width = 0;
      for (const char of text) width += font.glyphForCodePoint(char.codePointAt(0)!).advanceWidth / font.unitsPerEm;
      return width * size;
    };
    for (const text of ['Bill of Lading', 'Жёлтый ящик, café', '😀 and 𝔘 and 中文', 'lone \uD83D high, lone \uDE00 low, end \uD83D', '', 'Bill of Lading'])
      for (const isBold of [false, true]) for (const size of [6, 7.5]) expect(metrics.widthOf(text, size, isBold)).toBe(expected(text, size, isBold));
  });
});

describe('long texts wrapped once', () => {
  const legal = 'RECEIVED, subject to individually determined rates or contracts that have been agreed upon in writing between the carrier and shipper.';
  const counting = () => {
    let calls = 0;
    return { metrics: { widthOf: (text: string, size: number) => (calls++, [...text].length * size * 0.5) }, calls: () => calls };
  };

  it('measure the text the first time only, for the same metrics, width, size and face', () => {
    const { metrics, calls } = counting();
    const first = wrapText(legal, 200, 6, false, metrics);
    const measured = calls();
    expect(measured).toBeGreaterThan(0);
    expect(wrapText(legal, 200, 6, false, metrics)).toEqual(first);
    expect(calls()).toBe(measured);
    // Another width, size or face is wrapped anew, and differs.
    expect(wrapText(legal, 120, 6, false, metrics)).not.toEqual(first);
    expect(wrapText(legal, 200, 7, false, metrics).length).toBeGreaterThanOrEqual(first.length);
    wrapText(legal, 200, 6, true, metrics);
    expect(calls()).toBeGreaterThan(measured);
  });

  it('give each caller its own lines to change', () => {
    const { metrics } = counting();
    const lines = wrapText(legal, 200, 6, false, metrics);
    const expected = [...lines];
    lines.push('changed');
    lines[0] = 'changed';
    expect(wrapText(legal, 200, 6, false, metrics)).toEqual(expected);
  });

  it('are wrapped anew for other metrics, and short texts always', () => {
    const one = counting();
    const other = counting();
    wrapText(legal, 200, 6, false, one.metrics);
    wrapText(legal, 200, 6, false, other.metrics);
    expect(other.calls()).toBeGreaterThan(0);
    const measured = one.calls();
    wrapText('Short text', 200, 6, false, one.metrics);
    wrapText('Short text', 200, 6, false, one.metrics);
    expect(one.calls()).toBeGreaterThan(measured + 1);
  });
});
