/**
 * The shapes the stores read their own records back with, where no domain schema covers them:
 * one definition for the file store, PostgreSQL and the export, so the three agree.
 */
import { z } from 'zod';

/** A shipment event as the events port stores it (the domain's event inside `event`). */
export const shipmentEventRecordSchema = z.object({
  id: z.string(),
  shipmentId: z.string(),
  occurredAt: z.string(),
  recordedAt: z.string(),
  messageDigest: z.string().nullable(),
  event: z.record(z.string(), z.unknown()),
});
