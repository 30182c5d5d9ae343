/**
 * `shipper store export --to FILE` and `shipper store import FILE` on PostgreSQL, through the
 * CLI (main() in process; serve.test.ts runs the built binary on PostgreSQL): a round trip gives
 * the same records, counters are only raised (no number issued again), and a bad file imports nothing.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../src/domain/canonicalJson.js';
import type { Shipment } from '../../../src/domain/schemas.js';
import { migrate } from '../../../src/store/postgres/migrations.js';
import { PostgresStore } from '../../../src/store/postgres/postgresStore.js';
import { tempDir } from '../../helpers/cli.js';
import { apiAt, shipmentRequest, withContact } from '../../helpers/fixtures.js';
import { runInProcess } from '../../helpers/inProcess.js';
import { testDatabase } from '../../helpers/postgres.js';

let dir: string;
let source: PostgresStore;
const stores: PostgresStore[] = [];
const cleanups: Array<() => Promise<void>> = [];

async function migratedStore(): Promise<PostgresStore> {
  const store = await PostgresStore.open({ url: await testDatabase(), max: 2 });
  await migrate(store.sql);
  stores.push(store);
  return store;
}

const withoutHeader = (text: string) => text.split('\n').filter((line) => line && !line.includes('"type":"header"'));

beforeAll(async () => {
  const temp = await tempDir();
  dir = temp.dir;
  cleanups.push(temp.cleanup);
  source = await migratedStore();
  const { api } = apiAt(dir);
  const booked = (await api.createShipment(shipmentRequest())).data;
  const ownQuote = (await api.getQuote(booked.quoteId)).data;
  const quote = (
    await api.createLaneQuote({ pickupAddress: { zipCode: '60608' }, deliveryAddress: { zipCode: '10001' }, orderComponents: shipmentRequest().orderComponents } as never)
  ).data;
  const second: Shipment = {
    ...booked,
    id: `${booked.id.slice(0, -1)}${booked.id.endsWith('Z') ? 'Y' : 'Z'}`,
    orderNumber: 'SO-000041',
    bolNumber: '00000000000000418',
    proNumber: '77-1',
    carrier: { name: 'Old Dominion', scac: 'ODFL' },
  };
  await source.quotes.put(quote);
  await source.withTransaction(async (tx) => {
    tx.shipments.put(booked, ownQuote);
    tx.shipments.put(second);
    tx.idempotency.put('idem-1', { scope: 'shipment', requestHash: 'abc', resourceId: booked.id, serial: 1 });
    tx.events.append([
      { id: 'ev_1', shipmentId: booked.id, occurredAt: '2026-11-19T15:00:00.000Z', recordedAt: '2026-11-19T15:01:00.000Z', messageDigest: 'd1', event: { code: 'AF' } },
    ]);
    tx.fuelPrices.putMany([{ week: '2026-11-16', usdPerGallon: '3.859' }]);
    await tx.counters.reserve('orders', 41);
    await tx.counters.reserve('sscc', 7);
    await tx.counters.reserve('pro-ODFL', 3);
  });
  await source.locations.put({ name: 'Chicago-DC', address: shipmentRequest().pickupAddress });
  await source.auditedBills.putMany([{ billKey: 'ODFL 123', record: { billKey: 'ODFL 123', verdict: 'ok' } }]);
});
afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
  await Promise.all(cleanups.map((cleanup) => cleanup()));
});

describe('shipper store export / import on PostgreSQL', () => {
  it('round-trips every record and the counters, and never issues a number again', async () => {
    const first = join(dir, 'first.jsonl');
    const exported = await runInProcess(['--store', source.url, '--json', 'store', 'export', '--to', first]);
    expect(exported.code).toBe(0);
    expect(JSON.parse(exported.stdout).counts).toEqual({ shipment: 2, quote: 1, idempotency: 1, event: 1, fuelPrice: 1, location: 1, auditedBill: 1, counter: 3 });

    const target = await migratedStore();
    const imported = await runInProcess(['--store', target.url, 'store', 'import', first]);
    expect(imported).toMatchObject({ code: 0, stderr: '' });
    expect(imported.stdout).toMatch(/^Imported 2 shipments, 1 quote, 1 idempotency key, 1 shipment event, 1 fuel price, 1 saved location, 1 audited bill, 3 counters from /);
    // Again: the same records replaced, nothing doubled.
    expect((await runInProcess(['--store', target.url, 'store', 'import', first])).code).toBe(0);

    const second = join(dir, 'second.jsonl');
    expect((await runInProcess(['--store', target.url, 'store', 'export', '--to', second])).code).toBe(0);
    expect(withoutHeader(await readFile(second, 'utf8'))).toEqual(withoutHeader(await readFile(first, 'utf8')));

    expect(await target.withTransaction((tx) => tx.counters.reserve('orders', 1))).toBe(42);
    expect(await target.withTransaction((tx) => tx.counters.reserve('sscc', 1))).toBe(8);
    expect(await target.withTransaction((tx) => tx.counters.reserve('pro-ODFL', 1))).toBe(4);
    expect((await target.shipments.findByProNumber('771', 'ODFL')).map((shipment) => shipment.orderNumber)).toEqual(['SO-000041']);
  });

  it('raises a counter to the highest number the records carry even when the file has no counter line', async () => {
    const text = await readFile(join(dir, 'first.jsonl'), 'utf8');
    const file = join(dir, 'no-counters.jsonl');
    await writeFile(
      file,
      text
        .split('\n')
        .filter((line) => !line.includes('"type":"counter"'))
        .join('\n'),
    );
    const target = await migratedStore();
    expect((await runInProcess(['--store', target.url, 'store', 'import', file])).code).toBe(0);
    expect(await target.withTransaction((tx) => tx.counters.reserve('orders', 1))).toBe(42);
  });

  it('imports nothing from a file with a bad line, and says which', async () => {
    const lines = (await readFile(join(dir, 'first.jsonl'), 'utf8')).split('\n');
    const broken = join(dir, 'broken.jsonl');
    await writeFile(broken, [...lines.slice(0, 3), '{"type":"shipment","shipment":{"id":"sh_x"}}', ...lines.slice(3)].join('\n'));
    const target = await migratedStore();
    const result = await runInProcess(['--store', target.url, 'store', 'import', broken]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/line 4: .*nothing was imported/);
    expect(await target.sql`select count(*)::int as n from shipments`).toEqual([{ n: 0 }]);

    const notExport = join(dir, 'not-export.jsonl');
    await writeFile(notExport, '{"hello": "world"}\n');
    const refused = await runInProcess(['--store', target.url, 'store', 'import', notExport]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/is not a shipper store export/);
    expect((await runInProcess(['--store', target.url, 'store', 'import', join(dir, 'missing.jsonl')])).code).toBe(2);
  });

  it('refuses to overwrite an export without --force, and exit 5 when the database is down', async () => {
    const file = join(dir, 'first.jsonl');
    const again = await runInProcess(['--store', source.url, 'store', 'export', '--to', file]);
    expect(again.code).toBe(2);
    const down = new URL(source.url);
    down.port = '1';
    const failed = await runInProcess(['--store', down.href, 'store', 'export', '--to', join(dir, 'down.jsonl')]);
    expect(failed.code).toBe(5);
    expect(failed.stderr).toMatch(/is not accepting connections/);
    expect(failed.stderr).not.toContain(new URL(source.url).password);
  });
});

describe('moving a JSON store into PostgreSQL and back', () => {
  it('gives the same records, and the counters go on from where they were', async () => {
    const { dir: json, cleanup } = await tempDir();
    cleanups.push(cleanup);
    const { api } = apiAt(json);
    for (const refNumber of ['PO-1', 'PO-2', 'PO-3']) await api.createShipment(shipmentRequest({ refNumber }));
    // A booking made with an idempotency key: the key travels with the store.
    const keyed = (await api.createShipment(shipmentRequest({ refNumber: 'PO-4' }), { idempotencyKey: 'erp-order-4' })).data;
    const quote = (
      await api.createLaneQuote({ pickupAddress: { zipCode: '60608' }, deliveryAddress: { zipCode: '10001' }, orderComponents: shipmentRequest().orderComponents } as never)
    ).data;
    await api.close();

    const fromJson = join(dir, 'from-json.jsonl');
    expect((await runInProcess(['--store', json, 'store', 'export', '--to', fromJson])).code).toBe(0);
    const database = await migratedStore();
    expect((await runInProcess(['--store', database.url, 'store', 'import', fromJson])).code).toBe(0);
    const fromDatabase = join(dir, 'from-database.jsonl');
    expect((await runInProcess(['--store', database.url, 'store', 'export', '--to', fromDatabase])).code).toBe(0);
    const { dir: back, cleanup: cleanBack } = await tempDir();
    cleanups.push(cleanBack);
    expect((await runInProcess(['--store', back, 'store', 'import', fromDatabase])).code).toBe(0);
    const again = join(dir, 'again.jsonl');
    expect((await runInProcess(['--store', back, 'store', 'export', '--to', again])).code).toBe(0);

    // jsonb keeps an object's keys in its own order: records are compared as JSON values.
    const records = async (file: string) =>
      withoutHeader(await readFile(file, 'utf8'))
        .map((line) => canonicalJson(JSON.parse(line)))
        .sort();
    const original = await records(fromJson);
    expect(original.filter((line) => line.includes('"type":"shipment"'))).toHaveLength(4);
    expect(original.filter((line) => line.includes('"type":"idempotency"') && line.includes('"key":"erp-order-4"'))).toHaveLength(1);
    expect(original.filter((line) => line.includes('"type":"counter"')).length).toBeGreaterThanOrEqual(2);
    expect(original.some((line) => line.includes(quote.id))).toBe(true);
    expect(await records(fromDatabase)).toEqual(original);
    expect(await records(again)).toEqual(original);
    // Moved there and back, the key still answers its booking instead of booking again.
    const { api: backApi } = apiAt(back);
    const replay = await backApi.createShipment(shipmentRequest({ refNumber: 'PO-4' }), { idempotencyKey: 'erp-order-4' });
    expect(replay).toMatchObject({ replayed: true, data: { id: keyed.id, orderNumber: keyed.orderNumber } });
    await backApi.close();

    // The next booking on the database and on the store moved back takes the next order number.
    const next = await runInProcess([
      '--store',
      database.url,
      '--json',
      'ship',
      '--shipper',
      withContact('name=Acme DC,address1=2100 S Halsted St,city=Chicago,state=IL,zip=60608'),
      '--consignee',
      withContact('name=Store 12,address1=1 Penn Plaza,city=New York,state=NY,zip=10001'),
      '-c',
      'pallets=1,weight=500,dims=48x40x48,desc=Parts',
    ]);
    expect(next.code, next.stderr).toBe(0);
    expect(JSON.parse(next.stdout).orderNumber).toBe('SO-000005');
    const nextBack = await runInProcess([
      '--store',
      back,
      '--json',
      'ship',
      '--shipper',
      withContact('name=Acme DC,address1=2100 S Halsted St,city=Chicago,state=IL,zip=60608'),
      '--consignee',
      withContact('name=Store 12,address1=1 Penn Plaza,city=New York,state=NY,zip=10001'),
      '-c',
      'pallets=1,weight=500,dims=48x40x48,desc=Parts',
    ]);
    expect(JSON.parse(nextBack.stdout).orderNumber).toBe('SO-000005');
  });
});

describe('PRO blocks moved between stores', () => {
  it('carries the counter of a PRO block, so the database goes on with the next PRO', async () => {
    const { dir: config, cleanup } = await tempDir();
    cleanups.push(cleanup);
    await writeFile(
      join(config, 'config.json'),
      JSON.stringify({ carriers: { ODFL: { name: 'Old Dominion', proRange: { scac: 'ODFL', first: '70000000', last: '70000999', checkDigit: 'MOD7', prefix: '' } } } }),
    );
    const env = { SHIPPER_CONFIG_DIR: config };
    const { dir: json, cleanup: cleanJson } = await tempDir();
    cleanups.push(cleanJson);
    const ship = (store: string) =>
      runInProcess(
        [
          '--store',
          store,
          '--json',
          'ship',
          '--scac',
          'ODFL',
          '--shipper',
          withContact('name=Acme DC,address1=2100 S Halsted St,city=Chicago,state=IL,zip=60608'),
          '--consignee',
          withContact('name=Store 12,address1=1 Penn Plaza,city=New York,state=NY,zip=10001'),
          '-c',
          'pallets=1,weight=500,dims=48x40x48,desc=Parts',
        ],
        { env },
      );
    const pros: string[] = [];
    for (let n = 0; n < 2; n++) {
      const booked = await ship(json);
      expect(booked.code, booked.stderr).toBe(0);
      pros.push(JSON.parse(booked.stdout).proNumber);
    }
    const file = join(dir, 'pro.jsonl');
    expect((await runInProcess(['--store', json, 'store', 'export', '--to', file], { env })).code).toBe(0);
    expect(await readFile(file, 'utf8')).toMatch(/"type":"counter","name":"pro-odfl--70000000","last":2/);
    const database = await migratedStore();
    expect((await runInProcess(['--store', database.url, 'store', 'import', file], { env })).code).toBe(0);
    const next = await ship(database.url);
    expect(next.code, next.stderr).toBe(0);
    expect(pros).not.toContain(JSON.parse(next.stdout).proNumber);
    expect(JSON.parse(next.stdout).proNumber).toMatch(/^7000000/);
  });
});
