/**
 * Order and BOL numbers: one serial per shipment from a counter that only ever goes up, also when
 * the store is restored without its counter file or with an older one. The counter
 * (counters/orders.json) has a twin beside the records that carry the numbers
 * (shipments/.orders.high-water, written in the same reservation, before any shipment): the next
 * serial is above both. When both are missing but shipments exist, the shipments themselves are
 * read to find the highest number (once; the counter is then written again).
 */
import { z } from 'zod';
import { bolNumberFor, orderNumberFor } from '../../domain/bolNumber.js';
import type { JsonStore } from '../../store/jsonStore.js';

const counterSchema = z.object({ last: z.number().int().min(0) });

/** GS1's documentation prefix: every installation that never set its own prints the same numbers. */
export const DOCUMENTATION_BOL_COMPANY_PREFIX = '0614141';

export interface NumberingOptions {
  /** GS1 company prefix of BOL numbers (7-10 digits). */
  bolCompanyPrefix?: string | undefined;
  /** Told once per issued BOL number under the documentation prefix. */
  onDocumentationPrefix?: ((bolNumber: string) => void) | undefined;
}

export class Numbering {
  readonly bolCompanyPrefix: string;

  constructor(
    private readonly store: JsonStore,
    private readonly options: NumberingOptions = {},
  ) {
    this.bolCompanyPrefix = options.bolCompanyPrefix ?? DOCUMENTATION_BOL_COMPANY_PREFIX;
  }

  /**
   * Reserves `count` consecutive serials and returns the first. Must run inside the store's
   * `shipments` lock: the lock is what makes it safe across processes.
   */
  async reserveLocked(count: number): Promise<number> {
    const [counter, mark] = await Promise.all([
      this.store.get('counters', 'orders', counterSchema),
      this.store.getMark('shipments', 'orders.high-water', counterSchema),
    ]);
    let last = Math.max(counter?.last ?? 0, mark?.last ?? 0);
    if (!counter && !mark) last = await this.highestSerialOfRecords();
    const first = last + 1;
    const next = { last: last + count };
    await this.store.putMark('shipments', 'orders.high-water', next);
    await this.store.put('counters', 'orders', next);
    return first;
  }

  orderNumber(serial: number): string {
    return orderNumberFor(serial);
  }

  bolNumber(serial: number): string {
    const bolNumber = bolNumberFor(this.bolCompanyPrefix, serial);
    if (this.bolCompanyPrefix === DOCUMENTATION_BOL_COMPANY_PREFIX) this.options.onDocumentationPrefix?.(bolNumber);
    return bolNumber;
  }

  /** The highest order number among the stored shipments (a store restored without its counters). */
  private async highestSerialOfRecords(): Promise<number> {
    let highest = 0;
    let before: string | undefined;
    const orderNumberOnly = z.object({ orderNumber: z.string() });
    for (;;) {
      const { ids, more } = await this.store.listIds('shipments', { limit: 1000, before });
      for (const id of ids) {
        const record = await this.store.get('shipments', id, orderNumberOnly).catch(() => undefined);
        const serial = Number(/^SO-(\d+)$/.exec(record?.orderNumber ?? '')?.[1] ?? 0);
        if (serial > highest) highest = serial;
      }
      if (!more || ids.length === 0) return highest;
      before = ids.at(-1);
    }
  }
}
