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
  // No prototype: a member named __proto__ is kept as one, not taken as the object's prototype.
  const sorted: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(value).sort()) sorted[key] = (value as Record<string, unknown>)[key];
  return sorted;
}
