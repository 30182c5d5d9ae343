/**
 * Counters of the file store: numbers that only ever go up, also when part of the store is
 * restored from an older backup or copied without its dot files. Each counter is kept three
 * times, written in the same journal batch: `counters/<name>.json`, and marks beside the records
 * (`shipments/.<name>.high-water.json`, `idempotency/.<name>.high-water.json`). The next number is
 * above all three. When the shipments' mark is missing or damaged, whatever the others say, the
 * shipments themselves are read for the highest number they carry (once; the marks are then
 * written again); and the first reservation of each counter in a process reads the newest
 * shipments, so counters and marks all restored from an older backup over newer shipments do not
 * go back either.
 */
import type { Shipment } from '../../domain/schemas.js';
import type { CounterName, Counters, ReserveOptions } from '../ports.js';
import { StoreError } from '../storeError.js';
import type { JournalWrite } from './journal.js';
import { RecordFiles } from './recordFiles.js';
import { counterSchema } from './fileRecords.js';

/** The shipments a counter's floor is read from: all of them, or the newest few. */
export interface CounterRecords {
  all(visit: (shipment: Shipment) => void): Promise<void>;
  newest(count: number, visit: (shipment: Shipment) => void): Promise<void>;
}

/** Counters whose newest shipments were read in this process (once per counter and store). */
export type NewestChecked = Set<string>;

const NEWEST = 64;
const MARK_COLLECTIONS = ['shipments', 'idempotency'] as const;

export class FileCounters implements Counters {
  /** Last number reserved in this transaction, by counter. */
  private readonly reserved = new Map<CounterName, number>();

  constructor(
    private readonly files: RecordFiles,
    private readonly records: CounterRecords,
    private readonly newestChecked: NewestChecked,
  ) {}

  async reserve(name: CounterName, count: number, options: ReserveOptions = {}): Promise<number | null> {
    if (!/^[a-z0-9][a-z0-9.-]*$/.test(name)) throw new StoreError(`bad counter name ${name}`);
    const last = await this.last(name, options);
    if (options.capacity !== undefined && last + count > options.capacity) return null;
    this.reserved.set(name, last + count);
    return last + 1;
  }

  async last(name: CounterName, { numbersOf }: Pick<ReserveOptions, 'numbersOf'> = {}): Promise<number> {
    const known = this.reserved.get(name);
    if (known !== undefined) return known;
    // A damaged counter or mark counts as missing: the others, or the records, say where numbers are.
    const read = (collection: string, mark: boolean) =>
      (mark ? this.files.getMark(collection, `${name}.high-water`, counterSchema) : this.files.get(collection, name, counterSchema)).catch((error: unknown) =>
        error instanceof StoreError ? undefined : Promise.reject(error),
      );
    const [counter, ...marks] = await Promise.all([read('counters', false), ...MARK_COLLECTIONS.map((collection) => read(collection, true))]);
    let last = Math.max(counter?.last ?? 0, ...marks.map((mark) => mark?.last ?? 0));
    const highest = (visit: (collect: (shipment: Shipment) => void) => Promise<void>) => {
      let found = 0;
      return visit((shipment) => {
        for (const number of numbersOf!(shipment)) if (number !== null && number > found) found = number;
      }).then(() => found);
    };
    if (numbersOf && !marks[0]) last = Math.max(last, await highest((collect) => this.records.all(collect)));
    if (numbersOf && !this.newestChecked.has(name)) {
      last = Math.max(last, await highest((collect) => this.records.newest(NEWEST, collect)));
      this.newestChecked.add(name);
    }
    return last;
  }

  /** The journal writes of this transaction's reservations. */
  writes(): JournalWrite[] {
    return [...this.reserved].flatMap(([name, last]) => {
      // Overwritten in place: each batch would otherwise create three files and free three. A copy
      // torn by a kill reads as damaged, which counts as missing: the journal writes it again, and
      // the other copies (or the records) say where numbers are meanwhile.
      const text = JSON.stringify({ last });
      return [
        // The marks beside the records first, then the counter (one batch: all or none).
        ...MARK_COLLECTIONS.map((collection) => ({ path: this.files.relativeMarkOf(collection, `${name}.high-water`), text, inPlace: true })),
        { path: this.files.relativeFileOf('counters', name), text, inPlace: true },
      ];
    });
  }
}
