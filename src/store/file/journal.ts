/**
 * The file store's write-ahead journal: group commit to disk. A unit of work's files (records,
 * counters and marks, index entries) are written as temporary files without fsync, then the whole
 * batch is appended to `journal/journal.log` as one line and made durable with one fdatasync, and
 * only then renamed into place. After a crash the lines not yet applied are applied again, in
 * order, by the next unit of work (or a reader that needs a trusted index). When the journal has
 * grown past a limit, every file is made durable at once (syncfs) and the journal starts again
 * empty: compaction. docs/design/store.md gives the crash-safety argument.
 *
 * A line is `<CRC-32 of the JSON, 8 hex> <JSON>\n`, the JSON `{"w":[{"p":path,"t":text}|{"p":path,"d":1}|{"p":path,"l":[line...],"o":at}]}`
 * with paths relative to the store; the last is an append to a bucket log (bucketLogs.ts), applied
 * by cutting the file to `at` and writing the lines there, so that applying it again changes nothing.
 * Its lines are JSON texts, so they are the array's elements as they are, not strings escaped
 * again (which cost as much as writing the records, and a quarter more bytes). Lines of the
 * journal written before (`<sha256, 16 hex> ...`, an append `{"p","a":text,"o"}`) are still
 * read; a shipper that knows only those refuses this journal as damaged instead of misreading it. `journal/applied` holds how many bytes of the journal were
 * applied (written without fsync: losing it only applies lines again, in order, which leaves every
 * file as the last line wrote it).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { readFile, rename, truncate, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { mapInOrder } from '../../concurrency.js';
import { appendDurably, describeFileError, removeOrphanedTemporaries, temporaryPathFor, writeNewFile, writeNewFileDurably } from '../../fs/durableWrite.js';
import { makeDirectory } from '../../fs/makeDirectory.js';
import { StoreError } from '../storeError.js';
import { appendText, overwriteMark, writeAt, type BucketAppend } from './bucketLogs.js';
import { killPoint } from './killPoints.js';
import { bootId } from './storeLock.js';

/** One file of a batch: its new text, its removal, or lines appended to it at `at`. Paths are relative to the store. */
/**
 * One file of a batch: its new text (`inPlace`: a small file overwritten where it is, padded, not
 * renamed over: a counter), its removal, or lines appended to a bucket. Paths are relative to the store.
 */
export type JournalWrite = { path: string; text: string; inPlace?: boolean } | { path: string; remove: true } | BucketAppend;
/** The width an in-place text is padded to: a counter's `{"last":n}` fits, so it is overwritten without cutting. */
const IN_PLACE_WIDTH = 40;
/** The applied mark: an offset and the boot id it was written in. */
const APPLIED_WIDTH = 64;

/** Journal bytes after which the next commit compacts (SHIPPER_JOURNAL_LIMIT overrides it, for tests). */
const DEFAULT_LIMIT = 32 * 1024 * 1024;
const WRITE_CONCURRENCY = 32;

export class Journal {
  private readonly dir: string;
  readonly file: string;
  private readonly appliedFile: string;
  private readonly limit: number;
  private readonly readyDirs = new Set<string>();
  /** Directories whose temporary files of killed writers this process removed (once each). */
  private readonly sweptDirs = new Set<string>();

  constructor(
    private readonly root: string,
    /** Called when files were written (applied, first or again). */
    private readonly written: () => void = () => undefined,
    /** Told what recover cut (bytes appended behind the store's back). */
    private readonly warn?: (item: StoreWarning) => void,
  ) {
    this.dir = join(root, 'journal');
    this.file = join(this.dir, 'journal.log');
    this.appliedFile = join(this.dir, 'applied');
    this.limit = Number(process.env.SHIPPER_JOURNAL_LIMIT) > 0 ? Number(process.env.SHIPPER_JOURNAL_LIMIT) : DEFAULT_LIMIT;
  }

  /**
   * Applies the lines a crashed process committed but did not apply, and cuts off what follows the
   * last whole line when no whole line follows it: a line a kill tore during its write, or bytes
   * appended behind the store's back. Neither was ever acknowledged (a batch is acknowledged only
   * after its line is whole and synced, and the next writer recovers first). A torn line is cut
   * silently, anything else is kept in a copy (`journal/cut-*.log`) and named in a warning. A bad
   * line with a whole line after it is damage: the lines before it are applied and the store refuses
   * writes (`shipper store check`, `shipper store repair`). Inside the store's lock. Returns whether it applied any.
   */
  async recover(): Promise<boolean> {
    const [size, applied] = await Promise.all([this.size(), this.applied()]);
    if (size === applied) return false;
    if (applied > size) {
      // A compaction cut the journal after recording 0: nothing is pending.
      await this.setApplied(size);
      return false;
    }
    const scan = this.scanFrom(await this.read(), applied);
    for (const line of scan.pending) await this.applyBatch(line.writes, undefined);
    if (scan.damage) {
      await this.setApplied(scan.damage.at);
      throw new JournalDamagedError(this.file, scan.damage);
    }
    if (scan.tail) await this.cut(scan.tail, scan.bytes, this.warn && !scan.tail.torn ? this.warn : undefined);
    await this.setApplied(scan.end);
    return scan.pending.length > 0;
  }

  /**
   * What the journal holds past its applied mark, read without writing anything (store check,
   * store export): the whole lines not applied yet (up to any damage), the bytes after the last
   * whole line (cut by the next writer), and damage (a bad line with a whole line after it).
   */
  async inspect(): Promise<JournalScan> {
    const [size, applied] = await Promise.all([this.size(), this.applied()]);
    if (applied >= size) return { size, applied: Math.min(applied, size), bytes: Buffer.alloc(0), pending: [], end: size };
    return { size, applied, ...this.scanFrom(await this.read(), applied) };
  }

  /**
   * Cuts the journal where nothing whole follows that was not applied (store repair): applies the
   * whole lines before the first damage, then cuts from there, keeping a copy of the cut bytes.
   * Inside the store's lock. Returns what it found and the copy it kept (none: nothing to cut).
   */
  async repair(): Promise<{ scan: JournalScan; copy: string | undefined }> {
    const scan = await this.inspect();
    for (const line of scan.pending) await this.applyBatch(line.writes, undefined);
    const from = scan.damage?.at ?? scan.tail?.at;
    let copy: string | undefined;
    if (from !== undefined) copy = await this.cut({ at: from, bytes: scan.size - from, torn: false }, scan.bytes, undefined);
    await this.setApplied(from ?? scan.end);
    return { scan, copy };
  }

  private async read(): Promise<Buffer> {
    try {
      return await readFile(this.file);
    } catch (error) {
      throw new StoreError(`cannot read ${this.file}: ${describeFileError(error)}`, this.file);
    }
  }

  private scanFrom(text: Buffer, applied: number): Omit<JournalScan, 'size' | 'applied'> {
    const pending: JournalScan['pending'] = [];
    let offset = applied;
    while (offset < text.length) {
      const end = text.indexOf(0x0a, offset);
      const writes = end < 0 ? undefined : parseLine(text.subarray(offset, end).toString('utf8'));
      if (!writes) {
        // A whole line further on: this is no torn or appended tail, but damage.
        let wholeAfter = 0;
        let firstWhole: number | undefined;
        for (let start = end; start >= 0 && start + 1 < text.length;) {
          const next = text.indexOf(0x0a, start + 1);
          if (next < 0) break;
          if (parseLine(text.subarray(start + 1, next).toString('utf8'))) {
            wholeAfter++;
            firstWhole ??= start + 1;
          }
          start = next;
        }
        const rest = text.subarray(offset);
        if (firstWhole !== undefined) return { bytes: text, pending, end: offset, damage: { at: offset, bytes: firstWhole - offset, linesAfter: wholeAfter } };
        // What a kill leaves: the start of a line (its digest, a space, the JSON), no newline.
        const torn = !rest.includes(0x0a) && /^[0-9a-f]{0,8}( \{|$| $)/.test(rest.subarray(0, 11).toString('latin1'));
        return { bytes: text, pending, end: offset, tail: { at: offset, bytes: rest.length, torn } };
      }
      pending.push({ at: offset, writes });
      offset = end + 1;
    }
    return { bytes: text, pending, end: offset };
  }

  /** Cuts the journal at `tail.at`, a copy of the cut bytes kept first (unless torn); returns the copy's path. */
  private async cut(tail: { at: number; bytes: number; torn: boolean }, text: Buffer, warn: ((item: StoreWarning) => void) | undefined): Promise<string | undefined> {
    let copy: string | undefined;
    if (!tail.torn) {
      copy = join(this.dir, `cut-${new Date().toISOString().replace(/[-:.]/g, '')}-${tail.at}-${process.pid}.log`);
      try {
        await writeNewFileDurably(copy, text.subarray(tail.at, tail.at + tail.bytes));
      } catch (error) {
        throw new StoreError(`cannot keep a copy of what follows the journal's last whole line in ${copy}: ${describeFileError(error)}`, copy);
      }
    }
    await truncate(this.file, tail.at).catch((error: unknown) => {
      throw new StoreError(`cannot repair ${this.file}: ${describeFileError(error)}`, this.file);
    });
    warn?.({
      code: 'STORE_JOURNAL_CUT',
      message: `the store's journal ${this.file} ended in ${tail.bytes} byte${tail.bytes === 1 ? '' : 's'} after its last whole line, which no command wrote whole (never acknowledged): cut, and kept in ${copy}`,
    });
    return copy;
  }

  /**
   * Commits a batch: its files written (not synced) under temporary names, the batch made durable
   * in the journal with one fdatasync, then the files renamed into place. Inside the store's lock,
   * after recover(). On failure before the journal holds the batch nothing of it is visible.
   */
  async commit(writes: readonly JournalWrite[]): Promise<void> {
    if (writes.length === 0) return;
    const staged = await this.stage(writes);
    const json = `{"w":[${writes.map(journalEntry).join(',')}]}`;
    const line = journalLine(json);
    let start: number;
    try {
      await this.ensureDir(this.dir);
      const kill = killPoint('journal-write');
      if (kill) {
        await appendDurably(this.file, line.subarray(0, Math.floor(line.length / 2)));
        kill();
      }
      start = await appendDurably(this.file, line);
    } catch (error) {
      await this.unstage(staged);
      throw new StoreError(`cannot write ${this.file}: ${describeFileError(error)}`, this.file);
    }
    killPoint('after-journal')?.();
    await this.applyBatch(undefined, staged);
    await this.setApplied(start + line.length);
    if (start + line.length > this.limit) await this.compact();
  }

  /** compact(), when the journal holds anything (a rebuilt index must never see an earlier line applied again over it). */
  async compactIfAny(): Promise<void> {
    if ((await this.size()) > 0) await this.compact();
  }

  /** Every file the journal holds made durable at once, then the journal emptied. */
  async compact(): Promise<void> {
    await syncFileSystem(this.root, () => this.syncEachFile());
    killPoint('during-compaction')?.();
    // 0 first: a crash before the cut applies the (already applied) lines again, in order.
    await this.setApplied(0);
    await truncate(this.file, 0).catch(() => undefined);
  }

  /** Without syncfs: each file the journal names, one fsync each (the cost the journal saves elsewhere). */
  private async syncEachFile(): Promise<void> {
    const text = await readFile(this.file, 'utf8').catch(() => '');
    const paths = new Set<string>();
    for (const line of text.split('\n')) for (const write of parseLine(line) ?? []) paths.add(write.path);
    await mapInOrder([...paths], WRITE_CONCURRENCY, (path) => fsyncPath(join(this.root, path)));
    await Promise.all([...new Set([...paths].map((path) => dirname(join(this.root, path))))].map((dir) => fsyncPath(dir)));
  }

  private async stage(writes: readonly JournalWrite[]): Promise<Staged[]> {
    const staged: Staged[] = writes.map((write) => {
      const file = join(this.root, write.path);
      if ('lines' in write) return { file, temp: undefined, append: { text: appendText(write), at: write.at } };
      if ('remove' in write) return { file, temp: undefined };
      return write.inPlace ? { file, temp: undefined, text: write.text, inPlace: true } : { file, temp: temporaryPathFor(file), text: write.text };
    });
    try {
      for (const dir of new Set(staged.map((entry) => dirname(entry.file)))) await this.prepareDir(dir);
      await mapInOrder(staged, WRITE_CONCURRENCY, (entry) => (entry.temp ? writeNewFile(entry.temp, Buffer.from(entry.text!)) : Promise.resolve()));
    } catch (error) {
      await this.unstage(staged);
      if (error instanceof StoreError) throw error;
      const failed = staged.find((entry) => entry.temp && String((error as NodeJS.ErrnoException).path ?? '').startsWith(entry.file));
      const file = failed?.file ?? staged[0]!.file;
      throw new StoreError(`cannot write ${file}: ${describeFileError(error)}`, file);
    }
    return staged;
  }

  private async unstage(staged: readonly Staged[]): Promise<void> {
    await Promise.all(staged.map((entry) => (entry.temp ? unlink(entry.temp).catch(() => undefined) : undefined)));
  }

  /** Puts a batch's files in place: the staged ones by rename, or (replay) written again from the journal. */
  private async applyBatch(batch: readonly JournalWrite[] | undefined, staged: readonly Staged[] | undefined): Promise<void> {
    try {
      await this.applyEntries(batch, staged);
    } finally {
      this.written();
    }
  }

  private async applyEntries(batch: readonly JournalWrite[] | undefined, staged: readonly Staged[] | undefined): Promise<void> {
    const entries: readonly Staged[] =
      staged ??
      batch!.map((write) => ({
        file: join(this.root, write.path),
        temp: undefined,
        ...('lines' in write
          ? { append: { text: appendText(write), at: write.at } }
          : 'remove' in write
            ? { text: undefined }
            : { text: write.text, inPlace: write.inPlace === true }),
      }));
    const during = killPoint('during-apply');
    let done = 0;
    try {
      await mapInOrder(entries, WRITE_CONCURRENCY, async (entry) => {
        if (during && ++done > entries.length / 2) during();
        if (entry.temp) return rename(entry.temp, entry.file);
        if (entry.append) {
          await this.prepareDir(dirname(entry.file));
          return writeAt(entry.file, entry.append.text, entry.append.at);
        }
        if (entry.text === undefined) return unlink(entry.file).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? undefined : Promise.reject(error)));
        await this.prepareDir(dirname(entry.file));
        if (entry.inPlace) return overwriteMark(entry.file, entry.text, IN_PLACE_WIDTH);
        const temp = temporaryPathFor(entry.file);
        await writeNewFile(temp, Buffer.from(entry.text));
        await rename(temp, entry.file);
      });
    } catch (error) {
      if (staged) await this.unstage(staged);
      throw new StoreError(
        `cannot write ${dirname(entries[0]!.file)}: ${describeFileError(error)} (the journal holds the change: it is finished by the next use of the store)`,
        this.file,
      );
    }
  }

  /** The directory made, and the temporary files a writer killed between staging and renaming left in it removed (once per process). */
  private async prepareDir(dir: string): Promise<void> {
    await this.ensureDir(dir);
    if (this.sweptDirs.has(dir)) return;
    this.sweptDirs.add(dir);
    await removeOrphanedTemporaries(dir);
  }

  private async ensureDir(dir: string): Promise<void> {
    if (this.readyDirs.has(dir)) return;
    try {
      await makeDirectory(dir);
    } catch (error) {
      throw new StoreError(`cannot create the store directory ${dir}: ${describeFileError(error)}`, dir);
    }
    this.readyDirs.add(dir);
  }

  // The two reads of every unit of work are synchronous: a stat and a tiny file, cheaper than a
  // round trip through the thread pool (readTextSync says why).
  private async size(): Promise<number> {
    try {
      return fs.statSync(this.file).size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw new StoreError(`cannot read ${this.file}: ${describeFileError(error)}`, this.file);
    }
  }

  /**
   * How much of the journal the files hold. Applying writes files without fsync, so that holds
   * only while the machine has not lost its page cache since: the mark names the boot it was
   * written in, and one of another boot (a power cut, a crash of the machine) counts as 0, so
   * everything since the last compaction (which synced every file) is applied again.
   */
  private async applied(): Promise<number> {
    let text = '0';
    try {
      text = fs.readFileSync(this.appliedFile, 'utf8');
    } catch {
      // Missing or unreadable: apply everything again (in order, which is harmless).
    }
    const [offset, writtenIn] = text.trim().split(' ');
    const value = Number(offset);
    const now = bootId();
    if (writtenIn !== undefined && now !== null && writtenIn !== now) return 0;
    return Number.isSafeInteger(value) && value >= 0 ? value : 0;
  }

  private async setApplied(offset: number): Promise<void> {
    await this.ensureDir(this.dir);
    try {
      overwriteMark(this.appliedFile, `${offset} ${bootId() ?? ''}`.trimEnd(), APPLIED_WIDTH);
    } catch (error) {
      throw new StoreError(`cannot write ${this.appliedFile}: ${describeFileError(error)}`, this.appliedFile);
    }
  }
}

/** A warning of the store (its code is one of domain/warnings.ts). */
export interface StoreWarning {
  code: 'STORE_JOURNAL_CUT';
  message: string;
}

/** What the journal holds past its applied mark (Journal.inspect). */
export interface JournalScan {
  size: number;
  applied: number;
  /** The journal as read. */
  bytes: Buffer;
  /** Whole lines not applied yet, before any damage: committed batches. */
  pending: Array<{ at: number; writes: JournalWrite[] }>;
  /** Where the whole lines end. */
  end: number;
  /** Bytes after the last whole line with no whole line after them: never acknowledged; `torn` when they are the start of a line (a kill). */
  tail?: { at: number; bytes: number; torn: boolean };
  /** A bad line with whole lines after it: `bytes` bad bytes at `at`, then `linesAfter` whole lines (and whatever else) up to the end. */
  damage?: { at: number; bytes: number; linesAfter: number };
}

/** The journal holds a bad line with whole lines after it: writes stop until `shipper store repair`. */
class JournalDamagedError extends StoreError {
  constructor(file: string, damage: { at: number; bytes: number; linesAfter: number }) {
    super(
      `the store's journal ${file} is damaged at byte ${damage.at} (${damage.bytes} byte${damage.bytes === 1 ? '' : 's'} that are no journal line, then ${damage.linesAfter} whole line${damage.linesAfter === 1 ? '' : 's'}); every record written before it reads, and shipper store export exports them; shipper store check says what shipper store repair would cut`,
      file,
    );
    this.name = 'JournalDamagedError';
  }
}

interface Staged {
  file: string;
  /** Undefined: a removal or an append (or, in a replay, written from `text`). */
  temp: string | undefined;
  text?: string | undefined;
  append?: { text: string; at: number } | undefined;
  /** Overwritten where it is (a counter), not renamed over. */
  inPlace?: boolean | undefined;
}

/** A write as the journal's JSON holds it (an append's lines as they are: see the top). */
function journalEntry(write: JournalWrite): string {
  if ('remove' in write) return JSON.stringify({ p: write.path, d: 1 });
  if ('lines' in write) return `{"p":${JSON.stringify(write.path)},"l":[${write.lines.join(',')}],"o":${write.at}${write.closeFirst ? ',"n":1' : ''}}`;
  return JSON.stringify({ p: write.path, t: write.text, ...(write.inPlace ? { x: 1 } : {}) });
}

let crc32: ((data: string | Uint8Array) => number) | undefined;
/** CRC-32 (zlib's, loaded when the first batch is committed): it tells a torn or garbled line, fast enough to go unseen. */
const digest = (json: string | Uint8Array) => {
  crc32 ??= (createRequire(import.meta.url)('node:zlib') as typeof import('node:zlib')).crc32;
  return crc32(json).toString(16).padStart(8, '0');
};

/** `<digest> <json>\n` as bytes: the JSON encoded once, and its CRC taken over those bytes (a batch of 500 bookings is megabytes). */
function journalLine(json: string): Buffer {
  // Room for the longest encoding (3 bytes a UTF-16 unit) instead of a first pass that measures it.
  const room = Buffer.allocUnsafe(9 + json.length * 3 + 1);
  const length = room.write(json, 9);
  room.write(`${digest(room.subarray(9, 9 + length))} `, 0, 'latin1');
  room[9 + length] = 0x0a;
  return room.subarray(0, 9 + length + 1);
}
const legacyDigest = (json: string) => createHash('sha256').update(json).digest('hex').slice(0, 16);

function parseLine(line: string): JournalWrite[] | undefined {
  const space = line.indexOf(' ');
  const json = line.slice(space + 1);
  if (space === 8 ? digest(json) !== line.slice(0, space) : space !== 16 || legacyDigest(json) !== line.slice(0, space)) return undefined;
  try {
    const value = JSON.parse(json) as { w: Array<{ p: string; t?: string; d?: 1; l?: unknown[]; n?: 1; a?: string; o?: number; x?: 1 }> };
    return value.w.map((write): JournalWrite => {
      if (write.d) return { path: write.p, remove: true as const };
      // JSON.stringify gives back each line's text as it was written (it was JSON.stringify's).
      if (write.l !== undefined) return { path: write.p, lines: write.l.map((line) => JSON.stringify(line)), at: write.o ?? 0, closeFirst: write.n === 1 };
      if (write.a !== undefined) {
        const closeFirst = write.a.startsWith('\n');
        return { path: write.p, lines: write.a.slice(closeFirst ? 1 : 0, -1).split('\n'), at: write.o ?? 0, closeFirst };
      }
      return { path: write.p, text: write.t ?? '', ...(write.x ? { inPlace: true } : {}) };
    });
  } catch {
    return undefined;
  }
}

function fsyncPath(path: string): Promise<void> {
  return new Promise((resolve) => {
    fs.open(path, 'r', (error, fd) => {
      if (error) return resolve();
      fs.fsync(fd, () => fs.close(fd, () => resolve()));
    });
  });
}

/** syncfs(2) of the store's file system through `sync -f` (coreutils); where that is missing or fails, the fallback. */
async function syncFileSystem(root: string, fallback: () => Promise<void>): Promise<void> {
  if (process.platform !== 'linux') return fallback();
  // Imported here: child_process (with net and dgram) would cost every command that opens the store a few ms of start-up.
  const { execFile } = await import('node:child_process');
  return new Promise((resolve, reject) => {
    execFile('sync', ['-f', root], (error) => (error ? fallback().then(resolve, reject) : resolve()));
  });
}
