/**
 * The rating rules of a carrier agreement (issue 25), exact: every amount is a rational until its
 * breakdown line is rounded once to the cent, halves away from zero; the lines add up to the price.
 *
 * 1. Each line's class from density; the rated class is the FAK class when the agreement maps it.
 * 2. The weight break of the total weight; with deficitRating, also the minimum weight of each
 *    heavier break (the deficit pounds at the lowest rate among the rated classes at that break),
 *    keeping the cheapest after discount (the lighter on a tie).
 * 3. The discount of the break used; the net linehaul is the larger of the discounted charge, the
 *    minimum charge (MC, discounted by byBreak.MC when the agreement gives one) and the AMC.
 * 4. Fuel: the percentage for the pickup date's index week, on the net linehaul (and on the
 *    accessorials when the agreement says so).
 * Pure.
 */
import { allocateCents } from '../allocateCents.js';
import type { RatedOrderComponent } from '../schemas.js';
import type { AgreementRating } from '../pricedBy.js';
import { ratedClass, WEIGHT_BREAK_MIN_POUNDS, WEIGHT_BREAKS, type Agreement, type WeightBreak } from './agreement.js';
import type { BaseRateTable, LaneRates } from './baseRates.js';
import { formatMills, fuelPercentFor, indexMondayFor, indexPriceFor, versionInForce, type FuelPriceHistory, type FuelTable } from './fuel.js';
import { add, compare, mul, ofDecimal, ofNumber, percentOf, ratio, roundHalfAwayFromZero, sub, toDecimalString, ZERO, type Ratio } from './ratio.js';
import type { CarrierTransitTable, LaneTransit } from './transitTable.js';
import { agreementWithoutAccessorialWarning, fuelPriceMissingWarning, fuelPriceStaleWarning, fuelTableNotInForceWarning } from './warnings.js';
import type { Warning } from '../warnings.js';

/** An agreement as loaded: agreement.json and its tables. */
export interface CarrierAgreement {
  /** The directory name, for messages. */
  name: string;
  agreement: Agreement;
  baseRates: BaseRateTable;
  transit?: CarrierTransitTable | undefined;
  fuel?: FuelTable | undefined;
}

export interface AgreementPriceInput {
  carrier: CarrierAgreement;
  components: ReadonlyArray<Pick<RatedOrderComponent, 'poundsWeight' | 'freightClass' | 'dimensions'>>;
  originZip: string;
  destinationZip: string;
  /** Distinct codes, as requested. */
  accessorials: readonly string[];
  pickupDate: string;
  fuelPrices: FuelPriceHistory;
}

export interface AgreementPrice {
  linehaulInCents: number;
  discountInCents: number;
  minimumChargeApplied: boolean;
  fuelSurchargeInCents: number;
  accessorialsInCents: Array<{ code: string; amountInCents: number }>;
  quotedPriceInCents: number;
  /** Per order component, its share of linehaulInCents (they add up to it). */
  lineLinehaulsInCents: number[];
  rating: Omit<AgreementRating, 'service' | 'transitEstimated'>;
  transit: LaneTransit | undefined;
  warnings: Warning[];
}

/** Why an agreement gives no price for this shipment: one line of the rate-shopping table. */
export type AgreementOutcome = { ok: true; price: AgreementPrice } | { ok: false; reason: string };

const hundredweight = (pounds: Ratio) => mul(pounds, ratio(1n, 100n));

function discountOf(agreement: Agreement, name: WeightBreak | 'MC'): Ratio {
  const { percent, byBreak } = agreement.discount;
  if (byBreak) return ofDecimal(byBreak[name]);
  // One percentage discounts the rates; the carrier's minimum charge is a net figure.
  return name === 'MC' ? ZERO : ofDecimal(percent!);
}

function breakOf(pounds: number): number {
  let index = 0;
  WEIGHT_BREAKS.forEach((name, i) => {
    if (pounds >= WEIGHT_BREAK_MIN_POUNDS[name]) index = i;
  });
  return index;
}

/** Prices a shipment with one agreement, or says why it cannot. */
export function priceWithAgreement(input: AgreementPriceInput): AgreementOutcome {
  const { carrier, components, accessorials, pickupDate } = input;
  const { agreement } = carrier;
  if (pickupDate < agreement.effective) return { ok: false, reason: `the agreement takes effect on ${agreement.effective}` };
  if (pickupDate > agreement.expires) return { ok: false, reason: `the agreement expired on ${agreement.expires}` };

  const lane = carrier.baseRates.lane(Number(input.originZip.slice(0, 3)), Number(input.destinationZip.slice(0, 3)));
  const classes = components.map((component) => ({ actualClass: component.freightClass, ratedClass: ratedClass(agreement, component.freightClass) }));
  const missing = [...new Set(classes.map((line) => line.ratedClass).filter((name) => !lane.has(name)))];
  if (lane.size === 0) return { ok: false, reason: `no base rates for lane ${input.originZip.slice(0, 3)} -> ${input.destinationZip.slice(0, 3)}` };
  if (missing.length > 0)
    return { ok: false, reason: `no base rates for class ${missing.join(', ')} on lane ${input.originZip.slice(0, 3)} -> ${input.destinationZip.slice(0, 3)}` };
  const unknown = accessorials.filter((code) => !Object.hasOwn(agreement.accessorials, code));
  if (unknown.length > 0) return { ok: false, reason: agreementWithoutAccessorialWarning(unknown).message };

  const rates = classes.map((line) => lane.get(line.ratedClass)!);
  const weights = components.map((component) => ofNumber(component.poundsWeight));
  const total = weights.reduce(add, ZERO);
  const totalPounds = components.reduce((sum, component) => sum + component.poundsWeight, 0);

  // Rules 2 and 3: the break of the actual weight, and with deficit rating each heavier one.
  const actualBreak = breakOf(totalPounds);
  const candidates = agreement.deficitRating ? WEIGHT_BREAKS.map((_, i) => i).filter((i) => i >= actualBreak) : [actualBreak];
  let best: { breakIndex: number; ratedAs: Ratio; gross: Ratio; lineCharges: Ratio[]; grossCents: number; discountCents: number } | undefined;
  for (const breakIndex of candidates) {
    const name = WEIGHT_BREAKS[breakIndex]!;
    const rateOf = (laneRates: LaneRates) => ratio(BigInt(laneRates.perCwtInCents[name]));
    const lineCharges = weights.map((pounds, i) => mul(hundredweight(pounds), rateOf(rates[i]!)));
    const floor = ratio(BigInt(WEIGHT_BREAK_MIN_POUNDS[name]));
    const ratedAs = compare(floor, total) > 0 ? floor : total;
    const deficit = sub(ratedAs, total);
    const lowest = rates.map(rateOf).reduce((a, b) => (compare(a, b) <= 0 ? a : b));
    const gross = add(lineCharges.reduce(add, ZERO), mul(hundredweight(deficit), lowest));
    const grossCents = roundHalfAwayFromZero(gross);
    const discountCents = roundHalfAwayFromZero(percentOf(gross, discountOf(agreement, name)));
    if (!best || grossCents - discountCents < best.grossCents - best.discountCents) best = { breakIndex, ratedAs, gross, lineCharges, grossCents, discountCents };
  }
  const chosen = best!;
  const breakName = WEIGHT_BREAKS[chosen.breakIndex]!;
  const discounted = chosen.grossCents - chosen.discountCents;
  // The carrier's minimum charge of the lane: the highest MC among the rated classes' rows.
  const mcGross = Math.max(...rates.map((laneRates) => laneRates.minimumChargeInCents));
  const mc = mcGross - roundHalfAwayFromZero(percentOf(ratio(BigInt(mcGross)), discountOf(agreement, 'MC')));
  const amc = agreement.absoluteMinimumChargeInCents;
  const minimumApplied = amc > discounted && amc >= mc ? 'AMC' : mc > discounted ? 'MC' : 'NONE';
  const net = Math.max(discounted, mc, amc);

  // Accessorials: flat amounts, and OVERLENGTH by the longest unit's tier when the agreement has tiers.
  const charges = accessorials.map((code) => ({ code, amountInCents: agreement.accessorials[code]!.amountInCents ?? overlengthCharge(agreement, components) }));
  const tiers = agreement.accessorials.OVERLENGTH?.byLength;
  if (tiers && !accessorials.includes('OVERLENGTH')) {
    const amount = overlengthCharge(agreement, components);
    if (amount > 0) charges.push({ code: 'OVERLENGTH', amountInCents: amount });
  }
  const accessorialTotal = charges.reduce((sum, charge) => sum + charge.amountInCents, 0);

  // Rule 4: fuel.
  const warnings: Warning[] = [];
  let fuelCents = 0;
  let fuel: AgreementRating['fuel'] = null;
  if (carrier.fuel) {
    const version = versionInForce(carrier.fuel, pickupDate);
    const indexWeek = indexMondayFor(pickupDate, carrier.fuel.effectiveDaysAfterIndexMonday);
    const price = indexPriceFor(input.fuelPrices, indexWeek);
    if (!version) warnings.push(fuelTableNotInForceWarning(agreement.scac, pickupDate, carrier.fuel.versions[0]!.from));
    else if (!price) warnings.push(fuelPriceMissingWarning(agreement.scac, indexWeek, undefined));
    else {
      if (price.stale) warnings.push(fuelPriceStaleWarning(agreement.scac, indexWeek, price.week, formatMills(price.mills)));
      else if (price.substituted) warnings.push(fuelPriceMissingWarning(agreement.scac, indexWeek, { week: price.week, price: formatMills(price.mills) }));
      const percent = fuelPercentFor(version, price.mills);
      const base = agreement.fuelAppliesToAccessorials ? net + accessorialTotal : net;
      fuelCents = roundHalfAwayFromZero(percentOf(ratio(BigInt(base)), percent));
      fuel = { indexWeek, week: price.week, usdPerGallon: formatMills(price.mills).slice(1), percent: toDecimalString(percent), tableFrom: version.from };
    }
  }

  // The breakdown as every quote states it: with a minimum, the minimum is the linehaul and no discount shows.
  const linehaulInCents = minimumApplied === 'NONE' ? chosen.grossCents : net;
  const discountInCents = minimumApplied === 'NONE' ? chosen.discountCents : 0;
  const lineWeights = chosen.lineCharges.map((charge) => Number(toDecimalString(charge, 6)));
  const liability = agreement.liability;
  const maxLiabilityInCents = liability
    ? Math.min(roundHalfAwayFromZero(mul(total, ratio(BigInt(liability.newCentsPerPound)))), liability.maxPerShipmentInCents ?? Number.MAX_SAFE_INTEGER)
    : null;
  return {
    ok: true,
    price: {
      linehaulInCents,
      discountInCents,
      minimumChargeApplied: minimumApplied !== 'NONE',
      fuelSurchargeInCents: fuelCents,
      accessorialsInCents: charges,
      quotedPriceInCents: net + fuelCents + accessorialTotal,
      lineLinehaulsInCents: allocateCents(linehaulInCents, lineWeights),
      transit: carrier.transit?.lane(Number(input.originZip.slice(0, 3)), Number(input.destinationZip.slice(0, 3))),
      warnings,
      rating: {
        kind: 'AGREEMENT',
        scac: agreement.scac,
        carrierName: agreement.carrierName,
        agreement: agreement.agreement,
        ratedAsPounds: Number(toDecimalString(chosen.ratedAs, 6)),
        weightBreak: breakName,
        lines: classes,
        grossInCents: chosen.grossCents,
        discountPercent: toDecimalString(discountOf(agreement, breakName)),
        discountInCents: chosen.discountCents,
        minimumApplied,
        netLinehaulInCents: net,
        fuel,
        fuelAppliesToAccessorials: agreement.fuelAppliesToAccessorials,
        maxLiabilityInCents,
        expires: agreement.expires,
      },
    },
  };
}

/** The OVERLENGTH charge of the longest unit (its longer side), by the longest tier it reaches; 0 below the first. */
function overlengthCharge(agreement: Agreement, components: AgreementPriceInput['components']): number {
  const tiers = agreement.accessorials.OVERLENGTH?.byLength;
  if (!tiers) return 0;
  const longest = Math.max(...components.map((component) => Math.max(component.dimensions.length, component.dimensions.width)));
  return tiers.filter((tier) => longest >= tier.atLeastInches).at(-1)?.amountInCents ?? 0;
}
