/**
 * Fuzz through the schemas alone (no store, no HTTP): valid requests parse to what they say,
 * invalid ones give violations that each resolve in the input and name what was mutated. The
 * cheapest target, so the one with the most runs. Runs, seeds: see arbitraries.ts.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { quoteRequestSchema, shipmentRequestSchema, transitRequestSchema } from '../../src/domain/schemas.js';
import { formatFieldPath, parseRequest } from '../../src/domain/validation.js';
import {
  fuzzParameters,
  mutatedArb,
  QUOTE_RULES,
  quoteRequestArb,
  SHIPMENT_RULES,
  shipmentRequestArb,
  Tally,
  timeoutOf,
  TRANSIT_RULES,
  transitRequestArb,
  type Json,
  type Mutated,
} from './arbitraries.js';
import { expectedAddress, expectedCarrierFields, expectedComponent, expectProblemAbout, resolveField } from './oracle.js';
import { constraintViolation } from '../../src/api/problems.js';

const tally = new Tally('schemas');

/**
 * Whether the schema alone must refuse it: an accessorial code of capitals passes the schema's
 * pattern whatever its length, and is refused by the tariff (the engine's tests hold it to that).
 */
function refusedBySchema(mutated: Mutated): boolean {
  return mutated.mutations.some((mutation) => mutation.survived && mutation.certain && mutation.stage === 'schema');
}
afterAll(() => tally.flush());

const targets = [
  { name: 'QuoteRequest', schema: quoteRequestSchema, valid: quoteRequestArb, rules: QUOTE_RULES },
  { name: 'ShipmentRequest', schema: shipmentRequestSchema, valid: shipmentRequestArb(), rules: SHIPMENT_RULES },
  { name: 'TransitRequest', schema: transitRequestSchema, valid: transitRequestArb, rules: TRANSIT_RULES },
] as const;

describe.each(targets)('$name', ({ schema, valid, rules }) => {
  it(
    'parses every valid request',
    () => {
      fc.assert(
        fc.property(valid, (request) => {
          tally.add('valid');
          const parsed = parseRequest(schema, request);
          expect(parsed.ok, JSON.stringify(parsed).slice(0, 1000)).toBe(true);
        }),
        fuzzParameters(300),
      );
    },
    timeoutOf(3_000),
  );

  it(
    'refuses an invalid request with violations that resolve in it and name what was mutated',
    () => {
      fc.assert(
        fc.property(mutatedArb(valid, rules), (mutated) => {
          tally.add('invalid');
          const parsed = parseRequest(schema, mutated.request);
          if (refusedBySchema(mutated)) expect(parsed.ok, `accepted ${JSON.stringify(mutated.mutations)}`).toBe(false);
          if (!parsed.ok) expectProblemAbout(constraintViolation(parsed.violations).problem, { input: mutated.request, mutated });
        }),
        fuzzParameters(500),
      );
    },
    timeoutOf(5_000),
  );
});

it(
  'ShipmentRequest: the parsed request says what was sent (trimmed, upper-case state and SCAC, 5-digit ZIPs, defaults)',
  () => {
    fc.assert(
      fc.property(shipmentRequestArb(), (request: Json) => {
        tally.add('valid');
        const parsed = shipmentRequestSchema.parse(request);
        expect(parsed.pickupAddress).toEqual(expectedAddress(request.pickupAddress as Json));
        expect(parsed.deliveryAddress).toEqual(expectedAddress(request.deliveryAddress as Json));
        (request.orderComponents as Json[]).forEach((component, index) => expect(parsed.orderComponents[index]).toEqual(expectedComponent(component)));
        for (const [field, value] of Object.entries(expectedCarrierFields(request))) expect(parsed[field as keyof typeof parsed], field).toEqual(value);
      }),
      fuzzParameters(200),
    );
  },
  timeoutOf(3_000),
);

describe('counterexamples the properties found (kept as plain examples)', () => {
  const valid = {
    pickupAddress: { zipCode: '60601' },
    deliveryAddress: { zipCode: '10001' },
    orderComponents: [{ palletCount: 1, poundsWeight: 100, dimensions: { length: 40, width: 40, height: 40 } }],
  };

  it('writes a key that is not a plain name in brackets as a JSON string, so that the field reads back one way', () => {
    const input = { ...valid, 'a.b': 1, ' ': 2, 'zz\u0000': 3, orderComponents: [{ ...valid.orderComponents[0], '': 4 }] };
    const parsed = parseRequest(quoteRequestSchema, input);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.violations).toEqual([
      { field: 'orderComponents[0][""]', reason: 'unknown field ""' },
      { field: '["a.b"]', reason: 'unknown field "a.b"' },
      { field: '[" "]', reason: 'unknown field " "' },
      { field: '["zz\\u0000"]', reason: 'unknown field "zz\\u0000"' },
    ]);
    // Before: `a.b`, ` `, `zz<NUL>` and `orderComponents[0].`: a path that named another field, or none.
    expect(parsed.violations.map((violation) => resolveField(input, violation.field))).toEqual(Array(4).fill({ ok: true, how: 'value' }));
    // Plain names, tariff keys such as `85` and dashes stay as they were.
    expect(formatFieldPath(['ratesPerCwtInCents', '85', 2])).toBe('ratesPerCwtInCents.85[2]');
    expect(formatFieldPath(['orderComponents', 0, 'dimensions', 'height'])).toBe('orderComponents[0].dimensions.height');
    expect(formatFieldPath(['x-extension'])).toBe('x-extension');
    expect(formatFieldPath([])).toBe('(body)');
  });

  it('refuses an order component that is a list as a whole, not for dimensions a list cannot have', () => {
    // Before: also "dimensions are required" on orderComponents[0].dimensions, a path that does not exist.
    for (const schema of [quoteRequestSchema, shipmentRequestSchema]) {
      const parsed = parseRequest(schema, { ...valid, orderComponents: [[]] });
      expect(parsed.ok).toBe(false);
      if (!parsed.ok)
        expect(parsed.violations.filter((violation) => violation.field.startsWith('orderComponents'))).toEqual([
          { field: 'orderComponents[0]', reason: 'expected object, received array' },
        ]);
    }
  });
});
