/**
 * How a process learns that the store changed, without looking at every file it reads.
 *
 * Every process that changes the store appends one byte to `journal/generation` once the change
 * is in place and before it is acknowledged: after a batch is applied (its own or a crashed
 * writer's), after an index's state is recorded or an index rebuilt, after a record file is
 * written outside the journal (saved locations, audited bills). A reader stats that one file once
 * per run of look-ups (until its event loop turns, as BucketLogs.burst): while it is as it was
 * (inode, size, mtime), nothing was written by a shipper, and the stats of the files it reads
 * (buckets, pending logs, index directories, record files) are taken as they were when last made,
 * without asking the file system again. When it moved, every file is stat'ed again on its next
 * read. A write by this process drops them at once.
 *
 * What no shipper writes (a file restored or garbled by hand, an older shipper that knows no
 * generation) does not move it: a server sees those at its next full look, at most a second
 * later (MAX_AGE_MS), where it saw them at its next request before. Only a long-running server
 * keeps stats so (keepStats); every process moves the generation.
 *
 * The file only grows (an append moves its size even within one tick of the file system's clock);
 * a writer holding the lock cuts it to nothing past 64 KiB, which moves its size too.
 */
import fs from 'node:fs';
import { dirname } from 'node:path';

/** The stats taken in one view are trusted at most this long, whatever the generation says. */
const MAX_AGE_MS = 1_000;
/** Stats kept in one view at most. */
const MAX_KEPT = 20_000;
/** Past this size, a writer holding the lock cuts the file back to nothing. */
const CUT_AT = 64 * 1024;
const ONE_BYTE = Buffer.from('\n');

export class StoreGeneration {
  readonly file: string;
  /** The generation file's identity when the current view was taken. */
  private seen: string | undefined;
  private takenAt = 0;
  /** The stats taken in the current view (undefined: the file did not exist). */
  private stats = new Map<string, fs.Stats | undefined>();
  /** The directories listed in the current view (undefined: the directory did not exist). */
  private listings = new Map<string, readonly string[] | undefined>();
  /** The run of look-ups the generation was last checked in. */
  private checkedIn: object | undefined;
  /** Answers worked out from the files of the current view (remembered). */
  private answers = new Map<string, unknown>();
  /** Counts the views: an answer worked out across two of them is not kept. */
  private view = 0;

  constructor(
    root: string,
    /** The current run of look-ups (BucketLogs.burst). */
    private readonly burst: () => object,
    /**
     * Whether this process keeps stats while the generation stays (a long-running server: a store
     * object with a record cache). Otherwise (a CLI command, an engine of a test) every file is
     * stat'ed as it is read, as before, and only bump() is of use: so a hand edit is seen at once.
     */
    private readonly keepStats = false,
  ) {
    this.file = `${root}/journal/generation`;
  }

  /**
   * A file's stat (undefined when it does not exist), as it was when last stat'ed, if no shipper
   * wrote to the store since; any failure but ENOENT is thrown as fs.statSync throws it.
   */
  stat(file: string): fs.Stats | undefined {
    if (!this.keepStats) return fs.statSync(file, { throwIfNoEntry: false });
    this.check();
    if (this.stats.has(file)) return this.stats.get(file);
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    // Bounded: a second of reads of a huge store (a list of every shipment) keeps no more than this.
    if (this.stats.size >= MAX_KEPT) this.stats = new Map();
    this.stats.set(file, stat);
    return stat;
  }

  /**
   * A small directory's names (undefined when it does not exist), as they were when last listed,
   * if no shipper wrote to the store since: the same promise as stat's, for a directory's entries
   * (a shipper that adds or removes a file moves the generation after). Listed synchronously: for
   * directories of a few files (the credentials), never a collection of records that grows.
   */
  names(dir: string): readonly string[] | undefined {
    if (!this.keepStats) return listQuietly(dir);
    this.check();
    if (this.listings.has(dir)) return this.listings.get(dir);
    const names = listQuietly(dir);
    this.listings.set(dir, names);
    return names;
  }

  /**
   * An answer read from the store's files (a quote's bookings), worked out once per view: the same
   * promise as stat's, for what is read from files whose stats the view keeps. One begun in a view
   * and finished in the next (a write by this process or by another shipper between) is returned
   * but not kept. Failures are not kept. Without keepStats, worked out every time.
   */
  async remembered<T>(key: string, work: () => Promise<T>): Promise<T> {
    if (!this.keepStats) return work();
    this.check();
    if (this.answers.has(key)) return this.answers.get(key) as T;
    const view = this.view;
    const answer = await work();
    if (view === this.view) {
      if (this.answers.size >= MAX_KEPT) this.answers = new Map();
      this.answers.set(key, answer);
    }
    return answer;
  }

  /** This process wrote to the store: its next reads stat anew (others learn it by bump). */
  forget(): void {
    this.view++;
    this.answers = new Map();
    this.stats = new Map();
    this.listings = new Map();
    this.checkedIn = undefined;
    this.seen = undefined;
  }

  /**
   * After this process changed the store, before the change is acknowledged: the generation
   * moved. `locked`: under the store's lock (may cut a long file). A failure to write it (a full
   * or read-only disk) leaves readers to see the change by their next full look (MAX_AGE_MS).
   */
  bump(locked: boolean): void {
    this.forget();
    let fd: number | undefined;
    try {
      fd = openForAppend(this.file);
      if (locked && fs.fstatSync(fd).size >= CUT_AT) fs.ftruncateSync(fd, 0);
      fs.writeSync(fd, ONE_BYTE);
    } catch {
      // No journal directory yet (nothing committed) or a disk that refuses: see above.
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
  }

  /** Once per run of look-ups: a new view when the generation moved, or the view is old. */
  private check(): void {
    const burst = this.burst();
    if (this.checkedIn === burst) return;
    this.checkedIn = burst;
    const now = performance.now();
    let identity: string;
    try {
      const stat = fs.statSync(this.file, { throwIfNoEntry: false });
      identity = stat ? `${stat.ino} ${stat.size} ${stat.mtimeMs}` : '-';
    } catch {
      identity = '?';
    }
    if (identity !== this.seen || identity === '?' || now - this.takenAt > MAX_AGE_MS) {
      this.seen = identity;
      this.takenAt = now;
      this.view++;
      this.answers = new Map();
      this.stats = new Map();
      this.listings = new Map();
    }
  }
}

function listQuietly(dir: string): string[] | undefined {
  try {
    return fs.readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function openForAppend(file: string): number {
  const open = () => fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT, 0o644);
  try {
    return open();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    // A store whose journal directory does not exist yet (records written outside the journal).
    fs.mkdirSync(dirname(file), { recursive: true });
    return open();
  }
}
