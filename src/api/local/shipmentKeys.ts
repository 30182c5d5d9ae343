/**
 * Shipments by carrier keys: PRO number and BOL number, for the list filters `proNumber` and
 * `bolNumber` (the audit of carriers' bills matches each bill to its shipment by one of them).
 *
 * A scan reads every shipment file (about 1 s per 10,000 shipments), once per request: too slow
 * for an audit of many bills. So the keys are kept in one index record (`indexes/shipment-keys`)
 * that this class maintains by itself, without any help from the writers of shipments (booking,
 * import, cancel, the PRO update after booking):
 *
 * - new shipments are added on the next look-up (their ids sort after the newest one indexed:
 *   a directory listing finds them, and only they are read);
 * - every hit is checked against the shipment as it is now, so a PRO changed since it was indexed
 *   never matches the wrong shipment;
 * - a key that the index does not find is looked for by one scan of all shipments, which also
 *   rebuilds the index: a PRO set after booking is found, and the index learns it.
 *
 * The index is a cache: losing it, or a write of an older copy by another process, costs a scan,
 * never a wrong answer.
 */
import { z } from 'zod';
import { orderNumberFor } from '../../domain/bolNumber.js';
import { mapInOrder } from '../../concurrency.js';
import type { JsonStore } from '../../store/jsonStore.js';
import { SHIPMENT_ID } from './records.js';

/** PRO numbers match whatever their case, spaces and dashes: carriers print "123-4567-8" for 12345678. */
export function normalisedProNumber(proNumber: string): string {
  return proNumber.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

/** An order number as booked (`SO-000123`), from `so123`, `SO-0123` and the like. */
export function normalisedOrderNumber(orderNumber: string): string {
  return orderNumberFor(Number(orderNumber.trim().replace(/^SO-?/i, '')));
}

/** The values of a comma-separated key filter, normalised (PRO) or trimmed (BOL), without duplicates. */
export function keyFilterValues(list: string | undefined, kind: 'pro' | 'bol'): string[] {
  if (list === undefined) return [];
  const values = list.split(',').map((value) => (kind === 'pro' ? normalisedProNumber(value) : value.trim()));
  return [...new Set(values.filter((value) => value !== ''))];
}

const keysSchema = z.object({ id: z.string(), bolNumber: z.string(), proNumber: z.string().nullable().optional() });
type Keys = { id: string; bol: string; pro: string | null };

/** One entry per shipment: "<id> <bolNumber> <normalised PRO or ->", compact for large stores. */
const indexSchema = z.object({ newestId: z.string().nullable(), entries: z.array(z.string()) });
const INDEX_COLLECTION = 'indexes';
const INDEX_ID = 'shipment-keys';

interface LoadedIndex {
  newestId: string | null;
  byId: Map<string, Keys>;
}

export class ShipmentKeyIndex {
  private loaded: LoadedIndex | undefined;
  /** Look-ups run one at a time in a process (a server answers several requests at once). */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly store: JsonStore) {}

  /**
   * The ids of the shipments carrying one of `pros` (normalised) or one of `bols`, as they are now.
   * Both lists given: the shipments carrying one of each.
   */
  find(pros: readonly string[], bols: readonly string[]): Promise<string[]> {
    const run = this.queue.then(() => this.findNow(pros, bols));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * The ids of the shipments whose BOL number can carry order serial `serial` under any company
   * prefix (7 to 10 digits, then the serial, then the check digit): the candidates of an order
   * number, read from the index without a scan (a BOL number never changes after booking). The
   * caller checks each shipment's order number.
   */
  idsWithOrderSerial(serial: number): Promise<string[]> {
    const run = this.queue.then(async () => {
      const index = await this.caughtUp();
      const carries = (bol: string) => [7, 8, 9, 10].some((prefixLength) => Number(bol.slice(prefixLength, -1)) === serial);
      return [...index.byId.values()].filter((keys) => carries(keys.bol)).map((keys) => keys.id);
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async findNow(pros: readonly string[], bols: readonly string[]): Promise<string[]> {
    const index = await this.caughtUp();
    const [proSet, bolSet] = [new Set(pros), new Set(bols)];
    const matches = (keys: Keys) => (proSet.size === 0 || (keys.pro !== null && proSet.has(keys.pro))) && (bolSet.size === 0 || bolSet.has(keys.bol));
    const candidates = [...index.byId.values()].filter(matches);
    // Checked against the shipments as they are now: a PRO may have changed since it was indexed.
    const current = await Promise.all(candidates.map((keys) => this.readKeys(keys.id)));
    const hits = current.filter((keys): keys is Keys => keys !== undefined && matches(keys));
    const found = new Set(hits.flatMap((keys) => [keys.pro, keys.bol]));
    const missing = [...pros, ...bols].some((key) => !found.has(key)) || hits.length !== candidates.length;
    if (!missing) return hits.map((keys) => keys.id);
    const rebuilt = await this.rebuild();
    return [...rebuilt.byId.values()].filter(matches).map((keys) => keys.id);
  }

  private async readKeys(id: string): Promise<Keys | undefined> {
    const record = await this.store.get('shipments', id, keysSchema).catch(() => undefined);
    return record ? { id: record.id, bol: record.bolNumber, pro: record.proNumber ? normalisedProNumber(record.proNumber) : null } : undefined;
  }

  /** The index with every shipment booked since it was written. */
  private async caughtUp(): Promise<LoadedIndex> {
    this.loaded ??= await this.read();
    const index = this.loaded;
    const { ids } = await this.store.listIds('shipments', { limit: Number.MAX_SAFE_INTEGER });
    const added = ids.filter((id) => SHIPMENT_ID.test(id) && (index.newestId === null || id > index.newestId));
    if (added.length === 0) return index;
    for (const keys of await mapInOrder(added, 32, (id) => this.readKeys(id))) if (keys) index.byId.set(keys.id, keys);
    // Ids are listed newest first.
    index.newestId = added[0]!;
    await this.write(index);
    return index;
  }

  /** Reads every shipment again: the index as the store is now. */
  private async rebuild(): Promise<LoadedIndex> {
    const { ids } = await this.store.listIds('shipments', { limit: Number.MAX_SAFE_INTEGER });
    const byId = new Map<string, Keys>();
    const read = await mapInOrder(
      ids.filter((id) => SHIPMENT_ID.test(id)),
      32,
      (id) => this.readKeys(id),
    );
    for (const keys of read) if (keys) byId.set(keys.id, keys);
    const index: LoadedIndex = { newestId: ids.find((id) => SHIPMENT_ID.test(id)) ?? null, byId };
    this.loaded = index;
    await this.write(index);
    return index;
  }

  private async read(): Promise<LoadedIndex> {
    // A damaged index is only a cache: start again from the shipments.
    const stored = await this.store.get(INDEX_COLLECTION, INDEX_ID, indexSchema).catch(() => undefined);
    const byId = new Map<string, Keys>();
    for (const entry of stored?.entries ?? []) {
      const [id, bol, pro] = entry.split(' ');
      if (id && bol) byId.set(id, { id, bol, pro: pro && pro !== '-' ? pro : null });
    }
    return { newestId: stored?.newestId ?? null, byId };
  }

  private async write(index: LoadedIndex): Promise<void> {
    const entries = [...index.byId.values()].map((keys) => `${keys.id} ${keys.bol} ${keys.pro ?? '-'}`);
    // Best effort: a store that cannot take the index still answers, by scanning next time.
    await this.store.put(INDEX_COLLECTION, INDEX_ID, { newestId: index.newestId, entries }).catch(() => undefined);
  }
}
