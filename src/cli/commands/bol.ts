/**
 * `shipper bol SHIPMENT_ID... [--template NAME] [-o PATH|DIR] [--force]`, `--all`, `--ids-from FILE|-`,
 * `--templates`. Files are named after the order number (`BOL-SO-000001.pdf`, as the wizard names
 * its PDF); an existing file is never replaced without --force. Every PDF is written whole or not
 * at all (src/fs/durableWrite.ts), in batches made durable together before any is reported written:
 * on a full disk the command stops, names the file, says how many were written, exits 5.
 */
import { shipmentIdOf } from '../shipmentRef.js';
import { warning } from '../../domain/warnings.js';
import type { Command } from 'commander';
import { readdir, readFile, stat } from 'node:fs/promises';
import { describeFileError, FileWriteError, removeOrphanedTemporaries, writeFilesDurably } from '../../fs/durableWrite.js';
import { makeDirectory } from '../../fs/makeDirectory.js';
import { basename, extname, join, resolve } from 'node:path';
import type { ShipperApi } from '../../api/types.js';
import { ProblemError } from '../../api/problems.js';
import type { CommandContext } from '../context.js';
import { CliError, UsageError } from '../errors.js';
import { formatNumber } from '../output.js';
import type { ContextFactory } from '../context.js';
import type { ShipperCommand } from '../examples.js';
import { addPrintOptions, checkPrintFlags, type PrintFlags } from '../printOptions.js';
import { documentPdf } from '../documentDownload.js';

export interface BolOptions extends PrintFlags {
  template?: string;
  output?: string;
  all?: boolean;
  idsFrom?: string;
  templates?: boolean;
  force?: boolean;
}

/** BOLs written as one durable batch: few enough to report soon, enough to share the disk's commits. */
const BATCH_FILES = 32;
/** BOLs asked for ahead of the one being taken: enough to keep each render worker a few ahead (renderPool.ts). */
const RENDER_AHEAD = 12;
/** Batches rendered and waiting for the disk at most: rendering goes on while a batch is made durable. */
const BATCHES_WRITING = 3;

interface RenderedBol {
  shipmentId: string;
  file: string;
  pdf: Uint8Array;
}

export interface WrittenBol {
  shipmentId: string;
  file: string;
  bytes: number;
  template: string;
}

/**
 * Shipment ids from the arguments, a file or stdin (`-`), one per line or separated by spaces/commas;
 * `orderNumbers` receives the order numbers a listing already gave (--all), saving a read each.
 */
async function collectIds(ctx: CommandContext, api: ShipperApi, args: string[], options: BolOptions, orderNumbers: Map<string, string>): Promise<string[]> {
  const ids = args.filter((arg) => arg !== '-');
  const readList = (text: string) =>
    text
      .split(/[\s,]+/)
      .map((id) => id.trim())
      .filter(Boolean);
  if (args.includes('-') || options.idsFrom === '-') ids.push(...readList(await readStream(ctx.io.streams.stdin)));
  if (options.idsFrom && options.idsFrom !== '-') {
    try {
      ids.push(...readList(await readFile(options.idsFrom, 'utf8')));
    } catch (error) {
      throw new UsageError(`cannot read --ids-from ${options.idsFrom}: ${(error as Error).message}`);
    }
  }
  if (options.all) {
    let cursor: string | undefined;
    do {
      const { data: page } = await api.listShipments({ limit: 500, cursor });
      for (const shipment of page.items) {
        ids.push(shipment.id);
        orderNumbers.set(shipment.id, shipment.orderNumber);
      }
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  }
  return [...new Set(ids)];
}

async function readStream(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
  return text;
}

/**
 * Where each PDF goes: `-o file.pdf` (one shipment) is that file; any other -o, or an existing
 * directory even when its name ends in .pdf, is a directory (created when missing); default: here.
 */
async function outputPlan(output: string | undefined, count: number): Promise<{ dir: string; file?: string }> {
  const target = resolve(output ?? '.');
  const existing = await stat(target).catch(() => undefined);
  if (output && !existing?.isDirectory() && !/[\\/]$/.test(output) && extname(output).toLowerCase() === '.pdf') {
    if (count > 1) throw new UsageError(`-o ${output} names one file but ${count} BOLs were asked for; give a directory instead`);
    return { dir: resolve(target, '..'), file: target };
  }
  if (existing && !existing.isDirectory()) throw new UsageError(`-o ${output}: not a directory (name a .pdf file for a single BOL)`);
  return { dir: target };
}

/** Order numbers become file names: only the characters of SO-000123 (a remote server could send anything). */
const FILE_SAFE = /^[A-Za-z0-9_-]{1,64}$/;

/** `BOL-SO-000001.pdf`; `BOL-<shipment id>.pdf` when the order number cannot be a file name. */
function bolFileName(orderNumber: string | undefined, shipmentId: string): string {
  if (orderNumber && FILE_SAFE.test(orderNumber)) return `BOL-${orderNumber}.pdf`;
  return `BOL-${shipmentId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64)}.pdf`;
}

export async function runBol(ctx: CommandContext, args: string[], options: BolOptions): Promise<void> {
  if (checkPrintFlags(options) && !options.templates) return printBols(ctx, args, options);
  const api = await ctx.api();
  if (options.templates) return runBolTemplates(ctx, api);
  const orderNumbers = new Map<string, string>();
  const ids = await collectIds(ctx, api, args, options, orderNumbers);
  if (ids.length === 0 && options.all) {
    // Nothing to print is not an error for a script that prints whatever was booked.
    if (ctx.io.options.json) return ctx.io.json({ written: [], skipped: [], failed: [] });
    return ctx.io.note('No shipments in the store: no BOLs written');
  }
  if (ids.length === 0) {
    throw new UsageError('no shipment given', 'example: shipper bol <shipment-id> [-o bol.pdf], shipper bol --all -o bols/, shipper bol --templates');
  }
  const template = options.template ?? 'standard';
  const plan = await outputPlan(options.output, ids.length);
  await makeDirectory(plan.dir).catch((error: Error) => {
    throw new CliError(`cannot create ${plan.dir}: ${error.message}`, 'LOCAL_FAILURE');
  });
  // What a killed earlier run left half-written (never under a .pdf name) goes now.
  await removeOrphanedTemporaries(plan.dir, /^.+\.pdf\.(\d+)\.\d+\.tmp$/i);
  // The names already there, read once: a BOL whose file exists is not rendered for nothing (one
  // that appears meanwhile is still refused when its batch is put in place).
  const present = options.force ? new Set<string>() : new Set(await readdir(plan.dir).catch(() => [] as string[]));

  const written: WrittenBol[] = [];
  const skipped: Array<{ shipmentId: string; file: string }> = [];
  const failures: Array<{ shipmentId: string; error: unknown }> = [];
  const summary = () => `${written.length} of ${ids.length} BOLs written to ${plan.dir}`;
  const skip = (shipmentId: string, file: string) => {
    skipped.push({ shipmentId, file });
    if (ids.length > 1) ctx.io.warn(warning('FILE_EXISTS', `${file} exists: not replaced (--force replaces it)`));
  };

  // Files are written in batches made durable together (src/fs/durableWrite.ts), one batch after
  // the other, each reported once it is; the next batches render meanwhile, so the disk's waits
  // hide behind the rendering.
  let batch: RenderedBol[] = [];
  /** The batches handed to the disk and not yet awaited, in order; each resolves with the first failure so far. */
  const writing: Array<Promise<FileWriteError | undefined>> = [];
  let committing: Promise<FileWriteError | undefined> = Promise.resolve(undefined);
  /** A batch that could not be written: nothing more is rendered. */
  let writeFailure: FileWriteError | undefined;
  const commit = async (files: RenderedBol[]): Promise<FileWriteError | undefined> => {
    try {
      const { outcomes, failure } = await writeFilesDurably(
        files.map(({ file, pdf }) => ({ file, data: pdf })),
        { whenExists: options.force ? 'replace' : 'refuse' },
      );
      outcomes.forEach((outcome, index) => {
        const { shipmentId, pdf } = files[index]!;
        if ('error' in outcome) return skip(shipmentId, outcome.file);
        written.push({ shipmentId, file: outcome.written, bytes: pdf.byteLength, template });
        // -q: the path alone, one per line.
        if (!ctx.io.options.json) ctx.io.out(ctx.io.options.quiet ? outcome.written : `${shipmentId}  ${outcome.written}  (${formatNumber(Math.round(pdf.byteLength / 1024))} KB)`);
      });
      return (writeFailure ??= failure);
    } catch (error) {
      return (writeFailure ??= new FileWriteError(files[0]?.file ?? plan.dir, (error as NodeJS.ErrnoException).code, describeFileError(error)));
    }
  };
  /** Waits for the batches being written until at most `left` are (reported by then); a write failure stops the command. */
  const settle = async (left = 0) => {
    while (writing.length > left) {
      const failure = await writing.shift();
      if (failure) throw failure;
    }
  };
  const flush = async () => {
    if (batch.length > 0) {
      const files = batch;
      batch = [];
      // After the batch before it; once one failed, the next are not written (the failure is passed on).
      committing = committing.then(async (failure) => failure ?? (await commit(files)));
      writing.push(committing);
    }
    await settle(BATCHES_WRITING);
  };

  // Several BOLs render at once (the local engine on worker threads, a server side by side),
  // taken in order: the first failure in the list's order stops the command, as one by one would.
  type Rendered =
    | { kind: 'rendered'; shipmentId: string; file: string; pdf: Uint8Array }
    | { kind: 'skipped'; shipmentId: string; file: string }
    | { kind: 'failed'; shipmentId: string; error: ProblemError };
  const prepare = async (reference: string): Promise<Rendered> => {
    let shipmentId = reference;
    try {
      shipmentId = await shipmentIdOf(api, reference);
      const orderNumber = orderNumbers.get(shipmentId) ?? (await api.getShipment(shipmentId)).data.orderNumber;
      const file = plan.file ?? join(plan.dir, bolFileName(orderNumber, shipmentId));
      // Not rendered for nothing: a file that is there stays unless --force.
      if (!options.force && (plan.file ? await stat(file).catch(() => undefined) : present.has(basename(file)))) return { kind: 'skipped', shipmentId, file };
      // Remote mode: the standard BOL through its download link (another template is the extension's).
      const render = () => api.renderBol(shipmentId, { template });
      const { data: pdf, warnings } = template === 'standard' ? await documentPdf(api, orderNumber, 'BILL_OF_LADING', render) : await render();
      ctx.io.warnAll(warnings);
      return { kind: 'rendered', shipmentId, file, pdf };
    } catch (error) {
      // A template problem or a down server fails every BOL the same way: stop at the first.
      if (!(error instanceof ProblemError) || error.status !== 404) throw error;
      // One shipment asked for: its "not found" is the whole story, in one line.
      if (ids.length === 1 && !ctx.io.options.json) throw error;
      return { kind: 'failed', shipmentId, error };
    }
  };
  const ahead: Array<Promise<Rendered>> = [];
  try {
    let next = 0;
    while (next < ids.length || ahead.length > 0) {
      if (writeFailure) throw writeFailure;
      while (next < ids.length && ahead.length < RENDER_AHEAD) {
        const task = prepare(ids[next++]!);
        // Awaited in turn below; meanwhile a failure must not count as unhandled.
        task.catch(() => undefined);
        ahead.push(task);
      }
      const done = await ahead.shift()!;
      if (done.kind === 'skipped') skip(done.shipmentId, done.file);
      else if (done.kind === 'failed') {
        failures.push({ shipmentId: done.shipmentId, error: done.error });
        ctx.io.error(`${done.shipmentId}: ${done.error.message}`);
      } else {
        batch.push({ shipmentId: done.shipmentId, file: done.file, pdf: done.pdf });
        if (batch.length >= BATCH_FILES) await flush();
      }
    }
    await flush();
    await settle();
  } catch (error) {
    // What is being rendered is let finish; what is being written is finished (and reported) before the command stops.
    await Promise.allSettled(ahead);
    const firstWriteFailure = await committing;
    const failure = error instanceof FileWriteError ? error : firstWriteFailure;
    if (!(failure instanceof FileWriteError)) throw error;
    // A full disk or a read-only directory fails every BOL after it: stop, say what was written.
    if (ctx.io.options.json) ctx.io.json({ written, skipped, failed: [] });
    else if (ids.length > 1) ctx.io.note(summary());
    throw new CliError(failure.message, failure, { jsonWritten: ctx.io.options.json === true });
  }
  const jsonWritten = ctx.io.options.json === true;
  if (jsonWritten) {
    ctx.io.json({ written, skipped, failed: failures.map(({ shipmentId, error }) => ({ shipmentId, problem: (error as ProblemError).problem })) });
  } else if (ids.length > 1) {
    ctx.io.note(`${summary()}${skipped.length > 0 ? `; ${skipped.length} not replaced (--force replaces them)` : ''}`);
  }
  if (failures.length > 0) {
    throw new CliError(`${failures.length} of ${ids.length} shipments not found`, failures[0]!.error as ProblemError, { jsonWritten });
  }
  if (skipped.length > 0) {
    throw new CliError(
      ids.length === 1
        ? `${skipped[0]!.file} exists: not replaced (--force replaces it)`
        : `${skipped.length} of ${ids.length} BOLs not written: their files exist (--force replaces them)`,
      // As every command's output file that exists without --force: a usage error (help exit-codes).
      'USAGE',
      { jsonWritten },
    );
  }
}

/**
 * `bol --print`: the BOLs of the shipments asked for, rendered in order and sent to the printer
 * (src/cli/printDocuments.ts); with -o they are written as without --print first. Without -o
 * nothing is written: a dock that prints does not collect PDFs in its working directory.
 */
async function printBols(ctx: CommandContext, args: string[], options: BolOptions): Promise<void> {
  const [{ printDocuments, jsonOf, warnOnce }, { capturingJson }] = await Promise.all([import('../printDocuments.js'), import('../printCapture.js')]);
  const api = await ctx.api();
  const template = options.template ?? 'standard';
  const orderNumbers = new Map<string, string>();
  const references = options.resume ? [] : await collectIds(ctx, api, args, options, orderNumbers);
  // --all lists newest first; a dock prints in booking order (ids sort by creation time).
  if (options.all) references.reverse();
  if (!options.resume && references.length === 0) {
    if (options.all)
      return ctx.io.options.json
        ? ctx.io.json(jsonOf({ id: '', scope: 'bol', startedAt: '', printers: {}, copies: {}, documents: [] }))
        : ctx.io.note('No shipments in the store: nothing printed');
    throw new UsageError('no shipment given', 'example: shipper bol <shipment-id> --print, shipper bol --all --print, shipper bol --resume');
  }
  const ids: string[] = [];
  for (const reference of references) {
    const id = await shipmentIdOf(api, reference);
    ids.push(id);
    if (!orderNumbers.has(id)) orderNumbers.set(id, (await api.getShipment(id)).data.orderNumber);
  }
  let fileJson: Record<string, unknown> | undefined;
  let fileFailure: unknown;
  if (options.output && ids.length > 0) {
    try {
      await runBol(
        capturingJson(ctx, (value) => (fileJson = value as Record<string, unknown>)),
        ids,
        { ...options, print: false, resume: false, printer: undefined, copies: undefined, all: false, idsFrom: undefined },
      );
    } catch (error) {
      fileFailure = error;
    }
  }
  const requests = ids.map((shipmentId) => ({ kind: 'bol' as const, shipmentId, name: bolFileName(orderNumbers.get(shipmentId), shipmentId).replace(/\.pdf$/, '') }));
  const warn = warnOnce(ctx.io);
  const { run, failure } = await printDocuments(ctx, 'bol', requests, options, async (_kind, shipmentId) => {
    const { data: pdf, warnings } = await api.renderBol(shipmentId, { template });
    warn(warnings);
    return pdf;
  });
  if (ctx.io.options.json) ctx.io.json({ ...(fileJson ?? {}), ...jsonOf(run) });
  const jsonWritten = ctx.io.options.json === true;
  if (failure) {
    if (fileFailure instanceof Error) ctx.io.error(fileFailure.message);
    throw failure;
  }
  if (fileFailure instanceof CliError || fileFailure instanceof ProblemError) throw new CliError(fileFailure.message, fileFailure, { jsonWritten });
  if (fileFailure) throw fileFailure;
}

async function runBolTemplates(ctx: CommandContext, api: ShipperApi): Promise<void> {
  const {
    data: { items: templates },
  } = await api.listBolTemplates();
  if (ctx.io.options.json) return ctx.io.json(templates);
  ctx.io.out(
    ctx.io.fittedTable(
      ['Template', 'Description'],
      templates.map((template) => [template.name, template.description]),
      [{ shrink: [1], min: 20 }],
    ),
  );
}

export function registerBolCommand(program: ShipperCommand, context: ContextFactory): void {
  const command = program
    .command('bol')
    .description('render Bill of Lading PDFs (one per shipment)')
    .argument('[shipments...]', 'shipment ids, order numbers (SO-000123) or BOL numbers; - reads them from stdin')
    .option('-t, --template <name>', 'BOL template (see --templates)', 'standard')
    .option('-o, --output <path>', 'a .pdf file for one shipment, else a directory (default: the current directory)')
    .option('--all', 'every shipment in the store')
    .option('--ids-from <file>', 'read shipment ids from a file (- for stdin)')
    .option('--templates', 'list the BOL templates')
    .option('--force', 'replace PDFs that exist (default: keep them and exit 2)');
  addPrintOptions(command, 'BOLs (Letter)')
    .examples(
      'shipper bol sh_01JD3Y7T9Q2W5E8R1T4Y7V0A3B                     (writes BOL-SO-000123.pdf here)',
      'shipper bol sh_01JD3Y7T9Q2W5E8R1T4Y7V0A3B -o bol.pdf --force',
      'shipper bol sh_01JD... sh_01JE... --template acme-logistics -o bols/',
      `shipper shipment list --json | jq -r '.items[].id' | shipper bol - -o bols/`,
      'shipper bol --all -o bols/',
      'shipper bol --templates',
      'shipper bol --all --print --printer dock-laser --copies 3',
      'shipper bol --resume --print                          (after a jam: the BOLs not printed, none twice)',
    )
    .action(async (ids: string[], options: BolOptions, command: Command) => runBol(context(command), ids, options));
}
