/**
 * The file-based JSON store: one directory per collection, one file per record named by its id.
 * Ids sort by creation time, so "newest first" is a reverse sort of file names and reading one
 * record never reads another. Writes are atomic (write-file-atomic: temporary file, fsync,
 * rename); counters and other read-modify-write sequences run under a lock (proper-lockfile), so
 * two processes on one store neither lose writes nor share a number.
 */
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';

export class StoreError extends Error {
  constructor(
    message: string,
    readonly file?: string,
  ) {
    super(message);
    this.name = 'StoreError';
  }
}

/** Ids are used as file names: only these characters ever reach the file system. */
const RECORD_ID = /^[A-Za-z0-9_-]{1,128}$/;
const COLLECTION = /^[a-z][a-z0-9-]*$/;

export function isSafeRecordId(id: string): boolean {
  return RECORD_ID.test(id);
}

export interface ListOptions {
  limit: number;
  /** Exclusive: list ids older (newest first) than this one. */
  before?: string | undefined;
}

export class JsonStore {
  private readonly readyCollections = new Set<string>();

  constructor(readonly root: string) {}

  private collectionDir(collection: string): string {
    if (!COLLECTION.test(collection)) throw new StoreError(`bad collection name ${collection}`);
    return join(this.root, collection);
  }

  fileOf(collection: string, id: string): string {
    if (!isSafeRecordId(id)) throw new StoreError(`bad record id ${JSON.stringify(id)}`);
    return join(this.collectionDir(collection), `${id}.json`);
  }

  private async ensureCollection(collection: string): Promise<string> {
    const dir = this.collectionDir(collection);
    if (!this.readyCollections.has(collection)) {
      try {
        await mkdir(dir, { recursive: true });
      } catch (error) {
        throw new StoreError(`cannot create the store directory ${dir}: ${(error as Error).message}`, dir);
      }
      this.readyCollections.add(collection);
    }
    return dir;
  }

  /** The record, or undefined when there is none; a damaged file is a StoreError naming it. */
  async get<S extends z.ZodType>(collection: string, id: string, schema: S): Promise<z.output<S> | undefined> {
    const file = this.fileOf(collection, id);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new StoreError(`cannot read ${file}: ${(error as Error).message}`, file);
    }
    return parseRecord(file, text, schema);
  }

  async put(collection: string, id: string, record: unknown): Promise<void> {
    await this.ensureCollection(collection);
    const file = this.fileOf(collection, id);
    try {
      await writeFileAtomic(file, `${JSON.stringify(record, null, 2)}\n`, { fsync: true });
    } catch (error) {
      throw new StoreError(`cannot write ${file}: ${(error as Error).message}`, file);
    }
  }

  /** Ids of a collection, newest first (ids sort by creation time). */
  async listIds(collection: string, { limit, before }: ListOptions): Promise<{ ids: string[]; more: boolean }> {
    let names: string[];
    try {
      names = await readdir(this.collectionDir(collection));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ids: [], more: false };
      throw new StoreError(`cannot list ${this.collectionDir(collection)}: ${(error as Error).message}`);
    }
    const ids = names
      .filter((name) => name.endsWith('.json'))
      .map((name) => name.slice(0, -'.json'.length))
      .filter((id) => isSafeRecordId(id) && (before === undefined || id < before))
      .sort()
      .reverse();
    return { ids: ids.slice(0, limit), more: ids.length > limit };
  }

  /**
   * Runs fn while holding the store-wide lock called `name`. Stale locks of crashed processes are
   * taken over after `stale` ms (proper-lockfile refreshes live ones), so a SIGKILL never wedges
   * the store.
   */
  async withLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const dir = await this.ensureCollection('locks');
    const target = join(dir, `${name}.lock-target`);
    await writeFileAtomic(target, '', { fsync: false }).catch(() => undefined);
    // Loaded on first use: plain reads and quotes never lock, and start-up time matters.
    const { default: lockfile } = await import('proper-lockfile');
    let release: () => Promise<void>;
    try {
      release = await lockfile.lock(target, {
        stale: 10_000,
        update: 2_000,
        retries: { retries: 600, factor: 1.2, minTimeout: 5, maxTimeout: 100, randomize: true },
        realpath: false,
      });
    } catch (error) {
      throw new StoreError(`the store is busy (lock ${name} held by another process): ${(error as Error).message}`, target);
    }
    try {
      return await fn();
    } finally {
      await release().catch(() => undefined);
    }
  }

  /**
   * Reserves `count` consecutive numbers from a counter that only ever goes up and returns the
   * first. Must run inside withLock(name): the lock is what makes it safe across processes.
   */
  async reserveSerialsLocked(name: string, count = 1): Promise<number> {
    const current = await this.get('counters', name, counterSchema);
    const first = (current?.last ?? 0) + 1;
    await this.put('counters', name, { last: first + count - 1 });
    return first;
  }
}

const counterSchema = z.object({ last: z.number().int().min(0) });

function parseRecord<S extends z.ZodType>(file: string, text: string, schema: S): z.output<S> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new StoreError(`store file ${file} is damaged (not valid JSON: ${(error as Error).message}); restore it from a backup or remove it`, file);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new StoreError(`store file ${file} is damaged (it does not hold a valid record); restore it from a backup or remove it`, file);
  }
  return parsed.data;
}
