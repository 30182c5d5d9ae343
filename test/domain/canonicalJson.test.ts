import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/domain/canonicalJson.js';
import { requestHash, shipmentRequestHash, shipmentRequestHashes } from '../../src/api/local/idempotency.js';

/** The definition of the order: JSON.stringify's replacer that writes each object's keys sorted as Array.prototype.sort does. */
const sortKeys = (_key: string, value: unknown) => {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort())
    Object.defineProperty(sorted, key, { value: (value as Record<string, unknown>)[key], enumerable: true, writable: true, configurable: true });
  return sorted;
};

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

  it('writes what the native serialiser with a key-sorting replacer writes, for any value (toJSON, instances, holes, integer keys, cycles)', () => {
    // The definition: canonicalJson copies plain data sorted and writes it without the replacer.
    const definition = (value: unknown) => JSON.stringify(value, sortKeys) ?? 'null';
    const outcome = (write: () => string) => {
      try {
        return write();
      } catch (error) {
        return `${(error as Error).name}`;
      }
    };
    class Box {
      constructor(
        readonly b = 1,
        readonly a = 2,
      ) {}
    }
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    let deep: unknown = { end: true };
    for (let depth = 0; depth < 100; depth++) deep = { depth, inner: deep };
    const odd = [
      { b: 1, a: { toJSON: () => ({ z: 1, y: 2 }) } },
      // A hole in an array (written null).
      { b: Object.assign(new Array<number>(3), { 0: 1, 2: 3 }), a: new Date('2026-11-23T00:00:00Z') },
      Object.assign(new Array<number>(3), { 0: 1, 2: 3 }),
      { 10: 'ten', 2: 'two', b: 'b', 1.5: 'x', a: undefined, f: () => 1, s: Symbol('s') },
      [undefined, () => 1, Number.NaN, -0, Infinity, new Box(), new String('text'), new Number(2)],
      Object.assign(Object.create(null) as object, { b: 1, a: { d: 1, c: 2 } }),
      JSON.parse('{"b":{"__proto__":{"y":1,"x":2}},"a":1}') as unknown,
      cyclic,
      deep,
      undefined,
      'text',
      null,
      10n,
    ];
    for (const value of odd) expect(outcome(() => canonicalJson(value))).toBe(outcome(() => definition(value)));
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withBoxedValues: true, withSparseArray: true, withDate: true, withMap: true, withObjectString: true }), (value) => {
        expect(outcome(() => canonicalJson(value))).toBe(outcome(() => definition(value)));
      }),
      { numRuns: 1000 },
    );
  });

  it('sorts keys by UTF-16 code units, as Array.prototype.sort does, with few keys and with many (the insertion sort and the built-in one)', () => {
    const key = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 4 }),
      fc.string({ unit: 'grapheme', maxLength: 3 }),
      fc.constantFrom('a', 'a2', 'a10', '10', '2', '\uFF01', '\u{1F600}', '\uFFFF', 'B', '_'),
    );
    fc.assert(
      fc.property(fc.dictionary(key, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 40 }), (record) => {
        expect(canonicalJson(record)).toBe(JSON.stringify(record, sortKeys));
      }),
      { numRuns: 500 },
    );
  });

  it('gives the request hashes that stored idempotency records hold (the text of earlier releases, byte for byte)', () => {
    // Worked out with the canonicalJson and hashes of commit 2ec190f; they must never change. The
    // body is one that release sent (its names before the published wire, issue 40): stored records
    // hold the hashes of such bodies, and canonicalJson must still write their text byte for byte.
    const request = {
      refNumber: 'PO-1',
      shipper: { name: 'Acme "DC"', street1: '2100 S Halsted St', city: 'Chicago', state: 'IL', postalCode: '60608' },
      consignee: { name: 'Zoë\u00e9 Store', street1: '1 Penn Plaza', city: 'New York', state: 'NY', postalCode: '10001', phone: null },
      accessorials: ['LIFTGATE_DELIVERY'],
      orderComponents: [
        { poundsWeight: 500.5, palletCount: 2, dimensions: { width: 40, length: 48, height: 48 }, description: 'Line\n2 \u{1F4E6}', pieceCount: 0 },
        {
          palletCount: 1,
          poundsWeight: 200,
          dimensions: { length: 48, width: 40, height: 36 },
          hazmat: { unNumber: 'UN1203', properShippingName: 'Gasoline', hazardClass: '3', packingGroup: 'II' },
        },
      ],
      emergencyContactPhone: '800-424-9300',
      '\u{1F600}': 1,
      '\uFFFF': 2,
      '\uFF01': 7,
      a10: 3,
      a2: 4,
      10: 'ten',
      2: 'two',
      B: 5,
      _: 6,
      undef: undefined,
    };
    expect(requestHash(request)).toBe('44948e294573e59d80c4fb0d9e214a95c23c63d530d5c98d75c4722701c95b68');
    expect(shipmentRequestHash(request)).toBe('d26f69b77e2bb3af886424f97860c8769c7ee12fbd81722e5d7ff852e9ffa579');
  });

  it('recognises, by those stored hashes, the same request sent in the published names (a file imported before them, imported again)', () => {
    const { shipper, consignee, ...rest } = {
      refNumber: 'PO-1',
      shipper: { name: 'Acme "DC"', street1: '2100 S Halsted St', city: 'Chicago', state: 'IL', postalCode: '60608' },
      consignee: { name: 'Zoë\u00e9 Store', street1: '1 Penn Plaza', city: 'New York', state: 'NY', postalCode: '10001', phone: null },
    };
    const earlier = {
      ...rest,
      shipper,
      consignee,
      pickupDate: '2026-11-27',
      freightChargeTerms: { terms: 'THIRD_PARTY', billTo: { name: 'Payer', street1: '1 Main St', city: 'Dallas', state: 'TX', postalCode: '75207', contactName: 'Al' } },
      orderComponents: [
        { palletCount: 1, poundsWeight: 200, dimensions: { length: 48, width: 40, height: 36 } },
        { palletCount: 2, poundsWeight: 500, dimensions: { length: 48, width: 40, height: 48 } },
      ],
    };
    const now = {
      ...rest,
      pickupAddress: { name: 'Acme "DC"', address1: '2100 S Halsted St', city: 'Chicago', state: 'IL', zipCode: '60608' },
      deliveryAddress: { name: 'Zoë\u00e9 Store', address1: '1 Penn Plaza', city: 'New York', state: 'NY', zipCode: '10001', phoneNumber: null },
      requiredPickupDate: '2026-11-27',
      freightChargeTerms: { terms: 'THIRD_PARTY', billTo: { name: 'Payer', address1: '1 Main St', city: 'Dallas', state: 'TX', zipCode: '75207', contactPerson: 'Al' } },
      orderComponents: [...earlier.orderComponents].reverse(),
    };
    const hashes = shipmentRequestHashes(now);
    expect(hashes.slice(0, 2)).toEqual([shipmentRequestHash(now), requestHash(now)]);
    // What records written then hold: the components in any order (newer records), or as sent (older ones).
    expect(hashes).toContain(shipmentRequestHash(earlier));
    expect(hashes).toContain(requestHash({ ...earlier, orderComponents: now.orderComponents }));
    // Another request in the old names is still another request.
    expect(hashes).not.toContain(shipmentRequestHash({ ...earlier, refNumber: 'PO-2' }));
    expect(shipmentRequestHashes(earlier)).toEqual([shipmentRequestHash(earlier), requestHash(earlier)]);
  });
});

describe('canonicalJson on values of every kind', () => {
  const definition = (value: unknown) => JSON.stringify(value, sortKeys) ?? 'null';

  it("writes the definition's text, byte for byte, keys in order or not, plain or not", () => {
    class Box {
      constructor(readonly value: number) {}
    }
    const withProto = JSON.parse('{"b":1,"__proto__":{"x":1},"a":2}') as unknown;
    const values: unknown[] = [
      null,
      undefined,
      'text "quoted" \\ \n ✓ \ud800',
      0,
      -0,
      1.5e300,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      true,
      [],
      {},
      [1, undefined, 'a', null, () => 1, Symbol('s')],
      { b: 1, a: { d: [3, { z: 1, y: 2 }], c: undefined }, f: () => 1 },
      { a: 1, b: { c: 2, d: [{ e: 3, f: 4 }] } },
      { 10: 'ten', 9: 'nine', a: 'a', B: 'B' },
      withProto,
      Object.assign(Object.create(null) as object, { b: 2, a: 1 }),
      { date: new Date(0), a: 1 },
      { box: new Box(1) },
      { toJSON: () => ({ b: 1, a: 2 }) },
      { nested: { toJSON: () => 'x' }, a: 1 },
      { a: new String('boxed'), b: new Number(2) },
      Array.from({ length: 3 }),
    ];
    for (const value of values) expect(canonicalJson(value)).toBe(definition(value));
    let deep: unknown = { leaf: 1 };
    for (let depth = 0; depth < 70; depth++) deep = { [`k${depth % 3}`]: deep, a: depth };
    expect(canonicalJson(deep)).toBe(definition(deep));
  });

  it('throws the errors the definition throws (a BigInt, a cycle)', () => {
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = cycle;
    const errorOf = (write: () => string): unknown => {
      try {
        return write();
      } catch (error) {
        return error;
      }
    };
    for (const value of [{ a: 1n }, cycle]) {
      const [theirs, mine] = [errorOf(() => definition(value)), errorOf(() => canonicalJson(value))];
      expect(theirs).toBeInstanceOf(Error);
      expect((mine as Error).constructor).toBe((theirs as Error).constructor);
    }
  });
});
