/**
 * `shipper import`: batch shipments from a CSV file through any ShipperApi.
 *
 * Two streaming passes over the file, so memory stays flat however long it is:
 *   1. check: every row is read, grouped, validated with the API's schemas and (unless only
 *      --skip-invalid rows are at stake) priced by the API without booking. A file with any
 *      invalid shipment stops here with every problem listed: nothing is booked.
 *      --dry-run stops here in any case.
 *   2. book: the file is read again and booked in chunks (LocalApi: one lock and a few rounds of
 *      parallel writes per chunk; remote: one POST per shipment), each shipment with an
 *      idempotency key derived from its content, so that a re-import or a re-run after a crash
 *      returns the shipments already booked instead of booking them twice.
 */
import { bookShipments, previewShipments } from '../api/batch.js';
import type { ShipperApi } from '../api/types.js';
import type { ProblemDetail } from '../domain/schemas.js';
import { ImportFileError, inspectCsvFile, openCsvFile, type CsvReading } from './csvFile.js';
import { RejectFile, rejectFileBom } from './rejectFile.js';
import {
  groupRows,
  locateViolations,
  prepareShipment,
  type CsvViolation,
  type LocationResolver,
  type PreparedShipment,
  type RowGroup,
} from './shipmentRows.js';

export interface ImportOptions {
  file: string;
  dryRun?: boolean | undefined;
  skipInvalid?: boolean | undefined;
  /** Where rejected rows are written: by --skip-invalid (the rows not booked), else (when given) the rows that stopped the import or that --dry-run found invalid. */
  rejectsFile?: string | undefined;
  /** Shipments per API batch (one lock and one round of writes in local mode). */
  chunkSize?: number | undefined;
  /**
   * Aborted (Ctrl-C): the check stops at once (nothing was booked); booking stops after the chunk
   * being booked, so that the summary says what was booked and a re-run finishes the rest.
   */
  signal?: AbortSignal | undefined;
}

/** The user stopped the import (Ctrl-C); `summary` says what was booked before it stopped. */
export class ImportCancelledError extends Error {
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
}

export interface ImportListener {
  phase?(phase: ImportPhase, totalBytes: number): void;
  progress?(phase: ImportPhase, bytesRead: number, shipments: number): void;
  shipment?(shipment: ImportedShipment): void;
  warning?(message: string): void;
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
}

export const MAX_LISTED_VIOLATIONS = 100;
const DEFAULT_CHUNK = 500;
/** Also cut a chunk after this many rows, so that shipments of many rows keep memory flat too. */
const CHUNK_ROWS = 5000;

/** The file has invalid shipments and nothing was booked (default all-or-nothing mode). */
export class ImportRejectedError extends Error {
  constructor(readonly summary: ImportSummary) {
    super(`${summary.file}: ${summary.rejectedShipments} of ${summary.shipments} shipments are invalid; nothing was imported`);
    this.name = 'ImportRejectedError';
  }
}

/** Booking stopped part-way (a rejection that the check did not predict, a store or network failure). */
export class ImportInterruptedError extends Error {
  constructor(
    message: string,
    readonly summary: ImportSummary,
    override readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'ImportInterruptedError';
  }
}

interface ScanState {
  summary: ImportSummary;
  rejects: RejectFile | undefined;
  /** Shipments before the current chunk, and the chunk's number: the position of a shipment in the file. */
  shipmentsBefore: number;
  chunks: number;
  /** SHA-256 of the file's bytes, known once the checking pass has read it all. */
  fileHash: string | undefined;
}

export async function importShipments(
  api: ShipperApi,
  locations: LocationResolver,
  options: ImportOptions,
  listener: ImportListener = {},
): Promise<ImportSummary> {
  const { file } = options;
  const dryRun = Boolean(options.dryRun);
  const skipInvalid = Boolean(options.skipInvalid);
  const identity = await inspectCsvFile(file);

  // Pass 1: check (and price) everything before anything is booked.
  listener.phase?.('checking', identity.size);
  const checked = await scan('checking', { api, locations, options, listener, dryRun, skipInvalid });
  if (checked.summary.rows === 0) throw new ImportFileError(`${file} has a header row but no shipment rows`);
  if (dryRun) return checked.summary;
  if (!skipInvalid && checked.summary.rejectedShipments > 0) throw new ImportRejectedError(checked.summary);
  const fileHash = checked.fileHash;

  // Pass 2: book. The file must be the one that was checked.
  const now = await inspectCsvFile(file);
  if (now.size !== identity.size || now.mtimeMs !== identity.mtimeMs) {
    throw new ImportFileError(`${file} changed while it was being checked; nothing was imported, run the import again`);
  }
  listener.phase?.('booking', identity.size);
  return (await scan('booking', { api, locations, options, listener, dryRun, skipInvalid, fileHash })).summary;
}

interface ScanContext {
  fileHash?: string | undefined;
  api: ShipperApi;
  locations: LocationResolver;
  options: ImportOptions;
  listener: ImportListener;
  dryRun: boolean;
  skipInvalid: boolean;
}

async function scan(phase: ImportPhase, context: ScanContext): Promise<ScanState> {
  const { options, listener } = context;
  const reading = await openCsvFile(options.file);
  // The pass that decides writes the rejects: booking with --skip-invalid, else the check.
  const writesRejects = options.rejectsFile !== undefined && (phase === 'booking' ? context.skipInvalid && !context.dryRun : context.dryRun || !context.skipInvalid);
  const state: ScanState = {
    summary: emptySummary(options.file, context.dryRun),
    rejects: writesRejects ? new RejectFile(options.rejectsFile!, reading.header.cells, reading.delimiter, rejectFileBom(reading)) : undefined,
    shipmentsBefore: 0,
    chunks: 0,
    fileHash: context.fileHash,
  };
  const chunkSize = Math.max(1, options.chunkSize ?? DEFAULT_CHUNK);
  const handle = phase === 'checking' ? checkChunk : bookChunk;
  // One chunk is booked while the next is read and validated: the writes of the one (the I/O
  // threads) overlap the parsing of the other (the main thread). Chunks are handled in file order.
  let inFlight: Promise<void> | undefined;
  const submit = async (chunk: PreparedShipment[]) => {
    await inFlight;
    const position: ChunkPosition = { index: state.chunks++, firstOrdinal: state.shipmentsBefore + 1 };
    state.shipmentsBefore += chunk.length;
    inFlight = handle(chunk, position, state, context, reading);
    // Handled when awaited (next chunk or the end); this keeps a failure from counting as unhandled meanwhile.
    inFlight.catch(() => undefined);
    if (phase === 'checking') await inFlight;
  };
  let chunk: PreparedShipment[] = [];
  let chunkRows = 0;
  try {
    for await (const group of groupRows(reading.rows, reading.header)) {
      if (options.signal?.aborted) throw new ImportCancelledError(undefined);
      state.summary.rows += group.rows.length;
      state.summary.shipments++;
      chunk.push(await prepareShipment(group, reading.header, context.locations));
      chunkRows += group.rows.length;
      if (chunk.length >= chunkSize || chunkRows >= CHUNK_ROWS) {
        await submit(chunk);
        chunk = [];
        chunkRows = 0;
      }
      listener.progress?.(phase, reading.bytesRead(), state.summary.shipments);
    }
    if (options.signal?.aborted && chunk.length > 0) throw new ImportCancelledError(undefined);
    await submit(chunk);
    await inFlight;
    listener.progress?.(phase, reading.bytesRead(), state.summary.shipments);
    if (phase === 'checking') state.fileHash = reading.digest();
    else if (reading.digest() !== state.fileHash) listener.warning?.(`${options.file} changed while it was being imported; import it again to check that every shipment is booked`);
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

/** Where a chunk sits in the file: the same file always cuts into the same chunks. */
interface ChunkPosition {
  index: number;
  /** 1-based position in the file of the chunk's first shipment. */
  firstOrdinal: number;
}

/**
 * The idempotency key of a shipment of the file: the file's content hash, the chunk and the
 * shipment's position. Importing the same bytes again yields the same keys, so the API returns
 * the shipments booked the first time; LocalApi records a whole chunk in one ledger (the
 * `shipper-batch:` prefix), a server one key per request (Idempotency-Key).
 */
export function importKeyOf(fileHash: string, chunk: ChunkPosition, offset: number): string {
  return `shipper-batch:import-v1:${fileHash}:${chunk.index}#${chunk.firstOrdinal + offset}`;
}

async function checkChunk(chunk: PreparedShipment[], _position: ChunkPosition, state: ScanState, context: ScanContext, reading: CsvReading): Promise<void> {
  const valid = chunk.filter((prepared): prepared is Extract<PreparedShipment, { ok: true }> => prepared.ok);
  for (const prepared of chunk) if (!prepared.ok) await reject(state, prepared.group, prepared.violations);
  // With --skip-invalid a booking run prices while it books; the check only has to find file-level errors.
  const prices = context.dryRun || !context.skipInvalid;
  if (!prices || valid.length === 0) return;
  const outcomes = await previewShipments(
    context.api,
    valid.map((prepared) => prepared.request),
  );
  for (const [index, outcome] of outcomes.entries()) {
    const prepared = valid[index]!;
    if (!outcome.ok) {
      await reject(state, prepared.group, violationsOfProblem(outcome.problem, prepared.group, reading));
      continue;
    }
    if (!context.dryRun) continue;
    state.summary.valid++;
    state.summary.totalPriceInCents += outcome.data.quotedPriceInCents;
    context.listener.shipment?.({
      line: prepared.group.rows[0]!.line,
      rows: prepared.group.rows.length,
      refNumber: typeof prepared.request.refNumber === 'string' && prepared.request.refNumber.trim() ? prepared.request.refNumber.trim() : null,
      status: 'valid',
      quotedPriceInCents: outcome.data.quotedPriceInCents,
      transitDays: outcome.data.transitDays,
    });
  }
}

async function bookChunk(chunk: PreparedShipment[], position: ChunkPosition, state: ScanState, context: ScanContext, reading: CsvReading): Promise<void> {
  const keyOf = new Map(chunk.map((prepared, offset) => [prepared, importKeyOf(state.fileHash!, position, offset)]));
  const valid = chunk.filter((prepared): prepared is Extract<PreparedShipment, { ok: true }> => prepared.ok);
  const invalid = chunk.filter((prepared): prepared is Extract<PreparedShipment, { ok: false }> => !prepared.ok);
  if (!context.skipInvalid && invalid.length > 0) {
    // The check passed, so the file or the saved locations changed since: book nothing more.
    for (const prepared of invalid) await reject(state, prepared.group, prepared.violations);
    throw new ImportInterruptedError(interruptedMessage(state.summary, describeRejection(state.summary)), state.summary);
  }
  for (const prepared of invalid) await reject(state, prepared.group, prepared.violations);
  if (valid.length === 0) return;

  const outcomes = await bookShipments(
    context.api,
    valid.map((prepared) => ({ request: prepared.request, idempotencyKey: keyOf.get(prepared) })),
  );
  let unexpected = false;
  for (const [index, outcome] of outcomes.entries()) {
    const prepared = valid[index]!;
    if (!outcome.ok) {
      await reject(state, prepared.group, violationsOfProblem(outcome.problem, prepared.group, reading));
      unexpected = true;
      continue;
    }
    outcome.warnings.forEach((warning) => context.listener.warning?.(warning));
    const shipment = outcome.data;
    if (outcome.replayed) state.summary.alreadyBooked++;
    else {
      state.summary.booked++;
      state.summary.totalPriceInCents += shipment.quotedPriceInCents;
    }
    context.listener.shipment?.({
      line: prepared.group.rows[0]!.line,
      rows: prepared.group.rows.length,
      refNumber: shipment.refNumber,
      status: outcome.replayed ? 'already-booked' : 'booked',
      id: shipment.id,
      orderNumber: shipment.orderNumber,
      bolNumber: shipment.bolNumber,
      quotedPriceInCents: shipment.quotedPriceInCents,
      transitDays: shipment.transitDays,
    });
  }
  if (unexpected && !context.skipInvalid) {
    throw new ImportInterruptedError(interruptedMessage(state.summary, describeRejection(state.summary)), state.summary);
  }
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
  if (problem.status === 422 && problem.type.endsWith('idempotency-key-reused')) {
    const message = 'an earlier import of this same file booked this shipment with other data (has a saved location changed since?); it was not booked again';
    return [{ line: group.rows[0]!.line, column: null, field: '(shipment)', message }];
  }
  const violations = problem.violations?.length ? problem.violations : [{ field: '(shipment)', message: problem.detail ?? problem.title }];
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
    valid: 0,
    rejectedShipments: 0,
    rejectedRows: 0,
    totalPriceInCents: 0,
    rejectsFile: null,
    violations: [],
    moreViolations: 0,
  };
}

function describeRejection(summary: ImportSummary): string {
  const first = summary.violations[0];
  return first ? `line ${first.line}${first.column ? `, column ${first.column}` : ''}: ${first.message}` : 'a shipment was rejected';
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function interruptedMessage(summary: ImportSummary, reason: string): string {
  const done = summary.booked + summary.alreadyBooked;
  return `the import stopped after ${done} shipment${done === 1 ? '' : 's'} (${reason}); run it again to finish: shipments already booked are recognised and not booked twice`;
}
