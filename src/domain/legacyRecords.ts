/**
 * Records written before the published wire (issue 40) became the domain's vocabulary, read in
 * today's names. Stores keep what they were given; their readers pass each raw record through
 * here before the record's schema parses it, so a store written by an older shipper still reads,
 * in both stores and in `store import` of an older export. Pure.
 *
 * Each function returns its argument untouched when it holds no old name, which is every record
 * written since: the check is a few `in` tests, never a copy.
 */

import { migratedOrderStatus } from './orderStatus.js';
import type { TRACKING_STATUSES } from './statuses.js';

type Raw = Record<string, unknown>;
type TrackingStatus = (typeof TRACKING_STATUSES)[number];

const isObject = (value: unknown): value is Raw => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Renames keys of `value` by `names` (old -> new), keeping the order of the rest; the new name wins when both are there. */
function renamed(value: Raw, names: Readonly<Record<string, string>>): Raw {
  const out: Raw = {};
  for (const [key, item] of Object.entries(value)) {
    const name = names[key];
    if (name === undefined) out[key] = item;
    else if (!(name in value)) out[name] = item;
  }
  return out;
}

const ADDRESS_NAMES = { street1: 'address1', street2: 'address2', postalCode: 'zipCode', contactName: 'contactPerson', phone: 'phoneNumber' } as const;

/** An address (a stop, a bill-to, a COD's remit-to, a saved location) or a quote's place. */
export function upgradeAddress(value: unknown): unknown {
  if (!isObject(value)) return value;
  if (!('street1' in value || 'postalCode' in value || 'contactName' in value || 'phone' in value || 'street2' in value)) return value;
  return renamed(value, ADDRESS_NAMES);
}

/** A saved location: `{ name, address }`. */
export function upgradeLocation(value: unknown): unknown {
  if (!isObject(value) || !isObject(value.address)) return value;
  const address = upgradeAddress(value.address);
  return address === value.address ? value : { ...value, address };
}

/** A shipment event as stored: the place the carrier reported, inside `event`. */
export function upgradeEventRecord(value: unknown): unknown {
  if (!isObject(value)) return value;
  const event = value.event;
  if (!isObject(event) || !isObject(event.place)) return value;
  const place = upgradeAddress(event.place);
  return place === event.place ? value : { ...value, event: { ...event, place } };
}

const QUOTE_NAMES = { origin: 'pickupAddress', destination: 'deliveryAddress', pickupDate: 'requiredPickupDate' } as const;

/** A quote as stored (on its own, or as the quote a booking priced for itself). */
export function upgradeQuote(value: unknown): unknown {
  if (!isObject(value)) return value;
  const old = 'origin' in value || 'destination' in value || 'pickupDate' in value;
  const pickup = old ? (value.origin ?? value.pickupAddress) : value.pickupAddress;
  const delivery = old ? (value.destination ?? value.deliveryAddress) : value.deliveryAddress;
  const pickupAddress = upgradeAddress(pickup);
  const deliveryAddress = upgradeAddress(delivery);
  if (!old && pickupAddress === pickup && deliveryAddress === delivery) return value;
  return { ...renamed(value, QUOTE_NAMES), pickupAddress, deliveryAddress };
}

const SHIPMENT_NAMES = {
  shipper: 'pickupAddress',
  consignee: 'deliveryAddress',
  pickupDate: 'requiredPickupDate',
  quotedPriceInCents: 'totalPriceInCents',
  status: 'orderStatus',
} as const;

/** An address nested one level down (`freightChargeTerms.billTo`, `cod.remitTo`), upgraded in place of a copy. */
function withNestedAddress(value: unknown, key: string): unknown {
  if (!isObject(value) || !isObject(value[key])) return value;
  const address = upgradeAddress(value[key]);
  return address === value[key] ? value : { ...value, [key]: address };
}

/**
 * A shipment as stored (with, in the file store, the quote it priced for itself). `status` BOOKED
 * becomes the order state its carrier events imply (migratedOrderStatus), CANCELLED stays.
 */
export function upgradeShipment(value: unknown): unknown {
  if (!isObject(value)) return value;
  const old = 'shipper' in value || 'consignee' in value || 'status' in value || 'quotedPriceInCents' in value || 'pickupDate' in value;
  const pickup = old ? (value.shipper ?? value.pickupAddress) : value.pickupAddress;
  const delivery = old ? (value.consignee ?? value.deliveryAddress) : value.deliveryAddress;
  const pickupAddress = upgradeAddress(pickup);
  const deliveryAddress = upgradeAddress(delivery);
  const freightChargeTerms = withNestedAddress(value.freightChargeTerms, 'billTo');
  const cod = withNestedAddress(value.cod, 'remitTo');
  const quote = value.quote === undefined ? undefined : upgradeQuote(value.quote);
  if (!old && pickupAddress === pickup && deliveryAddress === delivery && freightChargeTerms === value.freightChargeTerms && cod === value.cod && quote === value.quote)
    return value;
  const upgraded: Raw = { ...renamed(value, SHIPMENT_NAMES), pickupAddress, deliveryAddress };
  if ('freightChargeTerms' in value) upgraded.freightChargeTerms = freightChargeTerms;
  if ('cod' in value) upgraded.cod = cod;
  if (quote !== undefined) upgraded.quote = quote;
  if ('status' in value && !('orderStatus' in value)) {
    const status = value.status === 'CANCELLED' ? 'CANCELLED' : 'BOOKED';
    const tracking = typeof value.trackingStatus === 'string' ? value.trackingStatus : 'NONE';
    upgraded.orderStatus = migratedOrderStatus(status, tracking as TrackingStatus);
  }
  return upgraded;
}
