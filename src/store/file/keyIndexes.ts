/**
 * The file store's indexes: one small file per key (`index/<kind>/<key>.json`, the ids that carry
 * it), written in the same journal batch as the records they point to, so a look-up by order
 * number, BOL number, PRO, reference, quote or carrier message costs one file read whatever the
 * store's size, and never depends on the order of ids.
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
import { describeFileError, temporaryPathFor, writeNewFile } from '../../fs/durableWrite.js';
import { makeDirectory } from '../../fs/makeDirectory.js';
import { readTextSync } from '../../fs/readText.js';
import { StoreError } from '../storeError.js';
import type { JournalWrite } from './journal.js';
import { isSafeRecordId, RecordFiles } from './recordFiles.js';

/**
 * serial: order serial -> shipments (order and BOL numbers: a BOL number carries its serial);
 * pro: normalised PRO -> shipments; ref: normalised reference -> shipments; quote: quote id ->
 * shipments booked on it; created: a 17-minute bucket of creation time (the ids' first
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

interface Entry {
  key: string;
  ids: string[];
}

export class KeyIndexes {
  private readonly root: string;
  /** Each index's directory identity when this process last found it trusted. */
  private readonly lastTrusted = new Map<IndexKind, string>();

  constructor(
    private readonly storeRoot: string,
    private readonly sources: IndexSources,
  ) {
    this.root = join(storeRoot, 'index');
  }

  private dirOf(kind: IndexKind): string {
    return join(this.root, kind);
  }

  private stateFile(kind: IndexKind): string {
    return join(this.root, `${kind}.state.json`);
  }

  /** The file name of a key: the key itself when it is a safe name, else its hash. */
  private fileName(kind: IndexKind, key: string): string {
    return kind !== 'ref' && kind !== 'message' && isSafeRecordId(key) && key.length <= 100 ? key : createHash('sha256').update(key).digest('hex');
  }

  relativeEntry(kind: IndexKind, key: string): string {
    return `index/${kind}/${this.fileName(kind, key)}.json`;
  }

  /**
   * The ids under a key, from a trusted index: undefined when the index cannot be trusted now
   * (the caller takes the lock and calls ensureTrusted, then reads again).
   */
  async read(kind: IndexKind, key: string, known = false): Promise<string[] | undefined> {
    const trusted = known || this.isTrusted(kind);
    const entry = this.readEntry(kind, key);
    if (!trusted || entry === 'damaged') return undefined;
    return entry?.ids ?? [];
  }

  /** Inside the lock: every one of `kinds` trusted, rebuilding those that are not (one scan of the records). */
  async ensureTrusted(kinds: readonly IndexKind[], damagedKey?: { kind: IndexKind; key: string }): Promise<void> {
    const untrusted: IndexKind[] = [];
    for (const kind of new Set(kinds)) if (!this.isTrusted(kind)) untrusted.push(kind);
    if (damagedKey && !untrusted.includes(damagedKey.kind) && this.readEntry(damagedKey.kind, damagedKey.key) === 'damaged') untrusted.push(damagedKey.kind);
    if (untrusted.length > 0) await this.rebuild(untrusted);
  }

  /** Inside the lock: the journal writes that apply these changes to the (trusted) entries. */
  async plan(changes: readonly IndexChange[]): Promise<JournalWrite[]> {
    if (changes.length === 0) return [];
    await this.ensureTrusted(changes.map((change) => change.kind));
    const grouped = new Map<string, { kind: IndexKind; key: string; changes: IndexChange[] }>();
    for (const change of changes) {
      const path = this.relativeEntry(change.kind, change.key);
      const group = grouped.get(path) ?? { kind: change.kind, key: change.key, changes: [] };
      group.changes.push(change);
      grouped.set(path, group);
    }
    return [...grouped].map(([path, { kind, key, changes: changed }]) => {
      const current = this.readEntry(kind, key);
      if (current === 'damaged') throw new StoreError(`the index entry ${join(this.root, kind)} for ${key} is damaged`);
      const ids = [...(current?.ids ?? [])];
      for (const change of changed) {
        const at = ids.indexOf(change.id);
        if (change.remove && at >= 0) ids.splice(at, 1);
        if (!change.remove && at < 0) ids.push(change.id);
      }
      return ids.length === 0 ? { path, remove: true as const } : { path, text: RecordFiles.text({ key, ids } satisfies Entry) };
    });
  }

  /** The keys of an index with safe names (the created buckets), from its directory. */
  async keys(kind: IndexKind): Promise<string[]> {
    const names = await fs.promises.readdir(this.dirOf(kind)).catch(() => [] as string[]);
    return names.filter((name) => name.endsWith('.json')).map((name) => name.slice(0, -'.json'.length));
  }

  /** The indexes trusted now (inside the lock). */
  async trustedKinds(): Promise<IndexKind[]> {
    const all: IndexKind[] = ['serial', 'pro', 'ref', 'quote', 'created', 'message'];
    return all.filter((kind) => this.isTrusted(kind));
  }

  /** After a batch was applied: its indexes are as this writer left them. */
  async markTrusted(kinds: readonly IndexKind[]): Promise<void> {
    await Promise.all([...new Set(kinds)].map((kind) => this.writeState(kind)));
  }

  // Look-ups are synchronous: a stat or a read of a small file costs a few microseconds, the round
  // trip through the thread pool far more (readTextSync).
  private isTrusted(kind: IndexKind): boolean {
    const now = this.identity(kind);
    if (now === undefined) return false;
    // The directory as it was when last found trusted: nothing changed it since (one stat, no read).
    if (this.lastTrusted.get(kind) === now) return true;
    let state: string | undefined;
    try {
      state = readTextSync(this.stateFile(kind));
    } catch {
      state = undefined;
    }
    const trusted = state !== undefined && state.trim() === now;
    if (trusted) this.lastTrusted.set(kind, now);
    return trusted;
  }

  /**
   * The index's directory and its records' directory as they are: a record added, removed or
   * renamed behind the store's back (a file restored by hand) makes the index untrusted too.
   */
  private identity(kind: IndexKind): string | undefined {
    const records = join(this.storeRoot, kind === 'message' ? 'events' : 'shipments');
    try {
      const index = fs.statSync(this.dirOf(kind), { bigint: true });
      const source = fs.statSync(records, { bigint: true, throwIfNoEntry: false });
      return `${index.ino} ${index.mtimeNs} ${source ? `${source.ino} ${source.mtimeNs}` : '-'}`;
    } catch {
      return undefined;
    }
  }

  private async writeState(kind: IndexKind): Promise<void> {
    const identity = this.identity(kind);
    if (identity === undefined) return;
    this.lastTrusted.set(kind, identity);
    const file = this.stateFile(kind);
    const temp = temporaryPathFor(file);
    try {
      await writeNewFile(temp, Buffer.from(`${identity}\n`));
      await rename(temp, file);
    } catch {
      // Not recorded: the index is rebuilt on its next use, which is slow but right.
      await rm(temp, { force: true }).catch(() => undefined);
    }
  }

  private readEntry(kind: IndexKind, key: string): Entry | undefined | 'damaged' {
    let text: string;
    try {
      text = readTextSync(join(this.dirOf(kind), `${this.fileName(kind, key)}.json`));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      return 'damaged';
    }
    try {
      const value = JSON.parse(text) as Entry;
      if (typeof value.key !== 'string' || !Array.isArray(value.ids) || !value.ids.every((id) => typeof id === 'string')) return 'damaged';
      return value;
    } catch {
      return 'damaged';
    }
  }

  /** Rebuilds `kinds` from the records: written beside the old ones, then swapped in. */
  private async rebuild(kinds: readonly IndexKind[]): Promise<void> {
    const fromShipments = kinds.some((kind) => kind !== 'message') ? await this.sources.shipmentKeys() : [];
    const fromMessages = kinds.includes('message') ? await this.sources.messageKeys() : [];
    for (const kind of kinds) {
      const entries = new Map<string, Entry>();
      for (const { id, keys } of kind === 'message' ? fromMessages : fromShipments) {
        for (const key of keys[kind] ?? []) {
          const entry = entries.get(key) ?? { key, ids: [] };
          if (!entry.ids.includes(id)) entry.ids.push(id);
          entries.set(key, entry);
        }
      }
      const dir = this.dirOf(kind);
      const fresh = `${dir}.rebuild-${process.pid}`;
      const old = `${dir}.old-${process.pid}-${Date.now()}`;
      try {
        await rm(fresh, { recursive: true, force: true });
        await makeDirectory(fresh);
        await mapInOrder([...entries.values()], 32, (entry) => writeNewFile(join(fresh, `${this.fileName(kind, entry.key)}.json`), Buffer.from(RecordFiles.text(entry))));
        await rename(dir, old).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? undefined : Promise.reject(error)));
        await rename(fresh, dir);
        await rm(old, { recursive: true, force: true });
      } catch (error) {
        await rm(fresh, { recursive: true, force: true }).catch(() => undefined);
        throw new StoreError(`cannot rebuild the index ${dir}: ${describeFileError(error)}`, dir);
      }
      await this.writeState(kind);
    }
  }
}
