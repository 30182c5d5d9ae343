/**
 * What tracking asks of the store, a part of the storage ports (src/store/ports.ts): a shipment,
 * its events, the events recorded under a message digest, and a unit of work in which the events
 * are appended and the shipment's tracking status is set together.
 *
 * JsonEventStore implements it on the JSON store of today: one record of events per shipment
 * (`shipment-events/<shipmentId>`), one per idempotency key's digest (`event-messages/<digest>`),
 * under the shipments lock. The events are written before the shipment, and the shipment's
 * tracking fields are derived from them again at every write, so a crash between the two leaves
 * a status one event behind, set right by the next event (never a status without its event).
 * It gives way to the store's own implementation of the ports when that lands.
 */
import { z } from 'zod';
import { quoteSchema, shipmentSchema, type Shipment } from '../../domain/schemas.js';
import type { ShipmentEventReads, ShipmentEventRecord, ShipmentEventWrites, ShipmentReads, ShipmentRecord, ShipmentWrites } from '../../store/ports.js';
import type { JsonStore } from '../../store/jsonStore.js';

export interface TrackingTransaction {
  shipments: Pick<ShipmentWrites, 'getRecord' | 'put'>;
  events: ShipmentEventWrites;
}

export interface TrackingStore {
  shipments: Pick<ShipmentReads, 'get'>;
  events: ShipmentEventReads;
  withTransaction<T>(fn: (tx: TrackingTransaction) => Promise<T>): Promise<T>;
}

const EVENTS = 'shipment-events';
const MESSAGES = 'event-messages';
const storedShipmentSchema = shipmentSchema.extend({ quote: quoteSchema.optional() });
const eventRecordSchema = z.object({
  id: z.string(),
  shipmentId: z.string(),
  occurredAt: z.string(),
  recordedAt: z.string(),
  messageDigest: z.string().nullable(),
  event: z.record(z.string(), z.unknown()),
});
const eventsFileSchema = z.object({ events: z.array(eventRecordSchema) });
const messageFileSchema = z.object({ shipmentId: z.string(), eventIds: z.array(z.string()) });

const byOccurrence = (a: ShipmentEventRecord, b: ShipmentEventRecord) => Date.parse(a.occurredAt) - Date.parse(b.occurredAt) || a.id.localeCompare(b.id);

export class JsonEventStore implements TrackingStore {
  constructor(private readonly store: JsonStore) {}

  readonly shipments = {
    get: (id: string): Promise<Shipment | undefined> => this.store.get('shipments', id, shipmentSchema),
  };

  readonly events: ShipmentEventReads = {
    listByShipment: async (shipmentId) => ((await this.store.get(EVENTS, shipmentId, eventsFileSchema))?.events ?? []).sort(byOccurrence),
    findByMessageDigest: async (digest) => {
      const message = await this.store.get(MESSAGES, digest, messageFileSchema);
      if (!message) return [];
      const ids = new Set(message.eventIds);
      return (await this.events.listByShipment(message.shipmentId)).filter((record) => ids.has(record.id));
    },
  };

  withTransaction<T>(fn: (tx: TrackingTransaction) => Promise<T>): Promise<T> {
    return this.store.withLock('shipments', async () => {
      const appended: ShipmentEventRecord[] = [];
      const shipments = new Map<string, ShipmentRecord>();
      const tx: TrackingTransaction = {
        shipments: {
          getRecord: async (id) => {
            const record = await this.store.get('shipments', id, storedShipmentSchema);
            if (!record) return undefined;
            const { quote, ...shipment } = record;
            return { shipment, ...(quote ? { ownQuote: quote } : {}) };
          },
          put: (shipment, ownQuote) => void shipments.set(shipment.id, { shipment, ownQuote }),
        },
        events: {
          listByShipment: async (shipmentId) =>
            [...(await this.events.listByShipment(shipmentId)), ...appended.filter((record) => record.shipmentId === shipmentId)].sort(byOccurrence),
          findByMessageDigest: async (digest) => [...(await this.events.findByMessageDigest(digest)), ...appended.filter((record) => record.messageDigest === digest)],
          append: (records) => void appended.push(...records),
        },
      };
      const result = await fn(tx);
      await this.commit(appended, shipments);
      return result;
    });
  }

  private async commit(appended: readonly ShipmentEventRecord[], shipments: ReadonlyMap<string, ShipmentRecord>): Promise<void> {
    const byShipment = new Map<string, ShipmentEventRecord[]>();
    for (const record of appended) byShipment.set(record.shipmentId, [...(byShipment.get(record.shipmentId) ?? []), record]);
    const files = await Promise.all(
      [...byShipment].map(async ([shipmentId, records]) => ({
        id: shipmentId,
        record: { events: [...((await this.store.get(EVENTS, shipmentId, eventsFileSchema))?.events ?? []), ...records] },
      })),
    );
    if (files.length > 0) await this.store.putMany(EVENTS, files);
    const messages = new Map<string, { shipmentId: string; eventIds: string[] }>();
    for (const record of appended) {
      if (!record.messageDigest) continue;
      const message = messages.get(record.messageDigest) ?? { shipmentId: record.shipmentId, eventIds: [] };
      message.eventIds.push(record.id);
      messages.set(record.messageDigest, message);
    }
    if (messages.size > 0)
      await this.store.putMany(
        MESSAGES,
        [...messages].map(([id, record]) => ({ id, record })),
      );
    for (const { shipment, ownQuote } of shipments.values()) await this.store.put('shipments', shipment.id, ownQuote ? { ...shipment, quote: ownQuote } : shipment);
  }
}
