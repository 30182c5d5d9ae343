/**
 * The local engine's tracking with a carrier profile that reads a code otherwise: the carrier's
 * X6 is its line-haul (IN_TRANSIT), another carrier's X6 is still out for delivery.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalApi } from '../../src/api/local.js';
import { tempDir } from '../helpers/cli.js';
import { PALLETS, PUBLISHED_PICKUP, PUBLISHED_NYC } from '../helpers/fixtures.js';

let store: { dir: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  store = await tempDir('shipper-track-api-');
});
afterEach(() => store.cleanup());

describe('carrier overrides of the status codes', () => {
  it("maps X6 as the carrier's profile says, and only for that carrier", async () => {
    const clock = { now: new Date('2026-11-23T15:00:00Z') };
    const api = new LocalApi({ storeDir: store.dir, now: () => clock.now, carriers: { RLCA: { statusMilestones: { X6: 'IN_TRANSIT' } } } });
    const book = async (scac: string) =>
      (await api.createShipment({ pickupAddress: PUBLISHED_PICKUP, deliveryAddress: PUBLISHED_NYC, orderComponents: [PALLETS], carrier: { name: scac, scac } } as never)).data;
    const rlca = await book('RLCA');
    const odfl = await book('ODFL');
    clock.now = new Date('2026-11-26T18:00:00Z');
    const event = { events: [{ occurredAt: '2026-11-25T08:00:00-05:00', statusCode: 'X6', source: 'x12-214' as const }] };
    expect((await api.addShipmentEvents(rlca.id, event)).data.tracking.trackingStatus).toBe('IN_TRANSIT');
    expect((await api.addShipmentEvents(odfl.id, event)).data.tracking.trackingStatus).toBe('OUT_FOR_DELIVERY');
    // The event's own SCAC wins over the shipment's carrier.
    const viaRlca = await api.addShipmentEvents(odfl.id, { events: [{ occurredAt: '2026-11-25T09:00:00-05:00', statusCode: 'X6', scac: 'RLCA' }] });
    expect(viaRlca.data.added[0]!.milestone).toBe('IN_TRANSIT');
    expect((await api.getShipment(rlca.id)).data.trackingStatus).toBe('IN_TRANSIT');
    await api.close();
  });
});
