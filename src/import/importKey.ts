/**
 * The idempotency key of a shipment of an import file, and the canonical text it hashes. Pure
 * (apart from counting occurrences in the table it is given).
 */
import { hash } from 'node:crypto';
import { canonicalJson } from '../domain/canonicalJson.js';
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
 * a re-import recognises its shipments by them). canonicalText writes the same text.
 */
export function importKeyOf(request: Record<string, unknown>, occurrences: DigestTable, locationNames: WeakMap<object, string>): string {
  // Members in sorted order, so that this object needs no sorted copy (see canonicalText).
  const asWritten: Record<string, unknown> = {};
  for (const key of Object.keys(request).sort()) {
    const member = request[key];
    if (key === 'orderComponents') {
      const components = Array.isArray(member) ? member : [];
      asWritten.orderComponents = components.map((component) => canonicalText(component)).sort();
      continue;
    }
    const name = (key === 'shipper' || key === 'consignee') && typeof member === 'object' && member !== null ? locationNames.get(member) : undefined;
    setMember(asWritten, key, name !== undefined ? { savedLocation: name } : member);
  }
  // A request without components is written with an empty list of them (canonicalText puts it in its place).
  if (!('orderComponents' in asWritten)) asWritten.orderComponents = [];
  const digest = hash('sha256', canonicalText(asWritten), 'buffer');
  // One entry per shipment of the file, counted under the digest (its first 128 bits) in typed arrays.
  const occurrence = (occurrences.get(digest)?.[0] ?? 0) + 1;
  occurrences.set(digest, [occurrence]);
  return `shipper-import:v2:${digest.toString('hex')}#${occurrence}`;
}

const NOT_PLAIN: unique symbol = Symbol('not plain data');
/** As canonicalJson's: deeper than that, the definition decides. */
const MAX_DEPTH = 64;

/**
 * canonicalJson(value), byte for byte, at a fraction of its cost when the value's objects already
 * have their keys in sorted order (what shipmentRows.ts builds): those are serialised as they are,
 * and only an object whose keys are out of order is copied sorted. Anything but plain data (a
 * toJSON, a class instance, nesting past MAX_DEPTH) is canonicalJson's own to write.
 */
export function canonicalText(value: unknown): string {
  const sorted = sortedView(value, 0);
  return sorted === NOT_PLAIN ? canonicalJson(value) : (JSON.stringify(sorted) ?? 'null');
}

/** The value itself when it is plain data with every object's keys in order; else a copy sorted where needed, or NOT_PLAIN. */
function sortedView(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_DEPTH || typeof (value as { toJSON?: unknown }).toJSON === 'function') return NOT_PLAIN;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      const view = sortedView(item, depth + 1);
      if (view === NOT_PLAIN) return NOT_PLAIN;
      if (view !== item) (copy ??= value.slice())[index] = view;
    }
    return copy ?? value;
  }
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return NOT_PLAIN;
  const keys = Object.keys(value);
  let asIs = true;
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!;
    if (index > 0 && keys[index - 1]! > key) asIs = false;
    const member = (value as Record<string, unknown>)[key];
    const view = sortedView(member, depth + 1);
    if (view === NOT_PLAIN) return NOT_PLAIN;
    if (view !== member) asIs = false;
  }
  if (asIs) return value;
  const copy: Record<string, unknown> = {};
  for (const key of keys.sort()) setMember(copy, key, sortedView((value as Record<string, unknown>)[key], depth + 1));
  return copy;
}

function setMember(object: Record<string, unknown>, key: string, member: unknown): void {
  // A member named __proto__ is defined as one, not taken as the object's prototype (as canonicalJson does).
  if (key === '__proto__') Object.defineProperty(object, key, { value: member, enumerable: true, writable: true, configurable: true });
  else object[key] = member;
}
