/**
 * JSON with object keys sorted and undefined members left out: two objects with the same content
 * serialise to the same text whatever order their keys were set in (hashes of requests).
 *
 * The text is, by definition, `JSON.stringify(value, sortKeys)`: the native serialiser, with a
 * replacer that re-inserts each object's keys in order. Plain data (what requests are) is
 * serialised without a replacer, which writes the same text at half the cost (the serialiser
 * calls a replacer back for every value): as it is where every object's keys are in order already
 * (what the import builds), else with a copy of the objects that are not. Anything else (a toJSON,
 * a class instance, a boxed primitive, nesting past MAX_DEPTH or a cycle) goes through the
 * definition itself, so the text, or the error, is always its own.
 */
export function canonicalJson(value: unknown): string {
  const sorted = sortedView(value, 0);
  if (sorted === NOT_PLAIN) return JSON.stringify(value, sortKeys) ?? 'null';
  return JSON.stringify(sorted) ?? 'null';
}

function sortKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  // A plain object (one without a prototype is a slow dictionary to V8, a third slower to
  // serialise); a member named __proto__ is defined as one, not taken as the object's prototype.
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) setMember(sorted, key, (value as Record<string, unknown>)[key]);
  return sorted;
}

const NOT_PLAIN: unique symbol = Symbol('not plain data');
/** Deeper than any request: past it the definition decides (a cycle included: its own RangeError, as the native serialiser's). */
const MAX_DEPTH = 64;

/**
 * What sortKeys makes of plain data, in one pass: the value itself where every object's keys are
 * in order, else a copy of what is not (its objects' keys sorted); NOT_PLAIN where the definition
 * must decide.
 */
function sortedView(value: unknown, depth: number): unknown {
  // Primitives as they are: the serialiser writes them (or leaves them out) as with the replacer.
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_DEPTH || typeof (value as { toJSON?: unknown }).toJSON === 'function') return NOT_PLAIN;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      const view = sortedView(item, depth + 1);
      if (view === NOT_PLAIN) return NOT_PLAIN;
      if (view !== item) (copy ??= Array.from(value))[index] = view;
    }
    return copy ?? value;
  }
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return NOT_PLAIN;
  const keys = Object.keys(value);
  let inOrder = true;
  for (let index = 1; index < keys.length && inOrder; index++) inOrder = keys[index - 1]! < keys[index]!;
  if (!inOrder) {
    // Out of order: a sorted copy, its members as their own views.
    const sorted: Record<string, unknown> = {};
    for (const key of sortedKeys(keys)) {
      const view = sortedView((value as Record<string, unknown>)[key], depth + 1);
      if (view === NOT_PLAIN) return NOT_PLAIN;
      setMember(sorted, key, view);
    }
    return sorted;
  }
  // In order: the object itself, unless a member's view is a copy.
  let copy: Record<string, unknown> | undefined;
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!;
    const member = (value as Record<string, unknown>)[key];
    const view = sortedView(member, depth + 1);
    if (view === NOT_PLAIN) return NOT_PLAIN;
    if (view !== member && copy === undefined) {
      copy = {};
      for (let earlier = 0; earlier < index; earlier++) setMember(copy, keys[earlier]!, (value as Record<string, unknown>)[keys[earlier]!]);
    }
    if (copy !== undefined) setMember(copy, key, view);
  }
  return copy ?? value;
}

/** Objects with more keys than this are sorted by Array.prototype.sort; fewer (every request's), by insertion. */
const INSERTION_SORT_KEYS = 16;

/**
 * The keys in the order `keys.sort()` gives (by UTF-16 code units, as `<` compares strings; keys
 * are distinct, so stability does not matter), sorted in place. The objects of a request have a
 * handful of keys: an insertion sort of those costs less than the built-in sort's generic
 * comparison, about a fifth of canonicalJson.
 */
function sortedKeys(keys: string[]): string[] {
  if (keys.length > INSERTION_SORT_KEYS) return keys.sort();
  for (let index = 1; index < keys.length; index++) {
    const key = keys[index]!;
    let at = index - 1;
    if (keys[at]! < key) continue;
    while (at >= 0 && keys[at]! > key) {
      keys[at + 1] = keys[at]!;
      at--;
    }
    keys[at + 1] = key;
  }
  return keys;
}

/** Sets a member; one named __proto__ is defined as one, not taken as the object's prototype. */
export function setMember(object: Record<string, unknown>, key: string, member: unknown): void {
  if (key === '__proto__') Object.defineProperty(object, key, { value: member, enumerable: true, writable: true, configurable: true });
  else object[key] = member;
}
