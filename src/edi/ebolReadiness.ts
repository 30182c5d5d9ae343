/**
 * What an eBOL 2.1 request needs of a shipment that a booking may lack (ebol.ts refuses the
 * request without it): a 10-digit US phone for the shipper, the consignee and a third-party
 * bill-to, a description of every line, and an emergency phone when a line is hazardous. Checked
 * at booking for a carrier whose profile says it takes eBOLs, so the gap is found then, while
 * `shipment update` can still fill it, not at `tender` on the day of pickup. Pure.
 */
import type { ShipmentRequest } from '../domain/schemas.js';
import { usPhone } from './shipmentFacts.js';
import { warning, type Warning } from '../domain/warnings.js';

type Booked = Pick<ShipmentRequest, 'pickupAddress' | 'deliveryAddress' | 'freightChargeTerms' | 'orderComponents' | 'emergencyContactPhone'>;

/** The fields an eBOL would refuse, each as its path: `pickupAddress.phoneNumber`, `orderComponents[1].description`. */
export function ebolGaps(request: Booked): string[] {
  const gaps: string[] = [];
  if (!usPhone(request.pickupAddress.phoneNumber)) gaps.push('pickupAddress.phoneNumber');
  if (!usPhone(request.deliveryAddress.phoneNumber)) gaps.push('deliveryAddress.phoneNumber');
  const { terms, billTo } = request.freightChargeTerms;
  if (terms === 'THIRD_PARTY' && billTo && !usPhone(billTo.phoneNumber)) gaps.push('freightChargeTerms.billTo.phoneNumber');
  request.orderComponents.forEach((component, index) => {
    if (!component.description) gaps.push(`orderComponents[${index}].description`);
  });
  if (request.orderComponents.some((component) => component.hazmat) && !usPhone(request.emergencyContactPhone)) gaps.push('emergencyContactPhone');
  return gaps;
}

/**
 * The warning of a booking whose carrier takes eBOLs and that lacks what one needs.
 * Intended stable code: EBOL_INCOMPLETE.
 */
export function ebolIncompleteWarning(scac: string, gaps: readonly string[]): Warning {
  return warning(
    'EBOL_INCOMPLETE',
    `${scac} takes eBOL 2.1 requests and this shipment lacks what one needs: ${gaps.join(', ')} (a 10-digit US phone, a description of each line); add them before pickup with shipper shipment update (--shipper-phone, --consignee-phone, --emergency-phone, --description LINE=TEXT)`,
  );
}
