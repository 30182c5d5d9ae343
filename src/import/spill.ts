/**
 * What the check pass of a long import read (each shipment's rows, its request and key, or its
 * problems), written to a temporary file and read back by the booking pass, so that a file longer
 * than RETAINED_ROWS is not read, grouped, prepared and keyed a second time while memory stays
 * flat. One JSON line per shipment (JSON text has no raw newline), written and read 1 MB at a time.
 *
 * The file is unlinked as soon as it is open (POSIX keeps it readable through the open handle):
 * nothing is left behind whatever ends the process, a kill included. Where an open file cannot be
 * unlinked (Windows), close() removes it; the importer closes the spill on every way out.
 */
import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CsvRow, CsvViolation, RowGroup } from './rows.js';
import type { PreparedShipment } from './shipmentRows.js';

/** A shipment as the booking needs it: what the check prepared, its key and its request as sent. */
export interface SpilledShipment {
  prepared: PreparedShipment;
  key: string | undefined;
  request: Record<string, unknown> | undefined;
}

/** A line of the file: the rows ([line, ...cells] each) and either the key and request or the problems. */
type Line = { rows: Array<[number, ...string[]]>; key?: string; request?: Record<string, unknown>; violations?: CsvViolation[] };

const BUFFER_BYTES = 1024 * 1024;

export class Spill {
  private pending: string[] = [];
  private pendingLength = 0;
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

  async write(shipment: SpilledShipment): Promise<void> {
    const { prepared, key, request } = shipment;
    const line: Line = { rows: prepared.group.rows.map((row) => [row.line, ...row.cells]) };
    if (prepared.ok) {
      line.key = key;
      line.request = request;
    } else line.violations = prepared.violations;
    const text = JSON.stringify(line);
    this.pending.push(text);
    this.pendingLength += text.length + 1;
    this.count++;
    if (this.pendingLength >= BUFFER_BYTES) await this.flush();
  }

  /** The shipments written, in order, read back a buffer at a time. */
  async *read(): AsyncGenerator<SpilledShipment> {
    await this.flush();
    const buffer = Buffer.allocUnsafe(BUFFER_BYTES);
    let carry: Buffer | undefined;
    for (let position = 0; position < this.written;) {
      const { bytesRead } = await this.handle.read(buffer, 0, BUFFER_BYTES, position);
      if (bytesRead === 0) throw new Error("the import's temporary file ended early");
      position += bytesRead;
      const bytes = carry ? Buffer.concat([carry, buffer.subarray(0, bytesRead)]) : buffer.subarray(0, bytesRead);
      // Whole lines only: a character cut by the buffer's end waits with the rest of its line.
      const end = bytes.lastIndexOf(0x0a) + 1;
      carry = Buffer.from(bytes.subarray(end));
      const lines = bytes.toString('utf8', 0, end).split('\n');
      lines.pop();
      for (const text of lines) yield shipmentOf(JSON.parse(text) as Line);
    }
    if (carry && carry.length > 0) throw new Error("the import's temporary file ends inside a line");
  }

  /** Closes the file (and removes it where it could not be unlinked at open). */
  async close(): Promise<void> {
    this.pending = [];
    await this.handle.close().catch(() => undefined);
    if (this.leftover) await rm(this.leftover, { recursive: true, force: true });
    this.leftover = undefined;
  }

  private async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const bytes = Buffer.from(`${this.pending.join('\n')}\n`, 'utf8');
    this.pending = [];
    this.pendingLength = 0;
    for (let offset = 0; offset < bytes.length;) {
      const { bytesWritten } = await this.handle.write(bytes, offset, bytes.length - offset, this.written);
      offset += bytesWritten;
      this.written += bytesWritten;
    }
  }
}

function shipmentOf(line: Line): SpilledShipment {
  const group: RowGroup = { rows: line.rows.map(([number, ...cells]): CsvRow => ({ line: number, cells })) };
  if (line.violations) return { prepared: { ok: false, group, violations: line.violations, warnings: [] }, key: undefined, request: undefined };
  const request = line.request!;
  // The check's warnings were given by the check; the booking gives none of its own from the cells.
  return { prepared: { ok: true, group, request, warnings: [] }, key: line.key, request };
}
