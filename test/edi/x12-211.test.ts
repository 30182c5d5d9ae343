/**
 * The X12 211 motor carrier bill of lading, read back with node-x12 and compared with the
 * shipment: envelope, BOL segment, parties, remarks, and every line item (AT1/AT4/AT2, hazmat).
 */
import { describe, expect, it } from 'vitest';
import type { Shipment } from '../../src/domain/schemas.js';
import { writeX12BillOfLading } from '../../src/edi/x12-211.js';
import type { X12InterchangeSettingsInput } from '../../src/edi/settings.js';
import { CREATED_AT, fullShipment, line, manyLines, minimalShipment, shipment, THIRD_PARTY, x12Settings } from './fixtures.js';
import { el, find, findAll, groupsStartingAt, parseX12, type ParsedInterchange } from './x12Reader.js';

const CONTROL = { interchangeControlNumber: 77, groupControlNumber: 78 };

function bill(source: Shipment, settings: Partial<X12InterchangeSettingsInput> = {}) {
  return writeX12BillOfLading({ shipment: source, settings: x12Settings(settings), control: CONTROL, createdAt: CREATED_AT });
}

function parsedBill(source: Shipment, settings: Partial<X12InterchangeSettingsInput> = {}): { parsed: ParsedInterchange; warnings: string[] } {
  const result = bill(source, settings);
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result.violations)}`);
  return { parsed: parseX12(result.document, { ...CONTROL, transactionSet: '211', functionalId: 'BL' }), warnings: result.warnings.map((item) => item.message) };
}

const PACKAGING: Record<string, string> = { cartons: 'CTN', crates: 'CRT', boxes: 'BOX', drums: 'DRM', cans: 'CAN', cylinders: 'CYL' };

function expectLineItems(parsed: ParsedInterchange, source: Shipment): void {
  const lines = groupsStartingAt(parsed.body, 'AT1');
  expect(lines).toHaveLength(source.orderComponents.length);
  lines.forEach((segments, index) => {
    const component = source.orderComponents[index]!;
    expect(segments[0]!.elements).toEqual([String(index + 1)]);
    expect(
      findAll(segments, 'AT4')
        .map((segment) => el(segment, 1))
        .join(' '),
    ).toBe(component.description ?? '');
    const at2 = find(segments, 'AT2');
    expect([Number(el(at2, 1)), el(at2, 2), el(at2, 3), el(at2, 4), Number(el(at2, 5))]).toEqual([component.palletCount, 'PLT', 'G', 'L', component.poundsWeight]);
    if (component.pieceCount) expect([Number(el(at2, 6)), el(at2, 7)]).toEqual([component.pieceCount, PACKAGING[component.packagingType!] ?? 'PCS']);
    else expect([el(at2, 6), el(at2, 7)]).toEqual(['', '']);
    expect([el(at2, 9), el(at2, 10)]).toEqual([component.nmfcCode ?? '', component.freightClass]);
    if (component.hazmat) {
      expect(find(segments, 'G61')?.elements.slice(0, 1)).toEqual(['HM']);
      expect(el(find(segments, 'LH1'), 3)).toBe(component.hazmat.unNumber);
      expect(el(find(segments, 'LH1'), 10)).toBe(component.hazmat.packingGroup ?? '');
      expect(el(find(segments, 'LH2'), 1)).toBe(component.hazmat.hazardClass);
      expect(
        findAll(segments, 'LH3')
          .map((segment) => el(segment, 1))
          .join(' '),
      ).toBe(component.hazmat.properShippingName);
    } else {
      expect(find(segments, 'LH1')).toBeUndefined();
    }
  });
}

describe('the X12 211 bill of lading of a shipment', () => {
  it('by default: BOL segment (SCAC, terms, BOL number, pickup date), references, parties, remarks and the line', () => {
    const source = shipment();
    const { parsed } = parsedBill(source);
    expect(parsed.gs.slice(0, 1)).toEqual(['BL']);
    expect(parsed.st).toEqual(['211', '0001']);
    expect(find(parsed.body, 'BOL')?.elements).toEqual(['ODFL', 'PP', source.bolNumber, '20261123']);
    expect(find(parsed.body, 'B2A')?.elements).toEqual(['00']);
    expect(findAll(parsed.body, 'L11').map((segment) => segment.elements)).toEqual([
      ['SO-000123', 'OQ'],
      ['PO-7781', 'PO'],
    ]);
    expect(find(parsed.body, 'G62')?.elements).toEqual(['10', '20261123']);
    expect(findAll(parsed.body, 'AT5').map((segment) => segment.elements)).toEqual([['', '', 'LIFTGATE AT DELIVERY']]);
    expect(findAll(parsed.body, 'K1').map((segment) => segment.elements)).toEqual([['Call consignee 1 hour before', 'delivery.']]);
    const parties = groupsStartingAt(parsed.body, 'N1', 'AT1');
    expect(parties.map((party) => party[0]!.elements)).toEqual([
      ['SH', 'Midwest Fixtures Inc.'],
      ['CN', 'Atlanta Retail Distribution'],
      ['BT', 'Midwest Fixtures Inc.'],
    ]);
    expectLineItems(parsed, source);
  });

  it('every carrier field set: PRO in BOL06, COD fee in BOL10, window, handling codes, remarks for COD and declared value, hazmat', () => {
    const source = fullShipment();
    const { parsed } = parsedBill(source);
    expect(find(parsed.body, 'BOL')?.elements).toEqual(['ODFL', 'TP', source.bolNumber, '20261123', '', 'ODFL-123456789', '', '', '', 'PP']);
    expect(findAll(parsed.body, 'L11').map((segment) => segment.elements)).toEqual([
      ['SO-000123', 'OQ'],
      ['PO-7781', 'PO'],
      [source.bolNumber, 'MB'],
      ['TRL-4471', 'EQ'],
      ['SEAL-0001', 'SN'],
      ['SEAL-0002', 'SN'],
    ]);
    expect(findAll(parsed.body, 'G62').map((segment) => segment.elements)).toEqual([
      ['37', '20261123', 'I', '0800', 'LT'],
      ['38', '20261123', 'K', '1630', 'LT'],
    ]);
    expect(findAll(parsed.body, 'AT5').map((segment) => segment.elements)).toEqual([
      ['HM'],
      ['', 'CD'],
      ['', 'DV'],
      ['', '', 'LIFTGATE AT DELIVERY'],
      ['IPU'],
      ['RES'],
      ['', '', 'DELIVERY APPOINTMENT'],
      ['NC'],
    ]);
    expect(findAll(parsed.body, 'K1').map((segment) => segment.elements)).toEqual([
      ['Call consignee 1 hour before', 'delivery.'],
      ['COD USD 1234.56, FEE PREPAID,', 'CUSTOMER CHECK OK'],
      ['DECLARED VALUE USD 25000.00', 'PER SHIPMENT'],
    ]);
    const billTo = groupsStartingAt(parsed.body, 'N1', 'AT1')[2]!;
    expect(billTo.map((segment) => [segment.tag, ...segment.elements])).toEqual([
      ['N1', 'BT', THIRD_PARTY.name],
      ['N3', THIRD_PARTY.address1, THIRD_PARTY.address2],
      ['N4', 'Chicago', 'IL', '60601', 'US'],
      ['G61', 'CN', 'Accounts Payable', 'TE', THIRD_PARTY.phoneNumber],
    ]);
    expectLineItems(parsed, source);
  });

  it('a minimal shipment with a carrier: the mandatory segments and its line, nothing invented', () => {
    const source = minimalShipment({ carrier: { name: 'Saia', scac: 'SAIA' } });
    const { parsed } = parsedBill(source);
    expect(parsed.body.map((segment) => segment.tag)).toEqual(['BOL', 'B2A', 'L11', 'G62', 'N1', 'N3', 'N4', 'N1', 'N3', 'N4', 'N1', 'N3', 'N4', 'AT1', 'AT2']);
    expectLineItems(parsed, source);
  });

  it('refused without a carrier (BOL01 is mandatory), and when the remarks do not fit K1', () => {
    expect(bill(minimalShipment())).toEqual({
      ok: false,
      violations: [{ field: 'carrier', reason: "a 211 bill of lading names the carrier: set the shipment's carrier (name and SCAC) first" }],
    });
    // 10 K1 of 2 x 30 characters: 600 characters fit at most.
    const words = (count: number) => Array.from({ length: count }, (_, index) => `word${String(index).padStart(5, '0')}`).join(' ');
    expect(bill(shipment({ specialInstructions: words(50) })).ok).toBe(true);
    expect(bill(shipment({ specialInstructions: words(61) }))).toEqual({
      ok: false,
      violations: [{ field: 'specialInstructions', reason: 'is too long for K101/K102 (10 remarks of 2 x 30): at most 20 pieces of 30 characters (about 600 characters)' }],
    });
  });

  it('999 lines are written and read back; 1,000 are refused (AT101 has 3 digits)', () => {
    const source = shipment({ orderComponents: manyLines(999) });
    const { parsed } = parsedBill(source);
    expectLineItems(parsed, source);
    expect(bill(shipment({ orderComponents: manyLines(1000) }))).toEqual({
      ok: false,
      violations: [{ field: 'orderComponents', reason: 'a 211 carries at most 999 line items (AT101 has 3 digits); this shipment has 1000' }],
    });
  });

  it('a long description is carried whole in AT4 pieces of 80; non-ASCII is transliterated or refused', () => {
    const description = `${'Heavy-duty industrial shelving components including uprights, beams, wire decking and anchor kits; '.repeat(2)}Größe XL`;
    const { parsed } = parsedBill(shipment({ orderComponents: [line({ description })] }));
    const at4 = findAll(parsed.body, 'AT4').map((segment) => el(segment, 1));
    expect(at4.every((piece) => piece.length <= 80)).toBe(true);
    expect(at4.join(' ')).toBe(description.replace('Größe', 'Grosse').trim());
    expect(bill(shipment({ orderComponents: [line({ description: 'Box 📦' })] }))).toEqual({
      ok: false,
      violations: [
        { field: 'orderComponents[0].description', reason: '"📦" cannot be written in X12 (printable ASCII; accented Latin, Greek and Cyrillic letters are transliterated)' },
      ],
    });
  });
});
