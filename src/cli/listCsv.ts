/**
 * `shipment list --csv`, `quote list --csv`: every item the filters match, page after page (not
 * only the first --limit), as CSV on stdout for a daily report. Written page by page, so a long
 * list never sits in memory; an empty list is the header alone.
 */
import type { CsvCell } from './fileOutput.js';
import type { IO } from './output.js';
import type { Warning } from '../domain/warnings.js';

export interface Page<T> {
  data: { items: T[]; nextCursor: string | null };
  warnings: Warning[];
}

export interface ListCsv<T> {
  header: readonly string[];
  row: (item: T) => CsvCell[];
  /** One page after `cursor` (undefined: the first). */
  page: (cursor: string | undefined, limit: number) => Promise<Page<T>>;
}

/** Pages of the API's largest size (MAX_PAGE_SIZE). */
const CSV_PAGE_SIZE = 500;

/**
 * Writes the CSV; `cap` (an explicit --limit) stops after that many rows, `cursor` (--cursor)
 * starts after that item. Returns the number of rows written.
 */
export async function writeListCsv<T>(io: IO, list: ListCsv<T>, options: { cursor?: string | undefined; cap?: number | undefined } = {}): Promise<number> {
  // csv-stringify loads only for --csv: start-up stays light.
  const { csvRecords, csvText } = await import('./fileOutput.js');
  io.streams.stdout.write(csvText(list.header, []));
  const warned = new Set<string>();
  let cursor = options.cursor;
  let written = 0;
  do {
    const remaining = options.cap === undefined ? CSV_PAGE_SIZE : Math.min(CSV_PAGE_SIZE, options.cap - written);
    if (remaining <= 0) break;
    const { data, warnings } = await list.page(cursor, remaining);
    for (const warning of warnings) {
      const key = `${warning.code} ${warning.message}`;
      if (!warned.has(key)) io.warn(warning);
      warned.add(key);
    }
    io.streams.stdout.write(csvRecords(data.items.map(list.row)));
    written += data.items.length;
    cursor = data.nextCursor ?? undefined;
  } while (cursor);
  return written;
}
