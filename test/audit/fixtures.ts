/**
 * Shipments and carriers' bills for the invoice and audit tests. Shipments are priced by the
 * engine's own rating (as booking does) on the shipped tariff, so a fixture is what the store
 * would hold; the tests check amounts against `tariffPrice` below, an independent reading of the
 * README's pricing rule straight from templates/tariff/default.json.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bolNumberFor } from '../../src/domain/bolNumber.js';
import { rateComponent, priceShipment } from '../../src/domain/rating.js';
import { shipmentSchema, type Shipment } from '../../src/domain/schemas.js';
import { tariffSchema, type Tariff } from '../../src/domain/tariff.js';

const TARIFF_FILE = fileURLToPath(new URL('../../templates/tariff/default.json', import.meta.url));
export const TARIFF: Tariff = tariffSchema.parse(JSON.parse(readFileSync(TARIFF_FILE, 'utf8')));
const RAW = JSON.parse(readFileSync(TARIFF_FILE, 'utf8')) as { ratesPerCwtInCents: Record<string, number[][]> };

/** Halves away from zero, as the README's rounding rule says. */
const roundCents = (exact: number) => Math.sign(exact) * Math.round(Math.abs(exact));

/**
 * The README's rule read from the tariff file: linehaul = sum of lb/100 x rate(class, band, break),
 * discount 70 % of it (both rounded once), the $125 net minimum replacing both, fuel 30 % of the net.
 * Band and break are given (the tests choose lanes and weights whose band and break they know).
 */
export function tariffPrice(lines: Array<{ pounds: number; freightClass: string }>, band: number, weightBreak: number): { net: number; fuel: number } {
  const exact = lines.reduce((sum, line) => sum + (line.pounds / 100) * RAW.ratesPerCwtInCents[line.freightClass]![band]![weightBreak]!, 0);
  let linehaul = roundCents(exact);
  let discount = roundCents(exact * 0.7);
  if (linehaul - discount < 12_500) {
    linehaul = 12_500;
    discount = 0;
  }
  const net = linehaul - discount;
  return { net, fuel: roundCents(net * 0.3) };
}

export const CHICAGO = {
  name: 'Acme Machine Co',
  address1: '100 N State St',
  city: 'Chicago',
  state: 'IL',
  zipCode: '60601',
  countryCode: 'US',
  contactPerson: 'Sam Ortiz',
  phoneNumber: null,
  address2: null,
};
export const ATLANTA = {
  name: 'Peach Supply Co',
  address1: '1 Peachtree St NE',
  city: 'Atlanta',
  state: 'GA',
  zipCode: '30303',
  countryCode: 'US',
  contactPerson: null,
  phoneNumber: null,
  address2: null,
};

export const MACHINE_PARTS = {
  palletCount: 2,
  poundsWeight: 1200,
  dimensions: { length: 48, width: 40, height: 48 },
  description: 'Machine parts',
  nmfcCode: '161030',
  packagingType: 'crates',
  pieceCount: 10,
  hazmat: null,
};
export const SPARE_BELTS = {
  palletCount: 1,
  poundsWeight: 300,
  dimensions: { length: 40, width: 48, height: 60 },
  description: 'Spare belts',
  nmfcCode: null,
  packagingType: null,
  pieceCount: null,
  hazmat: null,
};

export interface PricedSpec {
  serial?: number;
  components?: Array<typeof MACHINE_PARTS | typeof SPARE_BELTS>;
  /** Chicago to Atlanta is 695 tariff miles (distance band 3, index 2). */
  miles?: number;
  accessorials?: string[];
  extra?: Record<string, unknown>;
}

/** A booked shipment priced by the engine's rating on the shipped tariff. */
export function pricedShipment(spec: PricedSpec = {}): Shipment {
  const serial = spec.serial ?? 1;
  const components = (spec.components ?? [MACHINE_PARTS, SPARE_BELTS]).map((component) => rateComponent(component));
  const accessorials = spec.accessorials ?? ['LIFTGATE_DELIVERY'];
  const { quotedPriceInCents, ...priceBreakdown } = priceShipment(components, spec.miles ?? 695, accessorials, TARIFF);
  return shipmentSchema.parse({
    id: `sh_01JD3Y7T9Q2W5E8R1T4Y7V${String(serial).padStart(4, '0')}`,
    orderNumber: `SO-${String(serial).padStart(6, '0')}`,
    bolNumber: bolNumberFor('0614141', serial),
    refNumber: 'PO-4471',
    orderStatus: 'CONFIRMED',
    quoteId: `qt_01JD3Y7T9Q2W5E8R1T4Y7V${String(serial).padStart(4, '0')}`,
    totalPriceInCents: quotedPriceInCents,
    transitDays: 3,
    estimatedDeliveryDate: '2026-11-24T22:00:00.000Z',
    requiredPickupDate: '2026-11-19',
    miles: spec.miles ?? 695,
    accessorials,
    pickupAddress: CHICAGO,
    deliveryAddress: ATLANTA,
    specialInstructions: null,
    orderComponents: components,
    priceBreakdown,
    createdAt: '2026-11-18T18:00:00.000Z',
    carrier: { name: 'Roadrunner Freight', scac: 'RRFT' },
    proNumber: `72048${String(serial).padStart(2, '0')}`,
    ...spec.extra,
  });
}

/** A 210 as carriers send it (004010, one segment per line), after the layout of their published guides. */
export function x210(bills: Array<{ control: string; segments: string[] }>, interchange = 4711): string {
  const isa = `ISA*00*          *00*          *02*RRFT           *ZZ*SHIPPERCO      *261201*0930*U*00401*${String(interchange).padStart(9, '0')}*0*P*>~`;
  const sets = bills.flatMap(({ control, segments }) => [`ST*210*${control}~`, ...segments, `SE*${segments.length + 2}*${control}~`]);
  return (
    [isa, `GS*IM*RRFT*SHIPPERCO*20261201*0930*${interchange}*X*004010~`, ...sets, `GE*${bills.length}*${interchange}~`, `IEA*1*${String(interchange).padStart(9, '0')}~`].join(
      '\n',
    ) + '\n'
  );
}
