/**
 * Bucket logs (src/store/file/bucketLogs.ts): lines appended through the journal at a recorded
 * offset. Applying an append again (a replay after a crash) changes nothing, a reader skips a
 * line being written, and a bucket garbled or replaced is noticed as damaged. A store written
 * with a file per index entry, idempotency record and shipment (before bucket logs) keeps working.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendText, BucketLogs, writeAt, type BucketAppend } from '../../src/store/file/bucketLogs.js';
import { Journal } from '../../src/store/file/journal.js';
import { KeyIndexes } from '../../src/store/file/keyIndexes.js';
import { importShipments } from '../../src/import/importer.js';
import { tempDir } from '../helpers/cli.js';
import { shipmentsCsv } from '../helpers/csv.js';
import { apiAt, PALLETS, PUBLISHED_PICKUP, PUBLISHED_NYC } from '../helpers/fixtures.js';

let work: { dir: string; cleanup: () => Promise<void> };
let case_ = 0;
beforeAll(async () => {
  work = await tempDir('shipper-buckets-');
});
afterAll(() => work.cleanup());

async function freshRoot(): Promise<string> {
  const root = join(work.dir, `root-${++case_}`);
  await mkdir(join(root, 'b'), { recursive: true });
  return root;
}

/** Applies a journal write of BucketLogs.append as the journal does. */
function apply(root: string, write: BucketAppend): void {
  writeAt(join(root, write.path), appendText(write), write.at);
}

describe('bucket logs', () => {
  it('append at the recorded offset: applied again, in order, the bucket is the same', async () => {
    const root = await freshRoot();
    const logs = new BucketLogs(root);
    const first = logs.append('b/00.log', ['{"k":"A","a":"1"}', '{"k":"B","a":"2"}']);
    apply(root, first);
    const second = logs.append('b/00.log', ['{"k":"A","r":"1"}']);
    expect(second).toMatchObject({ at: appendText(first).length });
    apply(root, second);
    const once = await readFile(join(root, 'b/00.log'), 'utf8');
    // A crash lost the record of what was applied: both lines are applied again, in order.
    apply(root, first);
    apply(root, second);
    expect(await readFile(join(root, 'b/00.log'), 'utf8')).toBe(once);
    expect(logs.findLines('b/00.log', '{"k":', '{"k":"A",')).toEqual(['{"k":"A","a":"1"}', '{"k":"A","r":"1"}']);
    expect(logs.findLines('b/00.log', '{"k":', '{"k":"C",')).toEqual([]);
    expect(logs.findLines('b/01.log', '{"k":', '{"k":"A",')).toBeUndefined();
  });

  it('a replay of an append torn by a kill cuts the torn part and writes the whole', async () => {
    const root = await freshRoot();
    const logs = new BucketLogs(root);
    apply(root, logs.append('b/00.log', ['{"k":"A","a":"1"}']));
    const write = logs.append('b/00.log', ['{"k":"B","a":"2"}', '{"k":"C","a":"3"}']);
    // The kill: half of the append written.
    writeAt(join(root, write.path), appendText(write).slice(0, 25), write.at);
    // A reader meanwhile sees the whole lines only: the torn one is a line being written.
    expect(logs.findLines('b/00.log', '{"k":', '{"k":"C",')).toEqual([]);
    expect(logs.findLines('b/00.log', '{"k":', '{"k":"B",')).toEqual(['{"k":"B","a":"2"}']);
    apply(root, write);
    expect(await readFile(join(root, 'b/00.log'), 'utf8')).toBe('{"k":"A","a":"1"}\n{"k":"B","a":"2"}\n{"k":"C","a":"3"}\n');
  });

  it.each([
    ['replaced by something else', 'not json at all\n'],
    ['a line that is not of the bucket', '{"k":"A","a":"1"}\n[1,2,3]\n'],
    ['no whole line, and not the start of one', '{"key": "x", "ids": ['],
  ])('a bucket %s is damaged', async (_how, text) => {
    const root = await freshRoot();
    await writeFile(join(root, 'b/00.log'), text);
    expect(new BucketLogs(root).findLines('b/00.log', '{"k":', '{"k":"A",')).toBe('damaged');
  });
});

describe('an index bucket', () => {
  it('with a line of the key looked up cut short in the middle is damaged: the index answers nothing it could not read', async () => {
    const root = await freshRoot();
    await mkdir(join(root, 'index', 'serial'), { recursive: true });
    // Serial 5 is in the bucket of serials 0-999.
    await writeFile(join(root, 'index', 'serial', '0.log'), '{"k":"5","a":"sh_1\n{"k":"6","a":"sh_2"}\n');
    const indexes = new KeyIndexes(root, { shipmentKeys: async () => [], messageKeys: async () => [] }, new BucketLogs(root), async () => undefined);
    expect(await indexes.read('serial', '5', true)).toBeUndefined();
    // A bucket whose lines all read answers.
    await writeFile(join(root, 'index', 'serial', '0.log'), '{"k":"5","a":"sh_1"}\n{"k":"6","a":"sh_2"}\n');
    expect(await indexes.read('serial', '5', true)).toEqual(['sh_1']);
  });
});

describe('a store written with a file per index entry and per idempotency record', () => {
  it('rebuilds its indexes as buckets, finds its idempotency records, and an import run again books nothing twice', async () => {
    const store = join(work.dir, `store-${++case_}`);
    const file = join(work.dir, `orders-${case_}.csv`);
    await writeFile(file, shipmentsCsv(12, 2));
    const first = await importShipments(apiAt(store).api, { resolve: async () => undefined }, { file });
    expect(first.booked).toBe(12);

    // The older layout: each idempotency record a file named by its id, each index entry a file,
    // the index state files without the layout's tag.
    const idempotency = join(store, 'idempotency');
    for (const name of (await readdir(idempotency)).filter((entry) => entry.endsWith('.log'))) {
      for (const line of (await readFile(join(idempotency, name), 'utf8')).trim().split('\n')) {
        const { h, r } = JSON.parse(line) as { h: string; r: unknown };
        await writeFile(join(idempotency, `${h}.json`), `${JSON.stringify(r, null, 2)}\n`);
      }
      await rm(join(idempotency, name));
    }
    const index = join(store, 'index');
    for (const name of (await readdir(index)).filter((entry) => entry.endsWith('.state.json'))) {
      const state = (await readFile(join(index, name), 'utf8')).trim().split(' ').slice(1).join(' ');
      await writeFile(join(index, name), `${state}\n`);
    }
    await rm(join(index, 'ref'), { recursive: true });
    await mkdir(join(index, 'ref'));
    await writeFile(join(index, 'ref', 'PO-0001.json'), '{"key":"PO-0001","ids":["sh_x"]}\n');

    const { api } = apiAt(store);
    const again = await importShipments(api, { resolve: async () => undefined }, { file });
    expect(again).toMatchObject({ booked: 0, alreadyBooked: 12 });
    expect((await api.listShipments({ refNumber: 'PO-0001' })).data.items.map((shipment) => shipment.orderNumber)).toEqual(['SO-000001']);
    expect((await readdir(join(index, 'ref'))).every((name) => name.endsWith('.log'))).toBe(true);
  });
});

describe('quotes in bucket logs', () => {
  it('a busy second of quotes is a few files, each quote read back by id and listed newest first, beside the quote files of an older store', async () => {
    const store = join(work.dir, `store-${++case_}`);
    const { api } = apiAt(store);
    const request = {
      pickupAddress: { zipCode: '60608' },
      deliveryAddress: { zipCode: '10001' },
      orderComponents: [{ palletCount: 1, poundsWeight: 500, dimensions: { length: 48, width: 40, height: 48 } }],
    };
    const quotes = await Promise.all(Array.from({ length: 40 }, () => api.createLaneQuote(request)));
    const files = await readdir(join(store, 'quotes'));
    // A bucket per second of their ids and last character: 40 quotes made together share them.
    expect(files.sort()).toEqual([...new Set(quotes.map(({ data }) => `${data.id.slice(3, 11)}-${data.id.slice(-1)}.log`))].sort());
    expect(files.length).toBeLessThanOrEqual(32 * new Set(quotes.map(({ data }) => data.id.slice(3, 11))).size);
    for (const { data } of quotes) expect((await api.getQuote(data.id)).data).toMatchObject({ id: data.id, quotedPriceInCents: data.quotedPriceInCents });

    // A quote of an older store, a file of its own, made before all of these.
    const older = { ...quotes[0]!.data, id: 'qt_01JD3Y7T9Q2W5E8R1T4Y7V0H3Z', createdAt: '2024-11-20T10:00:00.000Z' };
    const { status: _status, bookings: _bookings, ...stored } = older as typeof older & { status?: unknown; bookings?: unknown };
    await writeFile(join(store, 'quotes', `${older.id}.json`), `${JSON.stringify(stored, null, 2)}\n`);
    const { api: again } = apiAt(store);
    expect((await again.getQuote(older.id)).data.id).toBe(older.id);
    const listed: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await again.listQuotes({ limit: 7, ...(cursor ? { cursor } : {}) });
      listed.push(...page.data.items.map((quote) => quote.id));
      cursor = page.data.nextCursor ?? undefined;
    } while (cursor);
    expect(listed).toEqual([...quotes.map(({ data }) => data.id), older.id].sort().reverse());
  });
});

describe('shipments in bucket logs', () => {
  it('an import of a second or two is a few bucket files; a store with a file per shipment keeps working, and a shipment written again is read from its bucket', async () => {
    const store = join(work.dir, `store-${++case_}`);
    const file = join(work.dir, `orders-${case_}.csv`);
    await writeFile(file, shipmentsCsv(40, 1));
    const first = await importShipments(apiAt(store).api, { resolve: async () => undefined }, { file });
    expect(first.booked).toBe(40);
    const shipments = join(store, 'shipments');
    const buckets = (await readdir(shipments)).filter((name) => name.endsWith('.log'));
    const ids = (await allShipmentsOf(store)).map((shipment) => shipment.id);
    expect(ids).toHaveLength(40);
    // A bucket per second of the ids and their last character: 40 bookings share a few files.
    expect(buckets.sort()).toEqual([...new Set(ids.map((id) => `${id.slice(3, 11)}-${id.slice(-1)}.log`))].sort());
    expect(buckets.length).toBeLessThanOrEqual(32 * new Set(ids.map((id) => id.slice(3, 11))).size);

    // The older layout: a file per shipment, and indexes built from them.
    for (const name of buckets) {
      for (const line of (await readFile(join(shipments, name), 'utf8')).trim().split('\n')) {
        const { i, s } = JSON.parse(line) as { i: string; s: unknown };
        await writeFile(join(shipments, `${i}.json`), `${JSON.stringify(s, null, 2)}\n`);
      }
      await rm(join(shipments, name));
    }
    await rm(join(store, 'index'), { recursive: true });
    const { api } = apiAt(store);
    const listed = await allShipmentsOf(store);
    expect(listed.map((shipment) => shipment.id).sort()).toEqual([...ids].sort());
    const [cancelled, other] = listed;
    expect((await api.listShipments({ orderNumber: other!.orderNumber })).data.items.map((shipment) => shipment.id)).toEqual([other!.id]);
    expect(await importShipments(api, { resolve: async () => undefined }, { file })).toMatchObject({ booked: 0, alreadyBooked: 40 });

    // Written again, a shipment goes to its bucket, which wins over its old file, also when the indexes are rebuilt.
    await api.cancelShipment(cancelled!.id);
    expect(await readdir(shipments)).toContain(`${cancelled!.id.slice(3, 11)}-${cancelled!.id.slice(-1)}.log`);
    await rm(join(store, 'index'), { recursive: true });
    const { api: again } = apiAt(store);
    expect((await again.getShipment(cancelled!.id)).data.orderStatus).toBe('CANCELLED');
    const after = await allShipmentsOf(store);
    expect(after.map((shipment) => shipment.id).sort()).toEqual([...ids].sort());
    expect(after.find((shipment) => shipment.id === cancelled!.id)!.orderStatus).toBe('CANCELLED');
    expect((await again.listShipments({ orderStatus: 'CANCELLED' })).data.items.map((shipment) => shipment.id)).toEqual([cancelled!.id]);
    // Numbers go on above those of the old files.
    const booked = await again.createShipment({ pickupAddress: PUBLISHED_PICKUP, deliveryAddress: PUBLISHED_NYC, orderComponents: [PALLETS] });
    expect(booked.data.orderNumber).toBe('SO-000041');
  });
});

/** Every shipment of a store, page after page, through a new engine, without a warning. */
async function allShipmentsOf(store: string): Promise<Array<{ id: string; orderNumber: string; orderStatus: string }>> {
  const { api } = apiAt(store);
  const found: Array<{ id: string; orderNumber: string; orderStatus: string }> = [];
  let cursor: string | undefined;
  do {
    const page = await api.listShipments({ limit: 7, ...(cursor ? { cursor } : {}) });
    expect(page.warnings ?? []).toEqual([]);
    found.push(...page.data.items);
    cursor = page.data.nextCursor ?? undefined;
  } while (cursor);
  return found;
}

describe('what an engine keeps of an index bucket', () => {
  it('sees what another engine appended since, and notices a bucket rewritten in place', async () => {
    const store = join(work.dir, `store-${++case_}`);
    const { api: first } = apiAt(store);
    const { api: second } = apiAt(store);
    const holders = async (api: typeof first) => (await api.listShipments({ refNumber: 'PO-SHARED' })).data.items.map((shipment) => shipment.orderNumber).sort();
    const request = { refNumber: 'PO-SHARED', pickupAddress: PUBLISHED_PICKUP, deliveryAddress: PUBLISHED_NYC, orderComponents: [PALLETS] };
    await first.createShipment(request);
    expect(await holders(first)).toEqual(['SO-000001']);
    await second.createShipment(request);
    await second.createShipment(request);
    expect(await holders(first)).toEqual(['SO-000001', 'SO-000002', 'SO-000003']);
    // Every bucket of the reference index garbled where it is, at its size: the kept read is not trusted.
    const refIndex = join(store, 'index', 'ref');
    for (const name of await readdir(refIndex)) {
      const text = await readFile(join(refIndex, name), 'utf8');
      await writeFile(join(refIndex, name), 'x'.repeat(text.length - 1) + '\n');
    }
    expect(await holders(first)).toEqual(['SO-000001', 'SO-000002', 'SO-000003']);
    // Noticed, and rebuilt from the records: the buckets are lines of entries again.
    const lines = (await Promise.all((await readdir(refIndex)).map((name) => readFile(join(refIndex, name), 'utf8')))).join('').trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { k: string }).k)).toEqual(['PO-SHARED', 'PO-SHARED', 'PO-SHARED']);
  });
});

describe('the journal of bucket appends', () => {
  it('replays its appends byte for byte, from its own lines and from lines of the format before (sha256, escaped text)', async () => {
    const root = await freshRoot();
    const logs = new BucketLogs(root);
    const journal = new Journal(root);
    const lines = ['{"k":"A","a":"sh_1"}', '{"k":"é \\"q\\" \\u0007","a":"sh_2"}', '{"i":"x","s":{"n":[1,2.5,-3e-7],"t":null,"u":"\\ud800"}}', '{"k":"✓ 😀","a":"sh_3"}'];
    await journal.commit([logs.append('b/00.log', lines)]);
    const once = await readFile(join(root, 'b/00.log'), 'utf8');
    expect(once).toBe(`${lines.join('\n')}\n`);
    // The journal holds the lines as they are (no escaped copy), under a CRC-32.
    const text = await readFile(journal.file, 'utf8');
    expect(text).toMatch(/^[0-9a-f]{8} \{"w":\[\{"p":"b\/00\.log","l":\[\{"k":"A","a":"sh_1"\},/);
    // One line, as long as its characters encode (2, 3 and 4 bytes among them), and nothing after it.
    expect(text.split('\n')).toEqual([expect.stringContaining('"k":"✓ 😀"'), '']);
    expect(text).not.toContain('\0');
    // Lost from the page cache: the file cut, the mark gone; recover writes the same bytes.
    await writeFile(join(root, 'b/00.log'), '');
    await rm(join(root, 'journal', 'applied'));
    expect(await journal.recover()).toBe(true);
    expect(await readFile(join(root, 'b/00.log'), 'utf8')).toBe(once);

    // A line of the format before: a sha256 prefix and the appended text as a JSON string.
    const json = JSON.stringify({ w: [{ p: 'b/01.log', a: `${lines[1]}\n`, o: 0 }] });
    await writeFile(journal.file, `${createHash('sha256').update(json).digest('hex').slice(0, 16)} ${json}\n`);
    await writeFile(join(root, 'journal', 'applied'), '0');
    expect(await new Journal(root).recover()).toBe(true);
    expect(await readFile(join(root, 'b/01.log'), 'utf8')).toBe(`${lines[1]}\n`);
  });

  it('a line whose CRC does not match is damage in the middle and a torn write at the end', async () => {
    const root = await freshRoot();
    const journal = new Journal(root);
    await journal.commit([new BucketLogs(root).append('b/00.log', ['{"k":"A","a":"sh_1"}'])]);
    const good = await readFile(journal.file, 'utf8');
    await writeFile(join(root, 'journal', 'applied'), '0');
    await writeFile(journal.file, `${good.replace('"sh_1"', '"sh_9"')}${good}`);
    await expect(new Journal(root).recover()).rejects.toThrow(/journal .* is damaged at byte 0/);
    await writeFile(journal.file, `${good}${good.slice(0, 20)}`);
    expect(await new Journal(root).recover()).toBe(true);
    expect(await readFile(journal.file, 'utf8')).toBe(good);
  });
});

describe('a pending log', () => {
  it("indexes its lines by key as written (escapes too), takes only what was appended since, and is damaged by a line that is no key's", async () => {
    const root = await freshRoot();
    const logs = new BucketLogs(root);
    const file = join(root, 'b', 'pending.log');
    const quoted = JSON.stringify('PO "7"\u00e9\\');
    await writeFile(file, `{"k":"A","a":"1"}\n{"k":${quoted},"a":"2"}\n{"k":"A","r":"1"}\n`);
    const read = logs.pending('b/pending.log', '{"k":')!;
    expect(read.damaged).toBe(false);
    expect(read.linesOf('{"k":"A",')).toEqual(['{"k":"A","a":"1"}', '{"k":"A","r":"1"}']);
    expect(read.linesOf(`{"k":${quoted},`)).toEqual([`{"k":${quoted},"a":"2"}`]);
    // An unfinished last line is not read until it ends.
    await writeFile(file, '{"k":"B","a":"3"', { flag: 'a' });
    expect(logs.pending('b/pending.log', '{"k":')!.linesOf('{"k":"B",')).toEqual([]);
    await writeFile(file, '}\n', { flag: 'a' });
    expect(logs.pending('b/pending.log', '{"k":')!.linesOf('{"k":"B",')).toEqual(['{"k":"B","a":"3"}']);
    for (const bad of ['{"k":"C\u0000","a":"4"}', '{"k":"C\\x","a":"4"}', '[1,2]', '\u0000'.repeat(16)]) {
      await writeFile(file, `{"k":"A","a":"1"}\n${bad}\n`);
      expect(new BucketLogs(root).pending('b/pending.log', '{"k":')!.damaged, bad).toBe(true);
    }
  });
});
