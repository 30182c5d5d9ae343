/**
 * Idempotency records: one per key and scope, holding the hash of the request body and the
 * resource it created, so the same key and body answer that resource again and the same key
 * with another body is refused (409 idempotency_key_conflict). Shipment records also hold the serial of the booking.
 * They are kept by the store (its idempotency port); these are the rules around them.
 */
import { hash } from 'node:crypto';
import { canonicalJson } from '../../domain/canonicalJson.js';
import type { IdempotencyReads, IdempotencyRecord, IdempotencyScope } from '../../store/ports.js';
import { idempotencyKeyReused } from '../problems.js';

export type { IdempotencyRecord, IdempotencyScope };

/** A hash of the request that ignores key order, so a re-sent body matches itself. */
export function requestHash(raw: unknown): string {
  return hash('sha256', canonicalJson(raw), 'hex');
}

/**
 * The hashes a shipment request is recognised by: first with its order components in any order
 * (the same freight; an import file whose rows of a shipment were sorted again books nothing
 * new), then as sent, which records written before this rule hold. New records store the first.
 */
export function shipmentRequestHashes(raw: unknown): string[] {
  const hashes = [shipmentRequestHash(raw), requestHash(raw)];
  // Records written before the published names (issue 40) hold the hashes of the same request in
  // the names of that time: a file imported then, imported again, is recognised, not refused (409).
  const before = inEarlierNames(raw);
  if (before !== raw) for (const earlier of [shipmentRequestHash(before), requestHash(before)]) if (!hashes.includes(earlier)) hashes.push(earlier);
  return hashes;
}

const EARLIER_REQUEST_NAMES: Readonly<Record<string, string>> = { pickupAddress: 'shipper', deliveryAddress: 'consignee', requiredPickupDate: 'pickupDate' };
const EARLIER_ADDRESS_NAMES: Readonly<Record<string, string>> = {
  address1: 'street1',
  address2: 'street2',
  zipCode: 'postalCode',
  contactPerson: 'contactName',
  phoneNumber: 'phone',
};

/** A shipment request in the names it had before the published wire (the body as sent, if no name changes). */
function inEarlierNames(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  const request = raw as Record<string, unknown>;
  if (!Object.keys(request).some((key) => key in EARLIER_REQUEST_NAMES || key === 'freightChargeTerms' || key === 'cod')) return raw;
  const address = (value: unknown) =>
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).map(([key, item]) => [EARLIER_ADDRESS_NAMES[key] ?? key, item]))
      : value;
  const nested = (value: unknown, member: string) =>
    typeof value === 'object' && value !== null && !Array.isArray(value) && member in value ? { ...value, [member]: address((value as Record<string, unknown>)[member]) } : value;
  return Object.fromEntries(
    Object.entries(request).map(([key, value]) => [
      EARLIER_REQUEST_NAMES[key] ?? key,
      key === 'pickupAddress' || key === 'deliveryAddress'
        ? address(value)
        : key === 'freightChargeTerms'
          ? nested(value, 'billTo')
          : key === 'cod'
            ? nested(value, 'remitTo')
            : value,
    ]),
  );
}

/** The first of shipmentRequestHashes, the one new records store. */
export function shipmentRequestHash(raw: unknown): string {
  if (typeof raw !== 'object' || raw === null || !Array.isArray((raw as { orderComponents?: unknown }).orderComponents)) return requestHash(raw);
  const components = (raw as { orderComponents: unknown[] }).orderComponents.map((component) => canonicalJson(component)).sort();
  return requestHash({ ...raw, orderComponents: components });
}

/**
 * The record of an earlier request with this key, if any; the same key with another body (none of
 * its `hashes`) is a 409. The hashes are worked out only when there is a record to compare.
 */
export async function findIdempotent(
  records: IdempotencyReads,
  scope: IdempotencyScope,
  key: string,
  hashes: string | readonly string[] | (() => string | readonly string[]),
): Promise<IdempotencyRecord | undefined> {
  const record = await records.get(scope, key);
  if (!record) return undefined;
  const expected = typeof hashes === 'function' ? hashes() : hashes;
  if (!(typeof expected === 'string' ? [expected] : expected).includes(record.requestHash)) throw idempotencyKeyReused(key);
  return record;
}
