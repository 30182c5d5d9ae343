/**
 * What tracking asks of the store, a part of the storage ports (src/store/ports.ts): a shipment,
 * its events, and a unit of work in which the new events are appended and the shipment's tracking
 * status is set together. Any ShipperStore is one.
 */
import type { ShipmentEventReads, ShipmentEventWrites, ShipmentReads, ShipmentWrites } from '../../store/ports.js';

export interface TrackingTransaction {
  shipments: Pick<ShipmentWrites, 'getRecord' | 'put'>;
  events: ShipmentEventWrites;
}

export interface TrackingStore {
  shipments: Pick<ShipmentReads, 'get'>;
  events: ShipmentEventReads;
  withTransaction<T>(fn: (tx: TrackingTransaction) => Promise<T>): Promise<T>;
}
