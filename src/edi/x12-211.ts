/**
 * X12 211 Motor Carrier Bill of Lading, version 004010, from a shipment. Pure.
 *
 * Layout (segment positions of the 004010 standard):
 *
 *   ST  BOL (SCAC, payment, BOL number, pickup date, PRO, COD fee payment in BOL10)
 *   B2A (00 original, 01 when the shipment is cancelled)
 *   L11 references: OQ order, PO refNumber, MB master BOL, EQ trailer, SN seals
 *   G62 pickup date (10), or the window: 37 + ready time, 38 + close time (local time)
 *   AT5 HM hazardous, CD COD requested, DV declared value, one per accessorial
 *   K1  remarks: special instructions, the COD amount, the declared value (004010's 211 has no
 *       numeric element for either)
 *   N1 loop 0100: SH shipper, CN consignee, BT bill-to, each with N2 N3 N4 G61
 *   AT1 loop 0200, one per order component:
 *     AT1 line number; AT4 description (pieces of 50, AT401's maximum)
 *     AT2 pallets (PLT), gross weight (G, L), pieces and their packaging, NMFC, freight class
 *     G61 HM emergency contact, LH1 / LH2 / LH3 hazardous material (loops 0230/0231)
 *   SE
 */
import { billToAddress, billToField, packagingKind, x12Date, X12_PACKAGING_CODES } from './shipmentFacts.js';
import { warning, type Warning } from '../domain/warnings.js';
import { writeX12Interchange, X12ElementWriter, type X12Segment } from './x12.js';
import type { X12DocumentInput } from './x12-204.js';
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
} from './x12Parts.js';
import type { CarrierFileResult } from './result.js';

/** AT101, the lading line item number, has 3 digits. */
export const MAX_211_LINE_ITEMS = 999;
const MAX_AT5 = 50;
const MAX_K1 = 10;

export function writeX12BillOfLading(input: X12DocumentInput): CarrierFileResult<string> {
  const { shipment, settings } = input;
  const writer = new X12ElementWriter(settings.separators);
  const warnings: Warning[] = [];
  if (shipment.orderComponents.length > MAX_211_LINE_ITEMS) {
    writer.fail('orderComponents', `a 211 carries at most ${MAX_211_LINE_ITEMS} line items (AT101 has 3 digits); this shipment has ${shipment.orderComponents.length}`);
    return { ok: false, violations: writer.violations };
  }

  const handling = [...shipmentHandlingSegments(shipment), ...shipment.accessorials.map((code) => accessorialHandling(code).segment)];
  if (handling.length > MAX_AT5) writer.fail('accessorials', `a 211 has room for ${MAX_AT5} handling requirements (AT5); this shipment needs ${handling.length}`);

  // Each remark starts its own K1 (two pieces of 30); special instructions get what COD and the declared value leave.
  const { cod, declaredValue } = moneyNotes(shipment);
  const moneyRemarks = (
    [
      ['cod', cod],
      ['declaredValue', declaredValue],
    ] as const
  ).filter((entry): entry is readonly ['cod' | 'declaredValue', string] => entry[1] !== null);
  const remarks = [
    ...pairs(
      writer.pieces(
        shipment.specialInstructions,
        'specialInstructions',
        'K101',
        (MAX_K1 - moneyRemarks.length) * 2,
        `K101/K102 (${MAX_K1 - moneyRemarks.length} remarks of 2 x 30)`,
      ),
    ),
    ...moneyRemarks.flatMap(([field, note]) => pairs(writer.pieces(note, field, 'K101', 2, 'K101/K102'))),
  ];

  const body: X12Segment[] = [
    [
      'BOL',
      carrierScac(writer, shipment, 'a 211 bill of lading'),
      PAYMENT_METHOD[shipment.freightChargeTerms.terms],
      writer.text(shipment.bolNumber, 'bolNumber', 'BOL03', { required: true }),
      x12Date(shipment.requiredPickupDate),
      '',
      writer.text(shipment.proNumber, 'proNumber', 'BOL06'),
      '',
      '',
      '',
      shipment.cod ? (shipment.cod.feeTerms === 'PREPAID' ? 'PP' : 'CC') : '',
    ],
    ['B2A', shipment.orderStatus === 'CANCELLED' ? '01' : '00'],
    ...referenceSegments(writer, shipment, { bolNumber: false, pro: false }),
    ...pickupDateSegments(shipment),
    ...handling,
    ...remarks.map(([first, second]): X12Segment => ['K1', first, second ?? '']),
    ...partySegments(writer, 'SH', shipment.pickupAddress, 'pickupAddress'),
    ...partySegments(writer, 'CN', shipment.deliveryAddress, 'deliveryAddress'),
    ...partySegments(writer, 'BT', billToAddress(shipment), billToField(shipment)),
    ...shipment.orderComponents.flatMap((component, index): X12Segment[] => {
      const field = `orderComponents[${index}]`;
      const kind = packagingKind(component.packagingType);
      if (component.packagingType && !kind)
        warnings.push(
          warning('TENDER_CODE_SUBSTITUTED', `${field}.packagingType "${component.packagingType}" has no X12 packaging code: written as PCS (pieces)`, {
            field: `${field}.packagingType`,
          }),
        );
      const pieces = component.pieceCount !== null && component.pieceCount > 0 ? component.pieceCount : null;
      return [
        ['AT1', String(index + 1)],
        ...writer.pieces(component.description, `${field}.description`, 'AT401', 99, 'AT401 (99 segments of 50)').map((text): X12Segment => ['AT4', text]),
        [
          'AT2',
          writer.integer(component.palletCount, `${field}.palletCount`, 'AT201'),
          'PLT',
          'G',
          'L',
          writer.decimal(component.poundsWeight, `${field}.poundsWeight`, 'AT205'),
          pieces === null ? '' : writer.integer(pieces, `${field}.pieceCount`, 'AT206'),
          pieces === null ? '' : kind ? X12_PACKAGING_CODES[kind] : 'PCS',
          '',
          writer.text(component.nmfcCode, `${field}.nmfcCode`, 'AT209'),
          component.freightClass,
        ],
        ...hazmatSegments(writer, shipment, component, index),
      ];
    }),
  ];

  writer.checkLengths(body);
  if (writer.violations.length > 0) return { ok: false, violations: writer.violations };
  const document = writeX12Interchange({ settings, control: input.control, createdAt: input.createdAt, body: { transactionSetId: '211', functionalId: 'BL', segments: body } });
  return { ok: true, document, warnings };
}

function pairs(pieces: string[]): Array<[string, string | undefined]> {
  const result: Array<[string, string | undefined]> = [];
  for (let index = 0; index < pieces.length; index += 2) result.push([pieces[index]!, pieces[index + 1]]);
  return result;
}
