/**
 * What `JSON.parse(JSON.stringify(value))` gives, without writing and reading the text: the check
 * that a record reads back (records.ts) runs on every quote and booking, and the text round trip
 * cost more than the schema's own check of the record. Plain data is copied as JSON would leave
 * it (a non-finite number becomes null, -0 becomes 0, an undefined property is dropped and an
 * undefined array item becomes null); anything else (a Date or any toJSON, a bigint, a Map, a
 * `__proto__` key, a cycle, a top-level undefined) goes through JSON itself, so the result, or the
 * error, is always JSON's own. Pure.
 */

const NOT_PLAIN: unique symbol = Symbol('not plain JSON data');
/** Deeper than any record: past it JSON decides (a cycle is its TypeError, not a stack overflow here). */
const MAX_DEPTH = 64;

export function jsonCopy(value: unknown): unknown {
  const copied = copy(value, 0);
  // Nothing to write (undefined, a function) is JSON's SyntaxError.
  return copied === NOT_PLAIN || copied === undefined ? JSON.parse(JSON.stringify(value) as string) : copied;
}

/** The copy, `undefined` where JSON leaves the value out, or NOT_PLAIN where JSON itself must decide. */
function copy(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? (value === 0 ? 0 : value) : null;
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    case 'object':
      break;
    default:
      return NOT_PLAIN; // bigint: JSON throws
  }
  if (value === null) return null;
  if (depth >= MAX_DEPTH || typeof (value as { toJSON?: unknown }).toJSON === 'function') return NOT_PLAIN;
  if (Array.isArray(value)) {
    const items = new Array<unknown>(value.length);
    for (let index = 0; index < value.length; index++) {
      const item = copy(value[index], depth + 1);
      if (item === NOT_PLAIN) return NOT_PLAIN;
      items[index] = item === undefined ? null : item;
    }
    return items;
  }
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return NOT_PLAIN;
  const object: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (key === '__proto__') return NOT_PLAIN;
    const item = copy((value as Record<string, unknown>)[key], depth + 1);
    if (item === NOT_PLAIN) return NOT_PLAIN;
    if (item !== undefined) object[key] = item;
  }
  return object;
}

/**
 * Whether JSON leaves the value as it is (`JSON.parse(JSON.stringify(value))` would be equal to it,
 * key for key and in the same order): plain objects and arrays of strings, booleans, null and
 * finite numbers other than -0, without an undefined member or item (nor a function or symbol),
 * a toJSON, a `__proto__` key or an object without a prototype, at most MAX_DEPTH deep. Then
 * checking the value is checking its JSON copy, without making it. Conservative: `false` for
 * anything JSON might change (an inherited enumerable member, too, is looked at). Pure, and
 * allocates nothing.
 */
export function keptByJson(value: unknown, depth = 0): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0);
    case 'object':
      break;
    default:
      return false;
  }
  if (value === null) return true;
  if (depth >= MAX_DEPTH || typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) if (!keptByJson(value[index], depth + 1)) return false;
    return true;
  }
  // An object without a prototype too: its copy would have one.
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  for (const key in value) {
    if (key === '__proto__' || !keptByJson((value as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return true;
}
