/**
 * The one way shipper writes a file (store records, BOL PDFs, reject CSVs, later exports and
 * labels): a temporary file in the same directory, a loop until every byte is written (a write may
 * take fewer bytes than offered), fsync, a check that the file holds exactly the bytes meant, then
 * rename into place and a sync of the directory. On any failure the temporary file is removed and
 * the error names the file: a reader never sees a partial file, and "written" always means whole.
 * (write-file-atomic, used before, writes once and ignores a short write: on a nearly full disk
 * `shipper bol` reported a 16 KB truncated PDF as written.)
 *
 * The file-system calls go through the `fs` module object at call time (callback API: a batch
 * writes thousands of files, and FileHandle objects cost about twice the main-thread time).
 */
import fs from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { printable } from '../printable.js';
import { ShipperError, type ErrorCode } from '../domain/errors.js';

/** A file could not be written; nothing partial was left. `code` is the errno code when there is one. */
export class FileWriteError extends ShipperError {
  readonly code: ErrorCode = 'FILE_WRITE';

  constructor(
    readonly file: string,
    /** The errno code (ENOSPC, EEXIST, ...) when there is one. */
    readonly errno: string | undefined,
    reason: string,
  ) {
    super(printable(`cannot write ${file}: ${reason}`));
    this.name = 'FileWriteError';
  }
}

/** What to do when the destination exists: replace it, refuse (EEXIST), or take the next free numbered name. */
export type WhenExists = 'replace' | 'refuse' | 'number';

let temporaryCounter = 0;

/** `<file>.<pid>.<n>.tmp`: beside the file (same file system, so the rename is atomic), never a name the file's readers look for. */
export function temporaryPathFor(file: string): string {
  return `${file}.${process.pid}.${++temporaryCounter}.tmp`;
}

/** Whether a process of this pid runs (on this host, in this pid namespace). */
export function isProcessAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // alive, someone else's
  }
}

/** Temporary files as temporaryPathFor names them; group 1 is the writer's pid. */
const TEMPORARY_FILE = /^.+\.(\d+)\.\d+\.tmp$/;

/**
 * Removes from `dir` the temporary files of writers that were killed between their write and
 * their rename (SIGKILL, power loss): those whose name matches `pattern` (group 1: the pid) and
 * whose process is gone. Those of live processes are left alone. Returns how many were removed.
 */
export async function removeOrphanedTemporaries(dir: string, pattern: RegExp = TEMPORARY_FILE): Promise<number> {
  const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
  const orphans = names.filter((name) => {
    const pid = pattern.exec(name)?.[1];
    return pid !== undefined && !isProcessAlive(Number(pid));
  });
  await Promise.all(orphans.map((name) => fs.promises.unlink(join(dir, name)).catch(() => undefined)));
  return orphans.length;
}

/** `orders.rejected.csv` -> `orders.rejected-2.csv` (attempt 2), `-3`, ... */
export function numberedName(file: string, attempt: number): string {
  if (attempt <= 1) return file;
  const extension = extname(file);
  return join(dirname(file), `${basename(file, extension)}-${attempt}${extension}`);
}

/** The errno code of a failure, or ours: ESHORT when the file does not hold what was written. */
function codeOf(error: unknown): string | undefined {
  if (error instanceof FileWriteError) return error.errno;
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** A reason people understand, for the errno codes a write meets. */
export function describeFileError(error: unknown): string {
  const code = codeOf(error);
  // An error that already says what happened in words (makeDirectory's, ours) keeps them; Node's
  // own start with their code ("ENOENT: no such file or directory, open '/x'").
  if (error instanceof Error && code && !error.message.startsWith(`${code}:`)) return error.message;
  switch (code) {
    case 'ENOSPC':
      return 'no space left on the disk';
    case 'EDQUOT':
      return 'disk quota exceeded';
    case 'EROFS':
      return 'the file system is read-only';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOENT':
      return 'the directory does not exist';
    case 'ENOTDIR':
      return 'a part of the path is not a directory';
    case 'EISDIR':
      return 'a directory has that name';
    case 'EEXIST':
      return 'the file exists';
    case 'EFBIG':
      return 'the file is too large for the file system';
    case 'EIO':
      return 'input/output error (the disk failed)';
    default:
      return error instanceof Error ? error.message : String(error);
  }
}

function errorWithCode(message: string, code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

/** write(2) until every byte is in: a short write is continued, a write that takes nothing is an error. */
function writeAll(fd: number, data: Uint8Array, done: (error: Error | null) => void): void {
  const from = (offset: number): void => {
    if (offset >= data.length) return done(null);
    fs.write(fd, data, offset, data.length - offset, null, (error, written) => {
      if (error) return done(error);
      // Zero bytes without an error would loop for ever: the file system is not taking data.
      if (written <= 0) return done(errorWithCode(`the file system took 0 of ${data.length - offset} bytes`, 'ENOPROGRESS'));
      from(offset + written);
    });
  };
  from(0);
}

/** fsync, then check that the file holds exactly `expected` bytes (what a reader will get). */
function syncAndCheck(fd: number, expected: number, done: (error: Error | null) => void): void {
  fs.fsync(fd, (syncError) => {
    if (syncError) return done(syncError);
    fs.fstat(fd, (statError, stats) => {
      if (statError) return done(statError);
      if (stats.size !== expected) return done(errorWithCode(`the file holds ${stats.size} of the ${expected} bytes written`, 'ESHORT'));
      done(null);
    });
  });
}

/**
 * Writes `data` to the new file `path` (exclusive create), completely and durably: every byte,
 * fsync, size checked. The caller renames it into place and removes it on failure. The store
 * uses this directly, to group the directory syncs of many records.
 */
export function writeNewFileDurably(path: string, data: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    fs.open(path, 'wx', (openError, fd) => {
      if (openError) return reject(openError);
      const finish = (error: Error | null) => fs.close(fd, (closeError) => (error ? reject(error) : closeError ? reject(closeError) : resolve()));
      writeAll(fd, data, (writeError) => {
        if (writeError) return finish(writeError);
        syncAndCheck(fd, data.length, finish);
      });
    });
  });
}

/**
 * Writes `data` to the new file `path` (exclusive create), completely but without fsync: for files
 * whose durability comes from elsewhere (the store's journal, which holds the same bytes and is
 * replayed after a crash). The caller renames it into place and removes it on failure.
 */
export function writeNewFile(path: string, data: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    fs.open(path, 'wx', (openError, fd) => {
      if (openError) return reject(openError);
      const finish = (error: Error | null) => fs.close(fd, (closeError) => (error ? reject(error) : closeError ? reject(closeError) : resolve()));
      writeAll(fd, data, finish);
    });
  });
}

/**
 * Appends `data` to `path` (created when missing) and makes it durable with one fdatasync: the
 * store's journal. On a short or failed write the file is cut back to its length before, so what
 * follows is never appended after a partial record. Resolves with the offset the data starts at.
 */
export function appendDurably(path: string, data: Uint8Array): Promise<number> {
  return new Promise((resolve, reject) => {
    fs.open(path, 'a', (openError, fd) => {
      if (openError) return reject(openError);
      fs.fstat(fd, (statError, stats) => {
        if (statError) return fs.close(fd, () => reject(statError));
        const start = stats.size;
        writeAll(fd, data, (writeError) => {
          const fail = (error: Error) => fs.ftruncate(fd, start, () => fs.close(fd, () => reject(error)));
          if (writeError) return fail(writeError);
          fs.fdatasync(fd, (syncError) => {
            if (syncError) return fail(syncError);
            fs.close(fd, (closeError) => (closeError ? reject(closeError) : resolve(start)));
          });
        });
      });
    });
  });
}

/** Makes the renames in `dir` durable; a file system that cannot sync a directory is left as it is. */
export async function syncDirectory(dir: string): Promise<void> {
  const fd = await new Promise<number | undefined>((resolve) => fs.open(dir, 'r', (error, opened) => resolve(error ? undefined : opened)));
  if (fd === undefined) return;
  await new Promise<void>((resolve) => fs.fsync(fd, () => fs.close(fd, () => resolve())));
}

/**
 * Puts the finished temporary file in place under `file` (or a numbered name). Without replacing,
 * link(2) does it: it fails when the name exists, so two writers never take the same name and a
 * file that appeared meanwhile is never replaced. Returns the name used.
 */
async function place(temp: string, file: string, whenExists: WhenExists): Promise<string> {
  if (whenExists === 'replace') {
    await fs.promises.rename(temp, file);
    return file;
  }
  for (let attempt = 1; ; attempt++) {
    const target = whenExists === 'number' ? numberedName(file, attempt) : file;
    try {
      await linkOrRename(temp, target);
      return target;
    } catch (error) {
      if (codeOf(error) !== 'EEXIST' || whenExists === 'refuse' || attempt >= 9999) throw error;
    }
  }
}

/** link + unlink; on file systems without hard links, a check and a rename (not atomic against a racing writer, but the best they allow). */
async function linkOrRename(temp: string, target: string): Promise<void> {
  try {
    await fs.promises.link(temp, target);
  } catch (error) {
    const code = codeOf(error);
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS' && code !== 'EMLINK') throw error;
    if (
      await fs.promises.lstat(target).then(
        () => true,
        () => false,
      )
    )
      throw errorWithCode(`${target} exists`, 'EEXIST');
    await fs.promises.rename(temp, target);
    return;
  }
  await fs.promises.unlink(temp).catch(() => undefined);
}

export interface DurableWriteOptions {
  /** Default 'replace'. */
  whenExists?: WhenExists;
}

/**
 * Writes a whole file durably and atomically; resolves with the path written (a numbered name
 * with whenExists 'number'). On failure: a FileWriteError naming the file, and nothing left behind.
 */
export async function writeFileDurably(file: string, data: Uint8Array | string, options: DurableWriteOptions = {}): Promise<string> {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const temp = temporaryPathFor(file);
  let written: string;
  try {
    await writeNewFileDurably(temp, bytes);
    written = await place(temp, file, options.whenExists ?? 'replace');
  } catch (error) {
    await fs.promises.unlink(temp).catch(() => undefined);
    throw new FileWriteError(file, codeOf(error), describeFileError(error));
  }
  await syncDirectory(dirname(written));
  return written;
}

export interface BatchFile {
  file: string;
  data: Uint8Array;
}

/** What became of one file of a batch: the path written, or (only with 'refuse') EEXIST. */
export type BatchOutcome = { file: string; written: string } | { file: string; error: FileWriteError };

export interface BatchResult {
  /** One per file placed or refused, in the batch's order; the files after a failure have none. */
  outcomes: BatchOutcome[];
  /** What stopped the batch (a full disk, a read-only directory): the files without an outcome were not written. */
  failure?: FileWriteError;
}

const directoriesOf = (outcomes: readonly BatchOutcome[]) => [...new Set(outcomes.flatMap((outcome) => ('written' in outcome ? [dirname(outcome.written)] : [])))];

/** The callback API as promises (one call each; FileHandle objects cost more). */
const openNew = (path: string) => new Promise<number>((resolve, reject) => fs.open(path, 'wx', (error, fd) => (error ? reject(error) : resolve(fd))));
const closeFd = (fd: number) => new Promise<void>((resolve, reject) => fs.close(fd, (error) => (error ? reject(error) : resolve())));
const writeFd = (fd: number, data: Uint8Array) => new Promise<void>((resolve, reject) => writeAll(fd, data, (error) => (error ? reject(error) : resolve())));
const syncFd = (fd: number, size: number) => new Promise<void>((resolve, reject) => syncAndCheck(fd, size, (error) => (error ? reject(error) : resolve())));

/**
 * Writes a batch of files durably together, for commands that write many (`shipper bol --all`):
 * each file's bytes to its temporary file, in order; then every file's fsync at once (the file
 * system commits concurrent fsyncs in one journal transaction, where files written one after the
 * other wait for a commit each) and its size checked; then each put in place, in order; then one
 * sync per directory. Only then are they reported written. A file that cannot be written (a full
 * disk) stops the batch there: the files before it are written, it and those after it are not,
 * and nothing partial is left. With 'refuse' a file whose name is taken is that file's EEXIST
 * outcome, and the others are written.
 */
export async function writeFilesDurably(files: readonly BatchFile[], options: DurableWriteOptions = {}): Promise<BatchResult> {
  const temps: string[] = [];
  const fds: number[] = [];
  let failure: FileWriteError | undefined;
  const fail = (index: number, error: unknown) => {
    failure ??= new FileWriteError(files[index]!.file, codeOf(error), describeFileError(error));
  };
  for (const [index, { file, data }] of files.entries()) {
    const temp = temporaryPathFor(file);
    let fd: number | undefined;
    try {
      fd = await openNew(temp);
      await writeFd(fd, data);
      temps.push(temp);
      fds.push(fd);
    } catch (error) {
      if (fd !== undefined) await closeFd(fd).catch(() => undefined);
      await fs.promises.unlink(temp).catch(() => undefined);
      fail(index, error);
      break;
    }
  }
  // Every file written so far made durable at once; the first that fails ends the batch there.
  const synced = await Promise.allSettled(fds.map((fd, index) => syncFd(fd, files[index]!.data.length).finally(() => closeFd(fd).catch(() => undefined))));
  const broken = synced.findIndex((result) => result.status === 'rejected');
  const placeable = broken === -1 ? temps.length : broken;
  if (broken !== -1) fail(broken, (synced[broken] as PromiseRejectedResult).reason);
  await Promise.all(temps.slice(placeable).map((temp) => fs.promises.unlink(temp).catch(() => undefined)));

  const outcomes: BatchOutcome[] = [];
  for (let index = 0; index < placeable; index++) {
    const { file } = files[index]!;
    try {
      outcomes.push({ file, written: await place(temps[index]!, file, options.whenExists ?? 'replace') });
    } catch (error) {
      await fs.promises.unlink(temps[index]!).catch(() => undefined);
      const refused = new FileWriteError(file, codeOf(error), describeFileError(error));
      if (refused.errno === 'EEXIST') {
        outcomes.push({ file, error: refused });
        continue;
      }
      // Anything else (the directory went away, became read-only) stops the batch here.
      failure = refused;
      await Promise.all(temps.slice(index + 1, placeable).map((temp) => fs.promises.unlink(temp).catch(() => undefined)));
      break;
    }
  }
  await Promise.all(directoriesOf(outcomes).map(syncDirectory));
  return failure ? { outcomes, failure } : { outcomes };
}

/** Buffered output flushed in chunks of this size: few system calls, little memory. */
const FLUSH_BYTES = 64 * 1024;

/**
 * The streaming form, for files written piece by piece (reject CSVs): the pieces go to a
 * temporary file, and commit() makes it whole and durable under its name exactly as
 * writeFileDurably does; discard() removes it. Until commit, no file of that name appears.
 */
export class DurableFileWriter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private total = 0;
  private closed = false;

  private constructor(
    readonly file: string,
    private readonly temp: string,
    private readonly fd: number,
    private readonly whenExists: WhenExists,
  ) {}

  static async open(file: string, options: DurableWriteOptions = {}): Promise<DurableFileWriter> {
    const temp = temporaryPathFor(file);
    const fd = await new Promise<number>((resolve, reject) => fs.open(temp, 'wx', (error, opened) => (error ? reject(error) : resolve(opened)))).catch((error: unknown) => {
      throw new FileWriteError(file, codeOf(error), describeFileError(error));
    });
    return new DurableFileWriter(file, temp, fd, options.whenExists ?? 'replace');
  }

  /** Bytes handed to write() so far. */
  get bytes(): number {
    return this.total;
  }

  async write(chunk: string | Uint8Array): Promise<void> {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk);
    this.pending.push(buffer);
    this.pendingBytes += buffer.length;
    this.total += buffer.length;
    if (this.pendingBytes >= FLUSH_BYTES) await this.guard(() => this.flush());
  }

  /** Finishes the file and puts it in place; resolves with the path written. */
  async commit(): Promise<string> {
    const file = await this.guard(async () => {
      await this.flush();
      await new Promise<void>((resolve, reject) => syncAndCheck(this.fd, this.total, (error) => (error ? reject(error) : resolve())));
      await this.close();
      return place(this.temp, this.file, this.whenExists);
    });
    await syncDirectory(dirname(file));
    return file;
  }

  async discard(): Promise<void> {
    await this.close().catch(() => undefined);
    await fs.promises.unlink(this.temp).catch(() => undefined);
  }

  private flush(): Promise<void> {
    if (this.pendingBytes === 0) return Promise.resolve();
    const data = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    return new Promise((resolve, reject) => writeAll(this.fd, data, (error) => (error ? reject(error) : resolve())));
  }

  private close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    return new Promise((resolve, reject) => fs.close(this.fd, (error) => (error ? reject(error) : resolve())));
  }

  /** Any failure: the temporary file goes, and the error names the file. */
  private async guard<T>(step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } catch (error) {
      await this.discard();
      throw new FileWriteError(this.file, codeOf(error), describeFileError(error));
    }
  }
}
