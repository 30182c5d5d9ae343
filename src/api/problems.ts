/**
 * The errors of the API and the shell on the hierarchy of domain/errors.ts. The local engine
 * throws ProblemError, the server writes it as application/problem+json, the remote client turns
 * such a body back into the same ProblemError.
 */
import { exitCodeForStatus, PROBLEM_TYPE_BASE, ShipperError, type ErrorCode } from '../domain/errors.js';
import type { ProblemDetail, Violation } from '../domain/schemas.js';

export { ExitCode, PROBLEM_TYPE_BASE, ShipperError } from '../domain/errors.js';

/** A problem's type as a code: urn:shipper:problem:not-found is NOT_FOUND. */
function codeOfType(type: string): string {
  return type.startsWith(PROBLEM_TYPE_BASE) ? type.slice(PROBLEM_TYPE_BASE.length).toUpperCase().replace(/-/g, '_') : 'PROBLEM';
}

export class ProblemError extends ShipperError {
  readonly #problem: ProblemDetail;
  readonly #internalDetail: string | undefined;

  /**
   * @param internalDetail what happened in terms only the operator should see (a file path, an
   *   errno): printed by the local CLI and the server's log, never sent in an HTTP answer.
   * @param fromServer the answer of a server (remote mode): its 5xx is the server's failure, exit 3.
   */
  constructor(
    problem: ProblemDetail,
    internalDetail?: string,
    readonly fromServer = false,
  ) {
    super(problem.detail ?? problem.title);
    this.name = 'ProblemError';
    this.#problem = problem;
    this.#internalDetail = internalDetail;
  }

  /** A server's answer (remote mode). */
  /** The problem a server answered; `requestId` is its `x-request-id`, which the error's line names. */
  static fromAnswer(problem: ProblemDetail, requestId?: string): ProblemError {
    const error = new ProblemError(problem, undefined, true);
    error.requestId = requestId;
    return error;
  }

  /** The server's id of the request that failed (remote mode), for its operator's logs. */
  requestId: string | undefined;

  /** A described failure of the engine's parts (a store's, a renderer's) as the engine answers it. */
  static of(error: ShipperError): ProblemError {
    return error instanceof ProblemError ? error : new ProblemError(error.problem, error.internalDetail);
  }

  get code(): string {
    return codeOfType(this.#problem.type);
  }

  override get problem(): ProblemDetail {
    return this.#problem;
  }

  get status(): number {
    return this.#problem.status;
  }

  override get internalDetail(): string | undefined {
    return this.#internalDetail;
  }

  override exitCode(): number {
    return exitCodeForStatus(this.#problem.status, this.fromServer);
  }

  /** "unknown ZIP 00000 (origin.zipCode)": each violation written `message (field)`. */
  override line(): string {
    const line = problemLine(this.toProblem());
    // A server's answer names its reason code and the request, so its operator can find it.
    const said = [this.fromServer && this.#problem.reason ? `reason ${this.#problem.reason}` : undefined, this.requestId ? `request ${this.requestId}` : undefined].filter(Boolean);
    return said.length > 0 ? `${line} (${said.join(', ')})` : line;
  }
}

/**
 * Remote mode could not get an answer it can use: the server is unreachable, too slow, or answered
 * something that is not the Shipper Freight API. The CLI exits 3 with this one line.
 */
export class RemoteError extends ShipperError {
  readonly code: ErrorCode = 'REMOTE_FAILURE';

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
}

/** A mistake in how the command was called; exits 2. */
export class UsageError extends ShipperError {
  readonly code: ErrorCode = 'USAGE';

  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }

  override line(): string {
    return this.hint ? `${this.message} (${this.hint})` : this.message;
  }

  override get problem(): ProblemDetail {
    return { ...super.problem, detail: this.line() };
  }
}

/**
 * A command's own verdict (a check that fails, bills disputed, a file that cannot be read), as a
 * code of the table; or another error's verdict in the command's words (`new CliError(text, error)`).
 */
export class CliError extends ShipperError {
  readonly code: string;
  readonly #problem: ProblemDetail | undefined;
  readonly #verdict: ShipperError | undefined;
  /** The command already wrote its JSON output, ending with this error (a streamed document). */
  readonly jsonWritten: boolean;

  constructor(message: string, verdict: ErrorCode | ShipperError = 'REJECTED', options: { problem?: ProblemDetail | undefined; jsonWritten?: boolean } = {}) {
    super(message);
    this.name = 'CliError';
    this.code = typeof verdict === 'string' ? verdict : verdict.code;
    this.#verdict = typeof verdict === 'string' ? undefined : verdict;
    this.#problem = options.problem;
    this.jsonWritten = options.jsonWritten ?? false;
  }

  override exitCode(): number {
    return this.#verdict ? this.#verdict.exitCode() : super.exitCode();
  }

  override get problem(): ProblemDetail {
    if (this.#problem) return this.#problem;
    return this.#verdict ? { ...this.#verdict.problem, detail: this.message } : super.problem;
  }

  override get internalDetail(): string | undefined {
    return this.#problem || this.#verdict ? undefined : super.internalDetail;
  }
}

/**
 * A problem as one line, each violation written `message (field)`: "unknown ZIP 00000
 * (origin.zipCode)". The generic "the request has N invalid fields" adds nothing and is left out.
 */
export function problemLine(problem: ProblemDetail): string {
  // A violation the detail already says in full ("quote X is already booked as SO-1; ...") is not said twice.
  const violations = (problem.violations ?? []).filter((violation) => !problem.detail?.includes(violation.reason)).map((violation) => `${violation.reason} (${violation.field})`);
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

/** The published 409 `idempotency_key_conflict`: the key was sent before with another body. */
export const idempotencyKeyReused = (key: string): ProblemError =>
  problem(409, 'idempotency-key-reused', 'Idempotency-Key Reused', `Idempotency-Key ${key} was already used with a different request body`, { reason: 'idempotency_key_conflict' });

/** An uploaded document over its limit (413), the same answer whether the stream or the engine finds it. */
export const documentTooLarge = (maxBytes: number): ProblemError =>
  problem(413, 'payload-too-large', 'Payload Too Large', `the document is larger than ${maxBytes / (1024 * 1024)} MB`, { reason: 'file_too_large' });
export const internalError = (detail = 'the service failed to handle the request'): ProblemError => problem(500, 'internal-error', 'Internal Server Error', detail);

export { problem as makeProblem };

/** Seconds a client is told to wait (Retry-After) before it tries a store that is unavailable again. */
export const STORE_RETRY_AFTER_SECONDS = 5;
