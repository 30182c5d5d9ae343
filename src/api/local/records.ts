/**
 * What the parts of LocalApi share about the store: id shapes, the guard that turns store failures
 * into ProblemDetails, and paged lists that skip (and name) a damaged record.
 */
import type { z } from 'zod';
import { warning, type Warning } from '../../domain/warnings.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../domain/limits.js';
import type { Page } from '../../domain/schemas.js';
import { type JsonStore, StoreError } from '../../store/jsonStore.js';
import { constraintViolation, internalError, storeFailure } from '../problems.js';
import type { ApiResult } from '../types.js';

export const QUOTE_ID = /^qt_[0-9A-HJKMNP-TV-Z]{26}$/;
export const SHIPMENT_ID = /^sh_[0-9A-HJKMNP-TV-Z]{26}$/;

/** A store failure as the 500 ProblemDetail it is; the file it names stays out of HTTP answers. */
export async function guardStore<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof StoreError) throw storeFailure(error);
    throw error;
  }
}

export interface PageRequest {
  limit?: number | undefined;
  cursor?: string | undefined;
}

export interface ListFilter<T> {
  /** Keep a record (filters of the list operation). */
  keep?: (record: T) => boolean;
  /** No record created before this instant (ms) is wanted: ids sort by creation time, so the scan stops there. */
  oldest?: number | undefined;
  /** Only these ids (from an index), instead of the whole collection. */
  ids?: string[] | undefined;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** The creation time (ms) a prefixed ULID carries in its first ten characters. */
export function idTime(id: string): number {
  let time = 0;
  for (const char of id.slice(id.indexOf('_') + 1, id.indexOf('_') + 11)) time = time * 32 + CROCKFORD.indexOf(char);
  return time;
}

/** A page of records, newest first; a damaged record is skipped with a warning naming it. */
export async function listRecords<S extends z.ZodType>(
  store: JsonStore,
  collection: string,
  schema: S,
  idPattern: RegExp,
  { limit = DEFAULT_PAGE_SIZE, cursor }: PageRequest,
  { keep = () => true, oldest, ids: only }: ListFilter<z.output<S>> = {},
): Promise<ApiResult<Page<z.output<S>>>> {
  const size = Math.min(Math.max(1, Math.trunc(limit)), MAX_PAGE_SIZE);
  if (cursor !== undefined && !idPattern.test(cursor)) throw constraintViolation([{ field: 'cursor', message: 'is not a cursor of this list' }]);
  return guardStore(async () => {
    const warnings: Warning[] = [];
    const items: z.output<S>[] = [];
    let before = cursor;
    let more = true;
    let lastSeen: string | undefined;
    // Filters may drop records: read further pages of ids until the page is full or the list ends.
    const listed = only
      ? [...new Set(only)]
          .filter((id) => idPattern.test(id))
          .sort()
          .reverse()
      : undefined;
    while (items.length < size && more) {
      const batch = listed
        ? (() => {
            const rest = listed.filter((id) => before === undefined || id < before);
            return { ids: rest.slice(0, size), more: rest.length > size };
          })()
        : await store.listIds(collection, { limit: size, before });
      more = batch.more;
      for (const id of batch.ids) {
        // A minute's slack: an id's instant and its record's createdAt may differ by the time a booking takes.
        if (oldest !== undefined && idTime(id) < oldest - 60_000) {
          more = false;
          break;
        }
        lastSeen = id;
        try {
          const record = await store.get(collection, id, schema);
          if (record && keep(record)) items.push(record);
        } catch (error) {
          // One damaged file must not hide the others: skip it and say which.
          if (error instanceof StoreError) warnings.push(warning('RECORD_UNREADABLE', error.message));
          else throw error;
        }
        if (items.length === size) {
          more = more || batch.ids.at(-1) !== id;
          break;
        }
      }
      before = batch.ids.at(-1);
      if (batch.ids.length === 0) more = false;
    }
    return { data: { items, nextCursor: more && lastSeen ? lastSeen : null }, warnings };
  });
}

/**
 * The store's own schema must read back what is written: JSON has no NaN or Infinity (they
 * become null), so a record is checked as it will be read, before it is written (and before any
 * number is spent on it). `refusal` is the 500's message.
 */
export function assertReadsBack(schema: z.ZodType, record: unknown, refusal: string): void {
  if (!schema.safeParse(JSON.parse(JSON.stringify(record))).success) throw internalError(refusal);
}
