/**
 * Segments the 204 and the 211 write alike: parties (N1/N2/N3/N4/G61), references (L11), pickup
 * dates (G62), handling requirements (AT5) and hazardous materials (G61/LH1/LH2/LH3). Element
 * sizes are those of X12 004010. Pure.
 */
import { dollarsText } from '../domain/money.js';
import type { Address, RatedOrderComponent, Shipment } from '../domain/schemas.js';
import { x12Date, x12Time } from './shipmentFacts.js';
import type { X12ElementWriter, X12Segment } from './x12.js';

/** B206 / BOL02 Shipment Method of Payment. */
export const PAYMENT_METHOD = { PREPAID: 'PP', COLLECT: 'CC', THIRD_PARTY: 'TP' } as const;

export type PartyCode = 'SH' | 'CN' | 'BT';
const CONTACT_FUNCTION: Record<PartyCode, string> = { SH: 'SH', CN: 'DC', BT: 'CN' };

/**
 * N1 (name; N2 carries what passes 60 characters), N3 (street lines of 55), N4 (city, state, ZIP,
 * country) and G61 (contact and phone, when the address has them).
 */
export function partySegments(writer: X12ElementWriter, code: PartyCode, address: Address, field: string): X12Segment[] {
  const segments: X12Segment[] = [];
  const name = writer.pieces(address.name, `${field}.name`, 'N102', 3, 'N102 and N201/N202');
  segments.push(['N1', code, name[0] ?? '']);
  if (name.length > 1) segments.push(['N2', name[1]!, name[2] ?? '']);
  const streets = [
    ...writer.pieces(address.address1, `${field}.address1`, 'N301', 2, 'N301/N302'),
    ...writer.pieces(address.address2, `${field}.address2`, 'N301', 2, 'N301/N302'),
  ];
  for (let index = 0; index < streets.length; index += 2) segments.push(['N3', streets[index]!, streets[index + 1] ?? '']);
  segments.push([
    'N4',
    writer.text(address.city, `${field}.city`, 'N401', { required: true }),
    writer.text(address.state, `${field}.state`, 'N402', { required: true }),
    writer.text(address.zipCode, `${field}.zipCode`, 'N403', { required: true }),
    address.countryCode === 'US' ? 'US' : writer.text(address.countryCode, `${field}.countryCode`, 'N404'),
  ]);
  if (address.phoneNumber || address.contactPerson) {
    // Without a contact name the party's name stands in, cut to G6102's 60 characters (N1/N2 carry it whole).
    const contact = address.contactPerson ? writer.text(address.contactPerson, `${field}.contactPerson`, 'G6102') : writer.shortened(address.name, `${field}.name`, 'G6102').text;
    const phone = writer.text(address.phoneNumber, `${field}.phoneNumber`, 'G6104');
    if (contact) segments.push(phone ? ['G61', CONTACT_FUNCTION[code], contact, 'TE', phone] : ['G61', CONTACT_FUNCTION[code], contact]);
  }
  return segments;
}

/** L11 references the shipment carries, besides those a transaction set puts elsewhere. */
export function referenceSegments(writer: X12ElementWriter, shipment: Shipment, options: { bolNumber: boolean; pro: boolean }): X12Segment[] {
  const l11 = (value: string | null, qualifier: string, field: string): X12Segment[] => {
    const text = writer.text(value, field, 'L1101');
    return text ? [['L11', text, qualifier]] : [];
  };
  return [
    ...(options.bolNumber ? l11(shipment.bolNumber, 'BM', 'bolNumber') : []),
    ...(options.pro ? l11(shipment.proNumber, 'CN', 'proNumber') : []),
    ...l11(shipment.orderNumber, 'OQ', 'orderNumber'),
    ...l11(shipment.refNumber, 'PO', 'refNumber'),
    ...(shipment.masterBol ? l11(shipment.bolNumber, 'MB', 'masterBol') : []),
    ...l11(shipment.trailerNumber, 'EQ', 'trailerNumber'),
    ...shipment.sealNumbers.flatMap((seal, index) => l11(seal, 'SN', `sealNumbers[${index}]`)),
  ];
}

/**
 * G62 pickup dates: the requested ship date (10), or with a pickup window the ship-not-before
 * (37, time qualifier I) and ship-not-later-than (38, K) date and local time (time code LT).
 */
export function pickupDateSegments(shipment: Shipment): X12Segment[] {
  const date = x12Date(shipment.requiredPickupDate);
  if (!shipment.pickupWindow) return [['G62', '10', date]];
  return [
    ['G62', '37', date, 'I', x12Time(shipment.pickupWindow.readyTime), 'LT'],
    ['G62', '38', date, 'K', x12Time(shipment.pickupWindow.closeTime), 'LT'],
  ];
}

export type StopKind = 'pickup' | 'delivery';

/** AT5 for an accessorial: the 004010 Special Handling Code (element 152) where one exists, else the text. */
const ACCESSORIAL_HANDLING: Record<string, { code?: string; text?: string; stop: StopKind }> = {
  LIFTGATE_PICKUP: { text: 'LIFTGATE AT PICKUP', stop: 'pickup' },
  LIFTGATE_DELIVERY: { text: 'LIFTGATE AT DELIVERY', stop: 'delivery' },
  RESIDENTIAL_PICKUP: { text: 'RESIDENTIAL PICKUP', stop: 'pickup' },
  RESIDENTIAL_DELIVERY: { code: 'RES', stop: 'delivery' },
  INSIDE_PICKUP: { code: 'IPU', stop: 'pickup' },
  INSIDE_DELIVERY: { code: 'IDL', stop: 'delivery' },
  LIMITED_ACCESS_PICKUP: { text: 'LIMITED ACCESS PICKUP', stop: 'pickup' },
  LIMITED_ACCESS_DELIVERY: { text: 'LIMITED ACCESS DELIVERY', stop: 'delivery' },
  APPOINTMENT: { text: 'DELIVERY APPOINTMENT', stop: 'delivery' },
  NOTIFY_BEFORE_DELIVERY: { code: 'NC', stop: 'delivery' },
};

/** The AT5 segment of an accessorial code and the stop it belongs to (null: the whole shipment). */
export function accessorialHandling(code: string): { segment: X12Segment; stop: StopKind | null } {
  const known = ACCESSORIAL_HANDLING[code];
  if (known?.code) return { segment: ['AT5', known.code], stop: known.stop };
  // A tariff's own code: its words, within AT503's 30 characters (codes are A-Z, 0-9 and _).
  const text = known?.text ?? code.replaceAll('_', ' ').slice(0, 30);
  return { segment: ['AT5', '', '', text], stop: known?.stop ?? null };
}

/** AT5 for the shipment as a whole: hazardous (HM), COD requested (CD), declared value (DV). */
export function shipmentHandlingSegments(shipment: Shipment): X12Segment[] {
  return [
    ...(shipment.orderComponents.some((component) => component.hazmat) ? [['AT5', 'HM'] as X12Segment] : []),
    ...(shipment.cod ? [['AT5', '', 'CD'] as X12Segment] : []),
    ...(shipment.declaredValue ? [['AT5', '', 'DV'] as X12Segment] : []),
  ];
}

/** Dollars and cents: 123456 -> "1234.56". */

/** Text lines (COD, declared value) that the transaction sets write as notes or remarks. */
export function moneyNotes(shipment: Shipment): { cod: string | null; declaredValue: string | null } {
  const cod = shipment.cod
    ? `COD USD ${dollarsText(shipment.cod.amountInCents)}, FEE ${shipment.cod.feeTerms}, ${shipment.cod.customerCheckAcceptable ? 'CUSTOMER CHECK OK' : 'CERTIFIED FUNDS ONLY'}`
    : null;
  const declaredValue = shipment.declaredValue
    ? `DECLARED VALUE USD ${dollarsText(shipment.declaredValue.amountInCents)} PER ${shipment.declaredValue.per === 'POUND' ? 'POUND' : 'SHIPMENT'}`
    : null;
  return { cod, declaredValue };
}

/**
 * Hazardous material of one line: G61 emergency contact (HM), LH1 (quantity, UN/NA number,
 * packing group), LH2 (hazard class, primary), LH3 (proper shipping name in pieces of 25).
 */
export function hazmatSegments(writer: X12ElementWriter, shipment: Shipment, component: RatedOrderComponent, index: number): X12Segment[] {
  const hazmat = component.hazmat;
  if (!hazmat) return [];
  const field = `orderComponents[${index}].hazmat`;
  const contactName = writer.shortened(shipment.pickupAddress.name, 'pickupAddress.name', 'G6102').text || 'SHIPPER';
  const phone = writer.text(shipment.emergencyContactPhone, 'emergencyContactPhone', 'G6104', { required: true });
  const byPieces = component.pieceCount !== null && component.pieceCount > 0;
  const names = writer.pieces(hazmat.properShippingName, `${field}.properShippingName`, 'LH301', 10, 'LH301 (10 segments of 25)');
  return [
    ['G61', 'HM', contactName, 'TE', phone],
    [
      'LH1',
      byPieces ? 'PC' : 'PL',
      writer.integer(
        byPieces ? component.pieceCount! : component.palletCount,
        byPieces ? `orderComponents[${index}].pieceCount` : `orderComponents[${index}].palletCount`,
        'LH102',
      ),
      writer.text(hazmat.unNumber, `${field}.unNumber`, 'LH103', { required: true }),
      '',
      '',
      '',
      '',
      '',
      '',
      hazmat.packingGroup ?? '',
    ],
    ['LH2', writer.text(hazmat.hazardClass, `${field}.hazardClass`, 'LH201', { required: true }), 'P'],
    ...names.map((name): X12Segment => ['LH3', name, 'D']),
  ];
}

/** The carrier's SCAC (B202 / BOL01): a tender names its carrier. */
export function carrierScac(writer: X12ElementWriter, shipment: Shipment, document: string): string {
  if (!shipment.carrier) {
    writer.fail('carrier', `${document} names the carrier: set the shipment's carrier (name and SCAC) first`);
    return '';
  }
  return shipment.carrier.scac;
}
