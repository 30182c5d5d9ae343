/**
 * `shipper labels ID [-o FILE] [--format pdf|zpl] [--force]`: GS1 logistic labels, one per pallet.
 * With --print, any number of shipments (or --all) go to the printer in order: ZPL to a thermal
 * printer, 4x6 PDF pages to a spooler queue.
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { offering } from '../optionParsers.js';
import type { CommandContext, ContextFactory } from '../context.js';
import type { ShipperCommand } from '../examples.js';
import { outputPath, writeOutput } from '../outputFile.js';
import { SHIPMENT_ARGUMENT, shipmentIdOf } from '../shipmentRef.js';
import { addPrintOptions, checkPrintFlags, type PrintFlags } from '../printOptions.js';
import { UsageError } from '../errors.js';
import { documentPdf } from '../documentDownload.js';

export interface LabelOptions extends PrintFlags {
  output?: string;
  all?: boolean;
  format: 'pdf' | 'zpl';
  force?: boolean;
}

export async function runLabels(ctx: CommandContext, references: string | string[], options: LabelOptions): Promise<void> {
  const list = typeof references === 'string' ? [references] : references;
  if (checkPrintFlags(options)) return printLabels(ctx, list, options);
  if (options.all) throw new UsageError('--all needs --print: labels are written one shipment at a time', 'shipper labels --all --print, or shipper labels <shipment> -o FILE');
  if (list.length !== 1)
    throw new UsageError(list.length === 0 ? 'no shipment given' : 'one shipment at a time without --print', 'example: shipper labels <shipment> [-o labels.pdf]');
  const reference = list[0]!;
  const api = await ctx.api();
  const id = await shipmentIdOf(api, reference);
  const { data: shipment } = await api.getShipment(id);
  const file = await outputPath(options.output, `labels-${shipment.orderNumber}.${options.format}`, Boolean(options.force));
  // Remote mode: PDF labels through their download link (ZPL is the extension's).
  const render = () => api.renderLabels(id, { format: options.format });
  const { data: bytes, warnings } = options.format === 'pdf' ? await documentPdf(api, shipment.orderNumber, 'SHIPPING_LABEL', render) : await render();
  ctx.io.warnAll(warnings);
  await writeOutput(ctx.io, file, bytes, `${shipment.ssccs.length || 'the'} pallet label(s) of ${shipment.orderNumber}`, Boolean(options.force));
  if (ctx.io.options.json && file !== '-') ctx.io.json({ shipmentId: id, file, format: options.format, bytes: bytes.byteLength });
}

/**
 * `labels --print`: the labels of each shipment, one document per shipment, in order; with -o
 * (one shipment) the file is written too, in --format.
 */
async function printLabels(ctx: CommandContext, references: string[], options: LabelOptions): Promise<void> {
  const [{ printDocuments, jsonOf, warnOnce }, { capturingJson }] = await Promise.all([import('../printDocuments.js'), import('../printCapture.js')]);
  const api = await ctx.api();
  const ids: string[] = [];
  const orderNumbers = new Map<string, string>();
  if (!options.resume) {
    for (const reference of references) ids.push(await shipmentIdOf(api, reference));
    if (options.all) {
      const every: string[] = [];
      let cursor: string | undefined;
      do {
        const { data: page } = await api.listShipments({ limit: 500, cursor });
        for (const shipment of page.items) {
          every.push(shipment.id);
          orderNumbers.set(shipment.id, shipment.orderNumber);
        }
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      // The store lists newest first; a dock prints in booking order.
      ids.push(...every.reverse());
    }
    if (ids.length === 0 && !options.all)
      throw new UsageError('no shipment given', 'example: shipper labels <shipment> --print, shipper labels --all --print, shipper labels --resume');
  }
  if (options.output && ids.length > 1) throw new UsageError("-o names the file of one shipment's labels; with several shipments, print without -o");
  let fileJson: Record<string, unknown> | undefined;
  if (options.output && ids.length === 1) {
    await runLabels(
      capturingJson(ctx, (value) => (fileJson = value as Record<string, unknown>)),
      ids[0]!,
      { ...options, print: false, resume: false, printer: undefined, copies: undefined, all: false },
    );
  }
  const requests = [];
  for (const shipmentId of [...new Set(ids)]) {
    const orderNumber = orderNumbers.get(shipmentId) ?? (await api.getShipment(shipmentId)).data.orderNumber;
    requests.push({ kind: 'labels' as const, shipmentId, name: `labels-${orderNumber}` });
  }
  const warn = warnOnce(ctx.io);
  const { run, failure } = await printDocuments(ctx, 'labels', requests, options, async (_kind, shipmentId, format) => {
    const { data: bytes, warnings } = await api.renderLabels(shipmentId, { format });
    warn(warnings);
    return bytes;
  });
  if (ctx.io.options.json) ctx.io.json({ ...(fileJson ?? {}), ...jsonOf(run) });
  if (failure) throw failure;
}

export function registerLabelsCommand(program: ShipperCommand, context: ContextFactory): void {
  const command = program
    .command('labels')
    .argument('[shipments...]', `${SHIPMENT_ARGUMENT} (several with --print)`)
    .description('print the pallet labels of a shipment: a GS1 logistic label (SSCC barcode) per handling unit, 4x6 in')
    .option('-o, --output <path>', 'a file, a directory, or - for stdout (default: labels-<order number>.<format> here)')
    .addOption(
      offering(
        new Option('--format <format>', 'pdf (4x6 in pages) or zpl (203 dpi thermal printers)')
          .argParser((value: string) => {
            const format = value.trim().toLowerCase();
            if (format !== 'pdf' && format !== 'zpl') throw new InvalidArgumentError('must be pdf or zpl');
            return format;
          })
          .default('pdf'),
        ['pdf', 'zpl'],
      ),
    )
    .option('--force', 'overwrite the file if it exists')
    .option('--all', 'every shipment in the store (with --print)');
  addPrintOptions(command, 'labels (ZPL to a thermal printer, 4x6 PDF to a queue)')
    .examples(
      'shipper labels sh_01JD3Y7T9Q2W5E8R1T4Y7U0I3O',
      'shipper labels sh_01JD3Y7T9Q2W5E8R1T4Y7U0I3O --format zpl -o - | nc zebra.local 9100',
      'shipper labels SO-000123 SO-000124 --print --printer tcp://10.0.0.50:9100',
      'shipper labels --all --print --printer zebra-dock2',
    )
    .action(async (ids: string[], options: LabelOptions, command: Command) => runLabels(context(command), ids, options));
}
