/**
 * The shipment list's proNumber / bolNumber filters on the local engine, and the store's indexes
 * behind them: right after booking, after a PRO was changed by the update after booking, with an
 * index lost or damaged, and across two processes' engines on one store.
 */
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalApi } from '../../src/api/local.js';
import { normalisedProNumber } from '../../src/domain/recordKeys.js';
import { tempDir } from '../helpers/cli.js';
import { apiAt, shipmentRequest } from '../helpers/fixtures.js';

let store: { dir: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  store = await tempDir('shipper-keys-');
});
afterEach(() => store.cleanup());

const ids = async (api: LocalApi, query: { proNumber?: string; bolNumber?: string }) => (await api.listShipments(query)).data.items.map((shipment) => shipment.orderNumber).sort();
const proIndex = () => join(store.dir, 'index', 'pro');

/** The update after booking: a new PRO. */
async function setPro(api: LocalApi, id: string, proNumber: string | null): Promise<void> {
  await api.updateShipment(id, { proNumber });
}

describe('normalisedProNumber', () => {
  it('ignores case, spaces and dashes', () => {
    expect(normalisedProNumber(' 720-48 01a ')).toBe('7204801A');
    expect(normalisedProNumber('---')).toBe('');
  });
});

describe('shipments by PRO and BOL number', () => {
  it('finds bookings at once, and those booked after the index was written', async () => {
    const { api } = apiAt(store.dir);
    const a = (await api.createShipment(shipmentRequest({ proNumber: '7204801' }))).data;
    expect(await ids(api, { proNumber: '720-4801' })).toEqual(['SO-000001']);
    const b = (await api.createShipment(shipmentRequest({ proNumber: '7204802' }))).data;
    expect(await ids(api, { proNumber: '7204801,7204802' })).toEqual(['SO-000001', 'SO-000002']);
    expect(await ids(api, { bolNumber: b.bolNumber })).toEqual(['SO-000002']);
    expect(await ids(api, { bolNumber: a.bolNumber })).toEqual(['SO-000001']);
    // The index's buckets hold each PRO once, as a line naming its shipment.
    const lines = (await Promise.all((await readdir(proIndex())).map((name) => readFile(join(proIndex(), name), 'utf8')))).join('').trim().split('\n');
    expect(lines.map((line) => JSON.parse(line) as { k: string; a: string }).sort((x, y) => x.k.localeCompare(y.k))).toEqual([
      { k: '7204801', a: a.id },
      { k: '7204802', a: b.id },
    ]);
  });

  it('a PRO set or changed after booking is found by its new number, never by its old one', async () => {
    const { api } = apiAt(store.dir);
    const a = (await api.createShipment(shipmentRequest({ proNumber: '7204801' }))).data;
    const b = (await api.createShipment(shipmentRequest())).data;
    expect(await ids(api, { proNumber: '7204801' })).toEqual(['SO-000001']);
    await setPro(api, b.id, '7204899');
    expect(await ids(api, { proNumber: '7204899' })).toEqual(['SO-000002']);
    // The PRO moves from one shipment to another: the index's old entry must not answer.
    await setPro(api, a.id, null);
    await setPro(api, b.id, '7204801');
    expect(await ids(api, { proNumber: '7204801' })).toEqual(['SO-000002']);
    expect(await ids(api, { proNumber: '7204899' })).toEqual([]);
  });

  it('works without its index, or with a damaged one, and across two engines on one store', async () => {
    const { api } = apiAt(store.dir);
    const first = (await api.createShipment(shipmentRequest({ proNumber: 'AB-1' }))).data;
    expect(await ids(api, { proNumber: 'ab1' })).toEqual(['SO-000001']);
    await rm(join(store.dir, 'index'), { recursive: true });
    const other = new LocalApi({ storeDir: store.dir });
    expect(await ids(other, { bolNumber: first.bolNumber })).toEqual(['SO-000001']);
    expect(await ids(other, { proNumber: 'AB-1' })).toEqual(['SO-000001']);
    // Garbled in place (the directory does not change): the bucket is noticed as damaged and rebuilt.
    for (const name of await readdir(proIndex())) await writeFile(join(proIndex(), name), '{ not json\n');
    expect(await ids(new LocalApi({ storeDir: store.dir }), { proNumber: 'AB-1' })).toEqual(['SO-000001']);
    // One engine books, the other (with its index in memory) finds it.
    const second = (await other.createShipment(shipmentRequest({ proNumber: 'AB-2' }))).data;
    expect(await ids(api, { proNumber: 'AB-2' })).toEqual([second.orderNumber]);
  });

  it('combines with the other filters and pages', async () => {
    const { api } = apiAt(store.dir);
    for (const pro of ['P-1', 'P-2', 'P-3']) await api.createShipment(shipmentRequest({ proNumber: pro, refNumber: pro === 'P-2' ? 'PO-X' : 'PO-Y' }));
    expect(await ids(api, { proNumber: 'P1,P2,P3' })).toEqual(['SO-000001', 'SO-000002', 'SO-000003']);
    expect((await api.listShipments({ proNumber: 'P1,P2,P3', refNumber: 'po-x' })).data.items.map((shipment) => shipment.orderNumber)).toEqual(['SO-000002']);
    const page = await api.listShipments({ proNumber: 'P1,P2,P3', limit: 2 });
    expect(page.data.items.map((shipment) => shipment.orderNumber)).toEqual(['SO-000003', 'SO-000002']);
    const next = await api.listShipments({ proNumber: 'P1,P2,P3', limit: 2, cursor: page.data.nextCursor! });
    expect(next.data).toMatchObject({ items: [{ orderNumber: 'SO-000001' }], nextCursor: null });
  });
});
