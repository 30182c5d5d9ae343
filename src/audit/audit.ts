/**
 * The audit of one carrier's bill against its shipment, PURE: what was booked and quoted (the
 * shipment's freight and price breakdown), what the carrier billed, and the tariff to price the
 * difference. Each finding says what differs and the amount at stake, in cents:
 *
 * - REWEIGH: billed weights differ. At stake: the tariff price (net linehaul and its fuel) of the
 *   freight at the billed weights, minus that at the booked weights (booked classes both times).
 * - RECLASS: billed classes differ. At stake: the price at billed weights and billed classes minus
 *   that at billed weights and booked classes. (A class of the older scale is priced at the next
 *   class up the tariff has.)
 * - FUEL: the fuel surcharge billed beyond the quoted one plus what the reweigh and reclass add to
 *   it (the tariff's fuel on the billed freight).
 * - ACCESSORIAL: a charge for a service the shipment did not order; at stake: the charge.
 * - OVERCHARGE: what remains above the quote: a net linehaul above the tariff's for the billed
 *   freight (a discount not applied), an ordered accessorial billed above its quoted amount, a
 *   total above the sum of the bill's charges.
 * - UNMATCHED: no shipment has the bill's PRO or BOL number, or it was cancelled; at stake: the
 *   whole bill. DUPLICATE (duplicates.ts): another bill already covers the shipment.
 *
 * Every figure is priced with the same tariff at the same lane, and only differences are used, so
 * the amounts add up: when the carrier billed more on every count, the amounts at stake add up
 * to the billed total minus the quoted price, to the cent. Money in the shipper's favour is not a
 * finding; a finding at or below the tolerance is none either. REWEIGH and RECLASS are at stake
 * only as far as the bill's linehaul and fuel exceed the quote's (a bill that notes another class
 * but charges the quoted price has nothing at stake).
 */
import { z } from 'zod';
import { freightTotals } from '../domain/freightTotals.js';
import { formatCents } from '../domain/money.js';
import { priceShipment } from '../domain/rating.js';
import type { FreightClass, RatedOrderComponent, Shipment } from '../domain/schemas.js';
import type { Tariff } from '../domain/tariff.js';
import { priceWithAgreement, type CarrierAgreement } from '../domain/agreements/rateAgreement.js';
import { ofDecimal, percentOf, ratio, roundHalfAwayFromZero } from '../domain/agreements/ratio.js';
import { billKeyOf, carrierBillSchema, ratingClassOf, type CarrierBill } from './bill.js';
import { accessorialsMeantBy } from './chargeCodes.js';
import { freightCheckEvidence } from './freightCheckEvidence.js';

export const FINDING_CODES = ['REWEIGH', 'RECLASS', 'ACCESSORIAL', 'FUEL', 'OVERCHARGE', 'UNMATCHED', 'DUPLICATE'] as const;

export const findingSchema = z.object({
  code: z.enum(FINDING_CODES),
  amountInCents: z.number().int().meta({ description: 'The amount at stake' }),
  message: z.string(),
  /** REWEIGH and RECLASS: whether the freight check had warned about the lines before booking (freightCheckEvidence.ts). */
  freightCheck: z.object({ warned: z.boolean(), codes: z.array(z.string()) }).optional(),
});
export type Finding = z.infer<typeof findingSchema>;

const placeSummary = z.object({ city: z.string(), state: z.string(), zipCode: z.string() });

/** What the audit keeps of the shipment a bill matched (the spend report groups by it). */
export const auditedShipmentSchema = z.object({
  id: z.string(),
  orderNumber: z.string(),
  bolNumber: z.string(),
  proNumber: z.string().nullable(),
  status: z.string(),
  createdAt: z.string(),
  pickupDate: z.string(),
  origin: placeSummary,
  destination: placeSummary,
  carrier: z.object({ name: z.string(), scac: z.string() }).nullable(),
  poundsWeight: z.number(),
  quotedPriceInCents: z.number().int(),
});
export type AuditedShipment = z.infer<typeof auditedShipmentSchema>;

export const auditResultSchema = z.object({
  billKey: z.string(),
  bill: carrierBillSchema,
  matchedBy: z.enum(['PRO', 'BOL']).nullable(),
  shipment: auditedShipmentSchema.nullable(),
  quotedInCents: z.number().int().nullable(),
  billedInCents: z.number().int(),
  disputedInCents: z.number().int(),
  status: z.enum(['OK', 'DISPUTED']),
  findings: z.array(findingSchema),
  auditedAt: z.string(),
});
export type AuditResult = z.infer<typeof auditResultSchema>;

export type BillMatch = { shipment: Shipment; by: 'PRO' | 'BOL' } | { shipment: null; reason: string };

export interface AuditOptions {
  tariff: Tariff;
  /**
   * The carrier agreements loaded (--tariffs): a shipment whose quote was priced by one of them is
   * re-rated by that agreement, at the fuel percentage its quote recorded, not by the tariff.
   */
  agreements?: readonly CarrierAgreement[] | undefined;
  /** Findings whose amount at stake is at most this are not disputed. */
  toleranceInCents: number;
  auditedAt: string;
}

const quantity = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const pounds = (value: number): string => `${quantity.format(value)} lb`;
const signed = (value: number): string => (value > 0 ? `+${quantity.format(value)}` : quantity.format(value));

export function auditedShipmentOf(shipment: Shipment): AuditedShipment {
  const place = (address: Shipment['pickupAddress']) => ({ city: address.city, state: address.state, zipCode: address.zipCode });
  return {
    id: shipment.id,
    orderNumber: shipment.orderNumber,
    bolNumber: shipment.bolNumber,
    proNumber: shipment.proNumber,
    status: shipment.orderStatus,
    createdAt: shipment.createdAt,
    pickupDate: shipment.requiredPickupDate,
    origin: place(shipment.pickupAddress),
    destination: place(shipment.deliveryAddress),
    carrier: shipment.carrier ? { name: shipment.carrier.name, scac: shipment.carrier.scac } : null,
    poundsWeight: freightTotals(shipment.orderComponents).poundsWeight,
    quotedPriceInCents: shipment.totalPriceInCents,
  };
}

interface PricedLine {
  poundsWeight: number;
  freightClass: FreightClass;
}

type FreightPricer = (lines: readonly PricedLine[]) => { net: number; fuel: number };

/** The tariff's net linehaul (after discount or minimum) and fuel surcharge of freight on the lane. */
function tariffPricer(miles: number, tariff: Tariff): FreightPricer {
  return (lines) => {
    const price = priceShipment(lines as unknown as RatedOrderComponent[], miles, [], tariff);
    return { net: price.linehaulInCents - price.discountInCents, fuel: price.fuelSurchargeInCents };
  };
}

/**
 * What priced the shipment's quote, re-rating other freight: its carrier agreement when the quote
 * recorded one that is loaded (the fuel at the recorded percentage), else the tariff. Freight the
 * agreement has no base rates for (a class billed that the lane lacks) falls back to the tariff.
 */
function pricerOf(shipment: Shipment, options: AuditOptions): { price: FreightPricer; name: string } {
  const byTariff = tariffPricer(shipment.miles, options.tariff);
  const pricedBy = shipment.pricedBy;
  if (pricedBy?.kind !== 'AGREEMENT') return { price: byTariff, name: 'the tariff' };
  const carrier = options.agreements?.find((item) => item.agreement.scac === pricedBy.scac && item.agreement.agreement === pricedBy.agreement);
  if (!carrier) return { price: byTariff, name: 'the tariff' };
  const withoutFuel = { ...carrier, fuel: undefined };
  const fuelPercent = pricedBy.fuel ? ofDecimal(pricedBy.fuel.percent) : undefined;
  return {
    name: `agreement ${pricedBy.agreement} (${pricedBy.scac})`,
    price: (lines) => {
      const outcome = priceWithAgreement({
        carrier: withoutFuel,
        components: lines.map((line) => ({ ...line, dimensions: { length: 1, width: 1, height: 1 } })),
        originZip: shipment.pickupAddress.zipCode,
        destinationZip: shipment.deliveryAddress.zipCode,
        accessorials: [],
        pickupDate: shipment.requiredPickupDate,
        fuelPrices: new Map(),
      });
      if (!outcome.ok) return byTariff(lines);
      const net = outcome.price.rating.netLinehaulInCents;
      return { net, fuel: fuelPercent ? roundHalfAwayFromZero(percentOf(ratio(BigInt(net)), fuelPercent)) : 0 };
    },
  };
}

function percent(part: number, whole: number): string {
  return whole > 0 ? `${Number(((part / whole) * 100).toFixed(1))}%` : '0%';
}

function result(bill: CarrierBill, match: BillMatch, findings: Finding[], options: AuditOptions): AuditResult {
  const kept = findings
    .filter((finding) => finding.code === 'UNMATCHED' || finding.code === 'DUPLICATE' || finding.amountInCents > options.toleranceInCents)
    // In the order of FINDING_CODES, whatever the order found.
    .sort((a, b) => FINDING_CODES.indexOf(a.code) - FINDING_CODES.indexOf(b.code));
  const disputed = kept.reduce((sum, finding) => sum + finding.amountInCents, 0);
  return {
    billKey: billKeyOf(bill),
    bill,
    matchedBy: match.shipment ? match.by : null,
    shipment: match.shipment ? auditedShipmentOf(match.shipment) : null,
    quotedInCents: match.shipment ? match.shipment.totalPriceInCents : null,
    billedInCents: bill.totalInCents,
    disputedInCents: disputed,
    status: kept.length > 0 ? 'DISPUTED' : 'OK',
    findings: kept,
    auditedAt: options.auditedAt,
  };
}

export function auditBill(bill: CarrierBill, match: BillMatch, options: AuditOptions): AuditResult {
  if (!match.shipment) return result(bill, match, [{ code: 'UNMATCHED', amountInCents: bill.totalInCents, message: match.reason }], options);
  const shipment = match.shipment;
  const key = match.by === 'PRO' ? `PRO ${bill.proNumber}` : `BOL ${bill.bolNumber}`;
  if (shipment.orderStatus === 'CANCELLED') {
    const when = shipment.cancelledAt ? ` on ${shipment.cancelledAt.slice(0, 10)}` : '';
    return result(
      bill,
      match,
      [{ code: 'UNMATCHED', amountInCents: bill.totalInCents, message: `${key} is ${shipment.orderNumber}'s, which was cancelled${when}: nothing moved to bill` }],
      options,
    );
  }

  const pricer = pricerOf(shipment, options);
  const booked = shipment.orderComponents;
  const billed = bill.lines;
  const sameLines = billed.length === booked.length;
  const bookedPounds = booked.reduce((sum, component) => sum + component.poundsWeight, 0);
  const billedPounds = billed.reduce((sum, line) => sum + line.poundsWeight, 0);

  // Booked freight; the same at the billed weights; the freight as billed (weights and classes).
  const bookedLines: PricedLine[] = booked.map((component) => ({ poundsWeight: component.poundsWeight, freightClass: component.freightClass }));
  const reweighed: PricedLine[] = sameLines
    ? booked.map((component, index) => ({ poundsWeight: billed[index]!.poundsWeight, freightClass: component.freightClass }))
    : booked.map((component) => ({ poundsWeight: (component.poundsWeight * billedPounds) / bookedPounds, freightClass: component.freightClass }));
  const classesKnown = billed.every((line) => line.freightClass !== null);
  const asBilled: PricedLine[] = sameLines
    ? billed.map((line, index) => ({ poundsWeight: line.poundsWeight, freightClass: line.freightClass ? ratingClassOf(line.freightClass) : booked[index]!.freightClass }))
    : classesKnown
      ? billed.map((line) => ({ poundsWeight: line.poundsWeight, freightClass: ratingClassOf(line.freightClass!) }))
      : reweighed;
  const p0 = pricer.price(bookedLines);
  const p1 = pricer.price(reweighed);
  const p2 = pricer.price(asBilled);
  const findings: Finding[] = [];

  // REWEIGH
  const reweighedLines = sameLines ? billed.filter((line, index) => line.poundsWeight !== booked[index]!.poundsWeight) : [];
  if (reweighedLines.length > 0 || billedPounds !== bookedPounds) {
    const detail = reweighedLines.map((line) => `line ${line.line}: ${pounds(line.poundsWeight)} billed, ${pounds(booked[line.line - 1]!.poundsWeight)} booked`);
    const evidence = freightCheckEvidence(
      shipment,
      'REWEIGH',
      reweighedLines.map((line) => line.line),
      options.tariff,
    );
    findings.push({
      code: 'REWEIGH',
      amountInCents: p1.net + p1.fuel - (p0.net + p0.fuel),
      message: `billed ${pounds(billedPounds)}, booked ${pounds(bookedPounds)} (${signed(billedPounds - bookedPounds)} lb)${detail.length > 0 ? `; ${detail.join('; ')}` : ''}; ${evidence.sentence}`,
      freightCheck: { warned: evidence.warned, codes: evidence.codes },
    });
  }

  // RECLASS
  if (sameLines) {
    const reclassed = billed.filter((line, index) => line.freightClass !== null && line.freightClass !== booked[index]!.freightClass);
    if (reclassed.length > 0) {
      const detail = reclassed.map((line) => {
        const component = booked[line.line - 1]!;
        const { length, width, height } = component.dimensions;
        const rated = ratingClassOf(line.freightClass!);
        return `line ${line.line}: class ${line.freightClass}${rated !== line.freightClass ? ` (priced as ${rated})` : ''} billed, ${component.freightClass} booked (${quantity.format(component.densityPcf)} pcf: ${pounds(component.poundsWeight)} on ${component.palletCount} x ${length}x${width}x${height} in)`;
      });
      const evidence = freightCheckEvidence(
        shipment,
        'RECLASS',
        reclassed.map((line) => line.line),
        options.tariff,
      );
      findings.push({
        code: 'RECLASS',
        amountInCents: p2.net + p2.fuel - (p1.net + p1.fuel),
        message: `${detail.join('; ')}; ${evidence.sentence}`,
        freightCheck: { warned: evidence.warned, codes: evidence.codes },
      });
    }
  } else if (classesKnown) {
    const billedClasses = [...new Set(billed.map((line) => line.freightClass!))].join(', ');
    const bookedClasses = [...new Set(booked.map((component) => component.freightClass))].join(', ');
    if (p2.net + p2.fuel !== p1.net + p1.fuel) {
      const evidence = freightCheckEvidence(shipment, 'RECLASS', [], options.tariff);
      findings.push({
        code: 'RECLASS',
        amountInCents: p2.net + p2.fuel - (p1.net + p1.fuel),
        message: `billed as ${billed.length} line(s) in class ${billedClasses}; booked as ${booked.length} line(s) in class ${bookedClasses}; ${evidence.sentence}`,
        freightCheck: { warned: evidence.warned, codes: evidence.codes },
      });
    }
  }

  // FUEL: beyond the quoted fuel plus what the reweigh and reclass add to it.
  const quoted = shipment.priceBreakdown;
  const expectedFuel = quoted.fuelSurchargeInCents + (p2.fuel - p0.fuel);
  const expectedNet = quoted.linehaulInCents - quoted.discountInCents + (p2.net - p0.net);
  if (bill.fuelSurchargeInCents !== expectedFuel) {
    findings.push({
      code: 'FUEL',
      amountInCents: bill.fuelSurchargeInCents - expectedFuel,
      message: `fuel ${formatCents(bill.fuelSurchargeInCents)} billed (${percent(bill.fuelSurchargeInCents, bill.linehaulInCents - bill.discountInCents)} of the billed net linehaul); ${formatCents(expectedFuel)} expected (${percent(expectedFuel, expectedNet)} of ${formatCents(expectedNet)})`,
    });
  }

  // ACCESSORIAL: services not ordered; ordered ones above their quoted amount are an OVERCHARGE.
  const ordered = quoted.accessorialsInCents.map((charge) => ({ ...charge, used: false }));
  for (const charge of bill.accessorials) {
    if (charge.amountInCents <= 0) continue;
    const meant = accessorialsMeantBy(charge.code);
    const match = ordered.find((candidate) => !candidate.used && meant.includes(candidate.code));
    const name = `${charge.code}${charge.description ? ` (${charge.description})` : ''}`;
    if (!match) {
      const orderedCodes = quoted.accessorialsInCents.map((candidate) => candidate.code).join(', ') || 'none';
      findings.push({
        code: 'ACCESSORIAL',
        amountInCents: charge.amountInCents,
        message: `${name} ${formatCents(charge.amountInCents)} billed, not ordered (ordered: ${orderedCodes})`,
      });
      continue;
    }
    match.used = true;
    if (charge.amountInCents > match.amountInCents) {
      findings.push({
        code: 'OVERCHARGE',
        amountInCents: charge.amountInCents - match.amountInCents,
        message: `${match.code}${charge.code !== match.code ? ` (billed as ${charge.code})` : ''} ${formatCents(charge.amountInCents)} billed, ${formatCents(match.amountInCents)} quoted`,
      });
    }
  }

  // OVERCHARGE: net linehaul above the tariff's for the billed freight.
  const billedNet = bill.linehaulInCents - bill.discountInCents;
  if (billedNet > expectedNet) {
    const discounts =
      percent(bill.discountInCents, bill.linehaulInCents) !== percent(quoted.discountInCents, quoted.linehaulInCents)
        ? ` (discount billed ${percent(bill.discountInCents, bill.linehaulInCents)}, quoted ${quoted.minimumChargeApplied ? 'none: minimum charge' : percent(quoted.discountInCents, quoted.linehaulInCents)})`
        : '';
    findings.push({
      code: 'OVERCHARGE',
      amountInCents: billedNet - expectedNet,
      message: `net linehaul ${formatCents(billedNet)} billed (${formatCents(bill.linehaulInCents)} less ${formatCents(bill.discountInCents)}); ${pricer.name} gives ${formatCents(expectedNet)} for the freight as billed${discounts}`,
    });
  }

  // REWEIGH and RECLASS claim what re-rating the freight adds, but a bill may not charge it all
  // (a carrier that notes another class yet rates at the quoted or a FAK class, a reweigh up and
  // a reclass down): they are at stake only up to what the bill's linehaul and fuel exceed the
  // quote by, beyond the FUEL and net-linehaul OVERCHARGE already found. A consistent re-rate is
  // never cut: then the findings add up to that excess exactly.
  const freightExcess = billedNet + bill.fuelSurchargeInCents - (quoted.linehaulInCents - quoted.discountInCents + quoted.fuelSurchargeInCents);
  const claimedElsewhere = Math.max(0, bill.fuelSurchargeInCents - expectedFuel) + Math.max(0, billedNet - expectedNet);
  let room = Math.max(0, freightExcess - claimedElsewhere);
  for (const finding of findings.filter((candidate) => candidate.code === 'REWEIGH' || candidate.code === 'RECLASS')) {
    if (finding.amountInCents <= 0) continue;
    if (finding.amountInCents > room) {
      finding.message += `; ${formatCents(finding.amountInCents)} on ${pricer.name}, but the bill charges ${freightExcess > 0 ? `only ${formatCents(freightExcess)}` : 'nothing'} above the quoted linehaul and fuel`;
      finding.amountInCents = room;
    }
    room -= finding.amountInCents;
  }

  // OVERCHARGE: a total above the bill's own charges.
  const charges = billedNet + bill.fuelSurchargeInCents + bill.accessorials.reduce((sum, charge) => sum + charge.amountInCents, 0);
  if (bill.totalInCents > charges) {
    findings.push({
      code: 'OVERCHARGE',
      amountInCents: bill.totalInCents - charges,
      message: `the total ${formatCents(bill.totalInCents)} is more than the bill's charges add up to (${formatCents(charges)})`,
    });
  }
  return result(bill, match, findings, options);
}
