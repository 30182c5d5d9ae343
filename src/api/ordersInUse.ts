/**
 * The highest order number the shipments hold, for the order counter's check
 * (JsonStore.reserveSerialsLocked): a deleted or lowered counter must not give SO-000001 again.
 */
import { z } from 'zod';
import { mapInOrder } from '../concurrency.js';
import type { JsonStore } from '../store/jsonStore.js';

/** Shipments read when the counter exists: ids sort by creation time, so these hold the last numbers. */
const NEWEST = 64;
const orderNumberOnly = z.object({ orderNumber: z.string() });

/**
 * Reads the newest shipments, or every shipment when the counter file is gone (once per process,
 * and only then: a store of 100,000 shipments takes seconds). Damaged records are skipped: they
 * are reported where they are read.
 */
export async function highestOrderSerialInUse(store: JsonStore, counterMissing: boolean): Promise<number> {
  const { ids } = await store.listIds('shipments', { limit: counterMissing ? Number.MAX_SAFE_INTEGER : NEWEST });
  let highest = 0;
  await mapInOrder(ids, 32, async (id) => {
    const record = await store.get('shipments', id, orderNumberOnly).catch(() => undefined);
    const serial = /^SO-(\d+)$/.exec(record?.orderNumber ?? '')?.[1];
    if (serial !== undefined) highest = Math.max(highest, Number(serial));
  });
  return highest;
}
