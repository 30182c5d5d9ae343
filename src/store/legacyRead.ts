/**
 * Every store reads a record through here: the record's schema, after the record is brought to
 * today's names when an older shipper wrote it (src/domain/legacyRecords.ts). One table, keyed by
 * the schema the caller reads with, so the file store, PostgreSQL and `store import` agree.
 */
import type { z } from 'zod';
import { quoteSchema, shipmentSchema } from '../domain/schemas.js';
import { upgradeEventRecord, upgradeLocation, upgradeQuote, upgradeShipment } from '../domain/legacyRecords.js';
import { shipmentEventRecordSchema } from './recordSchemas.js';

const upgrades = new Map<z.ZodType, (raw: unknown) => unknown>([
  [quoteSchema, upgradeQuote],
  [shipmentSchema, upgradeShipment],
  [shipmentEventRecordSchema, upgradeEventRecord],
]);

/** Also read through an upgrade: a schema of the stores' own (the file store's shipment with its quote, a saved location). */
export function readsLegacy(schema: z.ZodType, kind: 'shipment' | 'quote' | 'location' | 'eventsFile'): void {
  upgrades.set(schema, kind === 'shipment' ? upgradeShipment : kind === 'quote' ? upgradeQuote : kind === 'location' ? upgradeLocation : upgradeEventsFile);
}

function upgradeEventsFile(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || !Array.isArray((value as { events?: unknown }).events)) return value;
  const file = value as { events: unknown[] };
  const events = file.events.map(upgradeEventRecord);
  return events.every((event, index) => event === file.events[index]) ? value : { ...file, events };
}

/** `schema.safeParse(raw)`, with raw in today's names first. */
export function parseStored<S extends z.ZodType>(schema: S, raw: unknown): z.ZodSafeParseResult<z.output<S>> {
  const upgrade = upgrades.get(schema);
  return schema.safeParse(upgrade ? upgrade(raw) : raw) as z.ZodSafeParseResult<z.output<S>>;
}
