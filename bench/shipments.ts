/**
 * `node bench/run.mjs shipments [runs] [shipments]` (default 11 runs, 1,000,000 shipments)
 *
 * A store of many shipments against one of 10, through the CLI: `shipment get` by id, by order
 * number and by BOL number, and the first page of a filtered list (`shipment list --status
 * CANCELLED`, one in ten cancelled). Each must stay within 1.5x of the same on 10 shipments: a
 * look-up reads its index entry and its record, never the others. The stores are filled through
 * the file store's own unit of work (src/store/file/), in batches of 5,000 (setup, not timed).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileStore } from '../src/store/file/fileStore.js';
import type { Shipment } from '../src/domain/schemas.js';
import { LocalApi } from '../src/api/local.js';
import { BIN, figure, median, row, timeCommand } from './lib.js';

const runs = Number(process.argv[2] ?? 11);
const big = Number(process.argv[3] ?? 1_000_000);
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const BATCH = 5_000;

function ulidAt(ms: number, n: number): string {
  let time = '';
  for (let rest = ms, i = 0; i < 10; i++, rest = Math.floor(rest / 32)) time = CROCKFORD[rest % 32] + time;
  let random = '';
  for (let rest = n, i = 0; i < 16; i++, rest = Math.floor(rest / 32)) random = CROCKFORD[rest % 32] + random;
  return time + random;
}

async function makeStore(count: number): Promise<{ store: string; sample: Shipment }> {
  const store = mkdtempSync(join(tmpdir(), `shipper-bench-shipments-${count}-`));
  // One real booking as the template; its numbers follow the others'.
  const api = new LocalApi({ storeDir: join(store, 'template') });
  const { data: template } = await api.createShipment({
    pickupAddress: { name: 'A', address1: '1 Main St', city: 'Chicago', state: 'IL', zipCode: '60601' },
    deliveryAddress: { name: 'B', address1: '1 Penn Plaza', city: 'New York', state: 'NY', zipCode: '10001' },
    orderComponents: [{ palletCount: 1, poundsWeight: 500, dimensions: { length: 48, width: 40, height: 48 } }],
  });
  rmSync(join(store, 'template'), { recursive: true, force: true });
  const files = new FileStore(store);
  const start = Date.parse(template.createdAt) - count * 1000;
  let sample = template;
  for (let first = 1; first <= count; first += BATCH) {
    await files.withTransaction(async (tx) => {
      for (let n = first; n < Math.min(first + BATCH, count + 1); n++) {
        const ulid = ulidAt(start + n * 1000, n);
        const shipment: Shipment = {
          ...template,
          id: `sh_${ulid}`,
          orderNumber: api.numbering.orderNumber(n),
          bolNumber: api.numbering.bolNumber(n),
          refNumber: `PO-${n}`,
          quoteId: `qt_${ulid}`,
          orderStatus: n % 10 === 0 ? 'CANCELLED' : 'CONFIRMED',
          createdAt: new Date(start + n * 1000).toISOString(),
        };
        tx.shipments.put(shipment);
        if (n === Math.ceil(count / 2)) sample = shipment;
      }
      await tx.counters.reserve('orders', Math.min(BATCH, count + 1 - first));
    });
    if (count >= 100_000 && (first - 1) % 100_000 === 0) console.error(`filling: ${(first - 1).toLocaleString('en-US')} of ${count.toLocaleString('en-US')} shipments`);
  }
  return { store, sample };
}

const small = await makeStore(10);
const large = await makeStore(big);
try {
  // Paired: one run on each store in turn, so a machine that gets busier part-way slows both alike.
  const cli = (store: string, args: string[]) => timeCommand(process.execPath, [BIN, '--store', store, ...args], 1, process.env, 0);
  const paired = (smallArgs: string[], largeArgs: string[]): [number, number] => {
    for (let i = 0; i < 2; i++) {
      cli(small.store, smallArgs);
      cli(large.store, largeArgs);
    }
    const smallTimes: number[] = [];
    const largeTimes: number[] = [];
    for (let i = 0; i < runs; i++) {
      smallTimes.push(cli(small.store, smallArgs));
      largeTimes.push(cli(large.store, largeArgs));
    }
    return [median(smallTimes), median(largeTimes)];
  };
  const cases: Array<[string, (sample: Shipment) => string[]]> = [
    ['shipment get by id', (sample) => ['shipment', 'get', sample.id, '--json']],
    ['shipment get by order number', (sample) => ['shipment', 'get', sample.orderNumber, '--json']],
    ['shipment get by BOL number', (sample) => ['shipment', 'get', sample.bolNumber, '--json']],
    ['first page of shipment list --status CANCELLED', () => ['shipment', 'list', '--status', 'CANCELLED', '--limit', '20', '--json']],
  ];
  console.log(`shipments in the store: 10 against ${big.toLocaleString('en-US')}, median of ${runs} runs (ms)`);
  for (const [name, args] of cases) {
    const [smallMs, largeMs] = paired(args(small.sample), args(large.sample));
    row(name, `${smallMs.toFixed(1)} ms -> ${largeMs.toFixed(1)} ms  (${(largeMs / smallMs).toFixed(2)}x)`);
    figure({
      bench: 'shipments',
      name: `${name}, ${big.toLocaleString('en-US')} shipments`,
      value: largeMs,
      unit: 'ms',
      baseline: { name: 'with 10 shipments', value: smallMs },
      target: { op: '<=', value: 1.5, of: 'ratio' },
    });
  }
} finally {
  rmSync(small.store, { recursive: true, force: true });
  rmSync(large.store, { recursive: true, force: true });
}
