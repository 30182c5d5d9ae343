/**
 * The store's cross-process lock: a directory `<name>.lock` that holds `owner.json`, who holds it
 * (pid, host, boot, the process's start time, a random token). It replaces proper-lockfile, which
 * only knows a lock by its age: a lock left by a killed `serve` stalled the next process's bookings
 * for its 10 s stale time, and its stale takeover (rmdir, then mkdir) lets a delayed contender
 * remove the lock another has just taken, so that both hold it (node-proper-lockfile issue #121).
 *
 * - Taking it is one atomic rename of a prepared directory (owner.json inside) onto the lock's
 *   name: it fails while a lock is there, so the lock never exists without its owner.
 * - A holder that is gone from this host (its pid is dead, or now another process's: the start
 *   time differs, or the machine rebooted) is taken over at once. On another host (a shared
 *   store), or where a start time cannot be read, the holder refreshes the owner file every 2 s
 *   and a lock not refreshed for 10 s is taken over.
 * - Takeover renames the dead lock to `<name>.lock.dead-<token of the dead owner>`. Exactly one
 *   contender wins that rename; a contender that judged the same dead owner later finds the name
 *   taken by a non-empty directory, and its rename fails (ENOTEMPTY) instead of moving the lock
 *   a live process has taken meanwhile. That is why these tombstones stay an hour before they are
 *   swept: a contender paused longer than that between reading the owner and its rename is the
 *   only way two could hold the lock.
 * - Within one process, callers queue in memory and only the first polls the file system; while
 *   callers wait, the lock passes from one to the next without being released (acquireLock).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, readlinkSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, rmdir, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { describeFileError, isProcessAlive } from '../../fs/durableWrite.js';
import type { ErrorCode } from '../../domain/errors.js';
import { StoreError } from '../storeError.js';

export interface LockOwner {
  pid: number;
  host: string;
  /** Linux boot id: a pid from before a reboot names nobody. */
  boot: string | null;
  /** Linux pid namespace: a pid of another container on the same host is not one of ours to check. */
  pidNamespace: string | null;
  /** Start time of the process (clock ticks since boot, /proc/<pid>/stat): a reused pid has another. */
  started: string | null;
  token: string;
  since: string;
}

/** The store's lock could not be taken: a store failure (exit 5, 500), named by the lock's path. */
export class LockError extends StoreError {
  override readonly code: ErrorCode = 'STORE_LOCK';

  constructor(
    message: string,
    readonly path: string,
  ) {
    super(message, path);
    this.name = 'LockError';
  }
}

/** A live holder kept the lock longer than the wait: the store is busy, not broken (503 with Retry-After from a server). */
export class StoreBusyError extends LockError {
  override readonly code: ErrorCode = 'STORE_BUSY';

  constructor(message: string, path: string) {
    super(message, path);
    this.name = 'StoreBusyError';
  }
}

export interface LockOptions {
  /** How long to wait for a live holder before giving up (ms). */
  waitMs?: number;
  /** A lock not refreshed for this long, whose holder cannot be checked, is taken over (ms). */
  staleMs?: number;
  /** How often a holder refreshes its owner file (ms). */
  refreshMs?: number;
}

const DEFAULTS = { waitMs: 60_000, staleMs: 10_000, refreshMs: 2_000 };
/** How long tombstones of taken-over locks are kept (see the module comment). */
const TOMBSTONE_MS = 60 * 60 * 1000;
const OWNER_FILE = 'owner.json';

export type Release = () => Promise<void>;

// -----------------------------------------------------------------------------------------------
// This process and others

let self: Omit<LockOwner, 'token' | 'since'> | undefined;

function thisProcess(): Omit<LockOwner, 'token' | 'since'> {
  self ??= { pid: process.pid, host: hostname(), boot: bootId(), pidNamespace: pidNamespace(), started: processStart(process.pid) };
  return self;
}

let boot: string | null | undefined;

/** This boot of the machine (Linux; null elsewhere): what was in memory only, a power cut or a reboot has lost. */
export function bootId(): string | null {
  if (boot === undefined) {
    try {
      boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null;
    } catch {
      boot = null;
    }
  }
  return boot;
}

function pidNamespace(): string | null {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return null;
  }
}

/** Field 22 of /proc/<pid>/stat (after the command name, which may hold spaces and parentheses). */
export function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/**
 * Whether the owner of a lock is gone. `refreshedMs` is when its owner file was last refreshed.
 * A process of this host is checked directly; one elsewhere only by the refreshes.
 */
export function ownerIsGone(owner: LockOwner, refreshedMs: number, staleMs: number, now = Date.now()): boolean {
  const me = thisProcess();
  const stale = now - refreshedMs > staleMs;
  // Another machine, or another container's pids: only the refreshes tell.
  if (owner.host !== me.host || owner.pidNamespace !== me.pidNamespace) return stale;
  if (owner.boot && me.boot && owner.boot !== me.boot) return true;
  if (owner.pid === me.pid && owner.started === me.started) return false;
  if (!isProcessAlive(owner.pid)) return true;
  const started = owner.started ? processStart(owner.pid) : null;
  if (started !== null) return started !== owner.started;
  // Alive, but the pid cannot be told from a reused one here: the refreshes decide.
  return stale;
}

// -----------------------------------------------------------------------------------------------
// The lock

const inProcessQueues = new Map<string, Promise<void>>();

/**
 * A lock this process holds on the file system, handed from one in-process caller to the next
 * while callers wait: a server's units of work follow one another without taking and releasing
 * the lock directory each time (six file-system calls). Other processes get their turn at most
 * HANDOVER_LIMIT hand-overs or HANDOVER_MS after it was taken.
 */
interface HeldLock {
  releaseFile: Release;
  since: number;
  handovers: number;
  /** Callers that took it so far: a lingering release goes ahead only if none took it since. */
  uses: number;
  linger: NodeJS.Timeout | undefined;
}
const heldLocks = new Map<string, HeldLock>();
const waitingCallers = new Map<string, number>();
export const HANDOVER_LIMIT = 32;
const HANDOVER_MS = 200;

export interface LingerOptions {
  /**
   * How long a lock no caller waits for is kept before its files are removed (ms; 0: removed at
   * once). A server's clients send their next request only once the previous batch is answered,
   * that is after its unit of work released the lock: kept this long, the lock is handed to that
   * next batch instead of being removed and taken again (a directory, an owner file and three
   * renames or removals a batch). Within HANDOVER_LIMIT and HANDOVER_MS as any hand-over.
   */
  lingerMs?: number;
}

/** Takes the lock `lockDir` (e.g. `<store>/locks/orders.lock`), waiting for a live holder; resolves with its release. */
export async function acquireLock(lockDir: string, options: LockOptions & LingerOptions = {}): Promise<Release> {
  const { lingerMs = 0, ...lockOptions } = options;
  const settings = { ...DEFAULTS, ...lockOptions };
  // Callers in this process queue here: only the head of the queue touches the file system.
  const before = inProcessQueues.get(lockDir) ?? Promise.resolve();
  let leave!: () => void;
  const turn = new Promise<void>((resolve) => (leave = resolve));
  const queue = before.then(() => turn);
  inProcessQueues.set(lockDir, queue);
  waitingCallers.set(lockDir, (waitingCallers.get(lockDir) ?? 0) + 1);
  await before;
  const stillWaiting = waitingCallers.get(lockDir)! - 1;
  if (stillWaiting > 0) waitingCallers.set(lockDir, stillWaiting);
  else waitingCallers.delete(lockDir);
  const done = () => {
    if (inProcessQueues.get(lockDir) === queue) inProcessQueues.delete(lockDir);
    leave();
  };
  try {
    let held = heldLocks.get(lockDir);
    if (held) {
      held.handovers++;
      clearTimeout(held.linger);
      held.linger = undefined;
    } else {
      held = { releaseFile: await acquireFileLock(lockDir, settings), since: Date.now(), handovers: 0, uses: 0, linger: undefined };
      heldLocks.set(lockDir, held);
    }
    held.uses++;
    const lock = held;
    return async () => {
      try {
        const next = (waitingCallers.get(lockDir) ?? 0) > 0;
        const spent = lock.handovers >= HANDOVER_LIMIT || Date.now() - lock.since >= HANDOVER_MS;
        if (spent || (!next && lingerMs <= 0)) {
          heldLocks.delete(lockDir);
          await lock.releaseFile();
        } else if (!next) {
          const uses = lock.uses;
          const left = Math.max(0, Math.min(lingerMs, lock.since + HANDOVER_MS - Date.now()));
          lock.linger = setTimeout(() => void releaseLingering(lockDir, lock, uses), left);
        }
      } finally {
        done();
      }
    };
  } catch (error) {
    done();
    throw error;
  }
}

/**
 * Removes the files of a lingering lock unless a caller took it since (`uses` moved), in its turn
 * of the in-process queue: no caller finds the lock held while its files are being removed.
 */
function releaseLingering(lockDir: string, lock: HeldLock, uses: number): Promise<void> {
  const before = inProcessQueues.get(lockDir) ?? Promise.resolve();
  let leave!: () => void;
  const turn = new Promise<void>((resolve) => (leave = resolve));
  const queue = before.then(() => turn);
  inProcessQueues.set(lockDir, queue);
  return before.then(async () => {
    try {
      if (heldLocks.get(lockDir) === lock && lock.uses === uses) {
        clearTimeout(lock.linger);
        heldLocks.delete(lockDir);
        await lock.releaseFile();
      }
    } finally {
      if (inProcessQueues.get(lockDir) === queue) inProcessQueues.delete(lockDir);
      leave();
    }
  });
}

/** Removes the files of the lock `lockDir` if this process keeps it lingering (a server that stops). */
export async function releaseLingeringLock(lockDir: string): Promise<void> {
  const lock = heldLocks.get(lockDir);
  if (lock?.linger !== undefined) await releaseLingering(lockDir, lock, lock.uses);
}

async function acquireFileLock(lockDir: string, settings: typeof DEFAULTS): Promise<Release> {
  const deadline = Date.now() + settings.waitMs;
  let pause = 5;
  let lastOwner: LockOwner | undefined;
  for (;;) {
    const owner = await tryCreate(lockDir);
    if (owner) return holding(lockDir, owner, settings.refreshMs);
    const holder = await readOwner(lockDir);
    if (holder === 'missing') continue; // released meanwhile: try again at once
    lastOwner = holder.owner ?? lastOwner;
    if (holder.owner ? ownerIsGone(holder.owner, holder.refreshedMs, settings.staleMs) : Date.now() - holder.refreshedMs > settings.staleMs) {
      await takeOver(lockDir, holder.tombstone);
      continue;
    }
    if (Date.now() >= deadline) {
      const who = lastOwner ? ` by process ${lastOwner.pid} on ${lastOwner.host} since ${lastOwner.since}` : '';
      throw new StoreBusyError(`the store is busy: ${lockDir} is held${who}; try again when it finishes`, lockDir);
    }
    await new Promise((resolve) => setTimeout(resolve, pause * (0.5 + Math.random())));
    pause = Math.min(100, pause * 1.2);
  }
}

/** Creates the lock with its owner in one rename; undefined when a lock is already there. */
async function tryCreate(lockDir: string): Promise<LockOwner | undefined> {
  const owner: LockOwner = { ...thisProcess(), token: randomBytes(12).toString('hex'), since: new Date().toISOString() };
  const staging = `${lockDir}.${owner.token}.new`;
  try {
    await mkdir(staging);
    await writeFile(join(staging, OWNER_FILE), `${JSON.stringify(owner)}\n`);
  } catch (error) {
    await rm(staging, { recursive: true, force: true }).catch(() => undefined);
    throw new LockError(`cannot lock the store in ${dirname(lockDir)}: ${describeFileError(error)}`, dirname(lockDir));
  }
  try {
    await rename(staging, lockDir);
    return owner;
  } catch (error) {
    await rm(staging, { recursive: true, force: true }).catch(() => undefined);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST') return undefined;
    if (code === 'ENOTDIR') {
      throw new LockError(`cannot lock the store: ${lockDir} is a file, not a lock directory (shipper never writes one there); remove it`, lockDir);
    }
    throw new LockError(`cannot lock the store at ${lockDir}: ${describeFileError(error)}`, lockDir);
  }
}

type Holder = { owner: LockOwner | undefined; refreshedMs: number; tombstone: string };

/** Who holds the lock, and when they last refreshed it; 'missing' when there is no lock now. */
async function readOwner(lockDir: string): Promise<Holder | 'missing'> {
  const ownerFile = join(lockDir, OWNER_FILE);
  let info;
  try {
    info = await stat(ownerFile);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new LockError(`cannot read the lock ${lockDir}: ${describeFileError(error)}`, lockDir);
    // No owner file: no lock, or one that is not ours to read (another program's directory).
    const dir = await stat(lockDir).catch(() => undefined);
    if (!dir) return 'missing';
    if (!dir.isDirectory()) throw new LockError(`cannot lock the store: ${lockDir} is a file, not a lock directory (shipper never writes one there); remove it`, lockDir);
    return { owner: undefined, refreshedMs: dir.mtimeMs, tombstone: `${lockDir}.dead-i${dir.ino}-${Math.trunc(dir.mtimeMs)}` };
  }
  const owner = parseOwner(await readFile(ownerFile, 'utf8').catch(() => ''));
  const tombstone = owner ? `${lockDir}.dead-${owner.token}` : `${lockDir}.dead-i${info.ino}-${Math.trunc(info.mtimeMs)}`;
  return { owner, refreshedMs: info.mtimeMs, tombstone };
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockOwner>;
    if (typeof value.pid !== 'number' || typeof value.host !== 'string' || typeof value.token !== 'string' || !/^[0-9a-f]{8,64}$/.test(value.token)) {
      return undefined;
    }
    return {
      pid: value.pid,
      host: value.host,
      boot: value.boot ?? null,
      pidNamespace: value.pidNamespace ?? null,
      started: value.started ?? null,
      token: value.token,
      since: String(value.since ?? ''),
    };
  } catch {
    return undefined;
  }
}

/**
 * Moves a dead lock out of the way under a name derived from its dead owner. When another
 * contender did it first, the name is taken (ENOTEMPTY/EEXIST) or the lock is gone (ENOENT):
 * either way nothing is moved, and the caller tries again.
 */
export async function takeOver(lockDir: string, tombstone: string): Promise<boolean> {
  try {
    await rename(lockDir, tombstone);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOENT') return false;
    throw new LockError(`cannot take over the abandoned lock ${lockDir}: ${describeFileError(error)}`, lockDir);
  }
  await sweepLeftovers(lockDir);
  return true;
}

/** Tombstones and staging directories of killed processes older than an hour. */
async function sweepLeftovers(lockDir: string): Promise<void> {
  const dir = dirname(lockDir);
  const prefix = `${basename(lockDir)}.`;
  const names = await readdir(dir).catch(() => [] as string[]);
  const now = Date.now();
  for (const name of names) {
    if (!name.startsWith(prefix) || !/\.(dead-[\w-]+|\w+\.new)$/.test(name)) continue;
    const path = join(dir, name);
    const info = await stat(path).catch(() => undefined);
    if (info && now - info.mtimeMs > TOMBSTONE_MS) await rm(path, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** The held lock: refreshed while held; released by removing its owner file, then the directory. */
function holding(lockDir: string, owner: LockOwner, refreshMs: number): Release {
  const ownerFile = join(lockDir, OWNER_FILE);
  const refresh = setInterval(() => {
    const now = new Date();
    utimes(ownerFile, now, now).catch(() => undefined);
  }, refreshMs);
  refresh.unref();
  return async () => {
    clearInterval(refresh);
    // Taken over (this process was judged dead from another host): it is no longer ours to remove.
    const current = parseOwner(await readFile(ownerFile, 'utf8').catch(() => ''));
    if (current?.token !== owner.token) return;
    // Between these two steps the lock is an empty directory: a contender's rename replaces it
    // (and our rmdir then fails on their owner file), a reader waits and tries again.
    await unlink(ownerFile).catch(() => undefined);
    await rmdir(lockDir).catch(() => undefined);
  };
}
