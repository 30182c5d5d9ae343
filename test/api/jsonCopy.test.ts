/**
 * jsonCopy is JSON.parse(JSON.stringify(x)) without the text: the same value (deep, key order
 * included) for plain data, and JSON's own answer or error for anything else.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isJsonData, jsonCopy } from '../../src/api/local/jsonCopy.js';

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

describe('isJsonData', () => {
  it('is true of plain data that JSON leaves as it is: its copy is equal to it, key order and types included', () => {
    const record = { id: 'sh_1', cents: 51095, ratio: 0.25, flag: false, none: null, lines: [{ b: 2, a: [1, 'x', null] }], empty: {}, list: [] };
    expect(isJsonData(record)).toBe(true);
    expect(jsonCopy(record)).toStrictEqual(record);
  });

  it('is false of whatever JSON would change or decide: non-finite numbers, -0, undefined, holes, functions, toJSON, other prototypes, __proto__, bigint, deep nesting', () => {
    let deep: unknown = {};
    for (let depth = 0; depth < 100; depth++) deep = { deep };
    const hole = Object.assign(new Array<number>(3), { 0: 1, 2: 3 });
    for (const value of [
      { cents: Number.NaN },
      [Number.POSITIVE_INFINITY],
      { cents: -0 },
      { gone: undefined },
      [1, undefined],
      hole,
      { fn: () => 1 },
      { at: new Date('2026-11-25T04:00:00Z') },
      { amount: { toJSON: () => 'twelve' } },
      Object.assign(Object.create(null) as object, { z: 1 }),
      new Map([[1, 2]]),
      [new Number(3)],
      JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as unknown,
      { big: 1n },
      { symbol: Symbol('s') },
      deep,
      undefined,
    ]) {
      expect(isJsonData(value)).toBe(false);
    }
  });

  it('implies that jsonCopy gives an equal copy, for any value', () => {
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withBoxedValues: true, withSparseArray: true, withDate: true, withMap: true }), (value) => {
        if (isJsonData(value)) expect(jsonCopy(value)).toStrictEqual(value);
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        // What JSON gives back is such data (but for a member named __proto__, which jsonCopy leaves to JSON).
        const text = JSON.stringify(value);
        expect(isJsonData(JSON.parse(text)) || text.includes('"__proto__"')).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
