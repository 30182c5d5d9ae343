import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/domain/canonicalJson.js';

/** The first implementation, whose text the stored idempotency records' hashes were made from. */
function reference(value: unknown): string {
  return (
    JSON.stringify(value, (_key: string, item: unknown) => {
      if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
      const sorted: Record<string, unknown> = {};
      for (const key of Object.keys(item).sort()) sorted[key] = (item as Record<string, unknown>)[key];
      return sorted;
    }) ?? 'null'
  );
}

describe('canonicalJson', () => {
  it('sorts keys at every depth and leaves out undefined members', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: undefined }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"z":1}]},"b":1}');
  });

  it('writes what JSON.stringify writes for the odd values: NaN, Infinity, undefined in arrays, dates, -0', () => {
    const date = new Date('2026-11-25T00:00:00Z');
    expect(canonicalJson([NaN, Infinity, undefined, () => 1, date, -0])).toBe(reference([NaN, Infinity, undefined, () => 1, date, -0]));
    expect(canonicalJson(undefined)).toBe('null');
    expect(() => canonicalJson({ n: 1n })).toThrow(TypeError);
  });

  it('orders integer keys as a JavaScript object lists them ("2" before "10", both before "a")', () => {
    const value = { a: 1, '10': 2, '2': 3, '01': 4, '4294967295': 5 };
    expect(canonicalJson(value)).toBe(reference(value));
  });

  it('is the reference text for any JSON value (the hashes of stored records stay the same)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.object({ key: fc.oneof(fc.string(), fc.integer({ min: 0, max: 100 }).map(String)) }), (json, object) => {
        expect(canonicalJson(json)).toBe(reference(json));
        expect(canonicalJson(object)).toBe(reference(object));
      }),
      { numRuns: 500 },
    );
  });
});
