/** `shipper invoice ID [--json] [-o FILE.pdf|DIR]`: the invoice of a shipment, as a table, JSON or PDF. */
import type { Command } from 'commander';
import { stat } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import type { ContextFactory, CommandContext } from '../context.js';
import { CliError, ExitCode, UsageError } from '../errors.js';
import { writeFileDurably } from '../fileOutput.js';
import { formatNumber } from '../output.js';
import { printInvoice } from '../views/invoice.js';

export interface InvoiceOptions {
  output?: string;
}

/** `-o x.pdf` is that file; `-o dir` (an existing directory) gets `<invoice number>.pdf` in it. */
async function pdfPath(output: string, invoiceNumber: string): Promise<string> {
  const existing = await stat(output).catch(() => undefined);
  if (existing?.isDirectory()) return join(resolve(output), `${invoiceNumber}.pdf`);
  if (extname(output).toLowerCase() !== '.pdf') throw new UsageError(`-o ${output}: name a .pdf file or an existing directory`);
  return resolve(output);
}

export async function runInvoice(ctx: CommandContext, id: string, options: InvoiceOptions): Promise<void> {
  const api = await ctx.api();
  const { data: invoice, warnings } = await api.getInvoice(id);
  warnings.forEach((warning) => ctx.io.warn(warning));
  if (options.output !== undefined) {
    const file = await pdfPath(options.output, invoice.invoiceNumber);
    const { data: pdf } = await api.renderInvoice(id);
    await writeFileDurably(file, pdf).catch((error: Error) => {
      throw new CliError(`cannot write ${file}: ${error.message}`, ExitCode.local);
    });
    ctx.io.note(`Wrote ${invoice.invoiceNumber} (${invoice.orderNumber}) to ${file} (${formatNumber(Math.max(1, Math.round(pdf.byteLength / 1024)))} KB)`);
    if (ctx.io.options.json) ctx.io.json(invoice);
    return;
  }
  if (ctx.io.options.json) return ctx.io.json(invoice);
  printInvoice(ctx.io, invoice);
}

export function registerInvoiceCommand(program: Command, context: ContextFactory): void {
  program
    .command('invoice')
    .description('the invoice of a shipment: one line per order component with its share of the linehaul, discount, fuel and accessorials, adding up to the booked price')
    .argument('<shipment-id>', 'the shipment')
    .option('-o, --output <file>', 'write the invoice as PDF: a .pdf file, or a directory for <invoice number>.pdf')
    .addHelpText(
      'after',
      `
The invoice number is the order number's (SO-000123 is invoiced as INV-000123), dated the pickup
day and billed to the party the freight charge terms name. A cancelled shipment has no invoice.

Examples:
  $ shipper invoice sh_01JD3Y7T9Q2W5E8R1T4Y7V0A3B
  $ shipper invoice sh_01JD3Y7T9Q2W5E8R1T4Y7V0A3B -o invoice.pdf
  $ shipper invoice sh_01JD3Y7T9Q2W5E8R1T4Y7V0A3B --json | jq '.lines[] | [.kind, .amountInCents]'`,
    )
    .action(async (id: string, options: InvoiceOptions, command: Command) => runInvoice(context(command), id, options));
}
