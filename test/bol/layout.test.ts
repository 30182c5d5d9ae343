import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  commodityParagraphs,
  computeTotals,
  declaredValueText,
  formatWeight,
  layoutBol,
  PAGE_SIZES,
  referenceLine,
  resolveFreightTerms,
  wrapText,
  type BolLayout,
  type BolTextMetrics,
  type DrawOp,
} from '../../src/bol/layout.js';
import { bolTemplateFileSchema, type BolTemplateSpec } from '../../src/bol/template.js';
import { formatCents } from '../../src/domain/money.js';
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

  it("prints the customer's reference (refNumber) alone on the standard template, the order number without one", () => {
    expect(referenceLine({ refNumber: 'PO-7781', orderNumber: 'SO-000123' }, standard)).toBe('PO-7781');
    expect(referenceLine({ refNumber: null, orderNumber: 'SO-000123' }, standard)).toBe('SO-000123');
    expect(referenceLine({ refNumber: ' ', orderNumber: 'SO-000123' }, standard)).toBe('SO-000123');
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

  it("passes shipment text through the font's printable() before measuring", () => {
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
      expect(page.ops.filter((op) => op.kind === 'barcode' && op.symbology === 'gs1-128')).toHaveLength(1);
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

  it('prints the order number in the additional info cell on the standard template, and not on the partner one', () => {
    const shipment = makeShipment({ refNumber: 'PO-7781' });
    expect(allText(layoutBol(shipment, standard, metrics))).toEqual(expect.arrayContaining(['PO-7781', 'Order: SO-000123']));
    const partnerText = allText(layoutBol(shipment, partner, metrics));
    expect(partnerText).toContain('PO-7781 (SO-000123)');
    expect(partnerText).not.toContain('Order: SO-000123');
  });

  it("refuses freight terms in a template: they are the booking's", () => {
    const parsed = bolTemplateFileSchema.safeParse({ description: 'c', freightChargeTerms: 'collect', thirdPartyBillTo: { name: 'P', lines: [] } });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['freightChargeTerms', "is the booking's: a template cannot change who pays the freight (book with --terms and --bill-to)"],
      ['thirdPartyBillTo', "is the booking's: a template cannot change who pays the freight (book with --terms and --bill-to)"],
    ]);
    // What the old standard.json said (the defaults) still loads.
    expect(bolTemplateFileSchema.safeParse({ description: 'c', freightChargeTerms: 'prepaid', thirdPartyBillTo: null }).success).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------
// Carrier fields

const ADDRESS = {
  name: 'ACME Payables',
  address1: 'PO Box 4410',
  address2: null,
  city: 'Columbus',
  state: 'OH',
  zipCode: '43216',
  countryCode: 'US' as const,
  contactPerson: 'Ana Ito',
  phoneNumber: null,
};
const GASOLINE = { unNumber: 'UN1203', properShippingName: 'Gasoline', hazardClass: '3', packingGroup: 'II' as const };
const CARRIER_FIELDS = {
  carrier: { name: 'Old Dominion Freight Line', scac: 'ODFL' },
  proNumber: '0123456789',
  trailerNumber: 'TR-4471',
  sealNumbers: ['SL-001', 'SL-002'],
};

const textOps = (layout: BolLayout, page = 0) => texts(layout.pages[page]!.ops);
const opWith = (layout: BolLayout, text: string, page = 0) => {
  const op = textOps(layout, page).find((candidate) => candidate.text === text);
  expect(op, `a text "${text}"`).toBeDefined();
  return op!;
};
/** The 1-pt crossing lines of a ticked box whose right edge is just left of `x`. */
const crossesLeftOf = (ops: readonly DrawOp[], x: number, y: number) =>
  ops.filter((op) => op.kind === 'line' && op.thickness === 1 && op.x2 <= x && op.x1 > x - 12 && Math.abs((op.y1 + op.y2) / 2 - y - 2.5) < 6).length;

describe('carrier fields on the BOL', () => {
  it('prints carrier name, trailer, seals, and SCAC and PRO in 12-pt bold on the line of their label', () => {
    const layout = layoutBol(makeShipment({ extra: CARRIER_FIELDS }), standard, metrics);
    for (const value of ['Old Dominion Freight Line', 'TR-4471', 'SL-001, SL-002']) expect(textOps(layout).map((op) => op.text)).toContain(value);
    for (const [label, value] of [
      ['SCAC:', 'ODFL'],
      ['Pro number:', '0123456789'],
    ] as const) {
      const valueOp = opWith(layout, value);
      expect(valueOp).toMatchObject({ size: 12, bold: true });
      expect(opWith(layout, label).y).toBe(valueOp.y);
    }
  });

  it('puts the SCAC/PRO barcode (SCAC dash-padded to 4, then the PRO) under the PRO, with its text; none without both', () => {
    const barcodes = (extra: object) =>
      layoutBol(makeShipment({ extra }), standard, metrics).pages[0]!.ops.flatMap((op) => (op.kind === 'barcode' ? [`${op.symbology} ${op.data}`] : []));
    expect(barcodes(CARRIER_FIELDS)).toEqual(['gs1-128 (402)06141410000001231', 'code128 ODFL0123456789']);
    expect(barcodes({ ...CARRIER_FIELDS, carrier: { name: 'A B Carriers', scac: 'AB' } })).toEqual(['gs1-128 (402)06141410000001231', 'code128 AB--0123456789']);
    expect(barcodes({ ...CARRIER_FIELDS, proNumber: null })).toEqual(['gs1-128 (402)06141410000001231']);
    expect(barcodes({ ...CARRIER_FIELDS, carrier: null })).toEqual(['gs1-128 (402)06141410000001231']);
    expect(textOps(layoutBol(makeShipment({ extra: CARRIER_FIELDS }), standard, metrics)).map((op) => op.text)).toContain('ODFL0123456789');
  });

  it("prefers the shipment's carrier to the template's default carrier, and uses the template's without one", () => {
    const acme = bolTemplateFileSchema.parse({ description: 'p', carrier: { name: 'ACME Freight Lines', scac: 'ACLF' } });
    expect(textOps(layoutBol(makeShipment({ extra: CARRIER_FIELDS }), acme, metrics)).map((op) => op.text)).toEqual(expect.arrayContaining(['Old Dominion Freight Line', 'ODFL']));
    expect(textOps(layoutBol(makeShipment(), acme, metrics)).map((op) => op.text)).toEqual(expect.arrayContaining(['ACME Freight Lines', 'ACLF']));
  });

  it('ticks the terms box of the shipment and fills the third-party bill-to from its address', () => {
    const layout = layoutBol(makeShipment({ extra: { freightChargeTerms: { terms: 'THIRD_PARTY', billTo: ADDRESS } } }), standard, metrics);
    const ops = layout.pages[0]!.ops;
    const box = (label: string) => crossesLeftOf(ops, opWith(layout, label).x, opWith(layout, label).y);
    expect([box('Prepaid'), box('Collect'), box('3rd Party')]).toEqual([0, 0, 2]);
    expect(textOps(layout).map((op) => op.text)).toEqual(expect.arrayContaining(['ACME Payables', 'PO Box 4410', 'Columbus, OH 43216', 'Contact: Ana Ito']));
  });

  it('ticks Prepaid for a prepaid booking on every template, with an empty bill-to box', () => {
    const acme = bolTemplateFileSchema.parse({ description: 'p', referenceFormat: 'ref-with-order-number', carrier: { name: 'ACME Freight Lines', scac: 'ACLF' } });
    expect(resolveFreightTerms(makeShipment())).toEqual({ terms: 'prepaid', billTo: null });
    for (const template of [standard, acme]) {
      const layout = layoutBol(makeShipment(), template, metrics);
      const box = (label: string) => crossesLeftOf(layout.pages[0]!.ops, opWith(layout, label).x, opWith(layout, label).y);
      expect([box('Prepaid'), box('Collect'), box('3rd Party')]).toEqual([2, 0, 0]);
    }
    expect(resolveFreightTerms(makeShipment({ extra: { freightChargeTerms: { terms: 'COLLECT', billTo: null } } }))).toEqual({ terms: 'collect', billTo: null });
  });

  it('ticks the FOB box at ship from for ORIGIN and at ship to for DESTINATION, none without FOB', () => {
    const fobTicks = (fob: 'ORIGIN' | 'DESTINATION' | null) => {
      const layout = layoutBol(makeShipment({ extra: { fob } }), standard, metrics);
      const labels = textOps(layout).filter((op) => op.text === 'FOB:');
      expect(labels).toHaveLength(2);
      // Ship from is above ship to: higher y first. The box follows the label.
      return labels.sort((a, b) => b.y - a.y).map((label) => crossesLeftOf(layout.pages[0]!.ops, label.x + 30, label.y));
    };
    expect(fobTicks('ORIGIN')).toEqual([2, 0]);
    expect(fobTicks('DESTINATION')).toEqual([0, 2]);
    expect(fobTicks(null)).toEqual([0, 0]);
  });

  it('ticks the master BOL box only for a master bill', () => {
    const ticks = (masterBol: boolean) => {
      const layout = layoutBol(makeShipment({ extra: { masterBol } }), standard, metrics);
      const label = opWith(layout, 'Master Bill of Lading: with attached underlying Bills of Lading');
      return crossesLeftOf(layout.pages[0]!.ops, label.x, label.y);
    };
    expect([ticks(true), ticks(false)]).toEqual([2, 0]);
  });

  it('fills the declared value sentence, per shipment or per pound, and appends it to a template text without blanks', () => {
    const legal = bolTemplateFileSchema.parse({ description: 'd' }).legalText.declaredValue;
    expect(declaredValueText(legal, { amountInCents: 125_000, per: 'SHIPMENT' })).toContain('specifically stated by the shipper to be not exceeding $1,250.00 per shipment."');
    expect(declaredValueText(legal, { amountInCents: 250, per: 'POUND' })).toContain('not exceeding $2.50 per pound."');
    expect(declaredValueText(legal, null)).toBe(legal);
    expect(declaredValueText('Value as agreed.', { amountInCents: 1, per: 'SHIPMENT' })).toBe(
      'Value as agreed. The agreed or declared value of the property is specifically stated by the shipper to be not exceeding $0.01 per shipment.',
    );
    expect(formatCents(1_000_000_000)).toBe('$10,000,000.00');
  });

  it('prints the COD amount and ticks its fee terms and the customer check box', () => {
    const layout = layoutBol(makeShipment({ extra: { cod: { amountInCents: 50_000, feeTerms: 'PREPAID', customerCheckAcceptable: true } } }), standard, metrics);
    const ops = layout.pages[0]!.ops;
    expect(opWith(layout, '$500.00').y).toBe(opWith(layout, 'COD Amount:').y);
    const box = (label: string) => crossesLeftOf(ops, opWith(layout, label).x, opWith(layout, label).y);
    // "Collect" and "Prepaid" are also the freight terms' labels: take the COD ones, the lowest.
    const lowest = (label: string) =>
      textOps(layout)
        .filter((op) => op.text === label)
        .sort((a, b) => a.y - b.y)[0]!;
    expect(crossesLeftOf(ops, lowest('Collect').x, lowest('Collect').y)).toBe(0);
    expect(crossesLeftOf(ops, lowest('Prepaid').x, lowest('Prepaid').y)).toBe(2);
    expect(box('Customer check acceptable')).toBe(2);
    const none = layoutBol(makeShipment(), standard, metrics);
    expect(textOps(none).map((op) => op.text)).toContain('COD Amount: $');
  });

  it('heads the special instructions with the pickup window', () => {
    const layout = layoutBol(makeShipment({ extra: { pickupWindow: { readyTime: '08:00', closeTime: '16:30' } } }), standard, metrics);
    const all = textOps(layout)
      .map((op) => op.text)
      .join(' ');
    expect(all).toContain('Pickup window: ready 08:00, dock closes 16:30 (local time at ship from)');
    expect(all.indexOf('Pickup window')).toBeLessThan(all.indexOf('Accessorials:'));
  });
});

describe('hazardous materials on the BOL', () => {
  const hazmatShipment = (count: number) =>
    makeShipment({
      components: Array.from({ length: count }, (_, index) =>
        component({
          description: index % 2 ? `Line ${index + 1} steel drums` : `Line ${index + 1} gasoline drums`,
          hazmat: index % 2 ? null : GASOLINE,
          pieceCount: 4,
          packagingType: 'drums',
        }),
      ),
      extra: { emergencyContactPhone: '800-424-9300' },
    });

  it('marks X in the H.M. column and puts the basic description before the commodity text', () => {
    const layout = layoutBol(hazmatShipment(2), standard, metrics);
    const [hazardous, plain] = layout.pages[0]!.rows;
    expect(hazardous!.cells.hm).toEqual(['X']);
    expect(hazardous!.cells.description).toEqual(['UN1203, Gasoline, 3, PG II', 'Line 1 gasoline drums']);
    expect(plain!.cells.hm).toEqual([]);
    expect(plain!.cells.description).toEqual(['Line 2 steel drums']);
    expect(commodityParagraphs({ description: null, hazmat: { ...GASOLINE, hazardClass: '2.1', packingGroup: null } })).toEqual(['UN1203, Gasoline, 2.1']);
  });

  it('prints the emergency response number on every page of a long hazardous BOL, and on no BOL without hazardous lines', () => {
    const layout = layoutBol(hazmatShipment(70), standard, metrics);
    expect(layout.pages.length).toBeGreaterThanOrEqual(3);
    for (const page of layout.pages) {
      const pageTexts = texts(page.ops).map((op) => op.text);
      expect(pageTexts).toContain('EMERGENCY RESPONSE TELEPHONE NUMBER (HAZARDOUS MATERIALS):');
      expect(pageTexts).toContain('800-424-9300');
    }
    expect(layout.pages.flatMap((page) => page.rows).filter((row) => row.cells.hm[0] === 'X')).toHaveLength(35);
    expect(allText(layoutBol(makeShipment({ extra: { emergencyContactPhone: '800-424-9300' } }), standard, metrics))).not.toContain('800-424-9300');
  });
});

describe('a cancelled shipment', () => {
  it('prints VOID diagonally across every page, with the date and reason; a booked one has no stamp', () => {
    const cancelled = makeShipment({
      components: describedComponents(60),
      extra: { orderStatus: 'CANCELLED', cancelledAt: '2026-11-21T10:00:00.000Z', cancellationReason: 'order withdrawn' },
    });
    const layout = layoutBol(cancelled, standard, metrics);
    expect(layout.pages.length).toBeGreaterThanOrEqual(2);
    const diagonal = (Math.atan2(792, 612) * 180) / Math.PI;
    for (const page of layout.pages) {
      const stamps = page.ops.flatMap((op) => (op.kind === 'stamp' ? [op] : []));
      expect(stamps.map((stamp) => stamp.text)).toEqual(['VOID', 'CANCELLED 2026-11-21: order withdrawn']);
      for (const stamp of stamps) expect(stamp.angle).toBeCloseTo(diagonal, 1);
      expect(stamps[0]!.size).toBeGreaterThan(150);
    }
    expect(layoutBol(makeShipment(), standard, metrics).pages[0]!.ops.some((op) => op.kind === 'stamp')).toBe(false);
  });

  it('centres the VOID stamp on the page', () => {
    const layout = layoutBol(makeShipment({ extra: { orderStatus: 'CANCELLED' } }), standard, metrics);
    const stamp = layout.pages[0]!.ops.find((op) => op.kind === 'stamp' && op.text === 'VOID') as Extract<DrawOp, { kind: 'stamp' }>;
    const angle = (stamp.angle * Math.PI) / 180;
    const width = metrics.widthOf('VOID', stamp.size, true);
    // The middle of the baseline, lifted by half the capitals, is the page centre.
    const midX = stamp.x + (Math.cos(angle) * width) / 2 - (Math.sin(angle) * 0.73 * stamp.size) / 2;
    const midY = stamp.y + (Math.sin(angle) * width) / 2 + (Math.cos(angle) * 0.73 * stamp.size) / 2;
    expect(midX).toBeCloseTo(306, 0);
    expect(midY).toBeCloseTo(396, 0);
  });
});

describe('absurd carrier fields', () => {
  it('wrap or shrink inside their column: 100-character carrier name, 20-character PRO, 10 seals of 32, long bill-to and phone (property)', () => {
    const word = fc.string({ unit: fc.constantFrom('W', 'M', 'i', '1', ' ', 'Ж'), minLength: 1, maxLength: 100 });
    const code = (max: number) => fc.string({ unit: fc.constantFrom('W', 'M', '0', '9', '-'), minLength: 1, maxLength: max });
    fc.assert(
      fc.property(
        word,
        code(20).map((pro) => `W${pro}`.slice(0, 20)),
        fc.array(code(32), { minLength: 0, maxLength: 10 }),
        code(32),
        word,
        fc.integer({ min: 1, max: 12 }),
        (name, pro, seals, phone, billToName, lines) => {
          const shipment = makeShipment({
            components: Array.from({ length: lines }, () => component({ description: name, hazmat: { ...GASOLINE, properShippingName: `N${name}`.slice(0, 200) } })),
            extra: {
              carrier: { name: `C${name}`.slice(0, 100), scac: 'WWWW' },
              proNumber: pro,
              trailerNumber: phone,
              sealNumbers: seals,
              emergencyContactPhone: phone,
              freightChargeTerms: { terms: 'THIRD_PARTY', billTo: { ...ADDRESS, name: `B${billToName}` } },
              cod: { amountInCents: 1_000_000_000, feeTerms: 'COLLECT', customerCheckAcceptable: true },
              declaredValue: { amountInCents: 1_000_000_000, per: 'POUND' },
              pickupWindow: { readyTime: '00:00', closeTime: '23:59' },
            },
          });
          const layout = layoutBol(shipment, standard, metrics);
          const divider = 24 + Math.round(564 * 0.54);
          // The title band (title, date, page) spans the page above the two columns.
          const BELOW_BAND = 792 - 62;
          const firstRowTop = Math.max(...layout.pages[0]!.ops.flatMap((op) => (op.kind === 'text' && op.text === 'CUSTOMER ORDER INFORMATION' ? [op.y] : [])));
          for (const page of layout.pages) {
            for (const op of texts(page.ops)) {
              const right = op.x + metrics.widthOf(op.text, op.size, op.bold);
              expect(op.x).toBeGreaterThanOrEqual(24);
              expect(right).toBeLessThanOrEqual(612 - 24 + 0.01); // coordinates are rounded to 1/100 pt
              expect(op.y).toBeGreaterThanOrEqual(24);
              // Between the band and the customer order table, nothing crosses from one column into the other.
              if (page.number === 1 && op.y > firstRowTop && op.y < BELOW_BAND) expect(op.x >= divider || right <= divider, `"${op.text}" crosses the columns`).toBe(true);
            }
            if (page.footerTopY !== null) expect(page.tableBottomY).toBeGreaterThanOrEqual(page.footerTopY);
          }
          // Every seal and the whole PRO are printed: wrapped or shrunk, never cut.
          const printed = layout.pages[0]!.ops.flatMap((op) => (op.kind === 'text' ? [op.text] : []))
            .join(' ')
            .replaceAll(' ', '');
          expect(printed).toContain(pro.replaceAll(' ', ''));
          if (seals.length > 0) expect(printed).toContain(seals.join(',').replaceAll(' ', ''));
          expect(layout.pages.flatMap((page) => page.rows)).toHaveLength(lines);
        },
      ),
      { numRuns: 30 },
    );
  });
});
