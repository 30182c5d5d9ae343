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
  for (const key of Object.keys(request).sort()) {
    const member = request[key];
    if (key === 'orderComponents') {
      const components = Array.isArray(member) ? member : [];
      asWritten.orderComponents = components.map((component) => canonicalJson(component)).sort();
      continue;
    }
    const name = (key === 'shipper' || key === 'consignee') && typeof member === 'object' && member !== null ? locationNames.get(member) : undefined;
    setMember(asWritten, key, name !== undefined ? { savedLocation: name } : member);
  }
  // A request without components is written with an empty list of them (canonicalJson puts it in its place).
  if (!('orderComponents' in asWritten)) asWritten.orderComponents = [];
  const digest = hash('sha256', canonicalJson(asWritten), 'buffer');
  // One entry per shipment of the file, counted under the digest (its first 128 bits) in typed arrays.
  const occurrence = (occurrences.get(digest)?.[0] ?? 0) + 1;
  occurrences.set(digest, [occurrence]);
  return `shipper-import:v2:${digest.toString('hex')}#${occurrence}`;
}
