/**
 * The one error hierarchy. Every failure shipper describes itself is a ShipperError: it knows the
 * exit code the CLI ends with and the RFC 9457 ProblemDetail that `--json` prints and the server
 * answers. The local engine throws ProblemError, the server writes it as
 * application/problem+json, the remote client turns such a body back into the same ProblemError.
 */
import type { ProblemDetail, Violation } from '../domain/schemas.js';
import { StoreError, StoreUnavailableError } from '../store/storeError.js';

export const PROBLEM_TYPE_BASE = 'urn:shipper:problem:';

/** Exit codes (SPEC 6). */
export const ExitCode = {
  ok: 0,
  /** The input was rejected (violations, conflicts). */
  rejected: 1,
  /** The command line itself is wrong (unknown flag, missing argument, prompt without a TTY). */
  usage: 2,
  /** Remote mode: the server is down, slow, refuses the key or answers garbage. */
  remote: 3,
  notFound: 4,
  /** `shipper audit`: the bills were read and audited, and something is disputed (a broken bill file is 1, rejected input). */
  disputed: 6,
  /** The local store or tariff is damaged or unreadable. */
  local: 5,
  /** Ctrl-C. */
  interrupted: 130,
} as const;

export type Mode = 'local' | 'remote';

export abstract class ShipperError extends Error {
  /** The exit code of the CLI; a server failure is a remote failure (3) in remote mode. */
  abstract exitCode(mode: Mode): number;
  /** The ProblemDetail that `--json` prints on stdout. */
  abstract toProblem(mode: Mode): ProblemDetail;
  /** The one line the CLI prints on stderr. */
  line(_mode: Mode): string {
    return this.message;
  }
}

export class ProblemError extends ShipperError {
  /**
   * @param internalDetail what happened in terms only the operator should see (a file path, an
   *   errno): printed by the local CLI and the server's log, never sent in an HTTP answer.
   */
  constructor(
    readonly problem: ProblemDetail,
    readonly internalDetail?: string,
  ) {
    super(problem.detail ?? problem.title);
    this.name = 'ProblemError';
  }

  get status(): number {
    return this.problem.status;
  }

  exitCode(mode: Mode): number {
    const { status } = this.problem;
    if (status === 404) return ExitCode.notFound;
    if (status === 401 || status === 403 || status === 429) return ExitCode.remote;
    if (status === 499) return ExitCode.interrupted;
    if (status >= 500) return mode === 'remote' ? ExitCode.remote : ExitCode.local;
    return ExitCode.rejected;
  }

  toProblem(mode: Mode): ProblemDetail {
    return mode === 'local' && this.internalDetail ? { ...this.problem, detail: this.internalDetail } : this.problem;
  }

  /** "unknown ZIP 00000 (origin.postalCode)": each violation written `message (field)`. */
  override line(mode: Mode): string {
    return problemLine(this.toProblem(mode));
  }
}

/**
 * Remote mode could not get an answer it can use: the server is unreachable, too slow, or answered
 * something that is not the Shipper Freight API. The CLI exits 3 with this one line.
 */
export class RemoteError extends ShipperError {
  /**
   * @param reached false when the request certainly never reached the server (no connection); a
   *   write that failed after it was sent (a timeout, an answer cut off or unusable) may have been
   *   carried out all the same.
   */
  constructor(
    message: string,
    readonly reached: boolean | 'unknown' = 'unknown',
  ) {
    super(message);
    this.name = 'RemoteError';
  }

  exitCode(_mode?: Mode): number {
    return ExitCode.remote;
  }

  toProblem(_mode?: Mode): ProblemDetail {
    return { type: `${PROBLEM_TYPE_BASE}remote-failure`, title: 'Remote Failure', status: 502, detail: this.message };
  }
}

/** A mistake in how the command was called; exits 2. */
export class UsageError extends ShipperError {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }

  exitCode(_mode?: Mode): number {
    return ExitCode.usage;
  }

  override line(_mode?: Mode): string {
    return this.hint ? `${this.message} (${this.hint})` : this.message;
  }

  toProblem(_mode?: Mode): ProblemDetail {
    return { type: `${PROBLEM_TYPE_BASE}usage`, title: 'Usage Error', status: 400, detail: this.line() };
  }
}

/** Any other failure we describe ourselves (a file that cannot be written, ...), with its exit code. */
export class CliError extends ShipperError {
  readonly problem: ProblemDetail | undefined;
  /** The command already wrote its JSON output, ending with this error (a streamed document). */
  readonly jsonWritten: boolean;

  constructor(
    message: string,
    readonly code: number = ExitCode.rejected,
    options: { problem?: ProblemDetail | undefined; jsonWritten?: boolean } = {},
  ) {
    super(message);
    this.name = 'CliError';
    this.problem = options.problem;
    this.jsonWritten = options.jsonWritten ?? false;
  }

  exitCode(_mode?: Mode): number {
    return this.code;
  }

  toProblem(_mode?: Mode): ProblemDetail {
    if (this.problem) return this.problem;
    const status = this.code === ExitCode.interrupted ? 499 : this.code === ExitCode.local ? 500 : this.code === ExitCode.notFound ? 404 : 400;
    return { type: `${PROBLEM_TYPE_BASE}${this.code === ExitCode.interrupted ? 'interrupted' : 'failure'}`, title: 'Failure', status, detail: this.message };
  }
}

/**
 * A problem as one line, each violation written `message (field)`: "unknown ZIP 00000
 * (origin.postalCode)". The generic "the request has N invalid fields" adds nothing and is left out.
 */
export function problemLine(problem: ProblemDetail): string {
  // A violation the detail already says in full ("quote X is already booked as SO-1; ...") is not said twice.
  const violations = (problem.violations ?? []).filter((violation) => !problem.detail?.includes(violation.message)).map((violation) => `${violation.message} (${violation.field})`);
  if (violations.length === 0) return problem.detail ?? problem.title;
  const generic = problem.status === 400 && problem.title === 'Constraint Violation';
  return generic || !problem.detail ? violations.join('; ') : `${problem.detail}: ${violations.join('; ')}`;
}

function problem(status: number, slug: string, title: string, detail: string, extra: Partial<ProblemDetail> = {}): ProblemError {
  return new ProblemError({ type: `${PROBLEM_TYPE_BASE}${slug}`, title, status, detail, ...extra });
}

export function constraintViolation(violations: Violation[], detail?: string): ProblemError {
  const count = violations.length;
  return problem(400, 'constraint-violation', 'Constraint Violation', detail ?? `the request has ${count} invalid field${count === 1 ? '' : 's'}`, {
    violations,
  });
}

export const notFound = (what: string, id: string): ProblemError => problem(404, 'not-found', 'Not Found', `${what} ${id} not found`);

export const conflict = (detail: string, violations?: Violation[]): ProblemError =>
  problem(409, 'conflict', 'Conflict', detail, violations && violations.length > 0 ? { violations } : {});

export const idempotencyKeyReused = (key: string): ProblemError =>
  problem(422, 'idempotency-key-reused', 'Idempotency-Key Reused', `Idempotency-Key ${key} was already used with a different request body`);

/**
 * The store could not be read or written. The answer says so; which file and why (the path, the
 * errno) is the operator's to see: the local CLI prints it, the server logs it.
 */
export const storeFailure = (error: Error): ProblemError =>
  new ProblemError(
    {
      type: `${PROBLEM_TYPE_BASE}store-failure`,
      title: 'Store Failure',
      status: 500,
      detail: 'the service could not read or write its store; the operator finds the cause in its log',
    },
    error.message,
  );

/** A store's failure as the API answers it: unavailable (503, come back) or failed (500); the detail stays in the log. */
export const storeProblem = (error: StoreError): ProblemError => (error instanceof StoreUnavailableError ? storeUnavailable(error.message) : storeFailure(error));

export const internalError = (detail = 'the service failed to handle the request'): ProblemError => problem(500, 'internal-error', 'Internal Server Error', detail);

export { problem as makeProblem };

/** Seconds a client is told to wait (Retry-After) before it tries a store that is unavailable again. */
export const STORE_RETRY_AFTER_SECONDS = 5;

/**
 * The store is there but cannot be used now (the database is down, unreachable, read-only or has
 * another schema): 503, which the server answers with Retry-After, and exit 5 on the CLI. Why is
 * the operator's to see (internalDetail), as for storeFailure.
 */
export const storeUnavailable = (internalDetail: string): ProblemError =>
  new ProblemError(
    {
      type: `${PROBLEM_TYPE_BASE}store-unavailable`,
      title: 'Store Unavailable',
      status: 503,
      detail: 'the service cannot reach its store now; try again later',
    },
    internalDetail,
  );
