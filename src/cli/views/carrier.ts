/** The carrier's part of a shipment as people read it (ship, shipment get/update): only what was given. */
import { hazmatBasicDescription } from '../../domain/hazmatDescription.js';
import type { Address, Shipment } from '../../domain/schemas.js';
import { formatCents } from '../output.js';

const shortAddress = (address: Address) => `${address.name}, ${address.city}, ${address.state} ${address.zipCode}`;

/** `Carrier      Old Dominion Freight Line (ODFL) · PRO 700000013`, terms, window, money, FOB: labelled lines. */
export function carrierDetailLines(shipment: Shipment): string[] {
  const lines: Array<[string, string]> = [];
  const carrier = [shipment.carrier ? `${shipment.carrier.name} (${shipment.carrier.scac})` : null, shipment.proNumber ? `PRO ${shipment.proNumber}` : null].filter(Boolean);
  if (carrier.length > 0) lines.push(['Carrier', carrier.join(' · ')]);
  const terms = shipment.freightChargeTerms;
  if (terms.terms !== 'PREPAID' || terms.billTo) {
    lines.push(['Terms', `${terms.terms === 'THIRD_PARTY' ? 'third party' : terms.terms.toLowerCase()}${terms.billTo ? `, bill to ${shortAddress(terms.billTo)}` : ''}`]);
  }
  if (shipment.pickupWindow) lines.push(['Window', `ready ${shipment.pickupWindow.readyTime}, dock closes ${shipment.pickupWindow.closeTime} (local time at the origin)`]);
  if (shipment.declaredValue) lines.push(['Declared', `${formatCents(shipment.declaredValue.amountInCents)} per ${shipment.declaredValue.per === 'POUND' ? 'lb' : 'shipment'}`]);
  if (shipment.cod) {
    lines.push([
      'COD',
      `${formatCents(shipment.cod.amountInCents)}, fee ${shipment.cod.feeTerms.toLowerCase()}${shipment.cod.customerCheckAcceptable ? ', customer check OK' : ''}`,
    ]);
  }
  const boxes = [shipment.fob ? `FOB ${shipment.fob.toLowerCase()}` : null, shipment.masterBol ? 'master BOL' : null].filter(Boolean);
  if (boxes.length > 0) lines.push(['BOL boxes', boxes.join(' · ')]);
  const trailer = [shipment.trailerNumber ? `trailer ${shipment.trailerNumber}` : null, shipment.sealNumbers.length > 0 ? `seals ${shipment.sealNumbers.join(', ')}` : null].filter(
    Boolean,
  );
  if (trailer.length > 0) lines.push(['Equipment', trailer.join(' · ')]);
  return lines.map(([label, text]) => `  ${label.padEnd(12)} ${text}`);
}

/** One line per hazardous order component, with the emergency phone (49 CFR 172.202, 172.604). */
export function hazmatLines(shipment: Shipment): string[] {
  const lines = shipment.orderComponents.flatMap((component, index) => (component.hazmat ? [`  H.M. line ${index + 1}: ${hazmatBasicDescription(component.hazmat)}`] : []));
  if (lines.length > 0 && shipment.emergencyContactPhone) lines.push(`  Emergency response phone ${shipment.emergencyContactPhone}`);
  return lines;
}
