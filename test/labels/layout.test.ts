import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ssccFor } from '../../src/domain/sscc.js';
import { checkLabelRequest, handlingUnits, LABEL_SIZE, layoutLabels, SSCC_BARCODE, SSCC_BARCODE_MODULES, type LabelLayout } from '../../src/labels/layout.js';
import type { DrawOp, TextMetrics } from '../../src/print/drawOps.js';
import { component, makeShipment } from '../bol/fixtures.js';

/** A monospace stand-in for the font: every character 0.6 em (bold 0.65 em), wider than DejaVu's average. */
const metrics: TextMetrics = {
  widthOf: (text, size, bold) => [...text].length * size * (bold ? 0.65 : 0.6),
  printable: (text) => text,
};

const ssccs = (count: number, first = 1) => Array.from({ length: count }, (_, index) => ssccFor('0614141', first + index));
const texts = (ops: readonly DrawOp[]) => ops.flatMap((op) => (op.kind === 'text' ? [op] : []));
const threeLines = () => [
  component({ palletCount: 2, description: 'Steel shelving units' }),
  component({ palletCount: 1, description: 'Paint in pails', hazmat: { unNumber: 'UN1263', properShippingName: 'Paint', hazardClass: '3', packingGroup: 'III' } }),
  component({ palletCount: 3 }),
];

describe('handling units', () => {
  it('are the sum of palletCount, component by component, in order', () => {
    expect(handlingUnits(makeShipment({ components: threeLines() }))).toEqual([
      { componentIndex: 0, unitInComponent: 1 },
      { componentIndex: 0, unitInComponent: 2 },
      { componentIndex: 1, unitInComponent: 1 },
      { componentIndex: 2, unitInComponent: 1 },
      { componentIndex: 2, unitInComponent: 2 },
      { componentIndex: 2, unitInComponent: 3 },
    ]);
  });
});

describe('checkLabelRequest', () => {
  const shipment = makeShipment({ components: threeLines() });

  it('takes exactly one SSCC per handling unit: 6 is right, 5 and 7 are refused', () => {
    expect(() => checkLabelRequest(shipment, ssccs(6))).not.toThrow();
    expect(() => checkLabelRequest(shipment, ssccs(5))).toThrow('SO-000123 has 6 handling unit(s) and needs as many SSCCs; got 5');
    expect(() => checkLabelRequest(shipment, ssccs(7))).toThrow('got 7');
    expect(() => checkLabelRequest(shipment, [])).toThrow('got 0');
  });

  it('refuses a wrong check digit, a short SSCC and the same SSCC twice', () => {
    const good = ssccs(6);
    const wrong = `${good[0]!.slice(0, 17)}${(Number(good[0]!.at(-1)) + 1) % 10}`;
    expect(() => checkLabelRequest(shipment, [wrong, ...good.slice(1)])).toThrow(`"${wrong}" is not an SSCC`);
    expect(() => checkLabelRequest(shipment, ['12345', ...good.slice(1)])).toThrow('"12345" is not an SSCC');
    expect(() => checkLabelRequest(shipment, [good[0]!, good[0]!, ...good.slice(2)])).toThrow(`SSCC ${good[0]} is given twice`);
  });

  it('refuses a cancelled shipment: its pallets do not ship', () => {
    expect(() => checkLabelRequest({ ...shipment, orderStatus: 'CANCELLED' }, ssccs(6))).toThrow('SO-000123 is cancelled: its pallets get no labels');
  });
});

describe('layoutLabels', () => {
  const shipment = makeShipment({ components: threeLines(), extra: { carrier: { name: 'Old Dominion Freight Line', scac: 'ODFL' }, proNumber: '0123456789' } });
  const layout = layoutLabels(shipment, ssccs(6), metrics, { companyPrefix: '0614141' });
  const labelTexts = (index: number) => texts(layout.labels[index]!.ops).map((op) => op.text);

  it('is one 4 x 6 in label per handling unit, each with "n of N" and its own SSCC', () => {
    expect([layout.pageWidth, layout.pageHeight]).toEqual([288, 432]);
    expect(layout.labels.map((label) => [label.number, label.count, label.sscc])).toEqual(ssccs(6).map((sscc, index) => [index + 1, 6, sscc]));
    layout.labels.forEach((label, index) => expect(labelTexts(index)).toContain(`${index + 1} of 6`));
  });

  it('prints ship from, ship to, reference, order number, BOL number, carrier and PRO', () => {
    // This stand-in font is wide: names may wrap, so the label's text is read as one string.
    const text = labelTexts(0).join(' ');
    for (const expected of [
      'Midwest Fixtures Inc.',
      'Atlanta Retail Distribution',
      'Atlanta, GA 30336',
      'PO-7781',
      'SO-000123',
      shipment.bolNumber,
      'Old Dominion Freight Line (ODFL)',
      '0123456789',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it("prints the line's contents, with the hazardous basic description first", () => {
    expect(labelTexts(1)).toEqual(expect.arrayContaining(['CONTENTS: LINE 1 OF 3, PALLET 2 OF ITS 2', 'Steel shelving units']));
    expect(labelTexts(2)).toContain('CONTENTS: LINE 2 OF 3, ITS ONLY PALLET');
  });

  it('a shipment of one line says CONTENTS, not "LINE 1 OF 1, PALLET 1 OF 2 OF THE LINE" (issue 39, item 21)', () => {
    const oneLine = layoutLabels(makeShipment({ components: [component({ palletCount: 2, description: 'Castings' })] }), ssccs(2), metrics, { companyPrefix: '0614141' });
    for (const label of oneLine.labels) {
      const words = texts(label.ops).map((op) => op.text);
      expect(words).toContain('CONTENTS');
      expect(words.join(' ')).not.toMatch(/LINE 1 OF 1|OF THE LINE/);
    }
    expect(texts(oneLine.labels[1]!.ops).map((op) => op.text)).toContain('2 of 2');
    const hazardous = labelTexts(2);
    expect(hazardous.indexOf('UN1263, Paint, 3, PG III')).toBeGreaterThan(-1);
    expect(hazardous.indexOf('UN1263, Paint, 3, PG III')).toBeLessThan(hazardous.indexOf('Paint in pails'));
  });

  it('puts the SSCC barcode at the bottom, GS1-128 (00), 0.5 mm modules, 32.5 mm tall, quiet zones of 10 modules, and its grouped text under it', () => {
    layout.labels.forEach((label) => {
      const barcodes = label.ops.flatMap((op) => (op.kind === 'barcode' ? [op] : []));
      expect(barcodes).toHaveLength(1);
      const barcode = barcodes[0]!;
      expect(barcode).toMatchObject({ symbology: 'gs1-128', data: `(00)${label.sscc}`, modules: SSCC_BARCODE_MODULES });
      const modulePoints = barcode.width / SSCC_BARCODE_MODULES;
      expect((modulePoints / 72) * 25.4).toBeCloseTo(0.5, 2);
      expect((barcode.height / 72) * 25.4).toBeGreaterThanOrEqual(31.75);
      expect(barcode.x).toBeGreaterThanOrEqual(10 * modulePoints);
      expect(LABEL_SIZE.width - barcode.x - barcode.width).toBeGreaterThanOrEqual(10 * modulePoints);
      // Nothing but its human-readable text below the barcode.
      const below = texts(label.ops).filter((op) => op.y < barcode.y);
      expect(below.map((op) => op.text)).toEqual([`(00) 0 0614141 ${label.sscc.slice(8, 17)} ${label.sscc[17]}`]);
      expect(below[0]!.box).toEqual({ left: 10, width: 268, align: 'center' });
      expect(barcode.y).toBeGreaterThan(10);
    });
    expect(SSCC_BARCODE.moduleDots * SSCC_BARCODE_MODULES).toBe(624);
  });

  it('prints "not assigned" for the carrier and no PRO when the shipment has none', () => {
    const bare = layoutLabels(makeShipment(), ssccs(2), metrics);
    expect(texts(bare.labels[0]!.ops).map((op) => op.text)).toEqual(expect.arrayContaining(['not assigned']));
    expect(texts(bare.labels[0]!.ops).map((op) => op.text)).not.toContain('PRO');
  });

  it('keeps every text inside the label and clear of the barcode, whatever the data (property)', () => {
    const long = (max: number) => fc.string({ unit: fc.constantFrom('W', 'M', 'i', ' ', 'Ж', '9'), minLength: 1, maxLength: max });
    fc.assert(
      fc.property(
        long(100),
        long(256),
        long(64),
        fc.string({ unit: fc.constantFrom('W', '0', '-'), minLength: 1, maxLength: 19 }),
        fc.integer({ min: 1, max: 4 }),
        (name, description, ref, pro, pallets) => {
          const shipment = makeShipment({
            components: [component({ palletCount: pallets, description, hazmat: { unNumber: 'UN1993', properShippingName: `F${name}`, hazardClass: '3', packingGroup: 'I' } })],
            refNumber: `R${ref}`.slice(0, 64),
            shipperName: `S${name}`.slice(0, 100),
            consigneeName: `C${name}`.slice(0, 100),
            extra: { carrier: { name: `K${name}`.slice(0, 100), scac: 'WWWW' }, proNumber: `W${pro}` },
          });
          const plan: LabelLayout = layoutLabels(shipment, ssccs(pallets), metrics);
          for (const label of plan.labels) {
            const barcode = label.ops.find((op) => op.kind === 'barcode')!;
            for (const op of texts(label.ops)) {
              const right = op.x + metrics.widthOf(op.text, op.size, op.bold);
              expect(op.x).toBeGreaterThanOrEqual(10);
              expect(right).toBeLessThanOrEqual(LABEL_SIZE.width - 10 + 0.01);
              expect(op.y).toBeGreaterThanOrEqual(10);
              // The line box's top (the baseline sits 0.93 of the size below it) stays within the margin.
              expect(op.y + op.size * 0.93).toBeLessThanOrEqual(LABEL_SIZE.height - 10 + 0.01);
              // Text above the barcode stays above it; only the human-readable line is below.
              if (barcode.kind === 'barcode') expect(op.y - op.size * 0.25 > barcode.y + barcode.height || op.y + op.size < barcode.y).toBe(true);
            }
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
