/**
 * The file store's indexes: bucket logs (bucketLogs.ts, `index/<kind>/<bucket>.log`), each line
 * a key and an id added to it or removed from it, appended in the same journal batch as the
 * records they point to. A key's bucket is its hash's first byte (256 buckets), a thousand order
 * serials, or the created index's 33-second window itself; so a look-up by order number, BOL
 * number, PRO, reference, quote or carrier message reads one bucket (a few hundred kilobytes at a
 * million shipments, kept parsed while it does not change) whatever the store's size, never
 * depends on the order of ids, and a batch of bookings creates no file per key.
 *
 * An index is trusted only while its directory is as the last writer left it: after each batch
 * the writer records the directory's inode and modification time (`index/<kind>.state.json`).
 * A directory removed, replaced, or with an entry added or removed by anyone else no longer
 * matches, and neither does one whose writer was killed before recording; an entry that does not
 * parse is damage too. Such an index is rebuilt from the records, under the store's lock, before
 * it answers (and before a batch adds to it): deleting or garbling an index never lets a quote or
 * a reference be booked twice, it only costs a scan.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { mapInOrder } from '../../concurrency.js';
import { describeFileError, writeNewFile } from '../../fs/durableWrite.js';
import { makeDirectory } from '../../fs/makeDirectory.js';
import { readTextSync } from '../../fs/readText.js';
import { StoreError } from '../storeError.js';
import type { JournalWrite } from './journal.js';
import { overwriteMark, type BucketLogs } from './bucketLogs.js';

/**
 * serial: order serial -> shipments (order and BOL numbers: a BOL number carries its serial);
 * pro: normalised PRO -> shipments; ref: normalised reference -> shipments; quote: quote id ->
 * shipments booked on it; created: a 33-second window of creation time (the ids' first
 * characters) -> shipments created then, for lists newest first; message: carrier message digest
 * -> shipments with events from it.
 */
export type IndexKind = 'serial' | 'pro' | 'ref' | 'quote' | 'created' | 'message';

/** What a record contributes to the indexes: the keys it carries, by kind. */
export type IndexKeys = Partial<Record<IndexKind, string[]>>;

export interface IndexChange {
  kind: IndexKind;
  key: string;
  id: string;
  remove?: boolean;
}

/** Where the indexes get their keys from when they are rebuilt. */
export interface IndexSources {
  /** Every shipment's keys (a damaged record: what can still be read of it). */
  shipmentKeys(): Promise<Array<{ id: string; keys: IndexKeys }>>;
  /** Every shipment's carrier message digests. */
  messageKeys(): Promise<Array<{ id: string; keys: IndexKeys }>>;
}

/** A line of a bucket: `a`, the id added under key `k`; `r`, the id removed from it. */
interface EntryLine {
  k: string;
  a?: string;
  r?: string;
}

/** Keys whose ids are kept read (readBucket). */
const FOLDED_KEYS = 4096;

/** The end of an entry line after its key, when its id needs no escapes: `"a":"ID"}`. */
const PLAIN_ENTRY_TAIL = /^"([ar])":"([^"\\]*)"\}$/;

function parseEntry(line: string): Partial<EntryLine> | undefined {
  try {
    return JSON.parse(line) as Partial<EntryLine>;
  } catch {
    return undefined;
  }
}

/**
 * Adds a key's entry lines (`start` is their common beginning) to `into`, in order; false when a
 * line is not an entry of the key (damage). The ids stay sorted while only larger ones are added.
 */
function foldEntries(into: KeyIds, lines: readonly string[], start: string, key: string): boolean {
  for (const line of lines) {
    // As this writes them, `{"k":KEY,"a":"ID"}`, taken apart without JSON.parse (a window of the
    // created index may hold a whole import's ids); anything else is parsed, and checked.
    const plain = PLAIN_ENTRY_TAIL.exec(line.slice(start.length));
    const entry = plain ? { k: key, [plain[1]!]: plain[2]! } : parseEntry(line);
    const { k, a: added, r: removed } = entry ?? {};
    if (k !== key || (typeof added !== 'string') === (typeof removed !== 'string')) return false;
    if (added !== undefined && !into.ids.has(added)) {
      into.ids.add(added);
      if (into.sorted && (into.sorted.length === 0 || into.sorted.at(-1)! < added)) into.sorted.push(added);
      else into.sorted = undefined;
    }
    if (removed !== undefined && into.ids.delete(removed)) into.sorted = undefined;
  }
  return true;
}

/**
 * The state file's layout tag: a store whose indexes were written otherwise (one file a key; or
 * without pending logs, which an older shipper does not read) rebuilds them, either way.
 */
const LAYOUT = 'buckets-3';

/** A key's ids (sorted too, once asked). */
interface KeyIds {
  ids: Set<string>;
  sorted: string[] | undefined;
}

/** What was read of a key's lines in its bucket: its ids, and the bucket as it was then. */
interface FoldedKey extends KeyIds {
  ino: number;
  size: number;
  mtimeMs: number;
  whole: number;
  /** The inode of the kind's pending log when the bucket was read (see readBucket). */
  pendingIno: number | undefined;
}

/** A key's ids with its lines of the pending log: `base` (its bucket's, as read) and the first `count` pending lines folded. */
interface PendingFold {
  base: FoldedKey | undefined;
  ino: number;
  count: number;
  folded: KeyIds;
}

/**
 * Kinds whose entries go to a pending log first (bucketLogs.ts, PendingLines): their keys are
 * spread over 256 buckets by hash, so a batch's entries would touch hundreds of files (and create
 * them, in a new store). Serials and creation windows keep their buckets: a batch's are a few.
 */
const PENDING_KINDS: ReadonlySet<IndexKind> = new Set(['ref', 'pro', 'quote', 'message']);
const ENTRY_START = '{"k":';

export class KeyIndexes {
  private readonly root: string;
  /** What was read of a key's lines: the ids, and the bucket as it was (readBucket). */
  private readonly folded = new Map<string, FoldedKey>();
  /** A key's ids with its pending lines (readKey), while neither its bucket nor the pending log changed but by growing. */
  private readonly withPending = new Map<string, PendingFold>();
  /** Buckets that did not exist, with their kind's pending log's inode then (readBucket). */
  private readonly absent = new Map<string, number>();
  /** Each index's directory identity when this process last found it trusted. */
  private readonly lastTrusted = new Map<IndexKind, string>();
  /** The run of look-ups (BucketLogs.burst) each index was last found trusted in, or found missing. */
  private readonly trustedInBurst = new Map<IndexKind, { burst: object; trusted: boolean }>();

  constructor(
    private readonly storeRoot: string,
    private readonly sources: IndexSources,
    private readonly logs: BucketLogs,
    /** After a rebuild: the journal compacted, so that no line written before it is ever applied again over the rebuilt buckets. */
    private readonly afterRebuild: () => Promise<void>,
  ) {
    this.root = join(storeRoot, 'index');
  }

  private dirOf(kind: IndexKind): string {
    return join(this.root, kind);
  }

  private stateFile(kind: IndexKind): string {
    return join(this.root, `${kind}.state.json`);
  }

  /** The bucket of a key: a thousand serials, the created index's window itself, else the first byte of the key's hash. */
  private bucketOf(kind: IndexKind, key: string): string {
    if (kind === 'serial' && /^\d{1,15}$/.test(key)) return String(Math.floor(Number(key) / 1000));
    if (kind === 'created' && /^[0-9A-Za-z]{1,16}$/.test(key)) return key;
    return createHash('sha256').update(key).digest('hex').slice(0, 2);
  }

  private relativeBucket(kind: IndexKind, bucket: string): string {
    return `index/${kind}/${bucket}.log`;
  }

  private pendingLog(kind: IndexKind): string {
    return `index/${kind}/pending.log`;
  }

  /**
   * The ids under a key, from a trusted index: undefined when the index cannot be trusted now
   * (the caller takes the lock and calls ensureTrusted, then reads again).
   */
  async read(kind: IndexKind, key: string, known = false, lockHold?: object): Promise<string[] | undefined> {
    const trusted = known || this.isTrusted(kind);
    const folded = this.readKey(kind, key, lockHold);
    if (!trusted || folded === 'damaged') return undefined;
    return [...(folded?.ids ?? [])];
  }

  /**
   * As read, the ids sorted (ascending), not copied: a key every booking shares (a reference used
   * for everything) is sorted once and then kept sorted as bookings append larger ids.
   */
  async readSorted(kind: IndexKind, key: string, known = false, lockHold?: object): Promise<readonly string[] | undefined> {
    const trusted = known || this.isTrusted(kind);
    const folded = this.readKey(kind, key, lockHold);
    if (!trusted || folded === 'damaged') return undefined;
    if (!folded) return [];
    folded.sorted ??= [...folded.ids].sort();
    return folded.sorted;
  }

  /** Inside the lock: every one of `kinds` trusted, rebuilding those that are not (one scan of the records). */
  async ensureTrusted(kinds: readonly IndexKind[], damagedKey?: { kind: IndexKind; key: string }): Promise<void> {
    const untrusted: IndexKind[] = [];
    for (const kind of new Set(kinds)) if (!this.isTrusted(kind)) untrusted.push(kind);
    if (damagedKey && !untrusted.includes(damagedKey.kind) && this.readKey(damagedKey.kind, damagedKey.key) === 'damaged') untrusted.push(damagedKey.kind);
    if (untrusted.length > 0) await this.rebuild(untrusted);
  }

  /** Inside the lock: the journal writes that apply these changes to the (trusted) entries. */
  async plan(changes: readonly IndexChange[]): Promise<JournalWrite[]> {
    if (changes.length === 0) return [];
    await this.ensureTrusted(changes.map((change) => change.kind));
    return this.logs.appendAll(
      changes.map((change) => {
        const line: EntryLine = change.remove ? { k: change.key, r: change.id } : { k: change.key, a: change.id };
        const file = PENDING_KINDS.has(change.kind) ? this.pendingLog(change.kind) : this.relativeBucket(change.kind, this.bucketOf(change.kind, change.key));
        return [file, JSON.stringify(line)] as const;
      }),
    );
  }

  /** The keys of an index with safe names (the created buckets), from its directory. */
  async keys(kind: IndexKind): Promise<string[]> {
    const names = await fs.promises.readdir(this.dirOf(kind)).catch(() => [] as string[]);
    return names.filter((name) => name.endsWith('.log') && name !== 'pending.log').map((name) => name.slice(0, -'.log'.length));
  }

  /**
   * Inside the lock: the entries of each pending log that holds `limit` bytes or more, by the
   * bucket they belong in (fileStore.ts, mergePending, moves them). A damaged log is not moved:
   * its index is rebuilt on its next use.
   */
  pendingMoves(limit: number): Array<{ pending: string; lines: Array<readonly [string, string]> }> {
    const moves: Array<{ pending: string; lines: Array<readonly [string, string]> }> = [];
    for (const kind of PENDING_KINDS) {
      const pending = this.logs.pending(this.pendingLog(kind), ENTRY_START);
      if (!pending || pending.size < limit || pending.damaged) continue;
      // A key read as JSON reads it (keyedStart took only well-formed ones).
      const lines = pending.byBucket((key) => this.relativeBucket(kind, this.bucketOf(kind, JSON.parse(key) as string)));
      moves.push({ pending: this.pendingLog(kind), lines });
    }
    return moves;
  }

  /** The indexes trusted now (inside the lock). */
  async trustedKinds(): Promise<IndexKind[]> {
    const all: IndexKind[] = ['serial', 'pro', 'ref', 'quote', 'created', 'message'];
    return all.filter((kind) => this.isTrusted(kind));
  }

  /** After a batch was applied: its indexes are as this writer left them. */
  async markTrusted(kinds: readonly IndexKind[]): Promise<void> {
    await Promise.all([...new Set(kinds)].map((kind) => this.writeState(kind)));
    // Other processes trust the index again from their next look-up (generation.ts).
    if (kinds.length > 0) this.logs.generation.bump(true);
  }

  // Look-ups are synchronous: a stat or a read of a small file costs a few microseconds, the round
  // trip through the thread pool far more (readTextSync).
  private isTrusted(kind: IndexKind): boolean {
    // Found trusted in this run of look-ups (BucketLogs.burst): the directories are taken as they were then.
    const burst = this.logs.burst();
    const known = this.trustedInBurst.get(kind);
    if (known?.burst === burst) return known.trusted;
    const now = this.identity(kind);
    if (now === undefined) {
      // No index yet (a new store's first look-ups): so for the run.
      this.trustedInBurst.set(kind, { burst, trusted: false });
      return false;
    }
    // The directory as it was when last found trusted: nothing changed it since (one stat, no read).
    if (this.lastTrusted.get(kind) === now) {
      this.trustedInBurst.set(kind, { burst, trusted: true });
      return true;
    }
    let state: string | undefined;
    try {
      state = readTextSync(this.stateFile(kind));
    } catch {
      state = undefined;
    }
    const trusted = state !== undefined && state.trim() === `${LAYOUT} ${now}`;
    if (trusted) {
      this.lastTrusted.set(kind, now);
      this.trustedInBurst.set(kind, { burst, trusted });
    }
    return trusted;
  }

  /**
   * The index's directory and its records' directory as they are: a record added, removed or
   * renamed behind the store's back (a file restored by hand) makes the index untrusted too.
   */
  private identity(kind: IndexKind, fresh = false): string | undefined {
    const records = join(this.storeRoot, kind === 'message' ? 'events' : 'shipments');
    // A look-up's stats are taken as they were while no shipper wrote to the store (generation.ts);
    // the state a writer records is the directories' as they are.
    const stat = fresh ? (path: string) => fs.statSync(path, { throwIfNoEntry: false }) : (path: string) => this.logs.generation.stat(path);
    try {
      // Not bigint: twice as dear, and a double holds an mtime to a quarter of a microsecond.
      const index = stat(this.dirOf(kind));
      if (!index) return undefined;
      const source = stat(records);
      return `${index.ino} ${index.mtimeMs} ${source ? `${source.ino} ${source.mtimeMs}` : '-'}`;
    } catch {
      return undefined;
    }
  }

  private async writeState(kind: IndexKind): Promise<void> {
    const identity = this.identity(kind, true);
    if (identity === undefined) return;
    this.lastTrusted.set(kind, identity);
    try {
      overwriteMark(this.stateFile(kind), `${LAYOUT} ${identity}`, 128);
    } catch {
      // Not recorded: the index is rebuilt on its next use, which is slow but right.
    }
  }

  /**
   * The ids under `key`: its bucket's, then, for the kinds that have one, its lines of the pending
   * log, which is read first (a merge appends to the buckets before it empties the log). Folded
   * anew only when the bucket changed or the log was replaced; lines appended since are added.
   */
  private readKey(kind: IndexKind, key: string, lockHold?: object): KeyIds | undefined | 'damaged' {
    if (!PENDING_KINDS.has(kind)) return this.readBucket(kind, key);
    const pending = this.logs.pending(this.pendingLog(kind), ENTRY_START, lockHold);
    if (pending?.damaged) return 'damaged';
    const start = `${ENTRY_START}${JSON.stringify(key)},`;
    const lines = pending?.linesOf(start) ?? [];
    // No pending log (a store none was written to yet): 0, which a rebuild or a merge changes by making one.
    const base = this.readBucket(kind, key, pending?.ino ?? 0);
    if (lines.length === 0 || base === 'damaged') return base;
    const cacheKey = `${kind}\u0000${key}`;
    let fold = this.withPending.get(cacheKey);
    if (!fold || fold.base !== base || fold.ino !== pending!.ino || fold.count > lines.length) {
      fold = { base, ino: pending!.ino, count: 0, folded: { ids: new Set(base?.ids), sorted: base?.sorted ? [...base.sorted] : base?.ids.size ? undefined : [] } };
    }
    this.withPending.delete(cacheKey);
    if (!foldEntries(fold.folded, lines.slice(fold.count), start, key)) return 'damaged';
    fold.count = lines.length;
    this.withPending.set(cacheKey, fold);
    if (this.withPending.size > FOLDED_KEYS) this.withPending.delete(this.withPending.keys().next().value!);
    return fold.folded;
  }

  /**
   * The ids under `key`, from its bucket's lines (undefined: no such bucket yet). What was read of
   * a key is kept with where the bucket's whole lines ended, so the next look-up reads only the
   * lines appended since (a reference that every booking of a server shares, a window of the
   * created index); a bucket replaced, cut or rewritten at its size is read again.
   */
  private readBucket(kind: IndexKind, key: string, pendingIno?: number): FoldedKey | undefined | 'damaged' {
    const path = this.relativeBucket(kind, this.bucketOf(kind, key));
    const cacheKey = `${path}\u0000${key}`;
    const cached = this.folded.get(cacheKey);
    // The buckets of a kind with a pending log change only when it is merged into them, and a merge
    // ends by replacing the log: while its inode is the one they were read under, they are as read.
    if (pendingIno !== undefined && (cached?.pendingIno === pendingIno || this.absent.get(path) === pendingIno)) return cached;
    const stat = this.logs.generation.stat(`${this.storeRoot}/${path}`);
    if (!stat) {
      this.folded.delete(cacheKey);
      if (pendingIno !== undefined) this.absent.set(path, pendingIno);
      return undefined;
    }
    this.absent.delete(path);
    const grown = cached !== undefined && cached.ino === stat.ino && (stat.size > cached.size || (stat.size === cached.size && stat.mtimeMs === cached.mtimeMs));
    if (grown && stat.size === cached.size) {
      cached.pendingIno = pendingIno;
      return cached;
    }
    const start = `${ENTRY_START}${JSON.stringify(key)},`;
    const found = this.logs.findLinesSince(path, ENTRY_START, start, grown ? cached.whole : 0);
    this.folded.delete(cacheKey);
    if (found === undefined || found === 'damaged') return found;
    const into: KeyIds = grown ? { ids: cached.ids, sorted: cached.sorted } : { ids: new Set<string>(), sorted: undefined };
    if (!foldEntries(into, found.lines, start, key)) return 'damaged';
    const folded = { ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs, whole: found.whole, ids: into.ids, sorted: into.sorted, pendingIno };
    this.folded.set(cacheKey, folded);
    if (this.folded.size > FOLDED_KEYS) this.folded.delete(this.folded.keys().next().value!);
    return folded;
  }

  /** Rebuilds `kinds` from the records: written beside the old ones, then swapped in. */
  private async rebuild(kinds: readonly IndexKind[]): Promise<void> {
    const fromShipments = kinds.some((kind) => kind !== 'message') ? await this.sources.shipmentKeys() : [];
    const fromMessages = kinds.includes('message') ? await this.sources.messageKeys() : [];
    for (const kind of kinds) {
      const buckets = new Map<string, Map<string, Set<string>>>();
      for (const { id, keys } of kind === 'message' ? fromMessages : fromShipments) {
        for (const key of keys[kind] ?? []) {
          const bucket = this.bucketOf(kind, key);
          const bucketKeys = buckets.get(bucket) ?? new Map<string, Set<string>>();
          bucketKeys.set(key, (bucketKeys.get(key) ?? new Set()).add(id));
          buckets.set(bucket, bucketKeys);
        }
      }
      const text = (bucketKeys: Map<string, Set<string>>) =>
        [...bucketKeys].flatMap(([key, ids]) => [...ids].map((id) => `${JSON.stringify({ k: key, a: id } satisfies EntryLine)}\n`)).join('');
      const dir = this.dirOf(kind);
      const fresh = `${dir}.rebuild-${process.pid}`;
      const old = `${dir}.old-${process.pid}-${Date.now()}`;
      try {
        await rm(fresh, { recursive: true, force: true });
        await makeDirectory(fresh);
        await mapInOrder([...buckets], 32, ([bucket, bucketKeys]) => writeNewFile(join(fresh, `${bucket}.log`), Buffer.from(text(bucketKeys))));
        // An empty pending log of its own: readers that kept buckets under the old one's inode (or
        // under none) read these again (readBucket).
        if (PENDING_KINDS.has(kind)) await writeNewFile(join(fresh, 'pending.log'), Buffer.alloc(0));
        await rename(dir, old).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? undefined : Promise.reject(error)));
        await rename(fresh, dir);
        this.logs.endBurst();
        await rm(old, { recursive: true, force: true });
      } catch (error) {
        await rm(fresh, { recursive: true, force: true }).catch(() => undefined);
        throw new StoreError(`cannot rebuild the index ${dir}: ${describeFileError(error)}`, dir);
      }
      await this.writeState(kind);
      this.logs.generation.bump(true);
    }
    await this.afterRebuild();
  }
}
