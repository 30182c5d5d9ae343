/**
 * The PostgreSQL store on a real PostgreSQL (the run's server, a database of this file): schema
 * versions, the unit of work (serialised, all or nothing), gapless counters across pools, reads by
 * every key, paging, damaged records, and what an unusable database says.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import { StoreUnavailableError } from '../../../src/store/storeError.js';
import type { Quote, Shipment } from '../../../src/domain/schemas.js';
import { migrate, MIGRATIONS, schemaStatus, SCHEMA_VERSION } from '../../../src/store/postgres/migrations.js';
import { PostgresStore } from '../../../src/store/postgres/postgresStore.js';
import { StoreError } from '../../../src/store/storeError.js';
import { tempDir } from '../../helpers/cli.js';
import { apiAt, shipmentRequest } from '../../helpers/fixtures.js';
import { oldQuote, oldShipment } from '../../helpers/legacyRecords.js';
import { testDatabase } from '../../helpers/postgres.js';

let url: string;
let admin: postgres.Sql;
let booked: Shipment;
let ownQuote: Quote;
const stores: PostgresStore[] = [];

async function openStore(options: { migrateOnPrepare?: boolean; url?: string } = {}): Promise<PostgresStore> {
  const store = await PostgresStore.open({ url: options.url ?? url, max: 4, migrateOnPrepare: options.migrateOnPrepare });
  stores.push(store);
  return store;
}

/** A booked shipment with other numbers and id (a ULID-shaped id that sorts by `n`). */
function variant(n: number, overrides: Partial<Shipment> = {}): Shipment {
  const serial = String(n).padStart(6, '0');
  return {
    ...booked,
    id: `sh_01KAAAAAAAAAAAAAAAAA${serial}`,
    orderNumber: `SO-9${serial}`,
    bolNumber: `0000000${serial}0000`,
    createdAt: new Date(Date.parse(booked.createdAt) + n * 1000).toISOString(),
    ...overrides,
  };
}

beforeAll(async () => {
  url = await testDatabase();
  admin = postgres(url, { max: 1, onnotice: () => undefined });
  const { dir } = await tempDir();
  const { api } = apiAt(dir);
  booked = (await api.createShipment(shipmentRequest({ refNumber: 'PO-77 a' }))).data;
  ownQuote = (await api.getQuote(booked.quoteId)).data;
});
afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
  await admin?.end();
});

describe('the PostgreSQL store', () => {
  it('refuses a database without its schema, says how to migrate, and migrates once when two start together', async () => {
    const cli = await openStore();
    const error = await cli.prepare().catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as StoreUnavailableError).message).toMatch(/no shipper schema yet: run shipper db migrate/);
    expect((error as StoreUnavailableError).message).not.toContain(new URL(url).password);

    const [a, b] = await Promise.all([migrate((await openStore()).sql), migrate((await openStore()).sql)]);
    expect([...a.applied, ...b.applied]).toEqual([1, 2, 3, 4, 5, 6]);
    expect(a.status).toMatchObject({ current: SCHEMA_VERSION, latest: SCHEMA_VERSION, pending: [] });
    await cli.prepare();
  });

  it('writes a unit of work together and reads it back by every key', async () => {
    const store = await openStore();
    await store.withTransaction(async (tx) => {
      tx.shipments.put(booked, ownQuote);
      tx.idempotency.put('key-1', { scope: 'shipment', requestHash: 'h1', resourceId: booked.id, serial: 1 });
      // Its own writes are visible inside.
      expect(await tx.shipments.get(booked.id)).toEqual(booked);
    });
    expect(await store.shipments.get(booked.id)).toEqual(booked);
    expect(await store.shipments.getRecord(booked.id)).toEqual({ shipment: booked, ownQuote });
    expect(await store.shipments.findByOrderNumber(booked.orderNumber)).toEqual(booked);
    expect(await store.shipments.findByBolNumber(booked.bolNumber)).toEqual(booked);
    expect(await store.shipments.findByReference(' po-77   A')).toEqual([booked]);
    expect(await store.shipments.findByQuote(booked.quoteId)).toEqual([booked]);
    expect(await store.quotes.get(ownQuote.id)).toEqual(ownQuote);
    // A shipment's own quote is found by id but not listed among quotes.
    expect((await store.quotes.list({}, { limit: 10 })).items).toEqual([]);
    expect(await store.idempotency.get('shipment', 'key-1')).toEqual({ scope: 'shipment', requestHash: 'h1', resourceId: booked.id, serial: 1 });
    expect(await store.imports.bookedUnder('key-1')).toEqual({ shipmentId: booked.id, requestHash: 'h1' });

    const withPro = { ...booked, proNumber: '123-4567-8', carrier: { name: 'Old Dominion', scac: 'ODFL' } };
    await store.withTransaction(async (tx) => tx.shipments.put(withPro));
    expect(await store.shipments.findByProNumber('12345678')).toEqual([withPro]);
    expect(await store.shipments.findByProNumber('12345678', 'XPOL')).toEqual([]);
    // Replacing a shipment keeps the quote it priced for itself.
    expect((await store.shipments.getRecord(booked.id))!.ownQuote).toEqual(ownQuote);
  });

  it('writes nothing of a unit of work that throws', async () => {
    const store = await openStore();
    const failure = store.withTransaction(async (tx) => {
      tx.shipments.put(variant(900));
      await tx.counters.reserve('orders', 1);
      throw new Error('the booking failed');
    });
    await expect(failure).rejects.toThrow('the booking failed');
    expect(await store.shipments.get(variant(900).id)).toBeUndefined();
  });

  it('gives numbers without a gap or a duplicate: rolled-back reservations are given again, across pools', async () => {
    const [one, two] = [await openStore(), await openStore()];
    const first = await one.withTransaction((tx) => tx.counters.reserve('sscc', 3));
    await expect(
      two.withTransaction(async (tx) => {
        await tx.counters.reserve('sscc', 5);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const issued = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        (index % 2 ? one : two)
          .withTransaction(async (tx) => {
            if (index % 7 === 0) {
              await tx.counters.reserve('sscc', 1);
              throw new Error('rolled back');
            }
            return tx.counters.reserve('sscc', 1);
          })
          .catch(() => null),
      ),
    );
    const numbers = issued.filter((value): value is number => value !== null).sort((a, b) => a - b);
    expect(first).toBe(1);
    expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, index) => index + 4));
    expect(await one.withTransaction((tx) => tx.counters.last('sscc'))).toBe(3 + numbers.length);
    expect(await one.withTransaction((tx) => tx.counters.reserve('pro-ODFL', 2, { capacity: 3 }))).toBe(1);
    expect(await one.withTransaction((tx) => tx.counters.reserve('pro-ODFL', 2, { capacity: 3 }))).toBeNull();
    expect(await one.withTransaction((tx) => tx.counters.reserve('pro-ODFL', 1, { capacity: 3 }))).toBe(3);
  });

  it('has unique order and BOL numbers as a backstop', async () => {
    const store = await openStore();
    const clash = store.withTransaction(async (tx) => tx.shipments.put(variant(901, { orderNumber: booked.orderNumber })));
    await expect(clash).rejects.toThrow(/order_number/);
  });

  it('lists newest first with a cursor and filters, skipping (and naming) a damaged record', async () => {
    const store = await openStore();
    await store.withTransaction(async (tx) => {
      for (let n = 1; n <= 7; n++) tx.shipments.put(variant(n, { orderStatus: n % 2 ? 'CONFIRMED' : 'CANCELLED' }));
    });
    const first = await store.shipments.list({ created: { from: Date.parse(variant(1).createdAt) } }, { limit: 3 });
    expect(first.items.map((shipment) => shipment.orderNumber)).toEqual(['SO-9000007', 'SO-9000006', 'SO-9000005']);
    const second = await store.shipments.list({ created: { from: Date.parse(variant(1).createdAt) } }, { limit: 3, cursor: first.nextCursor! });
    expect(second.items.map((shipment) => shipment.orderNumber)).toEqual(['SO-9000004', 'SO-9000003', 'SO-9000002']);
    const cancelled = await store.shipments.list({ orderStatus: 'CANCELLED', bolNumbers: [variant(2).bolNumber, variant(3).bolNumber] }, { limit: 10 });
    expect(cancelled.items.map((shipment) => shipment.orderNumber)).toEqual(['SO-9000002']);

    await admin`update shipments set record = record - 'bolNumber' where id = ${variant(5).id}`;
    const damaged = await store.shipments.list({ created: { from: Date.parse(variant(1).createdAt) } }, { limit: 3 });
    expect(damaged.items.map((shipment) => shipment.orderNumber)).toEqual(['SO-9000007', 'SO-9000006']);
    expect(damaged.warnings).toEqual([expect.stringContaining(`shipment ${variant(5).id} in the database does not hold a valid record`)]);
    await expect(store.shipments.get(variant(5).id)).rejects.toBeInstanceOf(StoreError);
  });

  it('refuses a database a newer shipper migrated, with one line', async () => {
    const other = await testDatabase();
    const store = await openStore({ url: other, migrateOnPrepare: true });
    await store.prepare();
    await store.sql`insert into shipper_migrations (version, name) values (${SCHEMA_VERSION + 1}, 'future')`;
    for (const candidate of [store, await openStore({ url: other })]) {
      const error = (await candidate.prepare().catch((failure: unknown) => failure)) as StoreUnavailableError;
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect(error.message).toMatch(new RegExp(`schema is version ${SCHEMA_VERSION + 1}, newer than this shipper's ${SCHEMA_VERSION}: .*upgrade shipper`));
    }
    expect((await schemaStatus(store.sql)).current).toBe(SCHEMA_VERSION + 1);
  });

  it('migrates a database at schema version 3 holding old rows to the latest: order_status and delivery_zip_code as they should be, company_id the default company, reads in the published names', async () => {
    const old = await testDatabase();
    const sql = postgres(old, { max: 1, onnotice: () => undefined });
    try {
      // Schema version 3, as a shipper before the published wire left it.
      await sql.begin(async (tx) => {
        await tx.unsafe('CREATE TABLE shipper_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())');
        for (const migration of MIGRATIONS.filter((candidate) => candidate.version <= 3)) {
          await tx.unsafe(migration.sql);
          await tx`insert into shipper_migrations (version, name) values (${migration.version}, ${migration.name})`;
        }
      });
      expect((await schemaStatus(sql)).current).toBe(3);

      // Its rows, written with the old names: the booking status beside the tracking status (none: a record older than tracking).
      const cases = [
        { n: 1, status: 'BOOKED', tracking: undefined, expected: 'CONFIRMED' },
        { n: 2, status: 'BOOKED', tracking: 'NONE', expected: 'CONFIRMED' },
        { n: 3, status: 'BOOKED', tracking: 'AT_PICKUP', expected: 'ASSIGNED' },
        { n: 4, status: 'BOOKED', tracking: 'PICKED_UP', expected: 'PICKED_UP' },
        { n: 5, status: 'BOOKED', tracking: 'IN_TRANSIT', expected: 'PICKED_UP' },
        { n: 6, status: 'BOOKED', tracking: 'OUT_FOR_DELIVERY', expected: 'PICKED_UP' },
        { n: 7, status: 'BOOKED', tracking: 'AT_DELIVERY', expected: 'PICKED_UP' },
        { n: 8, status: 'BOOKED', tracking: 'DELIVERED', expected: 'DELIVERED' },
        { n: 9, status: 'BOOKED', tracking: 'EXCEPTION', expected: 'CONFIRMED' },
        { n: 10, status: 'CANCELLED', tracking: 'DELIVERED', expected: 'CANCELLED' },
        { n: 11, status: 'CANCELLED', tracking: undefined, expected: 'CANCELLED' },
      ] as const;
      const extra = (n: number): Partial<Shipment> => ({
        ...(n === 8 ? { deliveredAt: '2026-11-24T20:00:00.000Z' } : {}),
        ...(n >= 10 ? { cancelledAt: '2026-11-18T19:00:00.000Z', cancellationReason: 'changed plans' } : {}),
        // One delivered elsewhere: its ZIP column is the consignee's five digits.
        ...(n === 11 ? { deliveryAddress: { ...booked.deliveryAddress, zipCode: '07302', city: 'Jersey City', state: 'NJ' } } : {}),
      });
      const quoteId = (n: number) => `qt_01KAAAAAAAAAAAAAAAAA${String(n).padStart(6, '0')}`;
      const ownQuoteOf = (n: number): Quote => ({ ...ownQuote, id: quoteId(n) });
      await sql`insert into shipments ${sql(
        cases.map(({ n, status, tracking }) => {
          const shipment = variant(n, { ...extra(n), quoteId: quoteId(n) });
          return {
            id: shipment.id,
            created_at: new Date(shipment.createdAt),
            status,
            order_number: shipment.orderNumber,
            bol_number: shipment.bolNumber,
            pro_number: null,
            scac: null,
            reference: shipment.refNumber,
            quote_id: shipment.quoteId,
            consignee_postal_code: shipment.deliveryAddress.zipCode,
            record: sql.json(oldShipment(shipment, status, tracking) as never),
            own_quote: n === 1 ? sql.json(oldQuote(ownQuoteOf(1)) as never) : null,
          };
        }),
      )}`;
      const standalone = { ...ownQuote, id: quoteId(100) };
      await sql`insert into quotes ${sql([{ id: standalone.id, created_at: new Date(standalone.createdAt), destination_postal_code: '10001', record: sql.json(oldQuote(standalone) as never) }])}`;

      expect((await migrate(sql)).applied).toEqual([4, 5, 6]);
      expect((await schemaStatus(sql)).current).toBe(6);

      // The indexed copies, in SQL: renamed, and BOOKED become the state the carrier's events imply.
      const rows = await sql<Array<{ id: string; order_status: string; delivery_zip_code: string }>>`select id, order_status, delivery_zip_code from shipments order by id`;
      expect(rows).toEqual(cases.map(({ n, expected }) => ({ id: variant(n).id, order_status: expected, delivery_zip_code: n === 11 ? '07302' : '10001' })));
      expect(await sql`select id, delivery_zip_code from quotes`).toEqual([{ id: standalone.id, delivery_zip_code: '10001' }]);
      // Rows written before companies belong to the default company (migration 5).
      expect(await sql`select distinct company_id from shipments union select distinct company_id from quotes`).toEqual([{ company_id: 'default' }]);
      const columns = async (table: string) =>
        (await sql<Array<{ column_name: string }>>`select column_name from information_schema.columns where table_name = ${table}`).map((row) => row.column_name);
      expect(await columns('shipments')).toEqual(expect.arrayContaining(['order_status', 'delivery_zip_code']));
      expect(await columns('shipments')).not.toEqual(expect.arrayContaining(['status']));
      expect(await columns('shipments')).not.toEqual(expect.arrayContaining(['consignee_postal_code']));
      expect(await columns('quotes')).toEqual(expect.arrayContaining(['delivery_zip_code']));
      expect(await columns('quotes')).not.toEqual(expect.arrayContaining(['destination_postal_code']));
      expect((await sql<Array<{ indexname: string }>>`select indexname from pg_indexes where tablename = 'shipments'`).map((row) => row.indexname)).toContain(
        'shipments_order_status',
      );
      // The records themselves keep what they were written with.
      expect(await sql`select count(*)::int as old from shipments where record ? 'shipper' and record ? 'status' and not record ? 'orderStatus'`).toEqual([{ old: cases.length }]);

      // Read through the store: the published names, the same states.
      const store = await openStore({ url: old });
      await store.prepare();
      for (const { n, tracking, expected } of cases) {
        const read = (await store.shipments.get(variant(n).id))!;
        const { trackingStatus: _written, ...rest } = variant(n, { ...extra(n), quoteId: quoteId(n) });
        expect({ ...read, trackingStatus: undefined }, `case ${n}`).toEqual({ ...rest, orderStatus: expected, trackingStatus: undefined });
        if (tracking !== undefined) expect(read.trackingStatus).toBe(tracking);
        for (const name of ['shipper', 'consignee', 'pickupDate', 'quotedPriceInCents', 'status']) expect(read).not.toHaveProperty(name);
        for (const name of ['street1', 'postalCode', 'contactName', 'phone']) expect(read.deliveryAddress).not.toHaveProperty(name);
      }
      const own = await store.shipments.getRecord(variant(1).id);
      expect(own?.ownQuote).toEqual(ownQuoteOf(1));
      expect(await store.quotes.get(standalone.id)).toEqual(standalone);
      expect(await store.quotes.get(quoteId(1))).toEqual(ownQuoteOf(1));
      const listed = async (filter: Parameters<typeof store.shipments.list>[0]) =>
        (await store.shipments.list(filter, { limit: 50 })).items.map((shipment) => shipment.orderNumber).sort();
      const orders = (...ns: number[]) => ns.map((n) => variant(n).orderNumber).sort();
      expect(await listed({ orderStatus: 'ASSIGNED' })).toEqual(orders(3));
      expect(await listed({ orderStatus: 'PICKED_UP' })).toEqual(orders(4, 5, 6, 7));
      expect(await listed({ orderStatus: 'CONFIRMED' })).toEqual(orders(1, 2, 9));
      expect(await listed({ orderStatus: 'DELIVERED' })).toEqual(orders(8));
      expect(await listed({ orderStatus: 'CANCELLED' })).toEqual(orders(10, 11));
      expect(await listed({ orderStatus: 'ACTIVE' })).toEqual(orders(1, 2, 3, 4, 5, 6, 7, 8, 9));
      expect(await listed({ deliveryZipCode: '07302' })).toEqual(orders(11));
      expect(await listed({ deliveryZipCode: '10001', orderStatus: 'CANCELLED' })).toEqual(orders(10));
      expect((await store.quotes.list({ deliveryZipCode: '10001' }, { limit: 10 })).items.map((quote) => quote.id)).toEqual([standalone.id]);
    } finally {
      await sql.end();
    }
  });

  it('says in one line, without the password, that a database is down, refuses the login or is read-only', async () => {
    const server = new URL(url);
    const down = new URL(url);
    down.port = '1';
    const wrongPassword = new URL(url);
    wrongPassword.password = 'not-the-password';
    const missing = new URL(url);
    missing.pathname = '/no_such_database';
    const cases: Array<[string, RegExp]> = [
      [down.href, /is not accepting connections \(connection refused\)$/],
      [wrongPassword.href, /refused the login \(wrong user or password\)$/],
      [missing.href, /does not exist/],
    ];
    for (const [target, line] of cases) {
      const error = (await (await openStore({ url: target })).prepare().catch((failure: unknown) => failure)) as StoreUnavailableError;
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect(error.message).toMatch(line);
      expect(error.message).not.toContain(server.password);
      expect(error.message).not.toContain('not-the-password');
      expect(error.message).toContain('postgres://postgres:****@127.0.0.1');
    }

    const readOnly = await testDatabase();
    await (await openStore({ url: readOnly, migrateOnPrepare: true })).prepare();
    const name = new URL(readOnly).pathname.slice(1);
    await admin.unsafe(`alter database ${name} set default_transaction_read_only = on`);
    const store = await openStore({ url: readOnly });
    const error = (await store.withTransaction(async (tx) => tx.counters.reserve('orders', 1)).catch((failure: unknown) => failure)) as StoreUnavailableError;
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(error.message).toMatch(/is read-only/);
  });
});
