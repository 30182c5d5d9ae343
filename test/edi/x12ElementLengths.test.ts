/**
 * Every element shipper writes in a 204 and a 211, read back with node-x12, against its X12 004010
 * minimum and maximum length in the one table (src/edi/x12Elements.ts); the 210 layout the audit
 * reads against the same table (issue 20, item 5). The expected lengths of the elements that went
 * wrong are written out here as the 004010 dictionary gives them, not taken from the table.
 */
import { describe, expect, it } from 'vitest';
import type { Shipment } from '../../src/domain/schemas.js';
import { writeX12LoadTender } from '../../src/edi/x12-204.js';
import { writeX12BillOfLading } from '../../src/edi/x12-211.js';
import { checkElementLengths, elementId, X12_ELEMENTS, x12Length } from '../../src/edi/x12Elements.js';
import type { X12Segment } from '../../src/edi/x12.js';
import { CREATED_AT, fullShipment, line, shipment, x12Settings } from './fixtures.js';
import { parseX12, type ParsedInterchange } from './x12Reader.js';

const CONTROL = { interchangeControlNumber: 123456789, groupControlNumber: 987654321 };
const WRITERS = { '204': { write: writeX12LoadTender, functionalId: 'SM' }, '211': { write: writeX12BillOfLading, functionalId: 'BL' } } as const;

function written(set: keyof typeof WRITERS, source: Shipment): ParsedInterchange {
  const { write, functionalId } = WRITERS[set];
  const result = write({
    shipment: source,
    settings: x12Settings({ applicationSenderCode: 'SHIPPERCOAPP123', applicationReceiverCode: 'ODFLRECEIVER456' }),
    control: CONTROL,
    createdAt: CREATED_AT,
  });
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result.violations)}`);
  return parseX12(result.document, { ...CONTROL, transactionSet: set, functionalId });
}

/** Each element after the ISA as [id, value, length, min, max]; those outside their lengths or not in the table. */
function outOfBounds(parsed: ParsedInterchange): string[] {
  const segments = [
    { tag: 'GS', elements: parsed.gs },
    { tag: 'ST', elements: parsed.st },
    ...parsed.body,
    { tag: 'SE', elements: parsed.se },
    { tag: 'GE', elements: parsed.ge },
    { tag: 'IEA', elements: parsed.iea },
  ];
  const problems: string[] = [];
  for (const { tag, elements } of segments) {
    elements.forEach((value, index) => {
      if (value === '') return;
      const id = elementId(tag, index + 1);
      const spec = (X12_ELEMENTS as Record<string, { type: 'AN'; min: number; max: number }>)[id];
      if (!spec) problems.push(`${id} not in the table`);
      else if (x12Length(value, spec.type) < spec.min || x12Length(value, spec.type) > spec.max) problems.push(`${id} ${JSON.stringify(value)}: ${spec.min}..${spec.max}`);
    });
  }
  return problems;
}

const LONG = 'Heavy duty industrial steel shelving units with adjustable shelves, powder coated finish, bolted frames and reinforced decks; '.repeat(2).slice(0, 250);

/** Every field at its longest: names of 100 characters, 250-character descriptions, hazmat, COD, declared value. */
const longest = (): Shipment =>
  fullShipment({
    refNumber: 'R'.repeat(22),
    specialInstructions: `Call ahead. ${'Deliver to the rear dock only between eight and four. '.repeat(10)}`.slice(0, 400),
    pickupAddress: {
      ...fullShipment().pickupAddress,
      name: `Midwest ${'Fixtures '.repeat(12)}`.trim().slice(0, 100),
      address1: 'S'.repeat(50),
      address2: 'Dock 4, Building 12, Gate C',
    },
    orderComponents: [
      line({ palletCount: 2, poundsWeight: 1200.5, description: LONG, nmfcCode: '61680-03', packagingType: 'crates', pieceCount: 9_999_999 }),
      ...fullShipment().orderComponents.slice(1),
    ],
  });

describe('the 004010 element table', () => {
  it('gives the dictionary lengths of the descriptions: L502 and AT401 hold 50, LH201 7', () => {
    expect([X12_ELEMENTS.L502, X12_ELEMENTS.AT401, X12_ELEMENTS.LH201].map(({ min, max }) => [min, max])).toEqual([
      [1, 50],
      [1, 50],
      [1, 7],
    ]);
  });

  it('counts digits only for numbers, and names elements it does not know', () => {
    expect(checkElementLengths([['L3', '12345678.99', 'G']])).toEqual([]);
    expect(checkElementLengths([['L3', '123456789.01', 'G']])).toEqual([{ field: 'L301', reason: '"123456789.01" has 11 characters; L301 (Weight) holds 1 to 10' }]);
    expect(checkElementLengths([['ZZ', 'x']])).toEqual([{ field: 'ZZ01', reason: 'ZZ01 is not an element shipper knows the 004010 length of' }]);
  });
});

describe.each(['204', '211'] as const)('every element of a %s', (set) => {
  it('of an ordinary shipment is within its 004010 lengths', () => {
    expect(outOfBounds(written(set, shipment()))).toEqual([]);
  });

  it('of a shipment with every field at its longest is within its 004010 lengths', () => {
    expect(outOfBounds(written(set, longest()))).toEqual([]);
  });
});

describe('the 211 line description (AT4)', () => {
  it('splits a 250-character description into pieces of at most 50 that read back whole', () => {
    const parsed = written('211', shipment({ orderComponents: [line({ description: LONG })] }));
    const pieces = parsed.body.filter((segment) => segment.tag === 'AT4').map((segment) => segment.elements[0]!);
    expect(pieces.length).toBeGreaterThanOrEqual(5);
    for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(50);
    expect(pieces.join(' ')).toBe(LONG.trim());
  });

  it('keeps a description of exactly 50 characters in one AT4 and splits one of 51', () => {
    const at4 = (description: string) => written('211', shipment({ orderComponents: [line({ description })] })).body.filter((segment) => segment.tag === 'AT4').length;
    expect(at4('x'.repeat(20) + ' ' + 'y'.repeat(29))).toBe(1);
    expect(at4('x'.repeat(20) + ' ' + 'y'.repeat(30))).toBe(2);
  });
});

describe('a hazard class longer than LH201 holds', () => {
  it('is refused naming the field, in both sets', () => {
    const source = fullShipment();
    const broken = {
      ...source,
      orderComponents: source.orderComponents.map((component) => (component.hazmat ? { ...component, hazmat: { ...component.hazmat, hazardClass: '2.2 (5.1)' } } : component)),
    };
    for (const { write } of Object.values(WRITERS)) {
      const result = write({ shipment: broken, settings: x12Settings(), control: CONTROL, createdAt: CREATED_AT });
      expect(result.ok).toBe(false);
      expect(!result.ok && result.violations).toContainEqual({ field: 'orderComponents[1].hazmat.hazardClass', reason: 'has 9 characters; LH201 holds at most 7' });
    }
  });
});

describe('the 210 the audit reads', () => {
  it('has its elements in the table: a bill as carriers send it passes, an invoice number over 22 characters does not', () => {
    const bill: X12Segment[] = [
      ['B3', '', 'I7204815', '06141410000000012', 'PP', 'L', '20261201', '80124', '', '', '', 'RRFT'],
      ['C3', 'USD'],
      ['N9', 'BM', '06141410000000012'],
      ['LX', '1'],
      ['L5', '1', 'MACHINE PARTS', '161030', 'N'],
      ['L0', '1', '1450', 'FR', '1450', 'G', '', '', '2', 'PLT', '', 'L'],
      ['L1', '1', '82.25', 'PH', '119263'],
      ['L7', '1', '', '', '', '', '', '92.5'],
      ['L3', '', '', '', '', '80124'],
    ];
    expect(checkElementLengths(bill)).toEqual([]);
    expect(checkElementLengths([['B3', '', 'I'.repeat(23)]])).toEqual([{ field: 'B302', reason: `"${'I'.repeat(23)}" has 23 characters; B302 (Invoice Number) holds 1 to 22` }]);
  });
});
