/**
 * `--print` of the document commands (bol, labels, invoice, the dispute pack, import): the shell
 * around src/printing. Resolves each kind's printer (--printer, else print.<kind>, else the system's
 * default queue), checks it before anything is sent, sends the documents in order with a progress
 * bar on a terminal, saves the run in the store after each, and says which were printed and which
 * not. `--resume` takes the newest run of the same scope that left documents unsent.
 */
import type { CommandContext } from './context.js';
import { CliError, UsageError } from './errors.js';
import { plural, type IO } from './output.js';
import { ProgressBar, wantsProgress } from './progress.js';
import type { PrintFlags } from './printOptions.js';
import { PrintError } from '../printing/errors.js';
import type { DocumentKind, Printer, PrintConfig } from '../printing/printers.js';
import type { PrintedDocument, PrintRun } from '../printing/batch.js';
import type { PrinterSession } from '../printing/send.js';

/** One document a command asks to print. */
export interface PrintRequest {
  kind: DocumentKind;
  shipmentId: string;
  /** BOL-SO-000123, labels-SO-000123: the job's title. */
  name: string;
}

export type Producer = (kind: DocumentKind, shipmentId: string, format: 'pdf' | 'zpl') => Promise<Uint8Array>;

export interface PrintOutcome {
  run: PrintRun;
  /** Set when the run stopped (the printer, Ctrl-C): the command fails with it after its report. */
  failure?: CliError | undefined;
}

async function printConfig(ctx: CommandContext): Promise<PrintConfig> {
  const [{ readConfigFile }, { printConfigOf }, { file }] = await Promise.all([import('../config/settings.js'), import('../printing/printers.js'), ctx.configLocation()]);
  return printConfigOf(readConfigFile(file) as Record<string, unknown>);
}

/** The wait for a printer or the spooler: SHIPPER_PRINT_TIMEOUT_MS, else print.timeoutMs, else 10 s. */
function printTimeout(ctx: CommandContext, config: PrintConfig, fallback: number): number {
  const raw = ctx.env.SHIPPER_PRINT_TIMEOUT_MS;
  if (raw !== undefined && raw !== '') {
    const value = /^\d+$/.test(raw) ? Number(raw) : NaN;
    if (!(value >= 1 && value <= 600_000)) throw new UsageError(`SHIPPER_PRINT_TIMEOUT_MS=${raw} must be a whole number of ms from 1 to 600000`);
    return value;
  }
  return config.print.timeoutMs ?? fallback;
}

/**
 * Prints the requests (or, with --resume, what the scope's last open run did not send) and reports
 * it; never throws for a printer failure: it is returned, so that the command can end its report.
 */
export async function printDocuments(ctx: CommandContext, scope: string, requests: PrintRequest[], flags: PrintFlags, produce: Producer): Promise<PrintOutcome> {
  const [{ DEFAULT_PRINT_TIMEOUT_MS, resolvePrinter }, { openDocuments, printRunSchema, runPrint }, { formatFor, openPrinter }, store, config, clock, { ulid }] = await Promise.all(
    [import('../printing/printers.js'), import('../printing/batch.js'), import('../printing/send.js'), ctx.store(), printConfig(ctx), ctx.clock(), import('ulid')],
  );
  const timeoutMs = printTimeout(ctx, config, DEFAULT_PRINT_TIMEOUT_MS);

  let run: PrintRun;
  const stored = flags.resume ? await store.printRuns.lastOpen(scope) : undefined;
  const resuming = Boolean(stored);
  if (flags.resume === true && !stored) {
    throw new UsageError(`nothing to resume: every --print run of ${scopeName(scope)} finished`, 'run it with --print to print again');
  }
  if (stored) {
    const parsed = printRunSchema.safeParse(stored.record);
    if (!parsed.success) throw new CliError(`the print run ${stored.id} in the store cannot be read: ${parsed.error.issues[0]!.message}`, 'STORE_FAILURE');
    run = parsed.data;
    // --printer and --copies given now beat the run's (the printer that jammed may be replaced).
    for (const kind of Object.keys(run.printers) as DocumentKind[]) {
      const printer = flags.printers?.[kind] ?? flags.printer;
      const copies = flags.copiesByKind?.[kind] ?? flags.copies;
      if (printer) run.printers[kind] = printer;
      if (copies) run.copies[kind] = copies;
    }
    if (flags.resume === 'if-open') ctx.io.note(`continuing print run ${run.id}: ${plural(openDocuments(run).length, 'document')} not printed yet, the others not again`);
  } else {
    const seen = new Set<string>();
    const documents: PrintedDocument[] = [];
    for (const request of requests) {
      const key = `${request.kind}:${request.shipmentId}`;
      if (seen.has(key)) continue;
      seen.add(key);
      documents.push({ key, kind: request.kind, shipmentId: request.shipmentId, name: request.name, printed: false });
    }
    run = { id: ulid(clock().getTime()), scope, startedAt: clock().toISOString(), printers: {}, copies: {}, documents };
  }

  // Each kind's printer, resolved and checked (spooler installed, thermal printer ready) before anything is sent.
  const kinds = [...new Set(run.documents.map((document) => document.kind))];
  const resolved = new Map<DocumentKind, Printer>();
  for (const kind of kinds) {
    const printer = resolvePrinter(resuming ? run.printers[kind] || undefined : (flags.printers?.[kind] ?? flags.printer), kind, config);
    formatFor(printer, kind); // a BOL for a ZPL-only printer is refused now
    resolved.set(kind, printer);
    if (!resuming) {
      // As resolved again by --resume: the name given or configured ('' for the system's default queue).
      run.printers[kind] = printer.transport.kind === 'spooler' && printer.transport.queue === undefined ? '' : printer.name;
      run.copies[kind] = flags.copiesByKind?.[kind] ?? flags.copies ?? printer.copies ?? 1;
    }
  }
  const sessions: Partial<Record<DocumentKind, PrinterSession>> = {};
  const opened = new Map<string, Promise<PrinterSession>>();
  for (const [kind, printer] of resolved) {
    const key = JSON.stringify(printer.transport) + (printer.media ?? '');
    if (!opened.has(key)) opened.set(key, openPrinter(printer, { env: ctx.env, timeoutMs }));
    try {
      sessions[kind] = await opened.get(key)!;
    } catch (error) {
      throw asPrintFailure(ctx.io, error, run);
    }
  }

  const save = async (current: PrintRun) => {
    await store.printRuns.put({ id: current.id, scope: current.scope, open: openDocuments(current).length > 0, record: current });
  };
  await save(run);

  const { io } = ctx;
  const progress = wantsProgress(Boolean(io.streams.stderr.isTTY), io.options, ctx.env) ? new ProgressBar(io.streams.stderr) : undefined;
  const pending = openDocuments(run).length;
  progress?.start('Printing', pending, 'documents');
  const cancel = new AbortController();
  const onInterrupt = () => {
    if (cancel.signal.aborted) process.exit(130);
    cancel.abort();
    progress?.clear();
    io.note('stopping after the document being sent (Ctrl-C again to quit at once)');
  };
  process.on('SIGINT', onInterrupt);
  let stoppedBy;
  try {
    ({ stoppedBy } = await runPrint({
      run,
      sessions,
      copies: run.copies,
      formatOf: (kind) => formatFor(resolved.get(kind)!, kind),
      produce: (document, format) => produce(document.kind, document.shipmentId, format),
      save,
      now: clock,
      signal: cancel.signal,
      progress: (document, done) => {
        progress?.update(done, done);
        if (io.options.json) return;
        progress?.clear();
        if (document.printed) {
          const copies = run.copies[document.kind] ?? 1;
          if (io.options.quiet) io.out(document.name);
          else
            io.out(
              `printed  ${document.name}  on ${printerName(run, document.kind)}${copies > 1 ? `  (${copies} copies)` : ''}${document.requestId ? `  ${document.requestId}` : ''}`,
            );
        } else if (document.reason && !stoppedByPrinter(document)) io.error(`${document.name}: not printed: ${document.reason}`);
      },
    }));
  } finally {
    process.off('SIGINT', onInterrupt);
    progress?.clear();
  }
  report(io, run, scope);
  if (stoppedBy) return { run, failure: new CliError(stoppedBy.line(), stoppedBy, { jsonWritten: io.options.json }) };
  const missed = openDocuments(run);
  if (missed.length > 0) {
    return { run, failure: new CliError(`${plural(missed.length, 'document')} not printed (named above); the others were`, 'REJECTED', { jsonWritten: io.options.json }) };
  }
  return { run };
}

/** Each warning of the documents once per run (600 labels share their warnings). */
export function warnOnce(io: IO): (warnings: ReadonlyArray<{ code: string; message: string }>) => void {
  const said = new Set<string>();
  return (warnings) => {
    const fresh = warnings.filter((item) => !said.has(`${item.code} ${item.message}`));
    for (const item of fresh) said.add(`${item.code} ${item.message}`);
    io.warnAll(fresh);
  };
}

/** A document whose reason is the printer's failure is said once, by the command's error line. */
function stoppedByPrinter(document: PrintedDocument): boolean {
  return /^printer |^lp|^no print spooler|^stopped by Ctrl-C/.test(document.reason ?? '');
}

function printerName(run: PrintRun, kind: string): string {
  return run.printers[kind] || "the system's default queue";
}

function scopeName(scope: string): string {
  return scope.startsWith('import:') ? 'this import file' : `shipper ${scope}`;
}

function resumeCommand(scope: string): string {
  return scope.startsWith('import:') ? 'shipper import FILE --print (the same file)' : `shipper ${scope} --resume`;
}

/** The failure of a printer check, before anything was sent: the run is reported as not printed. */
function asPrintFailure(io: IO, error: unknown, run: PrintRun): unknown {
  if (!(error instanceof PrintError)) return error;
  for (const document of run.documents) if (!document.printed) document.reason ??= 'not sent: the printer check failed';
  if (io.options.json) io.json(jsonOf(run));
  return new CliError(error.line(), error, { jsonWritten: io.options.json });
}

/** The JSON of a run: each document with printed true|false and the reason. */
export function jsonOf(run: PrintRun) {
  const documents = run.documents.map(({ kind, shipmentId, name, printed, printedAt, requestId, reason }) => ({
    kind,
    shipmentId,
    document: name,
    printed,
    ...(printedAt ? { printedAt } : {}),
    ...(requestId ? { requestId } : {}),
    ...(printed ? {} : { reason: reason ?? 'not sent' }),
  }));
  return {
    printRun: run.id,
    printers: run.printers,
    copies: run.copies,
    printed: documents.filter((document) => document.printed).length,
    notPrinted: documents.filter((document) => !document.printed).length,
    documents,
  };
}

function report(io: IO, run: PrintRun, scope: string): void {
  if (io.options.json) return;
  const printed = run.documents.filter((document) => document.printed).length;
  const missed = run.documents.length - printed;
  if (missed === 0) {
    io.note(`Printed ${plural(printed, 'document')} (print run ${run.id})`);
    return;
  }
  io.note(`Printed ${printed} of ${plural(run.documents.length, 'document')}; ${missed} not printed; ${resumeCommand(scope)} prints them (and nothing twice)`);
}
