/**
 * The single place where any error becomes one clear message and an exit code: never a stack
 * trace. Every error shipper describes itself is a ShipperError (domain/errors.ts), whose code
 * gives its exit code and its ProblemDetail; anything else is unexpected (exit 5).
 */
import { CliError, ShipperError } from '../api/problems.js';
import { redactDatabaseUrls } from '../config/storeLocation.js';
import type { ErrorCode } from '../domain/errors.js';
import type { IO } from './output.js';

export { CliError, ExitCode, ProblemError, RemoteError, UsageError } from '../api/problems.js';

/** A failure nobody described (a bug, a library's own error): its message, with any database URL's password hidden. */
class UnexpectedError extends ShipperError {
  readonly code: ErrorCode = 'UNEXPECTED';

  constructor(readonly original: unknown) {
    super(redactDatabaseUrls(original instanceof Error ? original.message : String(original)));
    this.name = 'UnexpectedError';
  }

  override line(): string {
    return `unexpected error: ${this.message}`;
  }
}

/** Any error as a ShipperError: itself, Ctrl-C at a prompt, or an unexpected one. */
export function asShipperError(error: unknown): ShipperError {
  if (error instanceof ShipperError) return error;
  if (isPromptInterrupt(error)) return new CliError('cancelled; nothing was written', 'INTERRUPTED');
  return new UnexpectedError(error);
}

/** Writes the error as people and scripts expect it (one red line on stderr; with --json the ProblemDetail on stdout) and returns the exit code. */
export function reportError(error: unknown, io: IO, debug = false): number {
  const failure = asShipperError(error);
  if (io.options.json && !(failure instanceof CliError && failure.jsonWritten)) io.json(failure.toProblem());
  io.error(failure.line());
  if (debug && failure instanceof UnexpectedError && failure.original instanceof Error && failure.original.stack) io.streams.stderr.write(`${failure.original.stack}\n`);
  return failure.exitCode();
}

function isPromptInterrupt(error: unknown): boolean {
  return error instanceof Error && (error.name === 'ExitPromptError' || error.name === 'AbortPromptError');
}
