/**
 * Exit codes (SPEC 6) and the single place where any error becomes one clear message: never a
 * stack trace.
 */
import { ProblemError, RemoteError } from '../api/problems.js';
import { FileWriteError } from '../fs/durableWrite.js';
import type { ProblemDetail } from '../domain/schemas.js';
import type { IO } from './output.js';

export const ExitCode = {
  ok: 0,
  /** The input was rejected (violations, conflicts). */
  rejected: 1,
  /** The command line itself is wrong (unknown flag, missing argument, prompt without a TTY). */
  usage: 2,
  /** Remote mode: the server is down, slow, refuses the key or answers garbage. */
  remote: 3,
  notFound: 4,
  /** The local store or tariff is damaged or unreadable. */
  local: 5,
  /** Ctrl-C at a prompt. */
  interrupted: 130,
} as const;

/** A mistake in how the command was called; exits 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/** A failure talking to a remote server; exits 3. Defined with the API, which raises it. */
export { RemoteError };

/** Any other failure we describe ourselves (a file that cannot be written, ...), with its exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = ExitCode.rejected,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export function exitCodeForProblem(error: ProblemError, mode: 'local' | 'remote'): number {
  const { status } = error.problem;
  if (status === 404) return ExitCode.notFound;
  if (status === 401 || status === 403 || status === 429) return ExitCode.remote;
  if (status >= 500) return mode === 'remote' ? ExitCode.remote : ExitCode.local;
  return ExitCode.rejected;
}

/**
 * A problem as one line, each violation written `message (field)`: "unknown ZIP 00000
 * (origin.postalCode)". The generic "the request has N invalid fields" adds nothing and is left out.
 */
export function problemLine(problem: ProblemDetail): string {
  const violations = (problem.violations ?? []).map((violation) => `${violation.message} (${violation.field})`);
  if (violations.length === 0) return problem.detail ?? problem.title;
  const generic = problem.status === 400 && problem.title === 'Constraint Violation';
  return generic || !problem.detail ? violations.join('; ') : `${problem.detail}: ${violations.join('; ')}`;
}

/** Writes the error as people and scripts expect it (one red line on stderr) and returns the exit code. */
export function reportError(error: unknown, io: IO, mode: 'local' | 'remote' = 'local'): number {
  if (error instanceof ProblemError) {
    if (io.options.json) io.json(error.problem);
    io.error(problemLine(error.problem));
    return exitCodeForProblem(error, mode);
  }
  if (error instanceof UsageError) {
    io.error(error.hint ? `${error.message} (${error.hint})` : error.message);
    return ExitCode.usage;
  }
  if (error instanceof RemoteError) {
    io.error(error.message);
    return ExitCode.remote;
  }
  if (error instanceof CliError) {
    io.error(error.message);
    return error.exitCode;
  }
  if (error instanceof FileWriteError) {
    io.error(error.message);
    return ExitCode.local;
  }
  if (isPromptInterrupt(error)) {
    io.error('cancelled; nothing was written');
    return ExitCode.interrupted;
  }
  const message = error instanceof Error ? error.message : String(error);
  io.error(`unexpected error: ${message}`);
  if (process.env.SHIPPER_DEBUG && error instanceof Error && error.stack) io.streams.stderr.write(`${error.stack}\n`);
  return ExitCode.local;
}

function isPromptInterrupt(error: unknown): boolean {
  return error instanceof Error && (error.name === 'ExitPromptError' || error.name === 'AbortPromptError');
}
