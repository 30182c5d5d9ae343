/** `shipper invoice ID [--json] [-o FILE.pdf|DIR]`: the invoice of a shipment, as a table, JSON or PDF (invoiceRun.ts). */
import { SHIPMENT_ARGUMENT } from '../shipmentRef.js';
import type { Command } from 'commander';
import type { CommandContext, ContextFactory } from '../context.js';
import type { ShipperCommand } from '../examples.js';
import type { InvoiceOptions } from './invoiceRun.js';
import { addPrintOptions } from '../printOptions.js';

export async function runInvoice(ctx: CommandContext, id: string | undefined, options: InvoiceOptions): Promise<void> {
  const { runInvoice: run } = await import('./invoiceRun.js');
  return run(ctx, id, options);
}

export function registerInvoiceCommand(program: ShipperCommand, context: ContextFactory): void {
  const command = program
    .command('invoice')
    .description('the invoice of a shipment: one line per order component with its share of the linehaul, discount, fuel and accessorials, adding up to the booked price')
    .argument('[shipment]', SHIPMENT_ARGUMENT)
    .option('-o, --output <file>', 'write the invoice as PDF: a .pdf file, or a directory for <invoice number>.pdf')
    .option('--force', 'replace a PDF that exists (default: keep it and exit 2)');
  addPrintOptions(command, 'invoice (Letter)')
    .examples(
      'shipper invoice sh_01JD3Y7T9Q2W5E8R1T4Y7V0A3B',
      'shipper invoice sh_01JD3Y7T9Q2W5E8R1T4Y7V0A3B -o invoice.pdf',
      `shipper invoice sh_01JD3Y7T9Q2W5E8R1T4Y7V0A3B --json | jq '.lines[] | [.kind, .amountInCents]'`,
      'shipper invoice SO-000123 --print --printer office',
    )
    .addHelpText(
      'after',
      `
The invoice number is the order number's (SO-000123 is invoiced as INV-000123), dated the pickup
day and billed to the party the freight charge terms name. A cancelled shipment has no invoice.`,
    )
    .action(async (id: string | undefined, options: InvoiceOptions, command: Command) => runInvoice(context(command), id, options));
}
