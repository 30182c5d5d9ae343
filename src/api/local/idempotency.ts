/**
 * Idempotency records: one per key and scope, holding the hash of the request body and the
 * resource it created, so the same key and body answer that resource again and the same key
 * with another body is refused (422). Shipment records also hold the serial of the booking.
 * They are kept by the store (its idempotency port); these are the rules around them.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../domain/canonicalJson.js';
import type { IdempotencyReads, IdempotencyRecord, IdempotencyScope } from '../../store/ports.js';
import { idempotencyKeyReused } from '../problems.js';

export type { IdempotencyRecord, IdempotencyScope };

/** A hash of the request that ignores key order, so a re-sent body matches itself. */
export function requestHash(raw: unknown): string {
  return createHash('sha256').update(canonicalJson(raw)).digest('hex');
}

/** The record of an earlier request with this key, if any; the same key with another body is a 422. */
export async function findIdempotent(records: IdempotencyReads, scope: IdempotencyScope, key: string, hash: string): Promise<IdempotencyRecord | undefined> {
  const record = await records.get(scope, key);
  if (record && record.requestHash !== hash) throw idempotencyKeyReused(key);
  return record;
}
