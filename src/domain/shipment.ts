/** Booking a shipment against a quote: pure rules of SPEC section 3. */
import { ADDRESS_FLAGS, type AddressFlag } from './addressAccessorials.js';
import { DEFAULT_COMPANY_ID } from './companies.js';
import { orderDescriptionOf } from './orderDescription.js';
import type { OrderComponent, Quote, QuoteRequest, RatedOrderComponent, Shipment, ShipmentRequest, Violation } from './schemas.js';

/**
 * The quote a shipment request without quoteId is booked on: the same rating, on the lane from the
 * shipper's to the consignee's postal code, with the request's pickup date and accessorials.
 */
export function quoteRequestForShipment(request: ShipmentRequest): QuoteRequest {
  return {
    // The stops' service flags (liftgateRequired, ...) go with their ZIPs: rating prices them as
    // their accessorial codes, after the codes as sent (whose indexes its violations name).
    pickupAddress: { zipCode: request.pickupAddress.zipCode, countryCode: 'US', ...flagsOf(request.pickupAddress) },
    deliveryAddress: { zipCode: request.deliveryAddress.zipCode, countryCode: 'US', ...flagsOf(request.deliveryAddress) },
    requiredPickupDate: request.requiredPickupDate,
    accessorials: request.accessorials,
    orderComponents: request.orderComponents,
  };
}

export type BookingCheck = { ok: true } | { ok: false; reason: 'expired' | 'mismatch'; detail: string; violations: Violation[] };

/**
 * A shipment may book a quote only while it is unexpired and only for the same freight: the same
 * number of components with the same pallets, weight and dimensions (per-line text may be added).
 */
export function checkShipmentAgainstQuote(components: ReadonlyArray<OrderComponent>, quote: Quote, now: Date): BookingCheck {
  if (now.getTime() >= Date.parse(quote.quoteExpirationTime)) {
    return { ok: false, reason: 'expired', detail: `quote ${quote.id} expired at ${quote.quoteExpirationTime}; request a new quote`, violations: [] };
  }
  const violations: Violation[] = [];
  if (components.length !== quote.orderComponents.length) {
    violations.push({
      field: 'orderComponents',
      reason: `the quote has ${quote.orderComponents.length} component(s), the shipment ${components.length}`,
    });
  } else {
    components.forEach((component, index) => {
      const quoted = quote.orderComponents[index]!;
      const field = `orderComponents[${index}]`;
      if (component.palletCount !== quoted.palletCount) {
        violations.push({ field: `${field}.palletCount`, reason: `quoted ${quoted.palletCount}, sent ${component.palletCount}` });
      }
      if (component.poundsWeight !== quoted.poundsWeight) {
        violations.push({ field: `${field}.poundsWeight`, reason: `quoted ${quoted.poundsWeight}, sent ${component.poundsWeight}` });
      }
      for (const side of ['length', 'width', 'height'] as const) {
        if (component.dimensions[side] !== quoted.dimensions[side]) {
          violations.push({
            field: `${field}.dimensions.${side}`,
            reason: `quoted ${quoted.dimensions[side]}, sent ${component.dimensions[side]}`,
          });
        }
      }
    });
  }
  if (violations.length > 0) {
    return { ok: false, reason: 'mismatch', detail: `the order components differ from those of quote ${quote.id}`, violations };
  }
  return { ok: true };
}

export interface BookShipmentInput {
  id: string;
  orderNumber: string;
  bolNumber: string;
  /** One SSCC per handling unit (pallet labels), in order. */
  ssccs: string[];
  /** The PRO number assigned from the carrier's block, when the request gave none. */
  proNumber?: string | null | undefined;
  request: ShipmentRequest;
  quote: Quote;
  now: Date;
}

/** The shipment record: per-line text from the request, the freight class as computed at quote time. */
export function buildShipment({ id, orderNumber, bolNumber, ssccs, proNumber, request, quote, now }: BookShipmentInput): Shipment {
  return {
    id,
    orderNumber,
    bolNumber,
    refNumber: request.refNumber,
    // As published: a created order is INITIALIZED until `PUT .../confirm` (orderStatus.ts).
    orderStatus: 'INITIALIZED',
    cancelledAt: null,
    cancellationReason: null,
    quoteId: quote.id,
    companyId: DEFAULT_COMPANY_ID,
    updatedAt: now.toISOString(),
    // The published description; without one, the lines' own words (orderDescriptionOf), which confirm then finds.
    description: request.description ?? orderDescriptionOf(request.orderComponents) ?? null,
    poNumber: request.poNumber,
    requiredDeliveryBy: request.requiredDeliveryBy ?? null,
    appointments: request.appointments ?? null,
    shipperDispatch: request.shipperDispatch ?? null,
    totalPriceInCents: quote.quotedPriceInCents,
    transitDays: quote.transitDays,
    estimatedDeliveryDate: quote.estimatedDeliveryDate,
    requiredPickupDate: quote.requiredPickupDate,
    miles: quote.miles,
    accessorials: quote.accessorials,
    pickupAddress: request.pickupAddress,
    deliveryAddress: request.deliveryAddress,
    specialInstructions: request.specialInstructions,
    orderComponents: request.orderComponents.map((component, index) => bookedLine(component, quote.orderComponents[index]!)),
    priceBreakdown: quote.priceBreakdown,
    createdAt: now.toISOString(),
    ...(quote.pricedBy ? { pricedBy: quote.pricedBy } : {}),
    // A quote priced by a carrier's agreement books on that carrier (the booking refuses another).
    carrier: request.carrier ?? (quote.carrier ? { name: quote.carrier.name, scac: quote.carrier.scac } : null),
    proNumber: request.proNumber ?? proNumber ?? null,
    freightChargeTerms: request.freightChargeTerms,
    declaredValue: request.declaredValue,
    cod: request.cod,
    pickupWindow: request.pickupWindow,
    fob: request.fob,
    masterBol: request.masterBol,
    emergencyContactPhone: request.emergencyContactPhone,
    trailerNumber: request.trailerNumber,
    sealNumbers: request.sealNumbers,
    ssccs,
    // In the schema's order (an answer read back through it prints the same).
    trackingStatus: 'NONE',
    deliveredAt: null,
    carrierEstimatedDeliveryDate: null,
  };
}

/**
 * A line as booked: the request's line (the schema's output: these members, in this order), its
 * stackable said on the quote when the booking does not repeat it (the freight is the same), and
 * the quote's density and class. Written member by member: spreading the line and a conditional
 * object cost about ten times as much, for every line of every booking.
 */
export function bookedLine(component: OrderComponent, quoted: RatedOrderComponent): RatedOrderComponent {
  const { palletCount, poundsWeight, dimensions, description, nmfcCode, packagingType, pieceCount, hazmat } = component;
  const { densityPcf, freightClass } = quoted;
  const stackable = component.stackable ?? quoted.stackable;
  return stackable === undefined
    ? { palletCount, poundsWeight, dimensions, description, nmfcCode, packagingType, pieceCount, hazmat, densityPcf, freightClass }
    : { palletCount, poundsWeight, dimensions, description, nmfcCode, packagingType, pieceCount, hazmat, stackable, densityPcf, freightClass };
}

/** The numbers a booking gives a shipment once they are reserved, and what comes with them. */
export interface ShipmentNumbers {
  id: string;
  orderNumber: string;
  bolNumber: string;
  ssccs: string[];
  /** The PRO number assigned from the carrier's block, when the request gave none. */
  proNumber?: string | null | undefined;
  /** The quote's id (a quote-first booking's own quote is named after the shipment). */
  quoteId: string;
  now: Date;
}

/**
 * The shipment buildShipment gives with these numbers, from the one it gave with placeholders
 * for the same request and quote (a booking checks its record before it spends numbers on it):
 * the same record, key for key, without building the lines again.
 */
export function withNumbers(provisional: Shipment, numbers: ShipmentNumbers): Shipment {
  return {
    ...provisional,
    id: numbers.id,
    orderNumber: numbers.orderNumber,
    bolNumber: numbers.bolNumber,
    quoteId: numbers.quoteId,
    createdAt: numbers.now.toISOString(),
    updatedAt: numbers.now.toISOString(),
    // A PRO the request gave is the provisional record's already.
    proNumber: provisional.proNumber ?? numbers.proNumber ?? null,
    ssccs: numbers.ssccs,
  };
}

/** The published service flags an address sets (liftgateRequired, ...), and only those. */
function flagsOf(address: Partial<Record<AddressFlag, boolean | undefined>>): Partial<Record<AddressFlag, boolean>> {
  const flags: Partial<Record<AddressFlag, boolean>> = {};
  for (const flag of ADDRESS_FLAGS) if (address[flag] !== undefined) flags[flag] = address[flag];
  return flags;
}
