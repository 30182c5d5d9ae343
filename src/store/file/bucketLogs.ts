/**
 * Append-only logs in buckets: how the file store keeps its many small entries (index entries,
 * idempotency records) without a file each. Creating a file allocates an inode, and on a busy ext4
 * file system that is the dearest thing the store does (50 to 500 us a file while others delete
 * files, against a few us to append to a file that exists): a batch of 500 bookings appends a
 * line to a few hundred bucket files instead of creating 1,500 files.
 *
 * A bucket is a file of JSON lines. Lines are only appended, through the journal (journal.ts): a
 * batch's lines for one bucket are one write `{path, lines, at}`, where `at` is the bucket's size
 * before the batch. Applying it, first or again after a crash, cuts the file to `at` and writes
 * the lines there, so a replay never doubles a line nor leaves a torn one in the middle.
 * A reader without the lock may see a line being written: the last line, without its newline, is
 * not read yet. A look-up reads the bucket and parses only the lines of its key; one of those that
 * does not parse is damage (the caller decides what that costs). A bucket holds a few hundred
 * kilobytes at a million records, so a look-up stays one read of one file.
 */
import fs from 'node:fs';
import { join } from 'node:path';
import { StoreError } from '../storeError.js';
import { describeFileError } from '../../fs/durableWrite.js';
import { StoreGeneration } from './generation.js';

/**
 * A journal write (journal.ts) that appends lines to a bucket at `at`, its size before them.
 * Each line is a JSON text (the journal holds them as the elements of an array, unescaped);
 * `closeFirst`: the bucket ends with an unfinished line, which is closed first.
 */
export interface BucketAppend {
  path: string;
  lines: readonly string[];
  at: number;
  closeFirst: boolean;
}

/** The text an append writes at its `at`. */
export function appendText(write: Pick<BucketAppend, 'lines' | 'closeFirst'>): string {
  return `${write.closeFirst ? '\n' : ''}${write.lines.join('\n')}\n`;
}

export class BucketLogs {
  /** Buckets of records read whole (quotes, shipments), each record's last line by its key, while the bucket is unchanged. */
  private readonly keyed = new Map<string, { version: string; read: KeyedLines }>();
  /** What was read of each pending log (pending). */
  private readonly pendingReads = new Map<string, PendingLines>();
  /** The pending logs read in each unit of work holding the lock, or in each run of look-ups (pending). */
  private readonly readInHold = new WeakMap<object, Set<string>>();
  private currentBurst: object | undefined;
  /** Whether the store changed since a file was stat'ed (generation.ts): the stats of look-ups go through it. */
  readonly generation: StoreGeneration;

  /** `options.keepStats`: a long-running server's (see StoreGeneration). */
  constructor(
    private readonly root: string,
    options: { keepStats?: boolean } = {},
  ) {
    this.generation = new StoreGeneration(root, () => this.burst(), options.keepStats);
  }

  /**
   * The last line of `key` in a bucket of records whose lines start `{"<field>":"<key>",`: the
   * bucket is read whole once and its lines kept by key while it is unchanged (same inode, size
   * and mtime), so reading each record of a bucket reads the bucket once. Undefined when there is
   * none. 'damaged' when a line that is not a record's may hold the key's newest record: one
   * that names the key after its last good line, or any, when the key has no good line. A record
   * whose own line is garbled is damaged; the others of its bucket still read.
   */
  lastLine(relative: string, field: string, key: string): string | undefined | 'damaged' {
    const stat = this.statOf(`${this.root}/${relative}`);
    if (!stat) return undefined;
    const version = `${stat.ino} ${stat.size} ${stat.mtimeMs}`;
    let cached = this.keyed.get(relative);
    if (cached?.version !== version) {
      cached = { version, read: this.keyedLines(relative, field) ?? { lines: new Map(), garbled: [] } };
      this.keyed.delete(relative);
      this.keyed.set(relative, cached);
      if (this.keyed.size > KEYED_BUCKETS) this.keyed.delete(this.keyed.keys().next().value!);
    }
    return lastOf(cached.read, key);
  }

  /**
   * Every record's last line in a bucket of records (by its key; see lastLine), and the lines that
   * are not a record's, in one read: a rebuild reads each bucket once. Undefined when the bucket
   * does not exist.
   */
  keyedLines(relative: string, field: string): KeyedLines | undefined {
    const bytes = this.read(relative);
    if (bytes === undefined) return undefined;
    const whole = bytes.lastIndexOf(NEWLINE) + 1;
    const text = bytes.toString('utf8', 0, whole);
    const start = `{"${field}":"`;
    const lines = new Map<string, { text: string; at: number }>();
    const garbled: Array<{ text: string; at: number }> = [];
    let at = 0;
    for (let from = 0; from < text.length; at++) {
      const end = text.indexOf('\n', from);
      const line = text.slice(from, end);
      from = end + 1;
      if (line.length === 0) continue;
      const keyEnd = line.startsWith(start) ? line.indexOf('"', start.length) : -1;
      if (keyEnd > start.length && line[keyEnd + 1] === ',') {
        const key = line.slice(start.length, keyEnd);
        lines.delete(key);
        lines.set(key, { text: line, at });
      } else garbled.push({ text: line, at });
    }
    // The last line, without its newline, is being written; unless it cannot be the start of one.
    const tail = bytes.toString('utf8', whole, Math.min(bytes.length, whole + start.length));
    if (!beginsLine(tail, start)) garbled.push({ text: bytes.toString('utf8', whole), at });
    return { lines, garbled };
  }

  /**
   * The whole lines of the bucket at `relative` (to the store) that start with `start` (each
   * line's first field, a key, as JSON writes it), as they are written: undefined when the bucket
   * does not exist, 'damaged' when any line does not start with `lineStart` (the first field's
   * name, common to all). A look-up reads the bucket and searches it; no line is parsed.
   */
  findLines(relative: string, lineStart: string, start: string): string[] | undefined | 'damaged' {
    const found = this.findLinesSince(relative, lineStart, start, 0);
    return found === undefined || found === 'damaged' ? found : found.lines;
  }

  /**
   * As findLines, in the whole lines from byte `from` on (a line's start: where an earlier read
   * ended, `whole`), and where the whole lines end now: a caller that keeps what it read of a
   * bucket reads only what was appended since.
   */
  findLinesSince(relative: string, lineStart: string, start: string, from: number): { lines: string[]; whole: number } | undefined | 'damaged' {
    // Only the bytes from `from` on are read: a bucket that grew is read from where the last read ended.
    const bytes = this.read(relative, from);
    if (bytes === undefined) return undefined;
    if (bytes === 'shorter') return 'damaged';
    // Searched as bytes (UTF-8 keeps ASCII bytes for ASCII only): only the lines found are decoded.
    // The last line, without its newline, is being written (or was torn, and is never read).
    const whole = bytes.lastIndexOf(NEWLINE) + 1;
    if (!wellFormed(bytes, 0, whole, Buffer.from(lineStart)) || !beginsLine(bytes.toString('utf8', whole), lineStart)) return 'damaged';
    const first = Buffer.from(start);
    const needle = Buffer.from(`\n${start}`);
    const next = (after: number) => {
      const at = bytes.indexOf(needle, after);
      return at < 0 || at + needle.length > whole ? -1 : at + 1;
    };
    const found: string[] = [];
    const startsHere = whole >= first.length && bytes.subarray(0, first.length).equals(first);
    for (let at = startsHere ? 0 : next(0); at >= 0;) {
      const end = bytes.indexOf(NEWLINE, at);
      found.push(bytes.toString('utf8', at, end));
      at = next(end);
    }
    return { lines: found, whole: from + whole };
  }

  /** Every complete line of the bucket at `relative`, parsed (a rebuild or an export reads them all); 'damaged' when one does not parse. */
  all(relative: string): unknown[] | undefined | 'damaged' {
    const text = this.read(relative)?.toString('utf8');
    if (text === undefined) return undefined;
    const lines: unknown[] = [];
    for (const line of text.slice(0, text.lastIndexOf('\n') + 1).split('\n')) {
      if (line.length === 0) continue;
      try {
        lines.push(JSON.parse(line));
      } catch {
        return 'damaged';
      }
    }
    return lines;
  }

  /** The first field of each complete line of a bucket (the ids a bucket of records holds), without parsing the lines; none when it does not exist. */
  firstFields(relative: string, name: string): string[] {
    const text = this.read(relative)?.toString('utf8') ?? '';
    const field = new RegExp(`^\\{"${name}":"([^"\\\\]*)"`, 'gm');
    const whole = text.slice(0, text.lastIndexOf('\n') + 1);
    return [...whole.matchAll(field)].map((match) => match[1]!);
  }

  /**
   * The first field's values of a bucket's whole lines (`{"h":"ID",...`: the keys it holds), read
   * without parsing a line: undefined when the bucket does not exist, 'damaged' when a line does
   * not start with `lineStart` (as findLines).
   */
  keysIn(relative: string, lineStart: string): string[] | undefined | 'damaged' {
    const bytes = this.read(relative);
    if (bytes === undefined) return undefined;
    const whole = bytes.lastIndexOf(NEWLINE) + 1;
    if (!wellFormed(bytes, 0, whole, Buffer.from(lineStart)) || !beginsLine(bytes.toString('utf8', whole), lineStart)) return 'damaged';
    const keys: string[] = [];
    const text = bytes.toString('utf8', 0, whole);
    for (let from = 0; from < text.length;) {
      const end = text.indexOf('\n', from);
      const start = keyedStart(text.slice(from, end), lineStart);
      from = end + 1;
      if (start === undefined) continue;
      keys.push(start.slice(lineStart.length + 1, -2));
    }
    return keys;
  }

  /**
   * A pending log (see PendingLines) read up to date: what this process read of it before is kept
   * while the file keeps its inode and only grows, so a look-up reads only the lines appended since
   * (usually none: one stat). Undefined when the log does not exist. `lockHold`: a unit of work
   * holding the store's lock, in which nothing else writes: once read in it, the log is not
   * stat'ed again until its commit.
   */
  pending(relative: string, lineStart: string, lockHold?: object): PendingLines | undefined {
    const span = lockHold ?? this.burst();
    const held = this.readInHold.get(span);
    if (held?.has(relative)) return this.pendingReads.get(relative);
    const read = this.pendingNow(relative, lineStart);
    if (held) held.add(relative);
    else this.readInHold.set(span, new Set([relative]));
    return read;
  }

  /**
   * The look-ups of one synchronous run of this process (until its event loop turns: a chunk of
   * an import's check, a batch of a server's): a pending log read in it is taken as it was then,
   * as if all of them were made at once, at its start (another process's write is seen by the
   * next run, as it would be had it come a moment later). A write by this process ends the run.
   */
  burst(): object {
    if (!this.currentBurst) {
      const burst = {};
      this.currentBurst = burst;
      setImmediate(() => {
        if (this.currentBurst === burst) this.currentBurst = undefined;
      });
    }
    return this.currentBurst;
  }

  /**
   * After this process wrote to the store (under its lock): the next look-up reads anew, and other
   * processes learn of the change by the store's generation (before it is acknowledged).
   */
  endBurst(): void {
    this.currentBurst = undefined;
    this.generation.bump(true);
  }

  /** A file's stat, undefined when it does not exist (through the generation); any other failure is the store's. */
  private statOf(file: string): fs.Stats | undefined {
    try {
      return this.generation.stat(file);
    } catch (error) {
      throw new StoreError(`cannot read ${file}: ${describeFileError(error)}`, file);
    }
  }

  private pendingNow(relative: string, lineStart: string): PendingLines | undefined {
    const file = `${this.root}/${relative}`;
    const stat = this.statOf(file);
    if (!stat) {
      this.pendingReads.delete(relative);
      return undefined;
    }
    let read = this.pendingReads.get(relative);
    // Replaced (a merge writes an empty one), cut, or rewritten at its size by hand: read again from the start.
    if (!read || read.ino !== stat.ino || stat.size < read.size || (stat.size === read.size && stat.mtimeMs !== read.mtimeMs)) read = new PendingLines(stat.ino);
    if (stat.size !== read.size) read.take(this.readFrom(file, read.whole, stat.size), lineStart);
    read.mtimeMs = stat.mtimeMs;
    this.pendingReads.set(relative, read);
    return read;
  }

  /** The appends of lines to buckets: one journal write a bucket, its lines in their order. */
  appendAll(lines: Iterable<readonly [bucket: string, line: string]>): BucketAppend[] {
    const byBucket = new Map<string, string[]>();
    for (const [bucket, line] of lines) {
      const added = byBucket.get(bucket);
      if (added) added.push(line);
      else byBucket.set(bucket, [line]);
    }
    return [...byBucket].map(([bucket, added]) => this.append(bucket, added));
  }

  /** The journal write that appends `lines` (JSON texts without newlines) to the bucket at `relative`. */
  append(relative: string, lines: readonly string[]): BucketAppend {
    const { size, endsClean } = this.tail(relative);
    // A line left unfinished (never acknowledged) is closed first, so that it cannot swallow the next.
    return { path: relative, lines, at: size, closeFirst: !endsClean };
  }

  /** A bucket's bytes; undefined when it does not exist. */
  private read(relative: string): Buffer | undefined;
  /** A bucket's bytes from `from` on; 'shorter' when it no longer reaches there. */
  private read(relative: string, from: number): Buffer | undefined | 'shorter';
  private read(relative: string, from = 0): Buffer | undefined | 'shorter' {
    const file = join(this.root, relative);
    try {
      // A bucket not made yet is the common case of a new store's look-ups: asked without the exception a failed open costs.
      if (!fs.statSync(file, { throwIfNoEntry: false })) return undefined;
      if (from === 0) return fs.readFileSync(file);
      const fd = fs.openSync(file, 'r');
      try {
        const size = fs.fstatSync(fd).size;
        return size < from ? 'shorter' : readRange(fd, from, size);
      } finally {
        fs.closeSync(fd);
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new StoreError(`cannot read ${file}: ${describeFileError(error)}`, file);
    }
  }

  /** The bytes of `file` from `from` to `to` (its size when stat'ed; fewer if it was cut since). */
  private readFrom(file: string, from: number, to: number): Buffer {
    try {
      const fd = fs.openSync(file, 'r');
      try {
        return readRange(fd, from, to);
      } finally {
        fs.closeSync(fd);
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return Buffer.alloc(0);
      throw new StoreError(`cannot read ${file}: ${describeFileError(error)}`, file);
    }
  }

  /** A bucket's size and whether it ends a line, without reading it (the created index's window grows by every batch). */
  private tail(relative: string): { size: number; endsClean: boolean } {
    const file = join(this.root, relative);
    let fd: number;
    try {
      if (!fs.statSync(file, { throwIfNoEntry: false })) return { size: 0, endsClean: true };
      fd = fs.openSync(file, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { size: 0, endsClean: true };
      throw new StoreError(`cannot read ${file}: ${describeFileError(error)}`, file);
    }
    try {
      const { size } = fs.fstatSync(fd);
      if (size === 0) return { size, endsClean: true };
      const last = Buffer.alloc(1);
      fs.readSync(fd, last, 0, 1, size - 1);
      return { size, endsClean: last[0] === 0x0a };
    } catch (error) {
      throw new StoreError(`cannot read ${file}: ${describeFileError(error)}`, file);
    } finally {
      fs.closeSync(fd);
    }
  }
}

/** A bucket of records read by key: each key's last line (and its position), and the lines that are no record's. */
export interface KeyedLines {
  lines: Map<string, { text: string; at: number }>;
  garbled: Array<{ text: string; at: number }>;
}

/** The key's last line, or 'damaged' when a garbled line may be its newer one (see BucketLogs.lastLine). */
export function lastOf({ lines, garbled }: KeyedLines, key: string): string | undefined | 'damaged' {
  const line = lines.get(key);
  if (garbled.length === 0) return line?.text;
  if (!line) return 'damaged';
  const named = JSON.stringify(key);
  return garbled.some((other) => other.at > line.at && other.text.includes(named)) ? 'damaged' : line.text;
}

/** Whether every line between `from` and `whole` (whole lines) is empty or starts with `lineStart`: a file garbled or replaced is noticed without parsing each line. */
function wellFormed(bytes: Buffer, from: number, whole: number, lineStart: Buffer): boolean {
  const count = (needle: Buffer | number) => {
    let found = 0;
    // A match counts when it lies within the whole lines (not in the line being written).
    const length = typeof needle === 'number' ? 1 : needle.length;
    for (let at = bytes.indexOf(needle, from); at >= 0 && at + length <= whole; at = bytes.indexOf(needle, at + 1)) found++;
    return found;
  };
  const startsWith = (prefix: Buffer) => whole - from >= prefix.length && bytes.subarray(from, from + prefix.length).equals(prefix);
  const lines = count(NEWLINE);
  const started = (startsWith(lineStart) ? 1 : 0) + count(Buffer.concat([NEWLINE_BYTES, lineStart]));
  const empty = (startsWith(NEWLINE_BYTES) ? 1 : 0) + count(EMPTY_LINE);
  return started + empty === lines;
}

/**
 * A pending log: the lines of a collection of buckets (idempotency records, index entries) that
 * have not reached their bucket yet. A batch appends its lines to the one pending log of the
 * collection instead of to hundreds of buckets (each a file to open, and to create in a new
 * store); when the log has grown past a limit, the store moves its lines into their buckets in
 * one journal batch and then replaces the log with an empty one (fileStore.ts, mergePending). A
 * reader looks in the pending log first and then in the bucket, so a line being moved is found
 * in one or the other (or both: the same line twice, which the readers allow).
 *
 * Its lines by key: the line's start up to its first field's value (`{"h":"ID",`), as written.
 */
export class PendingLines {
  /** Bytes read of whole lines. */
  whole = 0;
  /** The file's size at the last read (an unfinished last line is read again when it grows). */
  size = 0;
  mtimeMs = 0;
  readonly byKey = new Map<string, string[]>();
  /** Lines that are no key's: the log is damaged. */
  garbled = 0;
  /** The last line, unfinished, cannot be the start of one: damaged too (until it is finished or cut). */
  badTail = false;

  constructor(readonly ino: number) {}

  /** Whether a line that is no key's may hide any key's newest line. */
  get damaged(): boolean {
    return this.garbled > 0 || this.badTail;
  }

  /** The lines of a key (its line start, as `start`), oldest first. */
  linesOf(start: string): readonly string[] {
    return this.byKey.get(start) ?? NO_LINES;
  }

  /** Every line with the bucket `bucketOf` names for its key (the key as its JSON text), each key's in their order: what a merge appends. */
  byBucket(bucketOf: (keyJson: string) => string): Array<readonly [bucket: string, line: string]> {
    const moved: Array<readonly [string, string]> = [];
    for (const [start, lines] of this.byKey) {
      const bucket = bucketOf(start.slice(start.indexOf(':') + 1, -1));
      for (const line of lines) moved.push([bucket, line]);
    }
    return moved;
  }

  /** Takes the bytes read from `whole` on. */
  take(bytes: Buffer, lineStart: string): void {
    const end = bytes.lastIndexOf(NEWLINE) + 1;
    const text = bytes.toString('utf8', 0, end);
    for (let from = 0; from < text.length;) {
      const newline = text.indexOf('\n', from);
      const line = text.slice(from, newline);
      from = newline + 1;
      if (line.length === 0) continue;
      const start = keyedStart(line, lineStart);
      if (start === undefined) {
        this.garbled++;
        continue;
      }
      const lines = this.byKey.get(start);
      if (lines) lines.push(line);
      else this.byKey.set(start, [line]);
    }
    this.whole += end;
    this.size = this.whole + (bytes.length - end);
    this.badTail = !beginsLine(bytes.toString('utf8', end, Math.min(bytes.length, end + lineStart.length + 1)), lineStart);
  }
}

const NO_LINES: readonly string[] = [];

/**
 * A line's start up to and with the comma after its first field's value, or undefined when that
 * value is not a well-formed JSON string (a control character in it, an escape JSON does not
 * know) or no comma follows it.
 */
export function keyedStart(line: string, lineStart: string): string | undefined {
  if (!line.startsWith(lineStart) || line.charCodeAt(lineStart.length) !== 0x22) return undefined;
  let escaped = false;
  for (let at = lineStart.length + 1; at < line.length; at++) {
    const code = line.charCodeAt(at);
    if (code < 0x20) return undefined;
    if (code === 0x5c) {
      escaped = true;
      at++;
    } else if (code === 0x22) {
      if (line.charCodeAt(at + 1) !== 0x2c) return undefined;
      if (escaped && !isJsonString(line.slice(lineStart.length, at + 1))) return undefined;
      return line.slice(0, at + 2);
    }
  }
  return undefined;
}

function isJsonString(text: string): boolean {
  try {
    return typeof JSON.parse(text) === 'string';
  } catch {
    return false;
  }
}

const NEWLINE = 0x0a;
/** Buckets of records kept read (a second's quotes or shipments of one kind each, about 100 KB at 2,000 quotes a second). */
const KEYED_BUCKETS = 64;
const NEWLINE_BYTES = Buffer.from('\n');
const EMPTY_LINE = Buffer.from('\n\n');

/** The bytes of an open file from `from` to `to` (fewer when it ends before). */
function readRange(fd: number, from: number, to: number): Buffer {
  const bytes = Buffer.allocUnsafe(to - from);
  let done = 0;
  for (let got = -1; done < bytes.length && got !== 0; done += got) got = fs.readSync(fd, bytes, done, bytes.length - done, from + done);
  return bytes.subarray(0, done);
}

/** Whether a last line without its newline can be one being written: a torn append starts a line like any other. */
function beginsLine(tail: string, lineStart: string): boolean {
  return tail.length === 0 || tail.startsWith(lineStart) || lineStart.startsWith(tail);
}

/** Applies an append (journal.ts): the file cut to `at`, the text written there. Idempotent, so a replay after a crash is too. */
export function writeAt(file: string, text: string, at: number): void {
  const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_CREAT, 0o644);
  try {
    if (fs.fstatSync(fd).size !== at) fs.ftruncateSync(fd, at);
    writeFully(fd, Buffer.from(text), at);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * A small mark (the journal's applied offset, an index's state) overwritten in place, padded with
 * spaces to `width` (its reader trims it): a batch neither creates a file nor frees one for it.
 * A mark torn by a kill reads as garbage, which both marks take as "not known" (apply the journal
 * again; rebuild the index): slow, never wrong.
 */
export function overwriteMark(file: string, text: string, width: number): void {
  const bytes = Buffer.from(text.padEnd(width));
  const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_CREAT, 0o644);
  try {
    writeFully(fd, bytes, 0);
    if (fs.fstatSync(fd).size > bytes.length) fs.ftruncateSync(fd, bytes.length);
  } finally {
    fs.closeSync(fd);
  }
}

/** Every byte written at `position` (a write may take fewer than asked). */
function writeFully(fd: number, bytes: Buffer, position: number): void {
  let written = 0;
  while (written < bytes.length) written += fs.writeSync(fd, bytes, written, bytes.length - written, position + written);
}
