/**
 * The local rating engine: a pure function from a validated quote request, the two resolved places,
 * the tariff and the clock to a Quote (or the violations that prevent one).
 *
 * Money rule: each breakdown line is rounded once, to the nearest cent, halves away from zero. The
 * linehaul and the discount are computed in exact fractional cents; the fuel surcharge is a
 * percentage of the net linehaul as printed (linehaul - discount, whole cents), as carriers print
 * and bill it, so that a reader recomputes it from the invoice. The quoted price is the sum of the
 * rounded lines, so the breakdown always adds up to the price.
 */
import { DEFAULT_COMPANY_ID } from './companies.js';
import { accessorialsOfAddressFlags, FLAG_CODES, STOPS, ADDRESS_FLAGS } from './addressAccessorials.js';
import { allocateCents } from './allocateCents.js';
import { componentDensity } from './density.js';
import type { Rerate } from './freightCheck.js';
import { BEYOND_LTL, formatLimit } from './limits.js';
import type { FreightClass, OrderComponent, PriceBreakdown, Quote, QuoteRequest, RatedOrderComponent, Violation } from './schemas.js';
import type { Tariff } from './tariff.js';
import { warning, type Warning } from './warnings.js';
import { addDays, localDateInZone, zonedTimeToUtc } from './dates.js';
import { businessDayReason, estimateDelivery, nextBusinessDay } from './transit.js';
import type { ZipPlace } from './zipCode.js';

export type Rated<T> = { ok: true; value: T } | { ok: false; violations: Violation[] };
/** A quote, with the warnings it earned (freight beyond standard LTL), or the violations that prevent it. */
export type RatedQuote = { ok: true; value: Quote; warnings: Warning[] } | { ok: false; violations: Violation[] };

export function roundCents(exactCents: number): number {
  return Math.sign(exactCents) * Math.round(Math.abs(exactCents));
}

const EARTH_RADIUS_MILES = 3958.8;

/** Great-circle miles between two places (haversine). */
export function straightLineMiles(from: ZipPlace, to: ZipPlace): number {
  const radians = (degrees: number) => (degrees * Math.PI) / 180;
  const dLat = radians(to.latitude - from.latitude);
  const dLon = radians(to.longitude - from.longitude);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(radians(from.latitude)) * Math.cos(radians(to.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Road miles as the tariff reckons them: straight-line miles times its circuity factor. */
export function tariffMiles(from: ZipPlace, to: ZipPlace, tariff: Tariff): number {
  return Math.round(straightLineMiles(from, to) * tariff.routeFactor);
}

export function distanceBandIndex(miles: number, tariff: Tariff): number {
  const index = tariff.distanceBands.findIndex((band) => band.maxMiles === null || miles <= band.maxMiles);
  return index === -1 ? tariff.distanceBands.length - 1 : index;
}

export function weightBreakIndex(totalPounds: number, tariff: Tariff): number {
  let index = 0;
  tariff.weightBreaks.forEach((weightBreak, i) => {
    if (totalPounds >= weightBreak.minPounds) index = i;
  });
  return index;
}

export function rateComponent(component: OrderComponent): RatedOrderComponent {
  const { densityPcf, freightClass } = componentDensity(component.poundsWeight, component.palletCount, component.dimensions);
  const { palletCount, poundsWeight, dimensions, description, nmfcCode, packagingType, pieceCount, hazmat, stackable } = component;
  // Two literals rather than a conditional spread, which costs several times as much (every line of every quote).
  return stackable === undefined
    ? { palletCount, poundsWeight, dimensions, description, nmfcCode, packagingType, pieceCount, hazmat, densityPcf, freightClass }
    : { palletCount, poundsWeight, dimensions, description, nmfcCode, packagingType, pieceCount, hazmat, stackable, densityPcf, freightClass };
}

export function isCovered(place: ZipPlace, tariff: Tariff): boolean {
  return tariff.coverage.states.includes(place.state);
}

/** The tariff's transit days on a lane (by distance band), or null when it does not serve both ends. */
export function laneTransitDays(origin: ZipPlace, destination: ZipPlace, miles: number, tariff: Tariff): number | null {
  if (!isCovered(origin, tariff) || !isCovered(destination, tariff)) return null;
  return tariff.distanceBands[distanceBandIndex(miles, tariff)]!.transitDays;
}

/**
 * `lines: false`: without each line's share of the linehaul (lineLinehaulsInCents), for a price
 * that only its total is read of (the freight check's re-rating): the shares are exact fractions.
 */
export function priceShipment(
  components: ReadonlyArray<RatedOrderComponent>,
  miles: number,
  accessorials: ReadonlyArray<string>,
  tariff: Tariff,
  { lines = true }: { lines?: boolean } = {},
): PriceBreakdown & { quotedPriceInCents: number } {
  const band = distanceBandIndex(miles, tariff);
  const totalPounds = components.reduce((sum, component) => sum + component.poundsWeight, 0);
  const weightBreak = weightBreakIndex(totalPounds, tariff);
  const rateFor = (freightClass: FreightClass) => tariff.ratesPerCwtInCents[freightClass]![band]![weightBreak]!;
  const exactLinehaul = components.reduce((sum, component) => sum + (component.poundsWeight / 100) * rateFor(component.freightClass), 0);
  let linehaulInCents = roundCents(exactLinehaul);
  let discountInCents = roundCents((exactLinehaul * tariff.discountPercent) / 100);
  // A minimum charge is a net figure: when it applies it replaces the discounted linehaul.
  const minimumChargeApplied = linehaulInCents - discountInCents < tariff.minimumChargeInCents;
  if (minimumChargeApplied) {
    linehaulInCents = tariff.minimumChargeInCents;
    discountInCents = 0;
  }
  const netLinehaul = linehaulInCents - discountInCents;
  const fuelSurchargeInCents = roundCents((netLinehaul * tariff.fuelSurchargePercent) / 100);
  const accessorialsInCents = accessorials.map((code) => ({ code, amountInCents: tariff.accessorials[code]!.amountInCents }));
  const quotedPriceInCents = netLinehaul + fuelSurchargeInCents + accessorialsInCents.reduce((sum, charge) => sum + charge.amountInCents, 0);
  // Each line's share of the linehaul as priced, recorded so that an invoice never re-derives it.
  const lineWeights = lines ? components.map((component) => component.poundsWeight * rateFor(component.freightClass)) : [];
  const lineLinehaulsInCents = lines && Number.isSafeInteger(linehaulInCents) && lineWeights.every(Number.isFinite) ? allocateCents(linehaulInCents, lineWeights) : undefined;
  // Two literals rather than a conditional spread, which costs several times as much (every quote, every freight check's what-if).
  return lineLinehaulsInCents
    ? { linehaulInCents, discountInCents, minimumChargeApplied, fuelSurchargeInCents, accessorialsInCents, lineLinehaulsInCents, quotedPriceInCents }
    : { linehaulInCents, discountInCents, minimumChargeApplied, fuelSurchargeInCents, accessorialsInCents, quotedPriceInCents };
}

/** The breakdown of a price, without its total: the same members in the same order (no rest pattern, which copies generically). */
function breakdownOf(price: PriceBreakdown): PriceBreakdown {
  const { linehaulInCents, discountInCents, minimumChargeApplied, fuelSurchargeInCents, accessorialsInCents, lineLinehaulsInCents } = price;
  return lineLinehaulsInCents
    ? { linehaulInCents, discountInCents, minimumChargeApplied, fuelSurchargeInCents, accessorialsInCents, lineLinehaulsInCents }
    : { linehaulInCents, discountInCents, minimumChargeApplied, fuelSurchargeInCents, accessorialsInCents };
}

/**
 * Re-rating for the freight check's price at stake: components (each at the class it carries)
 * priced on the quote's lane and accessorials with this tariff; null when the tariff cannot price
 * them (a class or an accessorial it has no rate for, an amount past the safe integers).
 */
export function tariffRerate(tariff: Tariff, miles: number, accessorials: ReadonlyArray<string>): Rerate {
  return (components) => {
    if (components.some((component) => !tariff.ratesPerCwtInCents[component.freightClass]) || accessorials.some((code) => !tariff.accessorials[code])) return null;
    const price = priceShipment(components, miles, accessorials, tariff, { lines: false });
    return unsafePrice(price).length === 0 ? price.quotedPriceInCents : null;
  };
}

export interface RateQuoteInput {
  id: string;
  request: QuoteRequest;
  origin: ZipPlace;
  destination: ZipPlace;
  tariff: Tariff;
  now: Date;
  /** The date at the origin at `now`, when the caller has worked it out already. */
  today?: string | undefined;
}

/** The pickup date a request asks for, or the next business day at the origin (`today` there at `now`). */
export function resolvePickupDate(sent: string | undefined, origin: ZipPlace, tariff: Tariff, now: Date, today = localDateInZone(now, origin.timeZone)): Rated<string> {
  if (sent === undefined) return { ok: true, value: nextBusinessDay(today, tariff.holidays) };
  // A date-time (the published wire writes one) is its day at the pickup.
  const requested = sent.length > 10 ? localDateInZone(new Date(sent), origin.timeZone) : sent;
  if (requested < today) {
    return { ok: false, violations: [{ field: 'requiredPickupDate', reason: `${requested} is in the past (today is ${today} at the origin)` }] };
  }
  const reason = businessDayReason(requested, tariff.holidays);
  if (reason !== null) {
    return {
      ok: false,
      violations: [{ field: 'requiredPickupDate', reason: `${requested} is ${reason}; carriers pick up on business days (next: ${nextBusinessDay(requested, tariff.holidays)})` }],
    };
  }
  return { ok: true, value: requested };
}

/**
 * Freight that standard LTL does not move (BEYOND_LTL): more pallets, more weight or longer units.
 * It still quotes on the LTL tariff, with this warning, as it would be refused by a carrier's LTL desk.
 */
export function beyondLtlWarnings(components: ReadonlyArray<Pick<OrderComponent, 'palletCount' | 'poundsWeight' | 'dimensions'>>): Warning[] {
  const pallets = components.reduce((sum, component) => sum + component.palletCount, 0);
  const pounds = components.reduce((sum, component) => sum + component.poundsWeight, 0);
  const reasons: string[] = [];
  if (pallets > BEYOND_LTL.maxPallets) reasons.push(`${pallets} pallets (standard LTL takes up to ${BEYOND_LTL.maxPallets})`);
  if (pounds > BEYOND_LTL.maxPounds) {
    reasons.push(`${formatLimit(Math.round(pounds * 100) / 100)} lb (standard LTL takes up to ${formatLimit(BEYOND_LTL.maxPounds)} lb)`);
  }
  components.forEach((component, index) => {
    if (component.dimensions.length > BEYOND_LTL.maxLengthInches) {
      reasons.push(
        `a unit ${formatLimit(component.dimensions.length)} in long, longer than a trailer is wide (${BEYOND_LTL.maxLengthInches} in) (orderComponents[${index}].dimensions.length)`,
      );
    }
  });
  if (reasons.length === 0) return [];
  return [
    warning(
      'BEYOND_LTL',
      `beyond standard LTL: ${reasons.join('; ')}. Carriers move such freight as volume LTL or truckload: ask for a volume LTL or truckload quote; this price is from the LTL tariff`,
      { detail: { pallets, pounds: Math.round(pounds * 100) / 100 } },
    ),
  ];
}

/** The lines of a price that are not safe integers (a tariff whose rates overflow), as a violation. */
function unsafePrice(price: PriceBreakdown & { quotedPriceInCents: number }): Violation[] {
  const amounts = [
    price.linehaulInCents,
    price.discountInCents,
    price.fuelSurchargeInCents,
    ...price.accessorialsInCents.map((charge) => charge.amountInCents),
    price.quotedPriceInCents,
  ];
  if (amounts.every(Number.isSafeInteger)) return [];
  return [
    {
      field: 'orderComponents',
      reason: `the tariff prices this freight beyond ${formatLimit(Number.MAX_SAFE_INTEGER)} cents, the largest amount a quote can state exactly; check the tariff's rates`,
    },
  ];
}

export function rateQuote({ id, request, origin, destination, tariff, now, today }: RateQuoteInput): RatedQuote {
  const violations: Violation[] = [];
  // Indexes of the list as sent; a code sent twice is one service, charged once. The stops'
  // service flags (liftgateRequired, ...) price as their codes, after those sent.
  const accessorials = accessorialsOfAddressFlags(request, request.accessorials);
  request.accessorials.forEach((code, index) => {
    if (!(code in tariff.accessorials) && request.accessorials.indexOf(code) === index) {
      violations.push({
        field: `accessorials[${index}]`,
        reason: `unknown accessorial ${code}; known: ${Object.keys(tariff.accessorials).join(', ')}`,
      });
    }
  });
  for (const code of accessorials.slice(new Set(request.accessorials).size)) {
    if (!(code in tariff.accessorials)) {
      const flag = flagOfCode(code);
      violations.push({ field: flag ?? 'accessorials', reason: `the tariff does not price ${code}, which this flag stands for` });
    }
  }
  const pickup = resolvePickupDate(request.requiredPickupDate, origin, tariff, now, today);
  if (!pickup.ok) violations.push(...pickup.violations);
  if (!pickup.ok || violations.length > 0) return { ok: false, violations };

  const orderComponents = request.orderComponents.map(rateComponent);
  const miles = tariffMiles(origin, destination, tariff);
  const price = priceShipment(orderComponents, miles, accessorials, tariff);
  const priceViolations = unsafePrice(price);
  if (priceViolations.length > 0) return { ok: false, violations: priceViolations };
  const { quotedPriceInCents } = price;
  const priceBreakdown = breakdownOf(price);

  const { transitDays, estimatedDeliveryDate } = laneDelivery(pickup.value, laneTransitDays(origin, destination, miles, tariff), destination, tariff);

  return {
    ok: true,
    value: {
      id,
      quotedPriceInCents,
      quoteExpirationTime: quoteExpirationTime(tariff, now, pickup.value, origin.timeZone),
      transitDays,
      estimatedDeliveryDate,
      requiredPickupDate: pickup.value,
      pickupAddress: placeOf(origin),
      deliveryAddress: placeOf(destination),
      miles,
      accessorials,
      orderComponents,
      priceBreakdown,
      createdAt: now.toISOString(),
      // The caller's company is stamped on it when it is saved.
      companyId: DEFAULT_COMPANY_ID,
      pricedBy: { kind: 'TARIFF', tariff: tariff.name, version: tariff.effectiveDate },
    },
    warnings: beyondLtlWarnings(request.orderComponents),
  };
}

/**
 * The last moment a quote can be booked, its one validity: its lifetime (the tariff's
 * quoteLifetimeHours after `now`; `also`, e.g. the end of the agreement that priced it), and never
 * past the end of its pickup day at the origin (no shipment is picked up in the past), whichever
 * comes first. The quote's quoteExpirationTime is this moment.
 */
export function quoteExpirationTime(tariff: Pick<Tariff, 'quoteLifetimeHours'>, now: Date, pickupDate: string, originTimeZone: string, also = Infinity): string {
  const lifetimeEnd = now.getTime() + tariff.quoteLifetimeHours * 3_600_000;
  return new Date(Math.min(lifetimeEnd, pickupDayEnd(pickupDate, originTimeZone), also)).toISOString();
}

/** The last millisecond of a pickup day at the origin. */
export function pickupDayEnd(pickupDate: string, originTimeZone: string): number {
  return zonedTimeToUtc(addDays(pickupDate, 1), '00:00', originTimeZone).getTime() - 1;
}

/**
 * A quote that rateQuote gave for a request, as rating the same request with the same tariff at
 * `now` gives it when the day at the origin is the same: only the id and the instants differ (the
 * price, the pickup day and the ETA depend on the day, not the hour). The nested parts are shared.
 */
export function restampedQuote(quote: Quote, id: string, tariff: Pick<Tariff, 'quoteLifetimeHours'>, now: Date, originTimeZone: string): Quote {
  return { ...quote, id, quoteExpirationTime: quoteExpirationTime(tariff, now, quote.requiredPickupDate, originTimeZone), createdAt: now.toISOString() };
}

export function placeOf(place: ZipPlace) {
  return { zipCode: place.zipCode, countryCode: 'US', city: place.city, state: place.state };
}

/**
 * Transit days and the ETA of a lane that takes `laneDays` (null: no coverage, both null), from the
 * pickup day, with the tariff's calendar and delivery cut-off at the destination.
 */
export function laneDelivery(
  pickupDate: string,
  laneDays: number | null,
  destination: { timeZone: string },
  tariff: Pick<Tariff, 'deliveryCutoff' | 'holidays'>,
): { transitDays: number | null; estimatedDeliveryDate: string | null } {
  if (laneDays === null) return { transitDays: null, estimatedDeliveryDate: null };
  // A pure function of a few values that a batch's shipments share (the same lanes, the same pickup
  // day): worked out once per calendar and combination (a tenth of a booking's rating otherwise).
  let known = deliveriesByCalendar.get(tariff.holidays);
  if (!known) deliveriesByCalendar.set(tariff.holidays, (known = new Map()));
  const key = `${pickupDate} ${laneDays} ${destination.timeZone} ${tariff.deliveryCutoff}`;
  let delivery = known.get(key);
  if (!delivery) {
    const { transitDays, estimatedDeliveryDate } = estimateDelivery({
      pickupDate,
      transitDays: laneDays,
      destinationTimeZone: destination.timeZone,
      deliveryCutoff: tariff.deliveryCutoff,
      calendar: tariff.holidays,
    });
    // Bounded: a server that runs for months meets new pickup days.
    if (known.size >= MAX_KNOWN_DELIVERIES) known.clear();
    known.set(key, (delivery = Object.freeze({ transitDays, estimatedDeliveryDate })));
  }
  return delivery;
}

const MAX_KNOWN_DELIVERIES = 4096;
const deliveriesByCalendar = new WeakMap<object, Map<string, Readonly<{ transitDays: number; estimatedDeliveryDate: string }>>>();

/** `deliveryAddress.liftgateRequired` for LIFTGATE_DELIVERY: the flag a code priced for. */
function flagOfCode(code: string): string | undefined {
  for (const stop of STOPS) for (const flag of ADDRESS_FLAGS) if (FLAG_CODES[stop][flag] === code) return `${stop}.${flag}`;
  return undefined;
}
