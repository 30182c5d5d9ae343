import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/domain/canonicalJson.js';

describe('canonicalJson', () => {
  it('sorts keys at every depth and leaves out undefined members', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: undefined }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"z":1}]},"b":1}');
    expect(canonicalJson(undefined)).toBe('null');
  });

  it('keeps a member named __proto__ (two bodies that differ only there do not hash alike)', () => {
    const body = JSON.parse('{"b":1,"__proto__":{"x":1}}') as unknown;
    expect(canonicalJson(body)).toBe('{"__proto__":{"x":1},"b":1}');
    expect(canonicalJson(body)).not.toBe(canonicalJson({ b: 1 }));
  });

  it('gives the same text for the same content whatever order the keys were set in', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.oneof(fc.string(), fc.constant('__proto__')), fc.jsonValue()), (record) => {
        const reversed = Object.fromEntries(Object.entries(record).reverse());
        expect(canonicalJson(reversed)).toBe(canonicalJson(record));
        expect(JSON.parse(canonicalJson(record))).toEqual(JSON.parse(JSON.stringify(record)));
      }),
      { numRuns: 300 },
    );
  });
});
