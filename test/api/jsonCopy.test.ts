/**
 * jsonCopy is JSON.parse(JSON.stringify(x)) without the text: the same value (deep, key order
 * included) for plain data, and JSON's own answer or error for anything else.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonCopy, keptByJson } from '../../src/api/local/jsonCopy.js';

const viaText = (value: unknown) => JSON.parse(JSON.stringify(value) as string) as unknown;

describe('jsonCopy', () => {
  it('copies plain data as JSON leaves it', () => {
    const record = {
      id: 'qt_1',
      price: 51095,
      nan: Number.NaN,
      infinite: [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1.5],
      gone: undefined,
      fn: () => 1,
      nested: { b: 2, a: [undefined, null, 'x', { c: undefined, 10: 'ten', 2: 'two' }], flag: false },
      sparse: [1, , 3], // eslint-disable-line no-sparse-arrays
      nothing: null,
      bare: Object.assign(Object.create(null) as object, { z: 1 }),
    };
    const copied = jsonCopy(record);
    expect(copied).toEqual(viaText(record));
    expect(JSON.stringify(copied)).toBe(JSON.stringify(record));
    expect(Object.keys((copied as { nested: object }).nested)).toEqual(['b', 'a', 'flag']);
    expect(copied).not.toBe(record);
  });

  it('turns -0 into 0, as JSON does', () => {
    expect(Object.is(jsonCopy(-0), 0)).toBe(true);
    expect(Object.is((jsonCopy({ cents: -0 }) as { cents: number }).cents, 0)).toBe(true);
  });

  it('leaves what is not plain data to JSON: toJSON, Dates, boxed values, a __proto__ key', () => {
    const at = new Date('2026-11-25T04:00:00Z');
    for (const value of [
      { at },
      { amount: { toJSON: () => 'twelve' } },
      [new Number(3), new String('s'), new Boolean(false)],
      JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as unknown,
      new Map([[1, 2]]),
      'text',
      true,
    ]) {
      expect(jsonCopy(value)).toEqual(viaText(value));
    }
    expect(jsonCopy({ at })).toEqual({ at: '2026-11-25T04:00:00.000Z' });
    expect(Object.getPrototypeOf(jsonCopy(JSON.parse('{"__proto__": {"polluted": true}}')))).toBe(Object.prototype);
  });

  it('throws what JSON throws: a bigint, a cycle, a top-level undefined', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(() => jsonCopy({ big: 1n })).toThrow(TypeError);
    expect(() => jsonCopy(cyclic)).toThrow(TypeError);
    expect(() => jsonCopy(undefined)).toThrow(SyntaxError);
  });
});

describe('keptByJson', () => {
  /** The value and its JSON copy alike, key order and -0 included. */
  const same = (a: unknown, b: unknown): boolean => {
    if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return Object.is(a, b);
    if (Array.isArray(a) !== Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
    const keys = Object.keys(a);
    return JSON.stringify(keys) === JSON.stringify(Object.keys(b)) && keys.every((key) => same((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
  };
  const copyOf = (value: unknown): unknown => {
    try {
      return JSON.parse(JSON.stringify(value) as string);
    } catch {
      return Symbol('no copy');
    }
  };

  it('says yes only when the JSON copy would be the value itself', () => {
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withBoxedValues: true, withSparseArray: true, withDate: true, withMap: true, withBigInt: true }), (value) => {
        if (keptByJson(value)) expect(same(copyOf(value), value)).toBe(true);
      }),
      { numRuns: 1000 },
    );
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        // An own "__proto__" key is answered no on purpose (the safe answer: the record is then
        // read back from its JSON copy, as before).
        const expected = JSON.stringify(value)?.includes('"__proto__":') ? false : same(copyOf(value), value);
        // What JSON.parse gives, JSON keeps (but -0, which it writes 0).
        expect(keptByJson(value)).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('says no to what JSON changes or refuses', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    for (const value of [
      Number.NaN,
      Infinity,
      -0,
      undefined,
      [undefined],
      { a: undefined },
      { f: () => 1 },
      Object.assign(new Array<number>(3), { 0: 1, 2: 3 }),
      { at: new Date(0) },
      { big: 1n },
      cyclic,
      new Map(),
      JSON.parse('{"__proto__": {}}') as unknown,
    ]) {
      expect(keptByJson(value)).toBe(false);
    }
    expect(keptByJson({ a: [1, 'b', null, true, { c: 2.5 }] })).toBe(true);
  });
});
