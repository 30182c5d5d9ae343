/**
 * A file store written by a shipper older than the published wire (issue 40): its records hold
 * the old names (shipper/consignee, origin/destination, street1, postalCode, contactName, phone,
 * pickupDate, quotedPriceInCents) and the booking status BOOKED or CANCELLED beside a tracking
 * status. Today's shipper reads them in the published names, each BOOKED shipment in the order
 * state its carrier events imply (src/domain/legacyRecords.ts through src/store/legacyRead.ts),
 * and leaves the files as they are.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Quote, Shipment } from '../../src/domain/schemas.js';
import { tempDir } from '../helpers/cli.js';
import { apiAt, CHICAGO_DC, shipmentRequest } from '../helpers/fixtures.js';
import { oldQuote, oldShipment } from '../helpers/legacyRecords.js';
import { storedShipment } from '../helpers/storedShipments.js';

let work: { dir: string; cleanup: () => Promise<void> };
beforeAll(async () => {
  work = await tempDir('shipper-legacy-');
});
afterAll(() => work.cleanup());

/** Rewrites every line of the store's logs under `collection`, the record under `field` given to `rewrite`. */
async function rewriteLogs(store: string, collection: string, field: string, rewrite: (record: Record<string, unknown>) => Record<string, unknown>): Promise<void> {
  for (const name of (await readdir(join(store, collection))).filter((entry) => entry.endsWith('.log'))) {
    const file = join(store, collection, name);
    const lines = (await readFile(file, 'utf8')).split('\n');
    const rewritten = lines.map((line) => {
      if (!line) return line;
      const parsed = JSON.parse(line) as Record<string, unknown>;
      return JSON.stringify({ ...parsed, [field]: rewrite(parsed[field] as Record<string, unknown>) });
    });
    await writeFile(file, rewritten.join('\n'));
  }
}

describe('a file store written with the old names', () => {
  // What each shipment was in the old store, and the order state it reads as today.
  const cases = [
    { ref: 'OLD-NONE', status: 'BOOKED', tracking: undefined, expected: 'CONFIRMED' },
    { ref: 'OLD-AT-PICKUP', status: 'BOOKED', tracking: 'AT_PICKUP', expected: 'ASSIGNED' },
    { ref: 'OLD-IN-TRANSIT', status: 'BOOKED', tracking: 'IN_TRANSIT', expected: 'PICKED_UP' },
    { ref: 'OLD-DELIVERED', status: 'BOOKED', tracking: 'DELIVERED', expected: 'DELIVERED' },
    { ref: 'OLD-EXCEPTION', status: 'BOOKED', tracking: 'EXCEPTION', expected: 'CONFIRMED' },
    { ref: 'OLD-CANCELLED', status: 'CANCELLED', tracking: 'PICKED_UP', expected: 'CANCELLED' },
  ] as const;

  let store: string;
  let quote: Quote;
  let quoteAnswer: Quote;
  const booked = new Map<string, Shipment>();

  beforeAll(async () => {
    store = join(work.dir, 'store');
    const { api } = apiAt(store);
    quote = (await api.createLaneQuote({ pickupAddress: { zipCode: '60608' }, deliveryAddress: { zipCode: '10001' }, orderComponents: [shipmentRequest().orderComponents[0]!] }))
      .data;
    for (const [index, { ref }] of cases.entries()) {
      const request = shipmentRequest({
        refNumber: ref,
        // The first books the quote and names a contact and a phone; the others price for themselves.
        ...(index === 0 ? { quoteId: quote.id, pickupAddress: { ...CHICAGO_DC, contactPerson: 'Ann Lee', phoneNumber: '312-555-0100' } } : {}),
      });
      booked.set(ref, (await api.createShipment(request)).data);
    }
    quoteAnswer = (await api.getQuote(quote.id)).data;
    const byId = new Map(cases.map((item) => [booked.get(item.ref)!.id, item]));
    await rewriteLogs(store, 'shipments', 's', (record) => {
      const item = byId.get(record.id as string)!;
      const cancelled = item.status === 'CANCELLED' ? { cancelledAt: '2026-11-18T19:00:00.000Z', cancellationReason: 'changed plans' } : {};
      const delivered = item.tracking === 'DELIVERED' ? { deliveredAt: '2026-11-24T20:00:00.000Z' } : {};
      return oldShipment({ ...record, ...cancelled, ...delivered }, item.status, item.tracking);
    });
    await rewriteLogs(store, 'quotes', 'q', oldQuote);
  });

  it('holds the old names on disk (the fixture is what an older shipper wrote)', async () => {
    const first = await storedShipment(store, booked.get('OLD-NONE')!.id);
    expect(Object.keys(first)).toEqual(expect.arrayContaining(['shipper', 'consignee', 'pickupDate', 'quotedPriceInCents', 'status']));
    expect(first).not.toHaveProperty('pickupAddress');
    expect(first).not.toHaveProperty('orderStatus');
    expect(first).not.toHaveProperty('trackingStatus');
    expect(first.status).toBe('BOOKED');
    // Booked through today's engine, so the phone is already E.164 when the fixture renames the fields.
    expect(first.shipper).toMatchObject({ street1: '2100 S Halsted St', postalCode: '60608', contactName: 'Ann Lee', phone: '+13125550100' });
    expect(first.shipper).not.toHaveProperty('zipCode');
    const own = await storedShipment(store, booked.get('OLD-AT-PICKUP')!.id);
    expect(own).toMatchObject({ status: 'BOOKED', trackingStatus: 'AT_PICKUP' });
    expect((own as { quote?: object }).quote).toMatchObject({ origin: { postalCode: '60608' }, destination: { postalCode: '10001' }, pickupDate: '2026-11-19' });
    const quotes = await readdir(join(store, 'quotes'));
    const quoteLine = (
      await readFile(
        join(
          store,
          'quotes',
          quotes.find((name) => name.endsWith('.log'))!,
        ),
        'utf8',
      )
    )
      .split('\n')
      .find((line) => line.includes(quote.id))!;
    expect(JSON.parse(quoteLine).q).toMatchObject({ origin: { postalCode: '60608' }, destination: { postalCode: '10001' }, pickupDate: '2026-11-19' });
  });

  it.each(cases)('reads $ref ($status, tracking $tracking) in the published names as $expected', async ({ ref, tracking, expected }) => {
    const { api } = apiAt(store);
    const original = booked.get(ref)!;
    const { data } = await api.getShipment(original.id);
    const changed = {
      ...(expected === 'CANCELLED' ? { cancelledAt: '2026-11-18T19:00:00.000Z', cancellationReason: 'changed plans' } : {}),
      ...(tracking === 'DELIVERED' ? { deliveredAt: '2026-11-24T20:00:00.000Z' } : {}),
    };
    const { trackingStatus: _written, ...rest } = original;
    expect({ ...data, trackingStatus: undefined }).toEqual({ ...rest, ...changed, orderStatus: expected, trackingStatus: undefined });
    if (tracking !== undefined) expect(data.trackingStatus).toBe(tracking);
    for (const old of ['shipper', 'consignee', 'pickupDate', 'quotedPriceInCents', 'status']) expect(data).not.toHaveProperty(old);
    for (const address of [data.pickupAddress, data.deliveryAddress]) {
      for (const old of ['street1', 'street2', 'postalCode', 'contactName', 'phone']) expect(address).not.toHaveProperty(old);
    }
  });

  it('reads the old address fields of a stop under their new names', async () => {
    const { api } = apiAt(store);
    const { data } = await api.getShipment(booked.get('OLD-NONE')!.id);
    expect(data.pickupAddress).toEqual({ ...CHICAGO_DC, address2: null, countryCode: 'US', contactPerson: 'Ann Lee', phoneNumber: '+13125550100' });
    expect(data.deliveryAddress).toMatchObject({ address1: '1 Penn Plaza', zipCode: '10001', city: 'New York', state: 'NY' });
  });

  it('reads an old quote, and a booking’s own old quote, in the published names', async () => {
    const { api } = apiAt(store);
    // The booking, written BOOKED in the old names, reads as CONFIRMED (it was booked and confirmed at once then), not as it was created today.
    expect((await api.getQuote(quote.id)).data).toEqual({
      ...quoteAnswer,
      bookings: quoteAnswer.bookings!.map((booking) => ({ ...booking, orderStatus: 'CONFIRMED' })),
    });
    expect(quoteAnswer).toMatchObject({ status: 'BOOKED', pickupAddress: { zipCode: '60608' }, deliveryAddress: { zipCode: '10001' }, requiredPickupDate: '2026-11-19' });
    const own = booked.get('OLD-AT-PICKUP')!;
    const { data: ownQuote } = await api.getQuote(own.quoteId);
    expect(ownQuote).toMatchObject({
      id: own.quoteId,
      pickupAddress: { zipCode: '60608', city: 'Chicago' },
      deliveryAddress: { zipCode: '10001' },
      requiredPickupDate: '2026-11-19',
    });
    expect(ownQuote).not.toHaveProperty('origin');
    expect(ownQuote).not.toHaveProperty('pickupDate');
  });

  it('filters old records by order state and delivery ZIP', async () => {
    const { api } = apiAt(store);
    const refs = async (query: Record<string, string>) =>
      ((await api.listShipments({ ...query, limit: 50 } as never)).data.items as Shipment[]).map((shipment) => shipment.refNumber).sort();
    expect(await refs({ orderStatus: 'ASSIGNED' })).toEqual(['OLD-AT-PICKUP']);
    expect(await refs({ orderStatus: 'PICKED_UP' })).toEqual(['OLD-IN-TRANSIT']);
    expect(await refs({ orderStatus: 'CONFIRMED' })).toEqual(['OLD-EXCEPTION', 'OLD-NONE']);
    expect(await refs({ orderStatus: 'CANCELLED' })).toEqual(['OLD-CANCELLED']);
    expect(await refs({ orderStatus: 'ACTIVE' })).toEqual(['OLD-AT-PICKUP', 'OLD-DELIVERED', 'OLD-EXCEPTION', 'OLD-IN-TRANSIT', 'OLD-NONE']);
    expect(await refs({ to: '10001' })).toEqual(cases.map((item) => item.ref).sort());
    expect(await refs({ to: '60608' })).toEqual([]);
  });

  it('leaves the files as they were: reading is no migration', async () => {
    const { api } = apiAt(store);
    await api.getShipment(booked.get('OLD-NONE')!.id);
    const first = await storedShipment(store, booked.get('OLD-NONE')!.id);
    expect(first).toHaveProperty('shipper');
    expect(first).toHaveProperty('status', 'BOOKED');
  });
});
