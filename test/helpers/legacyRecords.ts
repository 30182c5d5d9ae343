/**
 * Records as a shipper older than the published wire (issue 40) wrote them: the old names
 * (shipper/consignee, origin/destination, street1, postalCode, contactName, phone, pickupDate, a
 * shipment's quotedPriceInCents) and the booking status BOOKED or CANCELLED in place of the order
 * state. Written by hand from today's records, key by key, for the tests of the upgrade: never
 * through src/domain/legacyRecords.ts, which is what they check.
 */

type Raw = Record<string, unknown>;

const OLD_ADDRESS: Readonly<Record<string, string>> = { address1: 'street1', address2: 'street2', zipCode: 'postalCode', contactPerson: 'contactName', phoneNumber: 'phone' };
const OLD_QUOTE: Readonly<Record<string, string>> = { pickupAddress: 'origin', deliveryAddress: 'destination', requiredPickupDate: 'pickupDate' };
const OLD_SHIPMENT: Readonly<Record<string, string>> = {
  pickupAddress: 'shipper',
  deliveryAddress: 'consignee',
  requiredPickupDate: 'pickupDate',
  totalPriceInCents: 'quotedPriceInCents',
  orderStatus: 'status',
};

function renamed(value: Raw, names: Readonly<Record<string, string>>): Raw {
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [names[key] ?? key, item]));
}

export function oldAddress(address: unknown): unknown {
  return address && typeof address === 'object' ? renamed(address as Raw, OLD_ADDRESS) : address;
}

/** A quote (or a booking's own quote) as an older shipper stored it. */
export function oldQuote(quote: object): Raw {
  const value = quote as Raw;
  return renamed({ ...value, pickupAddress: oldAddress(value.pickupAddress), deliveryAddress: oldAddress(value.deliveryAddress) }, OLD_QUOTE);
}

/**
 * A shipment as an older shipper stored it: `status` BOOKED (or CANCELLED), with the tracking
 * status given, or none at all (a record older than tracking).
 */
export function oldShipment(shipment: object, status: 'BOOKED' | 'CANCELLED', trackingStatus?: string): Raw {
  const value = { ...(shipment as Raw) };
  delete value.trackingStatus;
  const terms = value.freightChargeTerms as Raw | null | undefined;
  const upgradedParts: Raw = {
    ...value,
    orderStatus: status,
    pickupAddress: oldAddress(value.pickupAddress),
    deliveryAddress: oldAddress(value.deliveryAddress),
    ...(terms ? { freightChargeTerms: { ...terms, billTo: oldAddress(terms.billTo) } } : {}),
    ...(value.quote && typeof value.quote === 'object' ? { quote: oldQuote(value.quote) } : {}),
  };
  const old = renamed(upgradedParts, OLD_SHIPMENT);
  if (trackingStatus !== undefined) old.trackingStatus = trackingStatus;
  return old;
}
