/**
 * The invoice of a shipment (issue 17): the freight charges of the booked price, one line per
 * order component with its share of the linehaul, then the discount, the fuel surcharge and each
 * accessorial, adding up to the booked price exactly. Pure: zod and integer arithmetic.
 *
 * - The invoice number is the order number's: SO-000123 is invoiced as INV-000123. Order numbers
 *   are unique and never reused, so invoice numbers are too, without a counter of their own, and
 *   the invoice of a shipment is always the same document (GET has no side effect).
 * - The invoice is dated the pickup day: freight is invoiced on the day it ships.
 * - The linehaul is shared in proportion to each line's tariff linehaul (its weight times its
 *   class's rate on the lane), by the largest-remainder method: the shares add up to the booked
 *   linehaul to the cent, whatever the rounding.
 */
import { z } from 'zod';
import { onFirstUse } from './schemaOnFirstUse.js';
import { allocateCents } from './allocateCents.js';
import { FREIGHT_CHARGE_TERMS } from './carrier.js';
import { freightTotals } from './freightTotals.js';
import { distanceBandIndex, weightBreakIndex } from './rating.js';
import { freightClassSchema, instantSchema, isoDateSchema, storedAddressSchema, type FreightClass, type Shipment } from './schemas.js';
import type { Tariff } from './tariff.js';
import { ShipperError, type ErrorCode } from './errors.js';

export const INVOICE_LINE_KINDS = ['FREIGHT', 'DISCOUNT', 'FUEL_SURCHARGE', 'ACCESSORIAL'] as const;
export type InvoiceLineKind = (typeof INVOICE_LINE_KINDS)[number];

export const invoiceLineSchema = onFirstUse(() =>
  z.object({
    kind: z.enum(INVOICE_LINE_KINDS).meta({ description: 'FREIGHT (one per order component), DISCOUNT, FUEL_SURCHARGE or ACCESSORIAL' }),
    description: z.string().nullable().meta({ description: "The component's description, or what the charge is" }),
    amountInCents: z.number().int().meta({ description: 'Negative for the discount' }),
    componentIndex: z.number().int().nullable().meta({ description: 'FREIGHT: the position of the order component (0-based)' }),
    nmfcCode: z.string().nullable(),
    freightClass: freightClassSchema.nullable(),
    palletCount: z.number().int().nullable(),
    pieceCount: z.number().int().nullable(),
    poundsWeight: z.number().nullable(),
    code: z.string().nullable().meta({ description: 'ACCESSORIAL: the accessorial code' }),
  }),
);
export type InvoiceLine = z.infer<typeof invoiceLineSchema>;

export const invoiceSchema = onFirstUse(() =>
  z.object({
    invoiceNumber: z.string().meta({ description: "INV- and the order number's digits: unique, never reused", example: 'INV-000123' }),
    shipmentId: z.string(),
    orderNumber: z.string(),
    bolNumber: z.string(),
    proNumber: z.string().nullable(),
    refNumber: z.string().nullable(),
    quoteId: z.string(),
    invoiceDate: isoDateSchema.meta({ description: 'The pickup day: freight is invoiced on the day it ships' }),
    pickupDate: isoDateSchema,
    estimatedDeliveryDate: instantSchema.nullable(),
    bookedAt: instantSchema,
    currency: z.literal('USD'),
    freightChargeTerms: z.enum(FREIGHT_CHARGE_TERMS),
    billTo: storedAddressSchema.meta({ description: 'Who pays the freight: the shipper (PREPAID), the consignee (COLLECT) or the third party (THIRD_PARTY)' }),
    shipper: storedAddressSchema,
    consignee: storedAddressSchema,
    carrier: z.object({ name: z.string(), scac: z.string() }).nullable(),
    miles: z.number().int(),
    minimumChargeApplied: z.boolean().meta({ description: "The tariff's minimum charge replaced the discounted linehaul (no discount)" }),
    lines: z
      .array(invoiceLineSchema)
      .meta({ description: 'FREIGHT lines in component order, then DISCOUNT, FUEL_SURCHARGE and each ACCESSORIAL; they add up to totals.totalInCents' }),
    totals: z.object({
      linehaulInCents: z.number().int(),
      discountInCents: z.number().int(),
      fuelSurchargeInCents: z.number().int(),
      accessorialsInCents: z.number().int(),
      totalInCents: z.number().int().meta({ description: 'The booked price (quotedPriceInCents)' }),
      palletCount: z.number().int(),
      pieceCount: z.number().int(),
      poundsWeight: z.number(),
    }),
  }),
);
export type Invoice = z.infer<typeof invoiceSchema>;

/** Whether any freight line gives its pieces: a total of pieces none gave would print a false 0. */
export function piecesKnown(invoice: Pick<Invoice, 'lines'>): boolean {
  return invoice.lines.some((line) => line.kind === 'FREIGHT' && line.pieceCount !== null);
}

/** `SO-000123` -> `INV-000123`. */
export function invoiceNumberFor(orderNumber: string): string {
  const digits = /^SO-(\d+)$/.exec(orderNumber)?.[1];
  if (!digits) throw new RangeError(`not an order number: ${orderNumber}`);
  return `INV-${digits}`;
}

/**
 * What each line's linehaul would be on the tariff (cents, unrounded): its weight in hundredweight
 * times its class's rate in the shipment's distance band and weight break. Only the proportions
 * matter to the invoice, so a tariff changed since booking still shares the booked linehaul.
 */
export function tariffLinehaulWeights(components: ReadonlyArray<{ poundsWeight: number; freightClass: FreightClass }>, miles: number, tariff: Tariff): number[] {
  const band = distanceBandIndex(miles, tariff);
  const totalPounds = components.reduce((sum, component) => sum + component.poundsWeight, 0);
  const weightBreak = weightBreakIndex(totalPounds, tariff);
  return components.map((component) => component.poundsWeight * (tariff.ratesPerCwtInCents[component.freightClass]?.[band]?.[weightBreak] ?? 0));
}

/** 70 -> "70%", 12.5 -> "12.5%": a percentage of two amounts as people write it. */
function percentOf(part: number, whole: number): string | null {
  if (whole <= 0 || part <= 0) return null;
  return `${Number(((part / whole) * 100).toFixed(2))}%`;
}

export interface InvoiceOptions {
  /** Per component, the weight of its share of the linehaul (tariffLinehaulWeights). */
  linehaulWeights: readonly number[];
  /** What each accessorial code is, for its line (the tariff's description); the code otherwise. */
  accessorialDescriptions?: Readonly<Record<string, string>>;
}

export class InvoiceError extends ShipperError {
  readonly code: ErrorCode = 'INVOICE';
  override name = 'InvoiceError';
}

/** The invoice of a booked shipment. Throws InvoiceError for a cancelled shipment or a price that does not add up. */
export function buildInvoice(shipment: Shipment, options: InvoiceOptions): Invoice {
  if (shipment.orderStatus === 'CANCELLED') throw new InvoiceError(`shipment ${shipment.orderNumber} was cancelled: it has no invoice`);
  const breakdown = shipment.priceBreakdown;
  const components = shipment.orderComponents;
  if (options.linehaulWeights.length !== components.length) throw new RangeError('one linehaul weight per order component is needed');
  const shares = allocateCents(breakdown.linehaulInCents, options.linehaulWeights);
  const freight: InvoiceLine[] = components.map((component, index) => ({
    kind: 'FREIGHT',
    description: component.description,
    amountInCents: shares[index]!,
    componentIndex: index,
    nmfcCode: component.nmfcCode,
    freightClass: component.freightClass,
    palletCount: component.palletCount,
    pieceCount: component.pieceCount,
    poundsWeight: component.poundsWeight,
    code: null,
  }));
  const charge = (kind: InvoiceLineKind, description: string, amountInCents: number, code: string | null = null): InvoiceLine => ({
    kind,
    description,
    amountInCents,
    componentIndex: null,
    nmfcCode: null,
    freightClass: null,
    palletCount: null,
    pieceCount: null,
    poundsWeight: null,
    code,
  });
  const netLinehaul = breakdown.linehaulInCents - breakdown.discountInCents;
  const discountPercent = percentOf(breakdown.discountInCents, breakdown.linehaulInCents);
  const fuelPercent = percentOf(breakdown.fuelSurchargeInCents, netLinehaul);
  const lines: InvoiceLine[] = [
    ...freight,
    charge(
      'DISCOUNT',
      breakdown.minimumChargeApplied ? 'Discount: none, the minimum charge applies' : `Discount${discountPercent ? ` ${discountPercent}` : ''}`,
      0 - breakdown.discountInCents, // never -0
    ),
    charge('FUEL_SURCHARGE', `Fuel surcharge${fuelPercent ? ` ${fuelPercent}` : ''}`, breakdown.fuelSurchargeInCents),
    ...breakdown.accessorialsInCents.map((accessorial) =>
      charge('ACCESSORIAL', options.accessorialDescriptions?.[accessorial.code] ?? accessorial.code, accessorial.amountInCents, accessorial.code),
    ),
  ];
  const total = lines.reduce((sum, line) => sum + line.amountInCents, 0);
  if (total !== shipment.totalPriceInCents) {
    throw new InvoiceError(`the price breakdown of ${shipment.orderNumber} adds up to ${total} cents, not its booked ${shipment.totalPriceInCents}`);
  }
  const terms = shipment.freightChargeTerms;
  const summed = freightTotals(components);
  const billTo = terms.terms === 'COLLECT' ? shipment.deliveryAddress : terms.terms === 'THIRD_PARTY' && terms.billTo ? terms.billTo : shipment.pickupAddress;
  return {
    invoiceNumber: invoiceNumberFor(shipment.orderNumber),
    shipmentId: shipment.id,
    orderNumber: shipment.orderNumber,
    bolNumber: shipment.bolNumber,
    proNumber: shipment.proNumber,
    refNumber: shipment.refNumber,
    quoteId: shipment.quoteId,
    invoiceDate: shipment.requiredPickupDate,
    pickupDate: shipment.requiredPickupDate,
    estimatedDeliveryDate: shipment.estimatedDeliveryDate,
    bookedAt: shipment.createdAt,
    currency: 'USD',
    freightChargeTerms: terms.terms,
    billTo,
    shipper: shipment.pickupAddress,
    consignee: shipment.deliveryAddress,
    carrier: shipment.carrier ? { name: shipment.carrier.name, scac: shipment.carrier.scac } : null,
    miles: shipment.miles,
    minimumChargeApplied: breakdown.minimumChargeApplied,
    lines,
    totals: {
      linehaulInCents: breakdown.linehaulInCents,
      discountInCents: breakdown.discountInCents,
      fuelSurchargeInCents: breakdown.fuelSurchargeInCents,
      accessorialsInCents: breakdown.accessorialsInCents.reduce((sum, accessorial) => sum + accessorial.amountInCents, 0),
      totalInCents: total,
      palletCount: summed.pallets,
      pieceCount: summed.pieces ?? 0,
      poundsWeight: summed.poundsWeight,
    },
  };
}
