/**
 * Order and BOL numbers: one serial per shipment from a counter that only ever goes up, also when
 * the store is restored without its counter file or with an older one. The counter
 * (counters/orders.json) has a twin beside the records that carry the numbers
 * (shipments/.orders.high-water, written in the same reservation, before any shipment): the next
 * serial is above both. When both are missing but shipments exist, the shipments themselves are
 * read to find the highest number (once; the counter is then written again).
 */
import { z } from 'zod';
import { bolNumberFor, DOCUMENTATION_BOL_COMPANY_PREFIX, orderNumberFor } from '../../domain/bolNumber.js';
import type { JsonStore } from '../../store/jsonStore.js';
import { PROBLEM_TYPE_BASE, ProblemError } from '../problems.js';

const counterSchema = z.object({ last: z.number().int().min(0) });


export interface NumberingOptions {
  /** GS1 company prefix of BOL numbers (7-10 digits). */
  bolCompanyPrefix?: string | undefined;
}



export class Numbering {
  readonly bolCompanyPrefix: string;

  constructor(
    private readonly store: JsonStore,
    options: NumberingOptions = {},
  ) {
    this.bolCompanyPrefix = options.bolCompanyPrefix ?? DOCUMENTATION_BOL_COMPANY_PREFIX;
  }

  get usesDocumentationPrefix(): boolean {
    return this.bolCompanyPrefix === DOCUMENTATION_BOL_COMPANY_PREFIX;
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
    // Every serial must fit the BOL number after the company prefix: refuse before spending any.
    const serialDigits = 16 - this.bolCompanyPrefix.length;
    if (String(next.last).length > serialDigits) {
      throw new ProblemError({
        type: `${PROBLEM_TYPE_BASE}numbers-exhausted`,
        title: 'Numbers Exhausted',
        status: 500,
        detail: `BOL numbers under company prefix ${this.bolCompanyPrefix} have ${serialDigits} digits of serial, and ${last} are used; a longer prefix leaves fewer, a shorter one more`,
      });
    }
    await this.store.putMark('shipments', 'orders.high-water', next);
    await this.store.put('counters', 'orders', next);
    return first;
  }

  orderNumber(serial: number): string {
    return orderNumberFor(serial);
  }

  bolNumber(serial: number): string {
    return bolNumberFor(this.bolCompanyPrefix, serial);
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
