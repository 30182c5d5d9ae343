/**
 * A file of at most RETAINED_ROWS rows is kept in memory: the booking books the very requests the
 * check judged (the same objects, which the engine judges once), and a longer file is spilled to a
 * temporary file and booked from it (spill.test.ts) so that memory stays flat.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LocalApi } from '../../src/api/local.js';
import type { ShipperApi } from '../../src/api/types.js';
import { importShipments } from '../../src/import/importer.js';
import type { LocationResolver } from '../../src/import/shipmentRows.js';
import { tempDir } from '../helpers/cli.js';
import { shipmentsCsv } from '../helpers/csv.js';
import { apiAt } from '../helpers/fixtures.js';

const noLocations: LocationResolver = { resolve: async () => undefined };

let work: { dir: string; cleanup: () => Promise<void> };
let api: LocalApi;
beforeEach(async () => {
  work = await tempDir('shipper-retained-');
  api = apiAt(join(work.dir, 'store')).api;
});
afterEach(() => work.cleanup());

/** The API, recording the request objects each pass sent. */
function recording(target: LocalApi): { api: ShipperApi; previewed: unknown[]; booked: unknown[] } {
  const previewed: unknown[] = [];
  const booked: unknown[] = [];
  const wrapped = Object.create(target) as LocalApi;
  wrapped.previewShipments = async (body) => {
    previewed.push(...body.items.map((item) => item.request));
    return target.previewShipments(body);
  };
  wrapped.createShipments = async (body) => {
    booked.push(...body.items.map((item) => item.request));
    return target.createShipments(body);
  };
  return { api: wrapped, previewed, booked };
}

describe('the booking of a short file', () => {
  it('books the request objects the check previewed, without reading the file again', async () => {
    const file = join(work.dir, 'orders.csv');
    await writeFile(file, shipmentsCsv(30, 2));
    const calls = recording(api);
    const summary = await importShipments(calls.api, noLocations, { file, chunkSize: 7 });
    expect(summary.booked).toBe(30);
    expect(calls.booked).toHaveLength(30);
    calls.booked.forEach((request, index) => expect(request).toBe(calls.previewed[index]));
    // Booked as checked, in file order.
    expect((await api.listShipments({ limit: 100 })).data.items.map((shipment) => shipment.refNumber).sort()).toEqual(
      Array.from({ length: 30 }, (_, index) => `PO-${String(index + 1).padStart(4, '0')}`),
    );
  });

  // 24 rows: one more than is kept (spilled), or exactly as many (kept).
  it.each([
    [23, 'spilled: other objects, the same requests'],
    [24, 'kept: the same objects'],
  ] as const)('a file of 24 rows with %i kept is %s', async (retainedRows, _outcome) => {
    const file = join(work.dir, `edge-${retainedRows}.csv`);
    await writeFile(file, shipmentsCsv(12, 2));
    const calls = recording(api);
    const summary = await importShipments(calls.api, noLocations, { file, retainedRows, chunkSize: 5 });
    expect(summary).toMatchObject({ booked: 12, rows: 24 });
    expect(calls.booked).toHaveLength(12);
    calls.booked.forEach((request, index) => {
      if (retainedRows === 24) expect(request).toBe(calls.previewed[index]);
      else expect(request).not.toBe(calls.previewed[index]);
      expect(request).toEqual(calls.previewed[index]);
    });
  });
});

describe("the engine's judgement of a request object", () => {
  it('is made once and lent out: warnings added to one answer are not in the next', async () => {
    const request = {
      refNumber: 'PO-1',
      pickupAddress: { name: 'A', address1: '1 Main St', city: 'Chicago', state: 'IL', zipCode: '60608' },
      deliveryAddress: { name: 'B', address1: '2 Main St', city: 'New York', state: 'NY', zipCode: '10001' },
      orderComponents: [{ palletCount: 1, poundsWeight: 500, dimensions: { length: 48, width: 40, height: 48 } }],
    };
    const first = await api.previewShipments({ items: [{ request }] });
    const again = await api.previewShipments({ items: [{ request }] });
    const warningsOf = (outcome: unknown) => (outcome as { warnings: Array<{ code: string }> }).warnings.map((item) => item.code);
    expect(warningsOf(first.data.items[0]).length).toBeGreaterThan(0);
    expect(warningsOf(again.data.items[0])).toEqual(warningsOf(first.data.items[0]));
    const booked = await api.createShipments({ items: [{ request }] });
    const [outcome] = booked.data.items;
    expect(outcome).toMatchObject({ ok: true, data: { refNumber: 'PO-1' } });
    // Each warning once: none left over from the judgements lent to the previews.
    expect(new Set(warningsOf(outcome)).size).toBe(warningsOf(outcome).length);
    expect(warningsOf(outcome)).toEqual(expect.arrayContaining(warningsOf(first.data.items[0])));
    // A request object changed after it was judged is not what the memo holds: a new object is judged anew.
    const changed = { ...request, orderComponents: [{ palletCount: 1, poundsWeight: -5, dimensions: { length: 48, width: 40, height: 48 } }] };
    const [refused] = (await api.createShipments({ items: [{ request: changed }] })).data.items;
    expect(refused).toMatchObject({ ok: false, problem: { status: 400, violations: [expect.objectContaining({ field: 'orderComponents[0].poundsWeight' })] } });
  });
});
