/**
 * Real processes on one store: two imports at once lose nothing and never share an order number;
 * an import killed with SIGKILL leaves a store that every command reads, and running it again
 * completes it without duplicates; Ctrl-C stops it cleanly and says what was booked. The imports
 * are processes of the built CLI; what is read back afterwards, once they ended, is read in process.
 */
import { spawn } from 'node:child_process';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Shipment } from '../../src/domain/schemas.js';
import { BIN, ISOLATED_SETTINGS, runCli, storeCli, tempDir, type CliResult } from '../helpers/cli.js';
import { storeInProcess } from '../helpers/inProcess.js';
import { shipmentsCsv } from '../helpers/csv.js';
import { allShipmentsThrough } from '../helpers/shipmentsRead.js';
import { storedShipmentCount, storedShipmentIds } from '../helpers/storedShipments.js';

let work: { dir: string; cleanup: () => Promise<void> };
let store: string;
/** The built CLI, a process of its own. */
let shipper: (args: string[]) => Promise<CliResult>;
/** The CLI in process, for reading the store back once the processes ended. */
let reader: (args: string[]) => Promise<CliResult>;
beforeEach(async () => {
  work = await tempDir('shipper-concurrency-');
  store = join(work.dir, 'store');
  shipper = storeCli(store);
  reader = storeInProcess(store);
});
afterEach(() => work.cleanup());

async function csv(name: string, content: string): Promise<string> {
  const path = join(work.dir, name);
  await writeFile(path, content);
  return path;
}

const allShipments = (): Promise<Shipment[]> => allShipmentsThrough(reader);

function expectNoDuplicates(shipments: Shipment[], expectedRefs: string[]): void {
  const orderNumbers = shipments.map((shipment) => shipment.orderNumber);
  expect(new Set(orderNumbers).size).toBe(orderNumbers.length);
  expect(new Set(shipments.map((shipment) => shipment.bolNumber)).size).toBe(shipments.length);
  expect(shipments.map((shipment) => shipment.refNumber).sort()).toEqual([...expectedRefs].sort());
}

const refs = (prefix: string, count: number) => Array.from({ length: count }, (_, index) => `${prefix}-${String(index + 1).padStart(4, '0')}`);

describe('two imports at once', () => {
  it('of different files lose nothing and never share an order number', async () => {
    const [a, b] = await Promise.all([csv('a.csv', shipmentsCsv(600, 2, 'A')), csv('b.csv', shipmentsCsv(600, 2, 'B'))]);
    const [first, second] = await Promise.all([shipper(['import', a]), shipper(['import', b])]);
    expect(first.code, first.stderr).toBe(0);
    expect(second.code, second.stderr).toBe(0);
    const shipments = await allShipments();
    expectNoDuplicates(shipments, [...refs('A', 600), ...refs('B', 600)]);
    // No crash, no gaps: exactly the numbers 1..1200.
    expect(shipments.map((shipment) => shipment.orderNumber).sort()).toEqual(Array.from({ length: 1200 }, (_, index) => `SO-${String(index + 1).padStart(6, '0')}`));
  }, 120_000);

  it('of the same file book each shipment once', async () => {
    const file = await csv('same.csv', shipmentsCsv(600, 1, 'S'));
    const results = await Promise.all([shipper(['import', file, '--json']), shipper(['import', file, '--json'])]);
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    const summaries = results.map((result) => (JSON.parse(result.stdout) as { summary: { booked: number; alreadyBooked: number } }).summary);
    expect(summaries[0]!.booked + summaries[1]!.booked).toBe(600);
    expect(summaries.every((summary) => summary.booked + summary.alreadyBooked === 600)).toBe(true);
    expectNoDuplicates(await allShipments(), refs('S', 600));
  }, 120_000);
});

/** Starts an import and sends it `signal` as soon as `atLeast` shipments are on disk; resolves with how it ended. */
function importSignalledAfter(file: string, atLeast: number, signal: 'SIGKILL' | 'SIGINT'): Promise<{ seen: number; code: number | null; signal: string | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, '--store', store, 'import', file], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', SHIPPER_CONFIG_DIR: ISOLATED_SETTINGS.SHIPPER_CONFIG_DIR },
    });
    let seen = 0;
    let sent = false;
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const poll = setInterval(() => {
      storedShipmentCount(store)
        .then((count) => {
          seen = count;
          if (seen >= atLeast && !sent) {
            sent = true;
            child.kill(signal);
          }
        })
        .catch(() => undefined);
    }, 10);
    child.on('error', reject);
    child.on('close', (code, ended) => {
      clearInterval(poll);
      if (!sent) reject(new Error(`the import ended by itself (exit ${code}) before it got ${signal}`));
      else resolve({ seen, code, signal: ended, stderr });
    });
  });
}

async function importKilledAfter(file: string, atLeast: number): Promise<number> {
  const { seen, signal } = await importSignalledAfter(file, atLeast, 'SIGKILL');
  expect(signal).toBe('SIGKILL');
  return seen;
}

describe('an import stopped with Ctrl-C (SIGINT)', () => {
  it('finishes the shipments being booked, says how many, exits 130, and a re-run books the rest', async () => {
    const total = 3000;
    const file = await csv('ctrl-c.csv', shipmentsCsv(total, 1, 'C'));
    const stopped = await importSignalledAfter(file, 1, 'SIGINT');
    expect(stopped.code).toBe(130);
    const said = /import stopped by Ctrl-C with ([\d,]+) shipments? booked; run the same command again/.exec(stopped.stderr);
    expect(said, stopped.stderr).not.toBeNull();
    const booked = Number(said![1]!.replace(/,/g, ''));
    expect(booked).toBeGreaterThan(0);
    expect(booked).toBeLessThan(total);
    // Exactly what it said: whole chunks, no temporary files left behind.
    expect(await storedShipmentIds(store)).toHaveLength(booked);
    expect((await readdir(join(store, 'shipments'))).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    const rerun = await shipper(['import', file, '--json']);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect((JSON.parse(rerun.stdout) as { summary: { booked: number; alreadyBooked: number } }).summary).toMatchObject({ booked: total - booked, alreadyBooked: booked });
    expectNoDuplicates(await allShipments(), refs('C', total));
  }, 120_000);
});

describe('an import killed with SIGKILL', () => {
  it('leaves a store every command reads, and running it again completes it without duplicates', async () => {
    const total = 2000;
    const file = await csv('big.csv', shipmentsCsv(total, 2, 'K'));
    const booked = await importKilledAfter(file, 1);
    expect(booked).toBeGreaterThan(0);

    // Every command still reads the store.
    const partial = await allShipments();
    expect(partial.length).toBeLessThan(total);
    expectNoDuplicates(
      partial,
      partial.map((shipment) => shipment.refNumber!),
    );
    const one = await reader(['shipment', 'get', partial[0]!.id]);
    expect(one.code, one.stderr).toBe(0);
    expect((await reader(['quote', 'list', '--limit', '5'])).code).toBe(0);
    expect((await reader(['shipment', 'list'])).code).toBe(0);

    // The lock the killed process held is taken over at once (its holder is dead): no command waits.
    const rerun = await runCli(['--store', store, 'import', file, '--json'], { timeoutMs: 90_000 });
    expect(rerun.code, rerun.stderr).toBe(0);
    const { summary } = JSON.parse(rerun.stdout) as { summary: { booked: number; alreadyBooked: number; shipments: number } };
    expect(summary.shipments).toBe(total);
    expect(summary.alreadyBooked).toBeGreaterThanOrEqual(partial.length);
    const shipments = await allShipments();
    expectNoDuplicates(shipments, refs('K', total));
    // What was booked before the kill is still there, with the same id and order number.
    const final = new Map(shipments.map((shipment) => [shipment.id, shipment.orderNumber]));
    expect(partial.every((shipment) => final.get(shipment.id) === shipment.orderNumber)).toBe(true);
    // The killed process's temporary files are gone once the import ran again.
    expect((await readdir(join(store, 'shipments'))).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    // Numbers reserved by a killed process may be skipped, never reused.
    expect(Math.max(...shipments.map((shipment) => Number(shipment.orderNumber.slice(3))))).toBeGreaterThanOrEqual(total);
  }, 180_000);
});
