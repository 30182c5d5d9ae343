/**
 * A quote priced by a carrier agreement: the agreement's price (rateAgreement.ts) on the engine's
 * calendar, lane and quote lifetime (the tariff's), with the carrier's transit days when its
 * transit.csv has the lane, else the tariff's from distance, marked estimated. Pure.
 */
import { DEFAULT_COMPANY_ID } from '../companies.js';
import { beyondLtlWarnings, laneDelivery, laneTransitDays, placeOf, quoteExpirationTime, rateComponent, resolvePickupDate, tariffMiles } from '../rating.js';
import type { ZipPlace } from '../zipCode.js';
import type { Quote, QuoteRequest, Violation } from '../schemas.js';
import type { Tariff } from '../tariff.js';
import type { FuelPriceHistory } from './fuel.js';
import { priceWithAgreement, type CarrierAgreement } from './rateAgreement.js';
import type { Warning } from '../warnings.js';

export interface AgreementQuoteInput {
  id: string;
  request: QuoteRequest;
  origin: ZipPlace;
  destination: ZipPlace;
  /** The engine's calendar (holidays, cut-off), quote lifetime and distance transit. */
  tariff: Tariff;
  carrier: CarrierAgreement;
  fuelPrices: FuelPriceHistory;
  now: Date;
}

export type AgreementQuoteOutcome =
  { ok: true; value: Quote; warnings: Warning[] } | { ok: false; violations: Violation[] } | { ok: false; violations?: undefined; uncovered: string };

/** What every carrier's quote of one request shares: the pickup day, the classes, the miles. */
export interface PreparedRequest {
  pickupDate: string;
  accessorials: string[];
  orderComponents: ReturnType<typeof rateComponent>[];
  miles: number;
}

export function prepareRequest(
  request: QuoteRequest,
  origin: ZipPlace,
  destination: ZipPlace,
  tariff: Tariff,
  now: Date,
): { ok: true; value: PreparedRequest } | { ok: false; violations: Violation[] } {
  const pickup = resolvePickupDate(request.requiredPickupDate, origin, tariff, now);
  if (!pickup.ok) return { ok: false, violations: pickup.violations };
  return {
    ok: true,
    value: {
      pickupDate: pickup.value,
      accessorials: [...new Set(request.accessorials)],
      orderComponents: request.orderComponents.map(rateComponent),
      miles: tariffMiles(origin, destination, tariff),
    },
  };
}

/** A quote priced by one agreement; `prepared` (prepareRequest) is shared when many carriers price one request. */
export function rateQuoteWithAgreement(input: AgreementQuoteInput, prepared?: PreparedRequest): AgreementQuoteOutcome {
  const { id, request, origin, destination, tariff, carrier, fuelPrices, now } = input;
  if (!prepared) {
    const preparing = prepareRequest(request, origin, destination, tariff, now);
    if (!preparing.ok) return preparing;
    prepared = preparing.value;
  }
  const { accessorials, orderComponents, miles } = prepared;
  const pickup = { value: prepared.pickupDate };
  const outcome = priceWithAgreement({
    carrier,
    components: orderComponents,
    originZip: origin.zipCode,
    destinationZip: destination.zipCode,
    accessorials,
    pickupDate: pickup.value,
    fuelPrices,
  });
  if (!outcome.ok) return { ok: false, uncovered: outcome.reason };
  const { price } = outcome;
  const warnings = [...price.warnings];
  const laneDays = price.transit?.days ?? laneTransitDays(origin, destination, miles, tariff);
  const { transitDays, estimatedDeliveryDate } = laneDelivery(pickup.value, laneDays, destination, tariff);
  // A quote never outlives the agreement that priced it (at the latest, the end of its last day, UTC), nor its pickup day.
  const agreementEnd = Date.parse(`${carrier.agreement.expires}T23:59:59.999Z`);
  const { agreement } = carrier;
  return {
    ok: true,
    value: {
      id,
      quotedPriceInCents: price.quotedPriceInCents,
      quoteExpirationTime: quoteExpirationTime(tariff, now, pickup.value, origin.timeZone, agreementEnd),
      transitDays,
      estimatedDeliveryDate,
      requiredPickupDate: pickup.value,
      pickupAddress: placeOf(origin),
      deliveryAddress: placeOf(destination),
      miles,
      accessorials: price.accessorialsInCents.map((charge) => charge.code),
      orderComponents,
      priceBreakdown: {
        linehaulInCents: price.linehaulInCents,
        discountInCents: price.discountInCents,
        minimumChargeApplied: price.minimumChargeApplied,
        fuelSurchargeInCents: price.fuelSurchargeInCents,
        accessorialsInCents: price.accessorialsInCents,
        lineLinehaulsInCents: price.lineLinehaulsInCents,
      },
      createdAt: now.toISOString(),
      // The caller's company is stamped on it when it is saved.
      companyId: DEFAULT_COMPANY_ID,
      carrier: { scac: agreement.scac, name: agreement.carrierName },
      pricedBy: { ...price.rating, service: price.transit?.service ?? null, transitEstimated: !price.transit },
    },
    warnings: [...warnings, ...beyondLtlWarnings(request.orderComponents)],
  };
}
