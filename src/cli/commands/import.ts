/** `shipper import FILE.csv [--dry-run] [--skip-invalid] [--rejects PATH]`: batch shipments from CSV. */
import type { Command } from 'commander';
import type { CommandContext, ContextFactory } from '../context.js';
import type { ImportCommandOptions } from './importRun.js';

export async function runImport(ctx: CommandContext, file: string, options: ImportCommandOptions): Promise<void> {
  // csv-parse and the importer load only when an import runs: start-up of other commands stays fast.
  const { runImport: run } = await import('./importRun.js');
  return run(ctx, file, options);
}

export function registerImportCommand(program: Command, context: ContextFactory): void {
  program
    .command('import <file>')
    .description('book shipments in batch from a CSV file: one row per order component, rows grouped by refNumber or shipmentKey')
    .option('--dry-run', 'check and price every shipment, book nothing')
    .option('--skip-invalid', 'book the valid shipments; write the rejected rows to a reject file (default: any invalid row imports nothing)')
    .option('--allow-duplicate-ref', 'book rows whose refNumber a booked shipment already has (default: refused, naming its order number)')
    .option('--rejects <path>', 'write rejected rows, with a reason column, here (default with --skip-invalid: FILE.rejected.csv beside FILE)')
    .addHelpText(
      'after',
      `
Examples:
  $ shipper import orders.csv --dry-run
  $ shipper import orders.csv
  $ shipper import orders.csv --skip-invalid --json > booked.json

Columns (header names match case-insensitively): refNumber, shipmentKey, pickupDate, accessorials (A|B),
specialInstructions, shipper or shipperName/Street1/Street2/City/State/PostalCode/CountryCode/ContactName/Phone,
the same for consignee, and per row: palletCount, poundsWeight, length, width, height, description, nmfcCode,
packagingType, pieceCount. Consecutive rows with the same shipmentKey (else refNumber) are one shipment.
A sample: templates/import/shipments-sample.csv. Importing the same file again books nothing twice.`,
    )
    .action(async (file: string, options: ImportCommandOptions, command: Command) => runImport(context(command), file, options));
}
