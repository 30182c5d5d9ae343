/** `shipper shipment get ID`, `shipper shipment list`. */
import type { Command } from 'commander';
import type { CommandContext, ContextFactory } from '../context.js';
import { parseLimit } from '../optionParsers.js';
import { printShipment, printShipmentList } from '../views/shipment.js';

export async function runShipmentGet(ctx: CommandContext, id: string): Promise<void> {
  const { data: shipment } = await (await ctx.api()).getShipment(id);
  if (ctx.io.options.json) return ctx.io.json(shipment);
  printShipment(ctx.io, shipment, await ctx.zips());
}

export async function runShipmentList(ctx: CommandContext, options: { limit: number; cursor?: string }): Promise<void> {
  const { data: page, warnings } = await (await ctx.api()).listShipments({ limit: options.limit, cursor: options.cursor });
  warnings.forEach((warning) => ctx.io.warn(warning));
  if (ctx.io.options.json) return ctx.io.json(page);
  if (page.items.length === 0) {
    return ctx.io.info('No shipments yet. Book one with: shipper ship --quote QUOTE_ID --shipper NAME --consignee NAME, or import a CSV: shipper import FILE.csv');
  }
  printShipmentList(ctx.io, page.items, await ctx.zips());
  if (page.nextCursor) ctx.io.info(`More: shipper shipment list --cursor ${page.nextCursor}`);
}

export function registerShipmentCommands(program: Command, context: ContextFactory): void {
  const shipment = program.command('shipment').description('show booked shipments');

  shipment
    .command('get <id>')
    .description('show a shipment: order and BOL numbers, addresses, transit, price, freight lines with their class')
    .addHelpText('after', '\nExample:\n  $ shipper shipment get sh_01JD3Y7T9Q2W5E8R1T4Y7U0I3O --json')
    .action(async (id: string, _options: unknown, command: Command) => runShipmentGet(context(command), id));

  shipment
    .command('list')
    .description('list shipments, newest first')
    .option('-n, --limit <n>', 'how many (1-500)', parseLimit, 20)
    .option('--cursor <cursor>', 'continue after this shipment id (from the previous page)')
    .addHelpText('after', '\nExamples:\n  $ shipper shipment list --limit 5\n  $ shipper shipment list --json | jq -r \'.items[].orderNumber\'')
    .action(async (options: { limit: number; cursor?: string }, command: Command) => runShipmentList(context(command), options));
}
