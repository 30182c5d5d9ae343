/**
 * What the parts of LocalApi share about the store: id shapes, the guard that turns store failures
 * into ProblemDetails, the page a list asks the store for, and the check that a record reads back.
 */
import type { z } from 'zod';
import { warning } from '../../domain/warnings.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../domain/limits.js';
import type { Page } from '../../domain/schemas.js';
import type { IdempotencyReads, PageRequest as StorePageRequest, QuoteReads, ShipmentReads, StorePage } from '../../store/ports.js';
import { StoreError } from '../../store/storeError.js';
import { constraintViolation, internalError, ProblemError } from '../problems.js';
import type { ApiResult } from '../types.js';
import { jsonCopy } from './jsonCopy.js';

export const QUOTE_ID = /^qt_[0-9A-HJKMNP-TV-Z]{26}$/;
export const SHIPMENT_ID = /^sh_[0-9A-HJKMNP-TV-Z]{26}$/;

/** What the rules read: the store outside a unit of work, the transaction inside one. */
export interface StoreReads {
  shipments: ShipmentReads;
  quotes: QuoteReads;
  idempotency: IdempotencyReads;
}

/** A store failure as the ProblemError the engine throws (500, or 503 unavailable); what it names stays out of HTTP answers. */
export async function guardStore<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw storeFailure(error);
  }
}

/** What guardStore throws for an error: a store's failure as the API's problem, anything else as it is. */
export function storeFailure(error: unknown): unknown {
  return error instanceof StoreError ? ProblemError.of(error) : error;
}

export interface PageRequest {
  limit?: number | undefined;
  cursor?: string | undefined;
}

/** The page a list operation asks for: size within bounds, a cursor of this list (else a 400). */
export function pageRequest({ limit = DEFAULT_PAGE_SIZE, cursor }: PageRequest, idPattern: RegExp): StorePageRequest {
  if (cursor !== undefined && !idPattern.test(cursor)) throw constraintViolation([{ field: 'cursor', reason: 'is not a cursor of this list' }]);
  return { limit: Math.min(Math.max(1, Math.trunc(limit)), MAX_PAGE_SIZE), cursor };
}

/** A store's page as the API answers it. */
export function answerPage<T>(page: StorePage<T>): ApiResult<Page<T>> {
  return { data: { items: page.items, nextCursor: page.nextCursor }, warnings: page.warnings.map((message) => warning('RECORD_UNREADABLE', message)) };
}

/**
 * The store's own schema must read back what is written: JSON has no NaN or Infinity (they
 * become null), so a record is checked as it will be read, before it is written (and before any
 * number is spent on it). `refusal` is the 500's message. (jsonCopy: the record as JSON leaves it,
 * without the text.)
 */
export function assertReadsBack(schema: z.ZodType, record: unknown, refusal: string): void {
  if (!schema.safeParse(jsonCopy(record)).success) throw internalError(refusal);
}
