/**
 * Order and BOL numbers: one serial per shipment from a counter that only ever goes up, also when
 * the store is restored without its counter file or with an older one. The counter
 * (counters/orders.json) has a twin beside the records that carry the numbers
 * (shipments/.orders.high-water, written in the same reservation, before any shipment): the next
 * serial is above both. When the mark is missing or damaged (a store copied without its dot files),
 * whatever the counter says, the shipments themselves are read to find the highest number (once;
 * the mark is then written again). The first reservation of a process also reads the newest
 * shipments, so a counter and a mark both restored from an older backup over newer shipments do
 * not go back either.
 */
import { z } from 'zod';
import { bolNumberFor, DOCUMENTATION_BOL_COMPANY_PREFIX, orderNumberFor } from '../../domain/bolNumber.js';
import { StoreError, type JsonStore } from '../../store/jsonStore.js';
import { PROBLEM_TYPE_BASE, ProblemError } from '../problems.js';

const counterSchema = z.object({ last: z.number().int().min(0) });

/** The numbers a shipment record carries, read leniently (older records lack the carrier ones). */
const numberedRecordSchema = z.object({
  orderNumber: z.string().optional(),
  proNumber: z.string().nullish(),
  ssccs: z.array(z.string()).optional(),
  carrier: z.object({ scac: z.string() }).nullish(),
});
export type NumberedRecord = z.output<typeof numberedRecordSchema>;

export interface NumberingOptions {
  /** GS1 company prefix of BOL numbers (7-10 digits). */
  bolCompanyPrefix?: string | undefined;
}

export class Numbering {
  readonly bolCompanyPrefix: string;
  /** The newest shipments were read (the first reservation of this object). */
  private newestChecked = false;

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
   * Reserves `count` consecutive order serials and returns the first. Must run inside the store's
   * `shipments` lock: the lock is what makes it safe across processes.
   */
  async reserveLocked(count: number): Promise<number> {
    const peeked = await this.peek('orders', () => this.highestSerialOfRecords());
    const last = Math.max(peeked.last, await this.highestSerialOfNewestOnce());
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
    await this.advance('orders', next.last);
    return first;
  }

  /**
   * The highest order number among the newest shipments, at the first reservation of this object
   * (0 after): ids sort by creation time, so these hold the last numbers given out, whatever a
   * counter and mark restored from an older backup say.
   */
  private async highestSerialOfNewestOnce(): Promise<number> {
    if (this.newestChecked) return 0;
    const { ids } = await this.store.listIds('shipments', { limit: 64 });
    const records = await Promise.all(ids.map((id) => this.store.get('shipments', id, z.object({ orderNumber: z.string() })).catch(() => undefined)));
    this.newestChecked = true;
    return Math.max(0, ...records.map((record) => Number(/^SO-(\d+)$/.exec(record?.orderNumber ?? '')?.[1] ?? 0)));
  }

  /**
   * Reserves `count` numbers of another counter that never goes back (SSCC serials, a carrier's
   * PRO block, X12 control numbers), kept the same way as the order serials. Inside the lock.
   */
  async reserveOtherLocked(name: string, count: number, fromRecords: () => Promise<number> = async () => 0): Promise<number> {
    const { last, first } = await this.peek(name, fromRecords);
    await this.advance(name, last + count);
    return first;
  }

  /** reserveOtherLocked for a counter with an end (a PRO block): null, and nothing reserved, when `count` more would pass `capacity`. */
  async reserveWithinLocked(name: string, count: number, capacity: bigint, fromRecords: () => Promise<number> = async () => 0): Promise<number | null> {
    const { last, first } = await this.peek(name, fromRecords);
    if (BigInt(last + count) > capacity) return null;
    await this.advance(name, last + count);
    return first;
  }

  private async peek(name: string, fromRecords: () => Promise<number>): Promise<{ last: number; first: number }> {
    // A damaged counter or mark counts as missing: the other, or the records, say where numbers are; it is written anew.
    const readable = <T>(read: Promise<T>) => read.catch((error: unknown) => (error instanceof StoreError ? undefined : Promise.reject(error)));
    const [counter, mark] = await Promise.all([
      readable(this.store.get('counters', name, counterSchema)),
      readable(this.store.getMark('shipments', `${name}.high-water`, counterSchema)),
    ]);
    // The mark is what a restore loses or lowers along with the records' directory: without it the records decide.
    const last = !mark ? Math.max(counter?.last ?? 0, await fromRecords()) : Math.max(counter?.last ?? 0, mark.last);
    return { last, first: last + 1 };
  }

  /** The mark beside the records first, then the counter: a crash in between leaves the mark ahead, never behind. */
  private async advance(name: string, last: number): Promise<void> {
    await this.store.putMark('shipments', `${name}.high-water`, { last });
    await this.store.put('counters', name, { last });
  }

  orderNumber(serial: number): string {
    return orderNumberFor(serial);
  }

  bolNumber(serial: number): string {
    return bolNumberFor(this.bolCompanyPrefix, serial);
  }

  /** The highest order number among the stored shipments (a store restored without its counters). */
  private highestSerialOfRecords(): Promise<number> {
    return this.highestOfRecords((record) => [Number(/^SO-(\d+)$/.exec(record.orderNumber ?? '')?.[1] ?? 0)]);
  }

  /**
   * The highest number `numbersOf` finds in the stored shipments: where a counter and its mark are
   * both lost, the next number is still above every one already printed (read once; both are then
   * written again). A record that cannot be read is passed over.
   */
  async highestOfRecords(numbersOf: (record: NumberedRecord) => Array<number | null>): Promise<number> {
    let highest = 0;
    let before: string | undefined;
    for (;;) {
      const { ids, more } = await this.store.listIds('shipments', { limit: 1000, before });
      for (const id of ids) {
        const record = await this.store.get('shipments', id, numberedRecordSchema).catch(() => undefined);
        if (record) for (const number of numbersOf(record)) if (number !== null && number > highest) highest = number;
      }
      if (!more || ids.length === 0) return highest;
      before = ids.at(-1);
    }
  }
}
