/**
 * Quotes priced by carrier agreements: one carrier (a quote request naming carrierScac) or every
 * carrier at once (POST /v1/shipper/rates, rate shopping). Each priced quote is an ordinary stored
 * quote; a carrier that gives no price is a line saying why, not an error for the others.
 */
import { prepareRequest, rateQuoteWithAgreement, type PreparedRequest } from '../../domain/agreements/agreementQuote.js';
import type { CarrierAgreement } from '../../domain/agreements/rateAgreement.js';
import { laneNotCoveredWarning } from '../../domain/agreements/warnings.js';
import { resolvePickupDate, type RatedQuote } from '../../domain/rating.js';
import { fastestOf, sortCheapestFirst, type Rates } from '../../domain/rates.js';
import { quoteSchema, type Quote, type QuoteRequest, type Violation } from '../../domain/schemas.js';
import type { Tariff } from '../../domain/tariff.js';
import type { ShipperStore } from '../../store/ports.js';
import { addDays } from '../../domain/dates.js';
import { historyOf } from '../../domain/agreements/fuelHistory.js';
import { constraintViolation, makeProblem } from '../problems.js';
import type { ApiResult } from '../types.js';
import type { CompanyAgreements } from './agreementProvider.js';
import type { IdFactory } from './ids.js';
import type { BodyOf, Input } from './input.js';
import { assertQuoteReadable } from './quotes.js';
import type { ZipLookup } from '../../domain/zipCode.js';
import { assertReadsBack, guardStore } from './records.js';

export interface CarrierRatingDeps {
  store: ShipperStore;
  zips: ZipLookup;
  ids: IdFactory;
  now: () => Date;
  agreements: CompanyAgreements;
}

/** What differs between the quotes of one rate shopping. */
const carrierPartSchema = quoteSchema.pick({
  id: true,
  quotedPriceInCents: true,
  quoteExpirationTime: true,
  transitDays: true,
  estimatedDeliveryDate: true,
  accessorials: true,
  priceBreakdown: true,
  carrier: true,
  pricedBy: true,
});

function assertCarrierPartReadable(quote: Quote): void {
  const { id, quotedPriceInCents, quoteExpirationTime, transitDays, estimatedDeliveryDate, accessorials, priceBreakdown, carrier, pricedBy } = quote;
  assertReadsBack(
    carrierPartSchema,
    { id, quotedPriceInCents, quoteExpirationTime, transitDays, estimatedDeliveryDate, accessorials, priceBreakdown, carrier, pricedBy },
    'the quote was refused: its record would not read back (a number out of range?); nothing was saved',
  );
}

const noAgreements = () =>
  makeProblem(
    422,
    'no-agreements',
    'No Carrier Agreements',
    'no carrier agreements are loaded: the local engine prices by carrier with --tariffs DIR (SHIPPER_TARIFFS, config set tariffs DIR; "samples": the shipped samples)',
  );

export class CarrierRating {
  constructor(private readonly deps: CarrierRatingDeps) {}

  /** A quote request that names carrierScac, priced by that carrier's agreement (not stored here). */
  async rate(request: QuoteRequest, tariff: Tariff): Promise<RatedQuote> {
    const agreements = await this.deps.agreements.load();
    if (agreements.length === 0) throw noAgreements();
    const carrier = agreements.find((item) => item.agreement.scac === request.carrierScac);
    if (!carrier) {
      return {
        ok: false,
        violations: [{ field: 'carrierScac', reason: `no agreement with ${request.carrierScac}; loaded: ${agreements.map((item) => item.agreement.scac).join(', ')}` }],
      };
    }
    const fuelPrices = await this.fuelHistory(request, tariff);
    const outcome = this.rateWith(carrier, request, tariff, fuelPrices);
    if (outcome.ok) return outcome;
    if (outcome.violations) return outcome;
    return { ok: false, violations: [{ field: 'carrierScac', reason: `${carrier.agreement.scac} (${carrier.agreement.carrierName}) gives no price: ${outcome.uncovered}` }] };
  }

  private rateWith(carrier: CarrierAgreement, request: QuoteRequest, tariff: Tariff, fuelPrices: Map<string, number>, prepared?: PreparedRequest) {
    const now = this.deps.now();
    return rateQuoteWithAgreement(
      {
        id: this.deps.ids.quote(now),
        request,
        origin: this.deps.zips.lookup(request.pickupAddress.zipCode)!,
        destination: this.deps.zips.lookup(request.deliveryAddress.zipCode)!,
        tariff,
        carrier,
        fuelPrices,
        now,
      },
      prepared,
    );
  }

  /**
   * The weekly diesel prices a pickup can use: the five weeks before it (its index week is at most
   * 12 days before), else, when they hold none that old, every week before it (the last price, stale).
   */
  private async fuelHistory(request: QuoteRequest, tariff: Tariff): Promise<Map<string, number>> {
    const origin = this.deps.zips.lookup(request.pickupAddress.zipCode)!;
    const pickup = resolvePickupDate(request.requiredPickupDate, origin, tariff, this.deps.now());
    const to = pickup.ok ? pickup.value : undefined;
    return guardStore(async () => {
      const recent = to ? historyOf(await this.deps.store.fuelPrices.list({ from: addDays(to, -35), to })) : new Map<string, number>();
      if (to && [...recent.keys()].some((week) => week <= addDays(to, -13))) return recent;
      return historyOf(await this.deps.store.fuelPrices.list(to ? { to } : {}));
    });
  }

  /** Rate shopping: every carrier asked, cheapest first; each priced quote stored. */
  async shop(input: Input<BodyOf<'shopRates'>>, tariff: Tariff): Promise<ApiResult<Rates>> {
    const agreements = await this.deps.agreements.load();
    if (agreements.length === 0) throw noAgreements();
    const { carrierScacs = [], carrierScac, ...request } = input.value;
    const asked = [...new Set([...carrierScacs, ...(carrierScac ? [carrierScac] : [])])];
    const chosen = asked.length === 0 ? agreements : agreements.filter((item) => asked.includes(item.agreement.scac));
    const uncovered: Rates['uncovered'] = asked
      .filter((scac) => !agreements.some((item) => item.agreement.scac === scac))
      .map((scac) => ({ carrier: { scac, name: scac }, agreement: null, reason: 'no agreement with this carrier is loaded' }));
    const fuelPrices = await this.fuelHistory(request, tariff);
    const quotes: Quote[] = [];
    const warnings = [...input.warnings];
    // The pickup date, classes and miles are the same for every carrier: worked out once.
    const prepared = prepareRequest(
      request,
      this.deps.zips.lookup(request.pickupAddress.zipCode)!,
      this.deps.zips.lookup(request.deliveryAddress.zipCode)!,
      tariff,
      this.deps.now(),
    );
    if (!prepared.ok) throw constraintViolation(prepared.violations);
    let violations: Violation[] | undefined;
    for (const carrier of chosen) {
      const outcome = this.rateWith(carrier, request, tariff, fuelPrices, prepared.value);
      if (outcome.ok) {
        quotes.push(outcome.value);
        warnings.push(...outcome.warnings.filter((warning) => !warnings.some((seen) => seen.code === warning.code && seen.message === warning.message)));
      } else if (outcome.violations) violations ??= outcome.violations;
      else uncovered.push({ carrier: { scac: carrier.agreement.scac, name: carrier.agreement.carrierName }, agreement: carrier.agreement.agreement, reason: outcome.uncovered });
    }
    // The pickup date is the same for every carrier: its violations are the request's.
    if (violations) throw constraintViolation(violations);
    // Checked as they will be read: the first whole; the others share its freight, lane and
    // pickup (the same objects), so only what each carrier priced is checked again.
    quotes.forEach((quote, index) => (index === 0 ? assertQuoteReadable(quote) : assertCarrierPartReadable(quote)));
    // One unit of work: the quotes of one rate shopping share one durable write.
    await guardStore(() =>
      this.deps.store.withTransaction(async (tx) => {
        for (const quote of quotes) tx.quotes.put(quote);
      }),
    );
    const sorted = sortCheapestFirst(quotes);
    for (const line of uncovered) warnings.push(laneNotCoveredWarning(line.carrier.scac, line.carrier.name, line.reason));
    return {
      data: { items: sorted, uncovered, cheapestQuoteId: sorted[0]?.id ?? null, fastestQuoteId: fastestOf(sorted) },
      warnings,
      replayed: false,
    };
  }
}
