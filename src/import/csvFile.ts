/**
 * Streaming reader of a shipment CSV (csv-parse) as spreadsheets and ERP exports write them:
 * UTF-8 with or without BOM, Windows-1252 (Excel's "CSV (Comma delimited)"), UTF-16 LE or BE with
 * a BOM (Excel's "Unicode Text", tab-delimited); CRLF or LF, quoted newlines, `,` `;` or tab as
 * delimiter (sniffed from the header line). Memory stays flat: rows are yielded one at a time as
 * the file is read. Anything that makes the file unreadable as a whole (not found, empty, binary,
 * not text in one of those encodings, broken quoting, no header) is an ImportFileError that names
 * the line.
 *
 * The encoding: the byte order mark's; else UTF-8 when the first line with non-ASCII bytes is
 * valid UTF-8; else Windows-1252 when those bytes are plausible text; `encoding` forces one. Every
 * byte is checked against that encoding as it is read, so a file that is none of these, or that
 * switches encoding half-way, is refused with its line: never read as mojibake.
 */
import { isAscii, isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { Transform, pipeline, type TransformCallback } from 'node:stream';
import { TextDecoder } from 'node:util';
import { parse, type CsvError } from 'csv-parse';
import { restoreFormulaCell } from '../csvCells.js';
import { resolveHeader, type CsvHeader } from './columns.js';
import type { CsvRow } from './rows.js';
import { ShipperError, type ErrorCode } from '../domain/errors.js';

export class ImportFileError extends ShipperError {
  readonly code: ErrorCode;

  constructor(
    message: string,
    /** usage: the command line names no usable file; rejected: the file's content is unusable. */
    readonly kind: 'usage' | 'rejected' = 'rejected',
  ) {
    super(message);
    this.name = 'ImportFileError';
    this.code = kind === 'usage' ? 'INPUT_FILE' : 'BAD_CSV';
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
  // A FIFO or a device (its size 0) would block or never end.
  if (!info.isFile()) throw new ImportFileError(`${path} is not a regular file (a named pipe, a socket or a device)`, 'usage');
  if (info.size === 0) throw new ImportFileError(`${path} is empty: a shipment CSV needs a header row and at least one row`);
  return { size: info.size, mtimeMs: info.mtimeMs };
}

export const CSV_ENCODINGS = ['utf8', 'utf16le', 'utf16be', 'windows-1252'] as const;
export type CsvEncoding = (typeof CSV_ENCODINGS)[number];

/** How each encoding is named in messages. */
export const ENCODING_NAMES: Record<CsvEncoding, string> = {
  utf8: 'UTF-8',
  utf16le: 'UTF-16 LE',
  utf16be: 'UTF-16 BE',
  'windows-1252': 'Windows-1252',
};

export interface CsvOpenOptions {
  /** Read the file in this encoding (--encoding): no detection, and no check for a second encoding. */
  encoding?: CsvEncoding | undefined;
}

export interface CsvReading {
  header: CsvHeader;
  delimiter: string;
  /** The file's encoding (forced or detected); rows and header are decoded text whatever it is. */
  encoding: CsvEncoding;
  /** The file started with a byte order mark (UTF-8 or UTF-16). */
  bom: boolean;
  /** Data rows; blank lines are skipped (their line numbers still count). */
  rows: AsyncIterable<CsvRow>;
  /**
   * How much of the file the rows handed out so far cover, 0 to 1 (the reading runs ahead of the
   * rows by a buffer, so the bytes read would say 100 % for a small file not yet checked).
   */
  fractionRead(): number;
  /** SHA-256 (hex) of the bytes read so far: of the whole file once the rows are read to the end. */
  digest(): string;
  /** Stops reading (the file is closed); needed only when the rows are not read to the end. */
  close(): void;
}

const SNIFF_BYTES = 64 * 1024;
/** A record longer than this is a runaway quote, not a shipment line. */
const MAX_RECORD_BYTES = 64 * 1024;
const SCAN_BYTES = 256 * 1024;
const DELIMITERS = [',', ';', '\t'] as const;
const SAVE_AS_UTF8 = 'save it as "CSV UTF-8" and import that';

export async function openCsvFile(path: string, options: CsvOpenOptions = {}): Promise<CsvReading> {
  const fileSize = (await inspectCsvFile(path)).size;
  const head = await readHead(path);
  refuseWorkbook(path, head);
  const detected = await detectEncoding(path, head, options.encoding);
  const delimiter = sniffDelimiter(headText(head, detected));

  const decoding = new Decoding(path, detected, detected.encoding === 'windows-1252' ? await windows1252Decoder() : undefined);
  // A parse error is held back until the rows before it are handed out: the stream would drop the
  // rows csv-parse has parsed but not yet handed over, and with them the count of lines that names
  // the bad row's (csv-parse's own count takes a CRLF inside quotes for two lines).
  let parseError: (CsvError & { records: number }) | undefined;
  const parser = parse({
    delimiter,
    bom: true,
    relax_column_count: true,
    trim: true,
    // A quote inside an unquoted value is kept as text: `="02134"`, the cell exports write to keep
    // a ZIP's zeros, reaches rows.ts whole (which reads the text inside) instead of failing the file.
    relax_quotes: true,
    max_record_size: MAX_RECORD_BYTES,
    skip_records_with_error: true,
    on_skip: (error) => {
      parseError ??= error as CsvError & { records: number };
    },
  });
  const source = createReadStream(path, { highWaterMark: SCAN_BYTES });
  pipeline(source, decoding, parser, () => undefined);

  const records = parser[Symbol.asyncIterator]() as AsyncIterator<string[]>;
  let nextLine = 1;
  let recordsRead = 0;
  /** The header row's cells once read: a parse error names its column by them, not by a field number. */
  const header: { names?: string[] } = {};
  /** Text of the rows handed out (cells and separators; quotes and trimmed blanks are not counted). */
  let charactersRead = 0;
  const read = async (): Promise<CsvRow | undefined> => {
    for (;;) {
      if (parseError && recordsRead >= parseError.records) throw asFileError(parseError, path, nextLine, header.names);
      let result: IteratorResult<string[]>;
      try {
        result = await records.next();
      } catch (error) {
        throw asFileError(error, path, nextLine, header.names);
      }
      if (result.done) {
        if (parseError) throw asFileError(parseError, path, nextLine, header.names);
        return undefined;
      }
      recordsRead++;
      // One pass over the cells (this runs for every row): what they count, newlines, whether any has text.
      const cells = result.value;
      const line = nextLine;
      let blank = true;
      for (let index = 0; index < cells.length; index++) {
        const cell = cells[index]!;
        charactersRead += cell.length + 1;
        if (cell === '') continue;
        if (blank && cell.trim() !== '') blank = false;
        for (let at = cell.indexOf('\n'); at !== -1; at = cell.indexOf('\n', at + 1)) nextLine++;
        // Cells that shipper's own CSVs escaped against formula injection read back as they were.
        if (cell.charCodeAt(0) === 39 /* ' */) cells[index] = restoreFormulaCell(cell);
      }
      nextLine++;
      if (blank) continue;
      // A copy of exactly its length: csv-parse's array, grown by push, has room for twice as many (rows a short file's check keeps).
      return { line, cells: cells.slice() };
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
  header.names = headerRow.cells;
  const resolved = resolveHeader(headerRow.cells);
  if (!resolved.ok) {
    close();
    throw new ImportFileError(`${path} line ${headerRow.line}: ${resolved.message}`);
  }

  return {
    header: resolved.header,
    delimiter,
    encoding: detected.encoding,
    bom: detected.bom !== undefined,
    // An estimate: the decoded text's length is the file's in UTF-8; in another encoding it is scaled by the part decoded so far.
    fractionRead: () => (decoding.bytes === 0 ? 0 : Math.min(1, charactersRead / ((decoding.decodedBytes * fileSize) / decoding.bytes))),
    digest: () => decoding.hash.copy().digest('hex'),
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

// ---------------------------------------------------------------------------------------------
// Which encoding

/** The encoding a byte order mark at the start of the file names, and the mark's length. */
export function byteOrderMark(bytes: Uint8Array): { encoding: CsvEncoding; length: number } | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: 'utf8', length: 3 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf16le', length: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf16be', length: 2 };
  return undefined;
}

/** Bytes that Windows-1252 leaves undefined: a file that has them is not Windows-1252 text. */
const UNDEFINED_IN_WINDOWS_1252 = [0x81, 0x8d, 0x8f, 0x90, 0x9d];

/**
 * The encoding of a file without a byte order mark, judged on its first line that has non-ASCII
 * bytes (from its first such byte): UTF-8 when that is valid UTF-8; else Windows-1252 when it is
 * plausible text there (no byte that Windows-1252 leaves undefined, no control character but
 * tab); else undefined: text in neither, which the reader then refuses with the line.
 */
export function encodingOfLine(line: Uint8Array): 'utf8' | 'windows-1252' | undefined {
  if (isUtf8(line)) return 'utf8';
  for (const byte of line) {
    if ((byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) || byte === 0x7f || UNDEFINED_IN_WINDOWS_1252.includes(byte)) return undefined;
  }
  return 'windows-1252';
}

interface DetectedEncoding {
  encoding: CsvEncoding;
  /** The byte order mark the file starts with, if any. */
  bom: { encoding: CsvEncoding; length: number } | undefined;
  /**
   * forced: --encoding; mark: the byte order mark; ascii: no byte above 0x7F (read as UTF-8);
   * line: the first non-ASCII line decided; neither: that line is neither UTF-8 nor plausible
   * Windows-1252 (read as UTF-8, which refuses it).
   */
  how: 'forced' | 'mark' | 'ascii' | 'line' | 'neither';
}

async function detectEncoding(path: string, head: Buffer, forced: CsvEncoding | undefined): Promise<DetectedEncoding> {
  const bom = byteOrderMark(head);
  if (forced) {
    if (bom && bom.encoding !== forced) {
      throw new ImportFileError(
        `${path} starts with a ${ENCODING_NAMES[bom.encoding]} byte order mark, so it is not ${ENCODING_NAMES[forced]}; leave out --encoding (the mark says which it is) or give --encoding ${bom.encoding}`,
        'usage',
      );
    }
    return { encoding: forced, bom, how: 'forced' };
  }
  if (bom) return { encoding: bom.encoding, bom, how: 'mark' };
  refuseUtf16WithoutMark(path, head);
  const line = await firstNonAsciiLine(path);
  if (!line) return { encoding: 'utf8', bom, how: 'ascii' };
  const encoding = encodingOfLine(line);
  return encoding ? { encoding, bom, how: 'line' } : { encoding: 'utf8', bom, how: 'neither' };
}

/**
 * The file's first line with a byte above 0x7F, from that byte to the end of the line (at most
 * one record's length, cut before a character the window splits); undefined for an ASCII file.
 * Reads only up to that line: most files have a name with an accent in their first rows.
 */
async function firstNonAsciiLine(path: string): Promise<Buffer | undefined> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(SCAN_BYTES);
    for (let position = 0; ;) {
      const { bytesRead } = await handle.read(buffer, 0, SCAN_BYTES, position);
      if (bytesRead === 0) return undefined;
      const chunk = buffer.subarray(0, bytesRead);
      if (!isAscii(chunk)) {
        let at = 0;
        while (chunk[at]! < 0x80) at++;
        const window = Buffer.alloc(MAX_RECORD_BYTES);
        const { bytesRead: length } = await handle.read(window, 0, MAX_RECORD_BYTES, position + at);
        const end = window.subarray(0, length).indexOf(0x0a);
        if (end !== -1) return window.subarray(0, end);
        return window.subarray(0, length === MAX_RECORD_BYTES ? length - incompleteTail(window) : length);
      }
      position += bytesRead;
    }
  } finally {
    await handle.close();
  }
}

/** A workbook saved under a .csv name: say what it is and what to do, rather than "binary data". */
function refuseWorkbook(path: string, head: Buffer): void {
  const starts = (bytes: number[]) => bytes.every((byte, index) => head[index] === byte);
  const fix = 'in Excel choose File > Save As > "CSV UTF-8 (Comma delimited)" and import that';
  if (starts([0x50, 0x4b, 0x03, 0x04])) throw new ImportFileError(`${path} is a ZIP archive (an Excel .xlsx workbook?), not CSV text; ${fix}`);
  if (starts([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) throw new ImportFileError(`${path} is an Excel 97-2003 workbook (.xls), not CSV text; ${fix}`);
}

/** ASCII text with a NUL after (or before) every character is UTF-16 without its mark: say so, with the flag that reads it. */
function refuseUtf16WithoutMark(path: string, head: Buffer): void {
  const pairs = Math.min(256, Math.floor(head.length / 2));
  if (pairs < 4) return;
  let little = 0;
  let big = 0;
  for (let pair = 0; pair < pairs; pair++) {
    const [first, second] = [head[2 * pair]!, head[2 * pair + 1]!];
    if (first !== 0 && second === 0) little++;
    else if (first === 0 && second !== 0) big++;
  }
  const guess = little >= pairs * 0.9 ? 'utf16le' : big >= pairs * 0.9 ? 'utf16be' : undefined;
  if (guess) {
    throw new ImportFileError(`${path} looks like ${ENCODING_NAMES[guess]} text without a byte order mark; import it with --encoding ${guess}`);
  }
}

/** The start of the file as text, for sniffing the delimiter (the header line is what counts). */
function headText(head: Buffer, detected: DetectedEncoding): string {
  const body = head.subarray(detected.bom?.length ?? 0);
  switch (detected.encoding) {
    case 'utf8':
      return body.toString('utf8');
    case 'windows-1252':
      return body.toString('latin1'); // the delimiters are ASCII, the same in both
    case 'utf16le':
      return body.toString('utf16le');
    case 'utf16be':
      return Buffer.from(body.subarray(0, body.length - (body.length % 2)))
        .swap16()
        .toString('utf16le');
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

/** What each csv-parse error means to whoever wrote the file, by its code (without the CSV_ prefix some codes have). */
const CSV_PROBLEMS: Record<string, string> = {
  QUOTE_NOT_CLOSED: 'a quoted value is never closed (a missing ")',
  INVALID_CLOSING_QUOTE: 'text right after a closing quote; inside a quoted value write a quote as ""',
  NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE: 'text right after a closing quote; inside a quoted value write a quote as ""',
  INVALID_OPENING_QUOTE: 'a quote in the middle of an unquoted value; quote the whole value and write the quote as ""',
  MAX_RECORD_SIZE: `a row longer than ${MAX_RECORD_BYTES / 1024} KB (is a quote left open?)`,
};

/**
 * The file error of a csv-parse error: its line and the column by its header (csv-parse says
 * "field 10", which nobody can find in a spreadsheet), and what it means; never csv-parse's own
 * text, which quotes the cell.
 */
function asFileError(error: unknown, path: string, line: number, columnNames: readonly string[] | undefined): ImportFileError {
  if (error instanceof ImportFileError) return error;
  const { code, index } = error as CsvError & { index?: number };
  // An unclosed quote is found at the end of the file: the row it opened is the useful line.
  const at = line;
  if (code === 'CSV_MAX_RECORD_SIZE' && at === 1) {
    return new ImportFileError(`${path} line 1: the header row is longer than ${MAX_RECORD_BYTES / 1024} KB; it must name the columns, e.g. refNumber,shipper,...`);
  }
  const name = typeof index === 'number' ? columnNames?.[index] : undefined;
  const where =
    at === 1 && !columnNames
      ? 'line 1 (the header row)'
      : name
        ? `line ${at}, column ${name}`
        : typeof index === 'number'
          ? `line ${at}, after the last named column`
          : `line ${at}`;
  const problem = (code && CSV_PROBLEMS[code.replace(/^CSV_/, '')]) ?? 'the row is not valid CSV (check its quotes and delimiters)';
  return new ImportFileError(`${path} ${where}: ${problem}; nothing was imported`);
}

// ---------------------------------------------------------------------------------------------
// Decoding, checked byte by byte

interface ByteDecoder {
  write(bytes: Buffer): string;
}

/** iconv-lite's Windows-1252 table (Node's TextDecoder reads windows-1252 as Latin-1: no euro sign, no smart quotes). Loaded only for such files. */
async function windows1252Decoder(): Promise<ByteDecoder> {
  const { default: iconv } = await import('iconv-lite');
  return iconv.getDecoder('windows-1252');
}

/**
 * Passes the file on to csv-parse as UTF-8 text, checking every byte against the encoding: a NUL
 * (binary data), a byte sequence the encoding does not define, or a second encoding half-way stop
 * the read with an error naming the line. Hashes and counts the file's own bytes.
 */
class Decoding extends Transform {
  bytes = 0;
  /** Bytes of UTF-8 text handed on. */
  decodedBytes = 0;
  readonly hash = createHash('sha256');
  /** The line the next byte belongs to (1-based), counted on the decoded text. */
  private lines = 1;
  private carry: Buffer = Buffer.alloc(0);
  /** UTF-8: the first line with non-ASCII text (a later invalid byte means a second encoding). */
  private firstNonAsciiLine: number | undefined;
  private readonly utf16: TextDecoder | undefined;

  constructor(
    private readonly path: string,
    private readonly detected: DetectedEncoding,
    private readonly windows1252: ByteDecoder | undefined,
  ) {
    super();
    const { encoding } = detected;
    // fatal: an unpaired surrogate or a file ending inside a character is an error, not U+FFFD.
    if (encoding === 'utf16le' || encoding === 'utf16be') this.utf16 = new TextDecoder(encoding === 'utf16le' ? 'utf-16le' : 'utf-16be', { fatal: true });
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    this.hash.update(chunk);
    try {
      const text = this.decode(chunk);
      this.decodedBytes += text.length;
      callback(null, text);
    } catch (error) {
      callback(error as Error);
    }
  }

  override _flush(callback: TransformCallback): void {
    try {
      if (this.utf16) {
        const rest = this.decodeUtf16(Buffer.alloc(0), true);
        return callback(null, rest);
      }
      if (this.carry.length > 0) throw this.fail(`is not UTF-8 text (the file ends inside a character on line ${this.lines})`);
      callback();
    } catch (error) {
      callback(error as Error);
    }
  }

  private decode(chunk: Buffer): Buffer {
    switch (this.detected.encoding) {
      case 'utf8':
        return this.checkUtf8(chunk);
      case 'windows-1252':
        return this.decodeWindows1252(chunk);
      default:
        return this.decodeUtf16(chunk, false);
    }
  }

  private fail(problem: string): ImportFileError {
    return new ImportFileError(`${this.path} ${problem}`);
  }

  private binary(line: number): ImportFileError {
    return this.fail(`is not a CSV text file: binary data (a NUL byte) on line ${line}`);
  }

  /** UTF-8 is passed on as it is, up to the last complete character (the rest waits for the next chunk). */
  private checkUtf8(chunk: Buffer): Buffer {
    const data = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
    const complete = data.length - incompleteTail(data);
    const body = data.subarray(0, complete);
    const nul = body.indexOf(0);
    if (nul !== -1) throw this.binary(this.lines + countNewlines(body, nul));
    if (!isUtf8(body)) {
      const text = body.toString('utf8');
      const line = this.lines + countNewlinesIn(text, Math.max(0, text.indexOf('\uFFFD')));
      const before = this.firstNonAsciiLine ?? (isAscii(body) ? undefined : this.lines + countNewlines(body, firstNonAsciiByte(body)));
      if (before !== undefined && before < line) {
        throw this.fail(`mixes two encodings: line ${before} is UTF-8 text, line ${line} is not (Windows-1252?); ${SAVE_AS_UTF8.replace('it', 'the whole file again')}`);
      }
      if (this.detected.how === 'neither') throw this.fail(`is not text in UTF-8 or Windows-1252 (invalid bytes on line ${line}); ${SAVE_AS_UTF8}`);
      throw this.fail(`is not UTF-8 text (invalid bytes on line ${line}); ${SAVE_AS_UTF8}`);
    }
    if (this.firstNonAsciiLine === undefined && !isAscii(body)) this.firstNonAsciiLine = this.lines + countNewlines(body, firstNonAsciiByte(body));
    this.lines += countNewlines(body, body.length);
    this.carry = Buffer.from(data.subarray(complete));
    return body;
  }

  /** One byte, one character: undefined bytes are refused; a line that is valid UTF-8 with multi-byte characters is a second encoding. */
  private decodeWindows1252(chunk: Buffer): Buffer {
    const nul = chunk.indexOf(0);
    if (nul !== -1) throw this.binary(this.lines + countNewlines(chunk, nul));
    if (!isAscii(chunk)) {
      const undefinedAt = Math.min(...UNDEFINED_IN_WINDOWS_1252.map((byte) => chunk.indexOf(byte)).filter((at) => at !== -1));
      if (undefinedAt !== Infinity) {
        const where = `byte 0x${chunk[undefinedAt]!.toString(16).toUpperCase()} on line ${this.lines + countNewlines(chunk, undefinedAt)}`;
        throw this.fail(
          this.detected.how === 'forced'
            ? `is not Windows-1252 text (${where}, a byte that Windows-1252 leaves undefined)`
            : `is not text in UTF-8 or Windows-1252 (${where}); ${SAVE_AS_UTF8}`,
        );
      }
      if (this.detected.how !== 'forced') this.refuseUtf8Line(chunk);
    }
    this.lines += countNewlines(chunk, chunk.length);
    return Buffer.from(this.windows1252!.write(chunk), 'utf8');
  }

  /**
   * A Windows-1252 file whose line is valid UTF-8 with a multi-byte character ("MÃ¼ller" if read
   * as Windows-1252) holds a second encoding. Windows-1252 text is practically never valid UTF-8
   * once it has an accented letter; --encoding windows-1252 skips this check.
   */
  private refuseUtf8Line(chunk: Buffer): void {
    const text = chunk.toString('latin1');
    const multiByte = /[\xC2-\xDF][\x80-\xBF]|[\xE0-\xEF][\x80-\xBF]{2}|[\xF0-\xF4][\x80-\xBF]{3}/g;
    for (let match = multiByte.exec(text); match; match = multiByte.exec(text)) {
      const start = text.lastIndexOf('\n', match.index) + 1;
      const newline = text.indexOf('\n', match.index);
      const end = newline === -1 ? text.length : newline;
      if (isUtf8(chunk.subarray(start, end))) {
        const line = this.lines + countNewlines(chunk, match.index);
        throw this.fail(
          `mixes two encodings: it is Windows-1252 text, but line ${line} is UTF-8; ${SAVE_AS_UTF8.replace('it', 'the whole file again')} (or give --encoding windows-1252 if that line is right)`,
        );
      }
      multiByte.lastIndex = end;
    }
  }

  private decodeUtf16(chunk: Buffer, end: boolean): Buffer {
    let text: string;
    try {
      text = end ? this.utf16!.decode() : this.utf16!.decode(chunk, { stream: true });
    } catch {
      if (end) throw this.fail(`is not ${ENCODING_NAMES[this.detected.encoding]} text (the file ends inside a character on line ${this.lines})`);
      // Find the bad pair for its line: the same bytes decoded without the error (U+FFFD marks it).
      const lenient = new TextDecoder(this.detected.encoding === 'utf16le' ? 'utf-16le' : 'utf-16be').decode(chunk);
      const bad = lenient.indexOf('\uFFFD');
      throw this.fail(`is not ${ENCODING_NAMES[this.detected.encoding]} text (an unpaired surrogate on line ${this.lines + countNewlinesIn(lenient, Math.max(0, bad))})`);
    }
    const nul = text.indexOf('\u0000');
    if (nul !== -1) throw this.binary(this.lines + countNewlinesIn(text, nul));
    this.lines += countNewlinesIn(text, text.length);
    return Buffer.from(text, 'utf8');
  }
}

function countNewlines(buffer: Buffer, end: number): number {
  let count = 0;
  for (let at = buffer.indexOf(10); at !== -1 && at < end; at = buffer.indexOf(10, at + 1)) count++;
  return count;
}

function countNewlinesIn(text: string, end: number): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1 && at < end; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

function firstNonAsciiByte(buffer: Buffer): number {
  let at = 0;
  while (at < buffer.length && buffer[at]! < 0x80) at++;
  return at;
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
