/**
 * A file longer than the check keeps in memory is spilled by the check to a temporary file and
 * booked from it: read once, booked as checked, and the temporary file gone however it ends.
 */
import { readdirSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RemoteApi } from '../../src/api/remote.js';
import type { ShipperApi } from '../../src/api/types.js';
import { createShipperServer } from '../../src/server/server.js';
import type { LocalApi } from '../../src/api/local.js';
import { ImportCancelledError, ImportInterruptedError, ImportRejectedError, importShipments, type ImportOptions } from '../../src/import/importer.js';
import type { LocationResolver } from '../../src/import/shipmentRows.js';
import { Spill } from '../../src/import/spill.js';
import { tempDir } from '../helpers/cli.js';
import { csvLine, HEADER, rowCells, shipmentsCsv } from '../helpers/csv.js';
import { apiAt } from '../helpers/fixtures.js';

const noLocations: LocationResolver = { resolve: async () => undefined };

let work: { dir: string; cleanup: () => Promise<void> };
let spillDirectory: string;
let api: LocalApi;
beforeEach(async () => {
  work = await tempDir('shipper-spill-');
  spillDirectory = join(work.dir, 'tmp');
  await mkdir(spillDirectory);
  api = apiAt(join(work.dir, 'store')).api;
});
afterEach(() => work.cleanup());

async function csv(content: string, name = 'orders.csv'): Promise<string> {
  const path = join(work.dir, name);
  await writeFile(path, content);
  return path;
}

/** Imports with a spill from the first shipment on (retainedRows 1); `spilled` says whether the booking found the spill's file in the directory (it should not: it is unlinked at once). */
async function spilling(file: string, options: Partial<ImportOptions> = {}, resolver = noLocations, target: ShipperApi = api) {
  let leftAtBooking: string[] | undefined;
  const summary = await importShipments(
    target,
    resolver,
    { file, retainedRows: 1, chunkSize: 3, spillDirectory, ...options },
    {
      phase: (phase) => {
        if (phase === 'booking') leftAtBooking = readdirSync(spillDirectory);
      },
    },
  );
  return { summary, leftAtBooking };
}

describe('a file longer than the check keeps in memory', () => {
  it('is read once: booked from what the check spilled, the saved locations resolved once, nothing left in the temporary directory', async () => {
    const header = 'refNumber,shipper,consigneeName,consigneeStreet1,consigneeCity,consigneeState,consigneePostalCode,palletCount,poundsWeight,length,width,height';
    const rows = Array.from({ length: 10 }, (_, index) => `PO-${index + 1},Main DC,Store ${index},1 Penn Plaza,New York,NY,10001,1,${300 + index},48,40,48`);
    const file = await csv(`${header}\n${rows.join('\n')}\n`);
    let resolved = 0;
    const resolver: LocationResolver = {
      resolve: async () => {
        resolved++;
        return { name: 'Main DC', address1: '2100 S Halsted St', city: 'Chicago', state: 'IL', zipCode: '60608' };
      },
    };
    const { summary, leftAtBooking } = await spilling(file, {}, resolver);
    expect(summary).toMatchObject({ booked: 10, rows: 10, shipments: 10 });
    expect(resolved).toBe(10);
    expect(leftAtBooking).toEqual([]);
    expect(await readdir(spillDirectory)).toEqual([]);
    // Booked as the check read it; a re-import (read and spilled again) recognises every shipment.
    const again = await spilling(file, {}, resolver);
    expect(again.summary).toMatchObject({ booked: 0, alreadyBooked: 10 });
  });

  it('books what reading the file again books, and --skip-invalid writes the same reject file', async () => {
    const lines = shipmentsCsv(8, 2).trimEnd().split('\n');
    lines[5] = lines[5]!.replace(',500,', ',heavy,').replace(/,\d+,48,40,/, ',heavy,48,40,');
    const file = await csv(`${lines.join('\n')}\n`);
    const outcomes = [];
    for (const retainedRows of [1, 100]) {
      const { api: fresh } = apiAt(join(work.dir, `store-${retainedRows}`));
      const rejectsFile = join(work.dir, `rejects-${retainedRows}.csv`);
      const { summary } = await spilling(file, { retainedRows, skipInvalid: true, rejectsFile }, noLocations, fresh);
      const booked = (await fresh.listShipments({ limit: 100 })).data.items.map((shipment) => [shipment.refNumber, shipment.totalPriceInCents]).sort();
      outcomes.push({ summary: { ...summary, rejectsFile: null }, booked, rejects: await readFile(rejectsFile, 'utf8') });
    }
    expect(outcomes[0]!.summary).toMatchObject({ booked: 7, rejectedShipments: 1, rejectedRows: 2 });
    expect(outcomes[0]!.rejects).toMatch(/heavy/);
    expect(outcomes[0]).toEqual(outcomes[1]);
    expect(await readdir(spillDirectory)).toEqual([]);
  });

  it('books through a server (remote mode) what the check spilled, and a re-import there or locally recognises it', async () => {
    const file = await csv(shipmentsCsv(7, 2));
    const server = createShipperServer({ api });
    const address = await server.listen(0, '127.0.0.1');
    try {
      const remote = new RemoteApi({ baseUrl: `http://127.0.0.1:${address.port}`, retries: 0 });
      expect((await spilling(file, {}, noLocations, remote)).summary).toMatchObject({ booked: 7, rows: 14 });
      expect((await spilling(file, {}, noLocations, remote)).summary).toMatchObject({ booked: 0, alreadyBooked: 7 });
    } finally {
      await server.close();
    }
    expect((await spilling(file)).summary).toMatchObject({ booked: 0, alreadyBooked: 7 });
    expect(await readdir(spillDirectory)).toEqual([]);
  });

  it('is read again when the temporary file cannot be made (no such directory): booked all the same', async () => {
    const file = await csv(shipmentsCsv(6, 2));
    const calls = { previewed: 0 };
    const counting = Object.create(api) as LocalApi;
    counting.previewShipments = async (body) => {
      calls.previewed += body.items.length;
      return api.previewShipments(body);
    };
    const { summary } = await spilling(file, { spillDirectory: join(work.dir, 'no', 'such', 'directory') }, noLocations, counting);
    expect(summary).toMatchObject({ booked: 6, rows: 12, rejectedShipments: 0 });
    expect(calls.previewed).toBe(6);
    expect((await spilling(file)).summary).toMatchObject({ booked: 0, alreadyBooked: 6 });
  });

  it('with a shipment split in the file is read again: the booking refuses the split shipment whole, as without a spill', async () => {
    const lines = [csvLine(HEADER)];
    for (const [ref, first] of [
      ['PO-1', true],
      ['PO-2', true],
      ['PO-1', false],
      ['PO-3', true],
    ] as const)
      lines.push(csvLine(rowCells(ref, first)));
    const file = await csv(`${lines.join('\n')}\n`);
    const outcomes = [];
    for (const retainedRows of [1, 100]) {
      const { api: fresh } = apiAt(join(work.dir, `store-${retainedRows}`));
      const { summary } = await spilling(file, { retainedRows, skipInvalid: true }, noLocations, fresh);
      outcomes.push({ summary, booked: (await fresh.listShipments({ limit: 100 })).data.items.map((shipment) => shipment.refNumber).sort() });
    }
    expect(outcomes[0]!.booked).toEqual(['PO-2', 'PO-3']);
    expect(outcomes[0]).toEqual(outcomes[1]);
    expect(await readdir(spillDirectory)).toEqual([]);
  });
});

describe('the temporary file', () => {
  it('is gone when the check refuses the file', async () => {
    const lines = shipmentsCsv(4, 1).trimEnd().split('\n');
    lines[3] = lines[3]!.replace(/,\d+,48,40,/, ',-5,48,40,');
    const file = await csv(`${lines.join('\n')}\n`);
    await expect(spilling(file)).rejects.toBeInstanceOf(ImportRejectedError);
    expect(await readdir(spillDirectory)).toEqual([]);
  });

  it('is gone when the booking fails part-way', async () => {
    const file = await csv(shipmentsCsv(9, 1));
    const failing = Object.create(api) as LocalApi;
    let calls = 0;
    failing.createShipments = async (body) => {
      if (++calls === 2) throw new Error('disk full');
      return api.createShipments(body);
    };
    await expect(spilling(file, {}, noLocations, failing)).rejects.toBeInstanceOf(ImportInterruptedError);
    expect(await readdir(spillDirectory)).toEqual([]);
  });

  it.each(['checking', 'booking'] as const)('is gone when the import is cancelled while %s', async (when) => {
    const file = await csv(shipmentsCsv(9, 1));
    const controller = new AbortController();
    const cancelled = importShipments(
      api,
      noLocations,
      { file, retainedRows: 1, chunkSize: 3, spillDirectory, signal: controller.signal },
      { progress: ({ phase, shipments }) => phase === when && shipments >= 3 && controller.abort() },
    );
    await expect(cancelled).rejects.toBeInstanceOf(ImportCancelledError);
    expect(await readdir(spillDirectory)).toEqual([]);
  });

  it('gives back what was written, in order, lines longer than its buffer, characters cut by it, and tabs and line breaks in cells included', async () => {
    const spill = await Spill.create(spillDirectory);
    expect(await readdir(spillDirectory)).toEqual([]);
    const long = 'é✓'.repeat(200_000);
    const shipments = Array.from({ length: 50 }, (_, index) => ({
      prepared: {
        ok: index % 7 !== 3,
        group: { rows: [{ line: 2 + index, cells: [`PO-${index}`, index % 10 === 0 ? long : `x${index}`, index % 3 === 0 ? 'tab\there\r\nand "there"' : ''] }] },
        request: { refNumber: `PO-${index}`, note: index % 10 === 5 ? long : 'n' },
        violations: [{ line: 2 + index, column: 'poundsWeight', field: 'orderComponents[0].poundsWeight', reason: 'bad' }],
        warnings: [],
      },
      key: `key-${index}`,
    }));
    for (const { prepared, key } of shipments) {
      const shipment = prepared.ok
        ? { prepared: { ok: true as const, group: prepared.group, request: prepared.request, warnings: [] }, key, request: prepared.request }
        : { prepared: { ok: false as const, group: prepared.group, violations: prepared.violations, warnings: [] }, key: undefined, request: undefined };
      await spill.write(shipment);
    }
    const read = [];
    for await (const shipment of spill.read()) read.push(shipment);
    await spill.close();
    expect(read).toHaveLength(50);
    read.forEach((shipment, index) => {
      const { prepared } = shipments[index]!;
      expect(shipment.prepared.group).toEqual(prepared.group);
      expect(shipment.prepared.ok).toBe(prepared.ok);
      if (shipment.prepared.ok) {
        expect(shipment.request).toEqual(prepared.request);
        expect(shipment.key).toBe(`key-${index}`);
      } else expect(shipment.prepared.violations).toEqual(prepared.violations);
    });
    await rm(spillDirectory, { recursive: true });
  });
});
