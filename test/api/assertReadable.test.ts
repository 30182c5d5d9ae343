/**
 * No number is spent on a record that could not be read back: assertReadable checks the record a
 * booking would write against the schema the store reads it with (JSON round trip included).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalApi } from '../../src/api/local.js';
import { assertReadable } from '../../src/api/local/bookingChecks.js';
import { assertQuoteReadable } from '../../src/api/local/quotes.js';
import type { Quote } from '../../src/domain/schemas.js';
import { ProblemError } from '../../src/api/problems.js';
import { tempDir } from '../helpers/cli.js';
import { CHICAGO_DC, NYC_STORE, PALLETS } from '../helpers/fixtures.js';
import { storedShipment } from '../helpers/storedShipments.js';

let work: Awaited<ReturnType<typeof tempDir>>;
let record: Record<string, unknown>;
let quote: Quote;
beforeAll(async () => {
  work = await tempDir('shipper-readable-');
  const api = new LocalApi({ storeDir: work.dir });
  const { data } = await api.createShipment({ shipper: CHICAGO_DC, consignee: NYC_STORE, orderComponents: [PALLETS] });
  record = await storedShipment(work.dir, data.id);
  const quoted = await api.createQuote({ origin: { postalCode: CHICAGO_DC.postalCode }, destination: { postalCode: NYC_STORE.postalCode }, orderComponents: [PALLETS] });
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
    assertReadable(shipment, ownQuote as Quote | undefined);
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
      { ...record, quotedPriceInCents: Number.POSITIVE_INFINITY },
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
