/**
 * Idempotency records: one per key and scope, holding the hash of the request body and the
 * resource it created, so the same key and body answer that resource again and the same key
 * with another body is refused (422). Shipment records also hold the serial of the booking.
 * They are kept by the store (its idempotency port); these are the rules around them.
 */
import { hash } from 'node:crypto';
import { canonicalJson } from '../../domain/canonicalJson.js';
import type { IdempotencyReads, IdempotencyRecord, IdempotencyScope } from '../../store/ports.js';
import { idempotencyKeyReused } from '../problems.js';

export type { IdempotencyRecord, IdempotencyScope };

/** A hash of the request that ignores key order, so a re-sent body matches itself. */
export function requestHash(raw: unknown): string {
  return hash('sha256', canonicalJson(raw), 'hex');
}

/**
 * The hashes a shipment request is recognised by: first with its order components in any order
 * (the same freight; an import file whose rows of a shipment were sorted again books nothing
 * new), then as sent, which records written before this rule hold. New records store the first.
 */
export function shipmentRequestHashes(raw: unknown): [unordered: string, asSent: string] {
  return [shipmentRequestHash(raw), requestHash(raw)];
}

/** The first of shipmentRequestHashes, the one new records store. */
export function shipmentRequestHash(raw: unknown): string {
  if (typeof raw !== 'object' || raw === null || !Array.isArray((raw as { orderComponents?: unknown }).orderComponents)) return requestHash(raw);
  const components = (raw as { orderComponents: unknown[] }).orderComponents.map((component) => canonicalJson(component)).sort();
  return requestHash({ ...raw, orderComponents: components });
}

/**
 * The record of an earlier request with this key, if any; the same key with another body (none of
 * its `hashes`) is a 422. The hashes are worked out only when there is a record to compare.
 */
export async function findIdempotent(
  records: IdempotencyReads,
  scope: IdempotencyScope,
  key: string,
  hashes: string | readonly string[] | (() => string | readonly string[]),
): Promise<IdempotencyRecord | undefined> {
  const record = await records.get(scope, key);
  if (!record) return undefined;
  const expected = typeof hashes === 'function' ? hashes() : hashes;
  if (!(typeof expected === 'string' ? [expected] : expected).includes(record.requestHash)) throw idempotencyKeyReused(key);
  return record;
}
