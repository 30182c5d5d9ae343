/**
 * A cached GET of a quote or a shipment answers a JSON text the server kept for the engine's
 * answer object (server.ts KEPT_ANSWERS, quotes.ts answerOnce): the kept text must follow what the
 * answer depends on. The clock turning a quote EXPIRED, a booking on it, and a cancellation of the
 * shipment each change the next GET over HTTP, on one server and one engine that stay up.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalApi } from '../../src/api/local.js';
import { createShipperServer, type ShipperServer } from '../../src/server/server.js';
import { tempDir } from '../helpers/cli.js';
import { CHICAGO_DC, NYC_STORE, PALLETS, shipmentRequest, WEDNESDAY } from '../helpers/fixtures.js';

const QUOTE = {
  pickupAddress: { zipCode: '60601' },
  deliveryAddress: { zipCode: '10001' },
  orderComponents: [{ palletCount: 2, poundsWeight: 1200, dimensions: { length: 48, width: 40, height: 48 } }],
};

describe('kept answers of GET quote and GET shipment', () => {
  let api: LocalApi;
  let clock: { now: Date };
  let server: ShipperServer;
  let base: string;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const store = await tempDir();
    cleanup = store.cleanup;
    // As shipper serve makes it: the record cache on, so that a read answers the same objects.
    clock = { now: new Date(WEDNESDAY) };
    api = new LocalApi({ storeDir: store.dir, now: () => clock.now, cacheEntries: 1000, served: true });
    server = createShipperServer({ api });
    base = `http://127.0.0.1:${(await server.listen(0, '127.0.0.1')).port}`;
  });
  afterAll(async () => {
    await server.close(100);
    await cleanup();
  });

  const get = async (path: string) => {
    const answer = await request(`${base}${path}`);
    const text = await answer.body.text();
    return { status: answer.statusCode, text, json: JSON.parse(text) as Record<string, unknown>, warning: answer.headers['x-shipper-warning'] };
  };

  it('answers the same text while nothing changed, and EXPIRED once the clock passed the quote', async () => {
    const quote = (await api.createQuote(QUOTE)).data;
    const first = await get(`/v1/shipper/quote/${quote.id}`);
    const second = await get(`/v1/shipper/quote/${quote.id}`);
    expect(first.status).toBe(200);
    expect(first.json.status).toBe('OPEN');
    expect(second.text).toBe(first.text);
    expect(second.warning).toEqual(first.warning);

    clock.now = new Date(Date.parse(quote.quoteExpirationTime) + 1000);
    const expired = await get(`/v1/shipper/quote/${quote.id}`);
    expect(expired.json.status).toBe('EXPIRED');
    expect({ ...expired.json, status: 'OPEN' }).toEqual(first.json);
  });

  it('shows a booking on the quote, and the shipment cancelled', async () => {
    clock.now = new Date(WEDNESDAY);
    // The quote of shipmentRequest()'s stops and freight, so that a booking on it matches.
    const quote = (await api.createQuote({ pickupAddress: { zipCode: CHICAGO_DC.zipCode }, deliveryAddress: { zipCode: NYC_STORE.zipCode }, orderComponents: [PALLETS] })).data;
    const open = await get(`/v1/shipper/quote/${quote.id}`);
    expect(open.json).toMatchObject({ status: 'OPEN', bookings: [] });

    const shipment = (await api.createShipment(shipmentRequest({ quoteId: quote.id }))).data;
    const booked = await get(`/v1/shipper/quote/${quote.id}`);
    expect(booked.json).toMatchObject({ status: 'BOOKED', bookings: [{ shipmentId: shipment.id, orderNumber: shipment.orderNumber }] });

    const before = await get(`/v1/shipper/shipment/${shipment.id}`);
    expect((await get(`/v1/shipper/shipment/${shipment.id}`)).text).toBe(before.text);
    await api.cancelShipment(shipment.orderNumber);
    const cancelled = await get(`/v1/shipper/shipment/${shipment.id}`);
    expect(cancelled.json.orderStatus).toBe('CANCELLED');
    expect(before.json.orderStatus).not.toBe('CANCELLED');
    const afterCancel = await get(`/v1/shipper/quote/${quote.id}`);
    expect(afterCancel.json).toMatchObject({ bookings: [{ shipmentId: shipment.id, orderStatus: 'CANCELLED' }] });
    expect(afterCancel.json.status).not.toBe('BOOKED');
  });
});
