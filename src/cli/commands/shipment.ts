/** `shipper shipment get ID`, `shipper shipment list`, `shipper shipment cancel ID`. */
import { Option, type Command } from 'commander';
import type { Shipment } from '../../domain/schemas.js';
import { ORDER_STATUS_FILTERS, TRACKING_FILTERS } from '../../domain/statuses.js';
import { addCarrierFlags, carrierUpdateFromFlags, type CarrierFlags } from '../carrierOptions.js';
import type { CommandContext, ContextFactory } from '../context.js';
import type { ShipperCommand } from '../examples.js';
import { UsageError } from '../errors.js';
import { writeListCsv } from '../listCsv.js';
import { withListDates } from '../listDates.js';
import { addListFilters, collect, explicitLimit, listQueryFromOptions, type ListFilterOptions } from '../optionParsers.js';
import { SHIPMENT_ARGUMENT, shipmentIdOf } from '../shipmentRef.js';
import { printShipment, printShipmentList, SHIPMENT_CSV_HEADER, shipmentCsvRow } from '../views/shipment.js';
import { isPublishedOnly, noteUnanswered, printPublishedAnswer } from '../views/published.js';

export async function runShipmentGet(ctx: CommandContext, reference: string): Promise<void> {
  const api = await ctx.api();
  const result = await api.getShipment(await shipmentIdOf(api, reference));
  const { data: shipment, warnings } = result;
  ctx.io.warnAll(warnings);
  noteUnanswered(ctx.io, result);
  if (ctx.io.options.json) return ctx.io.json({ ...shipment, warnings });
  if (isPublishedOnly(result)) return printPublishedAnswer(ctx.io, 'Shipment', shipment);
  printShipment(ctx.io, shipment, await ctx.zips());
}

type ShipmentListOptions = ListFilterOptions & { tracking?: (typeof TRACKING_FILTERS)[number] };

/** `--status booked`, the name from before the published order states, is ACTIVE: any state but CANCELLED. */
const shipmentQuery = (options: ShipmentListOptions) => {
  const { status, ...query } = listQueryFromOptions(options);
  return { ...query, orderStatus: (status as string | undefined) === 'BOOKED' ? ('ACTIVE' as const) : status, tracking: options.tracking };
};

export async function runShipmentList(ctx: CommandContext, flags: ShipmentListOptions, limit?: number): Promise<void> {
  if (flags.csv && ctx.io.options.json) throw new UsageError('--csv and --json cannot be combined; pick one');
  const options = await withListDates(ctx, flags);
  const api = await ctx.api();
  if (options.csv) {
    const zips = await ctx.zips();
    const query = shipmentQuery(options);
    await writeListCsv<Shipment>(
      ctx.io,
      { header: SHIPMENT_CSV_HEADER, row: (shipment) => shipmentCsvRow(shipment, zips), page: (cursor, size) => api.listShipments({ ...query, cursor, limit: size }) },
      { cursor: options.cursor, cap: limit },
    );
    return;
  }
  const { data: page, warnings } = await api.listShipments(shipmentQuery(options));
  ctx.io.warnAll(warnings);
  if (ctx.io.options.json) return ctx.io.json(page);
  // -q: the ids, one per line, for pipes (`shipper -q shipment list --status booked | shipper bol - -o bols/`).
  if (ctx.io.options.quiet) return page.items.forEach((shipment) => ctx.io.out(shipment.id));
  if (page.items.length === 0) {
    const filtered = options.ref ?? options.status ?? options.since ?? options.until ?? options.to ?? options.cursor ?? options.tracking;
    if (filtered !== undefined) return ctx.io.info('No shipments match.');
    // One hint a line: an 80-column terminal never wraps them.
    return ctx.io.info('No shipments yet. Book one with\n  shipper ship --quote QUOTE_ID --shipper NAME --consignee NAME\nor import a CSV file: shipper import FILE.csv');
  }
  printShipmentList(ctx.io, page.items, await ctx.zips());
  if (page.nextCursor) ctx.io.info(`More: shipper shipment list --cursor ${page.nextCursor}`);
}

export async function runShipmentCancel(ctx: CommandContext, reference: string, options: { reason?: string }): Promise<void> {
  const api = await ctx.api();
  const id = await shipmentIdOf(api, reference);
  const { data: before } = await api.getShipment(id);
  const result = await api.cancelShipment(id, options.reason !== undefined ? { reason: options.reason } : undefined);
  const { data: shipment } = result;
  if (before.orderStatus === 'CANCELLED') ctx.io.note(`${shipment.orderNumber} was already cancelled${shipment.cancelledAt ? ` (${shipment.cancelledAt})` : ''}; nothing changed`);
  noteUnanswered(ctx.io, result);
  if (ctx.io.options.json) return ctx.io.json(shipment);
  if (ctx.io.options.quiet) return ctx.io.out(shipment.id ?? shipment.orderNumber);
  if (isPublishedOnly(result)) return printPublishedAnswer(ctx.io, before.orderStatus === 'CANCELLED' ? 'Shipment' : 'Cancelled shipment', shipment);
  printShipment(ctx.io, shipment, await ctx.zips(), before.orderStatus === 'CANCELLED' ? 'Shipment' : 'Cancelled shipment');
}

/**
 * `shipment confirm ORDER`: the published confirm (INITIALIZED to CONFIRMED after its checks). An
 * order not INITIALIZED (confirmed already, cancelled) is the published 400 invalid_state, exit 1.
 */
export async function runShipmentConfirm(ctx: CommandContext, reference: string): Promise<void> {
  const api = await ctx.api();
  const result = await api.confirmShipment(await shipmentIdOf(api, reference));
  const { data: shipment } = result;
  noteUnanswered(ctx.io, result);
  if (ctx.io.options.json) return ctx.io.json(shipment);
  if (ctx.io.options.quiet) return ctx.io.out(shipment.id ?? shipment.orderNumber);
  if (isPublishedOnly(result)) return printPublishedAnswer(ctx.io, 'Confirmed shipment', shipment);
  printShipment(ctx.io, shipment, await ctx.zips(), 'Confirmed shipment');
}

/** The flags of `shipment update` beyond the carrier's: what an eBOL needs and a booking may lack. */
export interface ShipmentUpdateFlags extends CarrierFlags {
  shipperPhone?: string;
  consigneePhone?: string;
  emergencyPhone?: string;
  description?: string[];
  shipperContact?: string;
  consigneeContact?: string;
  orderDescription?: string;
}

/** `--description 2="Machine parts"`: the line number and its new description; anything else is a usage error. */
function lineDescriptionOf(value: string): { line: number; description: string } {
  const match = /^\s*(\d{1,4})\s*=(.*)$/s.exec(value);
  if (!match) throw new UsageError(`--description ${value}: write LINE=TEXT, e.g. --description 2="Machine parts" (lines are numbered from 1)`);
  return { line: Number(match[1]), description: match[2]! };
}

export async function runShipmentUpdate(ctx: CommandContext, reference: string, flags: ShipmentUpdateFlags): Promise<void> {
  const update = await carrierUpdateFromFlags(ctx, flags);
  // An empty value clears a phone, as it clears the trailer.
  const phone = (value: string) => (value.trim() === '' ? null : value);
  if (flags.shipperPhone !== undefined) update.shipperPhone = phone(flags.shipperPhone);
  if (flags.consigneePhone !== undefined) update.consigneePhone = phone(flags.consigneePhone);
  if (flags.emergencyPhone !== undefined) update.emergencyContactPhone = phone(flags.emergencyPhone);
  if (flags.shipperContact !== undefined) update.shipperContact = phone(flags.shipperContact);
  if (flags.consigneeContact !== undefined) update.consigneeContact = phone(flags.consigneeContact);
  if (flags.orderDescription !== undefined) update.description = flags.orderDescription;
  if (flags.description && flags.description.length > 0) update.lineDescriptions = flags.description.map(lineDescriptionOf);
  if (Object.keys(update).length === 0) {
    throw new UsageError(
      'nothing to update',
      'give what the carrier assigned: --carrier NAME --scac SCAC, --pro PRO, --trailer NUMBER, --seal NUMBER; or, before pickup, --shipper-phone, --consignee-phone, --shipper-contact, --consignee-contact, --order-description, --emergency-phone, --description LINE=TEXT',
    );
  }
  const api = await ctx.api();
  const { data: shipment, warnings } = await api.updateShipment(await shipmentIdOf(api, reference), update);
  ctx.io.warnAll(warnings);
  if (ctx.io.options.json) return ctx.io.json(shipment);
  if (ctx.io.options.quiet) return ctx.io.out(shipment.id);
  printShipment(ctx.io, shipment, await ctx.zips(), 'Updated shipment');
}

export function registerShipmentCommands(program: ShipperCommand, context: ContextFactory): void {
  const shipment = program
    .command('shipment')
    .description('booked shipments: show, list, confirm, update, cancel')
    .examples(
      'shipper shipment list --status booked --since 2026-11-01 --to 10001',
      'shipper shipment get sh_01JD3Y7T9Q2W5E8R1T4Y7U0I3O',
      'shipper shipment cancel sh_01JD3Y7T9Q2W5E8R1T4Y7U0I3O --reason "customer cancelled the order"',
    );

  shipment
    .command('get')
    .argument('<shipment>', SHIPMENT_ARGUMENT)
    .description('show a shipment: order and BOL numbers, addresses, transit, price, freight lines with their class')
    .examples('shipper shipment get sh_01JD3Y7T9Q2W5E8R1T4Y7U0I3O --json')
    .action(async (id: string, _options: unknown, command: Command) => runShipmentGet(context(command), id));

  addListFilters(shipment.command('list').description('list shipments, newest first, with their status'), [...ORDER_STATUS_FILTERS, 'BOOKED'])
    .addOption(
      new Option('--tracking <state>', "where the freight is, from the carrier's events: delivered, in-transit, exception, or late (against the quoted ETA)").choices(
        TRACKING_FILTERS,
      ),
    )
    .examples(
      'shipper shipment list --limit 5',
      'shipper shipment list --since 2026-11-23 --until 2026-11-23 --csv > shipments-2026-11-23.csv',
      'shipper -q shipment list --status booked --to 10001 | shipper bol - -o bols/',
      'shipper shipment list --ref PO-4471 --status booked',
      "shipper shipment list --since 2026-11-23 --until 2026-11-23 --json | jq -r '.items[].orderNumber'",
    )
    .action(async (options: ShipmentListOptions, command: Command) => runShipmentList(context(command), options, explicitLimit(command, options)));

  addCarrierFlags(
    shipment
      .command('update')
      .argument('<shipment>', SHIPMENT_ARGUMENT)
      .description(
        'record what the carrier assigned after booking: carrier, PRO, trailer and seal numbers; until the pickup day, contacts, phones and descriptions (what confirm needs; a reprinted BOL shows them)',
      ),
  )
    .option('--shipper-phone <phone>', "the shipper contact's phone (until the pickup day; '' clears it)")
    .option('--consignee-phone <phone>', "the consignee contact's phone (until the pickup day)")
    .option('--shipper-contact <name>', "the shipper's contact person (until the pickup day; what confirm needs)")
    .option('--consignee-contact <name>', "the consignee's contact person (until the pickup day)")
    .option('--order-description <text>', "the order's description, for the carrier (until the pickup day; what confirm needs)")
    .option('--emergency-phone <phone>', 'emergency response phone (until the pickup day; required while a line is hazardous)')
    .option('--description <line=text>', 'a new description of line LINE (1 = the first; repeat for more; until the pickup day)', collect, [])
    .examples(
      'shipper shipment update sh_01JD3Y7T9Q2W5E8R1T4Y7U0I3O --pro 1234567897 --trailer 53-1187 --seal 004471 --seal 004472',
      'shipper shipment update sh_01JD3Y7T9Q2W5E8R1T4Y7U0I3O --carrier "Old Dominion" --scac ODFL',
      'shipper shipment update SO-000123 --consignee-phone 212-555-0188 --description 2="Spare belts"',
      'shipper shipment update SO-000123 --shipper-contact "Dana Ruiz" --shipper-phone 312-555-0100 --consignee-contact "Lee Chen" --consignee-phone 212-555-0188',
    )
    .action(async (id: string, options: ShipmentUpdateFlags, command: Command) => runShipmentUpdate(context(command), id, options));

  shipment
    .command('cancel')
    .argument('<shipment>', SHIPMENT_ARGUMENT)
    .description('cancel a booked shipment: its BOL prints VOID, its reference may be booked again, its numbers are never reused')
    .option('--reason <text>', 'why (printed on the voided BOL), at most 500 characters')
    .examples('shipper shipment cancel sh_01JD3Y7T9Q2W5E8R1T4Y7U0I3O --reason "duplicate order"')
    .action(async (id: string, options: { reason?: string }, command: Command) => runShipmentCancel(context(command), id, options));

  shipment
    .command('confirm')
    .argument('<shipment>', SHIPMENT_ARGUMENT)
    .description('confirm an order created without confirmation (INITIALIZED: ship --no-confirm, an import row without contact or phone): the published checks, then CONFIRMED')
    .examples('shipper shipment confirm SO-000123')
    .action(async (id: string, _options: unknown, command: Command) => runShipmentConfirm(context(command), id));
}
