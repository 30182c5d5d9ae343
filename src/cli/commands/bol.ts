/** `shipper bol SHIPMENT_ID... [--template NAME] [-o PATH|DIR]`, `--all`, `--ids-from FILE|-`, `--templates`. */
import type { Command } from 'commander';
import { readFile, stat } from 'node:fs/promises';
import { makeDirectory } from '../../fs/makeDirectory.js';
import { basename, extname, join, resolve } from 'node:path';
import type { ShipperApi } from '../../api/types.js';
import { ProblemError } from '../../api/problems.js';
import type { CommandContext } from '../context.js';
import { CliError, ExitCode, UsageError } from '../errors.js';
import { formatNumber } from '../output.js';
import type { ContextFactory } from '../context.js';

export interface BolOptions {
  template?: string;
  output?: string;
  all?: boolean;
  idsFrom?: string;
  templates?: boolean;
}

export interface WrittenBol {
  shipmentId: string;
  file: string;
  bytes: number;
  template: string;
}

/** Shipment ids from the arguments, a file or stdin (`-`), one per line or separated by spaces/commas. */
async function collectIds(ctx: CommandContext, api: ShipperApi, args: string[], options: BolOptions): Promise<string[]> {
  const ids = args.filter((arg) => arg !== '-');
  const readList = (text: string) => text.split(/[\s,]+/).map((id) => id.trim()).filter(Boolean);
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
      ids.push(...page.items.map((shipment) => shipment.id));
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

/** Where each PDF goes: `-o file.pdf` for one shipment, else a directory (default: the current one). */
async function outputPlan(output: string | undefined, count: number): Promise<{ dir: string; file?: string }> {
  if (output && extname(output).toLowerCase() === '.pdf') {
    if (count > 1) throw new UsageError(`-o ${output} names one file but ${count} BOLs were asked for; give a directory instead`);
    return { dir: resolve(output, '..'), file: resolve(output) };
  }
  const dir = resolve(output ?? '.');
  const existing = await stat(dir).catch(() => undefined);
  if (existing && !existing.isDirectory()) throw new UsageError(`-o ${output}: not a directory (name a .pdf file for a single BOL)`);
  return { dir };
}

export async function runBol(ctx: CommandContext, args: string[], options: BolOptions): Promise<void> {
  const api = await ctx.api();
  if (options.templates) return runBolTemplates(ctx, api);
  const ids = await collectIds(ctx, api, args, options);
  if (ids.length === 0 && options.all) {
    // Nothing to print is not an error for a script that prints whatever was booked.
    if (ctx.io.options.json) return ctx.io.json({ written: [], failed: [] });
    return ctx.io.note('No shipments in the store: no BOLs written');
  }
  if (ids.length === 0) {
    throw new UsageError('no shipment given', 'example: shipper bol <shipment-id> [-o bol.pdf], shipper bol --all -o bols/, shipper bol --templates');
  }
  const template = options.template ?? 'standard';
  const plan = await outputPlan(options.output, ids.length);
  await makeDirectory(plan.dir).catch((error: Error) => {
    throw new CliError(`cannot create ${plan.dir}: ${error.message}`, ExitCode.local);
  });
  const { default: writeFileAtomic } = await import('write-file-atomic');

  const written: WrittenBol[] = [];
  const failures: Array<{ shipmentId: string; error: unknown }> = [];
  for (const shipmentId of ids) {
    try {
      const { data: pdf, warnings } = await api.renderBol(shipmentId, { template });
      warnings.forEach((warning) => ctx.io.warn(warning));
      const file = plan.file ?? join(plan.dir, `BOL-${basename(shipmentId)}.pdf`);
      // Atomic: a failed or interrupted run never leaves a truncated PDF behind.
      await writeFileAtomic(file, Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength));
      written.push({ shipmentId, file, bytes: pdf.byteLength, template });
      if (!ctx.io.options.json) ctx.io.info(`${shipmentId}  ${file}  (${formatNumber(Math.round(pdf.byteLength / 1024))} KB)`);
    } catch (error) {
      // A template problem or a down server fails every BOL the same way: stop at the first.
      if (!(error instanceof ProblemError) || error.status !== 404) throw error;
      // One shipment asked for: its "not found" is the whole story, in one line.
      if (ids.length === 1 && !ctx.io.options.json) throw error;
      failures.push({ shipmentId, error });
      ctx.io.error(`${shipmentId}: ${error.message}`);
    }
  }
  if (ctx.io.options.json) {
    ctx.io.json({ written, failed: failures.map(({ shipmentId, error }) => ({ shipmentId, problem: (error as ProblemError).problem })) });
  } else if (ids.length > 1) {
    ctx.io.note(`${written.length} of ${ids.length} BOLs written to ${plan.dir}`);
  }
  if (failures.length > 0) {
    throw new CliError(`${failures.length} of ${ids.length} shipments not found`, (failures[0]!.error as ProblemError).exitCode(ctx.mode));
  }
}

async function runBolTemplates(ctx: CommandContext, api: ShipperApi): Promise<void> {
  const { data: { items: templates } } = await api.listBolTemplates();
  if (ctx.io.options.json) return ctx.io.json(templates);
  ctx.io.out(ctx.io.table(['Template', 'Description'], templates.map((template) => [template.name, template.description])));
}

export function registerBolCommand(program: Command, context: ContextFactory): void {
  program
    .command('bol')
    .description('render Bill of Lading PDFs (one per shipment)')
    .argument('[shipment-ids...]', 'shipment ids; - reads ids from stdin')
    .option('-t, --template <name>', 'BOL template (see --templates)', 'standard')
    .option('-o, --output <path>', 'a .pdf file for one shipment, else a directory (default: the current directory)')
    .option('--all', 'every shipment in the store')
    .option('--ids-from <file>', 'read shipment ids from a file (- for stdin)')
    .option('--templates', 'list the BOL templates')
    .addHelpText(
      'after',
      `
Examples:
  $ shipper bol sh_01JD3Y7T9Q2W5E8R1T4Y7V0A3B -o bol.pdf
  $ shipper bol sh_01JD... sh_01JE... --template acme-logistics -o bols/
  $ shipper shipment list --json | jq -r '.items[].id' | shipper bol - -o bols/
  $ shipper bol --all -o bols/
  $ shipper bol --templates`,
    )
    .action(async (ids: string[], options: BolOptions, command: Command) => runBol(context(command), ids, options));
}
