/**
 * The idempotency key of a shipment of an import file, and the canonical text it hashes. Pure
 * (apart from counting occurrences in the table it is given).
 */
import { hash } from 'node:crypto';
import { canonicalJson, setMember } from '../domain/canonicalJson.js';
import type { DigestTable } from './digestTable.js';

/**
 * The idempotency key of a shipment of the file: what the file says of the order, not the file's
 * bytes. The shipment request as the file writes it (saved locations by name, numbers as numbers,
 * components in any order) is hashed, and the n-th identical order of one file gets `#n`. So the
 * same orders exported again, with rows added, saved with another delimiter or line ending, or in
 * another row order, have the same keys, and the API answers the shipments booked the first time.
 *
 * The text hashed is, by definition, canonicalJson of the request as written, with each component
 * replaced by its own canonicalJson and those sorted (keys of earlier versions must not change:
 * a re-import recognises its shipments by them). The request's objects are built with their keys
 * in order (shipmentRows.ts), which canonicalJson then writes without copying them.
 */
export function importKeyOf(request: Record<string, unknown>, occurrences: DigestTable, locationNames: WeakMap<object, string>): string {
  // Members in sorted order, so that canonicalJson writes this object as it is, without a sorted copy.
  const asWritten: Record<string, unknown> = {};
  const legacy = (key: string) => LEGACY_REQUEST_NAMES[key] ?? key;
  for (const key of Object.keys(request).sort((a, b) => (legacy(a) < legacy(b) ? -1 : legacy(a) > legacy(b) ? 1 : 0))) {
    const isParty = key === 'pickupAddress' || key === 'deliveryAddress';
    const member = isParty ? request[key] : legacyMember(key, request[key]);
    if (key === 'orderComponents') {
      const components = Array.isArray(member) ? member : [];
      asWritten.orderComponents = components.map((component) => canonicalJson(component)).sort();
      continue;
    }
    const name = isParty && typeof member === 'object' && member !== null ? locationNames.get(member) : undefined;
    setMember(asWritten, legacy(key), name !== undefined ? { savedLocation: name } : isParty ? legacyAddress(member) : member);
  }
  // A request without components is written with an empty list of them (canonicalJson puts it in its place).
  if (!('orderComponents' in asWritten)) asWritten.orderComponents = [];
  const digest = hash('sha256', canonicalJson(asWritten), 'buffer');
  // One entry per shipment of the file, counted under the digest (its first 128 bits) in typed arrays.
  const occurrence = (occurrences.get(digest)?.[0] ?? 0) + 1;
  occurrences.set(digest, [occurrence]);
  return `shipper-import:v2:${digest.toString('hex')}#${occurrence}`;
}

/**
 * The names the request's fields had before the published wire (issue 40): the text hashed keeps
 * them, so that a file imported before it is still recognised (its keys would change otherwise).
 */
const LEGACY_REQUEST_NAMES: Readonly<Record<string, string>> = { pickupAddress: 'shipper', deliveryAddress: 'consignee', requiredPickupDate: 'pickupDate' };
const LEGACY_ADDRESS_NAMES: Readonly<Record<string, string>> = {
  address1: 'street1',
  address2: 'street2',
  zipCode: 'postalCode',
  contactPerson: 'contactName',
  phoneNumber: 'phone',
};

/** An address (whatever fields it has) in its old names (canonicalJson sorts the copy); anything but an object as it is. */
function legacyAddress(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [LEGACY_ADDRESS_NAMES[key] ?? key, item]));
}

/** The addresses nested in the carrier's part (a bill-to, a COD's remit-to) in their old names. */
function legacyMember(key: string, value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (key === 'freightChargeTerms' && 'billTo' in value) return { ...value, billTo: legacyAddress((value as { billTo: unknown }).billTo) };
  if (key === 'cod' && 'remitTo' in value) return { ...value, remitTo: legacyAddress((value as { remitTo: unknown }).remitTo) };
  return value;
}
