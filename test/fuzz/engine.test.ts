/**
 * Fuzz through the engine (LocalApi in this process, on a temporary store, clock fixed at
 * FUZZ_NOW): valid requests always quote, book and read back as sent; invalid ones are always a
 * ProblemError (400, 409 or 422) whose every violation resolves in the input; never anything
 * else thrown. Runs, seeds: see arbitraries.ts.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalApi } from '../../src/api/local.js';
import { ProblemError } from '../../src/api/problems.js';
import type { QuoteRequestInput, ShipmentRequestInput, TransitRequestInput } from '../../src/domain/schemas.js';
import { tempDir } from '../helpers/cli.js';
import {
  FUZZ_NOW,
  fuzzParameters,
  mutatedArb,
  QUOTE_RULES,
  quoteRequestArb,
  quoteRequestFor,
  SHIPMENT_RULES,
  shipmentRequestArb,
  Tally,
  timeoutOf,
  TRANSIT_RULES,
  transitRequestArb,
  type Mutated,
  withUniquePro,
} from './arbitraries.js';
import { expectProblemAbout, expectQuoteAsRequested, expectShipmentAsRequested, expectTransitAsRequested } from './oracle.js';

const tally = new Tally('engine');
let work: { dir: string; cleanup: () => Promise<void> };
let api: LocalApi;

beforeAll(async () => {
  work = await tempDir('shipper-fuzz-engine-');
  api = new LocalApi({ storeDir: work.dir, now: () => new Date(FUZZ_NOW) });
});
afterAll(async () => {
  tally.flush();
  await api.close();
  await work.cleanup();
});

/** The ProblemError an invalid call rejects with; anything else thrown fails the property. */
async function rejection(call: () => Promise<unknown>): Promise<ProblemError | undefined> {
  try {
    await call();
    return undefined;
  } catch (error) {
    if (!(error instanceof ProblemError)) throw new Error(`not a ProblemError: ${error instanceof Error ? error.stack : String(error)}`, { cause: error });
    return error;
  }
}

/** An invalid request: refused as a ProblemDetail about it, or (when no mutation had to break it) accepted. */
async function expectRefusedOrAccepted(mutated: Mutated, call: () => Promise<unknown>): Promise<void> {
  const error = await rejection(call);
  tally.add(error ? 'refused' : 'accepted');
  if (!error) {
    expect(mutated.certain, `accepted although ${JSON.stringify(mutated.mutations)}`).toBe(false);
    return;
  }
  expectProblemAbout(error.problem, { input: mutated.request, mutated });
}

describe('valid requests', () => {
  it(
    'quote, and the quote reads back as answered',
    async () => {
      await fc.assert(
        fc.asyncProperty(quoteRequestArb, async (request) => {
          tally.add('valid quote');
          const { data: quote } = await api.createLaneQuote(request as QuoteRequestInput);
          expectQuoteAsRequested(quote, request);
          expect((await api.getQuote(quote.id)).data).toEqual(quote);
        }),
        fuzzParameters(40),
      );
    },
    timeoutOf(4_000),
  );

  it(
    'book on their quote and quoting first; each shipment reads back exactly as booked and is listed',
    async () => {
      await fc.assert(
        fc.asyncProperty(shipmentRequestArb(), async (request) => {
          tally.add('valid shipment', 2);
          const { data: quote } = await api.createLaneQuote(quoteRequestFor(request) as QuoteRequestInput);
          // A PRO names one shipment of its carrier: each booking gets its own.
          const [first, second] = [withUniquePro(request), withUniquePro(request)];
          const onQuote = await api.createShipment({ ...first, quoteId: quote.id } as ShipmentRequestInput);
          const quoteFirst = await api.createShipment(second as ShipmentRequestInput);
          expect(onQuote.data.quoteId).toBe(quote.id);
          expect(onQuote.data.totalPriceInCents).toBe(quote.quotedPriceInCents);
          for (const [{ data: shipment }, asked] of [
            [onQuote, first],
            [quoteFirst, second],
          ] as const) {
            expectShipmentAsRequested(shipment, asked);
            expect((await api.getShipment(shipment.id)).data).toEqual(shipment);
            expect((await api.listShipments({ bolNumber: shipment.bolNumber })).data.items).toEqual([shipment]);
          }
          const newest = (await api.listShipments({ limit: 2 })).data.items.map((shipment) => shipment.id);
          expect(newest).toEqual([quoteFirst.data.id, onQuote.data.id]);
        }),
        fuzzParameters(25),
      );
    },
    timeoutOf(5_000),
  );

  it(
    'give a transit table of one lane per destination',
    async () => {
      await fc.assert(
        fc.asyncProperty(transitRequestArb, async (request) => {
          tally.add('valid transit');
          expectTransitAsRequested((await api.transitTimes(request as TransitRequestInput)).data, request);
        }),
        fuzzParameters(40),
      );
    },
    timeoutOf(2_000),
  );
});

describe('invalid requests', () => {
  it(
    'quotes: a ProblemError whose violations resolve in the input',
    async () => {
      await fc.assert(
        fc.asyncProperty(mutatedArb(quoteRequestArb, QUOTE_RULES), (mutated) => expectRefusedOrAccepted(mutated, () => api.createLaneQuote(mutated.request as QuoteRequestInput))),
        fuzzParameters(80),
      );
    },
    timeoutOf(3_000),
  );

  it(
    'shipments: a ProblemError whose violations resolve in the input',
    async () => {
      await fc.assert(
        fc.asyncProperty(mutatedArb(shipmentRequestArb(), SHIPMENT_RULES), (mutated) =>
          expectRefusedOrAccepted(mutated, () => api.createShipment(mutated.request as ShipmentRequestInput)),
        ),
        fuzzParameters(80),
      );
    },
    timeoutOf(5_000),
  );

  it(
    'shipment batches and previews: each invalid item is its own ProblemDetail about that item',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(mutatedArb(shipmentRequestArb({ maxLines: 2 }), SHIPMENT_RULES), { minLength: 1, maxLength: 4 }), async (items) => {
          tally.add('invalid batch item', items.length);
          const body = { items: items.map((item) => ({ request: item.request })) };
          for (const call of [() => api.previewShipments(body), () => api.createShipments(body)]) {
            const { data } = await call();
            expect(data.items).toHaveLength(items.length);
            data.items.forEach((outcome, index) => {
              if (outcome.ok) expect(items[index]!.certain, `item ${index} accepted although ${JSON.stringify(items[index]!.mutations)}`).toBe(false);
              else expectProblemAbout(outcome.problem, { input: items[index]!.request, mutated: items[index]! });
            });
          }
        }),
        fuzzParameters(15),
      );
    },
    timeoutOf(5_000),
  );

  it(
    'transit tables: a ProblemError whose violations resolve in the input',
    async () => {
      await fc.assert(
        fc.asyncProperty(mutatedArb(transitRequestArb, TRANSIT_RULES), (mutated) =>
          expectRefusedOrAccepted(mutated, () => api.transitTimes(mutated.request as TransitRequestInput)),
        ),
        fuzzParameters(80),
      );
    },
    timeoutOf(3_000),
  );
});

describe('counterexamples the properties found (kept as plain examples)', () => {
  const quote = (accessorials: string[]) => ({
    pickupAddress: { zipCode: '60601' },
    deliveryAddress: { zipCode: '10001' },
    accessorials,
    orderComponents: [{ palletCount: 1, poundsWeight: 500, dimensions: { length: 48, width: 40, height: 48 } }],
  });

  it('names an unknown accessorial at the index it was sent at, after a repeated code', async () => {
    // Before: accessorials[1], the index in the list without repeats, which held LIFTGATE_PICKUP.
    const error = await rejection(() => api.createLaneQuote(quote(['LIFTGATE_PICKUP', 'LIFTGATE_PICKUP', 'ZZ_UNKNOWN', 'ZZ_UNKNOWN'])));
    expect(error?.problem.violations).toEqual([{ field: 'accessorials[2]', reason: expect.stringMatching(/^unknown accessorial ZZ_UNKNOWN; known: LIFTGATE_PICKUP, /) }]);
  });

  it('still charges a repeated accessorial once and answers it once', async () => {
    const once = (await api.createLaneQuote(quote(['LIFTGATE_DELIVERY']))).data;
    const twice = (await api.createLaneQuote(quote(['LIFTGATE_DELIVERY', 'LIFTGATE_DELIVERY']))).data;
    expect(twice.accessorials).toEqual(['LIFTGATE_DELIVERY']);
    expect(twice.priceBreakdown.accessorialsInCents).toEqual(once.priceBreakdown.accessorialsInCents);
    expect(twice.quotedPriceInCents).toBe(once.quotedPriceInCents);
  });
});
