import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeTotals, formatWeight, layoutBol, PAGE_SIZES, referenceLine, wrapText, type BolLayout, type BolTextMetrics, type DrawOp } from '../../src/bol/layout.js';
import { bolTemplateFileSchema, type BolTemplateSpec } from '../../src/bol/template.js';
import { component, describedComponents, LONG_DESCRIPTION, makeShipment } from './fixtures.js';

/** A monospace stand-in for the font: every character 0.5 em (bold 0.55 em); astral characters become "?". */
const metrics: BolTextMetrics = {
  widthOf: (text, size, bold) => [...text].length * size * (bold ? 0.55 : 0.5),
  printable: (text) => [...text].map((char) => (char.codePointAt(0)! > 0xffff ? '?' : char)).join(''),
};

const standard: BolTemplateSpec = bolTemplateFileSchema.parse({ description: 'test standard' });
const partner: BolTemplateSpec = bolTemplateFileSchema.parse({ description: 'test partner', referenceFormat: 'ref-with-order-number' });

const texts = (ops: readonly DrawOp[]) => ops.flatMap((op) => (op.kind === 'text' ? [op] : []));
const allText = (layout: BolLayout) => layout.pages.flatMap((page) => texts(page.ops).map((op) => op.text));

describe('referenceLine', () => {
  it('prints "<refNumber> (<order number>)" on a partner template when a refNumber is set', () => {
    expect(referenceLine({ refNumber: 'PO-7781', orderNumber: 'SO-000123' }, partner)).toBe('PO-7781 (SO-000123)');
  });

  it('prints the order number alone on a partner template without a refNumber', () => {
    expect(referenceLine({ refNumber: null, orderNumber: 'SO-000123' }, partner)).toBe('SO-000123');
    expect(referenceLine({ refNumber: '   ', orderNumber: 'SO-000123' }, partner)).toBe('SO-000123');
  });

  it('prints the order number alone on the standard template even with a refNumber', () => {
    expect(referenceLine({ refNumber: 'PO-7781', orderNumber: 'SO-000123' }, standard)).toBe('SO-000123');
  });
});

describe('totals and numbers', () => {
  it('adds pallets, pieces and weight; pieces stay null when no component has a count', () => {
    expect(computeTotals([component({ palletCount: 2, poundsWeight: 0.1 }), component({ palletCount: 3, poundsWeight: 0.2 })])).toEqual({
      handlingUnits: 5,
      packages: null,
      poundsWeight: 0.3,
    });
    expect(computeTotals([component({ pieceCount: 0 }), component({ pieceCount: 7 }), component()]).packages).toBe(7);
  });

  it('formats weights with thousands separators and at most two decimals', () => {
    expect(formatWeight(37500)).toBe('37,500');
    expect(formatWeight(1234.567)).toBe('1,234.57');
  });
});

describe('wrapText', () => {
  it('returns no line for empty text and one line for short text', () => {
    expect(wrapText('', 100, 10, false, metrics)).toEqual([]);
    expect(wrapText('abc def', 100, 10, false, metrics)).toEqual(['abc def']);
  });

  it('breaks at spaces, and inside a word that is wider than the line', () => {
    expect(wrapText('aaaa bbbb cccc', 44, 10, false, metrics)).toEqual(['aaaa', 'bbbb', 'cccc']);
    expect(wrapText('aaaa bbbb cccc', 45, 10, false, metrics)).toEqual(['aaaa bbbb', 'cccc']);
    expect(wrapText('abcdefghij', 30, 10, false, metrics)).toEqual(['abcdef', 'ghij']);
  });

  it('keeps every line within the width and every character in order (property)', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'W', 'é', 'Ж', '1', '-'), minLength: 1, maxLength: 40 });
    fc.assert(
      fc.property(fc.array(word, { maxLength: 40 }), fc.integer({ min: 20, max: 300 }), (words, width) => {
        const text = words.join(' ');
        const lines = wrapText(text, width, 8, false, metrics);
        for (const line of lines) expect(metrics.widthOf(line, 8, false)).toBeLessThanOrEqual(width);
        expect(lines.join('').replaceAll(' ', '')).toBe(text.replaceAll(' ', ''));
      }),
    );
  });
});

describe('layoutBol', () => {
  it('puts one row per component, in order, with its own cells; a 3-component BOL is one page', () => {
    const shipment = makeShipment({ components: describedComponents(3) });
    const layout = layoutBol(shipment, standard, metrics);
    expect(layout.pages).toHaveLength(1);
    const rows = layout.pages[0]!.rows;
    expect(rows.map((row) => row.componentIndex)).toEqual([0, 1, 2]);
    expect(rows[1]!.cells).toMatchObject({
      huQty: ['2'],
      huType: ['Pallets'],
      pkgQty: ['4'],
      pkgType: ['crates'],
      weight: ['260'],
      hm: [],
      description: ['Line 2 machined brackets'],
      nmfc: ['10002-02'],
      freightClass: [shipment.orderComponents[1]!.freightClass],
    });
  });

  it('leaves the optional cells of a bare component empty, never "null"', () => {
    const layout = layoutBol(makeShipment({ components: [component({ palletCount: 1, poundsWeight: 90 })], refNumber: null, specialInstructions: null }), standard, metrics);
    const row = layout.pages[0]!.rows[0]!;
    expect(row.cells.description).toEqual([]);
    expect(row.cells.nmfc).toEqual([]);
    expect(row.cells.pkgQty).toEqual([]);
    expect(row.cells.pkgType).toEqual([]);
    expect(row.cells.huQty).toEqual(['1']);
    expect(allText(layout).some((text) => /null|undefined|NaN/.test(text))).toBe(false);
  });

  it('wraps a 256-character description inside its cell and makes the row taller', () => {
    const short = layoutBol(makeShipment({ components: [component({ description: 'short' })] }), standard, metrics).pages[0]!.rows[0]!;
    const long = layoutBol(makeShipment({ components: [component({ description: LONG_DESCRIPTION })] }), standard, metrics).pages[0]!.rows[0]!;
    expect(long.cells.description.length).toBeGreaterThan(3);
    expect(long.cells.description.join('').replaceAll(' ', '')).toBe(LONG_DESCRIPTION.replaceAll(' ', ''));
    expect(long.height).toBeGreaterThan(short.height * 2);
    const descriptionTexts = texts(layoutBol(makeShipment({ components: [component({ description: LONG_DESCRIPTION })] }), standard, metrics).pages[0]!.ops).filter((op) =>
      long.cells.description.includes(op.text),
    );
    const left = Math.min(...descriptionTexts.map((op) => op.x));
    const right = Math.max(...descriptionTexts.map((op) => op.x + metrics.widthOf(op.text, op.size, op.bold)));
    // The description column: between the H.M. and NMFC columns, 236 pt wide on Letter.
    expect(right - left).toBeLessThanOrEqual(236);
  });

  it('passes shipment text through the font\'s printable() before measuring', () => {
    const layout = layoutBol(makeShipment({ components: [component({ description: 'Truck 🚚 load' })] }), standard, metrics);
    expect(layout.pages[0]!.rows[0]!.cells.description).toEqual(['Truck ? load']);
  });

  it('continues 60 components on supplement pages that repeat the BOL number and the table header; totals on the last page only', () => {
    const shipment = makeShipment({ components: describedComponents(60) });
    const layout = layoutBol(shipment, partner, metrics);
    expect(layout.pages.length).toBeGreaterThanOrEqual(2);
    expect(layout.pages.flatMap((page) => page.rows.map((row) => row.componentIndex))).toEqual(Array.from({ length: 60 }, (_, index) => index));
    expect(layout.pages.map((page) => page.kind)).toEqual(['first', ...Array(layout.pages.length - 1).fill('supplement')]);
    expect(layout.pages.map((page) => page.hasTotals)).toEqual([...Array(layout.pages.length - 1).fill(false), true]);
    for (const page of layout.pages) {
      const pageTexts = texts(page.ops).map((op) => op.text);
      expect(pageTexts).toContain(`Page ${page.number} of ${layout.pages.length}`);
      expect(pageTexts).toContain(shipment.bolNumber);
      expect(pageTexts).toContain('COMMODITY DESCRIPTION');
      expect(page.ops.filter((op) => op.kind === 'image' && op.image === 'barcode')).toHaveLength(1);
      expect(pageTexts.includes('GRAND TOTAL')).toBe(page.hasTotals || page.kind === 'first');
    }
    const last = layout.pages[layout.pages.length - 1]!;
    expect(texts(last.ops).map((op) => op.text)).toEqual(expect.arrayContaining(['120', '3,660', '32,700']));
    expect(layout.totals).toEqual({ handlingUnits: 120, packages: 3660, poundsWeight: 32_700 });
  });

  it('keeps everything on the page and the table clear of the signature blocks, whatever the data (property)', () => {
    const wide = fc.string({ unit: fc.constantFrom('W', 'M', 'i', ' ', 'Ж'), maxLength: 256 });
    fc.assert(
      fc.property(
        fc.array(fc.record({ description: wide, pieces: fc.option(fc.nat(99_999)) }), { minLength: 1, maxLength: 90 }),
        fc.string({ unit: fc.constantFrom('W', 'm', ' ', '\n'), maxLength: 1000 }),
        fc.string({ unit: fc.constantFrom('W', 'i', ' '), minLength: 1, maxLength: 100 }),
        fc.array(fc.constantFrom('LIFTGATE_DELIVERY', 'INSIDE_DELIVERY', 'APPOINTMENT'), { maxLength: 20 }),
        fc.constantFrom(standard, partner),
        (lines, instructions, name, accessorials, template) => {
          const shipment = makeShipment({
            components: lines.map((line) => component({ description: line.description, pieceCount: line.pieces })),
            specialInstructions: instructions,
            refNumber: 'R'.repeat(64),
            shipperName: `X${name}`,
            consigneeName: `Y${name}`,
            accessorials,
          });
          const layout = layoutBol(shipment, template, metrics);
          const [width, height] = PAGE_SIZES.letter;
          expect(layout.pages.flatMap((page) => page.rows).length).toBe(lines.length);
          for (const page of layout.pages) {
            for (const op of texts(page.ops)) {
              expect(op.x).toBeGreaterThanOrEqual(20);
              expect(op.x + metrics.widthOf(op.text, op.size, op.bold)).toBeLessThanOrEqual(width - 20);
              expect(op.y).toBeGreaterThanOrEqual(20);
              expect(op.y).toBeLessThanOrEqual(height - 20);
            }
            expect(page.tableBottomY).toBeGreaterThanOrEqual(24);
            if (page.footerTopY !== null) expect(page.tableBottomY).toBeGreaterThanOrEqual(page.footerTopY);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('lays out a shipment without components as one page with zero totals', () => {
    const layout = layoutBol({ ...makeShipment(), orderComponents: [] }, standard, metrics);
    expect(layout.pages).toHaveLength(1);
    expect(layout.pages[0]!.hasTotals).toBe(true);
    expect(layout.totals).toEqual({ handlingUnits: 0, packages: null, poundsWeight: 0 });
  });

  it('lays out A4 pages when the template asks for them', () => {
    const a4 = bolTemplateFileSchema.parse({ description: 'a4', pageSize: 'a4' });
    const layout = layoutBol(makeShipment(), a4, metrics);
    expect([layout.pageWidth, layout.pageHeight]).toEqual([595.28, 841.89]);
  });

  it('prints the refNumber in the additional info cell on the standard template, and not on the partner one', () => {
    const shipment = makeShipment({ refNumber: 'PO-7781' });
    expect(allText(layoutBol(shipment, standard, metrics))).toContain('Ref: PO-7781');
    const partnerText = allText(layoutBol(shipment, partner, metrics));
    expect(partnerText).toContain('PO-7781 (SO-000123)');
    expect(partnerText).not.toContain('Ref: PO-7781');
  });

  it('checks the template\'s freight charge terms box only', () => {
    const collect = bolTemplateFileSchema.parse({ description: 'c', freightChargeTerms: 'collect' });
    const layout = layoutBol(makeShipment(), collect, metrics);
    const ops = layout.pages[0]!.ops;
    const labelX = (label: string) => texts(ops).find((op) => op.text === label)!.x;
    // A checked box is drawn with two crossing 1-pt lines just left of its label.
    const crossesLeftOf = (label: string) =>
      ops.filter((op) => op.kind === 'line' && op.thickness === 1 && op.x2 < labelX(label) && op.x1 > labelX(label) - 12).length;
    expect(crossesLeftOf('Collect')).toBe(2);
    expect(crossesLeftOf('Prepaid')).toBe(0);
    expect(crossesLeftOf('3rd Party')).toBe(0);
  });
});
