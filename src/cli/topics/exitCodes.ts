/**
 * `shipper help exit-codes`: generated from ExitCode, so a new code cannot go unexplained (the type
 * wants every one); every error code's exit code is one of them (ERRORS, domain/errors.ts).
 */
import { ExitCode } from '../../domain/errors.js';
import { termList } from './wrap.js';

export const EXIT_CODE_MEANINGS: Record<keyof typeof ExitCode, string> = {
  ok: 'ok',
  rejected:
    'rejected input: every violation listed with its path (orderComponents[0].pieceCount); a conflict with the quote; a risk found by check --fail-on; unmatched tracking messages; a bill file audit cannot read',
  usage:
    'usage error: unknown flag, malformed value, missing argument, unknown help topic, a file named on the command line that does not exist, an output file that exists without --force, a prompt needed without a terminal',
  remote:
    'remote or network failure: the server is down, slow, refuses the key or answers garbage (after a booking was sent, the message says whether it may exist and how to re-run safely)',
  notFound: 'not found: no quote or shipment with that id, order number or BOL number',
  local: 'store, database or tariff failure, or a file that could not be written (full disk, no permission): the message names what failed (never a password)',
  disputed: 'audit: a bill disputed (a finding above the tolerance); a bill file that cannot be read is 1, so CI can tell them apart',
  printing:
    'printing failed: no spooler (lp/lpr), an unknown queue, a printer unreachable, refusing the connection, timing out or not ready (paper out, head open, paused); the message names the printer; documents reported printed were accepted, the others were not sent (--resume sends them)',
  interrupted: 'stopped with Ctrl-C: nothing half-written (during an import, after the shipments being booked, with their count)',
};

export function exitCodesHelp(width = 100): string {
  const rows = (Object.keys(ExitCode) as Array<keyof typeof ExitCode>).map((name) => ({ term: String(ExitCode[name]), text: EXIT_CODE_MEANINGS[name] }));
  const out = [
    'Exit codes of every shipper command. With --json an error is also written to stdout as an RFC 9457 ProblemDetail.',
    '',
    ...termList(rows, width),
    '',
    'Example:',
    '  $ shipper import batch.csv --json > result.json || echo "import failed with exit $?"',
  ];
  return `${out.join('\n')}\n`;
}
