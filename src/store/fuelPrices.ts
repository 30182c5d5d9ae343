/**
 * The weekly DOE/EIA diesel prices in the local store, one record (`fuel-prices/us-diesel`): the
 * weeks imported so far, Monday -> mills. An adapter over the JSON store until the storage ports
 * (issue 26) give fuel prices a port of their own; nothing else knows where they are kept.
 */
import { z } from 'zod';
import type { FuelWeekPrice } from '../domain/agreements/fuelHistory.js';
import type { JsonStore } from './jsonStore.js';

const COLLECTION = 'fuel-prices';
const RECORD = 'us-diesel';
const LOCK = 'fuel-prices';
const recordSchema = z.object({ series: z.string(), weeks: z.record(z.string(), z.number().int()) });

export class FuelPrices {
  constructor(private readonly store: JsonStore) {}

  /** Every week known, Monday -> mills. */
  async history(): Promise<Map<string, number>> {
    const record = await this.store.get(COLLECTION, RECORD, recordSchema);
    return new Map(Object.entries(record?.weeks ?? {}));
  }

  /** Adds weeks (a week imported again takes the new price): how many were new and how many changed. */
  async import(weeks: readonly FuelWeekPrice[]): Promise<{ added: number; changed: number; total: number }> {
    return this.store.withLock(LOCK, async () => {
      const record = await this.store.get(COLLECTION, RECORD, recordSchema);
      const known = { ...(record?.weeks ?? {}) };
      let added = 0;
      let changed = 0;
      for (const { week, mills } of weeks) {
        if (!(week in known)) added++;
        else if (known[week] !== mills) changed++;
        known[week] = mills;
      }
      const sorted = Object.fromEntries(Object.entries(known).sort(([a], [b]) => (a < b ? -1 : 1)));
      await this.store.put(COLLECTION, RECORD, { series: 'EMD_EPD2D_PTE_NUS_DPG', weeks: sorted });
      return { added, changed, total: Object.keys(sorted).length };
    });
  }
}
