/**
 * A long-running server learns of other processes' writes by the store's generation
 * (src/store/file/generation.ts) instead of stat-ing every file it reads: what a CLI process
 * committed is answered by the server's next request after the CLI returned, records the server
 * held in its cache included.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalApi } from '../../src/api/local.js';
import { StoreGeneration } from '../../src/store/file/generation.js';
import { apiAt, CHICAGO_DC, NYC_STORE, PALLETS, shipmentRequest } from '../helpers/fixtures.js';
import { storeCli, tempDir } from '../helpers/cli.js';
import { startServe } from '../helpers/serve.js';
import { BOOK_ONE_PALLET } from '../helpers/shipmentsRead.js';

let work: { dir: string; cleanup: () => Promise<void> };
beforeAll(async () => {
  work = await tempDir('shipper-generation-');
});
afterAll(() => work.cleanup());

const QUOTE = ['quote', '--from', '60601', '--to', '10001', '-c', 'pallets=1,weight=500,dims=48x40x48,desc=Parts', '--json'];

describe('serve and CLI processes on one file store', () => {
  it('answers, at its next request, what a CLI process committed after the server cached the record or found it missing', async () => {
    const store = join(work.dir, 'cli-while-serve');
    const cli = storeCli(store);
    const booked = await cli([...BOOK_ONE_PALLET]);
    expect(booked.code, booked.stderr).toBe(0);
    const first = JSON.parse(booked.stdout) as { id: string; orderNumber: string; quoteId: string };
    const serve = await startServe({ store });
    const get = async (path: string) => {
      const answer = await fetch(`${serve.url}/v1/shipper${path}`);
      return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
    };
    try {
      for (let round = 0; round < 3; round++) {
        // Read (and cached) by the server, twice so that the second is answered from its cache.
        expect((await get(`/shipment/${first.id}`)).body).toMatchObject({ id: first.id, trailerNumber: round === 0 ? null : `TR-${round - 1}` });
        expect((await get(`/shipment/${first.id}`)).status).toBe(200);
        const updated = await cli(['shipment', 'update', first.id, '--trailer', `TR-${round}`]);
        expect(updated.code, updated.stderr).toBe(0);
        expect((await get(`/shipment/${first.id}`)).body).toMatchObject({ trailerNumber: `TR-${round}` });

        // A quote and a shipment the server looked for before they existed.
        const quoted = await cli(QUOTE);
        expect(quoted.code, quoted.stderr).toBe(0);
        const quoteId = (JSON.parse(quoted.stdout) as { id: string }).id;
        expect((await get(`/quote/${quoteId}`)).status).toBe(200);
        const next = await cli([...BOOK_ONE_PALLET]);
        expect(next.code, next.stderr).toBe(0);
        const shipment = JSON.parse(next.stdout) as { id: string; orderNumber: string };
        expect((await get(`/shipment/${shipment.id}`)).body).toMatchObject({ id: shipment.id, orderNumber: shipment.orderNumber });
        // By the indexes (order number) and newest first (the created index).
        expect((await get(`/shipment?orderNumber=${shipment.orderNumber}`)).body).toMatchObject({ items: [{ id: shipment.id }] });
        expect((await get(`/shipment?limit=1`)).body).toMatchObject({ items: [{ id: shipment.id }] });
      }
      const cancelled = await cli(['shipment', 'cancel', first.id]);
      expect(cancelled.code, cancelled.stderr).toBe(0);
      expect((await get(`/shipment/${first.id}`)).body).toMatchObject({ orderStatus: 'CANCELLED' });
    } finally {
      await serve.stop();
    }
  });
});

describe('the generation file', () => {
  it('moves with every commit, and an engine with a record cache sees another one write at its next read', async () => {
    const root = join(work.dir, 'two-engines');
    const reader = new LocalApi({ storeDir: root, cacheEntries: 100 });
    const { api: writer } = apiAt(root);
    const sizeOf = async () => (await readFile(join(root, 'journal', 'generation')).catch(() => Buffer.alloc(0))).length;
    const booked = (await writer.createShipment(shipmentRequest())).data;
    const before = await sizeOf();
    expect(before).toBeGreaterThan(0);
    expect((await reader.getShipment(booked.id)).data.trailerNumber).toBeNull();
    expect((await reader.getShipment(booked.id)).data.trailerNumber).toBeNull();
    await writer.updateShipment(booked.id, { trailerNumber: 'TR-9' });
    expect(await sizeOf()).toBeGreaterThan(before);
    expect((await reader.getShipment(booked.id)).data.trailerNumber).toBe('TR-9');
  });

  it('a server in an open sandbox sees a client another process added at its next look, before and after the credentials directory exists', async () => {
    const root = join(work.dir, 'open-sandbox');
    const server = new LocalApi({ storeDir: root, cacheEntries: 100 });
    const { api: cli } = apiAt(root);
    const credential = (id: string, kind: 'client' | 'key') => ({
      id,
      kind,
      name: 'n',
      hash: 'a'.repeat(64),
      last4: 'abcd',
      createdAt: '2026-12-07T00:00:00.000Z',
      revokedAt: null,
    });
    // No directory yet: looked for, found missing, and kept so while no shipper writes.
    expect(await server.store.credentials.list()).toEqual([]);
    expect(await server.store.credentials.list()).toEqual([]);
    await cli.store.credentials.add(credential('cli_01KAAAAAAAAAAAAAAAAAAAAAAA', 'client'));
    expect((await server.store.credentials.list()).map((record) => record.id)).toEqual(['cli_01KAAAAAAAAAAAAAAAAAAAAAAA']);

    // The directory made by the server itself (its token signing key, not a credential), then a key from another process.
    const second = join(work.dir, 'open-sandbox-signed');
    const signer = new LocalApi({ storeDir: second, cacheEntries: 100 });
    await signer.store.credentials.signingSecret('s'.repeat(32));
    expect(await signer.store.credentials.list()).toEqual([]);
    expect(await signer.store.credentials.list()).toEqual([]);
    await apiAt(second).api.store.credentials.add(credential('key_01KAAAAAAAAAAAAAAAAAAAAAAA', 'key'));
    expect((await signer.store.credentials.list()).map((record) => record.id)).toEqual(['key_01KAAAAAAAAAAAAAAAAAAAAAAA']);
  });
});

describe('answers remembered per view of the store', () => {
  it("a quote's bookings, remembered by a server, follow bookings and a cancellation by another process and by the server itself", async () => {
    const root = join(work.dir, 'remembered-bookings');
    const { api: cli, clock } = apiAt(root);
    const server = new LocalApi({ storeDir: root, cacheEntries: 100, now: () => clock.now });
    const quote = (await server.createLaneQuote({ pickupAddress: { zipCode: CHICAGO_DC.zipCode }, deliveryAddress: { zipCode: NYC_STORE.zipCode }, orderComponents: [PALLETS] }))
      .data;
    const bookingsOf = async () => (await server.getQuote(quote.id)).data;
    // Twice: the second is the remembered answer.
    expect(await bookingsOf()).toMatchObject({ status: 'OPEN', bookings: [] });
    expect(await bookingsOf()).toMatchObject({ status: 'OPEN', bookings: [] });

    const first = (await cli.createShipment(shipmentRequest({ quoteId: quote.id }))).data;
    expect(await bookingsOf()).toMatchObject({ status: 'BOOKED', bookings: [{ shipmentId: first.id, orderStatus: 'INITIALIZED' }] });
    await cli.cancelShipment(first.id, { reason: 'test' });
    expect(await bookingsOf()).toMatchObject({ status: 'OPEN', bookings: [{ shipmentId: first.id, orderStatus: 'CANCELLED' }] });

    // Booked by the server itself: its own write is seen at once.
    const second = (await server.createShipment(shipmentRequest({ quoteId: quote.id }))).data;
    const after = await bookingsOf();
    expect(after.status).toBe('BOOKED');
    expect((after.bookings ?? []).map((booking) => booking.shipmentId).sort()).toEqual([first.id, second.id].sort());
  });

  it("a shipment's freight check, worked out once per stored version, follows a change of its lines by another process and by the server", async () => {
    const root = join(work.dir, 'remembered-checks');
    const { api: cli, clock } = apiAt(root);
    const server = new LocalApi({ storeDir: root, cacheEntries: 100, now: () => clock.now });
    // No description on their lines: the freight check warns.
    const first = (await cli.createShipment(shipmentRequest())).data;
    const second = (await cli.createShipment(shipmentRequest())).data;
    const codes = async (id: string) => (await server.getShipment(id)).warnings.map((item) => item.code);
    expect(await codes(first.id)).toContain('NO_DESCRIPTION');
    expect(await codes(second.id)).toContain('NO_DESCRIPTION');
    // Again from the server's cache (the same object), and the answer's list is its own.
    const again = await server.getShipment(first.id);
    expect(again.warnings.map((item) => item.code)).toContain('NO_DESCRIPTION');
    again.warnings.length = 0;
    expect(await codes(first.id)).toContain('NO_DESCRIPTION');

    await cli.updateShipment(first.id, { lineDescriptions: [{ line: 1, description: 'Machine parts' }] });
    expect(await codes(first.id)).not.toContain('NO_DESCRIPTION');
    await server.updateShipment(second.id, { lineDescriptions: [{ line: 1, description: 'Machine parts' }] });
    expect(await codes(second.id)).not.toContain('NO_DESCRIPTION');
  });

  it('keeps an answer for its view only, and not one worked out while the view changed', async () => {
    const generation = new StoreGeneration(join(work.dir, 'remembered-unit'), () => ({}), true);
    let worked = 0;
    const count = async () => ++worked;
    expect(await generation.remembered('k', count)).toBe(1);
    expect(await generation.remembered('k', count)).toBe(1);
    generation.forget();
    expect(await generation.remembered('k', count)).toBe(2);
    // A write by this process while the answer was worked out: returned, not kept.
    generation.forget();
    expect(
      await generation.remembered('k', async () => {
        generation.forget();
        return 99;
      }),
    ).toBe(99);
    expect(await generation.remembered('k', count)).toBe(3);
    // A failure is not kept either.
    await expect(generation.remembered('k2', () => Promise.reject(new Error('store down')))).rejects.toThrow('store down');
    expect(await generation.remembered('k2', count)).toBe(4);
    // Without kept stats (a CLI process), worked out every time.
    const cli = new StoreGeneration(join(work.dir, 'remembered-cli'), () => ({}), false);
    expect(await cli.remembered('k', count)).toBe(5);
    expect(await cli.remembered('k', count)).toBe(6);
  });
});
