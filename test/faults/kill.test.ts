/**
 * SIGKILL at random points of real processes: `import`, `bol --all` and `shipper serve` under a
 * load of POSTs. After each kill: the store reads, nothing acknowledged is lost (a shipment an
 * import listed on stdout, a PDF present under its name, a 200 of the server), and running again
 * finishes without duplicates. A lock the killed process held is taken over at once: its owner
 * file is set "refreshed in an hour" after the kill, so no staleness rule could explain it.
 *
 * Each test runs SHIPPER_FAULT_RUNS kills (default 1; e.g. 150 for a campaign). The killed
 * processes are the built CLI; what reads the store and runs again after a kill, once the process
 * died, runs main() in process (a store opened afresh, the dead process's lock left as it was).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalApi } from '../../src/api/local.js';
import type { Shipment } from '../../src/domain/schemas.js';
import { processStart } from '../../src/store/file/storeLock.js';
import { readPdf } from '../bol/pdf-reader.js';
import { BIN, ISOLATED_SETTINGS, tempDir } from '../helpers/cli.js';
import { shipmentsCsv } from '../helpers/csv.js';
import { PALLETS, PUBLISHED_PICKUP, PUBLISHED_NYC } from '../helpers/fixtures.js';
import { storeInProcess } from '../helpers/inProcess.js';
import { startServe } from '../helpers/serve.js';
import { allShipmentsThrough } from '../helpers/shipmentsRead.js';

const RUNS = Math.max(1, Number(process.env.SHIPPER_FAULT_RUNS ?? 1));
let work: { dir: string; cleanup: () => Promise<void> };
let case_ = 0;
const children: ChildProcess[] = [];

beforeAll(async () => {
  work = await tempDir('shipper-kill-');
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await work.cleanup();
});

async function freshDir(name: string): Promise<string> {
  const dir = join(work.dir, `${name}-${++case_}`);
  await mkdir(dir);
  return dir;
}

const randomBetween = (low: number, high: number) => low + Math.floor(Math.random() * (high - low + 1));
const env = () => {
  const merged: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...ISOLATED_SETTINGS };
  for (const key of Object.keys(merged)) if (merged[key] === undefined) delete merged[key];
  return merged;
};

const allShipments = allShipmentsThrough;

function expectDistinctNumbers(shipments: Shipment[]): void {
  expect(new Set(shipments.map((shipment) => shipment.orderNumber)).size).toBe(shipments.length);
  expect(new Set(shipments.map((shipment) => shipment.bolNumber)).size).toBe(shipments.length);
}

/** A lock left by the killed process must not be judged by its age: make it look freshly refreshed. */
async function pinLocks(store: string): Promise<number> {
  const locks = join(store, 'locks');
  const names = (await readdir(locks).catch(() => [] as string[])).filter((name) => name.endsWith('.lock'));
  const later = new Date(Date.now() + 3_600_000);
  for (const name of names) await utimes(join(locks, name, 'owner.json'), later, later).catch(() => undefined);
  return names.length;
}

describe('import killed with SIGKILL at a random point', () => {
  it(`keeps every shipment it acknowledged, and a re-run completes the file without duplicates (${RUNS} kills)`, { timeout: 60_000 + RUNS * 20_000 }, async () => {
    for (let run = 0; run < RUNS; run++) {
      const dir = await freshDir('import');
      const store = join(dir, 'store');
      const shipper = storeInProcess(store);
      const total = 400;
      const file = join(dir, 'orders.csv');
      await writeFile(file, shipmentsCsv(total, 2, `R${run}`));
      const killAfter = randomBetween(0, 350);

      // --json streams each booked shipment as a line: those are acknowledged.
      const child = spawn(process.execPath, [BIN, '--store', store, 'import', file, '--json'], { stdio: ['ignore', 'pipe', 'pipe'], env: env() });
      children.push(child);
      let stdout = '';
      let acknowledged: Array<{ id: string; orderNumber: string; refNumber: string }> = [];
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        acknowledged = [...stdout.matchAll(/^ {4}(\{"line".*\}),?$/gm)].map((match) => JSON.parse(match[1]!));
        if (acknowledged.length >= killAfter) child.kill('SIGKILL');
      });
      const [code, signal] = (await once(child, 'close')) as [number | null, string | null];
      if (signal !== 'SIGKILL') expect(code).toBe(0); // finished before the kill point: still a valid run

      const partial = await allShipments(shipper);
      expectDistinctNumbers(partial);
      const stored = new Map(partial.map((shipment) => [shipment.id, shipment.orderNumber]));
      for (const shipment of acknowledged) expect(stored.get(shipment.id), `acknowledged ${shipment.orderNumber} lost`).toBe(shipment.orderNumber);

      await pinLocks(store);
      const rerun = await shipper(['import', file, '--json']);
      expect(rerun.code, rerun.stderr).toBe(0);
      const shipments = await allShipments(shipper);
      expectDistinctNumbers(shipments);
      expect(shipments.map((shipment) => shipment.refNumber).sort()).toEqual(Array.from({ length: total }, (_, index) => `R${run}-${String(index + 1).padStart(4, '0')}`));
      const final = new Map(shipments.map((shipment) => [shipment.id, shipment.orderNumber]));
      for (const shipment of partial) expect(final.get(shipment.id)).toBe(shipment.orderNumber);
      expect((await readdir(join(store, 'shipments'))).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    }
  });
});

describe('bol --all killed with SIGKILL at a random point', () => {
  it(`leaves only whole PDFs under their names; a re-run writes the rest and keeps them (${RUNS} kills)`, { timeout: 60_000 + RUNS * 30_000 }, async () => {
    const dir = await freshDir('bol');
    const store = join(dir, 'store');
    const api = new LocalApi({ storeDir: store });
    const count = 12;
    const outcomes = (
      await api.createShipments({
        items: Array.from({ length: count }, (_, index) => ({
          request: { refNumber: `B-${index}`, pickupAddress: PUBLISHED_PICKUP, deliveryAddress: PUBLISHED_NYC, orderComponents: [PALLETS] },
        })),
      })
    ).data.items;
    const shipments = outcomes.map((outcome) => (outcome.ok ? outcome.data : expect.fail(JSON.stringify(outcome.problem))));
    const shipper = storeInProcess(store);
    for (let run = 0; run < RUNS; run++) {
      const out = join(dir, `bols-${run}`);
      await mkdir(out);
      const killAfter = randomBetween(0, count - 2);
      const child = spawn(process.execPath, [BIN, '--store', store, 'bol', '--all', '-o', out], { stdio: ['ignore', 'pipe', 'pipe'], env: env() });
      children.push(child);
      let lines = 0;
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        lines += chunk.split('\n').length - 1;
        if (lines >= killAfter) child.kill('SIGKILL');
      });
      await once(child, 'exit');

      // Whatever is there under a .pdf name is a whole BOL of its shipment.
      for (const name of (await readdir(out)).filter((entry) => entry.endsWith('.pdf'))) {
        const shipment = shipments.find((candidate) => name === `BOL-${candidate.orderNumber}.pdf`);
        expect(shipment, name).toBeDefined();
        const text = (await readPdf(new Uint8Array(await readFile(join(out, name))))).pages.map((page) => page.text).join(' ');
        expect(text).toContain(shipment!.bolNumber);
      }
      const rerun = await shipper(['bol', '--all', '-o', out, '--json']);
      const report = JSON.parse(rerun.stdout) as { written: unknown[]; skipped: unknown[] };
      expect(report.written.length + report.skipped.length).toBe(count);
      // Kept files mean exit 2 (docs/exit-codes.md: an output file that exists, without --force); none kept means everything was written now.
      expect(rerun.code).toBe(report.skipped.length > 0 ? 2 : 0);
      const names = (await readdir(out)).sort();
      expect(names).toEqual(shipments.map((shipment) => `BOL-${shipment.orderNumber}.pdf`).sort());
      for (const name of names) expect((await readFile(join(out, name))).subarray(-6).toString()).toMatch(/%%EOF\s*$/);
    }
  });
});

describe('shipper serve killed with SIGKILL under a load of bookings', () => {
  it(`keeps every booking it answered 200, and the restarted server books at once (${RUNS} kills)`, { timeout: 60_000 + RUNS * 20_000 }, async () => {
    const dir = await freshDir('serve');
    const store = join(dir, 'store');
    const acknowledged = new Map<string, string>();
    const request = JSON.stringify({ refNumber: 'LOAD', pickupAddress: PUBLISHED_PICKUP, deliveryAddress: PUBLISHED_NYC, orderComponents: [PALLETS] });
    for (let run = 0; run < RUNS; run++) {
      const serve = await startServe({ store, serveArgs: ['--cache-size', '0'] });
      const started = processStart(serve.child.pid!);
      const killAfter = randomBetween(5, 120);
      let answered = 0;
      let stopped = false;
      const post = () =>
        fetch(`${serve.url}/v1/shipper/shipment`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: request }).then(async (response) => {
          if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
          const shipment = (await response.json()) as Shipment;
          acknowledged.set(shipment.id, shipment.orderNumber);
          if (++answered >= killAfter && !stopped) {
            stopped = true;
            serve.child.kill('SIGKILL');
          }
        });
      const clients = Array.from({ length: 16 }, async () => {
        while (!stopped) await post().catch(() => (stopped = true));
      });
      await Promise.all(clients);
      await serve.stop('SIGKILL');

      // The dead server's booking lock, as the kill left it, or as it would have (held mid-booking).
      const lock = join(store, 'locks', 'shipments.lock');
      if (!(await stat(lock).catch(() => undefined))) {
        await mkdir(lock, { recursive: true });
        const boot = (await readFile('/proc/sys/kernel/random/boot_id', 'utf8').catch(() => '')).trim() || null;
        const { readlinkSync } = await import('node:fs');
        const owner = {
          pid: serve.child.pid,
          host: hostname(),
          boot,
          pidNamespace: readlinkSync('/proc/self/ns/pid'),
          started,
          token: `${run}`.padStart(24, 'c'),
          since: new Date().toISOString(),
        };
        await writeFile(join(lock, 'owner.json'), JSON.stringify(owner));
      }
      await pinLocks(store);

      const restarted = await startServe({ store });
      try {
        const first = await fetch(`${restarted.url}/v1/shipper/shipment`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: request });
        expect(first.status).toBe(200);
        const shipment = (await first.json()) as Shipment;
        acknowledged.set(shipment.id, shipment.orderNumber);
        for (const [id, orderNumber] of acknowledged) {
          const answer = await fetch(`${restarted.url}/v1/shipper/shipment/${id}`);
          expect(answer.status, `acknowledged ${orderNumber} lost`).toBe(200);
          expect(((await answer.json()) as Shipment).orderNumber).toBe(orderNumber);
        }
      } finally {
        await restarted.stop();
      }
    }
    const shipments = await allShipments(storeInProcess(store));
    expectDistinctNumbers(shipments);
    expect(shipments.length).toBeGreaterThanOrEqual(acknowledged.size);
  });
});
