/**
 * Paged lists of the file store, newest first: ids sort by creation time (a prefix and a ULID),
 * so a page reads the newest ids of a directory listing (or of an index's ids) and only those
 * records. A damaged record is skipped and named in the page's warnings.
 */
import type { z } from 'zod';
import type { PageRequest, StorePage } from '../ports.js';
import { StoreError } from '../storeError.js';
import type { RecordFiles } from './recordFiles.js';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** The creation time (ms) a prefixed ULID carries in its first ten characters. */
export function idTime(id: string): number {
  let time = 0;
  const start = id.indexOf('_') + 1;
  for (const char of id.slice(start, start + 10)) time = time * 32 + CROCKFORD.indexOf(char);
  return time;
}

/** Ids newest first, older than `before`, at most `limit`, and whether there are more. */
export type IdSource = (before: string | undefined, limit: number) => Promise<{ ids: string[]; more: boolean }>;

export interface ListScope<T> {
  /** Where the ids come from (an index), instead of the collection's directory listing. */
  source?: IdSource | undefined;
  /** Keep a record (the list's filters). */
  keep: (record: T) => boolean;
  /** No record created before this instant (ms) is wanted: the scan stops there. */
  oldest?: number | undefined;
  /** Only these ids (from an index), instead of the whole collection. */
  ids?: readonly string[] | undefined;
  /** Ids of this collection (e.g. /^sh_/): others in the directory are not its records. */
  idPattern: RegExp;
  /** Where a record is read from, instead of its file (records kept in bucket logs). */
  get?: ((id: string) => Promise<T | undefined>) | undefined;
}

export async function listPage<S extends z.ZodType, T>(
  files: RecordFiles,
  collection: string,
  schema: S,
  read: (record: z.output<S>) => T,
  { limit, cursor }: PageRequest,
  { keep, oldest, ids: only, idPattern, source, get }: ListScope<T>,
): Promise<StorePage<T>> {
  const size = Math.max(1, Math.trunc(limit));
  const warnings: string[] = [];
  const items: T[] = [];
  let before = cursor;
  let more = true;
  let lastSeen: string | undefined;
  const listed = only
    ? [...new Set(only)]
        .filter((id) => idPattern.test(id))
        .sort()
        .reverse()
    : undefined;
  // Filters may drop records: read further pages of ids until the page is full or the list ends.
  while (items.length < size && more) {
    let batch: { ids: string[]; more: boolean };
    if (listed) {
      const rest = listed.filter((id) => before === undefined || id < before);
      batch = { ids: rest.slice(0, size), more: rest.length > size };
    } else {
      const found = source ? await source(before, size) : await files.listIds(collection, { limit: size, before });
      batch = { ids: found.ids.filter((id) => idPattern.test(id)), more: found.more };
      if (found.ids.length > 0 && batch.ids.length === 0) {
        before = found.ids.at(-1);
        more = found.more;
        continue;
      }
    }
    more = batch.more;
    for (const id of batch.ids) {
      // A minute's slack: an id's instant and its record's createdAt may differ by the time a booking takes.
      if (oldest !== undefined && idTime(id) < oldest - 60_000) {
        more = false;
        break;
      }
      lastSeen = id;
      try {
        const item = get ? await get(id) : await files.get(collection, id, schema).then((record) => (record === undefined ? undefined : read(record)));
        if (item !== undefined && keep(item)) items.push(item);
      } catch (error) {
        // One damaged file must not hide the others: skip it and say which.
        if (error instanceof StoreError) warnings.push(error.message);
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
  return { items, nextCursor: more && lastSeen ? lastSeen : null, warnings };
}
