/**
 * JSON with object keys sorted and undefined members left out: two objects with the same content
 * serialise to the same text whatever order their keys were set in (hashes of requests, stored in
 * idempotency records: the text must never change).
 *
 * It is exactly `JSON.stringify(value, replacer)` with a replacer that re-inserts each object's
 * keys sorted, which this was first: a JavaScript object lists integer keys ("2", "10") first in
 * numeric order, then the others in the order given, so that is the order here too. Written out by
 * hand because the replacer built a sorted copy of every object, a third of an import's hashing.
 */
export function canonicalJson(value: unknown): string {
  return write(value, '') ?? 'null';
}

/** An array index as a property key: what JavaScript enumerates first, in numeric order. */
const INDEX_KEY = /^(?:0|[1-9]\d*)$/;
const isIndexKey = (key: string) => INDEX_KEY.test(key) && Number(key) < 4294967295;

function write(input: unknown, key: string): string | undefined {
  let value = input;
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON: (key: string) => unknown }).toJSON(key);
  }
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      // As JSON.stringify: a BigInt has no JSON form.
      return JSON.stringify(value);
    case 'object':
      break;
    default:
      return undefined;
  }
  if (value === null) return 'null';
  if (value instanceof Number || value instanceof String || value instanceof Boolean) return JSON.stringify(value);
  if (Array.isArray(value)) {
    const parts: string[] = [];
    for (let index = 0; index < value.length; index++) parts.push(write(value[index], String(index)) ?? 'null');
    return `[${parts.join(',')}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  const indexKeys = keys.filter(isIndexKey);
  const ordered = indexKeys.length === 0 ? keys : [...indexKeys.sort((a, b) => Number(a) - Number(b)), ...keys.filter((name) => !isIndexKey(name))];
  const parts: string[] = [];
  for (const name of ordered) {
    const text = write(record[name], name);
    if (text !== undefined) parts.push(`${JSON.stringify(name)}:${text}`);
  }
  return `{${parts.join(',')}}`;
}
