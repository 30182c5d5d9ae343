/**
 * Issue 39 (reported once in 18 race rounds): an HTTP PATCH {sealNumbers} sent at the same moment
 * as three CLI updates of the same shipment was missing afterwards. Each update reads the shipment
 * and writes it back inside one unit of work under the store's lock (shipments.ts update), so no
 * update may be lost: every round sends the four at once, each naming a field of its own, and the
 * shipment must then hold all four, whatever order they were committed in. Through a real
 * `shipper serve` and spawned CLIs on one store.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Shipment } from '../../src/domain/schemas.js';
import { storeCli, tempDir } from '../helpers/cli.js';
import { startServe } from '../helpers/serve.js';
import { BOOK_ONE_PALLET } from '../helpers/shipmentsRead.js';

let work: { dir: string; cleanup: () => Promise<void> };
beforeAll(async () => {
  work = await tempDir('shipper-update-race-');
});
afterAll(() => work.cleanup());

describe('updates of one shipment at the same moment (HTTP PATCH and three CLI processes)', () => {
  it('loses none: after each round the shipment holds what each of the four set', async () => {
    const store = join(work.dir, 'store');
    const cli = storeCli(store);
    const booked = await cli([...BOOK_ONE_PALLET]);
    expect(booked.code, booked.stderr).toBe(0);
    const id = (JSON.parse(booked.stdout) as { id: string }).id;
    const serve = await startServe({ store });
    try {
      for (let round = 1; round <= 6; round++) {
        const digits = String(round).padStart(4, '0');
        const patch = fetch(`${serve.url}/v1/shipper/shipment/${id}`, {
          method: 'PATCH',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ sealNumbers: [`SEAL-${digits}`] }),
        }).then(async (answer) => ({ status: answer.status, text: await answer.text() }));
        const updates = [
          cli(['shipment', 'update', id, '--trailer', `TR-${digits}`]),
          cli(['shipment', 'update', id, '--shipper-phone', `312-555-${digits}`]),
          cli(['shipment', 'update', id, '--consignee-phone', `212-555-${digits}`]),
        ];
        const [answer, ...results] = await Promise.all([patch, ...updates]);
        expect(answer.status, answer.text).toBe(200);
        for (const result of results) expect(result.code, result.stderr).toBe(0);
        const now = await cli(['shipment', 'get', id, '--json']);
        const shipment = JSON.parse(now.stdout) as Shipment;
        expect({
          round,
          seals: shipment.sealNumbers,
          trailer: shipment.trailerNumber,
          shipperPhone: shipment.pickupAddress.phoneNumber,
          consigneePhone: shipment.deliveryAddress.phoneNumber,
        }).toEqual({
          round,
          seals: [`SEAL-${digits}`],
          trailer: `TR-${digits}`,
          // Read as on an address: E.164.
          shipperPhone: `+1312555${digits}`,
          consigneePhone: `+1212555${digits}`,
        });
        // The server's own read (its record cache) agrees.
        const served = (await (await fetch(`${serve.url}/v1/shipper/shipment/${id}`)).json()) as Shipment;
        expect(served.sealNumbers).toEqual([`SEAL-${digits}`]);
        expect(served.trailerNumber).toBe(`TR-${digits}`);
      }
    } finally {
      await serve.stop();
    }
  });
});
