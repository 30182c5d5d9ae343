/**
 * Streaming reader of a shipment CSV (csv-parse): UTF-8 with or without BOM, CRLF or LF, quoted
 * newlines, `,` `;` or tab as delimiter (sniffed from the header line). Memory stays flat: rows
 * are yielded one at a time as the file is read. Anything that makes the file unreadable as a
 * whole (not found, empty, binary, not UTF-8, broken quoting, no header) is an ImportFileError
 * that names the line.
 */
import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { Transform, pipeline, type TransformCallback } from 'node:stream';
import { parse, type CsvError } from 'csv-parse';
import { restoreFormulaCell } from '../csvCells.js';
import { resolveHeader, type CsvHeader } from './columns.js';
import type { CsvRow } from './shipmentRows.js';

export class ImportFileError extends Error {
  constructor(
    message: string,
    /** usage: the command line names no usable file; rejected: the file's content is unusable. */
    readonly kind: 'usage' | 'rejected' = 'rejected',
  ) {
    super(message);
    this.name = 'ImportFileError';
  }
}

export interface FileIdentity {
  size: number;
  mtimeMs: number;
}

export async function inspectCsvFile(path: string): Promise<FileIdentity> {
  let info;
  try {
    info = await stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ImportFileError(code === 'ENOENT' ? `${path}: no such file` : `cannot read ${path}: ${(error as Error).message}`, 'usage');
  }
  if (info.isDirectory()) throw new ImportFileError(`${path} is a directory, not a CSV file`, 'usage');
  if (info.size === 0) throw new ImportFileError(`${path} is empty: a shipment CSV needs a header row and at least one row`);
  return { size: info.size, mtimeMs: info.mtimeMs };
}

export interface CsvReading {
  header: CsvHeader;
  delimiter: string;
  /** The file started with a UTF-8 byte order mark (kept on the reject file, for Excel). */
  bom: boolean;
  /** Data rows; blank lines are skipped (their line numbers still count). */
  rows: AsyncIterable<CsvRow>;
  bytesRead(): number;
  /** SHA-256 (hex) of the bytes read so far: of the whole file once the rows are read to the end. */
  digest(): string;
  /** Stops reading (the file is closed); needed only when the rows are not read to the end. */
  close(): void;
}

const SNIFF_BYTES = 64 * 1024;
/** A record longer than this is a runaway quote, not a shipment line. */
const MAX_RECORD_BYTES = 64 * 1024;
const DELIMITERS = [',', ';', '\t'] as const;

export async function openCsvFile(path: string): Promise<CsvReading> {
  const head = await readHead(path);
  const bom = head.length >= 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf;
  const delimiter = sniffDelimiter(head.toString('utf8', bom ? 3 : 0));

  const guard = new TextGuard(path);
  const parser = parse({ delimiter, bom: true, relax_column_count: true, trim: true, max_record_size: MAX_RECORD_BYTES });
  const source = createReadStream(path, { highWaterMark: 256 * 1024 });
  pipeline(source, guard, parser, () => undefined);

  const records = parser[Symbol.asyncIterator]() as AsyncIterator<string[]>;
  let nextLine = 1;
  const read = async (): Promise<CsvRow | undefined> => {
    for (;;) {
      let result: IteratorResult<string[]>;
      try {
        result = await records.next();
      } catch (error) {
        throw asFileError(error, path, nextLine);
      }
      if (result.done) return undefined;
      const cells = result.value;
      // Cells that shipper's own CSVs escaped against formula injection read back as they were.
      const row = { line: nextLine, cells: cells.map(restoreFormulaCell) };
      nextLine += 1 + newlinesIn(cells);
      if (cells.every((cell) => cell.trim() === '')) continue;
      return row;
    }
  };

  const close = () => {
    source.destroy();
    parser.destroy();
  };
  const headerRow = await read().catch((error: unknown) => {
    close();
    throw error;
  });
  if (!headerRow) throw new ImportFileError(`${path} has no header row (only blank lines)`);
  const resolved = resolveHeader(headerRow.cells);
  if (!resolved.ok) {
    close();
    throw new ImportFileError(`${path} line ${headerRow.line}: ${resolved.message}`);
  }

  return {
    header: resolved.header,
    delimiter,
    bom,
    bytesRead: () => guard.bytes,
    digest: () => guard.hash.copy().digest('hex'),
    close,
    rows: {
      async *[Symbol.asyncIterator]() {
        for (let row = await read(); row; row = await read()) yield row;
      },
    },
  };
}

async function readHead(path: string): Promise<Buffer> {
  const handle = await open(path, 'r').catch((error: Error) => {
    throw new ImportFileError(`cannot read ${path}: ${error.message}`, 'usage');
  });
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The delimiter that the header line uses most (column names never contain one). */
export function sniffDelimiter(text: string): string {
  const end = text.search(/\r|\n/);
  const firstLine = (end === -1 ? text : text.slice(0, end)).replace(/"[^"]*"/g, '');
  let best: string = ',';
  let bestCount = 0;
  for (const candidate of DELIMITERS) {
    const count = firstLine.split(candidate).length - 1;
    if (count > bestCount) {
      best = candidate;
      bestCount = count;
    }
  }
  return best;
}

function newlinesIn(cells: string[]): number {
  let count = 0;
  for (const cell of cells) {
    for (let at = cell.indexOf('\n'); at !== -1; at = cell.indexOf('\n', at + 1)) count++;
  }
  return count;
}

const CSV_PROBLEMS: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: 'a quoted value is never closed (a missing ")',
  CSV_INVALID_CLOSING_QUOTE: 'text right after a closing quote; inside a quoted value write a quote as ""',
  CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE: 'text right after a closing quote; inside a quoted value write a quote as ""',
  CSV_INVALID_OPENING_QUOTE: 'a quote in the middle of an unquoted value; quote the whole value and write the quote as ""',
  CSV_MAX_RECORD_SIZE: `a row longer than ${MAX_RECORD_BYTES / 1024} KB (is a quote left open?)`,
};

function asFileError(error: unknown, path: string, line: number): ImportFileError {
  if (error instanceof ImportFileError) return error;
  const { code, lines } = error as CsvError & { lines?: number };
  // An unclosed quote is found at the end of the file: the row it opened is the useful line. Other
  // problems are found where they are.
  const at = code !== 'CSV_QUOTE_NOT_CLOSED' && typeof lines === 'number' && lines > line ? lines : line;
  if (code && code in CSV_PROBLEMS) return new ImportFileError(`${path} line ${at}: ${CSV_PROBLEMS[code]}; nothing was imported`);
  return new ImportFileError(`${path} line ${at}: ${(error as Error).message}`);
}

/**
 * Passes the file's bytes through unchanged while checking that they are UTF-8 text: a NUL byte
 * or an invalid sequence stops the read with an error naming the line. Counts bytes for progress.
 */
class TextGuard extends Transform {
  bytes = 0;
  readonly hash = createHash('sha256');
  private lines = 1;
  private carry: Buffer = Buffer.alloc(0);

  constructor(private readonly path: string) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (this.bytes === 0 && chunk.length >= 2 && ((chunk[0] === 0xff && chunk[1] === 0xfe) || (chunk[0] === 0xfe && chunk[1] === 0xff))) {
      return callback(new ImportFileError(`${this.path} is UTF-16 text; save it as "CSV UTF-8" and import that`));
    }
    this.bytes += chunk.length;
    this.hash.update(chunk);
    const data = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
    // A multi-byte character may straddle two chunks: check up to the last complete one.
    const complete = data.length - incompleteTail(data);
    const body = data.subarray(0, complete);
    const nul = body.indexOf(0);
    if (nul !== -1) {
      return callback(new ImportFileError(`${this.path} is not a CSV text file: binary data (a NUL byte) on line ${this.lines + countNewlines(body, nul)}`));
    }
    if (!isUtf8(body)) {
      const text = body.toString('utf8');
      const bad = text.indexOf('\uFFFD');
      const line = this.lines + (text.slice(0, Math.max(0, bad)).split('\n').length - 1);
      return callback(new ImportFileError(`${this.path} is not UTF-8 text (invalid bytes on line ${line}); save it as "CSV UTF-8" and import that`));
    }
    this.lines += countNewlines(body, body.length);
    this.carry = Buffer.from(data.subarray(complete));
    callback(null, body);
  }

  override _flush(callback: TransformCallback): void {
    if (this.carry.length > 0) {
      return callback(new ImportFileError(`${this.path} is not UTF-8 text (the file ends inside a character on line ${this.lines})`));
    }
    callback();
  }
}

function countNewlines(buffer: Buffer, end: number): number {
  let count = 0;
  for (let at = buffer.indexOf(10); at !== -1 && at < end; at = buffer.indexOf(10, at + 1)) count++;
  return count;
}

/** How many bytes at the end of `data` start a UTF-8 character whose remaining bytes have not arrived yet. */
function incompleteTail(data: Buffer): number {
  for (let back = 1; back <= Math.min(3, data.length); back++) {
    const byte = data[data.length - back]!;
    if ((byte & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead byte
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needed > back ? back : 0;
  }
  return 0;
}
