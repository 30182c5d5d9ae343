/**
 * Idempotency records: one per key and scope, holding the hash of the request body and the
 * resource it created, so the same key and body answer that resource again and the same key
 * with another body is refused (422). Shipment records also hold the numbers reserved for the
 * booking, so a booking interrupted after its reservation finishes with the same numbers.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { canonicalJson } from '../../domain/canonicalJson.js';
import type { JsonStore } from '../../store/jsonStore.js';
import { idempotencyKeyReused } from '../problems.js';

const COLLECTION = 'idempotency';

export const idempotencyRecordSchema = z.object({
  scope: z.enum(['quote', 'shipment']),
  requestHash: z.string(),
  resourceId: z.string(),
  /** For shipments, the serial reserved before the shipment was written, so a crash is resumable. */
  serial: z.number().int().optional(),
});
export type IdempotencyRecord = z.infer<typeof idempotencyRecordSchema>;
export type IdempotencyScope = IdempotencyRecord['scope'];

/** A hash of the request that ignores key order, so a re-sent body matches itself. */
export function requestHash(raw: unknown): string {
  return createHash('sha256').update(canonicalJson(raw)).digest('hex');
}

/**
 * The hashes a shipment request is recognised by: first with its order components in any order
 * (the same freight; an import file whose rows of a shipment were sorted again books nothing
 * new), then as sent, which records written before this rule hold. New records store the first.
 */
export function shipmentRequestHashes(raw: unknown): [unordered: string, asSent: string] {
  const asSent = requestHash(raw);
  if (typeof raw !== 'object' || raw === null || !Array.isArray((raw as { orderComponents?: unknown }).orderComponents)) return [asSent, asSent];
  const components = (raw as { orderComponents: unknown[] }).orderComponents.map((component) => canonicalJson(component)).sort();
  return [requestHash({ ...raw, orderComponents: components }), asSent];
}

/** Keys are hashed: whatever a client sends, only hex reaches the file system. */
function recordId(scope: IdempotencyScope, key: string): string {
  return createHash('sha256').update(`${scope}\u0000${key}`).digest('hex');
}

export class IdempotencyRecords {
  constructor(private readonly store: JsonStore) {}

  /** The record of an earlier request with this key, if any; the same key with another body (none of its `hashes`) is a 422. */
  async find(scope: IdempotencyScope, key: string, hashes: string | readonly string[]): Promise<IdempotencyRecord | undefined> {
    const record = await this.store.get(COLLECTION, recordId(scope, key), idempotencyRecordSchema);
    if (record && !(typeof hashes === 'string' ? [hashes] : hashes).includes(record.requestHash)) throw idempotencyKeyReused(key);
    return record;
  }

  /** The record without judging the body (a batch compares it itself, item by item). */
  read(scope: IdempotencyScope, key: string): Promise<IdempotencyRecord | undefined> {
    return this.store.get(COLLECTION, recordId(scope, key), idempotencyRecordSchema);
  }

  async put(key: string, record: IdempotencyRecord): Promise<void> {
    await this.store.put(COLLECTION, recordId(record.scope, key), record);
  }

  /** Many records in one round of parallel durable writes. */
  async putMany(records: ReadonlyArray<{ key: string; record: IdempotencyRecord }>): Promise<void> {
    await this.store.putMany(
      COLLECTION,
      records.map(({ key, record }) => ({ id: recordId(record.scope, key), record })),
    );
  }
}
