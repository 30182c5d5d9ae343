/**
 * The X12 204 load tender, read back with node-x12 and compared with the shipment it came from:
 * envelope, parties, references, dates, and every line item (weight, pallets, pieces and their
 * packaging, NMFC, class, hazardous material).
 */
import { describe, expect, it } from 'vitest';
import type { Shipment } from '../../src/domain/schemas.js';
import { writeX12LoadTender } from '../../src/edi/x12-204.js';
import type { X12InterchangeSettingsInput } from '../../src/edi/settings.js';
import { CREATED_AT, fullShipment, line, manyLines, minimalShipment, shipment, THIRD_PARTY, x12Settings } from './fixtures.js';
import { el, find, findAll, groupsStartingAt, parseX12, type ParsedInterchange, type ParsedSegment } from './x12Reader.js';

const CONTROL = { interchangeControlNumber: 905, groupControlNumber: 12 };

function tender(source: Shipment, settings: Partial<X12InterchangeSettingsInput> = {}, control = CONTROL) {
  return writeX12LoadTender({ shipment: source, settings: x12Settings(settings), control, createdAt: CREATED_AT });
}

function parsedTender(source: Shipment, settings: Partial<X12InterchangeSettingsInput> = {}): { parsed: ParsedInterchange; text: string; warnings: string[] } {
  const result = tender(source, settings);
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result.violations)}`);
  return {
    parsed: parseX12(result.document, { ...CONTROL, transactionSet: '204', functionalId: 'SM' }),
    text: result.document,
    warnings: result.warnings.map((item) => item.message),
  };
}

/** The two stops (S5 loops), each with its segments. */
function stops(parsed: ParsedInterchange): ParsedSegment[][] {
  return groupsStartingAt(parsed.body, 'S5', 'L3');
}

/** Every line item (OID loop) of the pickup stop compared with the shipment's order components. */
function expectLineItems(parsed: ParsedInterchange, source: Shipment): void {
  const lines = groupsStartingAt(stops(parsed)[0]!, 'OID');
  expect(lines).toHaveLength(source.orderComponents.length);
  lines.forEach((segments, index) => {
    const component = source.orderComponents[index]!;
    const [oid, l5, at8] = [find(segments, 'OID'), find(segments, 'L5'), find(segments, 'AT8')];
    expect(el(oid, 1)).toBe(source.orderNumber);
    expect(el(oid, 2)).toBe(source.refNumber ?? '');
    expect([el(oid, 4), Number(el(oid, 5)), el(oid, 6), Number(el(oid, 7))]).toEqual(['PL', component.palletCount, 'L', component.poundsWeight]);
    expect(el(l5, 1)).toBe(String(index + 1));
    expect(component.description ?? '').toContain(el(l5, 2));
    expect([el(l5, 3), el(l5, 4)]).toEqual(component.nmfcCode ? [component.nmfcCode, 'N'] : ['', '']);
    expect([el(l5, 8), el(l5, 9)]).toEqual(['Z', component.freightClass]);
    expect([el(at8, 1), el(at8, 2), Number(el(at8, 3)), Number(el(at8, 5))]).toEqual(['G', 'L', component.poundsWeight, component.palletCount]);
    const lad = find(segments, 'LAD');
    if (component.pieceCount) expect(Number(el(lad, 2))).toBe(component.pieceCount);
    else expect(lad).toBeUndefined();
    const lh1 = find(segments, 'LH1');
    if (component.hazmat) {
      expect(el(lh1, 3)).toBe(component.hazmat.unNumber);
      expect(el(lh1, 10)).toBe(component.hazmat.packingGroup ?? '');
      expect(el(find(segments, 'LH2'), 1)).toBe(component.hazmat.hazardClass);
      expect(
        findAll(segments, 'LH3')
          .map((segment) => el(segment, 1))
          .join(' '),
      ).toBe(component.hazmat.properShippingName);
      expect(find(segments, 'G61')?.elements.slice(0, 1)).toEqual(['HM']);
    } else {
      expect(lh1).toBeUndefined();
    }
  });
}

describe('the X12 204 load tender of a shipment', () => {
  it('by default: envelope from the settings, carrier, BOL, prepaid, references, parties, the stops and the line', () => {
    const source = shipment();
    const { parsed, text } = parsedTender(source);
    expect(parsed.isa).toEqual([
      '00',
      ' '.repeat(10),
      '00',
      ' '.repeat(10),
      'ZZ',
      'SHIPPERCO      ',
      '02',
      'ODFL           ',
      '261120',
      '1504',
      'U',
      '00401',
      '905',
      '0',
      'T',
      '>',
    ]);
    expect(parsed.gs).toEqual(['SM', 'SHIPPERCO', 'ODFL', '20261120', '1504', '12', 'X', '004010']);
    expect(parsed.st).toEqual(['204', '0001']);
    // One segment per line, LF after each terminator.
    expect(
      text
        .split('\n')
        .slice(0, -1)
        .every((row) => row.endsWith('~')),
    ).toBe(true);
    const b2 = find(parsed.body, 'B2')!;
    expect([el(b2, 2), el(b2, 4), el(b2, 6)]).toEqual(['ODFL', source.bolNumber, 'PP']);
    expect(find(parsed.body, 'B2A')?.elements).toEqual(['00']);
    expect(findAll(parsed.body, 'L11').map((segment) => segment.elements)).toEqual([
      [source.bolNumber, 'BM'],
      ['SO-000123', 'OQ'],
      ['PO-7781', 'PO'],
    ]);
    expect(findAll(parsed.body, 'NTE').map((segment) => el(segment, 2))).toEqual(['Call consignee 1 hour before delivery.']);
    // The bill-to of prepaid freight is the shipper.
    const [billTo] = groupsStartingAt(parsed.body, 'N1', 'S5');
    expect(billTo!.map((segment) => [segment.tag, ...segment.elements])).toEqual([
      ['N1', 'BT', 'Midwest Fixtures Inc.'],
      ['N3', '1200 W Lake St', 'Dock 4'],
      ['N4', 'Chicago', 'IL', '60607', 'US'],
      ['G61', 'CN', 'Dana Ruiz', 'TE', '312-555-0142'],
    ]);
    const [pickup, delivery] = stops(parsed);
    expect(pickup![0]!.elements).toEqual(['1', 'CL', '1200', 'L', '2', 'PL']);
    expect(find(pickup!, 'G62')?.elements).toEqual(['10', '20261123']);
    expect(el(find(pickup!, 'N1'), 2)).toBe('Midwest Fixtures Inc.');
    expect(delivery![0]!.elements).toEqual(['2', 'CU', '1200', 'L', '2', 'PL']);
    expect(findAll(delivery!, 'AT5').map((segment) => segment.elements)).toEqual([['', '', 'LIFTGATE AT DELIVERY']]);
    expect(find(delivery!, 'N1')?.elements).toEqual(['CN', 'Atlanta Retail Distribution']);
    expect(find(delivery!, 'G61')?.elements).toEqual(['DC', 'Atlanta Retail Distribution', 'TE', '(404) 555-0199']);
    expectLineItems(parsed, source);
    expect(find(parsed.body, 'L3')?.elements).toEqual(['1200', 'G', '', '', '', '', '', '', '', '', '2', 'L']);
  });

  it('every carrier field set: PRO, master BOL, trailer, seals, third party, window, COD, declared value, hazmat, accessorials by stop', () => {
    const source = fullShipment();
    const { parsed, warnings } = parsedTender(source);
    expect(warnings).toEqual([]);
    expect(el(find(parsed.body, 'B2'), 6)).toBe('TP');
    expect(findAll(parsed.body, 'L11').map((segment) => segment.elements)).toEqual([
      [source.bolNumber, 'BM'],
      ['ODFL-123456789', 'CN'],
      ['SO-000123', 'OQ'],
      ['PO-7781', 'PO'],
      [source.bolNumber, 'MB'],
      ['TRL-4471', 'EQ'],
      ['SEAL-0001', 'SN'],
      ['SEAL-0002', 'SN'],
    ]);
    // Hazardous, COD requested, declared value: the whole shipment.
    const heading = parsed.body.slice(
      0,
      parsed.body.findIndex((segment) => segment.tag === 'S5'),
    );
    expect(findAll(heading, 'AT5').map((segment) => segment.elements)).toEqual([['HM'], ['', 'CD'], ['', 'DV']]);
    const [billTo] = groupsStartingAt(parsed.body, 'N1', 'S5');
    expect(billTo!.map((segment) => [segment.tag, ...segment.elements])).toEqual([
      ['N1', 'BT', THIRD_PARTY.name],
      ['N3', THIRD_PARTY.address1, THIRD_PARTY.address2],
      ['N4', 'Chicago', 'IL', '60601', 'US'],
      ['G61', 'CN', 'Accounts Payable', 'TE', THIRD_PARTY.phoneNumber],
    ]);
    const [pickup, delivery] = stops(parsed);
    expect(findAll(pickup!, 'G62').map((segment) => segment.elements)).toEqual([
      ['37', '20261123', 'I', '0800', 'LT'],
      ['38', '20261123', 'K', '1630', 'LT'],
    ]);
    expect(findAll(pickup!, 'AT5').map((segment) => segment.elements)).toEqual([['IPU']]);
    expect(findAll(delivery!, 'AT5').map((segment) => segment.elements)).toEqual([['', '', 'LIFTGATE AT DELIVERY'], ['RES'], ['', '', 'DELIVERY APPOINTMENT'], ['NC']]);
    expect(findAll(delivery!, 'NTE').map((segment) => el(segment, 2))).toEqual(['COD USD 1234.56, FEE PREPAID, CUSTOMER CHECK OK']);
    expectLineItems(parsed, source);
    const lines = groupsStartingAt(pickup!, 'OID');
    expect(lines[1]!.map((segment) => [segment.tag, ...segment.elements]).slice(-4)).toEqual([
      ['G61', 'HM', 'Midwest Fixtures Inc.', 'TE', '800-424-9300'],
      ['LH1', 'PC', '24', 'UN1203', '', '', '', '', '', '', 'II'],
      ['LH2', '3', 'P'],
      ['LH3', 'Gasoline', 'D'],
    ]);
    // Class 2.2 has no packing group: LH110 stays empty.
    expect(find(lines[2]!, 'LH1')?.elements).toEqual(['PC', '6', 'UN1005']);
    expect(findAll(lines[2]!, 'LH3').map((segment) => segment.elements)).toEqual([['Ammonia, anhydrous', 'D']]);
    // Totals and the declared value ($25,000.00 per shipment, N2: cents).
    expect(find(parsed.body, 'L3')?.elements).toEqual(['1990.75', 'G', '', '', '', '', '', '', '', '', '4', 'L', '', '2500000', 'PS']);
  });

  it('a declared value per pound is L315 LB; collect terms bill the consignee', () => {
    const { parsed } = parsedTender(shipment({ declaredValue: { amountInCents: 250, per: 'POUND' }, freightChargeTerms: { terms: 'COLLECT', billTo: null } }));
    expect(find(parsed.body, 'L3')?.elements.slice(13)).toEqual(['250', 'LB']);
    expect(el(find(parsed.body, 'B2'), 6)).toBe('CC');
    expect(groupsStartingAt(parsed.body, 'N1', 'S5')[0]![0]!.elements).toEqual(['BT', 'Atlanta Retail Distribution']);
  });

  it('a minimal shipment: no contacts, references or notes beyond what it has', () => {
    const source = minimalShipment({ carrier: { name: 'Estes', scac: 'EXLA' } });
    const { parsed } = parsedTender(source);
    expect(findAll(parsed.body, 'L11').map((segment) => segment.elements)).toEqual([
      [source.bolNumber, 'BM'],
      ['SO-000123', 'OQ'],
    ]);
    for (const tag of ['G61', 'NTE', 'AT5', 'LAD', 'N2']) expect(findAll(parsed.body, tag)).toEqual([]);
    expect(findAll(parsed.body, 'N3').map((segment) => segment.elements)).toEqual([['1 Main St'], ['1 Main St'], ['2 Elm St']]);
    expectLineItems(parsed, source);
  });

  it('a tender names its carrier: without one it is refused, nothing written', () => {
    expect(tender(minimalShipment())).toEqual({
      ok: false,
      violations: [{ field: 'carrier', reason: "a 204 load tender names the carrier: set the shipment's carrier (name and SCAC) first" }],
    });
  });

  it('a cancelled shipment tenders a cancellation (B2A01 01)', () => {
    const { parsed } = parsedTender(shipment({ orderStatus: 'CANCELLED', cancelledAt: '2026-11-21T10:00:00.000Z' }));
    expect(find(parsed.body, 'B2A')?.elements).toEqual(['01']);
  });

  it('999 lines (L501 has 3 digits) are written and read back line by line; 1,000 are refused', () => {
    const source = shipment({ orderComponents: manyLines(999) });
    const { parsed } = parsedTender(source);
    expectLineItems(parsed, source);
    expect(el(find(groupsStartingAt(stops(parsed)[0]!, 'OID').at(-1)!, 'L5'), 1)).toBe('999');
    expect(tender(shipment({ orderComponents: manyLines(1000) }))).toEqual({
      ok: false,
      violations: [{ field: 'orderComponents', reason: 'a 204 carries at most 999 line items (L501 has 3 digits); this shipment has 1000' }],
    });
  });

  it('a description longer than L502 (50) is cut at a word, with a warning; names past 60 go on to N2', () => {
    const description = 'Heavy-duty industrial shelving components including uprights and beams';
    const name = 'The Very Long Named Consolidated Freight Receiving Department of Atlanta';
    const { parsed, warnings } = parsedTender(
      shipment({ orderComponents: [line({ description })], deliveryAddress: { name, address1: '2 Elm St', city: 'Atlanta', state: 'GA', zipCode: '30336' } }),
    );
    expect(el(find(parsed.body, 'L5'), 2)).toBe('Heavy-duty industrial shelving components');
    expect(warnings).toEqual([`orderComponents[0].description has more than the 50 characters of L502: the tender carries "Heavy-duty industrial shelving components"`]);
    const delivery = stops(parsed)[1]!;
    expect([find(delivery, 'N1')?.elements, find(delivery, 'N2')?.elements]).toEqual([['CN', 'The Very Long Named Consolidated Freight Receiving'], ['Department of Atlanta']]);
  });

  it('accented letters are transliterated, emoji and CJK refused with their field, separators refused, ":" kept', () => {
    const accented = parsedTender(
      shipment({
        deliveryAddress: { name: 'Café Zürich Größe', address1: 'Rue de l’Église 5', city: 'Atlanta', state: 'GA', zipCode: '30336' },
        orderComponents: [line({ description: 'Crème brûlée: 12 "units"' })],
      }),
    );
    expect(find(stops(accented.parsed)[1]!, 'N1')?.elements).toEqual(['CN', 'Cafe Zurich Grosse']);
    expect(find(stops(accented.parsed)[1]!, 'N3')?.elements).toEqual(["Rue de l'Eglise 5"]);
    expect(el(find(accented.parsed.body, 'L5'), 2)).toBe('Creme brulee: 12 "units"');

    const refused = tender(
      shipment({
        pickupAddress: { name: 'Tokyo 日本製 🚚', address1: 'a*b', city: 'Chicago', state: 'IL', zipCode: '60607' },
        orderComponents: [line({ description: 'Widgets > 10kg' }), line({ description: 'Tilde ~ inside' })],
      }),
    );
    expect(refused).toEqual({
      ok: false,
      violations: [
        { field: 'pickupAddress.name', reason: '"日", "本", "製", "🚚" cannot be written in X12 (printable ASCII; accented Latin, Greek and Cyrillic letters are transliterated)' },
        { field: 'pickupAddress.address1', reason: 'contains "*", the X12 element separator: choose other separators in the X12 settings' },
        { field: 'orderComponents[0].description', reason: 'contains ">", the X12 sub-element separator: choose other separators in the X12 settings' },
        { field: 'orderComponents[1].description', reason: 'contains "~", the X12 segment separator: choose other separators in the X12 settings' },
      ],
    });
  });

  it('other separators from the settings: the parser finds them in the ISA, and * > ~ travel as data', () => {
    const source = shipment({ orderComponents: [line({ description: 'a*b > c ~ d' })] });
    const settings = { separators: { element: '|', segment: '!', subElement: '^' }, lineBreak: 'crlf' as const };
    const { parsed, text } = parsedTender(source, settings);
    expect(text.slice(103, 108)).toBe('|^!\r\n');
    expect(el(find(parsed.body, 'L5'), 2)).toBe('a*b > c ~ d');
    expect(tender(shipment({ orderComponents: [line({ description: 'x | y' })] }), settings)).toMatchObject({
      ok: false,
      violations: [{ field: 'orderComponents[0].description' }],
    });
  });

  it('without line breaks the interchange is one line; control numbers are checked and padded', () => {
    const result = tender(shipment(), { lineBreak: 'none' }, { interchangeControlNumber: 999_999_999, groupControlNumber: 1 });
    expect(result.ok && !result.document.includes('\n')).toBe(true);
    if (result.ok)
      expect(parseX12(result.document, { interchangeControlNumber: 999_999_999, groupControlNumber: 1, transactionSet: '204', functionalId: 'SM' }).isa[12]).toBe('999999999');
    for (const bad of [0, 1_000_000_000, 1.5, Number.NaN]) {
      expect(() => tender(shipment(), {}, { interchangeControlNumber: bad, groupControlNumber: 1 })).toThrow(RangeError);
      expect(() => tender(shipment(), {}, { interchangeControlNumber: 1, groupControlNumber: bad })).toThrow(RangeError);
    }
  });

  it('absurd figures: a weight past 10 digits is refused on its field, a tiny one never reads 0', () => {
    expect(tender(shipment({ orderComponents: [line({ poundsWeight: 12_345_678_901 })] }))).toEqual({
      ok: false,
      violations: [
        { field: 'orderComponents', reason: '12345678901 does not fit S503 (at most 10 digits)' },
        { field: 'orderComponents[0].poundsWeight', reason: '12345678901 does not fit OID07 (at most 10 digits)' },
        { field: 'orderComponents[0].poundsWeight', reason: '12345678901 does not fit AT803 (at most 10 digits)' },
        { field: 'orderComponents', reason: '12345678901 does not fit L301 (at most 10 digits)' },
      ],
    });
    const { parsed } = parsedTender(shipment({ orderComponents: [line({ poundsWeight: 0.004 }), line({ poundsWeight: 9_999_999_999.4 })] }));
    expect(findAll(parsed.body, 'AT8').map((segment) => el(segment, 3))).toEqual(['0.01', '9999999999']);
  });

  it('test usage and an acknowledgment request show in ISA14/ISA15; GS codes can differ from the ISA ids', () => {
    const { parsed } = parsedTender(shipment(), {
      usage: 'test',
      acknowledgmentRequested: true,
      applicationSenderCode: 'SHPAPP',
      applicationReceiverCode: 'ODFLAPP',
      senderQualifier: '01',
      senderId: '123456789',
    });
    expect(parsed.isa.slice(4, 6)).toEqual(['01', '123456789      ']);
    expect(parsed.isa.slice(13, 15)).toEqual(['1', 'T']);
    expect(parsed.gs.slice(1, 3)).toEqual(['SHPAPP', 'ODFLAPP']);
  });

  it('production usage only when the settings say so: ISA15 P', () => {
    expect(parsedTender(shipment(), { usage: 'production' }).parsed.isa[14]).toBe('P');
  });
});
