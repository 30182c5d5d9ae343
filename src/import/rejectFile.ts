/**
 * The reject file of `shipper import --skip-invalid`: the rejected rows exactly as they were
 * (same columns, same delimiter, BOM kept) plus a `reason` column, so that it can be fixed and
 * imported as it is (import ignores a `reason` column). Written to a temporary file and renamed
 * into place at the end: never half-written.
 */
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { rename, unlink } from 'node:fs/promises';
import { REASON_COLUMN, normaliseHeaderName } from './columns.js';
import type { CsvViolation, RowGroup } from './shipmentRows.js';

export class RejectFile {
  private stream: WriteStream | undefined;
  private readonly temporary: string;
  private readonly reasonPosition: number;
  private readonly width: number;
  rows = 0;

  constructor(
    readonly path: string,
    private readonly headerCells: string[],
    private readonly delimiter: string,
    private readonly bom: boolean,
  ) {
    this.temporary = `${path}.${process.pid}.tmp`;
    // A reject file being re-imported already has a reason column: reuse it rather than add a second.
    const existing = headerCells.findIndex((cell) => normaliseHeaderName(cell) === REASON_COLUMN);
    this.reasonPosition = existing === -1 ? headerCells.length : existing;
    this.width = Math.max(headerCells.length, this.reasonPosition + 1);
  }

  async write(group: RowGroup, violations: CsvViolation[]): Promise<void> {
    if (!this.stream) {
      this.stream = createWriteStream(this.temporary, { flags: 'w' });
      const header = [...this.headerCells];
      header[this.reasonPosition] = REASON_COLUMN;
      await this.append(`${this.bom ? '\uFEFF' : ''}${this.line(header)}`);
    }
    const firstBad = violations[0]?.line ?? group.rows[0]!.line;
    for (const row of group.rows) {
      const own = violations.filter((violation) => violation.line === row.line);
      const reason =
        own.length > 0
          ? own.map(describeViolation).join('; ')
          : `not imported: line ${firstBad} of the same shipment is invalid`;
      const cells = [...row.cells];
      cells[this.reasonPosition] = reason;
      await this.append(this.line(cells));
      this.rows++;
    }
  }

  /** Renames the finished file into place; returns its path, or null when nothing was rejected. */
  async commit(): Promise<string | null> {
    if (!this.stream) return null;
    this.stream.end();
    await once(this.stream, 'finish');
    await rename(this.temporary, this.path);
    return this.path;
  }

  async discard(): Promise<void> {
    if (!this.stream) return;
    this.stream.destroy();
    await unlink(this.temporary).catch(() => undefined);
  }

  private line(cells: string[]): string {
    const padded = Array.from({ length: Math.max(this.width, cells.length) }, (_, index) => cells[index] ?? '');
    return `${padded.map((cell) => quoteCell(cell, this.delimiter)).join(this.delimiter)}\r\n`;
  }

  private async append(text: string): Promise<void> {
    if (!this.stream!.write(text)) await once(this.stream!, 'drain');
  }
}

export function describeViolation(violation: CsvViolation): string {
  const where = violation.column ?? (violation.field.startsWith('(') ? '' : violation.field);
  return `${where ? `${where}: ` : ''}${violation.message}`;
}

export function quoteCell(cell: string, delimiter: string): string {
  if (cell === '' || !(cell.includes(delimiter) || /["\r\n]/.test(cell) || cell.trim() !== cell)) return cell;
  return `"${cell.replace(/"/g, '""')}"`;
}
