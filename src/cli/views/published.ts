/**
 * An answer of Oway's service, which carries the published fields alone (remote mode, service
 * `published`): shown field by field as it came, and what shipper's own view would show but the
 * answer lacks named once on stderr.
 */
import type { ApiResult } from '../../api/types.js';
import { printableRecord } from '../../printable.js';
import { formatCents, type IO } from '../output.js';

/** True when the answer lacks shipper's own fields (printed here instead of by the full view). */
export function isPublishedOnly<T>(result: ApiResult<T>): boolean {
  return (result.unanswered?.length ?? 0) > 0;
}

/** "the service did not answer pickupAddress, ...: not shown". */
export function noteUnanswered(io: IO, result: ApiResult<unknown>): void {
  if (isPublishedOnly(result)) io.note(`the service answered the published fields only; not shown: ${result.unanswered!.join(', ')}`);
}

export function printPublishedAnswer(io: IO, title: string, answer: unknown): void {
  const record = printableRecord(answer as Record<string, unknown>);
  const name = record.orderNumber ?? record.id;
  io.out(`${io.color.bold(title)}${typeof name === 'string' ? ` ${name}` : ''}`);
  const rows = Object.entries(record).filter(([, value]) => value === null || typeof value !== 'object');
  const width = Math.max(...rows.map(([key]) => key.length));
  for (const [key, value] of rows) {
    const shown = value === null || value === undefined ? '-' : key.endsWith('InCents') && typeof value === 'number' ? formatCents(value) : String(value);
    io.out(`  ${key.padEnd(width)}  ${shown}`);
  }
}
