/** `shipper track SHIPMENT|--pro PRO` and `shipper track import FILE...` (trackRun.ts). */
import type { Command } from 'commander';
import type { CommandContext, ContextFactory } from '../context.js';
import type { ShipperCommand } from '../examples.js';
import { SHIPMENT_ARGUMENT } from '../shipmentRef.js';

async function runTrack(ctx: CommandContext, reference: string | undefined, options: { pro?: string }): Promise<void> {
  const { runTrack: run } = await import('./trackRun.js');
  return run(ctx, reference, options);
}

async function runTrackImport(ctx: CommandContext, files: string[]): Promise<void> {
  const { runTrackImport: run } = await import('./trackRun.js');
  return run(ctx, files);
}

export function registerTrackCommands(program: ShipperCommand, context: ContextFactory): void {
  const track = program
    .command('track')
    .argument('[shipment]', SHIPMENT_ARGUMENT)
    .option('--pro <pro>', "the shipment with this carrier's PRO number")
    .description("where the freight is: the carrier's status events (local time at each place), the current milestone, the promised and the carrier's ETA, late or on time")
    .examples('shipper track SO-000123', 'shipper track --pro 1234567897 --json', 'shipper track import ODFL-214-20261124.edi', 'shipper shipment list --tracking late')
    .addHelpText(
      'after',
      `
Carriers' status messages (X12 214, NMFTA In-Transit Visibility JSON) are read with
\`shipper track import\`; see docs/tracking.md.`,
    )
    .action(async (reference: string | undefined, options: { pro?: string }, command: Command) => runTrack(context(command), reference, options));

  track
    .command('import')
    .argument('<file...>', 'X12 214 files (any separators, several interchanges each) or ITV JSON files')
    .description(
      "record carriers' status messages: matched by PRO and SCAC, else BOL number, else reference and destination ZIP; resent messages dropped; exit 1 when any is unmatched or refused",
    )
    .examples('shipper track import inbox/*.edi', 'shipper track import itv-notifications.json --json')
    .action(async (files: string[], _options: unknown, command: Command) => runTrackImport(context(command), files));
}
