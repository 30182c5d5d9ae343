/**
 * The work of `shipper import` (registered in import.ts, which loads this module, and with it
 * csv-parse, only when the command runs).
 */
import { constants } from 'node:fs';
import { isFreightCheckCode, warning } from '../../domain/warnings.js';
import { access, stat } from 'node:fs/promises';
import { describeFileError } from '../../fs/durableWrite.js';
import { basename, dirname, extname, join, resolve } from 'node:path';
import type { ProblemDetail } from '../../domain/schemas.js';
import type { CsvEncoding } from '../../import/csvFile.js';
import { ImportCancelledError, ImportInterruptedError, ImportRejectedError, importShipments, type ImportedShipment, type ImportSummary } from '../../import/importer.js';
import type { CsvViolation } from '../../import/rows.js';
import type { CommandContext } from '../context.js';
import { asShipperError, CliError, ExitCode, UsageError } from '../errors.js';
import { formatCents, formatNumber, plural, type IO } from '../output.js';
import { localDateInZone } from '../../domain/dates.js';
import { ProgressBar, wantsProgress } from '../progress.js';
import { cachedLocationResolver } from '../savedLocations.js';
import type { PrintFlags } from '../printOptions.js';
import type { PrintOutcome } from '../printDocuments.js';

export interface ImportCommandOptions extends Pick<PrintFlags, 'print' | 'printer' | 'copies'> {
  /** --print: the printer of the BOLs, and of the labels, beating --printer. */
  bolPrinter?: string;
  labelPrinter?: string;
  dryRun?: boolean;
  skipInvalid?: boolean;
  /** false: --no-confirm (every order INITIALIZED). */
  confirm?: boolean;
  rejects?: string;
  allowDuplicateRef?: boolean;
  encoding?: CsvEncoding;
}

/** Problems printed on the terminal; the rest are in the reject file (or --json). */
const LISTED_ON_TERMINAL = 20;

/**
 * Which warnings an import prints: each once, and of the freight check's (which may warn on every
 * line of a large file) the first LISTED_ON_TERMINAL; the summary counts them all. A warning
 * without a CSV line (a batch's, given with each chunk) is remembered for the whole import; a
 * line's warnings come with their shipment, once, and are remembered until it is reported; one not
 * printed is not remembered. So memory stays flat however many lines warn.
 */
export class PrintedWarnings {
  private readonly unlined = new Set<string>();
  private readonly ofShipment = new Set<string>();
  private freightListed = 0;

  /** Whether to print this warning (`lined`: it names a CSV line). */
  admit(code: string, message: string, lined: boolean): boolean {
    const key = `${code} ${message}`;
    const printed = lined ? this.ofShipment : this.unlined;
    if (printed.has(key)) return false;
    if (isFreightCheckCode(code)) {
      if (this.freightListed >= LISTED_ON_TERMINAL) return false;
      this.freightListed++;
    }
    printed.add(key);
    return true;
  }

  /** The shipment whose warnings came last has been reported. */
  shipmentReported(): void {
    this.ofShipment.clear();
  }

  /** How many warnings are remembered (for tests: it must not grow with the file). */
  get remembered(): number {
    return this.unlined.size + this.ofShipment.size;
  }
}

/** `orders.csv` -> `orders.rejected.csv`, beside the input. */
export function defaultRejectsPath(file: string): string {
  const extension = extname(file);
  return join(dirname(file), `${basename(file, extension)}.rejected${extension || '.csv'}`);
}

export async function runImport(ctx: CommandContext, file: string, options: ImportCommandOptions): Promise<void> {
  const { io } = ctx;
  if (!options.print && [options.printer, options.bolPrinter, options.labelPrinter, options.copies].some((value) => value !== undefined)) {
    throw new UsageError('--printer, --bol-printer, --label-printer and --copies need --print');
  }
  if (options.print && options.dryRun) throw new UsageError('--print books nothing with --dry-run, so it prints nothing: drop one of them');
  const rejectsFile = options.rejects ?? (options.skipInvalid && !options.dryRun ? defaultRejectsPath(file) : undefined);
  if (rejectsFile && resolve(rejectsFile) === resolve(file)) throw new UsageError('--rejects must not be the file being imported');
  // A reject file is never replaced (it may be the one being fixed). A name the user chose must
  // mean that file, so it must be free; the default name moves on to orders.rejected-2.csv.
  if (options.rejects && (await stat(options.rejects).catch(() => undefined))) {
    throw new UsageError(`--rejects ${options.rejects} exists; shipper never replaces a reject file`, 'remove it or name another file');
  }
  // Found now, not after half the file is booked: the directory of --rejects must take a file.
  // (The default one, beside the input, is needed only when a row is rejected.)
  if (options.rejects) {
    await access(dirname(resolve(options.rejects)), constants.W_OK).catch((error: unknown) => {
      throw new CliError(`cannot write the reject file ${options.rejects}: ${describeFileError(error)}`, 'LOCAL_FAILURE');
    });
  }

  const api = await ctx.api();
  const locations = cachedLocationResolver(await ctx.locations());
  const document = io.options.json ? new ImportDocument(io, file, Boolean(options.dryRun)) : undefined;
  const progress = wantsProgress(Boolean(io.streams.stderr.isTTY), io.options, ctx.env) ? new ProgressBar(io.streams.stderr) : undefined;
  // Pickup dates in words count from today at the shipment's origin, as --pickup-date does (one lookup per origin ZIP).
  const [zips, clock, settings] = await Promise.all([ctx.zips(), ctx.clock(), ctx.settings()]);
  const carrierNameOf = (scac: string) => settings.carriers[scac]?.name;
  const todayByOrigin = new Map<string, string>();
  const todayAt = (zip: string | undefined) => {
    const key = zip ?? '';
    if (!todayByOrigin.has(key)) todayByOrigin.set(key, localDateInZone(clock(), (zip ? zips.lookup(zip)?.timeZone : undefined) ?? 'America/Chicago'));
    return todayByOrigin.get(key)!;
  };
  const printed = new PrintedWarnings();
  /** The file's shipments booked (now or by an earlier import), for --print: printed in file order. */
  const bookedShipments: Array<{ line: number; id: string; orderNumber: string | undefined }> = [];

  // Ctrl-C: stop after the shipments being booked now, and say what was booked; twice: at once.
  const cancel = new AbortController();
  let phase: 'checking' | 'booking' = 'checking';
  const onInterrupt = () => {
    if (cancel.signal.aborted) process.exit(ExitCode.interrupted);
    cancel.abort();
    progress?.clear();
    io.note(phase === 'checking' ? 'stopping: nothing has been booked' : 'stopping after the shipments being booked now (Ctrl-C again to quit at once)');
  };
  process.on('SIGINT', onInterrupt);

  let summary: ImportSummary;
  try {
    summary = await importShipments(
      api,
      locations,
      {
        file,
        dryRun: options.dryRun,
        skipInvalid: options.skipInvalid,
        rejectsFile,
        signal: cancel.signal,
        encoding: options.encoding,
        todayAt,
        carrierNameOf,
        allowDuplicateRef: options.allowDuplicateRef,
        confirm: options.confirm,
      },
      {
        // Checking counts the file's bytes (how many shipments it holds is not known yet); booking counts shipments.
        phase: (next, total) => {
          phase = next;
          progress?.start(next === 'checking' ? 'Checking' : 'Booking', total, next === 'checking' ? 'bytes' : 'shipments');
        },
        progress: ({ done, shipments }) => progress?.update(done, shipments),
        shipment: (shipment) => {
          printed.shipmentReported();
          if (options.print && shipment.id && shipment.status !== 'valid') bookedShipments.push({ line: shipment.line, id: shipment.id, orderNumber: shipment.orderNumber });
          document?.shipment(shipment);
          // -q: the id of every shipment of the file as it is booked (or found booked), one per line; --json wins.
          if (!document && io.options.quiet && shipment.id) io.out(shipment.id);
        },
        warning: (item, csvLine) => {
          const column = typeof item.detail?.column === 'string' ? `, column ${item.detail.column}` : '';
          const message = csvLine !== undefined ? `line ${csvLine}${column}: ${item.message}` : item.message;
          if (!printed.admit(item.code, message, csvLine !== undefined)) return;
          progress?.clear();
          io.warn({ code: item.code, message });
        },
      },
    );
  } catch (error) {
    progress?.clear();
    throw failure(error, document);
  } finally {
    process.off('SIGINT', onInterrupt);
  }
  progress?.clear();
  if (rejectsFile && summary.rejectsFile && summary.rejectsFile !== rejectsFile) {
    io.warn(warning('REJECTS_FILE_KEPT', `${rejectsFile} exists and was kept; the rejected rows are in ${summary.rejectsFile}`));
  }

  if (!document) printSummary(io, summary);
  // --print: each booked shipment's BOL and labels, in file order, after the booking.
  let printing: PrintOutcome | undefined;
  if (options.print && !summary.dryRun && bookedShipments.length > 0) printing = await printImported(ctx, file, bookedShipments, options);
  if (document) document.finish(summary, printing && (await import('../printDocuments.js')).jsonOf(printing.run));
  if (summary.rejectedShipments > 0) {
    const where = summary.rejectsFile ? `; fix them in ${summary.rejectsFile} and import that file` : '';
    const message = `${plural(summary.rejectedShipments, 'shipment')} (${plural(summary.rejectedRows, 'row')}) ${summary.dryRun ? 'invalid' : 'rejected and not booked'}${where}`;
    const rejected = new CliError([message, ...violationLines(summary)].join('\n'), 'REJECTED', { jsonWritten: Boolean(document) });
    if (!printing?.failure) throw rejected;
    io.error(rejected.message);
  }
  if (printing?.failure) throw new CliError(printing.failure.message, printing.failure, { jsonWritten: Boolean(document) });
}

/**
 * The BOL and the labels of each shipment of the file, in file order (a shipment's BOL, then its
 * labels). A re-run of the same file (the same bytes) continues the print run it left open: what
 * was printed is not printed again.
 */
async function printImported(
  ctx: CommandContext,
  file: string,
  shipments: Array<{ line: number; id: string; orderNumber: string | undefined }>,
  options: ImportCommandOptions,
): Promise<PrintOutcome> {
  const [{ printDocuments, warnOnce }, { capturingJson }, { createHash }, { readFile }] = await Promise.all([
    import('../printDocuments.js'),
    import('../printCapture.js'),
    import('node:crypto'),
    import('node:fs/promises'),
  ]);
  const api = await ctx.api();
  const digest = createHash('sha256')
    .update(await readFile(file))
    .digest('hex')
    .slice(0, 32);
  const ordered = [...shipments].sort((a, b) => a.line - b.line);
  const requests = ordered.flatMap(({ id, orderNumber }) => {
    const name = orderNumber && /^[A-Za-z0-9_-]{1,64}$/.test(orderNumber) ? orderNumber : id;
    return [
      { kind: 'bol' as const, shipmentId: id, name: `BOL-${name}` },
      { kind: 'labels' as const, shipmentId: id, name: `labels-${name}` },
    ];
  });
  const warn = warnOnce(ctx.io);
  // Its JSON goes into the import's document (ImportDocument.finish), not beside it.
  const inner = ctx.io.options.json ? capturingJson(ctx, () => undefined) : ctx;
  return printDocuments(
    inner,
    `import:${digest}`,
    requests,
    {
      print: true,
      resume: 'if-open',
      printer: options.printer,
      printers: { bol: options.bolPrinter, labels: options.labelPrinter },
      copiesByKind: { bol: options.copies },
    },
    async (kind, shipmentId, format) => {
      const { data, warnings } = kind === 'bol' ? await api.renderBol(shipmentId, { template: 'standard' }) : await api.renderLabels(shipmentId, { format });
      warn(warnings);
      return data;
    },
  );
}

/** The first problems, one per line, for the terminal; the rest are counted (all are in the reject file). */
function violationLines(summary: ImportSummary): string[] {
  const shown = summary.violations.slice(0, LISTED_ON_TERMINAL);
  const more = summary.violations.length - shown.length + summary.moreViolations;
  const lines = shown.map((violation) => `  ${describeCsvViolation(violation)}`);
  if (more > 0) lines.push(`  ... and ${formatNumber(more)} more`);
  return lines;
}

function printSummary(io: IO, summary: ImportSummary): void {
  const c = io.color;
  if (summary.dryRun) {
    io.info(
      `${c.bold('Checked')} ${summary.file} (dry run, nothing booked): ${plural(summary.valid, 'valid shipment')} of ${formatNumber(summary.shipments)} (${plural(summary.rows, 'row')}), total ${c.bold(formatCents(summary.totalPriceInCents))}`,
    );
  } else {
    io.info(
      `${c.bold('Imported')} ${summary.file}: ${plural(summary.booked, 'shipment')} booked (${plural(summary.rows, 'row')} read), total ${c.bold(formatCents(summary.totalPriceInCents))}`,
    );
  }
  if (summary.alreadyBooked > 0) {
    io.info(`  ${plural(summary.alreadyBooked, 'shipment')} already booked by an earlier import of the same orders: ${summary.dryRun ? 'would not be' : 'not'} booked again`);
  }
  if (!summary.dryRun && summary.booked + summary.alreadyBooked > 0) {
    const left =
      summary.initialized > 0
        ? `, ${c.yellow(`${formatNumber(summary.initialized)} left INITIALIZED`)}: confirm ${summary.initialized === 1 ? 'it' : 'them'} with \`shipper shipment confirm\` once ${summary.initialized === 1 ? 'it has' : 'they have'} a contact and phone`
        : '';
    io.info(`  ${formatNumber(summary.confirmed)} confirmed${left}`);
  }
  if (summary.dryRun && summary.valid > 0) {
    const left = summary.initialized > 0 ? `, ${c.yellow(`${formatNumber(summary.initialized)} would be left INITIALIZED`)}` : '';
    io.info(`  ${formatNumber(summary.confirmed)} would be confirmed${left}`);
  }
  // NOT_CONFIRMED is said by the line above (confirmed, left INITIALIZED); the rest are the check's, with a price at stake.
  const codes = Object.entries(summary.warnings).filter(([code]) => code !== 'NOT_CONFIRMED');
  if (codes.length > 0) {
    const counts = codes.map(([code, count]) => `${formatNumber(count)} ${code}`).join(', ');
    io.info(`  ${c.yellow(`warnings: ${counts}`)} (shipper check ${summary.file} lists each with the price at stake)`);
  }
  if (summary.rejectedShipments > 0) {
    io.info(
      `  ${c.red(`${plural(summary.rejectedShipments, 'shipment')} (${plural(summary.rejectedRows, 'row')}) rejected`)}${summary.rejectsFile ? ` -> ${summary.rejectsFile}` : ''}`,
    );
  }
}

/** `line 5, column poundsWeight (orderComponents[0].poundsWeight): must be a number (got "abc")` */
export function describeCsvViolation(violation: CsvViolation): string {
  const where = [`line ${violation.line}`, violation.column ? `column ${violation.column}` : ''].filter(Boolean).join(', ');
  const field = violation.field.startsWith('(') ? '' : ` (${violation.field})`;
  const value = violation.value !== undefined ? ` (got "${violation.value.length > 40 ? `${violation.value.slice(0, 39)}…` : violation.value}")` : '';
  return `${where}${field}: ${violation.reason}${value}`;
}

/**
 * A failure in the command's words: the violations under the message, and with --json the streamed
 * document ended with the error. The exit code and the ProblemDetail are the error's own.
 */
function failure(error: unknown, document: ImportDocument | undefined): unknown {
  const cause = asShipperError(error);
  const summary = cause instanceof ImportRejectedError || cause instanceof ImportInterruptedError || cause instanceof ImportCancelledError ? cause.summary : undefined;
  // Shipments listed on stdout already, or booking stopped part-way: keep it one JSON document, ending with the error.
  const streamed = document !== undefined && (document.started || cause instanceof ImportInterruptedError || cause instanceof ImportCancelledError);
  const lines = [cause.line()];
  if (cause instanceof ImportRejectedError || cause instanceof ImportInterruptedError) lines.push(...violationLines(cause.summary));
  if (cause instanceof ImportRejectedError) {
    lines.push(
      cause.summary.rejectsFile
        ? `  the rejected rows, with a reason column: ${cause.summary.rejectsFile}`
        : '  (--skip-invalid books the valid shipments and writes the rejected rows to a file; --rejects PATH writes them in any case)',
    );
  }
  if (!streamed && lines.length === 1) return error;
  const problem = cause.toProblem();
  if (streamed) document.fail(summary ?? null, problem);
  return new CliError(lines.join('\n'), cause, { problem, jsonWritten: streamed });
}

/**
 * The --json output, streamed: `{"file", "dryRun", "shipments": [...one line each...], "summary"}`
 * (plus `"error"` when booking stopped part-way), so that 20,000 shipments never sit in memory.
 */
class ImportDocument {
  started = false;

  constructor(
    private readonly io: IO,
    private readonly file: string,
    private readonly dryRun: boolean,
  ) {}

  private write(text: string): void {
    this.io.streams.stdout.write(text);
  }

  private begin(): void {
    if (this.started) return;
    this.started = true;
    this.write(`{\n  "file": ${JSON.stringify(this.file)},\n  "dryRun": ${this.dryRun},\n  "shipments": [`);
    this.first = true;
  }

  private first = true;

  shipment(entry: ImportedShipment): void {
    this.begin();
    this.write(`${this.first ? '\n' : ',\n'}    ${JSON.stringify(entry)}`);
    this.first = false;
  }

  finish(summary: ImportSummary, print?: unknown): void {
    this.begin();
    const printed = print === undefined ? '' : `,\n  "print": ${indent(JSON.stringify(print, null, 2))}`;
    this.write(`${this.first ? '' : '\n  '}],\n  "summary": ${indent(JSON.stringify(summary, null, 2))}${printed}\n}\n`);
  }

  fail(summary: ImportSummary | null, problem: ProblemDetail): void {
    this.begin();
    const parts = [`${this.first ? '' : '\n  '}]`];
    if (summary) parts.push(`  "summary": ${indent(JSON.stringify(summary, null, 2))}`);
    parts.push(`  "error": ${indent(JSON.stringify(problem, null, 2))}`);
    this.write(`${parts.join(',\n')}\n}\n`);
  }
}

function indent(json: string): string {
  return json.replace(/\n/g, '\n  ');
}
