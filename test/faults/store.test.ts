/**
 * What a user sees when the store is damaged, read-only or full (through the CLI, in process; and
 * over HTTP, where the client learns only that the store failed and the server's log has the rest):
 * one clear message naming the file, exit 5, never a control character of the file on the
 * terminal, never "busy" for what is not a busy lock; and afterwards a store that still reads,
 * nothing acknowledged lost, and a re-run that finishes without repeating a number.
 */
import { mkdir, readFile, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LocalApi } from '../../src/api/local.js';
import { proCheckDigit } from '../../src/domain/proNumber.js';
import type { Page, Shipment } from '../../src/domain/schemas.js';
import { tempDir, type CliResult } from '../helpers/cli.js';
import { shipmentsCsv } from '../helpers/csv.js';
import { canMount, makeReadOnly, smallDisk, temporaryFilesIn } from '../helpers/faults.js';
import { PALLETS, PUBLISHED_PICKUP, PUBLISHED_NYC } from '../helpers/fixtures.js';
import { runInProcess } from '../helpers/inProcess.js';
import { startServe } from '../helpers/serve.js';
import { BOOK_ONE_PALLET } from '../helpers/shipmentsRead.js';
import { damageStoredShipment, shipmentBucketOf, storedShipment } from '../helpers/storedShipments.js';

/** Control characters other than newline: what must never reach a terminal from data. */
const CONTROL = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;

let work: { dir: string; cleanup: () => Promise<void> };
let case_ = 0;
beforeAll(async () => {
  work = await tempDir('shipper-store-faults-');
});
afterAll(() => work.cleanup());
afterEach(() => vi.restoreAllMocks());

async function storeWith(shipments: number): Promise<{ store: string; ids: string[]; cli: (args: string[]) => Promise<CliResult> }> {
  const store = join(work.dir, `store-${++case_}`);
  const api = new LocalApi({ storeDir: store });
  const outcomes = (
    await api.createShipments({
      items: Array.from({ length: shipments }, (_, index) => ({
        request: { refNumber: `S-${index}`, pickupAddress: PUBLISHED_PICKUP, deliveryAddress: PUBLISHED_NYC, orderComponents: [PALLETS] },
      })),
    })
  ).data.items;
  const ids = outcomes.map((outcome) => (outcome.ok ? outcome.data.id : expect.fail('booking failed')));
  return { store, ids, cli: (args) => runInProcess(['--store', store, ...args]) };
}

function expectClean(result: CliResult): void {
  expect(result.stderr).not.toMatch(CONTROL);
  expect(result.stdout).not.toMatch(CONTROL.source.includes('\\u0009') ? /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/ : CONTROL);
  expect(result.stderr).not.toMatch(/\n\s+at |Error:|unexpected error/);
}

async function allShipments(cli: (args: string[]) => Promise<CliResult>): Promise<{ items: Shipment[]; warnings: string }> {
  const items: Shipment[] = [];
  let warnings = '';
  let cursor: string | null = null;
  do {
    const result = await cli(['shipment', 'list', '--json', '--limit', '500', ...(cursor ? ['--cursor', cursor] : [])]);
    expect(result.code, result.stderr).toBe(0);
    warnings += result.stderr;
    const page = JSON.parse(result.stdout) as Page<Shipment>;
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return { items, warnings };
}

const ESCAPES = '\u001b[2J\u001b]0;pwned\u0007\u001b[31m';

/**
 * Kinds of damage, each done to one shipment: to its line in its bucket (the others of the bucket
 * still read), or to its whole bucket file; `reason` is what the message must say.
 */
const DAMAGE: Array<{ name: string; damage: (store: string, id: string) => Promise<unknown>; reason: RegExp; wholeBucket?: boolean }> = [
  {
    name: 'its line cut off mid-write',
    damage: async (store, id) => damageStoredShipment(store, id, JSON.stringify(await storedShipment(store, id)).slice(0, 200)),
    reason: /is damaged \(shipment sh_\w+: not valid JSON/,
  },
  {
    name: 'NUL bytes in its line',
    damage: (store, id) => damageStoredShipment(store, id, '\u0000'.repeat(64)),
    reason: /is damaged \(shipment sh_\w+: it holds binary data \(NUL bytes\), not JSON\)/,
  },
  { name: 'terminal escape sequences', damage: (store, id) => damageStoredShipment(store, id, `${ESCAPES}{"id": 1}`), reason: /is damaged \(shipment sh_\w+: not valid JSON/ },
  { name: 'C1 controls and a bidi override', damage: (store, id) => damageStoredShipment(store, id, '\u009b2J\u202e}{'), reason: /is damaged \(shipment sh_\w+: not valid JSON/ },
  {
    name: 'escapes inside valid JSON that is not a record',
    damage: (store, id) => damageStoredShipment(store, id, `${JSON.stringify({ id: ESCAPES, orderNumber: 7 })}}`),
    reason: /is damaged \(shipment sh_\w+: it does not hold a valid record\)/,
  },
  { name: 'valid JSON, an array', damage: (store, id) => damageStoredShipment(store, id, '[]}'), reason: /is damaged \(shipment sh_\w+: it does not hold a valid record\)/ },
  {
    name: 'a UTF-8 BOM inside its line',
    damage: async (store, id) => damageStoredShipment(store, id, `\uFEFF${JSON.stringify(await storedShipment(store, id))}}`),
    reason: /is damaged \(shipment sh_\w+: not valid JSON/,
  },
  {
    name: 'the bucket zeroed (a block of zeros after a crash)',
    damage: (store, id) => writeFile(join(store, shipmentBucketOf(id)), Buffer.alloc(4096)),
    reason: /is damaged \(shipment sh_\w+: a line of it is no shipment's and may be this one's\)/,
    wholeBucket: true,
  },
  {
    name: 'the bucket as UTF-16 text',
    damage: async (store, id) => writeFile(join(store, shipmentBucketOf(id)), Buffer.from(`\uFEFF${await readFile(join(store, shipmentBucketOf(id)), 'utf8')}`, 'utf16le')),
    reason: /is damaged \(shipment sh_\w+: a line of it is no shipment's/,
    wholeBucket: true,
  },
  {
    name: 'the bucket a 5 MB file of junk without a newline',
    damage: (store, id) => writeFile(join(store, shipmentBucketOf(id)), 'x'.repeat(5 * 1024 * 1024)),
    reason: /is damaged \(shipment sh_\w+: a line of it is no shipment's/,
    wholeBucket: true,
  },
  {
    name: 'a directory in the place of the bucket',
    damage: async (store, id) => (await unlink(join(store, shipmentBucketOf(id))), mkdir(join(store, shipmentBucketOf(id)))),
    reason: /cannot read .*: a directory has that name/,
    wholeBucket: true,
  },
  {
    name: 'a symbolic link loop in the place of the bucket',
    damage: async (store, id) => (await unlink(join(store, shipmentBucketOf(id))), symlink(join(store, shipmentBucketOf(id)), join(store, shipmentBucketOf(id)))),
    reason: /cannot read .*ELOOP/,
    wholeBucket: true,
  },
];

describe('a damaged store file', () => {
  it.each(DAMAGE)('$name: get exits 5 naming the file, list skips it with a warning, nothing of it reaches the terminal', async ({ damage, reason, wholeBucket }) => {
    const { store, ids, cli } = await storeWith(3);
    const file = join(store, shipmentBucketOf(ids[1]!));
    await damage(store, ids[1]!);
    // A whole bucket damaged takes every shipment in it (ids of one millisecond may share it).
    const intact = ids.filter((id) => id !== ids[1] && !(wholeBucket && shipmentBucketOf(id) === shipmentBucketOf(ids[1]!)));

    const get = await cli(['shipment', 'get', ids[1]!]);
    expect(get.code).toBe(5);
    expect(get.stdout).toBe('');
    expect(get.stderr).toMatch(new RegExp(`^shipper: (store file |cannot read )${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`));
    expect(get.stderr).toMatch(reason);
    expect(get.stderr.trim().split('\n')).toHaveLength(1);
    expectClean(get);

    const json = await cli(['shipment', 'get', ids[1]!, '--json']);
    expect(json.code).toBe(5);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 500, title: 'Store Failure' });
    expectClean(json);

    const { items, warnings } = await allShipments(cli);
    expect(items.map((shipment) => shipment.id).sort()).toEqual(intact.sort());
    expect(warnings).toMatch(/^warning: .*shipments/);
    expect(warnings).not.toMatch(CONTROL);
    // The others still read, and booking goes on. A shipment's bucket is its id's second of
    // creation and last character: booked in the same second, it could be the damaged bucket
    // itself (1 in 32), which it cannot be written to. A day later it never is.
    for (const id of intact) expect((await cli(['shipment', 'get', id])).code).toBe(0);
    const booked = await runInProcess(['--store', store, ...BOOK_ONE_PALLET], { env: { SHIPPER_NOW: new Date(Date.now() + 86_400_000).toISOString() } });
    expect(booked.code, booked.stderr).toBe(0);
    expect(shipmentBucketOf((JSON.parse(booked.stdout) as Shipment).id)).not.toBe(shipmentBucketOf(ids[1]!));
  });

  it('a dangling symbolic link in the place of a bucket: its shipments are not there (exit 4)', async () => {
    const { store, ids, cli } = await storeWith(1);
    const file = join(store, shipmentBucketOf(ids[0]!));
    await unlink(file);
    await symlink(join(store, 'nowhere.log'), file);
    const get = await cli(['shipment', 'get', ids[0]!]);
    expect(get.code).toBe(4);
    expect(get.stderr).toBe(`shipper: shipment ${ids[0]} not found\n`);
  });

  it("a line that is no shipment's, before a shipment's own line, leaves it readable; after it and naming it, the shipment is damaged", async () => {
    const { store, ids, cli } = await storeWith(1);
    const file = join(store, shipmentBucketOf(ids[0]!));
    const line = (await readFile(file, 'utf8')).trimEnd();
    await writeFile(file, `garbage naming ${JSON.stringify(ids[0])}\n${line}\n`);
    expect((await cli(['shipment', 'get', ids[0]!])).code).toBe(0);
    await writeFile(file, `${line}\ngarbage naming ${JSON.stringify(ids[0])}\n`);
    const get = await cli(['shipment', 'get', ids[0]!]);
    expect(get.code).toBe(5);
    expect(get.stderr).toMatch(/a line of it is no shipment's and may be this one's/);
  });
});

describe('the order counter', () => {
  const ship = [...BOOK_ONE_PALLET];

  it.each([
    ['deleted', (file: string) => rm(file)],
    ['lowered to 1', (file: string) => writeFile(file, '{"last": 1}')],
    ['reset to 0', (file: string) => writeFile(file, '{"last": 0}')],
  ])('%s: the next bookings never repeat an order number', async (_name, change) => {
    const { store, cli } = await storeWith(5);
    await change(join(store, 'counters', 'orders.json'));
    for (let index = 0; index < 3; index++) expect((await cli(ship)).code).toBe(0);
    const { items } = await allShipments(cli);
    expect(items).toHaveLength(8);
    expect(new Set(items.map((shipment) => shipment.orderNumber)).size).toBe(8);
    expect(new Set(items.map((shipment) => shipment.bolNumber)).size).toBe(8);
    expect(
      items
        .map((shipment) => shipment.orderNumber)
        .sort()
        .slice(-3),
    ).toEqual(['SO-000006', 'SO-000007', 'SO-000008']);
  });

  it('damaged (escapes inside): the counter is derived, so booking goes on from the high-water mark without repeating, echoes nothing, and writes it anew', async () => {
    const { store, cli } = await storeWith(2);
    const counter = join(store, 'counters', 'orders.json');
    await writeFile(counter, `{"last": ${ESCAPES}`);
    const booked = await cli(ship);
    expect(booked.code, booked.stderr).toBe(0);
    expectClean(booked);
    expect(JSON.parse(booked.stdout).orderNumber).toBe('SO-000003');
    expect(JSON.parse(await readFile(counter, 'utf8'))).toEqual({ last: 3 });
  });

  it('damaged, with the high-water mark gone too: the shipments say where numbers are', async () => {
    const { store, cli } = await storeWith(2);
    await writeFile(join(store, 'counters', 'orders.json'), '{"last": 1');
    await rm(join(store, 'shipments', '.orders.high-water.json'));
    expect(JSON.parse((await cli(ship)).stdout).orderNumber).toBe('SO-000003');
    expect(new Set((await allShipments(cli)).items.map((shipment) => shipment.bolNumber)).size).toBe(3);
  });
});

describe('the SSCC and PRO counters', () => {
  const block = { scac: 'ODFL', first: '70000000', last: '70000999', checkDigit: 'MOD7' } as const;
  const carriers = { ODFL: { name: 'Old Dominion Freight Line', proRange: { ...block, prefix: '' } } };
  const book = (api: LocalApi, pallets: number) =>
    api.createShipment({
      pickupAddress: PUBLISHED_PICKUP,
      deliveryAddress: PUBLISHED_NYC,
      orderComponents: [{ ...PALLETS, palletCount: pallets }],
      carrier: { name: 'Old Dominion Freight Line', scac: 'ODFL' },
    });

  it.each([
    [
      'counters and marks deleted',
      async (store: string) => {
        for (const name of ['sscc', `pro-odfl--${block.first}`]) {
          await rm(join(store, 'counters', `${name}.json`));
          await rm(join(store, 'shipments', `.${name}.high-water.json`));
        }
      },
    ],
    [
      'counters damaged, marks deleted',
      async (store: string) => {
        for (const name of ['sscc', `pro-odfl--${block.first}`]) {
          await writeFile(join(store, 'counters', `${name}.json`), '{"last": 1');
          await rm(join(store, 'shipments', `.${name}.high-water.json`));
        }
      },
    ],
  ])('%s: the shipments say where numbers are, and no pallet or PRO is numbered twice', async (_name, lose) => {
    const store = join(work.dir, `store-${++case_}`);
    const api = new LocalApi({ storeDir: store, carriers });
    for (const pallets of [2, 3]) await book(api, pallets);
    await lose(store);
    const again = new LocalApi({ storeDir: store, carriers });
    const next = (await book(again, 2)).data;
    const all = [...(await again.listShipments({ limit: 10 })).data.items];
    expect(all).toHaveLength(3);
    const ssccs = all.flatMap((shipment) => shipment.ssccs);
    expect(ssccs).toHaveLength(7);
    expect(new Set(ssccs).size).toBe(7);
    expect(new Set(all.map((shipment) => shipment.proNumber)).size).toBe(3);
    // The next numbers after the highest printed: serials 6 and 7, the block's third PRO.
    expect(next.ssccs.map((sscc) => sscc.slice(8, -1))).toEqual(['000000006', '000000007']);
    expect(next.proNumber).toBe(`70000002${proCheckDigit('MOD7', '70000002')}`);
  });
});

describe('what a killed process leaves', () => {
  it('a temporary file is never a record, and the next import removes it', async () => {
    const { store, cli } = await storeWith(1);
    const leftover = join(store, 'shipments', 'sh_01M8ZZZZZZZZZZZZZZZZZZZZZZ.json.4194321.7.tmp');
    await writeFile(leftover, '{"half": ');
    expect((await allShipments(cli)).warnings).toBe('');
    const csv = join(work.dir, `one-${case_}.csv`);
    await writeFile(csv, shipmentsCsv(1, 1, 'T'));
    expect((await cli(['import', csv])).code).toBe(0);
    expect(await temporaryFilesIn(store)).toEqual([]);
  });

  it('a file where the lock should be: exit 5 at once, naming it', async () => {
    const { store, cli } = await storeWith(1);
    const lock = join(store, 'locks', 'shipments.lock');
    await mkdir(join(store, 'locks'), { recursive: true });
    await writeFile(lock, 'junk');
    const result = await cli(ship());
    expect(result.code).toBe(5);
    expect(result.stderr).toBe(`shipper: cannot lock the store: ${lock} is a file, not a lock directory (shipper never writes one there); remove it\n`);
  });
});

/** The helper's one-pallet booking, answered in words (the tests read its stderr). */
function ship(): string[] {
  return BOOK_ONE_PALLET.filter((arg) => arg !== '--json');
}

describe('a read-only store (a read-only mount when root, else permissions)', () => {
  it('says what is wrong, naming the directory, exit 5, never "busy"; reading still works', async () => {
    const { store, ids, cli } = await storeWith(2);
    expect((await cli(['quote', '--from', '60601', '--to', '10001', '-c', 'pallets=1,weight=500,dims=48x40x48'])).code).toBe(0);
    const readOnly = await makeReadOnly(store);
    const why = readOnly.kind === 'bind-mount' ? 'the file system is read-only' : 'permission denied';
    try {
      const quote = await cli(['quote', '--from', '60601', '--to', '10001', '-c', 'pallets=1,weight=500,dims=48x40x48']);
      expect(quote.code).toBe(5);
      // A quote is a unit of work too: the store's lock is the first thing it cannot write.
      expect(quote.stderr).toBe(`shipper: cannot lock the store in ${join(store, 'locks')}: ${why}\n`);
      const booked = await cli(ship());
      expect(booked.code).toBe(5);
      expect(booked.stderr).toBe(`shipper: cannot lock the store in ${join(store, 'locks')}: ${why}\n`);
      const location = await cli(['location', 'add', 'dock', '--name', 'Dock', '--address1', '1 Main St', '--city', 'Chicago', '--state', 'IL', '--zip', '60601']);
      expect(location.code).toBe(5);
      expect(location.stderr).toBe(`shipper: cannot create the store directory ${join(store, 'locations')}: ${why}\n`);
      for (const result of [quote, booked, location]) expect(result.stderr).not.toMatch(/busy/);
      expect((await cli(['shipment', 'get', ids[0]!])).code).toBe(0);
      expect((await allShipments(cli)).items).toHaveLength(2);
    } finally {
      await readOnly.restore();
    }
    expect(await temporaryFilesIn(store)).toEqual([]);
  });
});

describe('a store on a full disk (a real tmpfs when root, else ENOSPC injected)', () => {
  it.each(['best', 'injected'] as const)('%s: import stops with exit 5 naming the file, keeps what it acknowledged, and finishes once there is room', async (mode) => {
    // Room for the first chunk of 500 shipments, not the second: on tmpfs a file takes whole
    // 4 KiB pages; a shipment is a line in the journal and in its second's bucket, its idempotency
    // record and reference entry lines of pending logs. 4 MiB holds the first chunk and 6 MiB both
    // (measured); injected budgets count bytes (about 3.8 MB a chunk, half of it the journal).
    const disk = await smallDisk(mode === 'best' && canMount() ? 4.5 * 1024 * 1024 : 5 * 1024 * 1024, mode);
    try {
      const store = join(disk.dir, 'store');
      const cli = (args: string[]) => runInProcess(['--store', store, ...args]);
      const csv = join(work.dir, `full-${++case_}.csv`);
      const total = 1000;
      await writeFile(csv, shipmentsCsv(total, 1, 'F'));

      const full = await cli(['import', csv, '--json']);
      expect(full.code).toBe(5);
      expect(full.stderr).toMatch(new RegExp(`^shipper: .*cannot write (to )?${store.replace(/[/.]/g, '\\$&')}/\\S+: no space left on the disk`, 'm'));
      expectClean(full);
      expect(full.stderr).toMatch(/^shipper: the import stopped after 500 shipments \(/m);
      const acknowledged = [...full.stdout.matchAll(/^ {4}(\{"line".*\}),?$/gm)].map((match) => JSON.parse(match[1]!) as { id: string; orderNumber: string });
      expect(acknowledged).toHaveLength(500);
      expect(await temporaryFilesIn(store)).toEqual([]);

      disk.grow(64 * 1024 * 1024);
      const { items: partial, warnings } = await allShipments(cli);
      expect(warnings).toBe('');
      const stored = new Map(partial.map((shipment) => [shipment.id, shipment.orderNumber]));
      for (const shipment of acknowledged) expect(stored.get(shipment.id)).toBe(shipment.orderNumber);

      const rerun = await cli(['import', csv]);
      expect(rerun.code, rerun.stderr).toBe(0);
      const { items } = await allShipments(cli);
      expect(items.map((shipment) => shipment.refNumber).sort()).toEqual(Array.from({ length: total }, (_, index) => `F-${String(index + 1).padStart(4, '0')}`));
      expect(new Set(items.map((shipment) => shipment.orderNumber)).size).toBe(total);
    } finally {
      await disk.cleanup();
    }
  });
});

describe('a store failure over HTTP (shipper serve)', () => {
  it('answers a 500 Store Failure that holds no path, errno or byte of the file; the server log names the file', async () => {
    const { store, ids } = await storeWith(2);
    const damaged = await damageStoredShipment(store, ids[1]!, `${ESCAPES}{"id": 1`);
    const serve = await startServe({ store });
    const readOnly = { current: undefined as Awaited<ReturnType<typeof makeReadOnly>> | undefined };
    try {
      const call = async (method: string, path: string, body?: unknown) => {
        const answer = await fetch(`${serve.url}${path}`, { method, headers: { 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
        return { status: answer.status, text: await answer.text() };
      };
      const answers = [await call('GET', `/v1/shipper/shipment/${ids[1]}`)];
      readOnly.current = await makeReadOnly(store);
      const request = { pickupAddress: PUBLISHED_PICKUP, deliveryAddress: PUBLISHED_NYC, orderComponents: [PALLETS] };
      answers.push(await call('POST', '/v1/shipper/quote', request));
      answers.push(await call('POST', '/v1/shipper/shipment', request));
      for (const [index, answer] of answers.entries()) {
        // A store that became read-only under the server: its writes are 503 Store Read-Only (issue 39; docs/store-repair.md).
        const [status, type, title] = index === 0 ? [500, 'store-failure', 'Store Failure'] : [503, 'store-read-only', 'Store Read-Only'];
        expect(answer.status, answer.text).toBe(status);
        expect(JSON.parse(answer.text)).toMatchObject({ type: `urn:shipper:problem:${type}`, title, status });
        const secrets = [store, work.dir, 'damaged', 'permission', 'EROFS', 'EACCES', 'pwned', '\u001b', ...(index === 0 ? ['read-only'] : [])];
        for (const secret of secrets) expect(answer.text, secret).not.toContain(secret);
      }
      // A read still works on the read-only store.
      expect((await call('GET', `/v1/shipper/shipment/${ids[0]}`)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const log = serve
        .stderr()
        .split('\n')
        .filter((line) => line.includes('" 500 ') || line.includes('" 503 '));
      expect(log).toHaveLength(3);
      expect(log[0]).toContain(`error="store file ${damaged} is damaged`);
      expect(log[1]).toContain(join(store, 'locks'));
      expect(log[2]).toContain(join(store, 'locks'));
      expect(serve.stderr()).not.toMatch(/\u001b|pwned/);
    } finally {
      await readOnly.current?.restore();
      await serve.stop();
    }
  });
});
