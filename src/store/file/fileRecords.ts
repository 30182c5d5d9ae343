/**
 * The shapes of the file store's own files, read back by the store (fileStore.ts, counters.ts) and
 * by the export of a store it cannot lock (snapshot.ts): one definition, so the two readers agree.
 */
import { z } from 'zod';
import { quoteSchema, shipmentSchema } from '../../domain/schemas.js';
import { shipmentEventRecordSchema } from '../recordSchemas.js';
import { readsLegacy } from '../legacyRead.js';

/** A shipment's file: the Shipment, plus the quote its booking priced for itself. */
export const storedShipmentSchema = shipmentSchema.extend({ quote: quoteSchema.optional() });

export const idempotencySchema = z.object({
  scope: z.enum(['quote', 'shipment']),
  requestHash: z.string(),
  resourceId: z.string(),
  serial: z.number().int().optional(),
  /** The key itself (the file is named by its hash), so an export can carry it; records written before it was kept have none. */
  key: z.string().optional(),
});

/** A shipment's events file. */
export const eventsFileSchema = z.object({ shipmentId: z.string(), events: z.array(shipmentEventRecordSchema) });
readsLegacy(storedShipmentSchema, 'shipment');
readsLegacy(eventsFileSchema, 'eventsFile');

/** A counter's file (and its high-water mark). */
export const counterSchema = z.object({ last: z.number().int().min(0) });
