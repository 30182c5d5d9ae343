/**
 * What the check pass of a long import read (each shipment's rows, its request and key, or its
 * problems), written to a temporary file and read back by the booking pass, so that a file longer
 * than RETAINED_ROWS is not read, grouped, prepared and keyed a second time while memory stays
 * flat. One line per shipment, written and read 1 MB at a time: three JSON texts separated by tabs
 * (JSON text has no raw tab or newline), the rows' line numbers, their cells, and the key and
 * request or the problems. The cells are parsed only when the booking asks for them (a shipment
 * it refuses): most are never read again, and a chunk's worth of them would outlive the young
 * generation.
 *
 * The file is unlinked as soon as it is open (POSIX keeps it readable through the open handle):
 * nothing is left behind whatever ends the process, a kill included. Where an open file cannot be
 * unlinked (Windows), close() removes it; the importer closes the spill on every way out.
 */
import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CsvRow, CsvViolation, RowGroup } from './rows.js';
import type { FileShipment } from './fileShipments.js';

/** The last part of a line: the key and request, or the problems. */
type Outcome = { key?: string; request?: Record<string, unknown>; violations?: CsvViolation[] };

const BUFFER_BYTES = 1024 * 1024;

export class Spill {
  /** Lines are written into it as bytes at once, so that no text waits on the heap (it would outlive the young generation). */
  private buffer = Buffer.allocUnsafe(BUFFER_BYTES);
  private used = 0;
  private written = 0;
  /** Shipments written. */
  count = 0;

  private constructor(
    private readonly handle: FileHandle,
    /** The directory while it still has to be removed (not unlinked at open). */
    private leftover: string | undefined,
  ) {}

  /** A new empty spill in a directory of its own under `directory` (default: the system's temporary directory). */
  static async create(directory = tmpdir()): Promise<Spill> {
    const dir = await mkdtemp(join(directory, 'shipper-import-'));
    const path = join(dir, 'checked.jsonl');
    let handle: FileHandle;
    try {
      handle = await open(path, 'w+', 0o600);
    } catch (error) {
      await rm(dir, { recursive: true, force: true });
      throw error;
    }
    try {
      await rm(path);
      await rm(dir, { recursive: true });
      return new Spill(handle, undefined);
    } catch {
      return new Spill(handle, dir);
    }
  }

  async write(shipment: FileShipment): Promise<void> {
    const { prepared, key, request } = shipment;
    const { rows } = prepared.group;
    const outcome: Outcome = prepared.ok ? { key, request } : { violations: prepared.violations };
    const text = `${JSON.stringify(rows.map((row) => row.line))}\t${JSON.stringify(rows.map((row) => row.cells))}\t${JSON.stringify(outcome)}`;
    this.count++;
    // At most 3 bytes of UTF-8 a UTF-16 unit: room is made before writing, never after.
    const most = text.length * 3 + 1;
    if (most > this.buffer.length - this.used) await this.flush();
    if (most > this.buffer.length) {
      await this.append(Buffer.from(`${text}\n`, 'utf8'));
      return;
    }
    this.used += this.buffer.write(text, this.used, 'utf8');
    this.buffer[this.used++] = 0x0a;
  }

  /** The shipments written, in order, read back a buffer at a time, one line parsed at a time. */
  async *read(): AsyncGenerator<FileShipment> {
    await this.flush();
    let buffer = Buffer.allocUnsafe(BUFFER_BYTES);
    let filled = 0;
    for (let position = 0; position < this.written;) {
      // A line longer than the buffer: a larger one.
      if (filled === buffer.length) buffer = Buffer.concat([buffer], buffer.length * 2);
      const { bytesRead } = await this.handle.read(buffer, filled, buffer.length - filled, position);
      if (bytesRead === 0) throw new Error("the import's temporary file ended early");
      position += bytesRead;
      filled += bytesRead;
      const bytes = buffer.subarray(0, filled);
      let start = 0;
      for (let end = bytes.indexOf(0x0a, start); end !== -1; end = bytes.indexOf(0x0a, start)) {
        const first = bytes.indexOf(0x09, start);
        const second = bytes.indexOf(0x09, first + 1);
        if (first === -1 || second === -1 || second > end) throw new Error("the import's temporary file has a damaged line");
        const lines = JSON.parse(bytes.toString('latin1', start, first)) as number[];
        const cells = bytes.toString('utf8', first + 1, second);
        const outcome = JSON.parse(bytes.toString('utf8', second + 1, end)) as Outcome;
        start = end + 1;
        yield shipmentOf(lines, cells, outcome);
      }
      // The start of the next line (a character cut by the buffer's end included) waits for the rest.
      buffer.copy(buffer, 0, start, filled);
      filled -= start;
    }
    if (filled > 0) throw new Error("the import's temporary file ends inside a line");
  }

  /** Closes the file (and removes it where it could not be unlinked at open). */
  async close(): Promise<void> {
    this.used = 0;
    await this.handle.close().catch(() => undefined);
    if (this.leftover) await rm(this.leftover, { recursive: true, force: true });
    this.leftover = undefined;
  }

  private async flush(): Promise<void> {
    if (this.used === 0) return;
    const bytes = this.buffer.subarray(0, this.used);
    this.used = 0;
    await this.append(bytes);
  }

  private async append(bytes: Buffer): Promise<void> {
    for (let offset = 0; offset < bytes.length;) {
      const { bytesWritten } = await this.handle.write(bytes, offset, bytes.length - offset, this.written);
      offset += bytesWritten;
      this.written += bytesWritten;
    }
  }
}

function shipmentOf(lines: number[], cellsText: string, outcome: Outcome): FileShipment {
  let cells: string[][] | undefined;
  const cellsAt = (index: number) => (cells ??= JSON.parse(cellsText) as string[][])[index]!;
  const group: RowGroup = {
    rows: lines.map((line, index): CsvRow => ({
      line,
      get cells() {
        return cellsAt(index);
      },
    })),
  };
  if (outcome.violations) return { prepared: { ok: false, group, violations: outcome.violations, warnings: [] }, key: undefined, request: undefined };
  const request = outcome.request!;
  // The check's warnings were given by the check; the booking gives none of its own from the cells.
  return { prepared: { ok: true, group, request, warnings: [] }, key: outcome.key, request };
}
