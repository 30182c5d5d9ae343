/**
 * The file store: the storage ports (../ports.ts) on a directory of JSON files. Shipments, quotes,
 * index entries and idempotency records are lines of bucket logs (bucketLogs.ts, keyIndexes.ts),
 * the rarer records a file each (events, fuel prices, locations), counters three copies
 * (counters.ts). Every unit of work runs under the store's lock and commits through the
 * write-ahead journal (journal.ts): one fdatasync per batch, however many files it writes.
 * Nothing outside this folder knows a path, a directory or a lock name.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { mapInOrder } from '../../concurrency.js';
import { describeFileError } from '../../fs/durableWrite.js';
import { jsonSyntaxProblem } from '../../printable.js';
import { FileCredentials } from './credentials.js';
import { FileAppointmentDocuments } from './appointmentDocuments.js';
import { normalisedProNumber, normalisedReference, orderSerialOf, serialsOfBolNumber } from '../../domain/recordKeys.js';
import { quoteSchema, type Quote, type Shipment } from '../../domain/schemas.js';
import type {
  AppointmentDocumentRepository,
  AuditedBillRepository,
  PrintRunRecord,
  PrintRunRepository,
  CredentialRepository,
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
  QuoteRepository,
  QuoteWrites,
  ReferenceQuery,
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
  StorePage,
  StoreReadiness,
  StoreTransaction,
  WeeklyFuelPrice,
} from '../ports.js';
import { StoreError, StoreReadOnlyError } from '../storeError.js';
import { StoreBusyError } from './storeLock.js';
import { FileCounters, type CounterRecords } from './counters.js';
import { Journal, type JournalScan, type JournalWrite, type StoreWarning } from './journal.js';
import type { JournalCheck, JournalRepair } from '../check.js';
import { BucketLogs, lastOf, type KeyedLines } from './bucketLogs.js';
import { killPoint } from './killPoints.js';
import { KeyIndexes, type IndexChange, type IndexKeys, type IndexKind } from './keyIndexes.js';
import { listPage, type IdSource } from './lists.js';
import { exportSnapshot, type SnapshotWarning } from './snapshot.js';
import { importThroughPorts, type TransferCounts, type TransferLine } from '../transfer.js';
import { isSafeRecordId, RecordFiles } from './recordFiles.js';
import { eventsFileSchema, idempotencySchema, storedShipmentSchema } from './fileRecords.js';
import { companyOf } from '../../domain/companies.js';
import { shipmentEventRecordSchema as eventRecordSchema } from '../recordSchemas.js';
import { parseStored } from '../legacyRead.js';

type StoredShipment = z.output<typeof storedShipmentSchema>;

const SHIPMENT_ID = /^sh_[0-9A-HJKMNP-TV-Z]{26}$/;
const QUOTE_ID = /^qt_[0-9A-HJKMNP-TV-Z]{26}$/;
const WEEK = /^\d{4}-\d{2}-\d{2}$/;

const fuelPriceSchema = z.object({ week: z.string(), usdPerGallon: z.string() });
const locationSchema = z.object({ name: z.string(), address: z.unknown() });
/** What a look-up reads of a shipment file whose record does not parse: its keys, if they can be found. */
const lenientKeysSchema = z.object({
  id: z.string().optional(),
  orderNumber: z.string().optional(),
  bolNumber: z.string().optional(),
  proNumber: z.string().nullish(),
  refNumber: z.string().nullish(),
  quoteId: z.string().optional(),
  quote: z.object({ id: z.string() }).optional(),
});

/** The created index's window of an id: the first 7 characters of its ULID's time, about 33 seconds (a window read whole by a list holds what a bulk import makes in that time, not in 17 minutes). */
const createdBucketOf = (id: string) => id.slice(3, 10);

const hashOf = (text: string) => createHash('sha256').update(text).digest('hex');
const idempotencyId = (scope: IdempotencyScope, key: string) => hashOf(`${scope}\u0000${key}`);
/**
 * Idempotency records live in 1,024 bucket logs (bucketLogs.ts) by their id's first ten bits, a
 * line `{"h":id,"r":record}` each: a keyed booking creates no file of its own. Stores written
 * before keep a file per record (`idempotency/<id>.json`), still read.
 */
const idempotencyBucket = (id: string) => `idempotency/${((parseInt(id.slice(0, 3), 16) || 0) >> 2).toString(16).padStart(3, '0')}.log`;
/** A record's line starts `{"h":"<id>",`: its first field, the id, found without parsing the line. */
const IDEMPOTENCY_LINE_START = '{"h":';
const idempotencyLineStart = (id: string) => `${IDEMPOTENCY_LINE_START}${JSON.stringify(id)},`;
/**
 * A batch's idempotency records go to one pending log first (bucketLogs.ts, PendingLines), and
 * reach their buckets together once it holds pendingLimit() bytes (mergePending): an
 * import appends to one file a batch, not to hundreds, and a new store does not create its
 * thousand buckets while it books.
 */
const IDEMPOTENCY_PENDING = 'idempotency/pending.log';
/**
 * Bytes (SHIPPER_PENDING_LIMIT overrides them, for tests): about 6,300 records, which a process
 * that starts reads whole at its first keyed look-up (28 ms cold, 6.5 ms warm, measured).
 */
const pendingLimit = () => (Number(process.env.SHIPPER_PENDING_LIMIT) > 0 ? Number(process.env.SHIPPER_PENDING_LIMIT) : 2 * 1024 * 1024);
/**
 * Quotes saved by POST quote and shipments live in bucket logs too, a line `{"i":id,"q":quote}`
 * or `{"i":id,"s":shipment}` per version (the last line of an id is the record as it is now), by
 * the second their id was made in (its first eight time characters) and its last character (32 a
 * second, which a monotonic id changes): a busy server or an import appends a batch to a few
 * files instead of creating a file each (creating files was most of an import's time), and a
 * bucket holds a second's records of one of 32 kinds, so a look-up reads little. Stores written
 * before keep a file per quote and per shipment (`quotes/<id>.json`, `shipments/<id>.json`), still
 * read; a shipment's bucket line supersedes its file once it is written again. Shipment ids that
 * are not a ULID's (no booking makes them) keep a file each.
 */
const SECOND_BUCKET = /^[0-9A-HJKMNP-TV-Z]{8}-[0-9A-HJKMNP-TV-Z]\.log$/;
const secondBucket = (collection: 'quotes' | 'shipments', id: string) => `${collection}/${id.slice(3, 11)}-${id.slice(-1)}.log`;
/** The quote a quote-first booking priced shares its shipment's ULID: `qt_X` for `sh_X`. */
const shipmentOfOwnQuote = (quoteId: string) => `sh_${quoteId.slice(3)}`;

/** The index keys a shipment carries. */
function keysOf(shipment: z.output<typeof lenientKeysSchema>): IndexKeys {
  const serial = shipment.orderNumber ? orderSerialOf(shipment.orderNumber) : null;
  const pro = shipment.proNumber ? normalisedProNumber(shipment.proNumber) : '';
  const ownQuote = shipment.quote?.id;
  return {
    serial: serial !== null ? [String(serial)] : [],
    pro: pro ? [pro] : [],
    ref: shipment.refNumber ? [normalisedReference(shipment.refNumber)] : [],
    quote: shipment.quoteId && shipment.quoteId !== ownQuote ? [shipment.quoteId] : [],
    created: shipment.id && SHIPMENT_ID.test(shipment.id) ? [createdBucketOf(shipment.id)] : [],
  };
}

function splitRecord(record: StoredShipment): ShipmentRecord {
  const { quote, ...shipment } = record;
  return { shipment, ownQuote: quote };
}

/**
 * How long a server's store keeps its lock after a unit of work that no other of the process
 * waits for (storeLock.ts, lingerMs): its clients' next requests come once the batch is answered,
 * after the lock was released, so without it every batch of POSTed quotes took and removed the
 * lock's directory and owner file. Another process waits at most this much longer (and never
 * longer than a hand-over's 200 ms in all).
 */
const LOCK_LINGER_MS = 5;

export interface FileStoreOptions {
  /** Records kept in memory after a read (a long-running server); 0 or absent: none. */
  cacheEntries?: number | undefined;
  /** Told what the store did that its user should know (bytes cut off the journal); default: stderr. */
  onWarning?: ((item: StoreWarning) => void) | undefined;
}

export class FileStore implements ShipperStore {
  readonly files: RecordFiles;
  readonly journal: Journal;
  readonly indexes: KeyIndexes;
  /** The bucket logs the indexes and the idempotency records are kept in. */
  readonly logs: BucketLogs;
  /** Counters whose newest shipments this process has read (counters.ts). */
  readonly newestChecked = new Set<string>();

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

  private readonly quoteQueue: Array<{ quote: Quote; settle: (error?: unknown) => void }> = [];
  /** A unit of work is waiting for the lock to save the queued quotes. */
  private quoteTransactionQueued = false;

  constructor(
    readonly root: string,
    options: FileStoreOptions = {},
  ) {
    // A store object with a record cache is a long-running server's: it keeps the stats of what
    // it reads while no shipper wrote to the store (generation.ts).
    this.logs = new BucketLogs(root, { keepStats: (options.cacheEntries ?? 0) > 0 });
    this.splits = (options.cacheEntries ?? 0) > 0 ? new WeakMap() : undefined;
    this.files = new RecordFiles(root, {
      cacheEntries: options.cacheEntries,
      generation: this.logs.generation,
      lockLingerMs: (options.cacheEntries ?? 0) > 0 ? LOCK_LINGER_MS : 0,
    });
    // What this process writes, its next look-up reads.
    this.journal = new Journal(root, () => this.logs.endBurst(), options.onWarning ?? ((item) => process.stderr.write(`warning: [${item.code}] ${item.message}\n`)));
    this.indexes = new KeyIndexes(root, { shipmentKeys: () => this.allShipmentKeys(), messageKeys: () => this.allMessageKeys() }, this.logs, () => this.journal.compactIfAny());
    this.shipments = new ShipmentQueries(this, undefined);
    const quotes = new QuoteQueries(this, undefined);
    this.quotes = { get: (id) => quotes.get(id), list: (filter, page) => quotes.list(filter, page), put: (quote) => this.putQuote(quote) };
    this.idempotency = new IdempotencyQueries(this, undefined);
    this.imports = ledgerOf(this.idempotency);
    this.events = new EventQueries(this, undefined);
    this.fuelPrices = new FuelPriceQueries(this, undefined);
    this.locations = new FileLocations(this.files, () => this.assertWritable());
    this.auditedBills = new FileAuditedBills(this.files, () => this.assertWritable());
    this.printRuns = new FilePrintRuns(this.files, () => this.assertWritable());
    this.credentials = new FileCredentials(this.files, () => this.assertWritable());
    this.appointmentDocuments = new FileAppointmentDocuments(this.files, () => this.assertWritable());
  }

  /** Why the store is read-only (prepare found it so): then every write throws StoreReadOnlyError before it touches a file. */
  readOnly: string | undefined;

  assertWritable(): void {
    // Made writable again since (remounted read-write): writes resume without a restart.
    if (this.readOnly !== undefined) this.readOnly = readOnlyReason(this.root);
    if (this.readOnly !== undefined)
      throw new StoreReadOnlyError(`the store ${this.root} is read-only (${this.readOnly}): it is read, and nothing is written to it until it is writable again`, this.root);
  }

  get location(): string {
    return this.root;
  }

  /** As the port says; a store directory that exists and reads but cannot be written (a read-only mount, no permission) opens read-only. */
  async prepare(): Promise<void> {
    try {
      await this.files.prepare();
    } catch (error) {
      const reason = readOnlyReason(this.root);
      if (reason === undefined) throw error;
      this.readOnly = reason;
    }
  }

  /** The directory is there and writable (the file store has no schema to migrate). */
  async readiness(): Promise<StoreReadiness> {
    try {
      await this.files.prepare();
      return { ok: true };
    } catch (error) {
      return { ok: false, reason: 'unavailable', message: error instanceof Error ? error.message : String(error) };
    }
  }

  /** A server's store keeps its lock a moment after a unit of work (LOCK_LINGER_MS): removed here. */
  close(): Promise<void> {
    return this.files.releaseLock('shipments');
  }

  /**
   * store export: the journal's pending lines applied first when the store can be written (under
   * its lock), then every record read from the files (snapshot.ts), which writes nothing: a
   * read-only store, a full disk or a damaged journal still exports what was applied.
   */
  async *exportLines(now: Date, warn: (item: SnapshotWarning) => void = () => undefined): AsyncIterable<TransferLine> {
    if (this.readOnly === undefined) {
      // What cannot be recovered now (no lock on a full disk, a damaged journal) is read as it is.
      await this.locked(async () => undefined).catch((error: unknown) => (error instanceof StoreError ? undefined : Promise.reject(error)));
    }
    yield* exportSnapshot(this.root, this.journal, now, warn);
  }

  /** store check: what the journal holds past its applied mark, read without the lock and without writing. */
  async checkJournal(): Promise<JournalCheck> {
    return checkOf(this.journal.file, await this.journal.inspect());
  }

  /**
   * store repair: under the lock (without recover, which refuses a damaged journal), the whole lines
   * before any damage applied, then the journal cut from the damage (or from the bytes after its
   * last whole line) with a copy of what was cut kept beside it.
   */
  async repairJournal(): Promise<JournalRepair> {
    this.assertWritable();
    return this.files.withLock('shipments', async () => {
      const { scan, copy } = await this.journal.repair();
      const at = scan.damage?.at ?? scan.tail?.at;
      return {
        found: checkOf(this.journal.file, scan),
        applied: scan.pending.length,
        cut: at !== undefined && copy !== undefined ? { at, bytes: scan.size - at, copy } : null,
      };
    });
  }

  importLines(lines: AsyncIterable<TransferLine>): Promise<TransferCounts> {
    return importThroughPorts(this, lines);
  }

  /** Runs fn under the store's lock, after finishing what a crashed process committed. */
  locked<T>(fn: () => Promise<T>): Promise<T> {
    try {
      this.assertWritable();
    } catch (error) {
      return Promise.reject(error as Error);
    }
    let held = false;
    return this.files
      .withLock('shipments', async () => {
        held = true;
        await this.journal.recover();
        return fn();
      })
      .catch((error: unknown) => {
        // The lock could not be taken because the store became read-only (remounted read-only
        // after a disk error, say): said as such (503 from a server), with the lock's own message.
        if (!held && error instanceof StoreError && !(error instanceof StoreBusyError) && readOnlyReason(this.root) !== undefined) {
          throw new StoreReadOnlyError(error.message, error.subject);
        }
        throw error;
      });
  }

  withTransaction<T>(fn: (tx: StoreTransaction) => Promise<T>): Promise<T> {
    return this.locked(async () => {
      const tx = new FileTransaction(this);
      const result = await fn(tx);
      await tx.commit();
      return result;
    });
  }

  /** Quotes saved outside a transaction wait for the one being committed and go together in the next. */
  private putQuote(quote: Quote): Promise<void> {
    return new Promise((resolve, reject) => {
      this.quoteQueue.push({ quote, settle: (error) => (error === undefined ? resolve() : reject(error instanceof Error ? error : new Error(String(error)))) });
      if (!this.quoteTransactionQueued) this.queueQuoteTransaction();
    });
  }

  /**
   * One unit of work at a time waits for the lock to save queued quotes, and takes those queued
   * by the time it holds it (up to 1,000). Quotes that arrive while it commits queue the next,
   * which waits for the lock meanwhile, so the lock passes from one to the next without being
   * released (storeLock.ts) instead of being taken anew for each batch.
   */
  private queueQuoteTransaction(): void {
    this.quoteTransactionQueued = true;
    let batch: typeof this.quoteQueue = [];
    this.withTransaction(async (tx) => {
      this.quoteTransactionQueued = false;
      batch = this.quoteQueue.splice(0, 1000);
      if (this.quoteQueue.length > 0) this.queueQuoteTransaction();
      for (const { quote } of batch) tx.quotes.put(quote);
    }).then(
      () => {
        for (const { settle } of batch) settle();
      },
      (error: unknown) => {
        // Failed before it held the lock: the quotes waiting for it fail with it.
        if (this.quoteTransactionQueued && batch.length === 0) {
          this.quoteTransactionQueued = false;
          batch = this.quoteQueue.splice(0);
        }
        for (const { settle } of batch) settle(error ?? new Error('the quote was not saved'));
      },
    );
  }

  /** The ids under an index key; an index that cannot be trusted is rebuilt first (under the lock, unless already held). */
  lookup(kind: IndexKind, key: string, tx: FileTransaction | undefined): Promise<string[]> {
    return this.lookupWith((known) => this.indexes.read(kind, key, known, tx), kind, key, tx);
  }

  /** As lookup, the ids sorted ascending (not a copy: not to be changed). */
  lookupSorted(kind: IndexKind, key: string, tx: FileTransaction | undefined): Promise<readonly string[]> {
    return this.lookupWith((known) => this.indexes.readSorted(kind, key, known, tx), kind, key, tx);
  }

  private async lookupWith<T extends readonly string[]>(
    read: (known: boolean) => Promise<T | undefined>,
    kind: IndexKind,
    key: string,
    tx: FileTransaction | undefined,
  ): Promise<T> {
    const afterTrusted = async () => {
      await this.indexes.ensureTrusted([kind], { kind, key });
      return (await read(true)) ?? ([] as readonly string[] as T);
    };
    if (tx) {
      // Under the lock nothing but this unit of work changes an index: checked once per kind.
      if (tx.trusted.has(kind)) return (await read(true)) ?? afterTrusted();
      const ids = await afterTrusted();
      tx.trusted.add(kind);
      return ids;
    }
    const ids = await read(false);
    if (ids) return ids;
    // A store that never held what this index is built from: nothing to find, nothing to build (a look-up writes nothing).
    const collection = kind === 'message' ? 'events' : 'shipments';
    const burst = this.logs.burst();
    if (this.missingInBurst.get(collection) === burst) return [] as readonly string[] as T;
    if (!(await this.files.collectionExists(collection))) {
      this.missingInBurst.set(collection, burst);
      return [] as readonly string[] as T;
    }
    return this.locked(afterTrusted);
  }

  /** The keys an index holds (the created index's buckets), after it is trusted. */
  async indexKeys(kind: IndexKind, tx: FileTransaction | undefined): Promise<string[]> {
    await this.lookup(kind, '-', tx);
    return this.indexes.keys(kind);
  }

  /**
   * Moves the lines of each pending log (idempotency records, index entries) that has grown past
   * the limit into their buckets (see PendingLines): one journal batch appends them to their
   * buckets, and only then a second replaces each log with an empty one. Inside the lock. Readers
   * read a log before its buckets, so a line is found in one or the other throughout; a merge
   * killed between the two batches leaves its lines in both, and the next moves them again (a
   * record twice in its bucket reads as once: its last line wins; an entry added twice is added
   * once). A damaged log is left as it is: its look-ups say so (an index is rebuilt).
   */
  async mergePending(): Promise<void> {
    const limit = pendingLimit();
    const moves = this.indexes.pendingMoves(limit);
    const pending = this.logs.pending(IDEMPOTENCY_PENDING, IDEMPOTENCY_LINE_START);
    if (pending && pending.size >= limit && !pending.damaged) {
      moves.push({ pending: IDEMPOTENCY_PENDING, lines: pending.byBucket((key) => idempotencyBucket(key.slice(1, -1))) });
    }
    if (moves.length === 0) return;
    await this.journal.commit(this.logs.appendAll(moves.flatMap((move) => move.lines)));
    killPoint('during-merge')?.();
    await this.journal.commit(moves.map((move) => ({ path: move.pending, text: '' })));
  }

  /**
   * A cached record's split, made once (a server's record cache hands out the same record while its
   * bucket is unchanged): a cached GET answers the same Shipment object, whose freight check the
   * engine then works out once (LocalApi.getShipment).
   */
  private readonly splits: WeakMap<StoredShipment, ShipmentRecord> | undefined;

  splitStored(record: StoredShipment): ShipmentRecord {
    if (!this.splits) return splitRecord(record);
    let split = this.splits.get(record);
    if (!split) this.splits.set(record, (split = splitRecord(record)));
    return split;
  }

  private readonly recordFilesFound = new Map<string, boolean>();
  /** Collections found missing in a run of look-ups (BucketLogs.burst): a new store's, until its first batch. */
  private readonly missingInBurst = new Map<string, object>();
  /**
   * What each idempotency bucket holds, as the first 32 bits of its records' ids (sorted), with
   * the pending log's inode when it was read (null: the bucket does not exist): a look-up of a key
   * that is not there (every new booking of an import) answers without reading the bucket, which
   * holds a few hundred kilobytes at a million records (IdempotencyQueries.logged).
   */
  readonly idempotencyBuckets = new Map<string, { version: number; ids: Uint32Array | null }>();
  private bucketNames: { version: number; names: Set<string> } | undefined;

  /** The idempotency buckets there are (relative paths), listed once while the pending log keeps its inode (`version`). */
  idempotencyBucketNames(version: number): Set<string> {
    if (this.bucketNames?.version !== version) {
      const dir = this.files.collectionDir('idempotency');
      let names: string[];
      try {
        names = fs.readdirSync(dir);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new StoreError(`cannot read ${dir}: ${describeFileError(error)}`, dir);
        names = [];
      }
      this.bucketNames = { version, names: new Set(names.map((name) => `idempotency/${name}`)) };
    }
    return this.bucketNames.names;
  }

  /**
   * Whether a collection kept in bucket logs also holds records of the older layout, a file each:
   * looked for once per process, so that a store written before is read, and a store that has
   * none costs no look-up of a file that is not there (an import looks up a key per shipment
   * that is mostly not there).
   */
  hasRecordFiles(collection: 'idempotency'): boolean {
    let found = this.recordFilesFound.get(collection);
    if (found === undefined) {
      found = false;
      try {
        const dir = fs.opendirSync(join(this.root, collection));
        try {
          for (let entry = dir.readSync(); entry && !found; entry = dir.readSync()) found = entry.name.endsWith('.json') && !entry.name.startsWith('.');
        } finally {
          dir.closeSync();
        }
      } catch {
        found = false;
      }
      this.recordFilesFound.set(collection, found);
    }
    return found;
  }

  /** The shipments directory: its buckets (names, newest second first) and the ids of the files of an older layout. */
  private async shipmentDirectory(): Promise<{ buckets: string[]; fileIds: string[] }> {
    const names = await readdir(this.files.collectionDir('shipments')).catch((error: NodeJS.ErrnoException) =>
      error.code === 'ENOENT' ? ([] as string[]) : Promise.reject(new StoreError(`cannot list ${this.files.collectionDir('shipments')}: ${describeFileError(error)}`)),
    );
    const buckets = names
      .filter((name) => SECOND_BUCKET.test(name))
      .sort()
      .reverse();
    const fileIds = names.filter((name) => name.endsWith('.json') && isSafeRecordId(name.slice(0, -5))).map((name) => name.slice(0, -5));
    return { buckets, fileIds };
  }

  /**
   * Every shipment as stored, bucket by bucket, then the files of an older layout that no bucket
   * supersedes: `visit` gets its id and its line or file, read by `schema`, or the error that
   * reading it gave (a damaged record).
   */
  private async eachShipment<S extends z.ZodType>(
    schema: S,
    visit: (id: string, record: z.output<S> | undefined, damaged: { text: string } | undefined) => void,
    { newest, unreadable }: { newest?: number; unreadable?: (bucket: string) => void } = {},
  ): Promise<void> {
    const { buckets, fileIds } = await this.shipmentDirectory();
    const logged = new Set<string>();
    let second: string | undefined;
    for (const name of buckets) {
      // Buckets newest second first: every id of an older second is older than those seen.
      if (newest !== undefined && logged.size >= newest && name.slice(0, 8) !== second) break;
      second = name.slice(0, 8);
      let read: KeyedLines | undefined;
      try {
        read = this.logs.keyedLines(`shipments/${name}`, 'i');
      } catch (error) {
        if (!(error instanceof StoreError)) throw error;
        unreadable?.(name);
      }
      if (!read) continue;
      for (const [id, line] of read.lines) {
        logged.add(id);
        const outcome = lastOf(read, id);
        let record: z.output<S> | undefined;
        try {
          record = shipmentOfLine(name, id, outcome ?? 'damaged', schema);
        } catch (error) {
          if (!(error instanceof StoreError)) throw error;
        }
        visit(id, record, record === undefined ? { text: line.text } : undefined);
      }
      // A line no record's: what can be read of it still names the shipment (salvageKeys).
      for (const { text } of read.garbled) {
        const id = /"id":"(sh_[0-9A-HJKMNP-TV-Z]{26})"/.exec(text)?.[1];
        if (id && !read.lines.has(id)) visit(id, undefined, { text });
      }
    }
    const files = fileIds
      .filter((id) => !logged.has(id))
      .sort()
      .reverse();
    for (const id of newest === undefined ? files : files.slice(0, newest)) {
      try {
        visit(id, await this.files.get('shipments', id, schema), undefined);
      } catch (error) {
        if (!(error instanceof StoreError)) throw error;
        visit(id, undefined, { text: await readFile(this.files.fileOf('shipments', id), 'utf8').catch(() => '') });
      }
    }
  }

  private async allShipmentKeys(): Promise<Array<{ id: string; keys: IndexKeys }>> {
    const found: Array<{ id: string; keys: IndexKeys }> = [];
    await this.eachShipment(
      lenientKeysSchema,
      (id, record, damaged) => {
        // A damaged shipment stays in the indexes (its created window too): look-ups and lists name it as damaged.
        const keys = record ?? (damaged ? salvageKeys(id, damaged.text) : undefined);
        if (keys) found.push({ id, keys: keysOf(keys) });
      },
      {
        // A bucket that cannot be read at all (a directory in its place) names no shipment: an id
        // of its own in the created index stands for it, so a list reads the bucket and names it.
        unreadable: (bucket) => {
          const id = `sh_${bucket.slice(0, 8)}${'Z'.repeat(17)}${bucket.slice(9, 10)}`;
          found.push({ id, keys: { created: [createdBucketOf(id)] } });
        },
      },
    );
    return found;
  }

  /**
   * A shipment as stored (with its own quote), read by `schema`: its bucket's last line of it,
   * else the file of an older layout. A record that does not read is a StoreError naming it.
   */
  storedShipment<S extends z.ZodType>(id: string, schema: S): z.output<S> | undefined | Promise<z.output<S> | undefined> {
    if (!SHIPMENT_ID.test(id)) return isSafeRecordId(id) ? this.files.get('shipments', id, schema) : undefined;
    const bucket = secondBucket('shipments', id);
    const logged = this.files.cachedInBucket(bucket, id, schema, () => {
      const line = this.logs.lastLine(bucket, 'i', id);
      return line === undefined ? undefined : shipmentOfLine(join(this.root, bucket), id, line, schema);
    });
    return logged ?? this.files.get('shipments', id, schema);
  }

  private async allMessageKeys(): Promise<Array<{ id: string; keys: IndexKeys }>> {
    const { ids } = await this.files.listIds('events', { limit: Number.MAX_SAFE_INTEGER });
    const found = await mapInOrder(ids, 32, async (id) => {
      const file = await this.files.get('events', id, eventsFileSchema).catch(() => undefined);
      const digests = [...new Set((file?.events ?? []).map((event) => event.messageDigest).filter((digest) => digest !== null))];
      return { id, keys: { message: digests } };
    });
    return found;
  }

  /** The shipments for a counter's floor (counters.ts); damaged ones are passed over. */
  counterRecords(): CounterRecords {
    const visit = (fn: (shipment: Shipment) => void) => (_id: string, record: StoredShipment | undefined) => {
      if (record) fn(splitRecord(record).shipment);
    };
    return {
      all: (fn) => this.eachShipment(storedShipmentSchema, visit(fn)),
      newest: (count, fn) => this.eachShipment(storedShipmentSchema, visit(fn), { newest: count }),
    };
  }
}

// -----------------------------------------------------------------------------------------------
// A unit of work

class FileTransaction implements StoreTransaction {
  /** Indexes found trusted in this unit of work. */
  readonly trusted = new Set<IndexKind>();
  readonly shipmentPuts = new Map<string, StoredShipment>();
  /** Shipments put as created (bookings): no earlier version of theirs is read at commit. */
  readonly createdShipments = new Set<string>();
  readonly quotePuts = new Map<string, Quote>();
  readonly idempotencyPuts = new Map<string, IdempotencyRecord & { key?: string }>();
  readonly eventAppends: ShipmentEventRecord[] = [];
  readonly fuelPuts = new Map<string, WeeklyFuelPrice>();

  readonly shipments: ShipmentWrites;
  readonly quotes: QuoteWrites;
  readonly counters: FileCounters;
  readonly idempotency: IdempotencyWrites;
  readonly imports: ImportLedger;
  readonly events: ShipmentEventWrites;
  readonly fuelPrices: FuelPriceWrites;

  constructor(readonly store: FileStore) {
    this.shipments = new ShipmentQueries(store, this);
    this.quotes = new QuoteQueries(store, this);
    this.counters = new FileCounters(store.files, store.counterRecords(), store.newestChecked);
    this.idempotency = new IdempotencyQueries(store, this);
    this.imports = ledgerOf(this.idempotency);
    this.events = new EventQueries(store, this);
    this.fuelPrices = new FuelPriceQueries(store, this);
  }

  async commit(): Promise<void> {
    const { files, indexes, journal } = this.store;
    const writes: JournalWrite[] = [];
    const changes: IndexChange[] = [];
    const previous = await mapInOrder([...this.shipmentPuts.keys()], 32, async (id) =>
      this.createdShipments.has(id)
        ? undefined
        : Promise.resolve(this.store.storedShipment(id, lenientKeysSchema)).catch((error: unknown) => (error instanceof StoreError ? undefined : Promise.reject(error))),
    );
    const logged: Array<readonly [string, string]> = [];
    [...this.shipmentPuts].forEach(([id, record], position) => {
      if (SHIPMENT_ID.test(id)) logged.push([secondBucket('shipments', id), JSON.stringify({ i: id, s: record })]);
      else writes.push({ path: files.relativeFileOf('shipments', id), text: RecordFiles.text(record) });
      const before = previous[position] ? keysOf(previous[position]) : {};
      const after = keysOf(record);
      for (const kind of ['serial', 'pro', 'ref', 'quote', 'created'] as const) {
        for (const key of before[kind] ?? []) if (!(after[kind] ?? []).includes(key)) changes.push({ kind, key, id, remove: true });
        for (const key of after[kind] ?? []) if (!(before[kind] ?? []).includes(key)) changes.push({ kind, key, id });
      }
    });
    writes.push(...this.store.logs.appendAll(logged));
    writes.push(...this.store.logs.appendAll([...this.quotePuts].map(([id, quote]) => [secondBucket('quotes', id), JSON.stringify({ i: id, q: quote })] as const)));
    writes.push(...this.store.logs.appendAll([...this.idempotencyPuts].map(([id, record]) => [IDEMPOTENCY_PENDING, JSON.stringify({ h: id, r: record })] as const)));
    for (const [week, price] of this.fuelPuts) writes.push({ path: files.relativeFileOf('fuel-prices', week), text: RecordFiles.text(price) });
    if (this.eventAppends.length > 0) {
      const byShipment = new Map<string, ShipmentEventRecord[]>();
      for (const event of this.eventAppends) byShipment.set(event.shipmentId, [...(byShipment.get(event.shipmentId) ?? []), event]);
      for (const [shipmentId, added] of byShipment) {
        const current = (await files.get('events', shipmentId, eventsFileSchema))?.events ?? [];
        const known = new Set(current.map((event) => event.id));
        const events = [...current, ...added.filter((event) => !known.has(event.id))];
        writes.push({ path: files.relativeFileOf('events', shipmentId), text: RecordFiles.text({ shipmentId, events }) });
        const before = new Set(current.map((event) => event.messageDigest));
        for (const digest of new Set(added.map((event) => event.messageDigest)))
          if (digest !== null && !before.has(digest)) changes.push({ kind: 'message', key: digest, id: shipmentId });
      }
    }
    writes.push(...this.counters.writes());
    writes.push(...(await indexes.plan(changes)));
    if (writes.length === 0) return;
    // The batch changes the records' directories, which every index's trust also reads: the
    // indexes trusted now stay trusted after it (they hold every record this batch adds), not only
    // those it adds to.
    // (A batch of quotes alone touches neither.)
    const touchesRecords = writes.some((write) => /^(shipments|events|index)\//.test(write.path));
    const trusted = touchesRecords ? await indexes.trustedKinds() : [];
    await journal.commit(writes);
    // Before the indexes are marked: a merge changes their directories. The batch is committed
    // whatever becomes of the merge: one that fails (a full disk) leaves every line where a reader
    // finds it, and the next batch merges again.
    await this.store.mergePending().catch(() => undefined);
    if (touchesRecords) await indexes.markTrusted([...trusted, ...changes.map((change) => change.kind)]);
  }
}

// -----------------------------------------------------------------------------------------------
// Queries (outside a transaction, or inside one: then they see its own writes first)

class ShipmentQueries implements ShipmentWrites {
  constructor(
    private readonly store: FileStore,
    private readonly tx: FileTransaction | undefined,
  ) {}

  put(shipment: Shipment, ownQuote?: Quote, options: { created?: boolean } = {}): void {
    if (!this.tx) throw new StoreError('shipments are written in a transaction');
    if (!isSafeRecordId(shipment.id)) throw new StoreError(`bad record id ${JSON.stringify(shipment.id)}`);
    this.tx.shipmentPuts.set(shipment.id, ownQuote ? { ...shipment, quote: ownQuote } : shipment);
    if (options.created) this.tx.createdShipments.add(shipment.id);
    else this.tx.createdShipments.delete(shipment.id);
  }

  async getRecord(id: string): Promise<ShipmentRecord | undefined> {
    const pending = this.tx?.shipmentPuts.get(id);
    if (pending) return splitRecord(pending);
    const record = await this.store.storedShipment(id, storedShipmentSchema);
    if (!record) return undefined;
    return this.tx ? splitRecord(record) : this.store.splitStored(record);
  }

  async get(id: string): Promise<Shipment | undefined> {
    return (await this.getRecord(id))?.shipment;
  }

  private lookup(kind: IndexKind, key: string): Promise<string[]> {
    return this.store.lookup(kind, key, this.tx);
  }

  /**
   * The shipments of these ids that `matches`, as they are now, and (unless `pending` is false)
   * those this unit of work wrote that match, whose keys the index may not hold yet; a damaged one
   * is thrown (strict) or skipped.
   */
  private async current(ids: readonly string[], matches: (shipment: Shipment) => boolean, strict: boolean, pending = true): Promise<Shipment[]> {
    const written = this.tx?.shipmentPuts;
    const read = await mapInOrder(
      [...new Set(ids)].filter((id) => !written?.has(id)),
      8,
      (id) =>
        this.get(id).catch((error: unknown) => {
          if (strict || !(error instanceof StoreError)) throw error;
          return undefined;
        }),
    );
    const found = read.filter((shipment): shipment is Shipment => shipment !== undefined && matches(shipment));
    if (pending) found.push(...this.writtenMatching(matches));
    return found;
  }

  /** What this unit of work wrote that `matches` (a stored record is a Shipment with its own quote: matched before it is split). */
  private writtenMatching(matches: (shipment: Shipment) => boolean): Shipment[] {
    const found: Shipment[] = [];
    for (const record of this.tx?.shipmentPuts.values() ?? []) if (matches(record)) found.push(splitRecord(record).shipment);
    return found;
  }

  async findByOrderNumber(orderNumber: string): Promise<Shipment | undefined> {
    const serial = orderSerialOf(orderNumber);
    if (serial === null) return undefined;
    const [found] = await this.current(await this.lookup('serial', String(serial)), (shipment) => shipment.orderNumber === orderNumber, true);
    return found;
  }

  async findByBolNumber(bolNumber: string): Promise<Shipment | undefined> {
    const ids = (await Promise.all(serialsOfBolNumber(bolNumber).map((serial) => this.lookup('serial', String(serial))))).flat();
    const [found] = await this.current(ids, (shipment) => shipment.bolNumber === bolNumber, true);
    return found;
  }

  async findByProNumber(proNumber: string, scac?: string): Promise<Shipment[]> {
    const pro = normalisedProNumber(proNumber);
    if (!pro) return [];
    return this.current(
      await this.lookup('pro', pro),
      (shipment) => shipment.proNumber !== null && normalisedProNumber(shipment.proNumber) === pro && (scac === undefined || shipment.carrier?.scac === scac),
      false,
    );
  }

  async findByReference(refNumber: string, options: ReferenceQuery = {}): Promise<Shipment[]> {
    const reference = normalisedReference(refNumber);
    const ascending = await this.store.lookupSorted('ref', reference, this.tx);
    const limit = options.limit ?? Number.MAX_SAFE_INTEGER;
    const matches = (shipment: Shipment) =>
      shipment.refNumber !== null &&
      normalisedReference(shipment.refNumber) === reference &&
      statusMatches(shipment.orderStatus, options.orderStatus) &&
      (options.companyId === undefined || companyOf(shipment) === options.companyId);
    const found: Shipment[] = [];
    // A reference used for everything ("STOCK") has thousands: read a few at a time, newest first, until there are enough.
    for (let end = ascending.length; end > 0 && found.length < limit; end -= 8) {
      found.push(...(await this.current(ascending.slice(Math.max(0, end - 8), end).reverse(), matches, false, false)));
    }
    found.push(...this.writtenMatching(matches));
    return found.sort((a, b) => (a.id < b.id ? 1 : -1)).slice(0, limit);
  }

  async findByQuote(quoteId: string): Promise<Shipment[]> {
    // Outside a unit of work, read once per view of the store (generation.ts): a cached GET of a
    // quote reads its bookings from memory instead of the quote index and the bucket of its own booking.
    if (this.tx) return this.bookingsOf(quoteId);
    return [...(await this.store.logs.generation.remembered(`findByQuote ${quoteId}`, () => this.bookingsOf(quoteId)))];
  }

  private async bookingsOf(quoteId: string): Promise<Shipment[]> {
    const indexed = await this.current(await this.lookup('quote', quoteId), (shipment) => shipment.quoteId === quoteId, false);
    const own = QUOTE_ID.test(quoteId) ? await this.getRecord(shipmentOfOwnQuote(quoteId)).catch(() => undefined) : undefined;
    const first = own?.ownQuote?.id === quoteId ? [own.shipment] : [];
    return [...first, ...indexed.filter((shipment) => !first.some((known) => known.id === shipment.id)).sort((a, b) => (a.id < b.id ? -1 : 1))];
  }

  /** Newest first through the created index (a store that never held a shipment: the empty directory listing). */
  private async newestFirst(): Promise<IdSource | undefined> {
    if (!(await this.store.files.collectionExists('shipments'))) return undefined;
    return createdSource(this.store, this.tx);
  }

  async list(filter: ShipmentFilter, page: PageRequest): Promise<StorePage<Shipment>> {
    const { companyId, orderStatus, created, deliveryZipCode, refNumber, orderNumber, bolNumbers = [], proNumbers = [] } = filter;
    const candidates: string[][] = [];
    if (orderNumber !== undefined) {
      const serial = orderSerialOf(orderNumber);
      candidates.push(serial === null ? [] : await this.lookup('serial', String(serial)));
    }
    if (bolNumbers.length > 0) candidates.push((await Promise.all(bolNumbers.flatMap(serialsOfBolNumber).map((serial) => this.lookup('serial', String(serial))))).flat());
    if (proNumbers.length > 0) candidates.push((await Promise.all(proNumbers.map((pro) => this.lookup('pro', normalisedProNumber(pro))))).flat());
    if (refNumber !== undefined) candidates.push(await this.lookup('ref', normalisedReference(refNumber)));
    const ids = candidates.length === 0 ? undefined : candidates.reduce((kept, next) => kept.filter((id) => next.includes(id)));
    const source = ids === undefined ? await this.newestFirst() : undefined;
    const pros = new Set(proNumbers.map(normalisedProNumber));
    const reference = refNumber !== undefined ? normalisedReference(refNumber) : undefined;
    return listPage(this.store.files, 'shipments', storedShipmentSchema, (record) => splitRecord(record).shipment, page, {
      ids,
      source,
      get: (id) => this.get(id),
      idPattern: SHIPMENT_ID,
      oldest: created?.from,
      keep: (shipment) =>
        (companyId === undefined || companyOf(shipment) === companyId) &&
        statusMatches(shipment.orderStatus, orderStatus) &&
        (deliveryZipCode === undefined || shipment.deliveryAddress.zipCode === deliveryZipCode) &&
        (orderNumber === undefined || shipment.orderNumber === orderNumber) &&
        (bolNumbers.length === 0 || bolNumbers.includes(shipment.bolNumber)) &&
        (pros.size === 0 || (shipment.proNumber !== null && pros.has(normalisedProNumber(shipment.proNumber)))) &&
        (reference === undefined || (shipment.refNumber !== null && normalisedReference(shipment.refNumber) === reference)) &&
        inRange(shipment.createdAt, created),
    });
  }
}

/** Ids newest first from the created index, bucket by bucket: a page reads a bucket or two, not the whole directory. */
async function createdSource(store: FileStore, tx: FileTransaction | undefined): Promise<IdSource> {
  const buckets = (await store.indexKeys('created', tx)).sort().reverse();
  return async (before, limit) => {
    const ids: string[] = [];
    for (const bucket of buckets) {
      if (before !== undefined && bucket > createdBucketOf(before)) continue;
      const inBucket = (await store.lookup('created', bucket, tx))
        .filter((id) => before === undefined || id < before)
        .sort()
        .reverse();
      ids.push(...inBucket);
      if (ids.length > limit) break;
    }
    return { ids: ids.slice(0, limit), more: ids.length > limit };
  };
}

function inRange(instant: string, range: { from?: number | undefined; to?: number | undefined } | undefined): boolean {
  if (!range) return true;
  const time = Date.parse(instant);
  return (range.from === undefined || time >= range.from) && (range.to === undefined || time <= range.to);
}

class QuoteQueries implements QuoteWrites {
  constructor(
    private readonly store: FileStore,
    private readonly tx: FileTransaction | undefined,
  ) {}

  put(quote: Quote): void {
    if (!this.tx) throw new StoreError('quotes are written in a transaction');
    if (!QUOTE_ID.test(quote.id)) throw new StoreError(`bad quote id ${JSON.stringify(quote.id)}`);
    this.tx.quotePuts.set(quote.id, quote);
  }

  async get(id: string): Promise<Quote | undefined> {
    const pending = this.tx?.quotePuts.get(id);
    if (pending) return pending;
    if (!isSafeRecordId(id)) return undefined;
    // Not in its bucket: a file of an older store (one failed open when there is none; misses are rare).
    const stored = (QUOTE_ID.test(id) ? this.logged(id) : undefined) ?? (await this.store.files.get('quotes', id, quoteSchema));
    if (stored) return stored;
    if (!QUOTE_ID.test(id)) return undefined;
    // A quote-first booking's own quote lives in its shipment's file.
    const shipmentId = shipmentOfOwnQuote(id);
    const record = this.tx?.shipmentPuts.get(shipmentId) ?? (await this.store.storedShipment(shipmentId, storedShipmentSchema));
    return record?.quote?.id === id ? record.quote : undefined;
  }

  /** A quote of a bucket (the last line of its id), if any; a line that does not read is damage. */
  private logged(id: string): Quote | undefined {
    const bucket = secondBucket('quotes', id);
    return this.store.files.cachedInBucket(bucket, id, quoteSchema, () => this.readLogged(bucket, id));
  }

  private readLogged(bucket: string, id: string): Quote | undefined {
    return recordOfLine(this.store.logs.lastLine(bucket, 'i', id), 'q', quoteSchema, 'the quotes of', join(this.store.root, bucket));
  }

  list(filter: QuoteFilter, page: PageRequest): Promise<StorePage<Quote>> {
    const { companyId, created, deliveryZipCode, ids } = filter;
    return listPage(this.store.files, 'quotes', quoteSchema, (quote) => quote, page, {
      ids,
      idPattern: QUOTE_ID,
      oldest: created?.from,
      keep: (quote) =>
        (companyId === undefined || companyOf(quote) === companyId) &&
        (deliveryZipCode === undefined || quote.deliveryAddress.zipCode === deliveryZipCode) &&
        inRange(quote.createdAt, created),
      source: (before, limit) => this.newestIds(before, limit),
      get: (id) => this.get(id),
    });
  }

  /** Quote ids newest first (buckets by second, newest first; and the files of an older store), older than `before`. */
  private async newestIds(before: string | undefined, limit: number): Promise<{ ids: string[]; more: boolean }> {
    const names = await readdir(this.store.files.collectionDir('quotes')).catch(() => [] as string[]);
    const seconds = [...new Set(names.filter((name) => SECOND_BUCKET.test(name)).map((name) => name.slice(0, 8)))].sort().reverse();
    const ids: string[] = [];
    for (const second of seconds) {
      if (before !== undefined && second > before.slice(3, 11)) continue;
      // Every id of an older second is older than those found: a page and one more are enough.
      if (ids.length > limit) break;
      for (const name of names.filter((entry) => entry.startsWith(`${second}-`))) {
        for (const id of this.store.logs.firstFields(`quotes/${name}`, 'i')) if (QUOTE_ID.test(id) && (before === undefined || id < before)) ids.push(id);
      }
      ids.sort().reverse();
    }
    ids.push(...(await this.store.files.listIds('quotes', { limit: Number.MAX_SAFE_INTEGER, before })).ids);
    const newest = [...new Set(ids)].sort().reverse();
    return { ids: newest.slice(0, limit), more: newest.length > limit };
  }
}

class IdempotencyQueries implements IdempotencyWrites {
  constructor(
    private readonly store: FileStore,
    private readonly tx: FileTransaction | undefined,
  ) {}

  async get(scope: IdempotencyScope, key: string): Promise<IdempotencyRecord | undefined> {
    const id = idempotencyId(scope, key);
    const stored =
      this.tx?.idempotencyPuts.get(id) ??
      this.logged(id) ??
      (this.store.hasRecordFiles('idempotency') ? await this.store.files.get('idempotency', id, idempotencySchema) : undefined);
    return stored && withoutKey(stored);
  }

  /** The record of `id`: its last line in the pending log, else in its bucket; the pending log is read first (see PendingLines). */
  private logged(id: string): z.output<typeof idempotencySchema> | undefined {
    const start = idempotencyLineStart(id);
    const pending = this.store.logs.pending(IDEMPOTENCY_PENDING, IDEMPOTENCY_LINE_START, this.tx);
    const newest = pending?.linesOf(start).at(-1);
    if (pending?.damaged) throw new StoreError(`the idempotency records ${join(this.store.root, IDEMPOTENCY_PENDING)} are damaged`, join(this.store.root, IDEMPOTENCY_PENDING));
    if (newest !== undefined) return recordOfLine(newest, 'r', idempotencySchema, 'the idempotency records', join(this.store.root, IDEMPOTENCY_PENDING));
    const bucket = idempotencyBucket(id);
    // A bucket changes only when the pending log is merged into it, which ends by replacing the log
    // (a store without one yet: 0, until the first batch makes it).
    const version = pending?.ino ?? 0;
    let held = this.store.idempotencyBuckets.get(bucket);
    if (held?.version !== version) {
      // The buckets that exist, listed once a version: a new store's look-ups stat none.
      const keys = this.store.idempotencyBucketNames(version).has(bucket) ? this.store.logs.keysIn(bucket, IDEMPOTENCY_LINE_START) : undefined;
      // A damaged bucket is read line by line below, which says so.
      held = keys === 'damaged' ? undefined : { version, ids: keys === undefined ? null : idPrefixes(keys) };
      if (held) this.store.idempotencyBuckets.set(bucket, held);
    }
    if (held && (held.ids === null || !hasPrefix(held.ids, idPrefix(id)))) return undefined;
    const lines = this.store.logs.findLines(bucket, IDEMPOTENCY_LINE_START, start);
    return recordOfLine(lines === 'damaged' ? lines : lines?.at(-1), 'r', idempotencySchema, 'the idempotency records', join(this.store.root, bucket));
  }

  put(key: string, record: IdempotencyRecord): void {
    if (!this.tx) throw new StoreError('idempotency records are written in a transaction');
    this.tx.idempotencyPuts.set(idempotencyId(record.scope, key), { ...withoutKey(record), key });
  }

  /** Every record that kept its key (store export); older records, named only by the key's hash, cannot be carried. */
  async *entries(): AsyncIterable<{ key: string; record: IdempotencyRecord }> {
    const { ids } = await this.store.files.listIds('idempotency', { limit: Number.MAX_SAFE_INTEGER });
    for (const id of ids) {
      const stored = await this.store.files.get('idempotency', id, idempotencySchema);
      if (stored?.key !== undefined) yield { key: stored.key, record: withoutKey(stored) };
    }
    const names = (await readdir(this.store.files.collectionDir('idempotency')).catch(() => [] as string[])).filter(
      (name) => name.endsWith('.log') && `idempotency/${name}` !== IDEMPOTENCY_PENDING,
    );
    // The pending log is read first (see PendingLines) and its lines are newer than the buckets'.
    const pending = this.store.logs.all(IDEMPOTENCY_PENDING);
    const latest = (lines: unknown[] | undefined, into: Map<string, unknown>) => {
      // The last line of an id is its record.
      for (const line of lines ?? []) into.set(String((line as { h?: unknown }).h), (line as { r?: unknown }).r);
      return into;
    };
    const damaged = (name: string) => new StoreError(`the idempotency records ${join(this.store.root, 'idempotency', name)} are damaged`);
    if (pending === 'damaged') throw damaged('pending.log');
    const newer = latest(pending, new Map());
    const records = (values: Iterable<unknown>) =>
      [...values].flatMap((value) => {
        const stored = idempotencySchema.safeParse(value);
        return stored.success && stored.data.key !== undefined ? [{ key: stored.data.key, record: withoutKey(stored.data) }] : [];
      });
    for (const name of names.sort()) {
      const lines = this.store.logs.all(`idempotency/${name}`);
      if (lines === 'damaged') throw damaged(name);
      const bucket = latest(lines, new Map());
      for (const id of bucket.keys()) if (newer.has(id)) bucket.delete(id);
      yield* records(bucket.values());
    }
    yield* records(newer.values());
  }
}

/** An idempotency record's id (a sha256 in hex) as its first 32 bits. */
const idPrefix = (id: string) => parseInt(id.slice(0, 8), 16) >>> 0;

function idPrefixes(ids: readonly string[]): Uint32Array {
  return Uint32Array.from(ids, idPrefix).sort();
}

function hasPrefix(sorted: Uint32Array, prefix: number): boolean {
  let low = 0;
  let high = sorted.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! === prefix) return true;
    if (sorted[middle]! < prefix) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

function withoutKey(record: IdempotencyRecord & { key?: string | undefined }): IdempotencyRecord {
  const { key: _key, ...rest } = record;
  return rest;
}

function ledgerOf(records: IdempotencyReads): ImportLedger {
  return {
    async bookedUnder(contentKey) {
      const record = await records.get('shipment', contentKey);
      return record ? { shipmentId: record.resourceId, requestHash: record.requestHash } : undefined;
    },
  };
}

class EventQueries implements ShipmentEventWrites {
  constructor(
    private readonly store: FileStore,
    private readonly tx: FileTransaction | undefined,
  ) {}

  append(events: readonly ShipmentEventRecord[]): void {
    if (!this.tx) throw new StoreError('events are written in a transaction');
    for (const event of events) {
      if (!isSafeRecordId(event.shipmentId)) throw new StoreError(`bad record id ${JSON.stringify(event.shipmentId)}`);
      this.tx.eventAppends.push(z.parse(eventRecordSchema, event) as ShipmentEventRecord);
    }
  }

  async listByShipment(shipmentId: string): Promise<ShipmentEventRecord[]> {
    const stored = isSafeRecordId(shipmentId) ? ((await this.store.files.get('events', shipmentId, eventsFileSchema))?.events ?? []) : [];
    const pending = (this.tx?.eventAppends ?? []).filter((event) => event.shipmentId === shipmentId && !stored.some((known) => known.id === event.id));
    return [...stored, ...pending].sort((a, b) => a.occurredAt.localeCompare(b.occurredAt) || a.recordedAt.localeCompare(b.recordedAt) || a.id.localeCompare(b.id));
  }

  async findByMessageDigest(digest: string): Promise<ShipmentEventRecord[]> {
    const shipmentIds = await this.store.lookup('message', digest, this.tx);
    const pendingIds = (this.tx?.eventAppends ?? []).filter((event) => event.messageDigest === digest).map((event) => event.shipmentId);
    const events = await Promise.all([...new Set([...shipmentIds, ...pendingIds])].map((id) => this.listByShipment(id)));
    return events.flat().filter((event) => event.messageDigest === digest);
  }
}

class FuelPriceQueries implements FuelPriceWrites {
  constructor(
    private readonly store: FileStore,
    private readonly tx: FileTransaction | undefined,
  ) {}

  putMany(prices: readonly WeeklyFuelPrice[]): void {
    if (!this.tx) throw new StoreError('fuel prices are written in a transaction');
    for (const price of prices) {
      if (!WEEK.test(price.week)) throw new StoreError(`bad week ${JSON.stringify(price.week)}`);
      this.tx.fuelPuts.set(price.week, { week: price.week, usdPerGallon: price.usdPerGallon });
    }
  }

  async get(week: string): Promise<WeeklyFuelPrice | undefined> {
    if (!WEEK.test(week)) return undefined;
    return this.tx?.fuelPuts.get(week) ?? (await this.store.files.get('fuel-prices', week, fuelPriceSchema));
  }

  async list(range: { from?: string | undefined; to?: string | undefined } = {}): Promise<WeeklyFuelPrice[]> {
    const { ids } = await this.store.files.listIds('fuel-prices', { limit: Number.MAX_SAFE_INTEGER });
    const weeks = new Set([...ids.filter((id) => WEEK.test(id)), ...(this.tx?.fuelPuts.keys() ?? [])]);
    const prices = await Promise.all(
      [...weeks].filter((week) => (range.from === undefined || week >= range.from) && (range.to === undefined || week <= range.to)).map((week) => this.get(week)),
    );
    return prices.filter((price) => price !== undefined).sort((a, b) => a.week.localeCompare(b.week));
  }
}

// -----------------------------------------------------------------------------------------------
// The user's own records: written durably one by one (rare, small), not through the journal

/** Names are case-insensitive: "Chicago-DC" and "chicago-dc" are the same location. */
const locationId = (name: string) => name.toLowerCase();

class FileLocations implements LocationRepository {
  constructor(
    private readonly files: RecordFiles,
    private readonly writable: () => void,
  ) {}

  async get(name: string): Promise<SavedLocationRecord | undefined> {
    if (!isSafeRecordId(locationId(name))) return undefined;
    return this.files.get('locations', locationId(name), locationSchema);
  }

  async put(location: SavedLocationRecord): Promise<void> {
    this.writable();
    await this.files.put('locations', locationId(location.name), location);
  }

  async remove(name: string): Promise<boolean> {
    this.writable();
    if (!isSafeRecordId(locationId(name))) return false;
    return this.files.remove('locations', locationId(name));
  }

  async list(): Promise<{ locations: SavedLocationRecord[]; warnings: string[] }> {
    const ids = await this.names();
    const warnings: string[] = [];
    const locations: SavedLocationRecord[] = [];
    for (const id of ids) {
      try {
        const location = await this.files.get('locations', id, locationSchema);
        if (location) locations.push(location);
      } catch (error) {
        if (!(error instanceof StoreError)) throw error;
        warnings.push(error.message);
      }
    }
    return { locations, warnings };
  }

  async names(): Promise<string[]> {
    const { ids } = await this.files.listIds('locations', { limit: Number.MAX_SAFE_INTEGER });
    return ids.sort();
  }
}

class FileAuditedBills implements AuditedBillRepository {
  constructor(
    private readonly files: RecordFiles,
    private readonly writable: () => void,
  ) {}

  async list(): Promise<{ records: unknown[]; warnings: string[] }> {
    const { ids } = await this.files.listIds('audited-bills', { limit: Number.MAX_SAFE_INTEGER });
    const warnings: string[] = [];
    const records: unknown[] = [];
    for (const id of ids) {
      try {
        const record = await this.files.get('audited-bills', id, z.unknown());
        if (record !== undefined) records.push(record);
      } catch (error) {
        if (!(error instanceof StoreError)) throw error;
        warnings.push(error.message);
      }
    }
    return { records, warnings };
  }

  async putMany(records: ReadonlyArray<{ billKey: string; record: unknown }>): Promise<void> {
    this.writable();
    // The last of a bill in a run is the one kept.
    const byId = new Map(records.map(({ billKey, record }) => [hashOf(billKey), record]));
    await this.files.putMany(
      'audited-bills',
      [...byId].map(([id, record]) => ({ id, record })),
    );
  }
}

const printRunSchema = z.object({ id: z.string(), scope: z.string(), open: z.boolean(), record: z.unknown() });

/** Print runs: a file each in `print-runs`, named by the run's ULID (newest last by name). */
class FilePrintRuns implements PrintRunRepository {
  constructor(
    private readonly files: RecordFiles,
    private readonly writable: () => void,
  ) {}

  async get(id: string): Promise<PrintRunRecord | undefined> {
    if (!isSafeRecordId(id)) return undefined;
    return this.files.get('print-runs', id, printRunSchema) as Promise<PrintRunRecord | undefined>;
  }

  async put(run: PrintRunRecord): Promise<void> {
    this.writable();
    if (!isSafeRecordId(run.id)) throw new StoreError(`print run id ${run.id} cannot name a file`, this.files.collectionDir('print-runs'));
    await this.files.put('print-runs', run.id, run);
  }

  async lastOpen(scope: string): Promise<PrintRunRecord | undefined> {
    // Newest first; a damaged record is skipped (the newest open run that reads is the one resumed).
    const { ids } = await this.files.listIds('print-runs', { limit: Number.MAX_SAFE_INTEGER });
    for (const id of ids) {
      const run = await this.files.get('print-runs', id, printRunSchema).catch((error: unknown) => {
        if (error instanceof StoreError) return undefined;
        throw error;
      });
      if (run && run.scope === scope && run.open) return run as PrintRunRecord;
    }
    return undefined;
  }
}

/** A shipment's line read by `schema`; a line that does not read is a StoreError naming the file, the shipment and what is wrong. */
function shipmentOfLine<S extends z.ZodType>(file: string, id: string, line: string | 'damaged', schema: S): z.output<S> {
  const damaged = (reason: string) => new StoreError(`store file ${file} is damaged (shipment ${id}: ${reason}); restore it from a backup`, file);
  if (line === 'damaged') throw damaged("a line of it is no shipment's and may be this one's");
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch (error) {
    throw damaged(jsonSyntaxProblem(error, line));
  }
  const record = parseStored(schema, (json as { s?: unknown }).s);
  if (!record.success) throw damaged('it does not hold a valid record');
  return record.data as z.output<S>;
}

/**
 * The keys of a damaged shipment, as far as they can be read from its text: its order and BOL
 * numbers stay findable, so a look-up says the record is damaged instead of "not found".
 */
function salvageKeys(id: string, text: string): z.output<typeof lenientKeysSchema> {
  const field = (name: string) => new RegExp(`"${name}"\\s*:\\s*"([^"\\\\]{1,64})"`).exec(text)?.[1];
  return { id, orderNumber: field('orderNumber'), bolNumber: field('bolNumber'), proNumber: field('proNumber'), refNumber: field('refNumber') };
}

/**
 * The record a bucket's line holds in `field` (the last line of its key), read by its schema:
 * undefined when there is no line; a line that does not read is damage (a StoreError naming `what` and the file).
 */
function recordOfLine<S extends z.ZodType>(line: string | undefined | 'damaged', field: string, schema: S, what: string, file: string): z.output<S> | undefined {
  if (line === undefined) return undefined;
  let record: z.ZodSafeParseResult<z.output<S>> | undefined;
  try {
    record = line === 'damaged' ? undefined : parseStored(schema, (JSON.parse(line) as Record<string, unknown>)[field]);
  } catch {
    record = undefined;
  }
  if (!record?.success) throw new StoreError(`${what} ${file} are damaged`, file);
  return record.data as z.output<S>;
}

/** Why a store directory that exists and reads cannot be written (a read-only mount, no permission), or undefined when it can, or is no readable directory. */
function readOnlyReason(root: string): string | undefined {
  try {
    if (!fs.statSync(root).isDirectory()) return undefined;
    fs.accessSync(root, fs.constants.R_OK | fs.constants.X_OK);
    fs.accessSync(root, fs.constants.W_OK);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'EROFS' || code === 'EACCES' || code === 'EPERM' ? describeFileError(error) : undefined;
  }
}

function checkOf(journal: string, scan: JournalScan): JournalCheck {
  return { journal, bytes: scan.size, applied: scan.applied, pendingLines: scan.pending.length, tail: scan.tail ?? null, damage: scan.damage ?? null };
}

/** A shipment's state against a list filter: a state, ACTIVE (any but CANCELLED), or none. */
function statusMatches(state: Shipment['orderStatus'], wanted: ShipmentStatus | undefined): boolean {
  return wanted === undefined || (wanted === 'ACTIVE' ? state !== 'CANCELLED' : state === wanted);
}
