/**
 * JSON with object keys sorted and undefined members left out: two objects with the same content
 * serialise to the same text whatever order their keys were set in (hashes of requests).
 * The native serialiser does the work; the replacer only re-inserts each object's keys in order.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, sortKeys) ?? 'null';
}

function sortKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  // A plain object (one without a prototype is a slow dictionary to V8, a third slower to
  // serialise); a member named __proto__ is defined as one, not taken as the object's prototype.
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const member = (value as Record<string, unknown>)[key];
    if (key === '__proto__') Object.defineProperty(sorted, key, { value: member, enumerable: true, writable: true, configurable: true });
    else sorted[key] = member;
  }
  return sorted;
}
