/**
 * The reject file of `shipper import --skip-invalid`: the rejected rows as they were (same
 * columns, same delimiter) plus a `reason` column, so that it can be fixed and imported as it is
 * (import ignores a `reason` column). Written with csv-stringify, formula cells neutralised
 * (src/csvCells.ts: the importer reads them back as they were), CRLF lines ending with one, in
 * UTF-8 with a BOM when the input had one or was in another encoding (so Excel reads the names).
 *
 * Durable and whole (src/fs/durableWrite.ts): rows go to a temporary file, and commit() puts it in
 * place. It never replaces a file: when the name is taken (an earlier reject file the user may be
 * fixing right now), it takes the next free one, `orders.rejected-2.csv`, and says so.
 */
import { stringify } from 'csv-stringify/sync';
import { basename, dirname, extname } from 'node:path';
import { DurableFileWriter, removeOrphanedTemporaries } from '../fs/durableWrite.js';
import { safeCsvOptions } from '../csvCells.js';
import { REASON_COLUMN, normaliseHeaderName } from './columns.js';
import type { CsvViolation, RowGroup } from './rows.js';

/**
 * Whether the reject file of an input starts with a BOM: when the input had one, or was not UTF-8
 * (it is written in UTF-8, which Excel only recognises by the BOM). `encoding` as the CSV reader
 * names the input's encoding, when it tells.
 */
export function rejectFileBom(reading: { bom: boolean; encoding?: string }): boolean {
  return reading.bom || (reading.encoding !== undefined && !/^utf-?8$/i.test(reading.encoding));
}

export class RejectFile {
  private writer: DurableFileWriter | undefined;
  private readonly reasonPosition: number;
  private readonly width: number;
  private readonly options: ReturnType<typeof safeCsvOptions>;
  rows = 0;

  constructor(
    readonly path: string,
    private readonly headerCells: string[],
    delimiter: string,
    private readonly bom: boolean,
  ) {
    this.options = safeCsvOptions(delimiter);
    // A reject file being re-imported already has a reason column: reuse it rather than add a second.
    const existing = headerCells.findIndex((cell) => normaliseHeaderName(cell) === REASON_COLUMN);
    this.reasonPosition = existing === -1 ? headerCells.length : existing;
    this.width = Math.max(headerCells.length, this.reasonPosition + 1);
  }

  async write(group: RowGroup, violations: CsvViolation[]): Promise<void> {
    if (!this.writer) {
      await removeLeftovers(this.path);
      this.writer = await DurableFileWriter.open(this.path, { whenExists: 'number' });
      const header = [...this.headerCells];
      header[this.reasonPosition] = REASON_COLUMN;
      await this.writer.write(`${this.bom ? '\uFEFF' : ''}${this.line(header)}`);
    }
    const firstBad = violations[0]?.line ?? group.rows[0]!.line;
    for (const row of group.rows) {
      const own = violations.filter((violation) => violation.line === row.line);
      const reason = own.length > 0 ? own.map(describeViolation).join('; ') : `not imported: line ${firstBad} of the same shipment is invalid`;
      const cells = [...row.cells];
      cells[this.reasonPosition] = reason;
      await this.writer.write(this.line(cells));
      this.rows++;
    }
  }

  /** Puts the finished file in place; returns the path written (a numbered one when the name was taken), or null when nothing was rejected. */
  async commit(): Promise<string | null> {
    if (!this.writer) return null;
    return this.writer.commit();
  }

  async discard(): Promise<void> {
    await this.writer?.discard();
  }

  private line(cells: string[]): string {
    const padded = Array.from({ length: Math.max(this.width, cells.length) }, (_, index) => cells[index] ?? '');
    return stringify([padded], this.options);
  }
}

/** Temporary files of this reject file (and its numbered names) that a killed import left. */
async function removeLeftovers(path: string): Promise<void> {
  const extension = extname(path);
  const stem = basename(path, extension).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const ext = extension.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await removeOrphanedTemporaries(dirname(path), new RegExp(`^${stem}(?:-\\d+)?${ext}\\.(\\d+)\\.\\d+\\.tmp$`));
}

export function describeViolation(violation: CsvViolation): string {
  const where = violation.column ?? (violation.field.startsWith('(') ? '' : violation.field);
  return `${where ? `${where}: ` : ''}${violation.reason}`;
}
