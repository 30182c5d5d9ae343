/**
 * The one error hierarchy. Every failure shipper describes itself is a ShipperError with a stable
 * code, thrown where it happens (store/, fs/, config/, import/, ...): ERRORS, the one table, says
 * for each code the exit code of the CLI and the RFC 9457 ProblemDetail that `--json` prints and
 * the server answers. A ProblemError (api/problems.ts) carries its own ProblemDetail, the engine's
 * or the server's answer; its exit code follows its status (exitCodeForStatus). Anything else
 * that reaches the CLI is unexpected (exit 5).
 *
 * Pure, so that every layer may extend it: the subclasses live where they are thrown.
 */
import type { ProblemDetail } from './schemas.js';

export const PROBLEM_TYPE_BASE = 'urn:shipper:problem:';

/** Exit codes (SPEC 6); `shipper help exit-codes` explains each (topics/exitCodes.ts). */
export const ExitCode = {
  ok: 0,
  /** The input was rejected (violations, conflicts). */
  rejected: 1,
  /** The command line itself is wrong (unknown flag, missing argument, prompt without a TTY). */
  usage: 2,
  /** Remote mode: the server is down, slow, refuses the key or answers garbage. */
  remote: 3,
  notFound: 4,
  /** The local store or tariff is damaged or unreadable; a file could not be written. */
  local: 5,
  /** `shipper audit`: the bills were read and audited, and something is disputed (a broken bill file is 1, rejected input). */
  disputed: 6,
  /** Printing: the spooler or the printer is missing, unreachable, refused the document or is not ready. */
  printing: 7,
  /** Ctrl-C. */
  interrupted: 130,
} as const;

export interface ErrorKind {
  /** The exit code of the CLI. */
  exit: number;
  /** The ProblemDetail: its status, its type (after PROBLEM_TYPE_BASE) and its title. */
  status: number;
  type: string;
  title: string;
  /**
   * Set when the message names what only the operator may see (a file path, an errno): an HTTP
   * answer says this instead, the server logs the message, the local CLI prints it. Every 5xx has one.
   */
  publicDetail?: string;
}

const STORE_DETAIL = 'the service could not read or write its store; the operator finds the cause in its log';
const UNAVAILABLE_DETAIL = 'the service cannot reach its store now; try again later';

/** Every code, its exit code and its ProblemDetail. */
export const ERRORS = {
  // The command line: exit 2.
  USAGE: { exit: ExitCode.usage, status: 400, type: 'usage', title: 'Usage Error' },
  /** A setting (flag, environment, config file) that cannot be used. */
  CONFIG: { exit: ExitCode.usage, status: 400, type: 'usage', title: 'Usage Error' },
  /** A file named on the command line that cannot be read (missing, a directory). */
  INPUT_FILE: { exit: ExitCode.usage, status: 400, type: 'usage', title: 'Usage Error' },

  // Input refused: exit 1.
  /** A command's own verdict (CliError). */
  REJECTED: { exit: ExitCode.rejected, status: 400, type: 'failure', title: 'Failure' },
  BAD_CSV: { exit: ExitCode.rejected, status: 400, type: 'bad-csv', title: 'Bad CSV File' },
  BAD_BILL_FILE: { exit: ExitCode.rejected, status: 400, type: 'bad-bill-file', title: 'Bad Bill File' },
  /** The import's check found invalid shipments; nothing was booked. */
  IMPORT_REJECTED: { exit: ExitCode.rejected, status: 400, type: 'constraint-violation', title: 'Constraint Violation' },
  /** Booking stopped part-way; a cause (a store, a server) gives its own exit code and problem. */
  IMPORT_INTERRUPTED: { exit: ExitCode.rejected, status: 409, type: 'import-interrupted', title: 'Import Interrupted' },
  /** The shipment gets no labels (cancelled, no handling unit). */
  LABEL: { exit: ExitCode.rejected, status: 409, type: 'conflict', title: 'Conflict' },
  /** The shipment has no invoice (cancelled, a price that does not add up). */
  INVOICE: { exit: ExitCode.rejected, status: 409, type: 'conflict', title: 'Conflict' },
  /** Rate shopping priced nothing: no carrier asked serves the lane or the freight (reason `no_coverage`). */
  NO_COVERAGE: { exit: ExitCode.rejected, status: 422, type: 'no-coverage', title: 'No Coverage' },

  NOT_FOUND: { exit: ExitCode.notFound, status: 404, type: 'not-found', title: 'Not Found' },
  DISPUTED: { exit: ExitCode.disputed, status: 400, type: 'failure', title: 'Failure' },

  // Remote mode: exit 3.
  REMOTE_FAILURE: { exit: ExitCode.remote, status: 502, type: 'remote-failure', title: 'Remote Failure', publicDetail: 'an upstream server failed' },

  // This machine: its store, its files, its templates: exit 5.
  STORE_FAILURE: { exit: ExitCode.local, status: 500, type: 'store-failure', title: 'Store Failure', publicDetail: STORE_DETAIL },
  /** The file store's lock could not be taken (busy too long, or its directory unusable). */
  STORE_LOCK: { exit: ExitCode.local, status: 500, type: 'store-failure', title: 'Store Failure', publicDetail: STORE_DETAIL },
  /** Another process held the file store's lock longer than a unit of work waits: 503 with Retry-After, as it will pass. */
  STORE_BUSY: {
    exit: ExitCode.local,
    status: 503,
    type: 'store-busy',
    title: 'Store Busy',
    publicDetail: "the store is busy with another process's work; try again shortly",
  },
  /** The database is down, unreachable, read-only or of another schema version: the server answers 503 with Retry-After. */
  STORE_UNAVAILABLE: { exit: ExitCode.local, status: 503, type: 'store-unavailable', title: 'Store Unavailable', publicDetail: UNAVAILABLE_DETAIL },
  /** The file store is read-only (a read-only mount, no write permission): reads are answered, writes refused (503, as the operator may make it writable again). */
  STORE_READ_ONLY: {
    exit: ExitCode.local,
    status: 503,
    type: 'store-read-only',
    title: 'Store Read-Only',
    publicDetail: "the service's store is read-only: it answers reads and refuses every write until its operator makes the store writable again",
  },
  /** A file could not be written whole (full disk, no permission); nothing partial was left. */
  FILE_WRITE: {
    exit: ExitCode.local,
    status: 500,
    type: 'file-write',
    title: 'File Not Written',
    publicDetail: 'the service could not write a file; the operator finds the cause in its log',
  },
  /** A BOL template (or the templates folder) of this installation cannot be read. */
  BAD_TEMPLATE: {
    exit: ExitCode.local,
    status: 500,
    type: 'bad-template',
    title: 'Bad BOL Template',
    publicDetail: 'the service cannot read its BOL template; the operator finds the cause in its log',
  },
  /** A command's own verdict (CliError): something on this machine failed. */
  LOCAL_FAILURE: { exit: ExitCode.local, status: 500, type: 'failure', title: 'Failure', publicDetail: 'the service failed to handle the request' },
  /** Not one of ours: a bug, or a failure nobody described (cli/errors.ts reports it). */
  UNEXPECTED: { exit: ExitCode.local, status: 500, type: 'internal-error', title: 'Unexpected Error', publicDetail: 'the service failed to handle the request' },

  // Printing at the dock: exit 7 (src/printing/). Only the CLI prints; the server never answers these.
  PRINT_FAILURE: {
    exit: ExitCode.printing,
    status: 503,
    type: 'print-failure',
    title: 'Not Printed',
    publicDetail: 'the document could not be printed; the operator finds the cause in its log',
  },

  // Ctrl-C: exit 130.
  INTERRUPTED: { exit: ExitCode.interrupted, status: 499, type: 'interrupted', title: 'Interrupted' },
  IMPORT_CANCELLED: { exit: ExitCode.interrupted, status: 499, type: 'import-cancelled', title: 'Import Cancelled' },
} as const satisfies Record<string, ErrorKind>;

export type ErrorCode = keyof typeof ERRORS;

/**
 * The exit code of a ProblemDetail's status: 404 not found; 401, 403 and 429 the server refused
 * us (remote); 499 interrupted; a 5xx a failure of the server that answered (remote) or of this
 * machine (local); any other 4xx rejected input.
 */
export function exitCodeForStatus(status: number, fromServer: boolean): number {
  if (status === 404) return ExitCode.notFound;
  if (status === 401 || status === 403 || status === 429) return ExitCode.remote;
  if (status === 499) return ExitCode.interrupted;
  if (status >= 500) return fromServer ? ExitCode.remote : ExitCode.local;
  return ExitCode.rejected;
}

export abstract class ShipperError extends Error {
  /** Stable: a key of ERRORS (a ProblemError's comes from its problem's type: NOT_FOUND for urn:shipper:problem:not-found). */
  abstract readonly code: string;

  /** This error's row of the table. */
  protected get row(): ErrorKind {
    return (ERRORS as Record<string, ErrorKind>)[this.code] ?? ERRORS.UNEXPECTED;
  }

  /** The exit code of the CLI. */
  exitCode(): number {
    return this.row.exit;
  }

  /** The ProblemDetail an HTTP client may see: never a path or an errno (see internalDetail). */
  get problem(): ProblemDetail {
    const { status, type, title, publicDetail } = this.row;
    return { type: `${PROBLEM_TYPE_BASE}${type}`, title, status, detail: publicDetail ?? this.message };
  }

  /** What happened in terms only the operator should see: printed by the CLI and the server's log, never sent in an HTTP answer. */
  get internalDetail(): string | undefined {
    return this.row.publicDetail === undefined ? undefined : this.message;
  }

  /** The ProblemDetail that `--json` prints on stdout: this machine's user is its operator. */
  toProblem(): ProblemDetail {
    const { problem, internalDetail } = this;
    return internalDetail === undefined ? problem : { ...problem, detail: internalDetail };
  }

  /** The one line the CLI prints on stderr. */
  line(): string {
    return this.message;
  }
}
