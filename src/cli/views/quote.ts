/** How a quote looks to people: the detail view (quote, quote get, the wizard) and the list's rows. */
import { freightTotals } from '../../domain/freightTotals.js';
import type { Quote } from '../../domain/schemas.js';
import { pickupDayEnd } from '../../domain/rating.js';
import type { ZipLookup } from '../../domain/zipCode.js';
import { printableRecord } from '../../printable.js';
import type { CsvCell } from '../fileOutput.js';
import { formatCents, formatDate, formatInstant, formatNumber, localIsoInstant, plural, type IO } from '../output.js';

export function printQuote(io: IO, stored: Quote, zips: ZipLookup, now: Date): void {
  // Data on its way to a terminal: control characters shown as escapes (printable.ts).
  const quote = printableRecord(stored);
  const c = io.color;
  const timeZone = zips.lookup(quote.deliveryAddress.zipCode)?.timeZone;
  // The quote is booked from the origin: its expiry is that dock's local time (the ETA is the destination's).
  const originZone = zips.lookup(quote.pickupAddress.zipCode)?.timeZone;
  // One moment: the last at which it can be booked (a quote stored before it was so may state a later one).
  const bookableUntil = lastBookableMoment(quote, originZone);
  const expired = bookableUntil <= now.getTime();
  io.out(`${c.bold('Quote')} ${quote.id}`);
  io.field(
    `  Lane      ${quote.pickupAddress.city}, ${quote.pickupAddress.state} ${quote.pickupAddress.zipCode} → ${quote.deliveryAddress.city}, ${quote.deliveryAddress.state} ${quote.deliveryAddress.zipCode} (${formatNumber(quote.miles)} mi)`,
    12,
  );
  io.out(`  Pickup    ${formatDate(quote.requiredPickupDate)}`);
  for (const line of agreementLines(quote)) io.field(line, 12);
  io.out(
    quote.transitDays === null
      ? `  Transit   ${c.yellow('no coverage')} (no transit days or ETA on this lane)`
      : `  Transit   ${plural(quote.transitDays, 'business day')} · ETA ${formatInstant(quote.estimatedDeliveryDate!, timeZone)}`,
  );
  io.out(
    `  Price     ${c.bold.green(formatCents(quote.quotedPriceInCents))}  ${expired ? c.red('expired') : 'valid until'} ${formatInstant(new Date(bookableUntil).toISOString(), originZone)}`,
  );
  const booked = (quote.bookings ?? []).filter((booking) => booking.orderStatus !== 'CANCELLED');
  if (booked.length > 0) io.out(`  Status    ${c.bold('booked')} as ${booked.map((booking) => `${booking.orderNumber} (${booking.shipmentId})`).join(', ')}`);
  else if (quote.status) io.out(`  Status    ${quoteStatusText(quote, now, originZone)}`);
  io.out('');
  io.out(
    io.fittedTable(
      ['#', 'Pallets', 'Weight (lb)', 'Dims (in)', 'Density (pcf)', 'Class', 'Description'],
      quote.orderComponents.map((component, index) => [
        index + 1,
        component.palletCount,
        formatNumber(component.poundsWeight),
        `${component.dimensions.length}x${component.dimensions.width}x${component.dimensions.height}`,
        formatNumber(component.densityPcf),
        component.freightClass,
        component.description ?? '',
      ]),
      // The description gives way: 80 columns keep 10 of its characters and every figure.
      [{ shrink: [6], min: 10 }],
    ),
  );
  const breakdown = quote.priceBreakdown;
  const lines: Array<[string, number]> = [
    [breakdown.minimumChargeApplied ? 'Linehaul (minimum charge)' : 'Linehaul', breakdown.linehaulInCents],
    // With the minimum charge there is no discount: no "-$0.00" line.
    ...(breakdown.discountInCents !== 0 ? [['Discount', -breakdown.discountInCents] as [string, number]] : []),
    ['Fuel surcharge', breakdown.fuelSurchargeInCents],
    ...breakdown.accessorialsInCents.map((charge): [string, number] => [charge.code, charge.amountInCents]),
  ];
  for (const [label, cents] of lines) io.out(`  ${label.padEnd(28)} ${formatCents(cents).padStart(12)}`);
  io.out(`  ${c.bold('Total'.padEnd(28))} ${c.bold(formatCents(quote.quotedPriceInCents).padStart(12))}`);
}

/**
 * What a carrier agreement's quote was priced by: carrier and agreement, rated-as weight and break,
 * actual and rated classes, gross, discount, the minimum applied, and the fuel week, price and
 * percentage (rule 5 of issue 25). Nothing for a tariff quote.
 */
function agreementLines(quote: Quote): string[] {
  const pricedBy = quote.pricedBy;
  if (pricedBy?.kind !== 'AGREEMENT') return [];
  const classes = pricedBy.lines.map((line) => (line.actualClass === line.ratedClass ? line.actualClass : `${line.actualClass} as ${line.ratedClass} (FAK)`)).join(', ');
  const minimum =
    pricedBy.minimumApplied === 'NONE'
      ? ''
      : ` · raised to the ${pricedBy.minimumApplied === 'AMC' ? 'absolute minimum charge' : "carrier's minimum charge"} ${formatCents(pricedBy.netLinehaulInCents)}`;
  const fuel = pricedBy.fuel
    ? `fuel ${pricedBy.fuel.percent} % on $${pricedBy.fuel.usdPerGallon}/gal of the week of ${pricedBy.fuel.week}${pricedBy.fuel.week !== pricedBy.fuel.indexWeek ? ` (index week ${pricedBy.fuel.indexWeek} has no price)` : ''}`
    : 'no fuel surcharge';
  return [
    `  Carrier   ${pricedBy.scac} ${pricedBy.carrierName} · agreement ${pricedBy.agreement}${pricedBy.service ? ` · ${pricedBy.service === 'DIRECT' ? 'direct' : 'interline'}` : ''}${pricedBy.transitEstimated ? ' · transit estimated from distance' : ''}`,
    `  Rated as  ${formatNumber(pricedBy.ratedAsPounds)} lb at ${pricedBy.weightBreak} · class ${classes}`,
    `  Rating    gross ${formatCents(pricedBy.grossInCents)} · discount ${pricedBy.discountPercent} % ${formatCents(pricedBy.discountInCents)}${minimum} · ${fuel}`,
  ];
}

/**
 * "open until Tue 2026-11-24 23:59 CST" (the origin's time: the one moment the price line states
 * too, the last at which the quote can be booked), "expired Mon ...", "pickup day ... passed",
 * "booked as SO-000001".
 */
export function quoteStatusText(quote: Quote, now: Date, originZone?: string): string {
  const booked = (quote.bookings ?? []).filter((booking) => booking.orderStatus !== 'CANCELLED').map((booking) => booking.orderNumber);
  if (quote.status === 'BOOKED' && booked.length > 0) return `booked as ${booked.join(', ')}`;
  const closes = whatClosesQuote(quote, now, originZone);
  if (closes === 'pickup day') {
    return quote.status === 'EXPIRED'
      ? `pickup day ${quote.requiredPickupDate} passed (--requote)`
      : `open until ${formatInstant(new Date(lastBookableMoment(quote, originZone)).toISOString(), originZone)}`;
  }
  return `${quote.status === 'EXPIRED' || (!quote.status && closes === 'expired') ? 'expired' : 'open until'} ${formatInstant(quote.quoteExpirationTime, originZone)}`;
}

/** "open", "expired", "booked SO-000001", "pickup passed": the status in a narrow column. */
export function quoteStatusShort(quote: Quote, now: Date, originZone?: string): string {
  const booked = (quote.bookings ?? []).filter((booking) => booking.orderStatus !== 'CANCELLED').map((booking) => booking.orderNumber);
  if (quote.status === 'BOOKED' && booked.length > 0) return `booked ${booked.join(', ')}`;
  const closes = whatClosesQuote(quote, now, originZone);
  if (quote.status === 'EXPIRED') return closes === 'pickup day' ? 'pickup passed' : 'expired';
  return quote.status === 'OPEN' || closes !== 'expired' ? 'open' : 'expired';
}

/**
 * The last moment a quote can be booked: its quoteExpirationTime, which the engine sets no later
 * than the end of its pickup day at the origin; a quote stored before it did may state a later one.
 */
function lastBookableMoment(quote: Quote, originZone: string | undefined): number {
  return Math.min(Date.parse(quote.quoteExpirationTime), pickupDayEnd(quote.requiredPickupDate, originZone ?? 'America/Chicago'));
}

/**
 * What ends a quote's time to be booked: the end of its pickup day at the origin when that comes
 * before its expiry, else its expiry. Decided from the quote alone, so that the words agree with
 * the status the API computed at its own instant; `now` only serves quotes without a status.
 */
function whatClosesQuote(quote: Quote, now: Date, originZone: string | undefined): 'pickup day' | 'expiry' | 'expired' {
  const expiry = Date.parse(quote.quoteExpirationTime);
  // The zone the API judges the pickup day in (America/Chicago when the origin's is unknown).
  const pickupDayEnds = pickupDayEnd(quote.requiredPickupDate, originZone ?? 'America/Chicago');
  if (pickupDayEnds <= expiry) return 'pickup day';
  return expiry <= now.getTime() ? 'expired' : 'expiry';
}

/**
 * The list's columns, and what gives way on a narrower terminal (never in a pipe): transit days
 * leave, the status, the ETA and the lane take their short forms, the classes and the creation
 * day leave, the lane shrinks, and at last the quote id leaves (80 columns). Quote id, lane,
 * price, ETA and status stay at 100 columns.
 */
export function printQuoteList(io: IO, stored: Quote[], zips: ZipLookup, now: Date): void {
  const quotes = stored.map(printableRecord);
  const etas = quotes.map((quote) => (quote.estimatedDeliveryDate ? formatInstant(quote.estimatedDeliveryDate, zips.lookup(quote.deliveryAddress.zipCode)?.timeZone) : '-'));
  const rows = quotes.map((quote, index) => [
    quote.id,
    quote.createdAt.slice(0, 10),
    `${quote.pickupAddress.zipCode} ${quote.pickupAddress.city}, ${quote.pickupAddress.state} → ${quote.deliveryAddress.zipCode} ${quote.deliveryAddress.city}, ${quote.deliveryAddress.state}`,
    formatCents(quote.quotedPriceInCents),
    [...new Set(quote.orderComponents.map((component) => component.freightClass))].join(', '),
    String(quote.transitDays ?? 'no coverage'),
    etas[index]!,
    quoteStatusText(quote, now, zips.lookup(quote.pickupAddress.zipCode)?.timeZone),
  ]);
  io.out(
    io.fittedTable(['Quote', 'Created', 'Lane', 'Price', 'Class', 'Transit days', 'ETA', 'Status'], rows, [
      { drop: 5 },
      { replace: 7, cells: quotes.map((quote) => quoteStatusShort(quote, now, zips.lookup(quote.pickupAddress.zipCode)?.timeZone)) },
      { replace: 6, cells: etas.map((eta) => eta.replace(/ \d{2}:\d{2} \S+$/, '')) },
      // The ZIPs are exact, the destination's city helps: what is cut is the end of that city.
      {
        replace: 2,
        cells: quotes.map((quote) => `${quote.pickupAddress.zipCode} → ${quote.deliveryAddress.zipCode} ${quote.deliveryAddress.city}, ${quote.deliveryAddress.state}`),
      },
      { drop: 4 },
      { drop: 1 },
      { shrink: [2], min: 14 },
      { drop: 0 },
    ]),
  );
}

/** `quote list --csv`: one line per quote. Money in dollars; instants in UTC, the ETA also local. */
export const QUOTE_CSV_HEADER = [
  'id',
  'createdAt',
  'status',
  'bookedAs',
  'originPostalCode',
  'originCity',
  'originState',
  'destinationPostalCode',
  'destinationCity',
  'destinationState',
  'miles',
  'pallets',
  'poundsWeight',
  'freightClasses',
  'accessorials',
  'price',
  'pickupDate',
  'transitDays',
  'estimatedDeliveryDate',
  'estimatedDeliveryLocal',
  'expiresAt',
] as const;

export function quoteCsvRow(stored: Quote, zips: ZipLookup): CsvCell[] {
  const quote = printableRecord(stored);
  const timeZone = zips.lookup(quote.deliveryAddress.zipCode)?.timeZone;
  const eta = quote.estimatedDeliveryDate;
  const freight = freightTotals(quote.orderComponents);
  const record: Record<(typeof QUOTE_CSV_HEADER)[number], CsvCell> = {
    id: quote.id,
    createdAt: quote.createdAt,
    status: quote.status ?? null,
    bookedAs: (quote.bookings ?? [])
      .filter((booking) => booking.orderStatus !== 'CANCELLED')
      .map((booking) => booking.orderNumber)
      .join('|'),
    originPostalCode: quote.pickupAddress.zipCode,
    originCity: quote.pickupAddress.city,
    originState: quote.pickupAddress.state,
    destinationPostalCode: quote.deliveryAddress.zipCode,
    destinationCity: quote.deliveryAddress.city,
    destinationState: quote.deliveryAddress.state,
    miles: quote.miles,
    pallets: freight.pallets,
    poundsWeight: freight.poundsWeight,
    freightClasses: [...new Set(quote.orderComponents.map((component) => component.freightClass))].join('|'),
    accessorials: quote.accessorials.join('|'),
    price: quote.quotedPriceInCents / 100,
    pickupDate: quote.requiredPickupDate,
    transitDays: quote.transitDays,
    estimatedDeliveryDate: eta,
    estimatedDeliveryLocal: eta && timeZone ? localIsoInstant(eta, timeZone) : null,
    expiresAt: quote.quoteExpirationTime,
  };
  return QUOTE_CSV_HEADER.map((column) => record[column]);
}
