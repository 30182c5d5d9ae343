/**
 * The single place where any error becomes one clear message and an exit code: never a stack
 * trace. Every error shipper describes itself is a ShipperError (api/problems.ts), which knows its
 * exit code and its ProblemDetail; anything else is "unexpected" (exit 5).
 */
import { ExitCode, PROBLEM_TYPE_BASE, ShipperError, storeProblem, type Mode } from '../api/problems.js';
import { StoreError } from '../store/storeError.js';
import { redactDatabaseUrls } from '../config/storeLocation.js';
import { FileWriteError } from '../fs/durableWrite.js';
import type { IO } from './output.js';

export { CliError, ExitCode, ProblemError, RemoteError, UsageError } from '../api/problems.js';

/** Writes the error as people and scripts expect it (one red line on stderr; with --json the ProblemDetail on stdout) and returns the exit code. */
export function reportError(error: unknown, io: IO, mode: Mode = 'local', debug = false): number {
  // A store failure met outside the engine's guard (opening the store): as the engine answers it.
  if (error instanceof StoreError) return reportError(storeProblem(error), io, mode, debug);
  if (error instanceof ShipperError) {
    if (io.options.json && !alreadyWritten(error)) io.json(error.toProblem(mode));
    io.error(error.line(mode));
    return error.exitCode(mode);
  }
  // A file of the user's that could not be written whole (full disk, no permission): the file is named, nothing partial is left.
  if (error instanceof FileWriteError) {
    if (io.options.json) io.json({ type: `${PROBLEM_TYPE_BASE}file-write`, title: 'File Not Written', status: 500, detail: error.message });
    io.error(error.message);
    return ExitCode.local;
  }
  if (isPromptInterrupt(error)) {
    if (io.options.json) io.json({ type: 'urn:shipper:problem:interrupted', title: 'Interrupted', status: 499, detail: 'cancelled; nothing was written' });
    io.error('cancelled; nothing was written');
    return ExitCode.interrupted;
  }
  // A database URL in a driver's message never shows its password.
  const message = redactDatabaseUrls(error instanceof Error ? error.message : String(error));
  if (io.options.json) io.json({ type: 'urn:shipper:problem:internal-error', title: 'Unexpected Error', status: 500, detail: message });
  io.error(`unexpected error: ${message}`);
  if (debug && error instanceof Error && error.stack) io.streams.stderr.write(`${error.stack}\n`);
  return ExitCode.local;
}

/** A command that streams one JSON document (import --json) has already ended it with the error. */
function alreadyWritten(error: ShipperError): boolean {
  return (error as { jsonWritten?: boolean }).jsonWritten === true;
}

function isPromptInterrupt(error: unknown): boolean {
  return error instanceof Error && (error.name === 'ExitPromptError' || error.name === 'AbortPromptError');
}
