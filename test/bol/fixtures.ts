/**
 * Shipments for the BOL tests. Every fixture goes through `shipmentSchema.parse`, and classes are
 * computed with the domain's density scale, so a fixture cannot drift from what the app stores.
 */
import { bolNumberFor as vicsBolNumber } from '../../src/domain/bolNumber.js';
import { componentDensity } from '../../src/domain/density.js';
import { shipmentSchema, type RatedOrderComponent, type Shipment } from '../../src/domain/schemas.js';

/** A VICS BOL number: GS1 company prefix 0614141, a 9-digit serial and the check digit. */
export function bolNumberFor(serial: number): string {
  return vicsBolNumber('0614141', serial);
}

export interface ComponentSpec {
  palletCount?: number;
  poundsWeight?: number;
  dimensions?: { length: number; width: number; height: number };
  description?: string | null;
  nmfcCode?: string | null;
  packagingType?: string | null;
  pieceCount?: number | null;
  hazmat?: RatedOrderComponent['hazmat'];
}

export function component(spec: ComponentSpec = {}): RatedOrderComponent {
  const palletCount = spec.palletCount ?? 1;
  const poundsWeight = spec.poundsWeight ?? 600;
  const dimensions = spec.dimensions ?? { length: 48, width: 40, height: 48 };
  const { densityPcf, freightClass } = componentDensity(poundsWeight, palletCount, dimensions);
  return {
    palletCount,
    poundsWeight,
    dimensions,
    description: spec.description ?? null,
    nmfcCode: spec.nmfcCode ?? null,
    packagingType: spec.packagingType ?? null,
    pieceCount: spec.pieceCount ?? null,
    hazmat: spec.hazmat ?? null,
    densityPcf,
    freightClass,
  };
}

/** `count` fully described components: description "Line N ...", NMFC "1000N-0N", cartons, N*2 pieces. */
export function describedComponents(count: number): RatedOrderComponent[] {
  return Array.from({ length: count }, (_, index) =>
    component({
      palletCount: 1 + (index % 3),
      poundsWeight: 250 + index * 10,
      description: `Line ${index + 1} machined brackets`,
      nmfcCode: `${10000 + index + 1}-0${(index % 9) + 1}`,
      packagingType: index % 2 === 0 ? 'cartons' : 'crates',
      pieceCount: (index + 1) * 2,
    }),
  );
}

export interface ShipmentSpec {
  serial?: number;
  refNumber?: string | null;
  components?: RatedOrderComponent[];
  specialInstructions?: string | null;
  accessorials?: string[];
  shipperName?: string;
  consigneeName?: string;
  /** Carrier fields and status as stored (carrier, proNumber, freightChargeTerms, cod, orderStatus...). */
  extra?: Partial<Shipment>;
}

export function makeShipment(spec: ShipmentSpec = {}): Shipment {
  const serial = spec.serial ?? 123;
  const components = spec.components ?? [
    component({ palletCount: 2, poundsWeight: 1200, description: 'Steel shelving units', nmfcCode: '61680-03', packagingType: 'crates', pieceCount: 10 }),
  ];
  return shipmentSchema.parse({
    id: `shp_${String(serial).padStart(6, '0')}`,
    orderNumber: `SO-${String(serial).padStart(6, '0')}`,
    bolNumber: bolNumberFor(serial),
    refNumber: spec.refNumber === undefined ? 'PO-7781' : spec.refNumber,
    orderStatus: 'CONFIRMED',
    quoteId: `q_${serial}`,
    totalPriceInCents: 48_250,
    transitDays: 3,
    estimatedDeliveryDate: '2026-11-26T23:00:00.000Z',
    requiredPickupDate: '2026-11-23',
    miles: 712,
    accessorials: spec.accessorials ?? ['LIFTGATE_DELIVERY'],
    pickupAddress: {
      name: spec.shipperName ?? 'Midwest Fixtures Inc.',
      address1: '1200 W Lake St',
      address2: 'Dock 4',
      city: 'Chicago',
      state: 'IL',
      zipCode: '60607',
      countryCode: 'US',
      contactPerson: 'Dana Ruiz',
      phoneNumber: '312-555-0142',
    },
    deliveryAddress: {
      name: spec.consigneeName ?? 'Atlanta Retail Distribution',
      address1: '455 Fulton Industrial Blvd SW',
      address2: null,
      city: 'Atlanta',
      state: 'GA',
      zipCode: '30336',
      countryCode: 'US',
      contactPerson: null,
      phoneNumber: '404-555-0199',
    },
    specialInstructions: spec.specialInstructions === undefined ? 'Call consignee 1 hour before delivery.' : spec.specialInstructions,
    orderComponents: components,
    priceBreakdown: {
      linehaulInCents: 52_000,
      discountInCents: -9_000,
      minimumChargeApplied: false,
      fuelSurchargeInCents: 4_250,
      accessorialsInCents: [{ code: 'LIFTGATE_DELIVERY', amountInCents: 1_000 }],
    },
    createdAt: '2026-11-20T15:04:05.000Z',
    ...spec.extra,
  });
}

/** Descriptions mixing scripts the font covers (Latin, Cyrillic) and does not (CJK, truck emoji). */
export const UNICODE_DESCRIPTION = 'Café crème brûlée glassware, Größe XL, Жёлтый ящик, 日本製 🚚';

/** 256 characters, the schema's maximum, with a few very long words that must be broken. */
export const LONG_DESCRIPTION = (
  'Heavy-duty industrial shelving components including uprights, beams, wire decking and anchor kits; ' +
  'SUPERCALIFRAGILISTICEXPIALIDOCIOUSPARTNUMBER0123456789 handle with care, do not double stack, keep dry, ' +
  'fragile glass inserts packed separately in foam-lined cartons ok'
).slice(0, 256);
