/**
 * Record files of the file store: one directory per collection, one file per record named by its id.
 * Ids sort by creation time, so "newest first" is a reverse sort of file names and reading one
 * record never reads another. Writes are atomic and durable (src/fs/durableWrite.ts: temporary
 * file, every byte, fsync, size check, rename, then a directory sync shared by the writes that
 * finished meanwhile); counters and other read-modify-write sequences run under a lock
 * (storeLock.ts), so two processes on one store neither lose writes nor share a number.
 */
import fs from 'node:fs';
import { access, readdir, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { mapInOrder } from '../../concurrency.js';
import { describeFileError, removeOrphanedTemporaries, syncDirectory, temporaryPathFor, writeNewFileDurably } from '../../fs/durableWrite.js';
import { makeDirectory } from '../../fs/makeDirectory.js';
import { readTextSync } from '../../fs/readText.js';
import { jsonSyntaxProblem } from '../../printable.js';
import { StoreError } from '../storeError.js';
import type { StoreGeneration } from './generation.js';
import { acquireLock, releaseLingeringLock } from './storeLock.js';
import { parseStored } from '../legacyRead.js';

/** Ids are used as file names: only these characters ever reach the file system. */
const RECORD_ID = /^[A-Za-z0-9_-]{1,128}$/;
/** A collection, or an index's (`index/order`). */
const COLLECTION = /^[a-z][a-z0-9-]*(?:\/[a-z][a-z0-9-]*)?$/;

/** `<id>.json.<pid>.<n>.tmp`, as put() and putMany() name their temporary files. */
const TEMPORARY_FILE = /^[A-Za-z0-9_-]{1,128}\.json\.(\d+)\.\d+\.tmp$/;

export function isSafeRecordId(id: string): boolean {
  return RECORD_ID.test(id);
}

export interface ListOptions {
  limit: number;
  /** Exclusive: list ids older (newest first) than this one. */
  before?: string | undefined;
}

export class RecordFiles {
  private readonly readyCollections = new Set<string>();
  private readonly sweptCollections = new Set<string>();
  private readonly directorySyncs = new DirectorySyncs();
  private readonly collectionDirs = new Map<string, string>();

  private readonly cache: RecordCache | undefined;
  private readonly generation: StoreGeneration | undefined;
  /** How long the lock is kept for a next unit of work of this process (storeLock.ts, lingerMs): a server's store only. */
  private readonly lockLingerMs: number;

  /**
   * @param options.cacheEntries records kept in memory after a read (a long-running server): a
   *   cached record is answered again only while its file is the same file (inode, size and
   *   mtime, one stat), so writes by other processes are seen at once.
   * @param options.generation the store's generation (generation.ts): a file is stat'ed again
   *   only after a shipper wrote to the store, and what this writes moves it.
   * @param options.lockLingerMs how long the store's lock is kept after a unit of work when no
   *   other of this process waits (a server, whose next batch comes once this one is answered).
   */
  constructor(
    readonly root: string,
    options: { cacheEntries?: number | undefined; generation?: StoreGeneration; lockLingerMs?: number } = {},
  ) {
    this.cache = options.cacheEntries ? new RecordCache(options.cacheEntries) : undefined;
    this.generation = options.generation;
    this.lockLingerMs = options.lockLingerMs ?? 0;
  }

  /** A file's stat (undefined: none), through the store's generation when there is one. */
  private statOf(file: string): fs.Stats | undefined {
    return this.generation ? this.generation.stat(file) : fs.statSync(file, STAT_QUIETLY);
  }

  /** Records held by the cache (for the server's bench and tests). */
  get cachedRecords(): number {
    return this.cache?.size ?? 0;
  }

  /** Creates the store directory and checks that it is writable: for a long-running server, which should fail at start-up, not at the first booking. */
  async prepare(): Promise<void> {
    try {
      await makeDirectory(this.root);
      await access(this.root, fs.constants.W_OK | fs.constants.X_OK);
    } catch (error) {
      throw new StoreError(`cannot use the store directory ${this.root}: ${describeFileError(error)}`, this.root);
    }
  }

  /** A record's file relative to the store (what the journal names). */
  relativeFileOf(collection: string, id: string): string {
    if (!isSafeRecordId(id)) throw new StoreError(`bad record id ${JSON.stringify(id)}`);
    if (!COLLECTION.test(collection)) throw new StoreError(`bad collection name ${collection}`);
    return `${collection}/${id}.json`;
  }

  /** A mark's file relative to the store. */
  relativeMarkOf(collection: string, name: string): string {
    if (!/^[a-z][a-z0-9.-]*$/.test(name)) throw new StoreError(`bad mark name ${name}`);
    return `${collection}/.${name}.json`;
  }

  /** A record as its file holds it: compact JSON (half the bytes to write, journal and read of indented JSON; `jq .` shows it indented). */
  static text(record: unknown): string {
    return `${JSON.stringify(record)}\n`;
  }

  /** Removes a record's file (durably); false when there was none. */
  async remove(collection: string, id: string): Promise<boolean> {
    const file = this.fileOf(collection, id);
    try {
      await unlink(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw new StoreError(`cannot remove ${file}: ${describeFileError(error)}`, file);
    }
    await this.directorySyncs.sync(this.collectionDir(collection));
    this.generation?.bump(false);
    return true;
  }

  /** Whether a collection was ever written (its directory exists). */
  async collectionExists(collection: string): Promise<boolean> {
    return this.statOf(this.collectionDir(collection))?.isDirectory() ?? false;
  }

  collectionDir(collection: string): string {
    // Made once per collection (few): a server asks for some at every request, and the same
    // string each time keeps its hash for the look-ups keyed by it.
    let dir = this.collectionDirs.get(collection);
    if (dir === undefined) {
      if (!COLLECTION.test(collection)) throw new StoreError(`bad collection name ${collection}`);
      dir = join(this.root, collection);
      if (this.collectionDirs.size < 64) this.collectionDirs.set(collection, dir);
    }
    return dir;
  }

  fileOf(collection: string, id: string): string {
    if (!isSafeRecordId(id)) throw new StoreError(`bad record id ${JSON.stringify(id)}`);
    return join(this.collectionDir(collection), `${id}.json`);
  }

  private async ensureCollection(collection: string): Promise<string> {
    const dir = this.collectionDir(collection);
    if (!this.readyCollections.has(collection)) {
      try {
        await makeDirectory(dir);
      } catch (error) {
        throw new StoreError(`cannot create the store directory ${dir}: ${describeFileError(error)}`, dir);
      }
      this.readyCollections.add(collection);
    }
    return dir;
  }

  /** The record, or undefined when there is none; a damaged file is a StoreError naming it. */
  async get<S extends z.ZodType>(collection: string, id: string, schema: S): Promise<z.output<S> | undefined> {
    return this.readRecordFile(this.fileOf(collection, id), schema);
  }

  private async readRecordFile<S extends z.ZodType>(file: string, schema: S): Promise<z.output<S> | undefined> {
    let text: string;
    let identity: FileIdentity | undefined;
    try {
      // Synchronously: one small file, and the thread pool's round trip costs more than the read (readTextSync).
      if (this.cache) {
        const info = this.statOf(file);
        if (!info) return undefined;
        identity = { ino: info.ino, size: info.size, mtimeMs: info.mtimeMs };
        const hit = this.cache.get(file, schema, identity);
        if (hit !== undefined) return hit as z.output<S>;
      }
      text = readTextSync(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new StoreError(`cannot read ${file}: ${describeFileError(error)}`, file);
    }
    const record = parseRecord(file, text, schema);
    // Tagged with the identity seen before the read: if the file was replaced meanwhile, the next read sees a new one.
    if (this.cache && identity) this.cache.set(file, schema, identity, record);
    return record;
  }

  /**
   * A record kept in a bucket log (`relative` to the store), through the record cache when there
   * is one (a long-running server): `read` runs unless the record was read from the bucket as it
   * is now (same inode, size and mtime: a bucket only grows).
   */
  cachedInBucket<S extends z.ZodType>(relative: string, id: string, schema: S, read: () => z.output<S> | undefined): z.output<S> | undefined {
    if (!this.cache) return read();
    // Joined by hand: `relative` is the store's own bucket name, and path.join costs more than the stat here.
    const file = `${this.root}/${relative}`;
    const info = this.statOf(file);
    if (!info) return read();
    const identity = { ino: info.ino, size: info.size, mtimeMs: info.mtimeMs };
    const key = `${file}#${id}`;
    const hit = this.cache.get(key, schema, identity);
    if (hit !== undefined) return hit as z.output<S>;
    const record = read();
    if (record !== undefined) this.cache.set(key, schema, identity, record);
    return record;
  }

  async put(collection: string, id: string, record: unknown): Promise<void> {
    await this.writeRecordFile(collection, this.fileOf(collection, id), record);
  }

  /**
   * A collection's mark: a small record kept beside its records but never listed as one
   * (`.<name>.json`), for what must travel with them, e.g. the highest number they carry.
   */
  getMark<S extends z.ZodType>(collection: string, name: string, schema: S): Promise<z.output<S> | undefined> {
    return this.readRecordFile(this.markFile(collection, name), schema);
  }

  async putMark(collection: string, name: string, record: unknown): Promise<void> {
    await this.writeRecordFile(collection, this.markFile(collection, name), record);
  }

  private markFile(collection: string, name: string): string {
    if (!/^[a-z][a-z0-9.-]*$/.test(name)) throw new StoreError(`bad mark name ${name}`);
    return join(this.collectionDir(collection), `.${name}.json`);
  }

  private async writeRecordFile(collection: string, file: string, record: unknown): Promise<void> {
    const dir = await this.ensureCollection(collection);
    const temp = temporaryPathFor(file);
    try {
      await writeNewFileDurably(temp, Buffer.from(RecordFiles.text(record)));
      await rename(temp, file);
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      throw new StoreError(`cannot write ${file}: ${describeFileError(error)}`, file);
    }
    await this.directorySyncs.sync(dir);
    this.generation?.bump(false);
  }

  /**
   * Writes many records of one collection, each atomically (temporary file, fsync, rename) like
   * put(), but in parallel: fsyncs issued together share the file system's journal commits, which
   * makes a batch of thousands several times faster than one put() after another. Resolves only
   * when every record is renamed into place and the directory entry is synced; on failure the
   * temporary files are removed and no partially written record is ever visible.
   */
  async putMany(collection: string, records: ReadonlyArray<{ id: string; record: unknown }>, concurrency = 32): Promise<void> {
    // Also when there is nothing to write: re-running a finished import is how its leftovers go.
    if (!this.sweptCollections.has(collection)) {
      this.sweptCollections.add(collection);
      await this.removeOrphanedTemporaries(collection);
    }
    if (records.length === 0) return;
    const dir = await this.ensureCollection(collection);
    const writes = records.map(({ id, record }) => {
      const file = this.fileOf(collection, id);
      // Never ends in .json, so listIds() cannot see a half-written record.
      return { file, temp: temporaryPathFor(file), text: `${JSON.stringify(record, null, 2)}\n` };
    });
    try {
      await mapInOrder(writes, concurrency, ({ temp, text }) => writeNewFileDurably(temp, Buffer.from(text)));
      await mapInOrder(writes, concurrency, ({ temp, file }) => rename(temp, file));
      await syncDirectory(dir);
    } catch (error) {
      await Promise.all(writes.map(({ temp }) => unlink(temp).catch(() => undefined)));
      throw new StoreError(`cannot write to ${dir}: ${describeFileError(error)}`, dir);
    } finally {
      this.generation?.bump(false);
    }
  }

  /**
   * Removes the temporary files that killed processes left in a collection (a SIGKILL or Ctrl-C
   * between a write and its rename: an interrupted import leaves up to a chunk of them). Each
   * temporary file names its writer's pid; those of live processes are left alone. Batches call it
   * once per collection and process; it costs one directory listing.
   */
  async removeOrphanedTemporaries(collection: string): Promise<number> {
    return removeOrphanedTemporaries(this.collectionDir(collection), TEMPORARY_FILE);
  }

  /**
   * Every id of a small collection (the credentials: a few files), newest first. A long-running
   * server lists its directory again only after a shipper wrote to the store (generation.ts): an
   * open sandbox asks at every request whether a client or a key was added meanwhile, and that
   * look costs nothing while the store is as it was.
   */
  smallCollectionIds(collection: string): string[] {
    const dir = this.collectionDir(collection);
    let names: readonly string[] | undefined;
    try {
      names = this.generation ? this.generation.names(dir) : fs.readdirSync(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw new StoreError(`cannot list ${dir}: ${describeFileError(error)}`, dir);
    }
    return idsOf(names ?? [], undefined);
  }

  /** Ids of a collection, newest first (ids sort by creation time). */
  async listIds(collection: string, { limit, before }: ListOptions): Promise<{ ids: string[]; more: boolean }> {
    let names: string[];
    try {
      names = await readdir(this.collectionDir(collection));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ids: [], more: false };
      throw new StoreError(`cannot list ${this.collectionDir(collection)}: ${describeFileError(error)}`, this.collectionDir(collection));
    }
    const ids = idsOf(names, before);
    return { ids: ids.slice(0, limit), more: ids.length > limit };
  }

  /**
   * Runs fn while holding the store-wide lock called `name` (storeLock.ts): other processes wait;
   * a lock whose holder is gone (a SIGKILL) is taken over at once, so a crash never wedges the
   * store nor stalls the next process.
   */
  async withLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const dir = await this.ensureCollection('locks');
    const release = await acquireLock(join(dir, `${name}.lock`), { lingerMs: this.lockLingerMs });
    try {
      return await fn();
    } finally {
      await release().catch(() => undefined);
    }
  }

  /** Removes a lock this process keeps lingering (before it stops). */
  releaseLock(name: string): Promise<void> {
    return releaseLingeringLock(join(this.collectionDir('locks'), `${name}.lock`)).catch(() => undefined);
  }
}

const STAT_QUIETLY = { throwIfNoEntry: false } as const;

/** The records' ids among a directory's names, newest first (older than `before` when given). */
function idsOf(names: readonly string[], before: string | undefined): string[] {
  return names
    .filter((name) => name.endsWith('.json'))
    .map((name) => name.slice(0, -'.json'.length))
    .filter((id) => isSafeRecordId(id) && (before === undefined || id < before))
    .sort()
    .reverse();
}

interface FileIdentity {
  ino: number;
  size: number;
  mtimeMs: number;
}

/** Parsed records by file, least recently used first out (a Map keeps insertion order; a hit re-inserts). */
class RecordCache {
  private readonly entries = new Map<string, { schema: unknown; identity: FileIdentity; record: unknown }>();

  constructor(private readonly max: number) {}

  get(file: string, schema: unknown, identity: FileIdentity): unknown {
    const entry = this.entries.get(file);
    if (!entry || entry.schema !== schema) return undefined;
    const same = entry.identity.ino === identity.ino && entry.identity.size === identity.size && entry.identity.mtimeMs === identity.mtimeMs;
    if (!same) {
      this.entries.delete(file);
      return undefined;
    }
    this.entries.delete(file);
    this.entries.set(file, entry);
    return entry.record;
  }

  set(file: string, schema: unknown, identity: FileIdentity, record: unknown): void {
    this.entries.delete(file);
    this.entries.set(file, { schema, identity, record });
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * Group commit for directory syncs: a rename is durable once its directory is synced, and one sync
 * covers every rename before it. A caller whose rename finished while a sync runs waits for the
 * next one, which all such callers share; under load, 32 concurrent puts cost one or two
 * directory syncs instead of 32. (With write-file-atomic per put, which this replaced, bench/serve
 * measured about 1,000 POST quotes/s; with this, 1,400-2,600/s on the same machine.)
 */
class DirectorySyncs {
  private readonly running = new Map<string, Promise<void>>();
  private readonly queued = new Map<string, Promise<void>>();

  sync(dir: string): Promise<void> {
    const queued = this.queued.get(dir);
    if (queued) return queued;
    const running = this.running.get(dir);
    if (!running) return this.start(dir);
    const startNext = () => {
      this.queued.delete(dir);
      return this.start(dir);
    };
    const next = running.then(startNext, startNext);
    this.queued.set(dir, next);
    return next;
  }

  private start(dir: string): Promise<void> {
    const sync = syncDirectory(dir).finally(() => this.running.delete(dir));
    this.running.set(dir, sync);
    return sync;
  }
}

function parseRecord<S extends z.ZodType>(file: string, text: string, schema: S): z.output<S> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new StoreError(`store file ${file} is damaged (${jsonSyntaxProblem(error, text)}); restore it from a backup or remove it`, file);
  }
  const parsed = parseStored(schema, json);
  if (!parsed.success) {
    throw new StoreError(`store file ${file} is damaged (it does not hold a valid record); restore it from a backup or remove it`, file);
  }
  return parsed.data;
}
