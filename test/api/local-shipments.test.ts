import { readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Warning } from '../../src/domain/warnings.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LocalApi } from '../../src/api/local.js';
import { requestHash } from '../../src/api/local/idempotency.js';
import { ProblemError } from '../../src/api/problems.js';
import { isValidBolNumber } from '../../src/domain/bolNumber.js';
import { apiAt, CHICAGO_DC, CRATE, NYC_STORE, PALLETS, shipmentRequest, WEDNESDAY } from '../helpers/fixtures.js';
import { tempDir } from '../helpers/cli.js';
import { damageStoredShipment, removeStoredShipment, storedShipmentIds } from '../helpers/storedShipments.js';

let store: { dir: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  store = await tempDir('shipper-api-');
});
afterEach(() => store.cleanup());

async function problemOf(promise: Promise<unknown>): Promise<ProblemError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ProblemError);
  return error as ProblemError;
}

async function files(collection: string): Promise<string[]> {
  return (await readdir(join(store.dir, collection)).catch(() => [] as string[])).filter((name) => !name.startsWith('.'));
}

describe('LocalApi.createShipment on a quote', () => {
  it('books the quoted freight with per-line text, the quoted class and price, a unique order number and a valid BOL number', async () => {
    const { api } = apiAt(store.dir);
    const { data: quote } = await api.createLaneQuote({ pickupAddress: { zipCode: '60608' }, deliveryAddress: { zipCode: '10001' }, orderComponents: [PALLETS, CRATE] });
    const { data: shipment, replayed } = await api.createShipment(
      shipmentRequest({
        quoteId: quote.id,
        specialInstructions: 'Dock 4',
        orderComponents: [
          { ...PALLETS, description: 'Machine parts', nmfcCode: '161030', packagingType: 'crates', pieceCount: 10 },
          { ...CRATE, pieceCount: 0 },
        ],
      }),
    );
    expect(replayed).toBe(false);
    expect(shipment).toMatchObject({
      orderNumber: 'SO-000001',
      orderStatus: 'INITIALIZED',
      refNumber: 'PO-4711',
      quoteId: quote.id,
      totalPriceInCents: quote.quotedPriceInCents,
      transitDays: quote.transitDays,
      estimatedDeliveryDate: quote.estimatedDeliveryDate,
      requiredPickupDate: '2026-11-19',
      specialInstructions: 'Dock 4',
    });
    expect(isValidBolNumber(shipment.bolNumber)).toBe(true);
    expect(shipment.orderComponents.map((component) => component.freightClass)).toEqual(quote.orderComponents.map((component) => component.freightClass));
    expect(shipment.orderComponents[0]).toMatchObject({ description: 'Machine parts', nmfcCode: '161030', packagingType: 'crates', pieceCount: 10 });
    expect(shipment.orderComponents[1]).toMatchObject({ pieceCount: 0, description: null });
    expect((await api.getShipment(shipment.id)).data).toEqual(shipment);
  });

  it('is 404 for an unknown quote and 400 for an expired one', async () => {
    const { api, clock } = apiAt(store.dir);
    expect((await problemOf(api.createShipment(shipmentRequest({ quoteId: 'qt_01JD3Y7T9Q2W5E8R1T4Y7U0I3P' })))).status).toBe(404);
    expect((await problemOf(api.createShipment(shipmentRequest({ quoteId: 'not-a-quote' })))).status).toBe(404);
    // A pickup day after its lifetime: the lifetime closes it.
    const { data: quote } = await api.createLaneQuote({
      pickupAddress: { zipCode: '60608' },
      deliveryAddress: { zipCode: '10001' },
      orderComponents: [PALLETS],
      requiredPickupDate: '2026-11-30',
    });
    expect(quote.quoteExpirationTime).toBe(new Date(Date.parse(quote.createdAt) + 48 * 3_600_000).toISOString());
    clock.now = new Date(Date.parse(quote.quoteExpirationTime) + 1000);
    const expired = await problemOf(api.createShipment(shipmentRequest({ quoteId: quote.id, requiredPickupDate: '2026-11-30' })));
    expect(expired.status).toBe(400);
    expect(expired.problem.reason).toBe('quote_expired');
    expect(expired.problem.detail).toContain('expired');
    // Its pickup day first: that day's end closes it (the one moment its quoteExpirationTime states), and the refusal names the day.
    clock.now = new Date(WEDNESDAY);
    const { data: soon } = await api.createLaneQuote({ pickupAddress: { zipCode: '60608' }, deliveryAddress: { zipCode: '10001' }, orderComponents: [PALLETS] });
    expect(soon.requiredPickupDate).toBe('2026-11-19');
    expect(soon.quoteExpirationTime).toBe('2026-11-20T05:59:59.999Z');
    clock.now = new Date(Date.parse(soon.quoteExpirationTime) + 1);
    const passed = await problemOf(api.createShipment(shipmentRequest({ quoteId: soon.id })));
    expect(passed.status).toBe(400);
    expect(passed.problem.detail).toContain(`is for pickup on ${soon.requiredPickupDate}, which has passed`);
    expect(await storedShipmentIds(store.dir)).toEqual([]);
  });

  it('is 400 with every difference named when the freight or lane differs from the quote', async () => {
    const { api } = apiAt(store.dir);
    const { data: quote } = await api.createLaneQuote({ pickupAddress: { zipCode: '60608' }, deliveryAddress: { zipCode: '10001' }, orderComponents: [PALLETS] });
    const mismatch = await problemOf(
      api.createShipment(
        shipmentRequest({
          quoteId: quote.id,
          deliveryAddress: { ...NYC_STORE, zipCode: '10002' },
          orderComponents: [{ ...PALLETS, palletCount: 3, poundsWeight: 1300, dimensions: { length: 48, width: 40, height: 50 } }],
        }),
      ),
    );
    expect(mismatch.status).toBe(400);
    expect(mismatch.problem.reason).toBe('quote_mismatch');
    expect(mismatch.problem.violations?.map((violation) => violation.field)).toEqual([
      'orderComponents[0].palletCount',
      'orderComponents[0].poundsWeight',
      'orderComponents[0].dimensions.height',
      'deliveryAddress.zipCode',
    ]);
    const count = await problemOf(api.createShipment(shipmentRequest({ quoteId: quote.id, orderComponents: [PALLETS, CRATE] })));
    expect(count.problem.violations).toEqual([{ field: 'orderComponents', reason: 'the quote has 1 component(s), the shipment 2' }]);
    expect(await storedShipmentIds(store.dir)).toEqual([]);
  });
});

describe('LocalApi.createShipment without a quote', () => {
  it('quotes first on the shipper -> consignee lane, books that quote, and keeps it readable by its id', async () => {
    const { api } = apiAt(store.dir);
    const { data: shipment } = await api.createShipment(shipmentRequest({ accessorials: ['LIFTGATE_DELIVERY'], requiredPickupDate: '2026-11-20' }));
    expect(shipment.quoteId).toBe(`qt_${shipment.id.slice(3)}`);
    expect(JSON.stringify((await api.getShipment(shipment.id)).data)).not.toContain('"quote"');
    const { data: quote } = await new LocalApi({ storeDir: store.dir }).getQuote(shipment.quoteId);
    expect(quote.pickupAddress.zipCode).toBe('60608');
    expect(quote.deliveryAddress.zipCode).toBe('10001');
    expect(quote.accessorials).toEqual(['LIFTGATE_DELIVERY']);
    expect(shipment).toMatchObject({ requiredPickupDate: '2026-11-20', totalPriceInCents: quote.quotedPriceInCents, accessorials: ['LIFTGATE_DELIVERY'] });
  });

  it('refuses freightClass and reports every violation of the request at once, booking nothing', async () => {
    const { api } = apiAt(store.dir);
    const problem = await problemOf(
      api.createShipment({
        refNumber: 'r'.repeat(65),
        pickupAddress: { ...CHICAGO_DC, zipCode: '00000' },
        deliveryAddress: { ...NYC_STORE, state: 'New York' },
        orderComponents: [{ ...PALLETS, freightClass: '70', pieceCount: -1, description: 'd'.repeat(300) }],
      } as never),
    );
    expect(problem.status).toBe(400);
    expect(problem.problem.title).toBe('Constraint Violation');
    expect(problem.problem.violations?.map((violation) => violation.field).sort()).toEqual(
      ['deliveryAddress.state', 'orderComponents[0].description', 'orderComponents[0].freightClass', 'orderComponents[0].pieceCount', 'refNumber', 'pickupAddress.zipCode'].sort(),
    );
    expect(await storedShipmentIds(store.dir)).toEqual([]);
    expect(await files('counters')).toEqual([]);
  });

  it('turns rating problems (unknown accessorial, weekend pickup) into violations of the shipment', async () => {
    const { api } = apiAt(store.dir);
    const problem = await problemOf(api.createShipment(shipmentRequest({ accessorials: ['TELEPORT'], requiredPickupDate: '2026-11-21' })));
    expect(problem.status).toBe(400);
    expect(problem.problem.violations?.map((violation) => violation.field)).toEqual(['accessorials[0]', 'requiredPickupDate']);
  });
});

describe('numbers', () => {
  it('never repeat, in one process or across API instances on one store booking at the same time', async () => {
    const first = apiAt(store.dir).api;
    const second = apiAt(store.dir).api;
    const results = await Promise.all(Array.from({ length: 12 }, (_, index) => (index % 2 ? first : second).createShipment(shipmentRequest({ refNumber: `PO-${index}` }))));
    const orderNumbers = results.map((result) => result.data.orderNumber);
    expect(new Set(orderNumbers).size).toBe(12);
    expect([...orderNumbers].sort()).toEqual(Array.from({ length: 12 }, (_, index) => `SO-${String(index + 1).padStart(6, '0')}`));
    expect(new Set(results.map((result) => result.data.bolNumber)).size).toBe(12);
    expect(results.every((result) => isValidBolNumber(result.data.bolNumber))).toBe(true);
  });
});

describe('single bookings at the same time (group commit)', () => {
  it('are booked together in arrival order, each with its own outcome; a repeated key books once', async () => {
    const { api } = apiAt(store.dir);
    const calls = Array.from({ length: 10 }, (_, index) =>
      index === 4
        ? api.createShipment(shipmentRequest({ refNumber: 'PO-bad', orderComponents: [{ ...PALLETS, pieceCount: -1 }] }))
        : api.createShipment(shipmentRequest({ refNumber: index === 7 ? 'PO-1' : `PO-${index}` }), { idempotencyKey: index === 1 || index === 7 ? 'same-key' : undefined }),
    );
    const settled = await Promise.allSettled(calls);
    expect(settled.map((result) => result.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    const rejected = (settled[4] as PromiseRejectedResult).reason as ProblemError;
    expect(rejected.problem.violations?.map((violation) => violation.field)).toEqual(['orderComponents[0].pieceCount']);
    const booked = settled.flatMap((result, index) => (result.status === 'fulfilled' && index !== 7 ? [result.value] : []));
    // Arrival order is numbering order: SO-000001 .. SO-000008, no gap for the invalid one.
    expect(booked.map((result) => result.data.orderNumber)).toEqual(Array.from({ length: 8 }, (_, index) => `SO-${String(index + 1).padStart(6, '0')}`));
    const replay = (settled[7] as PromiseFulfilledResult<Awaited<(typeof calls)[number]>>).value;
    expect(replay.replayed).toBe(true);
    expect(replay.data.id).toBe(booked[1]!.data.id);
    expect(await storedShipmentIds(store.dir)).toHaveLength(8);
  });
});

describe('idempotency', () => {
  it('names an unknown accessorial by its index as sent, a repeated code before it counting, and prices a stop’s liftgateRequired as its code', async () => {
    const { api } = apiAt(store.dir);
    const refused = await problemOf(api.createShipment(shipmentRequest({ accessorials: ['LIFTGATE_PICKUP', 'LIFTGATE_PICKUP', 'ZZ_UNKNOWN'] })));
    expect(refused.problem.violations).toEqual([expect.objectContaining({ field: 'accessorials[2]' })]);
    const { data: booked } = await api.createShipment(shipmentRequest({ deliveryAddress: { ...NYC_STORE, liftgateRequired: true } }));
    expect(booked.accessorials).toEqual(['LIFTGATE_DELIVERY']);
    expect(booked.deliveryAddress.liftgateRequired).toBe(true);
  });

  it('returns the first shipment for the same key and body, and 409 (idempotency_key_conflict) for the same key with another body', async () => {
    const { api } = apiAt(store.dir);
    const first = await api.createShipment(shipmentRequest(), { idempotencyKey: 'retry-1' });
    const again = await api.createShipment(shipmentRequest(), { idempotencyKey: 'retry-1' });
    expect(again.data).toEqual(first.data);
    expect(again.replayed).toBe(true);
    expect((await problemOf(api.createShipment(shipmentRequest({ refNumber: 'PO-other' }), { idempotencyKey: 'retry-1' }))).status).toBe(409);
    expect(await storedShipmentIds(store.dir)).toHaveLength(1);
  });

  it('finishes a booking interrupted after its numbers were reserved, with the same id and number', async () => {
    const { api } = apiAt(store.dir);
    await api.createShipment(shipmentRequest({ refNumber: 'PO-before' }));
    // What a crash between writing the reservation and writing the shipment leaves behind.
    const request = shipmentRequest({ refNumber: 'PO-crash' });
    const { createHash } = await import('node:crypto');
    const recordId = createHash('sha256').update('shipment\u0000crash-key').digest('hex');
    // (A store written before the journal: today the reservation and the shipment commit together.)
    await writeFile(
      join(store.dir, 'idempotency', `${recordId}.json`),
      JSON.stringify({ scope: 'shipment', requestHash: requestHash(request), resourceId: 'sh_01JD3Y7T9Q2W5E8R1T4Y7U0I3Z', serial: 7 }),
    );
    const { data: resumed } = await api.createShipment(request, { idempotencyKey: 'crash-key' });
    expect(resumed).toMatchObject({ id: 'sh_01JD3Y7T9Q2W5E8R1T4Y7U0I3Z', orderNumber: 'SO-000007', refNumber: 'PO-crash' });
    // The counter did not move for it: the next booking is 2, not 8 (7 was reserved by the crashed process only).
    const { data: next } = await api.createShipment(shipmentRequest({ refNumber: 'PO-after' }));
    expect(next.orderNumber).toBe('SO-000002');
  });
});

describe('LocalApi.previewShipments while another process books', () => {
  it('a shipment reserved under the key but not yet written comes back (replayed), not as a duplicate of its own reference', async () => {
    const { api } = apiAt(store.dir);
    const request = { ...shipmentRequest({ refNumber: 'PO-race' }), duplicateRefNumber: 'REFUSE' };
    const booked = (await api.createShipments({ items: [{ request, idempotencyKey: 'import-key-1' }] })).data.items[0]!;
    expect(booked.ok).toBe(true);
    // The other import is between its reservation (and reference index) and its shipment file.
    const shipmentId = booked.ok ? booked.data.id : '';
    const restore = await removeStoredShipment(store.dir, shipmentId);
    const during = (await api.previewShipments({ items: [{ request, idempotencyKey: 'import-key-1' }] })).data.items[0]!;
    expect(during).toMatchObject({ ok: true, replayed: true });
    // Another key with the same reference is still a duplicate once the first is written.
    await restore();
    const after = (
      await api.previewShipments({
        items: [
          { request, idempotencyKey: 'import-key-1' },
          { request, idempotencyKey: 'import-key-2' },
        ],
      })
    ).data.items;
    expect(after[0]).toMatchObject({ ok: true, replayed: true });
    expect(after[1]).toMatchObject({ ok: false, problem: { status: 409 } });
  });

  it('the other process reserved the key just after it was looked up: its reference is still its own', async () => {
    const { api } = apiAt(store.dir);
    const request = { ...shipmentRequest({ refNumber: 'PO-race-2' }), duplicateRefNumber: 'REFUSE' };
    expect((await api.createShipments({ items: [{ request, idempotencyKey: 'import-key-3' }] })).data.items[0]!.ok).toBe(true);
    // The first look finds no reservation (the other process had not reserved yet); by the reference check it has booked.
    const find = vi.spyOn(api.store.idempotency, 'get').mockResolvedValueOnce(undefined);
    const during = (await api.previewShipments({ items: [{ request, idempotencyKey: 'import-key-3' }] })).data.items[0]!;
    expect(find).toHaveBeenCalledTimes(2);
    expect(during).toMatchObject({ ok: true, replayed: true });
    find.mockRestore();
  });
});

describe('LocalApi.createShipments (batch)', () => {
  it('answers item by item in order, booking the valid ones under one lock with consecutive numbers', async () => {
    const { api } = apiAt(store.dir);
    const {
      data: { items: outcomes },
    } = await api.createShipments({
      items: [
        { request: shipmentRequest({ refNumber: 'A' }) },
        { request: shipmentRequest({ refNumber: 'B', orderComponents: [{ ...PALLETS, freightClass: '50' }] }) },
        { request: shipmentRequest({ refNumber: 'C', quoteId: 'qt_01JD3Y7T9Q2W5E8R1T4Y7U0I3P' }) },
        { request: shipmentRequest({ refNumber: 'D' }) },
      ],
    });
    expect(outcomes.map((outcome) => (outcome.ok ? outcome.data.orderNumber : outcome.problem.status))).toEqual(['SO-000001', 400, 404, 'SO-000002']);
    const b = outcomes[1]!;
    expect(!b.ok && b.problem.violations?.[0]?.field).toBe('orderComponents[0].freightClass');
    expect(await storedShipmentIds(store.dir)).toHaveLength(2);
    // The quotes they were priced on live in the shipments' files, one write per shipment.
    expect(await files('quotes')).toEqual([]);
    const a = outcomes[0]!;
    expect(a.ok && (await api.getQuote(a.data.quoteId)).data.quotedPriceInCents).toBe(a.ok && a.data.totalPriceInCents);
  });

  it('records each key and recognises it on a re-run, one by one too', async () => {
    const { api } = apiAt(store.dir);
    const items = ['A', 'B', 'C'].map((ref, index) => ({ request: shipmentRequest({ refNumber: ref }), idempotencyKey: `import-test#${index + 1}` }));
    const first = (await api.createShipments({ items })).data.items;
    expect(first.every((outcome) => outcome.ok && !outcome.replayed)).toBe(true);
    // Three records, each a line of the idempotency logs (the pending log, until it is merged into the buckets).
    const lines = await Promise.all((await files('idempotency')).map((name) => readFile(join(store.dir, 'idempotency', name), 'utf8')));
    expect(lines.join('').trim().split('\n')).toHaveLength(3);
    const again = (await apiAt(store.dir).api.createShipments({ items })).data.items;
    expect(again.map((outcome) => outcome.ok && outcome.replayed)).toEqual([true, true, true]);
    expect(again.map((outcome) => outcome.ok && outcome.data.id)).toEqual(first.map((outcome) => outcome.ok && outcome.data.id));
    // The same key one by one (as a server gets it) is recognised too.
    const single = await api.createShipment(items[1]!.request, { idempotencyKey: items[1]!.idempotencyKey });
    expect(single.replayed).toBe(true);
    const changed = (await api.createShipments({ items: [{ request: shipmentRequest({ refNumber: 'B2' }), idempotencyKey: items[1]!.idempotencyKey }] })).data.items;
    expect(changed[0]!.ok ? 'booked' : changed[0]!.problem.status).toBe(409);
    expect(await storedShipmentIds(store.dir)).toHaveLength(3);
  });

  it('refuses an envelope that is not one (400 on its field), before any item is judged', async () => {
    const { api } = apiAt(store.dir);
    expect((await problemOf(api.createShipments({ items: [] }))).problem.violations).toEqual([{ field: 'items', reason: 'at least one item is required' }]);
    expect((await problemOf(api.createShipments({} as never))).problem.violations?.[0]?.field).toBe('items');
    expect(await storedShipmentIds(store.dir)).toEqual([]);
  });

  it('books a key repeated within one batch once', async () => {
    const { api } = apiAt(store.dir);
    const item = { request: shipmentRequest(), idempotencyKey: 'same' };
    const outcomes = (await api.createShipments({ items: [item, item] })).data.items;
    expect(outcomes[0]!.ok && outcomes[1]!.ok && outcomes[0]!.data.id === outcomes[1]!.data.id).toBe(true);
    expect(outcomes[1]!.ok && outcomes[1]!.replayed).toBe(true);
    expect(await storedShipmentIds(store.dir)).toHaveLength(1);
  });

  it('resumes a batch interrupted after its reservations were written, with the reserved numbers', async () => {
    const { api } = apiAt(store.dir);
    const items = ['A', 'B'].map((ref, index) => ({ request: shipmentRequest({ refNumber: ref }), idempotencyKey: `crash#${index + 1}` }));
    const [a, b] = (await api.createShipments({ items })).data.items;
    // Simulate the crash: the shipment files are gone, the reservations and counter remain.
    for (const outcome of [a!, b!]) if (outcome.ok) await removeStoredShipment(store.dir, outcome.data.id);
    const resumed = (await api.createShipments({ items })).data.items;
    expect(resumed.map((outcome) => outcome.ok && `${outcome.data.id} ${outcome.data.orderNumber}`)).toEqual(
      [a!, b!].map((outcome) => outcome.ok && `${outcome.data.id} ${outcome.data.orderNumber}`),
    );
    expect(JSON.parse(await readFile(join(store.dir, 'counters', 'orders.json'), 'utf8'))).toEqual({ last: 2 });
  });
});

describe('LocalApi.previewShipments', () => {
  it('validates and prices like a booking but writes nothing', async () => {
    const { api } = apiAt(store.dir);
    const outcomes = (
      await api.previewShipments({ items: [{ request: shipmentRequest() }, { request: shipmentRequest({ deliveryAddress: { ...NYC_STORE, zipCode: '00001' } }) }] })
    ).data.items;
    expect(outcomes[0]!.ok && outcomes[0]!.data.quotedPriceInCents).toBeGreaterThan(0);
    expect(!outcomes[1]!.ok && outcomes[1]!.problem.violations).toEqual([{ field: 'deliveryAddress.zipCode', reason: 'unknown ZIP 00001' }]);
    expect(await readdir(store.dir).catch(() => [])).toEqual([]);
  });
});

describe('LocalApi: a request previewed, then booked (an import books the objects its check priced)', () => {
  it('books at the price previewed, stamped with the booking instant, and rates it again once the day at the origin has changed', async () => {
    const { api, clock } = apiAt(store.dir);
    const sameDay = shipmentRequest({ refNumber: 'PO-same-day' });
    const nextDay = shipmentRequest({ refNumber: 'PO-next-day' });
    const previewed = (await api.previewShipments({ items: [{ request: sameDay }, { request: nextDay }], freightCheck: false })).data.items;
    expect(previewed.map((outcome) => outcome.ok && outcome.data.requiredPickupDate)).toEqual(['2026-11-19', '2026-11-19']);
    clock.now = new Date('2026-11-18T23:00:00.000Z');
    const [first] = (await api.createShipments({ items: [{ request: sameDay }] })).data.items;
    expect(first!.ok && first!.data).toMatchObject({ requiredPickupDate: '2026-11-19', createdAt: '2026-11-18T23:00:00.000Z' });
    expect(first!.ok && first!.data.totalPriceInCents).toBe(previewed[0]!.ok && previewed[0]!.data.quotedPriceInCents);
    const ownQuote = (await api.getQuote(first!.ok ? first!.data.quoteId : '')).data;
    // Valid until the end of its pickup day (Thursday 11-19 in Chicago), before its 48 hours.
    expect(ownQuote).toMatchObject({ createdAt: '2026-11-18T23:00:00.000Z', quoteExpirationTime: '2026-11-20T05:59:59.999Z' });
    // Thursday 01:00 in Chicago: Thursday is no longer the next business day.
    clock.now = new Date('2026-11-19T07:00:00.000Z');
    const [second] = (await api.createShipments({ items: [{ request: nextDay }] })).data.items;
    expect(second!.ok && second!.data.requiredPickupDate).toBe('2026-11-20');
  });
});

describe('a damaged shipment file', () => {
  it('is named by the error and does not hide the other shipments from the list', async () => {
    const { api } = apiAt(store.dir);
    const { data: good } = await api.createShipment(shipmentRequest({ refNumber: 'good' }));
    const { data: bad } = await api.createShipment(shipmentRequest({ refNumber: 'bad' }));
    const badFile = await damageStoredShipment(store.dir, bad.id, '{"half": ');
    const { data: page, warnings } = await new LocalApi({ storeDir: store.dir }).listShipments();
    expect(page.items.map((shipment) => shipment.id)).toEqual([good.id]);
    expect(warnings.map((item) => `${item.code} ${item.message}`).join()).toContain(`RECORD_UNREADABLE`);
    expect(warnings.map((item) => item.message).join()).toContain(`shipment ${bad.id}`);
    expect(warnings.map((item) => item.message).join()).toContain(basename(badFile));
    // The local user sees the file; an HTTP answer would not (the server logs it).
    const failure = await problemOf(api.getShipment(bad.id));
    expect(failure.toProblem().detail).toContain(`${basename(badFile)} is damaged (shipment ${bad.id}: not valid JSON`);
    expect(failure.problem.detail).not.toContain(store.dir);
  });
});

describe('LocalApi.listShipments by order number', () => {
  it('finds a shipment booked under another company prefix (a scan when the BOL of this prefix is not there)', async () => {
    const before = new LocalApi({ storeDir: store.dir, bolCompanyPrefix: '0614141' });
    const booked = (await before.createShipment(shipmentRequest({ refNumber: 'OLD-PREFIX' }))).data;
    const after = new LocalApi({ storeDir: store.dir, bolCompanyPrefix: '0012345' });
    const next = (await after.createShipment(shipmentRequest({ refNumber: 'NEW-PREFIX' }))).data;
    expect(next.bolNumber.startsWith('0012345')).toBe(true);
    expect((await after.listShipments({ orderNumber: booked.orderNumber })).data.items.map((shipment) => shipment.id)).toEqual([booked.id]);
    expect((await after.listShipments({ orderNumber: next.orderNumber })).data.items.map((shipment) => shipment.id)).toEqual([next.id]);
  });
});

describe('a reference many shipments carry', () => {
  const warningOf = (warnings: Warning[]) => warnings.find((warning) => warning.code === 'REFERENCE_TAKEN')?.message;

  it('names the three newest active holders, then "and others" only when there are more', async () => {
    const { api } = apiAt(store.dir);
    const booked: string[] = [];
    for (let index = 0; index < 3; index++) booked.push((await api.createShipment(shipmentRequest({ refNumber: 'STOCK' }))).data.orderNumber);
    // Exactly three active: all named, no "others".
    const fourth = await api.createShipment(shipmentRequest({ refNumber: 'STOCK' }));
    expect(warningOf(fourth.warnings)).toBe(`refNumber STOCK is already booked as ${booked.join(', ')}; this is another shipment with the same reference`);
    booked.push(fourth.data.orderNumber);
    // Four active: the three newest, and others.
    const fifth = await api.createShipment(shipmentRequest({ refNumber: 'STOCK' }));
    expect(warningOf(fifth.warnings)).toBe(`refNumber STOCK is already booked as ${booked.slice(1).join(', ')} and others; this is another shipment with the same reference`);
    // The newest cancelled: the active ones before them are named instead.
    await api.cancelShipment(fifth.data.id);
    await api.cancelShipment(fourth.data.id);
    const sixth = await api.createShipment(shipmentRequest({ refNumber: 'STOCK' }));
    expect(warningOf(sixth.warnings)).toBe(`refNumber STOCK is already booked as ${booked.slice(0, 3).join(', ')}; this is another shipment with the same reference`);
    // Refused when asked, naming the same.
    const refused = await problemOf(api.createShipment({ ...shipmentRequest({ refNumber: 'STOCK' }), duplicateRefNumber: 'REFUSE' }));
    expect(refused.problem.detail).toBe(`refNumber STOCK is already booked as ${[...booked.slice(1, 3), sixth.data.orderNumber].join(', ')} and others`);
  });
});

describe('the preview judges an item as its booking does', () => {
  it('a PRO on a quote a carrier agreement priced is checked for that carrier, before booking as when booking', async () => {
    const api = new LocalApi({ storeDir: store.dir, agreementsDir: 'samples', now: () => new Date(WEDNESDAY) });
    const quoteId = async () =>
      (
        await api.createLaneQuote({
          pickupAddress: { zipCode: CHICAGO_DC.zipCode },
          deliveryAddress: { zipCode: NYC_STORE.zipCode },
          orderComponents: [PALLETS],
          carrierScac: 'SPLX',
        })
      ).data.id;
    // No carrier named: the booking is on the quote's carrier, and so is its PRO.
    const first = await api.createShipment(shipmentRequest({ quoteId: await quoteId(), proNumber: '4711' }));
    expect(first.data).toMatchObject({ carrier: { scac: 'SPLX' }, proNumber: '4711' });
    const second = shipmentRequest({ quoteId: await quoteId(), proNumber: '4711', refNumber: 'PO-2' });
    const [previewed] = (await api.previewShipments({ items: [{ request: second }] })).data.items;
    const refused = await problemOf(api.createShipment(second));
    expect(refused.status).toBe(409);
    expect(previewed).toEqual({ ok: false, problem: refused.problem });
  });
});

describe('LocalApi.previewShipments with and without the freight check', () => {
  it('gives the freight check by default; freightCheck: false prices the same without it; a freightCheck that is not a boolean is refused', async () => {
    const { api } = apiAt(store.dir);
    const items = [{ request: shipmentRequest({ orderComponents: [PALLETS] }) }];
    const checked = (await api.previewShipments({ items })).data.items[0]!;
    const unchecked = (await api.previewShipments({ items, freightCheck: false })).data.items[0]!;
    expect(checked.ok && unchecked.ok).toBe(true);
    if (!checked.ok || !unchecked.ok) return;
    // The line has no description: the check names it (NO_DESCRIPTION) unless asked not to check.
    expect(checked.warnings.map((item) => item.code)).toContain('NO_DESCRIPTION');
    expect(unchecked.warnings.map((item) => item.code)).not.toContain('NO_DESCRIPTION');
    expect(unchecked.data.quotedPriceInCents).toBe(checked.data.quotedPriceInCents);
    const explicit = (await api.previewShipments({ items, freightCheck: true })).data.items[0]!;
    expect(explicit.ok && explicit.warnings).toEqual(checked.warnings);
    const refused = await problemOf(api.previewShipments({ items, freightCheck: 'no' } as never));
    expect(refused.status).toBe(400);
    expect(refused.problem.violations?.map((violation) => violation.field)).toEqual(['freightCheck']);
  });
});
