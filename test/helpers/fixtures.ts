/** Addresses, components and a fixed clock shared by the shipment and import tests. */
import { LocalApi } from '../../src/api/local.js';
import type { ShipmentRequestInput } from '../../src/domain/schemas.js';
import type { ShipperApi } from '../../src/api/types.js';

export const CHICAGO_DC = { name: 'Acme Chicago DC', address1: '2100 S Halsted St', city: 'Chicago', state: 'IL', zipCode: '60608' };
/** CHICAGO_DC as the options of `shipper location add NAME`. */
export const CHICAGO_DC_FLAGS = ['--name', CHICAGO_DC.name, '--address1', CHICAGO_DC.address1, '--city', CHICAGO_DC.city, '--state', CHICAGO_DC.state, '--zip', CHICAGO_DC.zipCode];
/**
 * `shipper ship` arguments of the two shipments the tracking fixtures (test/tracking/fixtures) are
 * about: ODFL's 214 finds the first by its PRO, SAIA's messages the second by BOL number, or by
 * reference and destination ZIP. `carriers`: the carriers' names as booked (long ones for width tests).
 */
export function trackedShipmentArgs(carriers: readonly [string, string] = ['Old Dominion', 'Saia']): [string[], string[]] {
  return [
    [
      '--shipper',
      withContact('name="Acme DC",address1="2100 S Halsted St",city=Chicago,state=IL,zip=60608'),
      '--consignee',
      withContact('name="Store 12",address1="1 Penn Plaza",city="New York",state=NY,zip=10001', DELIVERY_CONTACT),
      '-c',
      'pallets=2,weight=1200,dims=48x40x48,desc=Parts',
      '--ref',
      'PO-4471',
      '--carrier',
      carriers[0],
      '--scac',
      'ODFL',
      '--pro',
      '1234567897',
    ],
    [
      '--shipper',
      withContact('name="Desert Supply",address1="1 E Washington St",city=Phoenix,state=AZ,zip=85004'),
      '--consignee',
      withContact('name="Denver Store",address1="1600 Broadway",city=Denver,state=CO,zip=80202', DELIVERY_CONTACT),
      '-c',
      'pallets=1,weight=500,dims=48x40x48,desc=Parts',
      '--ref',
      'PO-9001',
      '--carrier',
      carriers[1],
      '--scac',
      'SAIA',
    ],
  ];
}

export const NYC_STORE = { name: 'Store 12', address1: '1 Penn Plaza', city: 'New York', state: 'NY', zipCode: '10001' };

/** The two stops of the published wire's tests (a client written from the published document sends whole addresses). */
export const PUBLISHED_PICKUP = { ...CHICAGO_DC, phoneNumber: '+13125550100', contactPerson: 'Dana Ruiz' };
export const PUBLISHED_DELIVERY = {
  name: 'Beta Retail Atlanta',
  address1: '3500 Fulton Industrial Blvd',
  city: 'Atlanta',
  state: 'GA',
  zipCode: '30336',
  phoneNumber: '+14045550199',
  contactPerson: 'Dana Ruiz',
};

/** New York's store as the published Address (contact and phone): a stop POST /v1/shipper/quote and /shipment take. */
export const PUBLISHED_NYC = { ...NYC_STORE, contactPerson: 'Sam Ortiz', phoneNumber: '+12125550123' };

/** The published stops of a quote between these ZIP codes (Chicago 60601 to New York 10001 by default). */
export function publishedStops(from = '60601', to = '10001'): { pickupAddress: Record<string, string>; deliveryAddress: Record<string, string> } {
  return { pickupAddress: { ...PUBLISHED_PICKUP, zipCode: from }, deliveryAddress: { ...PUBLISHED_NYC, zipCode: to } };
}

export const PALLETS = { palletCount: 2, poundsWeight: 1200, dimensions: { length: 48, width: 40, height: 48 } };
export const CRATE = { palletCount: 1, poundsWeight: 300, dimensions: { length: 48, width: 40, height: 40 } };

/** A Wednesday afternoon in Chicago: the default pickup is Thursday 2026-11-19. */
export const WEDNESDAY = '2026-11-18T18:00:00.000Z';

/** A LocalApi on `storeDir` whose clock reads `clock.now` (tests move it). */
export function apiAt(storeDir: string, start = WEDNESDAY): { api: LocalApi; clock: { now: Date } } {
  const clock = { now: new Date(start) };
  return { api: new LocalApi({ storeDir, now: () => clock.now }), clock };
}

/** A valid request (its stops the published Address: a contact and a phone), with overrides that may make it invalid on purpose (the API parses it at run time). */
export function shipmentRequest(overrides: Record<string, unknown> = {}): ShipmentRequestInput {
  return { refNumber: 'PO-4711', pickupAddress: PUBLISHED_PICKUP, deliveryAddress: PUBLISHED_NYC, orderComponents: [PALLETS], ...overrides } as ShipmentRequestInput;
}

/**
 * What the published confirm needs on each stop and shipper never invents (issue 40): a contact
 * person and a phone. `shipper ship` confirms, so the CLI tests' addresses carry them.
 */
export const PICKUP_CONTACT = { contactPerson: 'Dana Ruiz', phoneNumber: '+13125550100' } as const;
export const DELIVERY_CONTACT = { contactPerson: 'Lee Chen', phoneNumber: '+12125550188' } as const;

/** An inline address spec (`name=...,zip=...`) with the contact= and phone= it lacks, so that `ship` can confirm it. */
export function withContact(spec: string, contact: { contactPerson: string; phoneNumber: string } = PICKUP_CONTACT): string {
  const keys = spec.split(',').map((pair) => pair.split('=')[0]!.trim().toLowerCase());
  const added = [keys.includes('contact') ? undefined : `contact="${contact.contactPerson}"`, keys.includes('phone') ? undefined : `phone=${contact.phoneNumber}`].filter(
    (pair): pair is string => pair !== undefined,
  );
  return [spec, ...added].join(',');
}

/** A shipment request (the engine's input) with what confirm needs where it lacks it: both contacts and phones, a description. */
export function confirmable<T extends Record<string, unknown>>(request: T): T {
  const address = (value: unknown, contact: typeof PICKUP_CONTACT | typeof DELIVERY_CONTACT) =>
    typeof value === 'object' && value !== null ? { ...contact, ...(value as Record<string, unknown>) } : value;
  return {
    description: 'Machine parts',
    ...request,
    pickupAddress: address(request.pickupAddress, PICKUP_CONTACT),
    deliveryAddress: address(request.deliveryAddress, DELIVERY_CONTACT),
  };
}

/** The published flow in one call, as `shipper ship` does: create (INITIALIZED), then confirm (CONFIRMED); the request made confirmable. */
export async function createConfirmed(
  api: Pick<ShipperApi, 'createShipment' | 'confirmShipment'>,
  request: Record<string, unknown>,
  options?: { idempotencyKey?: string },
): Promise<Awaited<ReturnType<ShipperApi['createShipment']>>> {
  const created = await api.createShipment(confirmable(request) as ShipmentRequestInput, options);
  if (created.data.orderStatus !== 'INITIALIZED') return created;
  const confirmed = await api.confirmShipment(created.data.orderNumber);
  return { ...created, data: confirmed.data };
}
