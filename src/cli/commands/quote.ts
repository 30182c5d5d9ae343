/** `shipper quote`, `shipper quote get ID`, `shipper quote list`. */
import type { Command } from 'commander';
import { ERRORS, PROBLEM_TYPE_BASE } from '../../domain/errors.js';
import type { Rates } from '../../domain/rates.js';
import type { Quote, QuoteRequestInput } from '../../domain/schemas.js';
import type { CommandContext, ContextFactory } from '../context.js';
import type { ShipperCommand } from '../examples.js';
import { QUOTE_STATUSES } from '../../domain/statuses.js';
import { CliError, UsageError } from '../errors.js';
import { writeListCsv } from '../listCsv.js';
import { withListDates } from '../listDates.js';
import { addListFilters, collect, explicitLimit, listQueryFromOptions, parseZipFilter, type ListFilterOptions } from '../optionParsers.js';
import { namingComponentFlags } from '../componentSpec.js';
import { pickupDateOption } from '../pickupDateFlag.js';
import { isZipOnly, quoteRequestFromOptions, type QuoteOptions } from '../quoteRequest.js';
import { missingAddressFields } from '../../domain/publishedAddress.js';
import { ADDRESS_SPEC_EXAMPLE, isAddressSpec } from '../addressSpec.js';
import { isPublishedOnly, noteUnanswered, printPublishedAnswer } from '../views/published.js';
import { printQuote, printQuoteList, QUOTE_CSV_HEADER, quoteCsvRow } from '../views/quote.js';
import { printRates } from '../views/rates.js';

export async function runQuote(ctx: CommandContext, options: QuoteOptions): Promise<void> {
  if (options.interactive || (options.component.length === 0 && ctx.io.canPrompt)) {
    const { runQuoteWizard } = await import('../wizard/quoteWizard.js');
    return runQuoteWizard(ctx, options);
  }
  const stops = await quoteStops(ctx, options);
  const pickupDate = await pickupDateOption(ctx, options.pickupDate, String(stops.from.zipCode ?? ''));
  const request = quoteRequestFromOptions({ ...options, pickupDate }, stops);
  if ((options.carrier ?? []).length > 0) return runRateShopping(ctx, request, options.carrier!, options.component.length);
  const api = await ctx.api();
  if (api.publishedOnly) requireFullAddresses(stops);
  const result = await api.createQuote(request);
  const { data: quote, warnings } = result;
  ctx.io.warnAll(namingComponentFlags(warnings, options.component.length));
  noteUnanswered(ctx.io, result);
  // --json wins over --quiet: a script that asked for the document gets the document, with its warnings as the API answers them.
  if (ctx.io.options.json) return ctx.io.json({ ...quote, warnings });
  // -q: the id alone, for `Q=$(shipper -q quote ...)`.
  if (ctx.io.options.quiet) return ctx.io.out(quote.id);
  if (isPublishedOnly(result)) return printPublishedAnswer(ctx.io, 'Quote', quote);
  printQuote(ctx.io, quote, await ctx.zips(), (await ctx.clock())());
}

/**
 * The two stops of `--from` and `--to`: a ZIP code alone (an extension of shipper serve), a saved
 * location's name, or an address as key=value pairs. Loaded only for a name or an address.
 */
async function quoteStops(ctx: CommandContext, options: QuoteOptions): Promise<{ from: Record<string, unknown>; to: Record<string, unknown> }> {
  const stop = async (value: string | undefined, flag: string): Promise<Record<string, unknown>> => {
    const zipOnly = { zipCode: value, countryCode: 'US' };
    if (value === undefined || isZipOnly(value)) return zipOnly;
    const { partyAddress } = await import('../savedLocations.js');
    if (isAddressSpec(value)) return partyAddress(ctx, value, flag);
    // Neither a saved location nor an address: a ZIP code, which the API judges (and names the field).
    return (await ctx.locations().then((book) => book.get(value.trim()))) ? partyAddress(ctx, value, flag) : zipOnly;
  };
  return { from: await stop(options.from, '--from'), to: await stop(options.to, '--to') };
}

/**
 * Oway's service quotes between full addresses: a ZIP code alone is refused before anything is
 * sent, naming what it needs rather than inventing it.
 */
function requireFullAddresses(stops: { from: Record<string, unknown>; to: Record<string, unknown> }): void {
  const lacking = (
    [
      ['--from', stops.from],
      ['--to', stops.to],
    ] as const
  )
    .map(([flag, address]) => [flag, missingAddressFields(address)] as const)
    .filter(([, fields]) => fields.length > 0);
  if (lacking.length === 0) return;
  throw new UsageError(
    `the Oway service quotes between full addresses: ${lacking.map(([flag, fields]) => `${flag} lacks ${fields.join(', ')}`).join('; ')}`,
    `give a saved location (--from chicago-dc; shipper location add) or the address: --from ${ADDRESS_SPEC_EXAMPLE},contact="Ann Lee",phone=+13125550100`,
  );
}
/** `--carrier all` or `--carrier SCAC...`: every agreement's quote in one table, cheapest first. */
async function runRateShopping(ctx: CommandContext, request: QuoteRequestInput, carriers: string[], componentFlags: number): Promise<void> {
  const scacs = carriers
    .flatMap((value) => value.split(','))
    .map((value) => value.trim().toUpperCase())
    .filter(Boolean);
  const all = scacs.includes('ALL');
  if (all && scacs.length > 1) throw new UsageError('--carrier all asks every carrier: it cannot be combined with SCACs');
  const api = await ctx.api();
  const { data: rates, warnings } = await api.shopRates({ ...request, ...(all ? {} : { carrierScacs: scacs }) });
  // The table says which carriers gave no price: on stderr only what it does not show.
  const shown = new Set(rates.uncovered.map((line) => line.carrier.scac));
  ctx.io.warnAll(
    namingComponentFlags(
      warnings.filter((warning) => ctx.io.options.json || ![...shown].some((scac) => warning.message.startsWith(`${scac} (`))),
      componentFlags,
    ),
  );
  if (rates.items.length === 0) throw noCoverage(rates, scacs, all);
  if (ctx.io.options.json) return ctx.io.json(rates.items);
  if (ctx.io.options.quiet) return rates.items.forEach((quote) => ctx.io.out(quote.id));
  printRates(ctx.io, rates, await ctx.zips());
}

/**
 * Rate shopping that prices nothing fails (exit 1), so that `Q=$(shipper -q quote ... --carrier X)`
 * never hands a script an empty id with success: each carrier's reason on stderr, and with --json
 * a ProblemDetail with the published reason `no_coverage` and one violation per carrier.
 */
function noCoverage(rates: Rates, scacs: readonly string[], all: boolean): CliError {
  const said = rates.uncovered.map((line) => `${line.carrier.scac}${line.carrier.name === line.carrier.scac ? '' : ` ${line.carrier.name}`}: ${line.reason}`);
  const message = `no carrier prices this shipment${said.length > 0 ? `: ${said.join('; ')}` : ''}`;
  const { type, title, status } = ERRORS.NO_COVERAGE;
  return new CliError(message, 'NO_COVERAGE', {
    problem: {
      type: `${PROBLEM_TYPE_BASE}${type}`,
      title,
      status,
      detail: message,
      reason: 'no_coverage',
      violations: rates.uncovered.map((line) => {
        const index = all ? -1 : scacs.indexOf(line.carrier.scac);
        return { field: index >= 0 ? `carrierScacs[${index}]` : `carrier.${line.carrier.scac}`, reason: line.reason };
      }),
    },
  });
}

export async function runQuoteGet(ctx: CommandContext, id: string): Promise<void> {
  const result = await (await ctx.api()).getQuote(id);
  const { data: quote, warnings } = result;
  ctx.io.warnAll(warnings);
  noteUnanswered(ctx.io, result);
  if (ctx.io.options.json) return ctx.io.json({ ...quote, warnings });
  if (isPublishedOnly(result)) return printPublishedAnswer(ctx.io, 'Quote', quote);
  printQuote(ctx.io, quote, await ctx.zips(), (await ctx.clock())());
}

export async function runQuoteList(ctx: CommandContext, flags: ListFilterOptions, limit?: number): Promise<void> {
  if (flags.csv && ctx.io.options.json) throw new UsageError('--csv and --json cannot be combined; pick one');
  const options = await withListDates(ctx, flags);
  const api = await ctx.api();
  if (options.csv) {
    const zips = await ctx.zips();
    const query = listQueryFromOptions(options);
    await writeListCsv<Quote>(
      ctx.io,
      { header: QUOTE_CSV_HEADER, row: (quote) => quoteCsvRow(quote, zips), page: (cursor, size) => api.listQuotes({ ...query, cursor, limit: size }) },
      { cursor: options.cursor, cap: limit },
    );
    return;
  }
  const { data: page, warnings } = await api.listQuotes(listQueryFromOptions(options));
  ctx.io.warnAll(warnings);
  if (ctx.io.options.json) return ctx.io.json(page);
  if (ctx.io.options.quiet) return page.items.forEach((quote) => ctx.io.out(quote.id));
  if (page.items.length === 0) {
    const filtered = options.ref ?? options.status ?? options.since ?? options.until ?? options.to ?? options.cursor;
    return ctx.io.info(filtered !== undefined ? 'No quotes match.' : 'No quotes yet. Create one with: shipper quote --from ZIP --to ZIP -c SPEC');
  }
  printQuoteList(ctx.io, page.items, await ctx.zips(), (await ctx.clock())());
  if (page.nextCursor) ctx.io.info(`More: shipper quote list --cursor ${page.nextCursor}`);
}

export function registerQuoteCommands(program: ShipperCommand, context: ContextFactory): void {
  const quote = program
    .command('quote')
    .description('price an LTL shipment: price, expiry, freight class from density, transit days and ETA')
    .option('--from <zip|location|address>', 'origin: a ZIP code, a saved location or an address (name=,address1=,city=,state=,zip=,contact=,phone=)')
    .option('--to <zip|location|address>', 'destination: a ZIP code, a saved location or an address, as --from')
    .option('--pickup-date <date>', 'pickup date: YYYY-MM-DD or words (tomorrow, friday, +3, 11/27); default the next business day')
    .option('-c, --component <spec>', 'one freight line (repeat for more): pallets=N,weight=LB,dims=LxWxH[,desc=,nmfc=,pkg=,pieces=]', collect, [])
    .option('-a, --accessorial <code>', 'accessorial service, e.g. LIFTGATE_DELIVERY (repeat or comma-separate)', collect, [])
    .option('-i, --interactive', 'ask for everything step by step (needs a terminal)')
    .option('--carrier <scac>', 'rate shopping: price with the carrier agreements (--tariffs): all, or a SCAC (repeat for more); one table, cheapest first', collect, [])
    .examples(
      'shipper quote --from 60601 --to 10001 --component pallets=2,weight=1200,dims=48x40x48',
      'shipper quote --from 60601 --to 90210 -c pallets=1,weight=500,dims=48x40x60,desc="Auto parts" -a LIFTGATE_DELIVERY --json',
      'Q=$(shipper -q quote --from 60601 --to 10001 -c pallets=1,weight=500,dims=48x40x48) && shipper ship --quote "$Q" --shipper chicago-dc --consignee nyc-store',
      'shipper --tariffs samples quote --from 60601 --to 10001 -c pallets=2,weight=1200,dims=48x40x48 --carrier all',
      'shipper quote            (on a terminal: the interactive wizard)',
    )
    .action(async (options: QuoteOptions, command: Command) => runQuote(context(command), options));

  quote
    .command('get <id>')
    .description('show a quote')
    .examples('shipper quote get qt_01JD3Y7T9Q2W5E8R1T4Y7V0A3B --json')
    .action(async (id: string, _options: unknown, command: Command) => {
      quoteFlagsGivenTo(command, 'get');
      return runQuoteGet(context(command), id);
    });

  addListFilters(quote.command('list').description('list quotes, newest first, each open, expired or booked (as which order)'), QUOTE_STATUSES)
    .examples('shipper quote list --limit 5', 'shipper quote list --status open --to 10001', 'shipper quote list --since 2026-11-01 --csv > quotes.csv')
    .action(async (options: ListFilterOptions, command: Command) => {
      const given = quoteFlagsGivenTo(command, 'list');
      const to = options.to ?? given.to;
      if (to !== undefined && options.to === undefined) {
        try {
          parseZipFilter(to);
        } catch (error) {
          throw new UsageError(`option '--to <zip>' argument '${to}' is invalid. ${(error as Error).message}`);
        }
      }
      const filters = { ...options, to: to?.trim() };
      return runQuoteList(context(command), filters, explicitLimit(command, options));
    });
}

/**
 * commander hands the options a subcommand leaves to its parent first, so quote's own flags after
 * `quote get` or `quote list` were taken as quote's and silently ignored (`quote list --to ZIP`
 * came back unfiltered). --to after `list` is the list's filter; any other is refused.
 */
function quoteFlagsGivenTo(command: Command, subcommand: 'get' | 'list'): { to?: string } {
  const flags = command.parent?.opts<Partial<QuoteOptions>>() ?? {};
  const stray = [
    flags.from !== undefined && '--from',
    subcommand === 'get' && flags.to !== undefined && '--to',
    flags.pickupDate !== undefined && '--pickup-date',
    (flags.component?.length ?? 0) > 0 && '--component',
    (flags.accessorial?.length ?? 0) > 0 && '--accessorial',
    (flags.carrier?.length ?? 0) > 0 && '--carrier',
    flags.interactive === true && '--interactive',
  ].find((flag): flag is string => typeof flag === 'string');
  if (stray) throw new UsageError(`unknown option '${stray}' for quote ${subcommand}`, `see: shipper quote ${subcommand} --help`);
  return { to: flags.to };
}
