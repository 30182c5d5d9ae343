/**
 * The PostgreSQL implementation of the storage ports (src/store/ports.ts): one table per kind of
 * record (migrations/0001_initial.sql), the record as jsonb read back through the domain's zod
 * schemas, and the few columns the queries need beside it.
 *
 * The unit of work is a PostgreSQL transaction that first takes one transaction-scoped advisory
 * lock, so units of work of every process and machine on the database are serialised, as the
 * ports require: what a booking reads (an idempotency record, a quote's bookings) stays true until
 * it commits. Its puts are buffered and written just before COMMIT; numbers come from counter rows
 * updated (and so locked) inside it, so a booking that rolls back, or whose connection is lost,
 * leaves neither a record nor a used number behind: numbers are unique and gapless.
 */
import type { Sql, TransactionSql } from 'postgres';
import { z } from 'zod';
import { quoteSchema, shipmentSchema, type Quote, type Shipment } from '../../domain/schemas.js';
import { normalisedProNumber, normalisedReference } from '../../domain/recordKeys.js';
import type {
  AppointmentDocumentRecord,
  AppointmentDocumentRepository,
  AuditedBillRepository,
  PrintRunRecord,
  PrintRunRepository,
  CredentialRepository,
  CounterName,
  Counters,
  CreatedRange,
  FuelPriceReads,
  FuelPriceWrites,
  IdempotencyReads,
  IdempotencyRecord,
  IdempotencyScope,
  IdempotencyWrites,
  ImportLedger,
  LocationRepository,
  PageRequest,
  QuoteFilter,
  QuoteReads,
  QuoteRepository,
  QuoteWrites,
  ReferenceQuery,
  ReserveOptions,
  SavedLocationRecord,
  ShipmentEventReads,
  ShipmentEventRecord,
  ShipmentEventWrites,
  ShipmentFilter,
  ShipmentReads,
  ShipmentRecord,
  ShipmentStatus,
  ShipmentWrites,
  ShipperStore,
  StoreReadiness,
  StorePage,
  StoreTransaction,
  WeeklyFuelPrice,
} from '../ports.js';
import { StoreError } from '../storeError.js';
import { redactDatabaseUrls, redactUrl } from '../../config/storeLocation.js';
import { connect, guardDatabase, translateDatabaseError } from './connection.js';
import { CredentialRows } from './credentials.js';
import { assertUsable, migrate, schemaStatus, SchemaMismatch } from './migrations.js';
import { exportTables, importLines } from './transfer.js';
import type { TransferCounts, TransferLine, TransferableStore } from '../transfer.js';
import { appendEvents, fiveDigits, putFuelPrices, putIdempotencies, putQuotes, putShipments, UNIT_OF_WORK_LOCK } from './writes.js';
import { shipmentEventRecordSchema as eventRecordSchema } from '../recordSchemas.js';
import { parseStored } from '../legacyRead.js';

/** The most items one page gives, whatever is asked. */
const MAX_PAGE = 1000;

/** Anything that runs a query: the pool, or a transaction. */
type Queryable = Sql | TransactionSql;

export interface PostgresStoreOptions {
  url: string;
  /** Connections in the pool. */
  max?: number | undefined;
  /**
   * prepare(): migrate a database whose schema is behind (serve), instead of refusing it (CLI
   * commands, which say to run `shipper db migrate`).
   */
  migrateOnPrepare?: boolean | undefined;
}

// ---------------------------------------------------------------------------------------------
// Records in and out

function parseRecord<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const parsed = parseStored(schema, value);
  if (!parsed.success) throw new StoreError(`${what} in the database does not hold a valid record; restore it from a backup or remove it`, what);
  return parsed.data;
}

const readShipment = (row: { id: string; record: unknown }) => parseRecord(shipmentSchema, row.record, `shipment ${row.id}`);
const readQuote = (id: string, record: unknown) => parseRecord(quoteSchema, record, `quote ${id}`);

// Lists are newest first by id, as in the file store (ids sort by creation time: a prefix and a
// ULID), and a page's cursor is the id of its last item.
function pageLimit(page: PageRequest): number {
  return Math.max(1, Math.min(MAX_PAGE, Math.trunc(page.limit)));
}

function createdBetween(sql: Queryable, column: string, range: CreatedRange | undefined) {
  return sql`${range?.from !== undefined ? sql`and ${sql(column)} >= ${new Date(range.from)}` : sql``} ${range?.to !== undefined ? sql`and ${sql(column)} <= ${new Date(range.to)}` : sql``}`;
}

function afterCursor(sql: Queryable, page: PageRequest) {
  return page.cursor ? sql`and id < ${page.cursor}` : sql``;
}

/** Items of a page that may be damaged: skipped and named in warnings, as the ports want. */
function pageOf<T>(rows: Array<{ id: string; record: unknown }>, limit: number, read: (row: { id: string; record: unknown }) => T): StorePage<T> {
  const more = rows.length > limit;
  const kept = rows.slice(0, limit);
  const items: T[] = [];
  const warnings: string[] = [];
  for (const row of kept) {
    try {
      items.push(read(row));
    } catch (error) {
      if (!(error instanceof StoreError)) throw error;
      warnings.push(error.message);
    }
  }
  const last = kept.at(-1);
  return { items, nextCursor: more && last ? last.id : null, warnings };
}

// ---------------------------------------------------------------------------------------------
// Reads, on the pool or inside a transaction

class ShipmentQueries implements ShipmentReads {
  constructor(protected readonly sql: Queryable) {}

  async get(id: string): Promise<Shipment | undefined> {
    const [row] = await this.sql<Array<{ id: string; record: unknown }>>`select id, record from shipments where id = ${id}`;
    return row ? readShipment(row) : undefined;
  }

  async getRecord(id: string): Promise<ShipmentRecord | undefined> {
    const [row] = await this.sql<Array<{ id: string; record: unknown; own_quote: unknown }>>`select id, record, own_quote from shipments where id = ${id}`;
    if (!row) return undefined;
    const ownQuote = row.own_quote ? readQuote(`of shipment ${id}`, row.own_quote) : undefined;
    return { shipment: readShipment(row), ownQuote };
  }

  async findByOrderNumber(orderNumber: string): Promise<Shipment | undefined> {
    const [row] = await this.sql<Array<{ id: string; record: unknown }>>`select id, record from shipments where order_number = ${orderNumber}`;
    return row ? readShipment(row) : undefined;
  }

  async findByBolNumber(bolNumber: string): Promise<Shipment | undefined> {
    const [row] = await this.sql<Array<{ id: string; record: unknown }>>`select id, record from shipments where bol_number = ${bolNumber}`;
    return row ? readShipment(row) : undefined;
  }

  async findByProNumber(proNumber: string, scac?: string): Promise<Shipment[]> {
    const rows = await this.sql<Array<{ id: string; record: unknown }>>`
      select id, record from shipments
      where pro_number = ${normalisedProNumber(proNumber)} ${scac ? this.sql`and scac = ${scac.toUpperCase()}` : this.sql``}
      order by id desc`;
    return rows.map(readShipment);
  }

  async findByReference(refNumber: string, options: ReferenceQuery = {}): Promise<Shipment[]> {
    const rows = await this.sql<Array<{ id: string; record: unknown }>>`
      select id, record from shipments
      where reference = ${normalisedReference(refNumber)} ${statusIs(this.sql, options.orderStatus)}
        ${options.companyId !== undefined ? this.sql`and company_id = ${options.companyId}` : this.sql``}
      order by id desc
      ${options.limit !== undefined ? this.sql`limit ${options.limit}` : this.sql``}`;
    return rows.map(readShipment);
  }

  async findByQuote(quoteId: string): Promise<Shipment[]> {
    const rows = await this.sql<Array<{ id: string; record: unknown }>>`
      select id, record from shipments where quote_id = ${quoteId} or own_quote ->> 'id' = ${quoteId}
      order by created_at, id`;
    return rows.map(readShipment);
  }

  async list(filter: ShipmentFilter, page: PageRequest): Promise<StorePage<Shipment>> {
    const { sql } = this;
    const limit = pageLimit(page);
    const rows = await sql<Array<{ id: string; record: unknown }>>`
      select id, record from shipments
      where true
        ${filter.companyId !== undefined ? sql`and company_id = ${filter.companyId}` : sql``}
        ${statusIs(sql, filter.orderStatus)}
        ${createdBetween(sql, 'created_at', filter.created)}
        ${filter.deliveryZipCode ? sql`and delivery_zip_code = ${fiveDigits(filter.deliveryZipCode)}` : sql``}
        ${filter.refNumber ? sql`and reference = ${normalisedReference(filter.refNumber)}` : sql``}
        ${filter.orderNumber ? sql`and order_number = ${filter.orderNumber}` : sql``}
        ${filter.bolNumbers?.length ? sql`and bol_number = any(${[...filter.bolNumbers]})` : sql``}
        ${filter.proNumbers?.length ? sql`and pro_number = any(${filter.proNumbers.map(normalisedProNumber)})` : sql``}
        ${afterCursor(sql, page)}
      order by id desc
      limit ${limit + 1}`;
    return pageOf(rows, limit, readShipment);
  }
}

class QuoteQueries implements QuoteReads {
  constructor(protected readonly sql: Queryable) {}

  async get(id: string): Promise<Quote | undefined> {
    const [row] = await this.sql<Array<{ record: unknown }>>`select record from quotes where id = ${id}`;
    if (row) return readQuote(id, row.record);
    const [own] = await this.sql<Array<{ own_quote: unknown }>>`select own_quote from shipments where own_quote ->> 'id' = ${id} limit 1`;
    return own ? readQuote(id, own.own_quote) : undefined;
  }

  async list(filter: QuoteFilter, page: PageRequest): Promise<StorePage<Quote>> {
    const { sql } = this;
    const limit = pageLimit(page);
    const rows = await sql<Array<{ id: string; record: unknown }>>`
      select id, record from quotes
      where true
        ${filter.companyId !== undefined ? sql`and company_id = ${filter.companyId}` : sql``}
        ${createdBetween(sql, 'created_at', filter.created)}
        ${filter.deliveryZipCode ? sql`and delivery_zip_code = ${fiveDigits(filter.deliveryZipCode)}` : sql``}
        ${filter.ids ? sql`and id = any(${[...filter.ids]})` : sql``}
        ${afterCursor(sql, page)}
      order by id desc
      limit ${limit + 1}`;
    return pageOf(rows, limit, (row) => readQuote(row.id, row.record));
  }
}

const idempotencyRecordSchema = z.object({
  scope: z.enum(['quote', 'shipment']),
  requestHash: z.string(),
  resourceId: z.string(),
  serial: z.number().int().optional(),
});

class IdempotencyQueries implements IdempotencyReads, ImportLedger {
  constructor(protected readonly sql: Queryable) {}

  async get(scope: IdempotencyScope, key: string): Promise<IdempotencyRecord | undefined> {
    const [row] = await this.sql<Array<{ record: unknown }>>`select record from idempotency_keys where scope = ${scope} and key = ${key}`;
    return row ? parseRecord(idempotencyRecordSchema, row.record, `idempotency key ${key}`) : undefined;
  }

  async bookedUnder(contentKey: string): Promise<{ shipmentId: string; requestHash: string } | undefined> {
    const record = await this.get('shipment', contentKey);
    return record ? { shipmentId: record.resourceId, requestHash: record.requestHash } : undefined;
  }
}

class EventQueries implements ShipmentEventReads {
  constructor(protected readonly sql: Queryable) {}

  async listByShipment(shipmentId: string): Promise<ShipmentEventRecord[]> {
    const rows = await this.sql<Array<{ id: string; record: unknown }>>`
      select id, record from shipment_events where shipment_id = ${shipmentId} order by occurred_at, recorded_at, id`;
    return rows.map((row) => parseRecord(eventRecordSchema, row.record, `shipment event ${row.id}`));
  }

  async findByMessageDigest(digest: string): Promise<ShipmentEventRecord[]> {
    const rows = await this.sql<Array<{ id: string; record: unknown }>>`
      select id, record from shipment_events where message_digest = ${digest} order by occurred_at, recorded_at, id`;
    return rows.map((row) => parseRecord(eventRecordSchema, row.record, `shipment event ${row.id}`));
  }
}

class FuelPriceQueries implements FuelPriceReads {
  constructor(protected readonly sql: Queryable) {}

  async get(week: string): Promise<WeeklyFuelPrice | undefined> {
    const [row] = await this.sql<Array<{ week: string; usd_per_gallon: string }>>`select week::text as week, usd_per_gallon from fuel_prices where week = ${week}::date`;
    return row ? { week: row.week, usdPerGallon: row.usd_per_gallon } : undefined;
  }

  async list(range: { from?: string | undefined; to?: string | undefined } = {}): Promise<WeeklyFuelPrice[]> {
    const { sql } = this;
    const rows = await sql<Array<{ week: string; usd_per_gallon: string }>>`
      select week::text as week, usd_per_gallon from fuel_prices
      where true ${range.from ? sql`and week >= ${range.from}::date` : sql``} ${range.to ? sql`and week <= ${range.to}::date` : sql``}
      order by week`;
    return rows.map((row) => ({ week: row.week, usdPerGallon: row.usd_per_gallon }));
  }
}

// ---------------------------------------------------------------------------------------------
// The unit of work

/**
 * A unit of work on one transaction. Its puts are gathered and written as multi-row statements
 * (an import's batch of a thousand shipments is one INSERT, not a thousand round trips) before
 * any of its reads runs, so the unit's own reads see its writes, and before it commits; a failed
 * write (a unique constraint) is raised there.
 */
class Transaction implements StoreTransaction {
  private readonly buffered = {
    shipments: [] as Array<{ shipment: Shipment; ownQuote: Quote | undefined }>,
    quotes: [] as Quote[],
    idempotency: [] as Array<{ key: string; record: IdempotencyRecord }>,
    events: [] as ShipmentEventRecord[],
    fuelPrices: [] as WeeklyFuelPrice[],
  };
  readonly shipments: ShipmentWrites;
  readonly quotes: QuoteWrites;
  readonly counters: Counters;
  readonly idempotency: IdempotencyWrites;
  readonly imports: ImportLedger;
  readonly events: ShipmentEventWrites;
  readonly fuelPrices: FuelPriceWrites;

  constructor(private readonly tx: TransactionSql) {
    const { buffered } = this;
    const afterWrites = <T extends object>(target: T): T => readsAfter(target, () => this.settle());
    const idempotency = afterWrites(new IdempotencyQueries(tx));
    this.imports = idempotency;
    this.idempotency = Object.assign(idempotency, {
      put(key: string, record: IdempotencyRecord) {
        buffered.idempotency.push({ key, record });
      },
    });
    this.shipments = Object.assign(afterWrites(new ShipmentQueries(tx)), {
      put(shipment: Shipment, ownQuote?: Quote) {
        buffered.shipments.push({ shipment, ownQuote });
      },
    });
    this.quotes = Object.assign(afterWrites(new QuoteQueries(tx)), {
      put(quote: Quote) {
        buffered.quotes.push(quote);
      },
    });
    this.events = Object.assign(afterWrites(new EventQueries(tx)), {
      append(events: readonly ShipmentEventRecord[]) {
        buffered.events.push(...events);
      },
    });
    this.fuelPrices = Object.assign(afterWrites(new FuelPriceQueries(tx)), {
      putMany(prices: readonly WeeklyFuelPrice[]) {
        buffered.fuelPrices.push(...prices);
      },
    });
    this.counters = afterWrites(new CounterRows(tx));
  }

  /** Writes what was put so far, ROWS_PER_STATEMENT rows a statement; the first failure is thrown. */
  async settle(): Promise<void> {
    const { tx, buffered } = this;
    for (const rows of chunks(buffered.quotes.splice(0))) await putQuotes(tx, rows);
    for (const rows of chunks(buffered.shipments.splice(0))) await putShipments(tx, rows);
    for (const rows of chunks(buffered.idempotency.splice(0))) await putIdempotencies(tx, rows);
    for (const rows of chunks(buffered.events.splice(0))) await appendEvents(tx, rows);
    for (const rows of chunks(buffered.fuelPrices.splice(0))) await putFuelPrices(tx, rows);
  }
}

/** Rows per multi-row statement (PostgreSQL takes at most 65,535 parameters in one). */
const ROWS_PER_STATEMENT = 1000;

function chunks<T>(rows: T[]): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) result.push(rows.slice(start, start + ROWS_PER_STATEMENT));
  return result;
}

const WRITES = new Set<string | symbol>(['put', 'append', 'putMany']);

/** Every read of target, run once the unit's writes so far are done. */
function readsAfter<T extends object>(target: T, settle: () => Promise<void>): T {
  return new Proxy(target, {
    get(object, key, receiver) {
      const value = Reflect.get(object, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      // Puts only gather rows (synchronously, in the order they are made).
      if (WRITES.has(key)) return value;
      return async (...args: unknown[]) => {
        await settle();
        return (value as (...a: unknown[]) => Promise<unknown>).apply(object, args);
      };
    },
  });
}

class CounterRows implements Counters {
  constructor(private readonly sql: TransactionSql) {}

  async reserve(name: CounterName, count: number, options: ReserveOptions = {}): Promise<number | null> {
    if (!Number.isInteger(count) || count < 1) throw new StoreError(`cannot reserve ${count} numbers of ${name}`);
    await this.sql`insert into counters (name, last) values (${name}, 0) on conflict (name) do nothing`;
    const capacity = options.capacity ?? null;
    const [row] = await this.sql<Array<{ last: number }>>`
      update counters set last = last + ${count}
      where name = ${name} and (${capacity}::bigint is null or last + ${count} <= ${capacity}::bigint)
      returning last`;
    return row ? row.last - count + 1 : null;
  }

  async last(name: CounterName): Promise<number> {
    const [row] = await this.sql<Array<{ last: number }>>`select last from counters where name = ${name}`;
    return row?.last ?? 0;
  }
}

// ---------------------------------------------------------------------------------------------
// The store

const savedLocationSchema = z.object({ name: z.string(), address: z.unknown() });

export class PostgresStore implements ShipperStore, TransferableStore {
  readonly shipments: ShipmentReads;
  readonly quotes: QuoteRepository;
  readonly idempotency: IdempotencyReads;
  readonly imports: ImportLedger;
  readonly events: ShipmentEventReads;
  readonly fuelPrices: FuelPriceReads;
  readonly locations: LocationRepository;
  readonly auditedBills: AuditedBillRepository;
  readonly printRuns: PrintRunRepository;
  readonly credentials: CredentialRepository;
  readonly appointmentDocuments: AppointmentDocumentRepository;

  constructor(
    /** The pool (connection.ts connect(), or postgres(url, poolOptions()) in tests). */
    readonly sql: Sql,
    private readonly options: PostgresStoreOptions,
  ) {
    const guard = <T extends object>(target: T): T => guarded(target, options.url, () => this.usable());
    this.shipments = guard(new ShipmentQueries(sql));
    const quotes = new QuoteQueries(sql);
    this.quotes = guard(Object.assign(quotes, { put: async (quote: Quote) => void (await putQuotes(sql, [quote])) }));
    const idempotency = new IdempotencyQueries(sql);
    this.idempotency = guard(idempotency);
    this.imports = this.idempotency as IdempotencyQueries;
    this.events = guard(new EventQueries(sql));
    this.fuelPrices = guard(new FuelPriceQueries(sql));
    this.locations = guard(new LocationRows(sql));
    this.auditedBills = guard(new AuditedBillRows(sql));
    this.printRuns = guard(new PrintRunRows(sql));
    this.credentials = guard(new CredentialRows(sql));
    this.appointmentDocuments = guard(new AppointmentDocumentRows(sql));
  }

  /** Connects (lazily: the first query opens the pool). */
  static async open(options: PostgresStoreOptions): Promise<PostgresStore> {
    return new PostgresStore(await connect(options.url, { max: options.max }), options);
  }

  get url(): string {
    return this.options.url;
  }

  /** The database URL without its password. */
  get location(): string {
    return redactUrl(this.options.url);
  }

  private ready: Promise<void> | undefined;

  /**
   * The database has this program's schema: checked once, before the first use (one query), so a
   * database that is behind or ahead is one clear line instead of a failed query. Checked again
   * after a failure (the database was down, or has been migrated since).
   */
  private usable(): Promise<void> {
    this.ready ??= schemaStatus(this.sql)
      .then(assertUsable)
      .catch((error: unknown) => {
        this.ready = undefined;
        throw error;
      });
    return this.ready;
  }

  withTransaction<T>(fn: (tx: StoreTransaction) => Promise<T>): Promise<T> {
    return guardDatabase(this.options.url, async () => {
      await this.usable();
      let result!: T;
      await this.sql.begin(async (sql) => {
        await sql`select pg_advisory_xact_lock(${UNIT_OF_WORK_LOCK}::bigint)`;
        const tx = new Transaction(sql);
        result = await fn(tx);
        await tx.settle();
      });
      return result;
    });
  }

  /** Checks the database answers and has this program's schema; migrates it first when asked to (serve). */
  async prepare(): Promise<void> {
    await guardDatabase(this.options.url, async () => {
      if (this.options.migrateOnPrepare) await migrate(this.sql);
      this.ready = undefined;
      await this.usable();
    });
  }

  /** Two trivial queries: the database answers, and its migrations are this program's. */
  async readiness(): Promise<StoreReadiness> {
    try {
      assertUsable(await schemaStatus(this.sql));
      return { ok: true };
    } catch (error) {
      if (error instanceof SchemaMismatch) return { ok: false, reason: 'schema', message: `the PostgreSQL store ${this.location}: ${error.message}` };
      const translated = translateDatabaseError(error, this.options.url);
      return { ok: false, reason: 'unavailable', message: redactDatabaseUrls(translated instanceof Error ? translated.message : String(translated)) };
    }
  }

  async close(): Promise<void> {
    await this.sql.end({ timeout: 5 });
  }

  exportLines(now: Date): AsyncIterable<TransferLine> {
    return this.exportChecked(now);
  }

  private async *exportChecked(now: Date): AsyncIterable<TransferLine> {
    try {
      await this.usable();
      yield* exportTables(this.sql, now);
    } catch (error) {
      throw translateDatabaseError(error, this.options.url);
    }
  }

  importLines(lines: AsyncIterable<TransferLine>): Promise<TransferCounts> {
    return guardDatabase(this.options.url, async () => {
      await this.usable();
      return importLines(this.sql, lines);
    });
  }
}

class LocationRows implements LocationRepository {
  constructor(private readonly sql: Sql) {}

  async get(name: string): Promise<SavedLocationRecord | undefined> {
    const [row] = await this.sql<Array<{ record: unknown }>>`select record from saved_locations where name_key = ${name.toLowerCase()}`;
    return row ? (parseRecord(savedLocationSchema, row.record, `saved location ${name}`) as SavedLocationRecord) : undefined;
  }

  async put(location: SavedLocationRecord): Promise<void> {
    const row = { name_key: location.name.toLowerCase(), record: this.sql.json(location as never) };
    await this.sql`insert into saved_locations ${this.sql(row)} on conflict (name_key) do update set record = excluded.record`;
  }

  async remove(name: string): Promise<boolean> {
    const rows = await this.sql`delete from saved_locations where name_key = ${name.toLowerCase()} returning name_key`;
    return rows.length > 0;
  }

  async list(): Promise<{ locations: SavedLocationRecord[]; warnings: string[] }> {
    const rows = await this.sql<Array<{ name_key: string; record: unknown }>>`select name_key, record from saved_locations order by name_key`;
    const locations: SavedLocationRecord[] = [];
    const warnings: string[] = [];
    for (const row of rows) {
      try {
        locations.push(parseRecord(savedLocationSchema, row.record, `saved location ${row.name_key}`) as SavedLocationRecord);
      } catch (error) {
        if (!(error instanceof StoreError)) throw error;
        warnings.push(error.message);
      }
    }
    return { locations, warnings };
  }

  async names(): Promise<string[]> {
    const rows = await this.sql<Array<{ name_key: string }>>`select name_key from saved_locations order by name_key`;
    return rows.map((row) => row.name_key);
  }
}

class AuditedBillRows implements AuditedBillRepository {
  constructor(private readonly sql: Sql) {}

  async list(): Promise<{ records: unknown[]; warnings: string[] }> {
    const rows = await this.sql<Array<{ record: unknown }>>`select record from audited_bills order by bill_key`;
    return { records: rows.map((row) => row.record), warnings: [] };
  }

  async putMany(records: ReadonlyArray<{ billKey: string; record: unknown }>): Promise<void> {
    if (records.length === 0) return;
    const rows = records.map(({ billKey, record }) => ({ bill_key: billKey, record: this.sql.json(record as never) }));
    await this.sql`insert into audited_bills ${this.sql(rows)} on conflict (bill_key) do update set record = excluded.record, updated_at = now()`;
  }
}

class AppointmentDocumentRows implements AppointmentDocumentRepository {
  constructor(private readonly sql: Sql) {}

  async get(shipmentId: string, stop: string, type: string): Promise<AppointmentDocumentRecord | undefined> {
    const [row] = await this.sql<
      Array<{ document: unknown; content: Buffer }>
    >`select document, content from appointment_documents where shipment_id = ${shipmentId} and stop = ${stop} and document_type = ${type}`;
    return row && { shipmentId, stop, type, document: row.document, content: new Uint8Array(row.content) };
  }

  async put(record: AppointmentDocumentRecord): Promise<void> {
    const row = {
      shipment_id: record.shipmentId,
      stop: record.stop,
      document_type: record.type,
      document: this.sql.json(record.document as never),
      content: Buffer.from(record.content.buffer, record.content.byteOffset, record.content.byteLength),
    };
    await this.sql`insert into appointment_documents ${this.sql(row)}
      on conflict (shipment_id, stop, document_type) do update set document = excluded.document, content = excluded.content, updated_at = now()`;
  }

  async remove(shipmentId: string, stop: string, type: string): Promise<boolean> {
    const rows = await this.sql`delete from appointment_documents where shipment_id = ${shipmentId} and stop = ${stop} and document_type = ${type} returning 1`;
    return rows.length > 0;
  }
}

class PrintRunRows implements PrintRunRepository {
  constructor(private readonly sql: Sql) {}

  async get(id: string): Promise<PrintRunRecord | undefined> {
    const [row] = await this.sql<Array<{ id: string; scope: string; open: boolean; record: unknown }>>`select id, scope, open, record from print_runs where id = ${id}`;
    return row && { id: row.id, scope: row.scope, open: row.open, record: row.record };
  }

  async put(run: PrintRunRecord): Promise<void> {
    const row = { id: run.id, scope: run.scope, open: run.open, record: this.sql.json(run.record as never) };
    await this.sql`insert into print_runs ${this.sql(row)} on conflict (id) do update set open = excluded.open, record = excluded.record, updated_at = now()`;
  }

  async lastOpen(scope: string): Promise<PrintRunRecord | undefined> {
    const [row] = await this.sql<
      Array<{ id: string; scope: string; open: boolean; record: unknown }>
    >`select id, scope, open, record from print_runs where scope = ${scope} and open order by id desc limit 1`;
    return row && { id: row.id, scope: row.scope, open: row.open, record: row.record };
  }
}

/** Every method of target, its database failures turned into the store's 503. */
function guarded<T extends object>(target: T, url: string, usable: () => Promise<void>): T {
  return new Proxy(target, {
    get(object, key, receiver) {
      const value = Reflect.get(object, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) =>
        guardDatabase(url, async () => {
          await usable();
          return (value as (...a: unknown[]) => Promise<unknown>).apply(object, args);
        });
    },
  });
}

/** `and order_status = ...` for a list filter: a state, ACTIVE (any but CANCELLED), or nothing. */
function statusIs(sql: Queryable, wanted: ShipmentStatus | undefined) {
  if (wanted === undefined) return sql``;
  return wanted === 'ACTIVE' ? sql`and order_status <> 'CANCELLED'` : sql`and order_status = ${wanted}`;
}
