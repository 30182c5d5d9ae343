/**
 * X12 204 Motor Carrier Load Tender, version 004010, from a shipment. Pure.
 *
 * Layout (segment positions of the 004010 standard):
 *
 *   ST  B2 (SCAC, BOL number, payment)  B2A (00 original, 01 when the shipment is cancelled)
 *   L11 references: BM BOL, CN PRO, OQ order, PO refNumber, MB master BOL, EQ trailer, SN seals
 *   AT5 HM hazardous / CD COD requested / DV declared value, and accessorials of no single stop
 *   NTE special instructions (80 characters each)
 *   N1 loop 0100: BT bill-to party (the shipper, the consignee or the third party, by the terms)
 *   S5 loop 0300, stop 1 (CL complete load) at the shipper:
 *     G62 pickup date (10), or the window: 37 + ready time, 38 + close time (local time)
 *     AT5 pickup accessorials, N1 SH shipper + N3 N4 G61
 *     OID loop 0350, one per order component (order number, refNumber, pallets, weight):
 *       LAD pieces and their packaging code
 *       L5 line number, description, NMFC (qualifier N), class (qualifier Z: mutually defined,
 *          004010 has no freight-class element in the 204), AT8 weight and pallets
 *       G61 HM emergency contact, LH1 / LH2 / LH3 hazardous material (loops 0365/0370)
 *   S5 loop 0300, stop 2 (CU complete unload) at the consignee:
 *     AT5 delivery accessorials, NTE COD text, N1 CN consignee + N3 N4 G61
 *   L3 total weight, pallets, declared value (L314, per shipment PS or per pound LB)
 *   SE
 */
import { freightTotals } from '../domain/freightTotals.js';
import type { Shipment } from '../domain/schemas.js';
import { warning, type Warning } from '../domain/warnings.js';
import type { X12InterchangeSettings } from './settings.js';
import { billToAddress, billToField, packagingKind, X12_PACKAGING_CODES } from './shipmentFacts.js';
import { writeX12Interchange, X12ElementWriter, type X12ControlNumbers, type X12Segment } from './x12.js';
import {
  accessorialHandling,
  carrierScac,
  hazmatSegments,
  moneyNotes,
  partySegments,
  PAYMENT_METHOD,
  pickupDateSegments,
  referenceSegments,
  shipmentHandlingSegments,
  type StopKind,
} from './x12Parts.js';
import type { CarrierFileResult } from './result.js';

export interface X12DocumentInput {
  shipment: Shipment;
  settings: X12InterchangeSettings;
  control: X12ControlNumbers;
  /** The ISA/GS date and time. */
  createdAt: Date;
}

/** Loop 0350 (OID) repeats 999 times per stop, and L501 line numbers have 3 digits. */
export const MAX_204_LINE_ITEMS = 999;
const MAX_AT5 = 6;
const MAX_HEADING_NTE = 10;

export function writeX12LoadTender(input: X12DocumentInput): CarrierFileResult<string> {
  const { shipment, settings } = input;
  const writer = new X12ElementWriter(settings.separators);
  const warnings: Warning[] = [];
  if (shipment.orderComponents.length > MAX_204_LINE_ITEMS) {
    writer.fail('orderComponents', `a 204 carries at most ${MAX_204_LINE_ITEMS} line items (L501 has 3 digits); this shipment has ${shipment.orderComponents.length}`);
    return { ok: false, violations: writer.violations };
  }
  const totals = freightTotals(shipment.orderComponents);

  const handling = { pickup: [] as X12Segment[], delivery: [] as X12Segment[], shipment: shipmentHandlingSegments(shipment) };
  for (const code of shipment.accessorials) {
    const { segment, stop } = accessorialHandling(code);
    handling[stop ?? 'shipment'].push(segment);
  }
  for (const [place, segments] of Object.entries(handling)) {
    if (segments.length > MAX_AT5)
      writer.fail(
        'accessorials',
        `a 204 has room for ${MAX_AT5} handling requirements (AT5) ${place === 'shipment' ? 'for the whole shipment' : `at the ${place} stop`}; this shipment needs ${segments.length}`,
      );
  }

  const notes = writer.pieces(shipment.specialInstructions, 'specialInstructions', 'NTE02', MAX_HEADING_NTE, `NTE02 (${MAX_HEADING_NTE} notes of 80)`);
  const { cod, declaredValue } = moneyNotes(shipment);

  const stop = (number: number, kind: StopKind): X12Segment[] => {
    const isPickup = kind === 'pickup';
    return [
      [
        'S5',
        String(number),
        isPickup ? 'CL' : 'CU',
        writer.decimal(totals.poundsWeight, 'orderComponents', 'S503'),
        'L',
        writer.decimal(totals.pallets, 'orderComponents', 'S505'),
        'PL',
      ],
      ...(isPickup ? pickupDateSegments(shipment) : []),
      ...handling[kind],
      ...(!isPickup && cod ? [['NTE', '', cod] as X12Segment] : []),
      ...partySegments(writer, isPickup ? 'SH' : 'CN', isPickup ? shipment.pickupAddress : shipment.deliveryAddress, isPickup ? 'pickupAddress' : 'deliveryAddress'),
      ...(isPickup ? shipment.orderComponents.flatMap((component, index) => lineItem(writer, shipment, index, warnings)) : []),
    ];
  };

  const body: X12Segment[] = [
    [
      'B2',
      '',
      carrierScac(writer, shipment, 'a 204 load tender'),
      '',
      writer.text(shipment.bolNumber, 'bolNumber', 'B204', { required: true }),
      '',
      PAYMENT_METHOD[shipment.freightChargeTerms.terms],
    ],
    ['B2A', shipment.orderStatus === 'CANCELLED' ? '01' : '00'],
    ...referenceSegments(writer, shipment, { bolNumber: true, pro: true }),
    ...handling.shipment,
    ...notes.map((note): X12Segment => ['NTE', '', note]),
    ...partySegments(writer, 'BT', billToAddress(shipment), billToField(shipment)),
    ...stop(1, 'pickup'),
    ...stop(2, 'delivery'),
    [
      'L3',
      writer.decimal(totals.poundsWeight, 'orderComponents', 'L301'),
      'G',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      writer.integer(totals.pallets, 'orderComponents', 'L311'),
      'L',
      '',
      shipment.declaredValue ? writer.cents(shipment.declaredValue.amountInCents, 'declaredValue.amountInCents', 'L314') : '',
      shipment.declaredValue ? (shipment.declaredValue.per === 'POUND' ? 'LB' : 'PS') : '',
    ],
  ];
  if (declaredValue && shipment.declaredValue?.per === 'POUND')
    warnings.push(warning('TENDER_CODE_SUBSTITUTED', `declared value is per pound: L314 carries ${declaredValue.toLowerCase()}`, { field: 'declaredValue' }));

  writer.checkLengths(body);
  if (writer.violations.length > 0) return { ok: false, violations: writer.violations };
  const document = writeX12Interchange({ settings, control: input.control, createdAt: input.createdAt, body: { transactionSetId: '204', functionalId: 'SM', segments: body } });
  return { ok: true, document, warnings };
}

/** Loop 0350 for one order component: OID, LAD, L5, AT8 and its hazardous material. */
function lineItem(writer: X12ElementWriter, shipment: Shipment, index: number, warnings: Warning[]): X12Segment[] {
  const component = shipment.orderComponents[index]!;
  const field = `orderComponents[${index}]`;
  const kind = packagingKind(component.packagingType);
  if (component.packagingType && !kind)
    warnings.push(
      warning('TENDER_CODE_SUBSTITUTED', `${field}.packagingType "${component.packagingType}" has no X12 packaging code: written as PCS (pieces)`, {
        field: `${field}.packagingType`,
      }),
    );
  // A long description is cut at a word for the tender's 50 characters; the 211 and the eBOL carry it whole.
  const description = writer.shortened(component.description, `${field}.description`, 'L502');
  if (description.cut)
    warnings.push(
      warning('TENDER_TEXT_CUT', `${field}.description has more than the 50 characters of L502: the tender carries "${description.text}"`, { field: `${field}.description` }),
    );
  const pieces = component.pieceCount !== null && component.pieceCount > 0 ? component.pieceCount : null;
  return [
    [
      'OID',
      writer.text(shipment.orderNumber, 'orderNumber', 'OID01'),
      writer.text(shipment.refNumber, 'refNumber', 'OID02'),
      '',
      'PL',
      writer.decimal(component.palletCount, `${field}.palletCount`, 'OID05'),
      'L',
      writer.decimal(component.poundsWeight, `${field}.poundsWeight`, 'OID07'),
    ],
    ...(pieces === null ? [] : [['LAD', kind ? X12_PACKAGING_CODES[kind] : 'PCS', writer.integer(pieces, `${field}.pieceCount`, 'LAD02')] as X12Segment]),
    [
      'L5',
      String(index + 1),
      description.text,
      writer.text(component.nmfcCode, `${field}.nmfcCode`, 'L503'),
      component.nmfcCode ? 'N' : '',
      '',
      '',
      '',
      'Z',
      component.freightClass,
    ],
    ['AT8', 'G', 'L', writer.decimal(component.poundsWeight, `${field}.poundsWeight`, 'AT803'), '', writer.integer(component.palletCount, `${field}.palletCount`, 'AT805')],
    ...hazmatSegments(writer, shipment, component, index),
  ];
}
