/**
 * `shipper import`: batch shipments from a CSV file through any ShipperApi.
 *
 * Two streaming passes over the file, so memory stays flat however long it is:
 *   1. check: every row is read, grouped, validated with the API's schemas and (unless only
 *      --skip-invalid rows are at stake) priced by the API without booking. A file with any
 *      invalid shipment stops here with every problem listed: nothing is booked.
 *      --dry-run stops here in any case.
 *   2. book: what the check read is booked in chunks (LocalApi: one lock and a few rounds of
 *      parallel writes per chunk; remote: one POST per shipment), each shipment with an
 *      idempotency key derived from its content, so that a re-import or a re-run after a crash
 *      returns the shipments already booked instead of booking them twice. A file of at most
 *      RETAINED_ROWS rows is kept in memory by the check (the requests, their keys), and the
 *      booking books those, the very requests the check judged (LocalApi keeps its judgement of
 *      each request object; bookingChecks.ts). A longer one is spilled by the check to a
 *      temporary file and read back from it (spill.ts): the file is not read, grouped, prepared
 *      and keyed twice. A file with split shipments is read again (the booking refuses them whole).
 */
import { warning, type Warning } from '../domain/warnings.js';
import { LINE_PREFIX } from '../domain/freightCheck.js';
import type { ShipperApi } from '../api/types.js';
import { ShipperError, type ErrorCode } from '../domain/errors.js';
import type { ProblemDetail } from '../domain/schemas.js';
import { ImportFileError, inspectCsvFile, openCsvFile, type CsvEncoding, type CsvReading } from './csvFile.js';
import { RejectFile, rejectFileBom } from './rejectFile.js';
import { DigestTable } from './digestTable.js';
import { fileShipments, type FileShipment } from './fileShipments.js';
import { locateViolations } from './locate.js';
import { Spill } from './spill.js';
import type { CsvViolation, CsvWarning, RowGroup } from './rows.js';
import type { LocationResolver, PreparedShipment } from './shipmentRows.js';

export interface ImportOptions {
  file: string;
  dryRun?: boolean | undefined;
  skipInvalid?: boolean | undefined;
  /** Where rejected rows are written: by --skip-invalid (the rows not booked), else (when given) the rows that stopped the import or that --dry-run found invalid. */
  rejectsFile?: string | undefined;
  /** Book shipments whose refNumber a booked shipment already has (default: refuse them, naming it). */
  allowDuplicateRef?: boolean | undefined;
  /**
   * Confirm each order as it is created (default true): one that passes the published confirm
   * checks is CONFIRMED; one that lacks what they need (a contact, a phone) is still created,
   * INITIALIZED, with a NOT_CONFIRMED warning on its row. false (--no-confirm): all INITIALIZED.
   */
  confirm?: boolean | undefined;
  /** Shipments per API batch (one lock and one round of writes in local mode). */
  chunkSize?: number | undefined;
  /** A file of at most this many rows is kept in memory for the booking, a longer one in a temporary file (default RETAINED_ROWS). */
  retainedRows?: number | undefined;
  /** Where the temporary file of a long file's booking is made (default: the system's temporary directory). */
  spillDirectory?: string | undefined;
  /** Read the file in this encoding (--encoding); default: detected (byte order mark, UTF-8, else Windows-1252). */
  encoding?: CsvEncoding | undefined;
  /** Today's date (YYYY-MM-DD) at an origin ZIP, for pickup dates written in words or as 11/27; default: today in UTC. */
  todayAt?: ((originPostalCode: string | undefined) => string) | undefined;
  /** The carrier's name for a SCAC given without a carrier name (the carriers' settings). */
  carrierNameOf?: ((scac: string) => string | undefined) | undefined;
  /**
   * Aborted (Ctrl-C): the check stops at once (nothing was booked); booking stops after the chunk
   * being booked, so that the summary says what was booked and a re-run finishes the rest.
   */
  signal?: AbortSignal | undefined;
}

/** The user stopped the import (Ctrl-C); `summary` says what was booked before it stopped. */
export class ImportCancelledError extends ShipperError {
  readonly code: ErrorCode = 'IMPORT_CANCELLED';

  constructor(readonly summary: ImportSummary | undefined) {
    const done = summary ? summary.booked + summary.alreadyBooked : 0;
    super(
      summary
        ? `import stopped by Ctrl-C with ${done.toLocaleString('en-US')} shipment${done === 1 ? '' : 's'} booked; run the same command again to book the rest (nothing is booked twice)`
        : 'import cancelled while checking; nothing was booked',
    );
    this.name = 'ImportCancelledError';
  }
}

export type ImportPhase = 'checking' | 'booking';

export interface ImportedShipment {
  /** First line of the shipment's rows. */
  line: number;
  rows: number;
  refNumber: string | null;
  /** booked: now; already-booked: by an earlier import of the same shipment; valid: --dry-run. */
  status: 'booked' | 'already-booked' | 'valid';
  id?: string | undefined;
  orderNumber?: string | undefined;
  bolNumber?: string | undefined;
  quotedPriceInCents: number;
  transitDays: number | null;
  /** Booked: the order's state (CONFIRMED, or INITIALIZED when not confirmed); absent for --dry-run. */
  orderStatus?: string | undefined;
  /** What the check or the booking warned about for this shipment (the freight check's included); absent when nothing. */
  warnings?: Warning[] | undefined;
}

/** How far a pass is. */
export interface ImportProgress {
  phase: ImportPhase;
  /** checking: bytes of the file checked; booking: shipments booked, found booked already, or refused. */
  done: number;
  /** checking: the file's size in bytes; booking: the shipments to book (the valid ones of the check). */
  total: number;
  /** Shipments read so far (checking), or `done` (booking). */
  shipments: number;
}

export interface ImportListener {
  /** A pass starts; `total` as in ImportProgress. */
  phase?(phase: ImportPhase, total: number): void;
  progress?(progress: ImportProgress): void;
  shipment?(shipment: ImportedShipment): void;
  /** A coded warning; `csvLine` is the CSV line it concerns, when one does. */
  warning?(warning: Warning, csvLine?: number): void;
}

export interface ImportSummary {
  file: string;
  dryRun: boolean;
  rows: number;
  shipments: number;
  /** Booked by this run. */
  booked: number;
  /** Recognised as booked by an earlier import (nothing booked twice). */
  alreadyBooked: number;
  /** Of the booked and already booked: CONFIRMED (or later); --dry-run: of the valid, those the booking would confirm. */
  confirmed: number;
  /** Of the booked and already booked: left INITIALIZED (--no-confirm, or lacking what confirm needs: a NOT_CONFIRMED warning each); --dry-run: of the valid, those it would leave so. */
  initialized: number;
  /** --dry-run: valid and priced. */
  valid: number;
  rejectedShipments: number;
  rejectedRows: number;
  /** Sum of the prices of the shipments booked by this run (--dry-run: of the valid ones). */
  totalPriceInCents: number;
  rejectsFile: string | null;
  /** The first problems found (at most MAX_LISTED_VIOLATIONS); `moreViolations` counts the rest. */
  violations: CsvViolation[];
  moreViolations: number;
  /** How many warnings of each code the shipments earned (the freight check's included), by code. */
  warnings: Record<string, number>;
}

export const MAX_LISTED_VIOLATIONS = 100;
/** Warnings (a ZIP padded with its lost zero) printed one per line; the rest are counted. */
export const MAX_LISTED_WARNINGS = 20;
const DEFAULT_CHUNK = 500;
/** Also cut a chunk after this many rows, so that shipments of many rows keep memory flat too. */
const CHUNK_ROWS = 5000;
/** A file of at most this many rows is kept in memory by the check for the booking (about 3.5 KB a row: 35 MB at most); a longer one goes to a temporary file, so memory stays flat. */
export const RETAINED_ROWS = 10_000;

/** The file has invalid shipments and nothing was booked (default all-or-nothing mode). */
export class ImportRejectedError extends ShipperError {
  readonly code: ErrorCode = 'IMPORT_REJECTED';

  constructor(readonly summary: ImportSummary) {
    super(`${summary.file}: ${summary.rejectedShipments} of ${summary.shipments} shipments are invalid; nothing was imported`);
    this.name = 'ImportRejectedError';
  }

  /** Every violation listed (up to MAX_LISTED_VIOLATIONS), with the counts. */
  override get problem(): ProblemDetail {
    const { violations, rejectedShipments, shipments, moreViolations } = this.summary;
    return { ...super.problem, violations, rejectedShipments, shipments, moreViolations } as ProblemDetail;
  }
}

/**
 * Booking stopped part-way (a rejection that the check did not predict, a store or network
 * failure). A described cause gives its exit code and its problem (a store failure is 5, a server
 * down 3), with this message and the violations found so far.
 */
export class ImportInterruptedError extends ShipperError {
  readonly code: ErrorCode = 'IMPORT_INTERRUPTED';

  constructor(
    message: string,
    readonly summary: ImportSummary,
    override readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'ImportInterruptedError';
  }

  override exitCode(): number {
    return this.cause instanceof ShipperError ? this.cause.exitCode() : super.exitCode();
  }

  override get problem(): ProblemDetail {
    const base = this.cause instanceof ShipperError ? this.cause.problem : super.problem;
    return { ...base, detail: this.message, violations: this.summary.violations };
  }

  /** The message says it all (the cause's internal detail included): the import runs in the user's process. */
  override get internalDetail(): string | undefined {
    return undefined;
  }
}

interface ScanState {
  summary: ImportSummary;
  rejects: RejectFile | undefined;
  /** SHA-256 of the file's bytes, known once the checking pass has read it all. */
  fileHash: string | undefined;
  /** How many shipments of each content the file has had so far (the second identical order is `#2`), by digest. */
  occurrences: DigestTable;
  /** The import key of each valid shipment of the chunks in hand (see importKeyOf). */
  keys: Map<PreparedShipment, string>;
  /** Grouping keys whose rows are not next to each other: found by the check, refused whole by the booking. */
  splitKeys: Set<string>;
  /** Booking: shipments booked, found booked already or refused by the API, for the progress. */
  handled: number;
  warnings: number;
  /** NOT_CONFIRMED warnings met so far: the first MAX_LISTED_WARNINGS are listed, the rest counted (a file without contact columns has one per order). */
  notConfirmed: number;
  /** The request sent to the API for each valid shipment of the chunks in hand (withPolicy). */
  requests: Map<PreparedShipment, Record<string, unknown>>;
  /** Checking: every shipment read, while the file is short enough (RETAINED_ROWS); undefined past that (then in the spill). */
  retained: FileShipment[] | undefined;
  retainedRows: number;
  /** The reading of the file (its header and delimiter). */
  reading: CsvReading | undefined;
}

export async function importShipments(api: ShipperApi, locations: LocationResolver, options: ImportOptions, listener: ImportListener = {}): Promise<ImportSummary> {
  const { file } = options;
  const dryRun = Boolean(options.dryRun);
  const skipInvalid = Boolean(options.skipInvalid);
  const identity = await inspectCsvFile(file);
  // The check's spill, if the file is long: removed however the import ends.
  const kept: { spill: Spill | undefined } = { spill: undefined };
  try {
    // Pass 1: check (and price) everything before anything is booked.
    listener.phase?.('checking', identity.size);
    const checked = await scan('checking', { api, locations, options, listener, dryRun, skipInvalid, fileSize: identity.size, retain: !dryRun, kept });
    if (checked.summary.rows === 0) throw new ImportFileError(`${file} has a header row but no shipment rows`);
    if (dryRun) return checked.summary;
    if (!skipInvalid && checked.summary.rejectedShipments > 0) throw new ImportRejectedError(checked.summary);
    const fileHash = checked.fileHash;
    // The booking pass counts occurrences and groups anew: the check's per-shipment table goes now, so
    // that the two passes never hold theirs at once (only the split keys, usually none, are kept).
    checked.occurrences = new DigestTable();

    // Pass 2: book. The file must be the one that was checked.
    const now = await inspectCsvFile(file);
    if (now.size !== identity.size || now.mtimeMs !== identity.mtimeMs) {
      throw new ImportFileError(`${file} changed while it was being checked; nothing was imported, run the import again`);
    }
    // The check found every shipment that the file holds, so booking counts shipments, not bytes.
    const toBook = checked.summary.shipments - checked.summary.rejectedShipments;
    listener.phase?.('booking', toBook);
    // What the check kept (in memory or spilled) is booked as it was checked; a file that had split
    // shipments is read again (their first rows, accepted by the check, are refused by the booking).
    const shipments = checked.retained ? shipmentsKept(checked.retained) : kept.spill?.read();
    const retained = checked.splitKeys.size === 0 && shipments && checked.reading ? { shipments, reading: checked.reading } : undefined;
    checked.retained = undefined;
    return (await scan('booking', { api, locations, options, listener, dryRun, skipInvalid, fileHash, fileSize: identity.size, toBook, splitKeys: checked.splitKeys, retained }))
      .summary;
  } finally {
    await kept.spill?.close();
  }
}

/** The shipments the check kept in memory, handed out once: what is booked is let go. */
async function* shipmentsKept(kept: FileShipment[]): AsyncIterable<FileShipment> {
  for (let index = 0; index < kept.length; index++) {
    yield kept[index]!;
    kept[index] = undefined as unknown as FileShipment;
  }
}

interface ScanContext {
  fileHash?: string | undefined;
  /** The file's size in bytes (the checking pass's total). */
  fileSize: number;
  /** Booking: the shipments to book. */
  toBook?: number | undefined;
  api: ShipperApi;
  locations: LocationResolver;
  options: ImportOptions;
  listener: ImportListener;
  dryRun: boolean;
  skipInvalid: boolean;
  /** Booking: the grouping keys the check found split (refused whole). */
  splitKeys?: Set<string> | undefined;
  /** Checking: keep the shipments read for the booking (in memory while the file is short enough, else spilled). */
  retain?: boolean | undefined;
  /** Checking: holds the spill once the file is too long to keep in memory (its owner closes it). */
  kept?: { spill: Spill | undefined } | undefined;
  /** Booking: the shipments the check kept, booked instead of reading the file again. */
  retained?: { shipments: AsyncIterable<FileShipment>; reading: CsvReading } | undefined;
}

async function scan(phase: ImportPhase, context: ScanContext): Promise<ScanState> {
  const { options, listener } = context;
  const reading = context.retained?.reading ?? (await openCsvFile(options.file, { encoding: options.encoding }));
  // The pass that decides writes the rejects: booking with --skip-invalid, else the check.
  const writesRejects = options.rejectsFile !== undefined && (phase === 'booking' ? context.skipInvalid && !context.dryRun : context.dryRun || !context.skipInvalid);
  const state: ScanState = {
    summary: emptySummary(options.file, context.dryRun),
    // A file that was not UTF-8 gets a UTF-8 reject file with a BOM, so that Excel reads its names right.
    rejects: writesRejects ? new RejectFile(options.rejectsFile!, reading.header.cells, reading.delimiter, rejectFileBom(reading)) : undefined,
    fileHash: context.fileHash,
    occurrences: new DigestTable(),
    keys: new Map(),
    splitKeys: context.splitKeys ?? new Set(),
    handled: 0,
    warnings: 0,
    notConfirmed: 0,
    requests: new Map(),
    retained: context.retain ? [] : undefined,
    retainedRows: 0,
    reading,
  };
  const cells = { delimiter: reading.delimiter, todayAt: options.todayAt, carrierNameOf: options.carrierNameOf };
  const chunkSize = Math.max(1, options.chunkSize ?? DEFAULT_CHUNK);
  const handle = phase === 'checking' ? checkChunk : bookChunk;
  // One chunk is booked while the next is read and validated: the writes of the one (the I/O
  // threads) overlap the parsing of the other (the main thread). Chunks are handled in file order.
  let inFlight: Promise<void> | undefined;
  const submit = async (chunk: PreparedShipment[]) => {
    await inFlight;
    inFlight = handle(chunk, state, context, reading);
    // Handled when awaited (next chunk or the end); this keeps a failure from counting as unhandled meanwhile.
    inFlight.catch(() => undefined);
    if (phase === 'checking') await inFlight;
  };
  // The shipments of the file, read (and, booking, split ones refused) or as the check kept them.
  const shipmentsOfFile = () =>
    fileShipments(reading, {
      locations: context.locations,
      cells,
      allowDuplicateRef: Boolean(options.allowDuplicateRef),
      occurrences: state.occurrences,
      splitKeys: state.splitKeys,
      booking: phase === 'booking',
    });
  // The check keeps what it read for the booking: in memory up to RETAINED_ROWS rows, then in a
  // spill (what was kept so far included). Nothing more is kept after a split shipment (the file
  // is read again), a refused one (nothing is booked, unless --skip-invalid), or a spill that
  // cannot be made or written (a full or read-only temporary directory: the file is read again,
  // as before spills; slower, not wrong).
  let keeping = true;
  const stopKeeping = async () => {
    keeping = false;
    state.retained = undefined;
    const spill = context.kept!.spill;
    context.kept!.spill = undefined;
    await spill?.close();
  };
  const keep = async (shipment: FileShipment, rows: number) => {
    if (!keeping) return;
    // A file with a shipment refused by the check is not booked at all (unless --skip-invalid).
    if (state.splitKeys.size > 0 || (!context.skipInvalid && state.summary.rejectedShipments > 0)) return stopKeeping();
    const owner = context.kept!;
    state.retainedRows += rows;
    try {
      if (state.retained && state.retainedRows > (options.retainedRows ?? RETAINED_ROWS)) {
        owner.spill = await Spill.create(options.spillDirectory);
        for (const earlier of state.retained) await owner.spill.write(earlier);
        state.retained = undefined;
      }
      if (state.retained) state.retained.push(shipment);
      else await owner.spill?.write(shipment);
    } catch {
      await stopKeeping();
    }
  };
  let chunk: PreparedShipment[] = [];
  let chunkRows = 0;
  try {
    for await (const shipment of context.retained ? context.retained.shipments : shipmentsOfFile()) {
      const { prepared, key, request } = shipment;
      const { group } = prepared;
      if (options.signal?.aborted) throw new ImportCancelledError(undefined);
      state.summary.rows += group.rows.length;
      state.summary.shipments++;
      if (key !== undefined && request !== undefined) {
        state.keys.set(prepared, key);
        state.requests.set(prepared, request);
      }
      if (context.retain) await keep(shipment, group.rows.length);
      // Warnings are the check's to give (the booking pass reads the same cells again).
      if (phase === 'checking') for (const warning of prepared.warnings) warn(state, listener, warning);
      chunk.push(prepared);
      chunkRows += group.rows.length;
      if (chunk.length >= chunkSize || chunkRows >= CHUNK_ROWS) {
        await submit(chunk);
        chunk = [];
        chunkRows = 0;
      }
      if (phase === 'checking') {
        // Short of the end until the last shipment is counted: its group is complete only once the file has ended.
        const done = Math.min(context.fileSize - 1, Math.floor(reading.fractionRead() * context.fileSize));
        listener.progress?.({ phase, done, total: context.fileSize, shipments: state.summary.shipments });
      }
    }
    if (options.signal?.aborted && chunk.length > 0) throw new ImportCancelledError(undefined);
    await submit(chunk);
    await inFlight;
    if (state.notConfirmed > MAX_LISTED_WARNINGS) {
      const more = state.notConfirmed - MAX_LISTED_WARNINGS;
      listener.warning?.(
        warning('MORE_WARNINGS', `... and ${more} more NOT_CONFIRMED warnings like these (the summary counts every order left INITIALIZED; --json names what each lacks)`),
      );
    }
    if (phase === 'checking') {
      listener.progress?.({ phase, done: context.fileSize, total: context.fileSize, shipments: state.summary.shipments });
      if (state.warnings > MAX_LISTED_WARNINGS) listener.warning?.(warning('MORE_WARNINGS', `... and ${state.warnings - MAX_LISTED_WARNINGS} more warnings like these`));
      state.fileHash = reading.digest();
    } else if (!context.retained && reading.digest() !== state.fileHash)
      listener.warning?.(warning('FILE_CHANGED', `${options.file} changed while it was being imported; import it again to check that every shipment is booked`));
    state.summary.rejectsFile = (await state.rejects?.commit()) ?? null;
    return state;
  } catch (error) {
    reading.close();
    // Let a booking in flight finish (its shipments are counted) before reporting.
    await inFlight?.catch(() => undefined);
    await state.rejects?.discard();
    // A cancelled booking reports what the chunks booked before it (and the one in flight) booked.
    if (error instanceof ImportCancelledError) throw phase === 'booking' ? new ImportCancelledError(state.summary) : error;
    if (phase === 'booking' && !(error instanceof ImportInterruptedError) && !(error instanceof ImportFileError)) {
      throw new ImportInterruptedError(interruptedMessage(state.summary, describeError(error)), state.summary, error);
    }
    throw error;
  }
}

async function checkChunk(chunk: PreparedShipment[], state: ScanState, context: ScanContext, reading: CsvReading): Promise<void> {
  const valid = chunk.filter((prepared): prepared is Extract<PreparedShipment, { ok: true }> => prepared.ok);
  for (const prepared of chunk) if (!prepared.ok) await reject(state, prepared.group, prepared.violations);
  const keys = valid.map((prepared) => state.keys.get(prepared));
  const requests = valid.map((prepared) => state.requests.get(prepared)!);
  for (const prepared of chunk) {
    state.keys.delete(prepared);
    state.requests.delete(prepared);
  }
  // With --skip-invalid a booking run prices while it books; the check only has to find file-level errors.
  const prices = context.dryRun || !context.skipInvalid;
  if (!prices || valid.length === 0) return;
  // With their keys: shipments an earlier import booked come back as such, not as duplicates of themselves.
  const {
    data: { items: outcomes },
  } = await context.api.previewShipments({
    // A dry run asks what the booking's confirm would find (a NOT_CONFIRMED warning: it would stay INITIALIZED).
    items: valid.map((_prepared, index) => ({
      request: requests[index]!,
      idempotencyKey: keys[index],
      ...(context.dryRun && context.options.confirm !== false ? { confirm: true } : {}),
    })),
    // The booking gives the freight check's warnings; only --dry-run reports the check's.
    freightCheck: context.dryRun,
  });
  for (const [index, outcome] of outcomes.entries()) {
    const prepared = valid[index]!;
    if (!outcome.ok) {
      await reject(state, prepared.group, violationsOfProblem(outcome.problem, prepared.group, reading));
      continue;
    }
    if (!context.dryRun) continue;
    const warnings = shipmentWarnings(state, context, prepared.group, outcome.warnings);
    if (outcome.replayed) state.summary.alreadyBooked++;
    else {
      state.summary.valid++;
      state.summary.totalPriceInCents += outcome.data.quotedPriceInCents;
      // What the booking would leave: confirmed, or INITIALIZED (--no-confirm, or a NOT_CONFIRMED warning).
      if (context.options.confirm === false || outcome.warnings.some((item) => item.code === 'NOT_CONFIRMED')) state.summary.initialized++;
      else state.summary.confirmed++;
    }
    context.listener.shipment?.({
      line: prepared.group.rows[0]!.line,
      rows: prepared.group.rows.length,
      refNumber: typeof prepared.request.refNumber === 'string' && prepared.request.refNumber.trim() ? prepared.request.refNumber.trim() : null,
      status: outcome.replayed ? 'already-booked' : 'valid',
      quotedPriceInCents: outcome.data.quotedPriceInCents,
      transitDays: outcome.data.transitDays,
      ...(warnings.length > 0 ? { warnings } : {}),
    });
  }
}

async function bookChunk(chunk: PreparedShipment[], state: ScanState, context: ScanContext, reading: CsvReading): Promise<void> {
  const valid = chunk.filter((prepared): prepared is Extract<PreparedShipment, { ok: true }> => prepared.ok);
  const invalid = chunk.filter((prepared): prepared is Extract<PreparedShipment, { ok: false }> => !prepared.ok);
  if (!context.skipInvalid && invalid.length > 0) {
    // The check passed, so the file or the saved locations changed since: book nothing more.
    for (const prepared of invalid) await reject(state, prepared.group, prepared.violations);
    throw new ImportInterruptedError(interruptedMessage(state.summary, describeRejection(state.summary)), state.summary);
  }
  for (const prepared of invalid) await reject(state, prepared.group, prepared.violations);
  if (valid.length === 0) return;

  const {
    data: { items: outcomes },
    warnings,
  } = await context.api.createShipments({
    items: valid.map((prepared) => ({
      request: state.requests.get(prepared)!,
      idempotencyKey: state.keys.get(prepared),
      ...(context.options.confirm !== false ? { confirm: true } : {}),
    })),
  });
  for (const prepared of chunk) {
    state.keys.delete(prepared);
    state.requests.delete(prepared);
  }
  warnings.forEach((item) => context.listener.warning?.(item));
  let unexpected = false;
  for (const [index, outcome] of outcomes.entries()) {
    const prepared = valid[index]!;
    if (!outcome.ok) {
      await reject(state, prepared.group, violationsOfProblem(outcome.problem, prepared.group, reading));
      unexpected = true;
      continue;
    }
    const warnings = shipmentWarnings(state, context, prepared.group, outcome.warnings);
    const shipment = outcome.data;
    if (outcome.replayed) state.summary.alreadyBooked++;
    else {
      state.summary.booked++;
      state.summary.totalPriceInCents += shipment.totalPriceInCents;
    }
    if (shipment.orderStatus === 'INITIALIZED') state.summary.initialized++;
    else if (shipment.orderStatus !== 'CANCELLED') state.summary.confirmed++;
    context.listener.shipment?.({
      line: prepared.group.rows[0]!.line,
      rows: prepared.group.rows.length,
      refNumber: shipment.refNumber,
      status: outcome.replayed ? 'already-booked' : 'booked',
      id: shipment.id,
      orderNumber: shipment.orderNumber,
      bolNumber: shipment.bolNumber,
      quotedPriceInCents: shipment.totalPriceInCents,
      transitDays: shipment.transitDays,
      orderStatus: shipment.orderStatus,
      ...(warnings.length > 0 ? { warnings } : {}),
    });
  }
  state.handled += valid.length;
  context.listener.progress?.({ phase: 'booking', done: state.handled, total: context.toBook ?? state.handled, shipments: state.handled });
  if (unexpected && !context.skipInvalid) {
    throw new ImportInterruptedError(interruptedMessage(state.summary, describeRejection(state.summary)), state.summary);
  }
}

function warn(state: ScanState, listener: ImportListener, cell: CsvWarning): void {
  state.warnings++;
  if (state.warnings <= MAX_LISTED_WARNINGS) listener.warning?.(warning('ZIP_PADDED', cell.message, { detail: { column: cell.column } }), cell.line);
}

/**
 * A shipment's warnings from the API: counted by code in the summary and passed on, each with the
 * CSV line of the component it concerns (else the shipment's first line).
 */
function shipmentWarnings(state: ScanState, context: ScanContext, group: RowGroup, warnings: readonly Warning[]): Warning[] {
  for (const item of warnings) {
    state.summary.warnings[item.code] = (state.summary.warnings[item.code] ?? 0) + 1;
    if (item.code === 'NOT_CONFIRMED' && ++state.notConfirmed > MAX_LISTED_WARNINGS) continue;
    const row = group.rows[item.line ?? 0] ?? group.rows[0]!;
    // The CSV line names the component: "line 7: not stackable", not "line 7: line 2: not stackable".
    context.listener.warning?.(item.line === undefined ? item : { ...item, message: item.message.replace(LINE_PREFIX, '') }, row.line);
  }
  return [...warnings];
}

async function reject(state: ScanState, group: RowGroup, violations: CsvViolation[]): Promise<void> {
  const { summary } = state;
  summary.rejectedShipments++;
  summary.rejectedRows += group.rows.length;
  for (const violation of violations) {
    if (summary.violations.length < MAX_LISTED_VIOLATIONS) summary.violations.push(violation);
    else summary.moreViolations++;
  }
  await state.rejects?.write(group, violations);
}

function violationsOfProblem(problem: ProblemDetail, group: RowGroup, reading: CsvReading): CsvViolation[] {
  if (problem.reason === 'idempotency_key_conflict') {
    const message = 'an earlier import of this same file booked this shipment with other data (has a saved location changed since?); it was not booked again';
    return [{ line: group.rows[0]!.line, column: null, field: '(shipment)', reason: message }];
  }
  const violations = problem.violations?.length ? problem.violations : [{ field: '(shipment)', reason: problem.detail ?? problem.title }];
  return locateViolations(violations, group, reading.header);
}

function emptySummary(file: string, dryRun: boolean): ImportSummary {
  return {
    file,
    dryRun,
    rows: 0,
    shipments: 0,
    booked: 0,
    alreadyBooked: 0,
    confirmed: 0,
    initialized: 0,
    valid: 0,
    rejectedShipments: 0,
    rejectedRows: 0,
    totalPriceInCents: 0,
    rejectsFile: null,
    violations: [],
    moreViolations: 0,
    warnings: {},
  };
}

function describeRejection(summary: ImportSummary): string {
  const first = summary.violations[0];
  return first ? `line ${first.line}${first.column ? `, column ${first.column}` : ''}: ${first.reason}` : 'a shipment was rejected';
}

/** The importer runs in the user's process: a store failure names its file (the server only logs it). */
function describeError(error: unknown): string {
  if (error instanceof ShipperError && error.internalDetail) return error.internalDetail;
  return error instanceof Error ? error.message : String(error);
}

function interruptedMessage(summary: ImportSummary, reason: string): string {
  const done = summary.booked + summary.alreadyBooked;
  return `the import stopped after ${done} shipment${done === 1 ? '' : 's'} (${reason}); run it again to finish: shipments already booked are recognised and not booked twice`;
}
