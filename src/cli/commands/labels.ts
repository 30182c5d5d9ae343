/** `shipper labels ID [-o FILE] [--format pdf|zpl] [--force]`: GS1 logistic labels, one per pallet. */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { offering } from '../optionParsers.js';
import type { CommandContext, ContextFactory } from '../context.js';
import type { ShipperCommand } from '../examples.js';
import { outputPath, writeOutput } from '../outputFile.js';
import { SHIPMENT_ARGUMENT, shipmentIdOf } from '../shipmentRef.js';

export interface LabelOptions {
  output?: string;
  format: 'pdf' | 'zpl';
  force?: boolean;
}

export async function runLabels(ctx: CommandContext, reference: string, options: LabelOptions): Promise<void> {
  const api = await ctx.api();
  const id = await shipmentIdOf(api, reference);
  const { data: shipment } = await api.getShipment(id);
  const file = await outputPath(options.output, `labels-${shipment.orderNumber}.${options.format}`, Boolean(options.force));
  const { data: bytes, warnings } = await api.renderLabels(id, { format: options.format });
  ctx.io.warnAll(warnings);
  await writeOutput(ctx.io, file, bytes, `${shipment.ssccs.length || 'the'} pallet label(s) of ${shipment.orderNumber}`, Boolean(options.force));
  if (ctx.io.options.json && file !== '-') ctx.io.json({ shipmentId: id, file, format: options.format, bytes: bytes.byteLength });
}

export function registerLabelsCommand(program: ShipperCommand, context: ContextFactory): void {
  program
    .command('labels')
    .argument('<shipment>', SHIPMENT_ARGUMENT)
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
    .examples('shipper labels sh_01JD3Y7T9Q2W5E8R1T4Y7U0I3O', 'shipper labels sh_01JD3Y7T9Q2W5E8R1T4Y7U0I3O --format zpl -o - | nc zebra.local 9100')
    .action(async (id: string, options: LabelOptions, command: Command) => runLabels(context(command), id, options));
}
