/**
 * The PostgreSQL store's side of `shipper store export` / `store import` (src/store/transfer.ts):
 * every table streamed with a cursor, and an import as ONE unit of work (all of it or nothing)
 * of multi-row inserts, that replace records by id and only ever raise counters.
 */
import type { Sql, TransactionSql } from 'postgres';
import type { z } from 'zod';
import { quoteSchema, shipmentSchema, type Quote, type Shipment } from '../../domain/schemas.js';
import { StoreError } from '../storeError.js';
import type { IdempotencyRecord, ShipmentEventRecord, WeeklyFuelPrice } from '../ports.js';
import { countLine, headerLine, marksOfShipment, type TransferCounts, type TransferLine } from '../transfer.js';
import { appendEvents, putFuelPrices, putIdempotencies, putQuotes, putShipments, UNIT_OF_WORK_LOCK } from './writes.js';
import { parseStored } from '../legacyRead.js';

const ROWS_PER_FETCH = 1000;

/** Records go out as the schemas read them (their fields in the schema's order); a damaged one stops the export, named. */
function valid<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const parsed = parseStored(schema, value);
  if (!parsed.success) throw new StoreError(`${what} in the database does not hold a valid record; nothing was exported`, what);
  return parsed.data;
}
const ROWS_PER_INSERT = 1000;

export async function* exportTables(sql: Sql, now: Date): AsyncIterable<TransferLine> {
  yield headerLine(now);
  // One snapshot for the whole export: a booking committed meanwhile is in it entirely or not at all.
  const lines: TransferLine[] = [];
  const reserved = await sql.reserve();
  try {
    await reserved`begin isolation level repeatable read read only`;
    const tables: Array<[string, (row: Record<string, unknown>) => TransferLine]> = [
      [
        'select id, record, own_quote from shipments order by created_at, id',
        (row) => ({
          type: 'shipment',
          shipment: valid(shipmentSchema, row.record, `shipment ${row.id as string}`),
          ownQuote: row.own_quote ? valid(quoteSchema, row.own_quote, `the quote of shipment ${row.id as string}`) : null,
        }),
      ],
      ['select record from shipment_events order by shipment_id, occurred_at, recorded_at, id', (row) => ({ type: 'event', event: row.record as ShipmentEventRecord })],
      ['select id, record from quotes order by created_at, id', (row) => ({ type: 'quote', quote: valid(quoteSchema, row.record, `quote ${row.id as string}`) })],
      ['select key, record from idempotency_keys order by scope, key', (row) => ({ type: 'idempotency', key: row.key as string, record: row.record as IdempotencyRecord })],
      [
        'select week::text as week, usd_per_gallon from fuel_prices order by week',
        (row) => ({ type: 'fuelPrice', price: { week: row.week as string, usdPerGallon: row.usd_per_gallon as string } }),
      ],
      ['select record from saved_locations order by name_key', (row) => ({ type: 'location', location: row.record as { name: string; address: unknown } })],
      ['select bill_key, record from audited_bills order by bill_key', (row) => ({ type: 'auditedBill', billKey: row.bill_key as string, record: row.record })],
      ['select name, last from counters where last > 0 order by name', (row) => ({ type: 'counter', name: row.name as string, last: Number(row.last) })],
    ];
    for (const [query, toLine] of tables) {
      for await (const rows of reserved.unsafe(query).cursor(ROWS_PER_FETCH)) {
        for (const row of rows) lines.push(toLine(row as Record<string, unknown>));
        // Lines go out as they come; the buffer holds one fetch at a time.
        yield* lines.splice(0);
      }
    }
    await reserved`commit`;
  } finally {
    reserved.release();
  }
}

export async function importLines(sql: Sql, lines: AsyncIterable<TransferLine>): Promise<TransferCounts> {
  const counts: TransferCounts = {};
  await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${UNIT_OF_WORK_LOCK}::bigint)`;
    const marks = new Map<string, number>();
    const pending = new Batches(tx);
    for await (const line of lines) {
      countLine(counts, line);
      switch (line.type) {
        case 'header':
          break;
        case 'shipment':
          marksOfShipment(line.shipment, marks);
          await pending.add('shipments', { shipment: line.shipment, ownQuote: line.ownQuote ?? undefined });
          break;
        case 'quote':
          await pending.add('quotes', line.quote);
          break;
        case 'idempotency':
          await pending.add('idempotency', { key: line.key, record: line.record });
          break;
        case 'event':
          await pending.add('events', line.event);
          break;
        case 'fuelPrice':
          await pending.add('fuelPrices', line.price);
          break;
        case 'location':
          await tx`insert into saved_locations ${tx({ name_key: line.location.name.toLowerCase(), record: tx.json(line.location as never) })}
                   on conflict (name_key) do update set record = excluded.record`;
          break;
        case 'auditedBill':
          await tx`insert into audited_bills ${tx({ bill_key: line.billKey, record: tx.json(line.record as never) })}
                   on conflict (bill_key) do update set record = excluded.record, updated_at = now()`;
          break;
        case 'counter':
          marks.set(line.name, Math.max(marks.get(line.name) ?? 0, line.last));
          break;
      }
    }
    await pending.flushAll();
    for (const [name, last] of marks) {
      await tx`insert into counters (name, last) values (${name}, ${last}) on conflict (name) do update set last = greatest(counters.last, excluded.last)`;
    }
  });
  return counts;
}

interface BatchRows {
  shipments: { shipment: Shipment; ownQuote: Quote | undefined };
  quotes: Quote;
  idempotency: { key: string; record: IdempotencyRecord };
  events: ShipmentEventRecord;
  fuelPrices: WeeklyFuelPrice;
}

/** Rows gathered per table and inserted ROWS_PER_INSERT at a time. */
class Batches {
  private readonly rows: { [K in keyof BatchRows]: Array<BatchRows[K]> } = { shipments: [], quotes: [], idempotency: [], events: [], fuelPrices: [] };

  constructor(private readonly tx: TransactionSql) {}

  async add<K extends keyof BatchRows>(table: K, row: BatchRows[K]): Promise<void> {
    const rows = this.rows[table] as Array<BatchRows[K]>;
    rows.push(row);
    if (rows.length >= ROWS_PER_INSERT) await this.flush(table);
  }

  async flushAll(): Promise<void> {
    for (const table of Object.keys(this.rows) as Array<keyof BatchRows>) await this.flush(table);
  }

  private async flush(table: keyof BatchRows): Promise<void> {
    const { tx, rows } = this;
    if (table === 'shipments' && rows.shipments.length) await putShipments(tx, rows.shipments.splice(0));
    if (table === 'quotes' && rows.quotes.length) await putQuotes(tx, rows.quotes.splice(0));
    if (table === 'idempotency' && rows.idempotency.length) await putIdempotencies(tx, rows.idempotency.splice(0));
    if (table === 'events' && rows.events.length) await appendEvents(tx, rows.events.splice(0));
    if (table === 'fuelPrices' && rows.fuelPrices.length) await putFuelPrices(tx, rows.fuelPrices.splice(0));
  }
}
