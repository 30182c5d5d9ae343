/**
 * The file store's group commit under kill -9 at its own kill points (src/store/file/killPoints.ts):
 * inside the journal write (a torn line), between the journal and the files, while the files are
 * put in place, during compaction, and between the two steps of a merge of the pending log. An import of 600 shipments (two chunks) is killed in its
 * second commit; then every shipment it acknowledged is present exactly once, every command reads
 * the store, a re-run books only the rest, and no order, BOL, SSCC number is issued twice. The
 * killed import is a process of the built CLI; what reads, re-runs and books after it, once it
 * died, runs main() in process (a store opened afresh, as by a new process).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Shipment } from '../../src/domain/schemas.js';
import { BIN, ISOLATED_SETTINGS, tempDir } from '../helpers/cli.js';
import { shipmentsCsv } from '../helpers/csv.js';
import { storeInProcess } from '../helpers/inProcess.js';
import { allShipmentsThrough, BOOK_ONE_PALLET } from '../helpers/shipmentsRead.js';

let work: { dir: string; cleanup: () => Promise<void> };
beforeAll(async () => {
  work = await tempDir('shipper-journal-');
});
afterAll(() => work.cleanup());

const env = (extra: Record<string, string>) => {
  const merged: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...ISOLATED_SETTINGS, ...extra };
  for (const key of Object.keys(merged)) if (merged[key] === undefined) delete merged[key];
  return merged;
};

const allShipments = allShipmentsThrough;

function expectNoNumberTwice(shipments: Shipment[]): void {
  expect(new Set(shipments.map((shipment) => shipment.id)).size).toBe(shipments.length);
  expect(new Set(shipments.map((shipment) => shipment.orderNumber)).size).toBe(shipments.length);
  expect(new Set(shipments.map((shipment) => shipment.bolNumber)).size).toBe(shipments.length);
  const ssccs = shipments.flatMap((shipment) => shipment.ssccs);
  expect(new Set(ssccs).size).toBe(ssccs.length);
}

const TOTAL = 600;

describe.each([
  ['inside the journal write (a torn line)', 'journal-write@2', {}],
  ['between the journal and the files', 'after-journal@2', {}],
  ['while the files are put in place', 'during-apply@2', {}],
  ['during compaction', 'during-compaction@2', { SHIPPER_JOURNAL_LIMIT: '1' }],
  ['between the two steps of a merge of the idempotency records', 'during-merge@2', { SHIPPER_PENDING_LIMIT: '1' }],
] as const)('an import killed %s', (_where, point, extra) => {
  it('keeps what it acknowledged exactly once; a re-run books only the rest; no number twice', { timeout: 120_000 }, async () => {
    const dir = join(work.dir, point.replace(/\W/g, '-'));
    const store = join(dir, 'store');
    const file = join(work.dir, `${point.replace(/\W/g, '-')}.csv`);
    await writeFile(file, shipmentsCsv(TOTAL, 2, 'J'));
    const shipper = storeInProcess(store);

    const child = spawn(process.execPath, [BIN, '--store', store, 'import', file, '--json'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: env({ SHIPPER_KILL_AT: point, ...extra }),
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    // 'close', not 'exit': the child's last lines may still be in the pipe when it exits.
    const [, signal] = (await once(child, 'close')) as [number | null, string | null];
    expect(signal).toBe('SIGKILL');
    const acknowledged = [...stdout.matchAll(/^ {4}(\{"line".*\}),?$/gm)].map((match) => JSON.parse(match[1]!) as { id: string; orderNumber: string });
    // The first chunk (500) was acknowledged before the second commit was killed. A pipe that the
    // reader drains slowly (a loaded machine) fills, and Node keeps what did not fit in the child's
    // memory, where SIGKILL loses it: so at most 500 lines arrive, and at least what a pipe holds.
    expect(acknowledged.length).toBeGreaterThan(0);
    expect(acknowledged.length).toBeLessThanOrEqual(500);

    const partial = await allShipments(shipper);
    // Every one of the first chunk was committed, whatever of its acknowledgement reached the pipe.
    expect(partial.length).toBeGreaterThanOrEqual(500);
    expectNoNumberTwice(partial);
    const stored = new Map(partial.map((shipment) => [shipment.id, shipment.orderNumber]));
    for (const shipment of acknowledged) expect(stored.get(shipment.id), `acknowledged ${shipment.orderNumber} lost`).toBe(shipment.orderNumber);
    // Look-ups by number work at once (an index the killed process left untrusted is rebuilt).
    const lookup = await shipper(['shipment', 'get', acknowledged[0]!.orderNumber, '--json']);
    expect(lookup.code, lookup.stderr).toBe(0);

    const rerun = await shipper(['import', file, '--json']);
    expect(rerun.code, rerun.stderr).toBe(0);
    const shipments = await allShipments(shipper);
    expectNoNumberTwice(shipments);
    expect(shipments.map((shipment) => shipment.refNumber).sort()).toEqual(Array.from({ length: TOTAL }, (_, index) => `J-${String(index + 1).padStart(4, '0')}`));
    const final = new Map(shipments.map((shipment) => [shipment.id, shipment.orderNumber]));
    for (const shipment of partial) expect(final.get(shipment.id)).toBe(shipment.orderNumber);
    // Nothing half-written is left: no temporary file, and the journal ends with a whole line.
    for (const collection of ['shipments', 'idempotency']) expect((await readdir(join(store, collection))).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    const journal = await readFile(join(store, 'journal', 'journal.log'), 'utf8');
    expect(journal === '' || journal.endsWith('\n')).toBe(true);
    // A later booking takes the next number.
    const next = await shipper([...BOOK_ONE_PALLET]);
    expect(next.code, next.stderr).toBe(0);
    const booked = JSON.parse(next.stdout) as Shipment;
    expect(shipments.map((shipment) => shipment.orderNumber)).not.toContain(booked.orderNumber);
    expect(shipments.flatMap((shipment) => shipment.ssccs)).not.toContain(booked.ssccs[0]);
  });
});
