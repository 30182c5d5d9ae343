/** `shipper shipment get ID`, `shipper shipment list`. */
import type { Command } from 'commander';
import type { Address, Shipment } from '../../domain/schemas.js';
import { ZipDirectory } from '../../geo/zipDirectory.js';
import type { CommandContext } from '../context.js';
import { formatCents, formatDate, formatInstant, formatNumber, plural, truncate, type IO } from '../output.js';
import { parseLimit, type ContextFactory } from '../program.js';

export async function runShipmentGet(ctx: CommandContext, id: string): Promise<void> {
  const { data: shipment } = await (await ctx.api()).getShipment(id);
  if (ctx.io.options.json) return ctx.io.json(shipment);
  printShipment(ctx.io, shipment);
}

export async function runShipmentList(ctx: CommandContext, options: { limit: number; cursor?: string }): Promise<void> {
  const { data: page, warnings } = await (await ctx.api()).listShipments({ limit: options.limit, cursor: options.cursor });
  warnings.forEach((warning) => ctx.io.warn(warning));
  if (ctx.io.options.json) return ctx.io.json(page);
  if (page.items.length === 0) {
    return ctx.io.info('No shipments yet. Book one with: shipper ship --quote QUOTE_ID --shipper NAME --consignee NAME, or import a CSV: shipper import FILE.csv');
  }
  const zips = new ZipDirectory();
  // The lane is the column that gives way on a narrow terminal (never in a pipe).
  const laneWidth = ctx.io.isStdoutTTY ? Math.max(24, Math.min(44, ctx.io.terminalWidth - 100)) : 44;
  const rows = page.items.map((shipment) => [
    shipment.id,
    shipment.orderNumber,
    truncate(shipment.refNumber ?? '', 16),
    truncate(laneOf(shipment), laneWidth),
    formatNumber(totalPallets(shipment)),
    formatNumber(totalPounds(shipment)),
    formatCents(shipment.quotedPriceInCents),
    shipment.transitDays ?? 'no coverage',
    shipment.estimatedDeliveryDate ? formatInstant(shipment.estimatedDeliveryDate, zips.lookup(shipment.consignee.postalCode)?.timeZone) : '-',
  ]);
  ctx.io.out(ctx.io.table(['Shipment', 'Order', 'Ref', 'Lane', 'Pallets', 'Weight (lb)', 'Price', 'Transit days', 'ETA'], rows));
  if (page.nextCursor) ctx.io.info(`More: shipper shipment list --cursor ${page.nextCursor}`);
}

export const totalPallets = (shipment: Shipment): number => shipment.orderComponents.reduce((sum, component) => sum + component.palletCount, 0);
export const totalPounds = (shipment: Shipment): number => shipment.orderComponents.reduce((sum, component) => sum + component.poundsWeight, 0);

function laneOf(shipment: Shipment): string {
  const { shipper, consignee } = shipment;
  return `${shipper.city}, ${shipper.state} → ${consignee.city}, ${consignee.state}`;
}

function addressLine(address: Address): string {
  const contact = [address.contactName, address.phone].filter(Boolean).join(', ');
  return [address.name, address.street1, address.street2, `${address.city}, ${address.state} ${address.postalCode}`].filter(Boolean).join(', ') + (contact ? ` (${contact})` : '');
}

export function printShipment(io: IO, shipment: Shipment, heading = 'Shipment'): void {
  const c = io.color;
  const timeZone = new ZipDirectory().lookup(shipment.consignee.postalCode)?.timeZone;
  io.out(`${c.bold(heading)} ${shipment.id}  ${c.bold(shipment.orderNumber)}  ${shipment.status}`);
  io.out(`  BOL number   ${shipment.bolNumber}`);
  if (shipment.refNumber) io.out(`  Reference    ${shipment.refNumber}`);
  io.out(`  Shipper      ${addressLine(shipment.shipper)}`);
  io.out(`  Consignee    ${addressLine(shipment.consignee)}`);
  io.out(`  Distance     ${formatNumber(shipment.miles)} mi`);
  io.out(`  Pickup       ${formatDate(shipment.pickupDate)}`);
  io.out(
    shipment.transitDays === null
      ? `  Transit      ${c.yellow('no coverage')} (no transit days or ETA on this lane)`
      : `  Transit      ${plural(shipment.transitDays, 'business day')} · ETA ${formatInstant(shipment.estimatedDeliveryDate!, timeZone)}`,
  );
  io.out(`  Price        ${c.bold.green(formatCents(shipment.quotedPriceInCents))} (quote ${shipment.quoteId})`);
  if (shipment.accessorials.length > 0) io.out(`  Accessorials ${shipment.accessorials.join(', ')}`);
  if (shipment.specialInstructions) io.out(`  Instructions ${shipment.specialInstructions}`);
  io.out('');
  io.out(
    io.table(
      ['#', 'Pallets', 'Weight (lb)', 'Dims (in)', 'Class', 'Pieces', 'Packaging', 'NMFC', 'Description'],
      shipment.orderComponents.map((component, index) => [
        index + 1,
        component.palletCount,
        formatNumber(component.poundsWeight),
        `${component.dimensions.length}x${component.dimensions.width}x${component.dimensions.height}`,
        component.freightClass,
        component.pieceCount ?? '',
        component.packagingType ?? '',
        component.nmfcCode ?? '',
        truncate(component.description ?? '', Math.max(12, io.terminalWidth - 90)),
      ]),
    ),
  );
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
