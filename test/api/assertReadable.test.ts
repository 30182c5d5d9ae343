/**
 * No number is spent on a record that could not be read back: assertReadable checks the record a
 * booking would write against the schema the store reads it with (JSON round trip included).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalApi } from '../../src/api/local.js';
import { assertReadable, BookingChecks, REQUEST_LINE_FIELDS } from '../../src/api/local/bookingChecks.js';
import { IdFactory } from '../../src/api/local/ids.js';
import { jsonCopy } from '../../src/api/local/jsonCopy.js';
import { Quotes } from '../../src/api/local/quotes.js';
import { TariffProvider } from '../../src/api/local/tariffProvider.js';
import { buildShipment } from '../../src/domain/shipment.js';
import { quoteSchema, shipmentSchema, type ShipmentRequest } from '../../src/domain/schemas.js';
import type { Tariff } from '../../src/domain/tariff.js';
import { ZipDirectory } from '../../src/geo/zipDirectory.js';
import { PUBLISHED_LIMITS } from '../../src/domain/publishedLimits.js';
import { FUZZ_NOW, fuzzParameters, shipmentRequestArb } from '../fuzz/arbitraries.js';
import { assertQuoteReadable } from '../../src/api/local/quotes.js';
import type { Quote, Shipment } from '../../src/domain/schemas.js';
import { ProblemError } from '../../src/api/problems.js';
import { tempDir } from '../helpers/cli.js';
import { CHICAGO_DC, NYC_STORE, PALLETS, PUBLISHED_PICKUP, PUBLISHED_NYC } from '../helpers/fixtures.js';
import { storedShipment } from '../helpers/storedShipments.js';

let work: Awaited<ReturnType<typeof tempDir>>;
let record: Record<string, unknown>;
let quote: Quote;
beforeAll(async () => {
  work = await tempDir('shipper-readable-');
  const api = new LocalApi({ storeDir: work.dir });
  const { data } = await api.createShipment({ pickupAddress: PUBLISHED_PICKUP, deliveryAddress: PUBLISHED_NYC, orderComponents: [PALLETS] });
  record = await storedShipment(work.dir, data.id);
  const quoted = await api.createLaneQuote({ pickupAddress: { zipCode: CHICAGO_DC.zipCode }, deliveryAddress: { zipCode: NYC_STORE.zipCode }, orderComponents: [PALLETS] });
  quote = await storedQuote(work.dir, quoted.data.id);
});
afterAll(() => work.cleanup());

/** A quote as the store holds it: a line of a bucket log in `quotes/`. */
async function storedQuote(store: string, id: string): Promise<Quote> {
  for (const name of await readdir(join(store, 'quotes'))) {
    for (const line of (await readFile(join(store, 'quotes', name), 'utf8')).split('\n').filter(Boolean)) {
      const { i, q } = JSON.parse(line) as { i: string; q: Quote };
      if (i === id) return q;
    }
  }
  throw new Error(`no quote ${id} in ${store}`);
}

const refusal = (candidate: unknown) => {
  try {
    const { quote: ownQuote, ...shipment } = candidate as Record<string, unknown>;
    assertReadable(shipment as Shipment, ownQuote as Quote | undefined);
    return undefined;
  } catch (error) {
    return error;
  }
};

describe('assertReadable', () => {
  it('passes the record a booking wrote', () => {
    expect(refusal(record)).toBeUndefined();
  });

  it('refuses, as a 500 that books nothing, a record whose number would not survive JSON (Infinity, NaN) or is missing', () => {
    const components = record.orderComponents as Array<Record<string, unknown>>;
    for (const broken of [
      { ...record, totalPriceInCents: Number.POSITIVE_INFINITY },
      { ...record, miles: Number.NaN },
      { ...record, orderComponents: [{ ...components[0], poundsWeight: Number.NEGATIVE_INFINITY }] },
      { ...record, orderNumber: undefined },
    ]) {
      const error = refusal(broken);
      expect(error).toBeInstanceOf(ProblemError);
      expect((error as ProblemError).status).toBe(500);
      expect((error as ProblemError).message).toMatch(/its record would not read back.*nothing was booked/);
    }
  });
});

describe('assertQuoteReadable', () => {
  const refusalOf = (candidate: Quote) => {
    try {
      assertQuoteReadable(candidate);
      return undefined;
    } catch (error) {
      return error;
    }
  };

  it('passes the quote a quote request wrote', () => {
    expect(refusalOf(quote)).toBeUndefined();
  });

  it('refuses, as a 500 that saves nothing, a quote whose number would not survive JSON', () => {
    for (const broken of [
      { ...quote, quotedPriceInCents: Number.POSITIVE_INFINITY },
      { ...quote, miles: Number.NaN },
      { ...quote, orderComponents: [{ ...quote.orderComponents[0]!, densityPcf: Number.POSITIVE_INFINITY }] },
    ]) {
      const error = refusalOf(broken);
      expect(error).toBeInstanceOf(ProblemError);
      expect((error as ProblemError).status).toBe(500);
      expect((error as ProblemError).message).toMatch(/its record would not read back.*nothing was saved/);
    }
  });
});

/**
 * Given the judged request (as a booking calls it), assertReadable reads the record itself, and
 * not the request's own values (its addresses, its lines' fields): the same verdict as reading
 * the whole JSON copy, on records booked from generated requests, as booked and broken anywhere.
 */
describe('assertReadable given the request', () => {
  const now = () => new Date(FUZZ_NOW);
  const zips = new ZipDirectory();
  const quotes = new Quotes({ store: undefined as never, zips, ids: new IdFactory(), now });
  const checks = new BookingChecks({ zips, quotes, now, limits: PUBLISHED_LIMITS });
  let tariff: Tariff;
  beforeAll(async () => {
    tariff = await new TariffProvider().load();
  });

  /** A booking's record with placeholder numbers and its own quote, as Bookings builds them; undefined when the request does not rate. */
  const booked = (raw: unknown): { request: ShipmentRequest; quote: Quote; shipment: Shipment } | undefined => {
    const checked = checks.check(raw);
    if (!checked.ok) return undefined;
    const rated = quotes.rateForShipment(checked.request, tariff);
    if (!rated.ok) return undefined;
    const shipment = buildShipment({
      id: 'sh_00000000000000000000000000',
      orderNumber: 'SO-000000',
      bolNumber: '00000000000000000',
      ssccs: [],
      request: checked.request,
      quote: rated.value,
      now: now(),
    });
    return { request: checked.request, quote: rated.value, shipment };
  };
  /** The check of before: each record's JSON copy through the store's schema. */
  const fullVerdict = (shipment: unknown, quote: unknown) => shipmentSchema.safeParse(jsonCopy(shipment)).success && quoteSchema.safeParse(jsonCopy(quote)).success;
  const verdict = (shipment: unknown, quote: unknown, request: ShipmentRequest) => {
    try {
      assertReadable(shipment as Shipment, quote as Quote, request);
      return true;
    } catch (error) {
      if (error instanceof ProblemError && error.status === 500) return false;
      throw error;
    }
  };

  it('passes every record booked from a valid request, as reading its JSON copy does', () => {
    fc.assert(
      fc.property(fc.oneof(shipmentRequestArb({ exactAddresses: true }), shipmentRequestArb()), (raw) => {
        const records = booked(raw);
        fc.pre(records !== undefined);
        const { request, quote, shipment } = records!;
        // The request's own values are the record's (what lets the check leave them unread).
        expect(shipment.pickupAddress).toBe(request.pickupAddress);
        for (const [index, line] of shipment.orderComponents.entries()) {
          const [sent, quoted] = [request.orderComponents[index]!, quote.orderComponents[index]!];
          for (const field of REQUEST_LINE_FIELDS) expect(line[field]).toBe(sent[field]);
          // bookedLine (domain/shipment.ts) writes the line member by member: the same members, in the same order, as spreading it.
          const spread = {
            ...sent,
            ...(sent.stackable === undefined && quoted.stackable !== undefined ? { stackable: quoted.stackable } : {}),
            densityPcf: quoted.densityPcf,
            freightClass: quoted.freightClass,
          };
          expect(JSON.stringify(line)).toBe(JSON.stringify(spread));
          expect(Object.keys(line)).toEqual(Object.keys(spread));
        }
        expect(fullVerdict(shipment, quote)).toBe(true);
        expect(verdict(shipment, quote, request)).toBe(true);
      }),
      fuzzParameters(150),
    );
  });

  const BAD = [
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    -0,
    1.5,
    2 ** 60,
    -1,
    undefined,
    null,
    '',
    'x',
    '2026-02-30',
    true,
    {},
    [],
    [Number.NaN],
    { toJSON: () => 1 },
  ] as const;
  /** One member of the record, its quote, one of their lines or nested objects, replaced (copied on the way, the rest shared). */
  const broken = fc.record({
    where: fc.constantFrom('shipment', 'quote'),
    depth: fc.nat({ max: 2 }),
    pick: fc.array(fc.nat(), { minLength: 3, maxLength: 3 }),
    bad: fc.constantFrom(...BAD),
  });
  const replaced = (value: unknown, depth: number, pick: number[], bad: unknown): unknown => {
    if (typeof value !== 'object' || value === null) return bad;
    const keys = Object.keys(value);
    if (keys.length === 0) return bad;
    const key = keys[pick[0]! % keys.length]!;
    const inner = (value as Record<string, unknown>)[key];
    const member = depth > 0 && typeof inner === 'object' && inner !== null ? replaced(inner, depth - 1, pick.slice(1), bad) : bad;
    return Array.isArray(value) ? Object.assign([...value], { [key]: member }) : { ...value, [key]: member };
  };

  it('refuses what reading the JSON copy refuses, a number or a field broken anywhere', () => {
    fc.assert(
      fc.property(fc.oneof(shipmentRequestArb({ exactAddresses: true }), shipmentRequestArb()), broken, (raw, { where, depth, pick, bad }) => {
        const records = booked(raw);
        fc.pre(records !== undefined);
        const { request, quote, shipment } = records!;
        const [brokenShipment, brokenQuote] = where === 'shipment' ? [replaced(shipment, depth, pick, bad), quote] : [shipment, replaced(quote, depth, pick, bad)];
        expect(verdict(brokenShipment, brokenQuote, request)).toBe(fullVerdict(brokenShipment, brokenQuote));
      }),
      fuzzParameters(400),
    );
  });
});
