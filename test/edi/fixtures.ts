/**
 * Shipments for the carrier-file tests. Every one goes through `shipmentSchema.parse` (the stored
 * record's schema) with classes from the domain's density scale, so they cannot drift from what
 * the app stores.
 */
import { shipmentSchema, type RatedOrderComponent, type Shipment } from '../../src/domain/schemas.js';
import { component } from '../bol/fixtures.js';
import { x12InterchangeSettingsSchema, type X12InterchangeSettingsInput } from '../../src/edi/settings.js';

/** A rated freight line (the BOL tests' builder: class from the domain's density scale). */
export const line = component;

export const GASOLINE = { unNumber: 'UN1203', properShippingName: 'Gasoline', hazardClass: '3', packingGroup: 'II' as const };
export const AMMONIA = { unNumber: 'UN1005', properShippingName: 'Ammonia, anhydrous', hazardClass: '2.2', packingGroup: null };

/** `count` described lines with varied pallets, weights (some fractional), NMFC, packaging and pieces. */
export function manyLines(count: number): RatedOrderComponent[] {
  return Array.from({ length: count }, (_, index) =>
    line({
      palletCount: 1 + (index % 3),
      poundsWeight: 250 + index * 10 + (index % 4) * 0.25,
      dimensions: { length: 48, width: 40, height: 30 + (index % 5) * 6 },
      description: `Line ${index + 1} machined brackets`,
      nmfcCode: `${10000 + index + 1}-0${(index % 9) + 1}`,
      packagingType: ['cartons', 'crates', 'boxes', 'drums'][index % 4]!,
      pieceCount: (index + 1) * 2,
    }),
  );
}

const SHIPPER = {
  name: 'Midwest Fixtures Inc.',
  address1: '1200 W Lake St',
  address2: 'Dock 4',
  city: 'Chicago',
  state: 'IL',
  zipCode: '60607',
  countryCode: 'US',
  contactPerson: 'Dana Ruiz',
  phoneNumber: '312-555-0142',
};
const CONSIGNEE = {
  name: 'Atlanta Retail Distribution',
  address1: '455 Fulton Industrial Blvd SW',
  address2: null,
  city: 'Atlanta',
  state: 'GA',
  zipCode: '30336',
  countryCode: 'US',
  contactPerson: null,
  phoneNumber: '(404) 555-0199',
};
export const THIRD_PARTY = {
  name: 'Freight Audit Partners LLC',
  address1: '77 W Wacker Dr',
  address2: 'Suite 1900',
  city: 'Chicago',
  state: 'IL',
  zipCode: '60601',
  countryCode: 'US',
  contactPerson: 'Accounts Payable',
  phoneNumber: '+1 312 555 0100 x204',
};

/** A booked shipment; `overrides` replace top-level fields before the schema parses it. */
export function shipment(overrides: Record<string, unknown> = {}): Shipment {
  return shipmentSchema.parse({
    id: 'shp_000123',
    orderNumber: 'SO-000123',
    bolNumber: '06141410000001231',
    refNumber: 'PO-7781',
    orderStatus: 'CONFIRMED',
    quoteId: 'q_123',
    totalPriceInCents: 48_250,
    transitDays: 3,
    estimatedDeliveryDate: '2026-11-26T22:00:00.000Z',
    requiredPickupDate: '2026-11-23',
    miles: 712,
    accessorials: ['LIFTGATE_DELIVERY'],
    pickupAddress: SHIPPER,
    deliveryAddress: CONSIGNEE,
    specialInstructions: 'Call consignee 1 hour before delivery.',
    orderComponents: [line({ palletCount: 2, poundsWeight: 1200, description: 'Steel shelving units', nmfcCode: '61680-03', packagingType: 'crates', pieceCount: 10 })],
    priceBreakdown: { linehaulInCents: 52_000, discountInCents: -9_000, minimumChargeApplied: false, fuelSurchargeInCents: 4_250, accessorialsInCents: [] },
    createdAt: '2026-11-20T15:04:05.000Z',
    carrier: { name: 'Old Dominion Freight Line', scac: 'ODFL' },
    ...overrides,
  });
}

/** The fewest fields a booked shipment has: no references, carrier fields, contacts or line detail. */
export function minimalShipment(overrides: Record<string, unknown> = {}): Shipment {
  return shipment({
    refNumber: null,
    accessorials: [],
    specialInstructions: null,
    pickupAddress: { name: 'A', address1: '1 Main St', city: 'Chicago', state: 'IL', zipCode: '60607' },
    deliveryAddress: { name: 'B', address1: '2 Elm St', city: 'Atlanta', state: 'GA', zipCode: '30336' },
    orderComponents: [line()],
    carrier: undefined,
    ...overrides,
  });
}

/** Every carrier field set: PRO, third-party terms, COD, declared value, window, FOB, master BOL, trailer, seals, hazmat. */
export function fullShipment(overrides: Record<string, unknown> = {}): Shipment {
  return shipment({
    proNumber: 'ODFL-123456789',
    freightChargeTerms: { terms: 'THIRD_PARTY', billTo: THIRD_PARTY },
    declaredValue: { amountInCents: 2_500_000, per: 'SHIPMENT' },
    cod: { amountInCents: 123_456, feeTerms: 'PREPAID', customerCheckAcceptable: true },
    pickupWindow: { readyTime: '08:00', closeTime: '16:30' },
    fob: 'ORIGIN',
    masterBol: true,
    emergencyContactPhone: '800-424-9300',
    trailerNumber: 'TRL-4471',
    sealNumbers: ['SEAL-0001', 'SEAL-0002'],
    accessorials: ['LIFTGATE_DELIVERY', 'INSIDE_PICKUP', 'RESIDENTIAL_DELIVERY', 'APPOINTMENT', 'NOTIFY_BEFORE_DELIVERY'],
    orderComponents: [
      line({ palletCount: 2, poundsWeight: 1200.5, description: 'Steel shelving units', nmfcCode: '61680-03', packagingType: 'crates', pieceCount: 10 }),
      line({ palletCount: 1, poundsWeight: 480, description: 'Gasoline in steel cans', nmfcCode: '156600', packagingType: 'cans', pieceCount: 24, hazmat: GASOLINE }),
      line({
        palletCount: 1,
        poundsWeight: 310.25,
        dimensions: { length: 40.5, width: 48, height: 52.25 },
        description: 'Refrigerant cylinders',
        packagingType: 'cylinders',
        pieceCount: 6,
        hazmat: AMMONIA,
      }),
    ],
    ...overrides,
  });
}

export const X12_SETTINGS: X12InterchangeSettingsInput = { senderId: 'SHIPPERCO', receiverId: 'ODFL', receiverQualifier: '02' };

export function x12Settings(overrides: Partial<X12InterchangeSettingsInput> = {}) {
  return x12InterchangeSettingsSchema.parse({ ...X12_SETTINGS, ...overrides });
}

export const CREATED_AT = new Date('2026-11-20T15:04:05.000Z');
