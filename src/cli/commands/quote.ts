/** `shipper quote`, `shipper quote get ID`, `shipper quote list`. */
import type { Command } from 'commander';
import type { Quote } from '../../domain/schemas.js';
import { ZipDirectory } from '../../geo/zipDirectory.js';
import { COMPONENT_SPEC_EXAMPLE, parseComponentSpec } from '../componentSpec.js';
import type { CommandContext } from '../context.js';
import { UsageError } from '../errors.js';
import { pickupDateFromFlag, todayAtOrigin } from '../pickupDateFlag.js';
import { formatCents, formatDate, formatInstant, formatNumber, plural, truncate, type IO } from '../output.js';
import { collect, parseLimit, type ContextFactory } from '../program.js';

export interface QuoteOptions {
  from?: string;
  to?: string;
  pickupDate?: string;
  component: string[];
  accessorial: string[];
  interactive?: boolean;
}

/** The API request that the flags describe. */
export function quoteRequestFromOptions(options: QuoteOptions): Record<string, unknown> {
  const missing = [!options.from && '--from ZIP', !options.to && '--to ZIP', options.component.length === 0 && '--component SPEC'].filter(Boolean);
  if (missing.length > 0) {
    throw new UsageError(`missing ${missing.join(', ')}`, `example: shipper quote --from 60601 --to 10001 --component ${COMPONENT_SPEC_EXAMPLE}`);
  }
  return {
    origin: { postalCode: options.from, countryCode: 'US' },
    destination: { postalCode: options.to, countryCode: 'US' },
    ...(options.pickupDate ? { pickupDate: options.pickupDate } : {}),
    accessorials: normaliseAccessorials(options.accessorial),
    orderComponents: options.component.map(parseComponentSpec),
  };
}

export function normaliseAccessorials(values: string[]): string[] {
  return values.flatMap((value) => value.split(',')).map((code) => code.trim().toUpperCase().replace(/-/g, '_')).filter(Boolean);
}

export async function runQuote(ctx: CommandContext, options: QuoteOptions): Promise<void> {
  if (options.interactive || (options.component.length === 0 && ctx.io.canPrompt)) {
    const { runQuoteWizard } = await import('../wizard/quoteWizard.js');
    return runQuoteWizard(ctx, options);
  }
  const pickupDate = pickupDateFromFlag(options.pickupDate, () => todayAtOrigin(options.from, ctx.env));
  const request = quoteRequestFromOptions({ ...options, pickupDate });
  const api = await ctx.api();
  const { data: quote, warnings } = await api.createQuote(request);
  warnings.forEach((warning) => ctx.io.warn(warning));
  if (ctx.io.options.json) return ctx.io.json(quote);
  printQuote(ctx.io, quote);
}

export async function runQuoteGet(ctx: CommandContext, id: string): Promise<void> {
  const { data: quote } = await (await ctx.api()).getQuote(id);
  if (ctx.io.options.json) return ctx.io.json(quote);
  printQuote(ctx.io, quote);
}

export async function runQuoteList(ctx: CommandContext, options: { limit: number; cursor?: string }): Promise<void> {
  const { data: page, warnings } = await (await ctx.api()).listQuotes({ limit: options.limit, cursor: options.cursor });
  warnings.forEach((warning) => ctx.io.warn(warning));
  if (ctx.io.options.json) return ctx.io.json(page);
  if (page.items.length === 0) return ctx.io.info('No quotes yet. Create one with: shipper quote --from ZIP --to ZIP --component SPEC');
  const zips = new ZipDirectory();
  const rows = page.items.map((quote) => [
    quote.id,
    quote.createdAt.slice(0, 10),
    truncate(`${quote.origin.postalCode} ${quote.origin.city}, ${quote.origin.state} → ${quote.destination.postalCode} ${quote.destination.city}, ${quote.destination.state}`, 44),
    formatCents(quote.quotedPriceInCents),
    [...new Set(quote.orderComponents.map((component) => component.freightClass))].join(', '),
    quote.transitDays ?? 'no coverage',
    quote.estimatedDeliveryDate ? formatInstant(quote.estimatedDeliveryDate, zips.lookup(quote.destination.postalCode)?.timeZone) : '-',
  ]);
  ctx.io.out(ctx.io.table(['Quote', 'Created', 'Lane', 'Price', 'Class', 'Transit days', 'ETA'], rows));
  if (page.nextCursor) ctx.io.info(`More: shipper quote list --cursor ${page.nextCursor}`);
}

export function printQuote(io: IO, quote: Quote, now: Date = new Date()): void {
  const c = io.color;
  const timeZone = new ZipDirectory().lookup(quote.destination.postalCode)?.timeZone;
  const expired = Date.parse(quote.quoteExpirationTime) <= now.getTime();
  io.out(`${c.bold('Quote')} ${quote.id}`);
  io.out(`  Lane      ${quote.origin.city}, ${quote.origin.state} ${quote.origin.postalCode} → ${quote.destination.city}, ${quote.destination.state} ${quote.destination.postalCode} (${formatNumber(quote.miles)} mi)`);
  io.out(`  Pickup    ${formatDate(quote.pickupDate)}`);
  io.out(
    quote.transitDays === null
      ? `  Transit   ${c.yellow('no coverage')} (no transit days or ETA on this lane)`
      : `  Transit   ${plural(quote.transitDays, 'business day')} · ETA ${formatInstant(quote.estimatedDeliveryDate!, timeZone)}`,
  );
  io.out(`  Price     ${c.bold.green(formatCents(quote.quotedPriceInCents))}  ${expired ? c.red('expired') : 'valid until'} ${formatInstant(quote.quoteExpirationTime)}`);
  io.out('');
  io.out(
    io.table(
      ['#', 'Pallets', 'Weight (lb)', 'Dims (in)', 'Density (pcf)', 'Class', 'Description'],
      quote.orderComponents.map((component, index) => [
        index + 1,
        component.palletCount,
        formatNumber(component.poundsWeight),
        `${component.dimensions.length}x${component.dimensions.width}x${component.dimensions.height}`,
        formatNumber(component.densityPcf),
        component.freightClass,
        truncate(component.description ?? '', Math.max(12, io.terminalWidth - 80)),
      ]),
    ),
  );
  const breakdown = quote.priceBreakdown;
  const lines: Array<[string, number]> = [
    [breakdown.minimumChargeApplied ? 'Linehaul (minimum charge)' : 'Linehaul', breakdown.linehaulInCents],
    ['Discount', -breakdown.discountInCents],
    ['Fuel surcharge', breakdown.fuelSurchargeInCents],
    ...breakdown.accessorialsInCents.map((charge): [string, number] => [charge.code, charge.amountInCents]),
  ];
  for (const [label, cents] of lines) io.out(`  ${label.padEnd(28)} ${formatCents(cents).padStart(12)}`);
  io.out(`  ${c.bold('Total'.padEnd(28))} ${c.bold(formatCents(quote.quotedPriceInCents).padStart(12))}`);
}

export function registerQuoteCommands(program: Command, context: ContextFactory): void {
  const quote = program
    .command('quote')
    .description('price an LTL shipment: price, expiry, freight class from density, transit days and ETA')
    .option('--from <zip>', 'origin ZIP code')
    .option('--to <zip>', 'destination ZIP code')
    .option('--pickup-date <date>', 'pickup date: YYYY-MM-DD or words (tomorrow, friday, +3, 11/27); default the next business day')
    .option('-c, --component <spec>', 'one freight line (repeat for more): pallets=N,weight=LB,dims=LxWxH[,desc=,nmfc=,pkg=,pieces=]', collect, [])
    .option('-a, --accessorial <code>', 'accessorial service, e.g. LIFTGATE_DELIVERY (repeat or comma-separate)', collect, [])
    .option('-i, --interactive', 'ask for everything step by step (needs a terminal)')
    .addHelpText(
      'after',
      `
Examples:
  $ shipper quote --from 60601 --to 10001 --component pallets=2,weight=1200,dims=48x40x48
  $ shipper quote --from 60601 --to 90210 -c pallets=1,weight=500,dims=48x40x60,desc="Auto parts" -a LIFTGATE_DELIVERY --json
  $ shipper quote            (on a terminal: the interactive wizard)`,
    )
    .action(async (options: QuoteOptions, command: Command) => runQuote(context(command), options));

  quote
    .command('get <id>')
    .description('show a quote')
    .addHelpText('after', '\nExample:\n  $ shipper quote get qt_01JD3Y7T9Q2W5E8R1T4Y7V0A3B --json')
    .action(async (id: string, _options: unknown, command: Command) => runQuoteGet(context(command), id));

  quote
    .command('list')
    .description('list quotes, newest first')
    .option('-n, --limit <n>', 'how many', parseLimit, 20)
    .option('--cursor <cursor>', 'continue after this quote id (from the previous page)')
    .addHelpText('after', '\nExample:\n  $ shipper quote list --limit 5')
    .action(async (options: { limit: number; cursor?: string }, command: Command) => runQuoteList(context(command), options));
}
