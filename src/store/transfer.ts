/**
 * Moving a store's records to another store (`shipper store export --to FILE`, `shipper store
 * import FILE`): JSON lines, one record a line, every record of every collection, then the
 * counters' high-water marks, so that the store they are imported into never issues a number
 * again that a record carries. Importing adds or replaces records by id (a re-run of an import
 * changes nothing); a counter is only ever raised.
 *
 * The format is the same for every store; how a store reads and writes it in bulk is its own
 * (TransferableStore): the PostgreSQL store streams rows with a cursor and inserts in batches,
 * other stores go through the ports (exportThroughPorts, importThroughPorts).
 */
import { z } from 'zod';
import { DATE_PATTERN } from '../domain/dates.js';
import { quoteSchema, shipmentSchema, type Quote, type Shipment } from '../domain/schemas.js';
import type { CounterName, IdempotencyRecord, ShipmentEventRecord, ShipperStore, WeeklyFuelPrice } from './ports.js';
import { shipmentEventRecordSchema as eventSchema } from './recordSchemas.js';

export const TRANSFER_FORMAT = 'shipper-store';
export const TRANSFER_VERSION = 1;

const idempotencyRecordSchema = z.object({
  scope: z.enum(['quote', 'shipment']),
  requestHash: z.string(),
  resourceId: z.string(),
  serial: z.number().int().optional(),
});

/** One line of an export file. */
export const transferLineSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('header'), format: z.literal(TRANSFER_FORMAT), version: z.literal(TRANSFER_VERSION), exportedAt: z.string() }),
  z.object({ type: z.literal('shipment'), shipment: shipmentSchema, ownQuote: quoteSchema.nullable().default(null) }),
  z.object({ type: z.literal('quote'), quote: quoteSchema }),
  z.object({ type: z.literal('idempotency'), key: z.string().min(1), record: idempotencyRecordSchema }),
  z.object({ type: z.literal('event'), event: eventSchema }),
  z.object({ type: z.literal('fuelPrice'), price: z.object({ week: z.string().regex(DATE_PATTERN), usdPerGallon: z.string() }) }),
  z.object({ type: z.literal('location'), location: z.object({ name: z.string().min(1), address: z.unknown() }) }),
  z.object({ type: z.literal('auditedBill'), billKey: z.string().min(1), record: z.unknown() }),
  z.object({ type: z.literal('counter'), name: z.string().regex(/^(orders|sscc|x12-control|pro-[A-Za-z0-9._-]+)$/), last: z.number().int().min(0) }),
]);

export type TransferLine = z.output<typeof transferLineSchema>;

export function headerLine(now: Date): TransferLine {
  return { type: 'header', format: TRANSFER_FORMAT, version: TRANSFER_VERSION, exportedAt: now.toISOString() };
}

/** What an import or export moved, by kind of line. */
export type TransferCounts = Partial<Record<Exclude<TransferLine['type'], 'header'>, number>>;

export function countLine(counts: TransferCounts, line: TransferLine): void {
  if (line.type !== 'header') counts[line.type] = (counts[line.type] ?? 0) + 1;
}

/** A store that reads and writes the transfer format in bulk itself. */
export interface TransferableStore {
  /** `warn`: told of records left out (damaged) and of what else the export could not read. */
  exportLines(now: Date, warn?: (item: { code: 'RECORD_UNREADABLE'; message: string }) => void): AsyncIterable<TransferLine>;
  /** Imports the lines (the header already checked) as one unit of work. */
  importLines(lines: AsyncIterable<TransferLine>): Promise<TransferCounts>;
}

export function isTransferable(store: unknown): store is TransferableStore {
  return typeof (store as Partial<TransferableStore>).exportLines === 'function' && typeof (store as Partial<TransferableStore>).importLines === 'function';
}

/** The serial an order number carries (`SO-000123` -> 123). */
export function orderSerial(orderNumber: string): number | null {
  const match = /^SO-(\d+)$/.exec(orderNumber);
  return match ? Number(match[1]) : null;
}

/**
 * The high-water marks the records themselves prove: an import raises its counters to at least
 * these, so that even an export without counter lines (or with stale ones) re-issues nothing.
 */
export function marksOfShipment(shipment: Shipment, marks: Map<string, number>): void {
  const raise = (name: string, value: number | null) => {
    if (value !== null && Number.isFinite(value) && value > (marks.get(name) ?? 0)) marks.set(name, value);
  };
  raise('orders', orderSerial(shipment.orderNumber));
}

// ---------------------------------------------------------------------------------------------
// Through the ports (any store)

/** Optional bulk reads a store may offer beyond the ports, used when present. */
interface ListableIdempotency {
  entries?: () => AsyncIterable<{ key: string; record: IdempotencyRecord }>;
}

/**
 * @param extraCounters counters beyond orders, SSCC and X12 control numbers: the ports cannot list
 *   counters, so the PRO blocks' (proBlockCounter) come from the carriers configured.
 */
export async function* exportThroughPorts(store: ShipperStore, now: Date, extraCounters: readonly string[] = []): AsyncIterable<TransferLine> {
  yield headerLine(now);
  const counterNames = new Set<string>(['orders', 'sscc', 'x12-control', ...extraCounters]);
  let cursor: string | undefined;
  do {
    const page = await store.shipments.list({}, { limit: 500, cursor });
    for (const shipment of page.items) {
      const record = await store.shipments.getRecord(shipment.id);
      if (!record) continue;
      yield { type: 'shipment', shipment: record.shipment, ownQuote: record.ownQuote ?? null };
      for (const event of await store.events.listByShipment(shipment.id)) yield { type: 'event', event: event as z.output<typeof eventSchema> };
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  cursor = undefined;
  do {
    const page = await store.quotes.list({}, { limit: 500, cursor });
    for (const quote of page.items) yield { type: 'quote', quote };
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  const entries = (store.idempotency as ListableIdempotency).entries;
  if (entries) for await (const { key, record } of entries.call(store.idempotency)) yield { type: 'idempotency', key, record };
  for (const price of await store.fuelPrices.list()) yield { type: 'fuelPrice', price };
  for (const location of (await store.locations.list()).locations) yield { type: 'location', location };
  for (const record of (await store.auditedBills.list()).records) {
    const billKey = (record as { billKey?: unknown }).billKey;
    if (typeof billKey === 'string') yield { type: 'auditedBill', billKey, record };
  }
  const lasts = await store.withTransaction((tx) => Promise.all([...counterNames].map(async (name) => [name, await tx.counters.last(name as CounterName)] as const)));
  for (const [name, last] of lasts) if (last > 0) yield { type: 'counter', name, last };
}

const BATCH = 500;

export async function importThroughPorts(store: ShipperStore, lines: AsyncIterable<TransferLine>): Promise<TransferCounts> {
  const counts: TransferCounts = {};
  const marks = new Map<string, number>();
  let batch: TransferLine[] = [];
  const flush = async () => {
    const lines = batch;
    batch = [];
    const outside = lines.filter((line) => line.type === 'location' || line.type === 'auditedBill' || line.type === 'quote');
    for (const line of outside) {
      if (line.type === 'location') await store.locations.put(line.location);
      else if (line.type === 'auditedBill') await store.auditedBills.putMany([{ billKey: line.billKey, record: line.record }]);
      else if (line.type === 'quote') await store.quotes.put(line.quote as Quote);
    }
    await store.withTransaction(async (tx) => {
      const events: ShipmentEventRecord[] = [];
      const prices: WeeklyFuelPrice[] = [];
      for (const line of lines) {
        if (line.type === 'shipment') tx.shipments.put(line.shipment, line.ownQuote ?? undefined);
        else if (line.type === 'idempotency') tx.idempotency.put(line.key, line.record);
        else if (line.type === 'event') events.push(line.event);
        else if (line.type === 'fuelPrice') prices.push(line.price);
      }
      tx.events.append(events);
      tx.fuelPrices.putMany(prices);
    });
  };
  for await (const line of lines) {
    countLine(counts, line);
    if (line.type === 'counter') marks.set(line.name, Math.max(marks.get(line.name) ?? 0, line.last));
    else if (line.type !== 'header') {
      if (line.type === 'shipment') marksOfShipment(line.shipment, marks);
      batch.push(line);
      if (batch.length >= BATCH) await flush();
    }
  }
  await flush();
  // Counters are only raised: reserve what lies between their last number and the mark.
  await store.withTransaction(async (tx) => {
    for (const [name, mark] of marks) {
      const last = await tx.counters.last(name as CounterName);
      if (mark > last) await tx.counters.reserve(name as CounterName, mark - last);
    }
  });
  return counts;
}
