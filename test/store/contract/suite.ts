/**
 * The storage ports' contract (src/store/ports.ts), run against any store factory: the file store
 * (file.test.ts) and any other implementation (a PostgreSQL store runs the same suite). Records
 * are made from one real booking and quote, varied per test; every store starts empty.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LocalApi } from '../../../src/api/local.js';
import { companyStore, OtherCompanysRecord } from '../../../src/api/local/companyStore.js';
import type { Quote, Shipment } from '../../../src/domain/schemas.js';
import type { ShipmentEventRecord, ShipperStore } from '../../../src/store/ports.js';
import { tempDir } from '../../helpers/cli.js';
import { PALLETS, shipmentRequest, WEDNESDAY } from '../../helpers/fixtures.js';

export interface OpenedStore {
  store: ShipperStore;
  cleanup: () => Promise<void>;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** A prefixed ULID-shaped id for instant `ms` and a distinguishing number. */
function idAt(prefix: 'sh' | 'qt', ms: number, n: number): string {
  let time = '';
  for (let rest = ms, i = 0; i < 10; i++, rest = Math.floor(rest / 32)) time = CROCKFORD[rest % 32] + time;
  let random = '';
  for (let rest = n, i = 0; i < 16; i++, rest = Math.floor(rest / 32)) random = CROCKFORD[rest % 32] + random;
  return `${prefix}_${time}${random}`;
}

export function storeContract(name: string, open: () => Promise<OpenedStore>): void {
  describe(`storage ports: ${name}`, () => {
    let template: { shipment: Shipment; quote: Quote };
    let work: { dir: string; cleanup: () => Promise<void> };
    let opened: OpenedStore;
    let store: ShipperStore;
    const base = Date.parse(WEDNESDAY);

    beforeAll(async () => {
      work = await tempDir('shipper-contract-template-');
      const api = new LocalApi({ storeDir: work.dir, now: () => new Date(WEDNESDAY) });
      const { data: shipment } = await api.createShipment(shipmentRequest());
      const { data: quote } = await api.createLaneQuote({ pickupAddress: { zipCode: '60608' }, deliveryAddress: { zipCode: '10001' }, orderComponents: [PALLETS] });
      const { status: _status, bookings: _bookings, ...stored } = quote;
      template = { shipment, quote: stored };
    });
    afterAll(() => work.cleanup());
    beforeEach(async () => {
      opened = await open();
      store = opened.store;
    });
    afterEach(() => opened.cleanup());

    /** Shipment n (order SO-n), created at base + `at` ms, with overrides. */
    const shipment = (n: number, overrides: Partial<Shipment> = {}, at = n * 1000): Shipment => ({
      ...template.shipment,
      id: idAt('sh', base + at, n),
      orderNumber: `SO-${String(n).padStart(6, '0')}`,
      bolNumber: `0614141${String(n).padStart(9, '0')}${n % 10}`,
      refNumber: `PO-${n}`,
      proNumber: null,
      quoteId: idAt('qt', base + at, n),
      createdAt: new Date(base + at).toISOString(),
      ...overrides,
    });
    const quote = (n: number, overrides: Partial<Quote> = {}): Quote => ({
      ...template.quote,
      id: idAt('qt', base + n * 1000, n + 500),
      createdAt: new Date(base + n * 1000).toISOString(),
      ...overrides,
    });
    const put = (...shipments: Shipment[]) =>
      store.withTransaction(async (tx) => {
        for (const one of shipments) tx.shipments.put(one);
      });

    describe('shipments', () => {
      it('get by id answers what was put, and undefined for an unknown id', async () => {
        const one = shipment(1);
        await put(one);
        expect(await store.shipments.get(one.id)).toEqual(one);
        expect(await store.shipments.get(idAt('sh', base, 999))).toBeUndefined();
      });

      it('keeps the quote a booking priced for itself with the shipment: found by id, not listed among quotes', async () => {
        // A booking's own quote carries its shipment's ULID: qt_X for sh_X (src/api/local/ids.ts).
        const base1 = shipment(1);
        const own = quote(1, { id: `qt_${base1.id.slice(3)}` });
        const one = { ...base1, quoteId: own.id };
        await store.withTransaction(async (tx) => tx.shipments.put(one, own));
        expect(await store.shipments.getRecord(one.id)).toEqual({ shipment: one, ownQuote: own });
        expect(await store.quotes.get(own.id)).toEqual(own);
        expect((await store.quotes.list({}, { limit: 10 })).items).toEqual([]);
        expect((await store.shipments.findByQuote(own.id)).map((found) => found.id)).toEqual([one.id]);
      });

      it('finds by order number and BOL number whatever the order of ids (processes with one clock)', async () => {
        // Later numbers on smaller ids: as processes that start their clock at the same instant make them.
        const shipments = [5, 4, 3, 2, 1].map((n, position) => shipment(n, {}, position));
        for (const one of shipments) await put(one);
        for (const one of shipments) {
          expect((await store.shipments.findByOrderNumber(one.orderNumber))?.id).toBe(one.id);
          expect((await store.shipments.findByBolNumber(one.bolNumber))?.id).toBe(one.id);
        }
        expect(await store.shipments.findByOrderNumber('SO-000009')).toBeUndefined();
        expect(await store.shipments.findByBolNumber('06141410000000099')).toBeUndefined();
      });

      it('finds by PRO (normalised), per carrier when asked, and follows a PRO that changes', async () => {
        const odfl = { name: 'Old Dominion', scac: 'ODFL' } as unknown as Shipment['carrier'];
        const a = shipment(1, { proNumber: '720-4801', carrier: odfl });
        const b = shipment(2, { proNumber: '7204802' });
        await put(a, b);
        expect((await store.shipments.findByProNumber('7204801')).map((found) => found.id)).toEqual([a.id]);
        expect((await store.shipments.findByProNumber('720 4801', 'ODFL')).map((found) => found.id)).toEqual([a.id]);
        expect(await store.shipments.findByProNumber('7204801', 'SAIA')).toEqual([]);
        await put({ ...a, proNumber: '7204899' });
        expect(await store.shipments.findByProNumber('7204801')).toEqual([]);
        expect((await store.shipments.findByProNumber('7204899')).map((found) => found.id)).toEqual([a.id]);
      });

      it('finds by reference (case and spacing ignored), newest first, by status, at most `limit`', async () => {
        const shipments = [1, 2, 3, 4].map((n) => shipment(n, { refNumber: n === 4 ? 'OTHER' : 'po-4471 ' }));
        shipments[1] = { ...shipments[1]!, orderStatus: 'CANCELLED' };
        await put(...shipments);
        const ids = (found: Shipment[]) => found.map((one) => one.orderNumber);
        expect(ids(await store.shipments.findByReference('PO-4471'))).toEqual(['SO-000003', 'SO-000002', 'SO-000001']);
        expect(ids(await store.shipments.findByReference('PO-4471', { orderStatus: 'ACTIVE' }))).toEqual(['SO-000003', 'SO-000001']);
        expect(ids(await store.shipments.findByReference('PO-4471', { limit: 1 }))).toEqual(['SO-000003']);
        expect(await store.shipments.findByReference('PO-9')).toEqual([]);
      });

      it("finds by reference within a company: the limit counts that company's, past newer ones of another", async () => {
        // Twelve newer shipments of globex hold the reference too (more than the file store's chunk of 8).
        await put(
          ...[1, 2, 3].map((n) => shipment(n, { refNumber: 'STOCK' })),
          ...Array.from({ length: 12 }, (_, index) => shipment(index + 4, { refNumber: 'STOCK', companyId: 'globex' })),
        );
        const ids = (found: Shipment[]) => found.map((one) => one.orderNumber);
        expect(ids(await store.shipments.findByReference('STOCK', { companyId: 'default', limit: 2 }))).toEqual(['SO-000003', 'SO-000002']);
        expect(ids(await store.shipments.findByReference('STOCK', { companyId: 'default' }))).toEqual(['SO-000003', 'SO-000002', 'SO-000001']);
        expect(ids(await store.shipments.findByReference('STOCK', { companyId: 'globex', limit: 1 }))).toEqual(['SO-000015']);
        expect(await store.shipments.findByReference('STOCK', { companyId: 'initech' })).toEqual([]);
        expect(await store.shipments.findByReference('STOCK', { limit: 20 })).toHaveLength(15);
      });

      // The file store reads holders 8 at a time: on that chunk, just past it, and far past it.
      it.each([8, 9, 20])('finds by reference inside a unit of work: %i stored and its own writes, each once, newest first', async (stored) => {
        await put(...Array.from({ length: stored }, (_, index) => shipment(index + 1, { refNumber: 'STOCK' })));
        const orders = (found: Shipment[]) => found.map((one) => one.orderNumber);
        const order = (n: number) => `SO-${String(n).padStart(6, '0')}`;
        await store.withTransaction(async (tx) => {
          // Two written here: one new, one stored before and now cancelled.
          tx.shipments.put(shipment(stored + 1, { refNumber: 'STOCK' }));
          tx.shipments.put(shipment(stored, { refNumber: 'STOCK', orderStatus: 'CANCELLED' }));
          const all = await tx.shipments.findByReference('STOCK');
          expect(orders(all)).toEqual(Array.from({ length: stored + 1 }, (_, index) => order(stored + 1 - index)));
          expect(all.find((one) => one.orderNumber === order(stored))?.orderStatus).toBe('CANCELLED');
          expect(orders(await tx.shipments.findByReference('STOCK', { orderStatus: 'ACTIVE', limit: 4 }))).toEqual([stored + 1, stored - 1, stored - 2, stored - 3].map(order));
        });
      });

      it('finds the shipments booked on a quote, cancelled ones too', async () => {
        const saved = quote(1);
        await store.quotes.put(saved);
        const a = shipment(1, { quoteId: saved.id });
        const b = shipment(2, { quoteId: saved.id, orderStatus: 'CANCELLED' });
        await put(a, b, shipment(3));
        expect((await store.shipments.findByQuote(saved.id)).map((found) => found.id).sort()).toEqual([a.id, b.id].sort());
        expect(await store.shipments.findByQuote(quote(9).id)).toEqual([]);
      });

      it('lists newest first with a cursor, and filters by status, created range, consignee ZIP and keys', async () => {
        const shipments = [1, 2, 3, 4, 5].map((n) => shipment(n, n === 2 ? { orderStatus: 'CANCELLED' } : {}));
        await put(...shipments);
        const first = await store.shipments.list({}, { limit: 2 });
        expect(first.items.map((one) => one.orderNumber)).toEqual(['SO-000005', 'SO-000004']);
        expect(first.nextCursor).not.toBeNull();
        const second = await store.shipments.list({}, { limit: 2, cursor: first.nextCursor! });
        expect(second.items.map((one) => one.orderNumber)).toEqual(['SO-000003', 'SO-000002']);
        const last = await store.shipments.list({}, { limit: 2, cursor: second.nextCursor! });
        expect(last).toMatchObject({ items: [{ orderNumber: 'SO-000001' }], nextCursor: null, warnings: [] });
        const orders = async (filter: Parameters<ShipperStore['shipments']['list']>[0]) => (await store.shipments.list(filter, { limit: 10 })).items.map((one) => one.orderNumber);
        expect(await orders({ orderStatus: 'CANCELLED' })).toEqual(['SO-000002']);
        expect(await orders({ created: { from: base + 2000, to: base + 4000 } })).toEqual(['SO-000004', 'SO-000003', 'SO-000002']);
        expect(await orders({ deliveryZipCode: '10001' })).toHaveLength(5);
        expect(await orders({ deliveryZipCode: '99999' })).toEqual([]);
        expect(await orders({ orderNumber: 'SO-000003' })).toEqual(['SO-000003']);
        expect(await orders({ bolNumbers: [shipments[0]!.bolNumber, shipments[4]!.bolNumber] })).toEqual(['SO-000005', 'SO-000001']);
        expect(await orders({ refNumber: 'po-4' })).toEqual(['SO-000004']);
        expect(await orders({ refNumber: 'PO-4', orderStatus: 'CANCELLED' })).toEqual([]);
      });
    });

    describe('quotes', () => {
      it('put (its own unit of work), get, and list newest first with filters', async () => {
        const quotes = [1, 2, 3].map((n) => quote(n, n === 2 ? { deliveryAddress: { ...template.quote.deliveryAddress, zipCode: '30301' } } : {}));
        await Promise.all(quotes.map((one) => store.quotes.put(one)));
        expect(await store.quotes.get(quotes[0]!.id)).toEqual(quotes[0]);
        expect(await store.quotes.get(quote(9).id)).toBeUndefined();
        const ids = async (filter: Parameters<ShipperStore['quotes']['list']>[0]) => (await store.quotes.list(filter, { limit: 10 })).items.map((one) => one.id);
        expect(await ids({})).toEqual([quotes[2]!.id, quotes[1]!.id, quotes[0]!.id]);
        expect(await ids({ deliveryZipCode: '30301' })).toEqual([quotes[1]!.id]);
        expect(await ids({ ids: [quotes[0]!.id, quote(9).id] })).toEqual([quotes[0]!.id]);
        expect(await ids({ created: { from: base + 2000 } })).toEqual([quotes[2]!.id, quotes[1]!.id]);
      });
    });

    describe('companies (issue 41 item 2)', () => {
      it("lists filter on the company in the store, pages full, a record without one is the default company's", async () => {
        const shipments = [1, 2, 3, 4, 5, 6].map((n) => shipment(n, { companyId: n % 2 === 0 ? 'acme' : 'default' }));
        await put(...shipments);
        const first = await store.shipments.list({ companyId: 'acme' }, { limit: 2 });
        expect(first.items.map((one) => one.orderNumber)).toEqual(['SO-000006', 'SO-000004']);
        const rest = await store.shipments.list({ companyId: 'acme' }, { limit: 2, cursor: first.nextCursor! });
        expect(rest.items.map((one) => one.orderNumber)).toEqual(['SO-000002']);
        expect((await store.shipments.list({ companyId: 'default', orderNumber: 'SO-000002' }, { limit: 5 })).items).toEqual([]);
        expect((await store.shipments.list({ companyId: 'globex' }, { limit: 5 })).items).toEqual([]);
        // A quote saved before companies has no companyId: the default company's.
        const { companyId: _none, ...old } = quote(1);
        const acme = quote(2, { companyId: 'acme' });
        await Promise.all([store.quotes.put(old as Quote), store.quotes.put(acme)]);
        const quoteIds = async (companyId: string) => (await store.quotes.list({ companyId }, { limit: 5 })).items.map((one) => one.id);
        expect(await quoteIds('acme')).toEqual([acme.id]);
        expect(await quoteIds('default')).toEqual([old.id]);
        expect(await quoteIds('globex')).toEqual([]);
      });

      it("a company's view refuses another's records by id and order number, finds none by key, and keeps its own idempotency keys", async () => {
        const acme = companyStore(store, { companyId: 'acme', keyId: 'key_A' });
        const globex = companyStore(store, { companyId: 'globex', keyId: 'key_B' });
        const mine = shipment(1, { refNumber: 'PO-1', proNumber: '1234567897' });
        const quoted = quote(1);
        await acme.withTransaction(async (tx) => {
          tx.shipments.put(mine, undefined, { created: true });
          tx.quotes.put(quoted);
          tx.idempotency.put('order-1', { scope: 'shipment', requestHash: 'h', resourceId: mine.id, serial: 1 });
        });
        // Stamped with the company and the key on the records written.
        expect(await store.shipments.get(mine.id)).toMatchObject({ companyId: 'acme', createdBy: 'key_A' });
        expect(await store.quotes.get(quoted.id)).toMatchObject({ companyId: 'acme', createdBy: 'key_A' });
        expect(await acme.shipments.get(mine.id)).toMatchObject({ id: mine.id });

        await expect(globex.shipments.get(mine.id)).rejects.toBeInstanceOf(OtherCompanysRecord);
        await expect(globex.shipments.findByOrderNumber(mine.orderNumber)).rejects.toMatchObject({ problem: { status: 403 } });
        await expect(globex.quotes.get(quoted.id)).rejects.toBeInstanceOf(OtherCompanysRecord);
        await expect(globex.events.listByShipment(mine.id)).rejects.toBeInstanceOf(OtherCompanysRecord);
        expect(await globex.shipments.findByBolNumber(mine.bolNumber)).toBeUndefined();
        expect(await globex.shipments.findByProNumber('1234567897')).toEqual([]);
        expect(await globex.shipments.findByReference('PO-1')).toEqual([]);
        expect(await globex.shipments.findByQuote(mine.quoteId)).toEqual([]);
        expect((await globex.shipments.list({}, { limit: 5 })).items).toEqual([]);
        expect((await globex.quotes.list({}, { limit: 5 })).items).toEqual([]);
        // A unit of work of another company cannot read it either, nor write it.
        await expect(globex.withTransaction((tx) => tx.shipments.getRecord(mine.id))).rejects.toBeInstanceOf(OtherCompanysRecord);
        await expect(
          globex.withTransaction(async (tx) => {
            tx.shipments.put({ ...mine, orderStatus: 'CANCELLED' });
          }),
        ).rejects.toBeInstanceOf(OtherCompanysRecord);
        expect((await store.shipments.get(mine.id))?.orderStatus).toBe(mine.orderStatus);

        // The same Idempotency-Key is another key in each company; the default company's keys are stored as they are.
        expect(await acme.idempotency.get('shipment', 'order-1')).toMatchObject({ resourceId: mine.id });
        expect(await acme.imports.bookedUnder('order-1')).toEqual({ shipmentId: mine.id, requestHash: 'h' });
        expect(await globex.idempotency.get('shipment', 'order-1')).toBeUndefined();
        expect(await globex.imports.bookedUnder('order-1')).toBeUndefined();
        expect(await store.idempotency.get('shipment', 'order-1')).toBeUndefined();
        const owner = companyStore(store, { companyId: 'default', keyId: null });
        await owner.withTransaction(async (tx) => tx.idempotency.put('order-1', { scope: 'shipment', requestHash: 'h2', resourceId: 'sh_2', serial: 2 }));
        expect(await store.idempotency.get('shipment', 'order-1')).toMatchObject({ resourceId: 'sh_2' });

        // A later change names its key.
        await acme.withTransaction(async (tx) => {
          const record = (await tx.shipments.getRecord(mine.id))!;
          tx.shipments.put({ ...record.shipment, orderStatus: 'CANCELLED' }, record.ownQuote);
        });
        const other = companyStore(store, { companyId: 'acme', keyId: 'key_C' });
        await other.withTransaction(async (tx) => {
          const record = (await tx.shipments.getRecord(mine.id))!;
          tx.shipments.put({ ...record.shipment, cancellationReason: 'duplicate' }, record.ownQuote);
        });
        expect(await store.shipments.get(mine.id)).toMatchObject({ companyId: 'acme', createdBy: 'key_A', updatedBy: 'key_C', orderStatus: 'CANCELLED' });
      });
    });

    describe('the unit of work', () => {
      it('commits every write together, or none when the function throws (numbers included)', async () => {
        const failure = new Error('refused');
        await expect(
          store.withTransaction(async (tx) => {
            expect(await tx.counters.reserve('orders', 3)).toBe(1);
            tx.shipments.put(shipment(1));
            tx.idempotency.put('key-1', { scope: 'shipment', requestHash: 'h', resourceId: shipment(1).id, serial: 1 });
            throw failure;
          }),
        ).rejects.toBe(failure);
        expect(await store.shipments.get(shipment(1).id)).toBeUndefined();
        expect(await store.idempotency.get('shipment', 'key-1')).toBeUndefined();
        const answer = await store.withTransaction(async (tx) => {
          const first = await tx.counters.reserve('orders', 1);
          tx.shipments.put(shipment(1));
          // Its own writes are visible inside.
          expect((await tx.shipments.get(shipment(1).id))?.orderNumber).toBe('SO-000001');
          return first;
        });
        expect(answer).toBe(1);
        expect((await store.shipments.get(shipment(1).id))?.orderNumber).toBe('SO-000001');
      });

      it('serialises units of work: concurrent reservations never share a number', async () => {
        const firsts = await Promise.all(Array.from({ length: 20 }, () => store.withTransaction((tx) => tx.counters.reserve('sscc', 2))));
        const numbers = firsts.flatMap((first) => [first!, first! + 1]);
        expect(new Set(numbers).size).toBe(40);
        expect(Math.max(...numbers)).toBe(40);
      });
    });

    describe('counters', () => {
      it('reserve consecutive numbers from 1, separately per counter, up to a capacity', async () => {
        await store.withTransaction(async (tx) => {
          expect(await tx.counters.reserve('orders', 5)).toBe(1);
          expect(await tx.counters.reserve('orders', 1)).toBe(6);
          expect(await tx.counters.reserve('x12-control', 1)).toBe(1);
          expect(await tx.counters.reserve('pro-odfl-1000', 2, { capacity: 3 })).toBe(1);
          expect(await tx.counters.reserve('pro-odfl-1000', 2, { capacity: 3 })).toBeNull();
          expect(await tx.counters.reserve('pro-odfl-1000', 1, { capacity: 3 })).toBe(3);
        });
        await store.withTransaction(async (tx) => {
          expect(await tx.counters.last('orders')).toBe(6);
          expect(await tx.counters.reserve('orders', 1)).toBe(7);
        });
      });
    });

    describe('idempotency records and the import ledger', () => {
      it('keep a record per scope and key; the ledger reads shipment keys', async () => {
        await store.withTransaction(async (tx) => {
          tx.idempotency.put('k', { scope: 'shipment', requestHash: 'h1', resourceId: 'sh_1', serial: 4 });
          tx.idempotency.put('k', { scope: 'quote', requestHash: 'h2', resourceId: 'qt_1' });
        });
        expect(await store.idempotency.get('shipment', 'k')).toEqual({ scope: 'shipment', requestHash: 'h1', resourceId: 'sh_1', serial: 4 });
        expect(await store.idempotency.get('quote', 'k')).toMatchObject({ resourceId: 'qt_1' });
        expect(await store.idempotency.get('quote', 'other')).toBeUndefined();
        expect(await store.imports.bookedUnder('k')).toEqual({ shipmentId: 'sh_1', requestHash: 'h1' });
        expect(await store.imports.bookedUnder('nope')).toBeUndefined();
      });
    });

    describe('shipment events', () => {
      it('appends, lists by shipment in the order they occurred, and finds by message digest', async () => {
        const a = shipment(1);
        await put(a);
        const event = (id: string, occurredAt: string, digest: string | null): ShipmentEventRecord => ({
          id,
          shipmentId: a.id,
          occurredAt,
          recordedAt: '2026-11-20T00:00:00.000Z',
          messageDigest: digest,
          event: { code: id },
        });
        await store.withTransaction(async (tx) => tx.events.append([event('ev_2', '2026-11-19T12:00:00.000Z', 'd1'), event('ev_1', '2026-11-19T08:00:00.000Z', 'd1')]));
        await store.withTransaction(async (tx) => tx.events.append([event('ev_3', '2026-11-20T08:00:00.000Z', null)]));
        expect((await store.events.listByShipment(a.id)).map((one) => one.id)).toEqual(['ev_1', 'ev_2', 'ev_3']);
        expect((await store.events.findByMessageDigest('d1')).map((one) => one.id).sort()).toEqual(['ev_1', 'ev_2']);
        expect(await store.events.findByMessageDigest('d2')).toEqual([]);
        expect(await store.events.listByShipment(shipment(2).id)).toEqual([]);
      });
    });

    describe('weekly fuel prices', () => {
      it('puts many weeks, replaces a week, gets and lists oldest first within a range', async () => {
        await store.withTransaction(async (tx) =>
          tx.fuelPrices.putMany([
            { week: '2026-11-09', usdPerGallon: '3.801' },
            { week: '2026-11-02', usdPerGallon: '3.790' },
            { week: '2026-11-16', usdPerGallon: '3.850' },
          ]),
        );
        await store.withTransaction(async (tx) => tx.fuelPrices.putMany([{ week: '2026-11-16', usdPerGallon: '3.859' }]));
        expect(await store.fuelPrices.get('2026-11-16')).toEqual({ week: '2026-11-16', usdPerGallon: '3.859' });
        expect(await store.fuelPrices.get('2026-11-23')).toBeUndefined();
        expect((await store.fuelPrices.list()).map((price) => price.week)).toEqual(['2026-11-02', '2026-11-09', '2026-11-16']);
        expect((await store.fuelPrices.list({ from: '2026-11-09' })).map((price) => price.week)).toEqual(['2026-11-09', '2026-11-16']);
        expect((await store.fuelPrices.list({ to: '2026-11-09' })).map((price) => price.week)).toEqual(['2026-11-02', '2026-11-09']);
      });
    });

    describe('saved locations and audited bills', () => {
      it('locations: names are case-insensitive; put replaces, remove says whether there was one', async () => {
        await store.locations.put({ name: 'Chicago-DC', address: { city: 'Chicago' } });
        await store.locations.put({ name: 'dock', address: { city: 'Gary' } });
        expect(await store.locations.get('chicago-dc')).toEqual({ name: 'Chicago-DC', address: { city: 'Chicago' } });
        expect(await store.locations.names()).toEqual(['chicago-dc', 'dock']);
        expect((await store.locations.list()).locations).toHaveLength(2);
        expect(await store.locations.remove('CHICAGO-DC')).toBe(true);
        expect(await store.locations.remove('chicago-dc')).toBe(false);
        expect(await store.locations.get('Chicago-DC')).toBeUndefined();
      });

      it('audited bills: the last of a key is kept', async () => {
        await store.auditedBills.putMany([
          { billKey: 'ODFL 1', record: { n: 1 } },
          { billKey: 'ODFL 2', record: { n: 2 } },
        ]);
        await store.auditedBills.putMany([{ billKey: 'ODFL 1', record: { n: 3 } }]);
        const { records, warnings } = await store.auditedBills.list();
        expect(warnings).toEqual([]);
        expect(records.map((record) => (record as { n: number }).n).sort()).toEqual([2, 3]);
      });
    });

    describe('print runs', () => {
      it('put replaces a run by id; lastOpen is the newest open run of its scope, none once it is finished', async () => {
        const older = '01KBY0000000000000000000A1';
        const newer = '01KBY0000000000000000000B2';
        const other = '01KBY0000000000000000000C3';
        await store.printRuns.put({ id: older, scope: 'bol', open: true, record: { sent: 1 } });
        await store.printRuns.put({ id: newer, scope: 'bol', open: true, record: { sent: 2 } });
        await store.printRuns.put({ id: other, scope: 'labels', open: true, record: { sent: 3 } });
        expect(await store.printRuns.lastOpen('bol')).toEqual({ id: newer, scope: 'bol', open: true, record: { sent: 2 } });
        await store.printRuns.put({ id: newer, scope: 'bol', open: false, record: { sent: 5 } });
        expect(await store.printRuns.get(newer)).toEqual({ id: newer, scope: 'bol', open: false, record: { sent: 5 } });
        expect((await store.printRuns.lastOpen('bol'))?.id).toBe(older);
        await store.printRuns.put({ id: older, scope: 'bol', open: false, record: { sent: 1 } });
        expect(await store.printRuns.lastOpen('bol')).toBeUndefined();
        expect(await store.printRuns.lastOpen('import:abc')).toBeUndefined();
        expect(await store.printRuns.get('01KBY0000000000000000000Z9')).toBeUndefined();
      });
    });

    describe('appointment documents', () => {
      it('put replaces the document of a shipment, stop and type; get answers its bytes; remove says whether there was one', async () => {
        const shipmentId = 'sh_01KBY00000000000000000000A';
        const pdf = (text: string) => new Uint8Array(Buffer.from(`%PDF-1.7\n${text}\n%%EOF\n`, 'latin1'));
        const document = { id: 'doc_1', filename: 'slip.pdf' };
        expect(await store.appointmentDocuments.get(shipmentId, 'PICKUP', 'PACKING_SLIP')).toBeUndefined();
        await store.appointmentDocuments.put({ shipmentId, stop: 'PICKUP', type: 'PACKING_SLIP', document, content: pdf('first') });
        await store.appointmentDocuments.put({ shipmentId, stop: 'PICKUP', type: 'CUSTOMER_BOL', document: { id: 'doc_2' }, content: pdf('other') });
        await store.appointmentDocuments.put({ shipmentId, stop: 'PICKUP', type: 'PACKING_SLIP', document: { ...document, id: 'doc_3' }, content: pdf('second, longer') });
        const kept = await store.appointmentDocuments.get(shipmentId, 'PICKUP', 'PACKING_SLIP');
        expect(kept).toMatchObject({ shipmentId, stop: 'PICKUP', type: 'PACKING_SLIP', document: { id: 'doc_3', filename: 'slip.pdf' } });
        expect(Buffer.from(kept!.content).toString('latin1')).toBe('%PDF-1.7\nsecond, longer\n%%EOF\n');
        // Bytes of every value survive (bytea, a file): not text.
        const binary = new Uint8Array(256).map((_, index) => index);
        await store.appointmentDocuments.put({ shipmentId, stop: 'DELIVERY', type: 'PACKING_SLIP', document, content: binary });
        expect((await store.appointmentDocuments.get(shipmentId, 'DELIVERY', 'PACKING_SLIP'))!.content).toEqual(binary);
        expect(await store.appointmentDocuments.remove(shipmentId, 'PICKUP', 'PACKING_SLIP')).toBe(true);
        expect(await store.appointmentDocuments.remove(shipmentId, 'PICKUP', 'PACKING_SLIP')).toBe(false);
        expect(await store.appointmentDocuments.get(shipmentId, 'PICKUP', 'PACKING_SLIP')).toBeUndefined();
        expect((await store.appointmentDocuments.get(shipmentId, 'PICKUP', 'CUSTOMER_BOL'))?.document).toEqual({ id: 'doc_2' });
      });
    });

    describe('credentials', () => {
      const client = {
        id: 'cl_01KBY0000000000000000000A1',
        kind: 'client' as const,
        name: 'Acme',
        hash: 'a'.repeat(64),
        last4: 'wxyz',
        createdAt: '2026-11-23T15:00:00.000Z',
        revokedAt: null,
      };
      const key = {
        id: 'key_01KBY0000000000000000000B2',
        kind: 'key' as const,
        companyId: 'acme',
        live: false,
        hash: 'b'.repeat(64),
        last4: 'abcd',
        createdAt: '2026-11-23T15:00:01.000Z',
        revokedAt: null,
      };

      it('adds, gets, lists oldest first and revokes clients and keys; revoking twice keeps the first instant', async () => {
        expect(await store.credentials.list()).toEqual([]);
        await store.credentials.add(key);
        await store.credentials.add(client);
        expect(await store.credentials.get(client.id)).toEqual(client);
        expect(await store.credentials.get('key_01KBY0000000000000000000Z9')).toBeUndefined();
        expect(await store.credentials.get('../etc/passwd')).toBeUndefined();
        expect((await store.credentials.list()).map((record) => record.id)).toEqual([client.id, key.id]);
        expect(await store.credentials.revoke(key.id, '2026-11-24T00:00:00.000Z')).toEqual({ ...key, revokedAt: '2026-11-24T00:00:00.000Z' });
        expect((await store.credentials.revoke(key.id, '2026-11-25T00:00:00.000Z'))?.revokedAt).toBe('2026-11-24T00:00:00.000Z');
        expect(await store.credentials.revoke('cl_01KBY0000000000000000000Z9', '2026-11-25T00:00:00.000Z')).toBeUndefined();
      });

      it('keeps the first signing secret it is given', async () => {
        const first = await store.credentials.signingSecret('s'.repeat(64));
        expect(first).toBe('s'.repeat(64));
        expect(await store.credentials.signingSecret('t'.repeat(64))).toBe(first);
      });

      it('counts failures per bucket since an instant and forgets old ones', async () => {
        await store.credentials.addFailure('cl_1\n203.0.113.7', 1_000, 0);
        await store.credentials.addFailure('cl_1\n203.0.113.7', 2_000, 0);
        await store.credentials.addFailure('cl_1\n203.0.113.8', 2_500, 0);
        expect(await store.credentials.failures('cl_1\n203.0.113.7', 0)).toEqual([1_000, 2_000]);
        expect(await store.credentials.failures('cl_1\n203.0.113.7', 1_500)).toEqual([2_000]);
        await store.credentials.addFailure('cl_1\n203.0.113.7', 70_000, 10_000);
        expect(await store.credentials.failures('cl_1\n203.0.113.7', 0)).toEqual([70_000]);
        expect(await store.credentials.failures('nobody', 0)).toEqual([]);
      });
    });
  });
}
