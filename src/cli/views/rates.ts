/** How rate shopping looks to people: one table, cheapest first, the cheapest and fastest marked. */
import type { Rates } from '../../domain/rates.js';
import type { Quote } from '../../domain/schemas.js';
import type { ZipLookup } from '../../domain/zipCode.js';
import { formatCents, formatInstant, type IO } from '../output.js';

const netLinehaul = (quote: Quote) => quote.priceBreakdown.linehaulInCents - quote.priceBreakdown.discountInCents;
const accessorials = (quote: Quote) => quote.priceBreakdown.accessorialsInCents.reduce((sum, charge) => sum + charge.amountInCents, 0);

export function printRates(io: IO, rates: Rates, zips: ZipLookup): void {
  const c = io.color;
  const first = rates.items[0];
  if (first) {
    const place = (p: Quote['pickupAddress']) => `${p.city}, ${p.state} ${p.zipCode}`;
    io.field(`${c.bold('Rates')} ${place(first.pickupAddress)} → ${place(first.deliveryAddress)} · pickup ${first.requiredPickupDate}`, 6);
    const timeZone = zips.lookup(first.deliveryAddress.zipCode)?.timeZone;
    const originZone = zips.lookup(first.pickupAddress.zipCode)?.timeZone;
    const rows = rates.items.map((quote) => {
      const pricedBy = quote.pricedBy?.kind === 'AGREEMENT' ? quote.pricedBy : undefined;
      const marks = [quote.id === rates.cheapestQuoteId && 'cheapest', quote.id === rates.fastestQuoteId && 'fastest'].filter(Boolean).join(', ');
      return [
        marks,
        `${quote.carrier?.scac ?? ''} ${quote.carrier?.name ?? ''}`.trim(),
        pricedBy?.service === 'DIRECT' ? 'direct' : pricedBy?.service === 'INTERLINE' ? 'interline' : '-',
        quote.transitDays === null ? '-' : `${quote.transitDays}${pricedBy?.transitEstimated ? ' (est.)' : ''}`,
        quote.estimatedDeliveryDate ? formatInstant(quote.estimatedDeliveryDate, timeZone) : '-',
        formatCents(netLinehaul(quote)),
        formatCents(quote.priceBreakdown.fuelSurchargeInCents),
        formatCents(accessorials(quote)),
        c.bold(formatCents(quote.quotedPriceInCents)),
        pricedBy?.maxLiabilityInCents != null ? formatCents(pricedBy.maxLiabilityInCents) : '-',
        formatInstant(quote.quoteExpirationTime, originZone),
        quote.id,
      ];
    });
    io.out(
      // What a person books from never gives way: the quote id, the total and the ETA stay whole
      // (docs/guides/scripting.md). The carrier's name shortens first, then the breakdown, the
      // service, the days and the marks leave (the rows are cheapest first; the ETA says the
      // fastest); the carrier is its SCAC last.
      io.fittedTable(
        ['', 'Carrier', 'Service', 'Days', 'ETA', 'Linehaul', 'Fuel', 'Accessorials', 'Total', 'Max liability', 'Expires', 'Quote'],
        rows,
        [
          { shrink: [1], min: 8 },
          { drop: 10 },
          { drop: 9 },
          { drop: 7 },
          { drop: 6 },
          { drop: 5 },
          { drop: 2 },
          { drop: 3 },
          { drop: 0 },
          { replace: 1, cells: rates.items.map((quote) => quote.carrier?.scac ?? quote.carrier?.name ?? '') },
        ],
        { whole: [4, 8, 11] },
      ),
    );
    if (!io.options.quiet) io.field(`Book one: shipper ship --quote ${first.id} --shipper ... --consignee ...`, 2);
  } else {
    io.out('No carrier prices this shipment.');
  }
  for (const line of rates.uncovered)
    io.field(`  ${c.yellow(`${line.carrier.scac}`)} ${line.carrier.name === line.carrier.scac ? '' : `${line.carrier.name} `}not quoted: ${line.reason}`, 4);
}
