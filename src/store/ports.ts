/**
 * The storage ports of the engine: what the use-case rules (booking, quoting, cancelling,
 * updating, importing, tracking, carrier agreements) ask of a store, at the level of the domain.
 * Modelled on supabase/storage's `Database` interface: one object per store with a repository per
 * kind of record, every query the engine needs named (by id, order number, BOL number, PRO,
 * reference, content key, created range and status, newest first with a cursor), and a unit of
 * work, `withTransaction`, whose writes commit together or not at all.
 *
 * Nothing here names a file, a directory, a lock or a table: the file store (src/store/file/) and
 * a PostgreSQL store implement the same interfaces, and test/store/contract/ holds them to the
 * same behaviour.
 *
 * Conventions of every implementation:
 * - A record that exists but cannot be read (damaged) is a `StoreError` naming it, never
 *   "not found": get and the find-by-key queries throw it; lists skip it and say so in `warnings`.
 * - Reads outside a transaction see every committed unit of work, whatever process committed it.
 * - Inside `withTransaction`, units of work of all processes on the store are serialised: what
 *   the function reads stays true until it returns, and its writes are buffered and become
 *   visible (and durable) together when it returns, or not at all when it throws.
 * - Numbers (counters) are never issued twice, also after a crash or a restore from an older
 *   backup of part of the store.
 */
import type { CredentialRecord } from '../domain/credentials.js';
import type { Quote, Shipment } from '../domain/schemas.js';

export { StoreError } from './storeError.js';

// ---------------------------------------------------------------------------------------------
// Lists

/** A page of a list, newest first. `nextCursor` continues it; `warnings` name records skipped as damaged. */
export interface StorePage<T> {
  items: T[];
  nextCursor: string | null;
  warnings: string[];
}

export interface PageRequest {
  /** At most this many items (the store may cap it). */
  limit: number;
  /** `nextCursor` of the previous page: items older than the last one it gave. */
  cursor?: string | undefined;
}

/** A range of creation instants, in ms since the epoch, both ends included. */
export interface CreatedRange {
  from?: number | undefined;
  to?: number | undefined;
}

// ---------------------------------------------------------------------------------------------
// Shipments

/** An order state, or ACTIVE: any state but CANCELLED. */
export type ShipmentStatus = Shipment['orderStatus'] | 'ACTIVE';

/** What a list of shipments can be filtered on. Every given filter must hold. */
export interface ShipmentFilter {
  /** Only this company's (a record without one is the default company's). */
  companyId?: string | undefined;
  orderStatus?: ShipmentStatus | undefined;
  created?: CreatedRange | undefined;
  /** The consignee's 5-digit ZIP. */
  deliveryZipCode?: string | undefined;
  /** The customer's reference, matched as normalisedReference() does (case and spacing). */
  refNumber?: string | undefined;
  /** An order number as booked (`SO-000123`). */
  orderNumber?: string | undefined;
  /** Any of these BOL numbers. */
  bolNumbers?: readonly string[] | undefined;
  /** Any of these PRO numbers, normalised (normalisedProNumber). */
  proNumbers?: readonly string[] | undefined;
}

/**
 * A shipment as stored, with the quote its booking priced for itself when it was booked without
 * one (that quote belongs to the shipment: it is found by its id, but not listed among quotes).
 * Such a quote's id is the shipment's ULID under `qt_` (`qt_X` for `sh_X`).
 */
export interface ShipmentRecord {
  shipment: Shipment;
  ownQuote?: Quote | undefined;
}

/**
 * What narrows a search by reference. `companyId` is the store's to apply, not its caller's: a
 * reference used for everything ("STOCK", one per company) has thousands of shipments, and a limit
 * counted over every company's would make the caller read them all to keep its own.
 */
export interface ReferenceQuery {
  orderStatus?: ShipmentStatus | undefined;
  companyId?: string | undefined;
  limit?: number | undefined;
}

export interface ShipmentReads {
  get(id: string): Promise<Shipment | undefined>;
  /** The shipment with its own quote (a booking that quoted first). */
  getRecord(id: string): Promise<ShipmentRecord | undefined>;
  /** By order number as booked (`SO-000123`), from the store's index, whatever the ids' order. */
  findByOrderNumber(orderNumber: string): Promise<Shipment | undefined>;
  findByBolNumber(bolNumber: string): Promise<Shipment | undefined>;
  /** The shipments that carry this PRO (normalised), of this carrier (SCAC) when one is given. */
  findByProNumber(proNumber: string, scac?: string | undefined): Promise<Shipment[]>;
  /** The shipments that carry this reference, newest first; `orderStatus`, `companyId` and `limit` narrow them. */
  findByReference(refNumber: string, options?: ReferenceQuery): Promise<Shipment[]>;
  /** The shipments booked on a quote (cancelled ones too), oldest first; a quote-first booking's own quote finds its shipment. */
  findByQuote(quoteId: string): Promise<Shipment[]>;
  /** Newest first (by creation), filtered. */
  list(filter: ShipmentFilter, page: PageRequest): Promise<StorePage<Shipment>>;
}

export interface ShipmentWrites extends ShipmentReads {
  /**
   * Adds or replaces a shipment (its id), with its own quote when it priced one. `created`: the
   * caller knows the store holds no shipment of this id (a booking), so none is read to replace.
   */
  put(shipment: Shipment, ownQuote?: Quote, options?: { created?: boolean }): void;
}

// ---------------------------------------------------------------------------------------------
// Quotes

export interface QuoteFilter {
  /** Only this company's (a record without one is the default company's). */
  companyId?: string | undefined;
  created?: CreatedRange | undefined;
  deliveryZipCode?: string | undefined;
  /** Only these quotes. */
  ids?: readonly string[] | undefined;
}

export interface QuoteReads {
  /** A quote by id, a shipment's own quote included. */
  get(id: string): Promise<Quote | undefined>;
  /** Quotes saved with put(), newest first. */
  list(filter: QuoteFilter, page: PageRequest): Promise<StorePage<Quote>>;
}

export interface QuoteWrites extends QuoteReads {
  put(quote: Quote): void;
}

/** Quotes outside a transaction: each put() is its own unit of work (concurrent ones may share one durable write). */
export interface QuoteRepository extends QuoteReads {
  put(quote: Quote): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// Counters

/**
 * The counters that give out numbers: order serials (order and BOL numbers), SSCC serials, one
 * per carrier PRO block, and X12 interchange control numbers.
 */
export type CounterName = 'orders' | 'sscc' | 'x12-control' | `pro-${string}`;

export interface ReserveOptions {
  /** The highest number this counter may give: null, and nothing reserved, when `count` more would pass it. */
  capacity?: number | undefined;
  /**
   * Which of this counter's numbers a stored shipment carries: a store that can lose its counter
   * (a file store restored from an older backup) finds the highest number issued from these.
   */
  numbersOf?: ((shipment: Shipment) => ReadonlyArray<number | null>) | undefined;
}

/** Inside a transaction only. */
export interface Counters {
  /** Reserves `count` consecutive numbers never issued before and returns the first (1 for a new counter). */
  reserve(name: CounterName, count: number, options?: ReserveOptions): Promise<number | null>;
  /** The last number issued (0 for none), without reserving. */
  last(name: CounterName, options?: Pick<ReserveOptions, 'numbersOf'>): Promise<number>;
}

// ---------------------------------------------------------------------------------------------
// Idempotency records and the import ledger

export type IdempotencyScope = 'quote' | 'shipment';

export interface IdempotencyRecord {
  scope: IdempotencyScope;
  /** Hash of the request body: the same key with another body is refused. */
  requestHash: string;
  resourceId: string;
  /** For shipments, the order serial reserved before the shipment was written. */
  serial?: number | undefined;
}

export interface IdempotencyReads {
  get(scope: IdempotencyScope, key: string): Promise<IdempotencyRecord | undefined>;
}

export interface IdempotencyWrites extends IdempotencyReads {
  put(key: string, record: IdempotencyRecord): void;
}

/**
 * The import ledger: what an import booked under each content key (a key derived from what the
 * file says of one shipment), so a re-run books only the rest. Content keys are the shipment
 * idempotency keys of the import's bookings: the ledger reads the same records.
 */
export interface ImportLedger {
  /** The shipment booked (or reserved) under this content key, if any. */
  bookedUnder(contentKey: string): Promise<{ shipmentId: string; requestHash: string } | undefined>;
}

// ---------------------------------------------------------------------------------------------
// Shipment events (tracking)

export interface ShipmentEventRecord {
  /** Unique, sorting by the time it was recorded (e.g. `ev_<ULID>`). */
  id: string;
  shipmentId: string;
  /** When it happened (ISO-8601). */
  occurredAt: string;
  /** When the store got it (ISO-8601). */
  recordedAt: string;
  /** Digest of the carrier message it came from, to recognise the same message again; null when none. */
  messageDigest: string | null;
  /** The event itself, as the tracking module's schema defines it. */
  event: Record<string, unknown>;
}

export interface ShipmentEventReads {
  /** A shipment's events, in the order they occurred (then recorded). */
  listByShipment(shipmentId: string): Promise<ShipmentEventRecord[]>;
  /** The events recorded from the message with this digest (empty when it is new). */
  findByMessageDigest(digest: string): Promise<ShipmentEventRecord[]>;
}

export interface ShipmentEventWrites extends ShipmentEventReads {
  append(events: readonly ShipmentEventRecord[]): void;
}

// ---------------------------------------------------------------------------------------------
// Weekly fuel prices (carrier agreements)

export interface WeeklyFuelPrice {
  /** The Monday of the week (YYYY-MM-DD). */
  week: string;
  /** US dollars per gallon as a decimal string ("3.859"). */
  usdPerGallon: string;
}

export interface FuelPriceReads {
  get(week: string): Promise<WeeklyFuelPrice | undefined>;
  /** Oldest first, within the weeks given (both included). */
  list(range?: { from?: string | undefined; to?: string | undefined }): Promise<WeeklyFuelPrice[]>;
}

export interface FuelPriceWrites extends FuelPriceReads {
  /** Adds or replaces the prices of these weeks. */
  putMany(prices: readonly WeeklyFuelPrice[]): void;
}

// ---------------------------------------------------------------------------------------------
// The user's own records: saved locations and audited bills (local to the machine, also in remote mode)

export interface SavedLocationRecord {
  /** As the user typed it; names are case-insensitive. */
  name: string;
  address: unknown;
}

export interface LocationRepository {
  get(name: string): Promise<SavedLocationRecord | undefined>;
  put(location: SavedLocationRecord): Promise<void>;
  /** True when there was one to remove. */
  remove(name: string): Promise<boolean>;
  list(): Promise<{ locations: SavedLocationRecord[]; warnings: string[] }>;
  /** The names (lower case), cheaply, for shell completion. */
  names(): Promise<string[]>;
}

export interface AuditedBillRepository {
  /** Every audited bill record; damaged ones skipped and named in `warnings`. */
  list(): Promise<{ records: unknown[]; warnings: string[] }>;
  /** Adds or replaces bills by their key (carrier and invoice number). */
  putMany(records: ReadonlyArray<{ billKey: string; record: unknown }>): Promise<void>;
}

/** A print run (src/printing/batch.ts): which documents of one request went to the printer. */
export interface PrintRunRecord {
  /** A ULID: runs sort by when they started. */
  id: string;
  /** What the run printed (`bol`, `labels`, `import:<digest>`): --resume takes the newest open run of its scope. */
  scope: string;
  /** True while some of its documents were not sent. */
  open: boolean;
  record: unknown;
}

export interface PrintRunRepository {
  get(id: string): Promise<PrintRunRecord | undefined>;
  /** Adds or replaces the run (saved after every document it sends). */
  put(run: PrintRunRecord): Promise<void>;
  /** The newest run of the scope that left documents unsent. */
  lastOpen(scope: string): Promise<PrintRunRecord | undefined>;
}

// ---------------------------------------------------------------------------------------------
// Credentials (issue 41): clients, API keys, the token signing secret, failed token requests

export interface CredentialRepository {
  get(id: string): Promise<CredentialRecord | undefined>;
  /** Adds a client or key (a new id). */
  add(record: CredentialRecord): Promise<void>;
  /** Every client and key, oldest first. */
  list(): Promise<CredentialRecord[]>;
  /**
   * Whether the store has no client and no key, when it can tell at once (from what it knows of
   * its files, without a look that waits); undefined when it cannot (then list() says). An open
   * sandbox asks at every request.
   */
  emptyNow?(): boolean | undefined;
  /** Marks it revoked at `at` (kept revoked when it already was); the record, or undefined when there is none. */
  revoke(id: string, at: string): Promise<CredentialRecord | undefined>;
  /** The store's token signing secret: `candidate` when the store had none (kept from then on), else the one it has. */
  signingSecret(candidate: string): Promise<string>;
  /** Notes a failed token request in `bucket` (client id and address) at `at` (ms), forgetting those before `forgetBefore`. */
  addFailure(bucket: string, at: number, forgetBefore: number): Promise<void>;
  /** The failures of `bucket` since `since` (ms). */
  failures(bucket: string, since: number): Promise<number[]>;
}

// ---------------------------------------------------------------------------------------------
// Appointment documents: the files a shipper uploads for a stop of an order (PDF bytes)

/** One document per shipment, stop and type; a new upload replaces it. */
export interface AppointmentDocumentRecord {
  shipmentId: string;
  stop: string;
  type: string;
  /** What the API answers about it (id, file name, size, upload time). */
  document: unknown;
  content: Uint8Array;
}

export interface AppointmentDocumentRepository {
  get(shipmentId: string, stop: string, type: string): Promise<AppointmentDocumentRecord | undefined>;
  /** Adds or replaces the document of its shipment, stop and type. */
  put(record: AppointmentDocumentRecord): Promise<void>;
  /** True when there was one to remove. */
  remove(shipmentId: string, stop: string, type: string): Promise<boolean>;
}

// ---------------------------------------------------------------------------------------------
// The store and its unit of work

/** What a transaction can read and write. */
export interface StoreTransaction {
  shipments: ShipmentWrites;
  quotes: QuoteWrites;
  counters: Counters;
  idempotency: IdempotencyWrites;
  imports: ImportLedger;
  events: ShipmentEventWrites;
  fuelPrices: FuelPriceWrites;
}

export type StoreReadiness = { ok: true } | { ok: false; reason: 'unavailable' | 'schema'; message: string };

export interface ShipperStore {
  /** Where the store is, as the user named it (a directory; a database URL without its password). */
  readonly location: string;
  shipments: ShipmentReads;
  quotes: QuoteRepository;
  idempotency: IdempotencyReads;
  imports: ImportLedger;
  events: ShipmentEventReads;
  fuelPrices: FuelPriceReads;
  locations: LocationRepository;
  auditedBills: AuditedBillRepository;
  /** What was printed, beside the documents (the user's own, local also in remote mode). */
  printRuns: PrintRunRepository;
  /** Clients and API keys of `serve` (hashes only), its signing secret and its throttle's counters. */
  credentials: CredentialRepository;
  /** The documents uploaded for an order's stops (outside units of work: each put is whole or absent). */
  appointmentDocuments: AppointmentDocumentRepository;

  /**
   * Runs `fn` as one unit of work: serialised with every other one on the store (all processes),
   * its writes committed together when it returns, or none when it throws (the error is rethrown).
   */
  withTransaction<T>(fn: (tx: StoreTransaction) => Promise<T>): Promise<T>;

  /**
   * Checks the store can be used (created, writable): a server fails at start-up, not at its first
   * booking. A file store that exists but cannot be written opens read-only instead (readOnly).
   */
  prepare(): Promise<void>;
  /** Why the store is read-only, when prepare() found it so: reads are answered, every write throws StoreReadOnlyError. */
  readonly readOnly?: string | undefined;
  /**
   * For a readiness probe: the store answers a trivial query and its schema is this program's
   * (migrations current). Never throws, never migrates; the caller bounds the time it may take.
   */
  readiness(): Promise<StoreReadiness>;
  close(): Promise<void>;
}
