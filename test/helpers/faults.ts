/**
 * Faults for the reliability tests: a small disk that fills up, a read-only directory, short
 * writes. Where the test may (root), the real thing: a small tmpfs, a read-only bind mount (root
 * ignores permissions, so chmod proves nothing then). Elsewhere the same fault is injected through
 * the `fs` calls of src/fs/durableWrite.ts (which calls them through the module object), and the
 * tests assert the same things either way: no test is skipped.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { chmod, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { vi } from 'vitest';

export const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

let mountWorks: boolean | undefined;

/** Whether this process can mount (root with CAP_SYS_ADMIN, as in CI containers that allow it). */
export function canMount(): boolean {
  if (mountWorks !== undefined) return mountWorks;
  mountWorks = false;
  if (!isRoot) return false;
  const probe = fs.mkdtempSync(join(tmpdir(), 'shipper-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    mountWorks = true;
  } catch {
    mountWorks = false;
  } finally {
    fs.rmSync(probe, { recursive: true, force: true });
  }
  return mountWorks;
}

function enospc(): NodeJS.ErrnoException {
  return Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
}

type Callback = (error: NodeJS.ErrnoException | null, value?: number) => void;

/**
 * Files opened under `root` may hold `budget` bytes in all; past it a write takes what fits and
 * the next one fails with ENOSPC, as the kernel does. Returns the restore function.
 */
export function injectDiskFull(root: string, budget: number): () => void {
  const realOpen = fs.open.bind(fs) as (...args: unknown[]) => void;
  const realWrite = fs.write.bind(fs) as (...args: unknown[]) => void;
  const realClose = fs.close.bind(fs) as (...args: unknown[]) => void;
  const watched = new Set<number>();
  let left = budget;
  const open = vi.spyOn(fs, 'open').mockImplementation(((...args: unknown[]) => {
    const callback = args.pop() as Callback;
    const path = String(args[0]);
    realOpen(...args, (error: NodeJS.ErrnoException | null, fd: number) => {
      if (!error && path.startsWith(root) && args[1] !== 'r') watched.add(fd);
      callback(error, fd);
    });
  }) as never);
  const write = vi.spyOn(fs, 'write').mockImplementation(((fd: number, buffer: Uint8Array, offset: number, length: number, position: number | null, callback: Callback) => {
    if (!watched.has(fd)) return realWrite(fd, buffer, offset, length, position, callback);
    if (left <= 0) return process.nextTick(callback, enospc(), 0);
    const taken = Math.min(length, left);
    left -= taken;
    realWrite(fd, buffer, offset, taken, position, callback);
  }) as never);
  const close = vi.spyOn(fs, 'close').mockImplementation(((fd: number, callback: Callback) => {
    watched.delete(fd);
    realClose(fd, callback);
  }) as never);
  // The same for synchronous writes (the store appends to its bucket logs synchronously).
  const realOpenSync = fs.openSync.bind(fs) as (...args: unknown[]) => number;
  const realWriteSync = fs.writeSync.bind(fs) as (...args: unknown[]) => number;
  const realCloseSync = fs.closeSync.bind(fs) as (fd: number) => void;
  const openSync = vi.spyOn(fs, 'openSync').mockImplementation(((...args: unknown[]) => {
    const fd = realOpenSync(...args);
    if (String(args[0]).startsWith(root) && args[1] !== 'r' && args[1] !== undefined) watched.add(fd);
    return fd;
  }) as never);
  const writeSync = vi.spyOn(fs, 'writeSync').mockImplementation(((fd: number, buffer: Uint8Array, offset = 0, length?: number, position?: number | null) => {
    if (!watched.has(fd) || typeof buffer === 'string') return realWriteSync(fd, buffer, offset, length, position);
    const wanted = length ?? buffer.length - offset;
    if (left <= 0) throw enospc();
    const taken = Math.min(wanted, left);
    left -= taken;
    return realWriteSync(fd, buffer, offset, taken, position);
  }) as never);
  const closeSync = vi.spyOn(fs, 'closeSync').mockImplementation(((fd: number) => {
    watched.delete(fd);
    realCloseSync(fd);
  }) as never);
  return () => {
    for (const spy of [open, write, close, openSync, writeSync, closeSync]) spy.mockRestore();
  };
}

/** Every write takes at most `most` bytes (a short write, as pipes, NFS and full disks return). */
export function injectShortWrites(most: number): () => void {
  const realWrite = fs.write.bind(fs) as (...args: unknown[]) => void;
  const write = vi
    .spyOn(fs, 'write')
    .mockImplementation(((fd: number, buffer: Uint8Array, offset: number, length: number, position: number | null, callback: Callback) =>
      realWrite(fd, buffer, offset, Math.min(length, most), position, callback)) as never);
  return () => write.mockRestore();
}

export interface SmallDisk {
  dir: string;
  kind: 'tmpfs' | 'injected';
  /** Gives the disk more room (tmpfs: remount bigger; injected: a new budget). */
  grow(bytes: number): void;
  cleanup(): Promise<void>;
}

/** A directory on a disk of `bytes` (rounded up to pages on tmpfs). */
export async function smallDisk(bytes: number, mode: 'tmpfs' | 'injected' | 'best' = 'best'): Promise<SmallDisk> {
  const dir = await mkdtemp(join(tmpdir(), 'shipper-small-disk-'));
  if (mode !== 'injected' && canMount()) {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', dir]);
    return {
      dir,
      kind: 'tmpfs',
      grow: (more) => execFileSync('mount', ['-o', `remount,size=${more}`, dir]),
      cleanup: async () => {
        execFileSync('umount', ['-l', dir]);
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
  let restore = injectDiskFull(dir, bytes);
  return {
    dir,
    kind: 'injected',
    grow: (more) => {
      restore();
      restore = injectDiskFull(dir, more);
    },
    cleanup: async () => {
      restore();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Makes `dir` read-only for this process and its children: a read-only bind mount when root
 * (chmod does not stop root), else chmod a-w on it and its subdirectories. Returns the undo.
 */
export async function makeReadOnly(dir: string): Promise<{ kind: 'bind-mount' | 'chmod'; restore: () => Promise<void> }> {
  if (canMount()) {
    execFileSync('mount', ['--bind', dir, dir]);
    execFileSync('mount', ['-o', 'remount,bind,ro', dir]);
    return { kind: 'bind-mount', restore: async () => void execFileSync('umount', [dir]) };
  }
  const dirs = await directoriesUnder(dir);
  await Promise.all(dirs.map((path) => chmod(path, 0o555)));
  return { kind: 'chmod', restore: async () => void (await Promise.all(dirs.map((path) => chmod(path, 0o755)))) };
}

async function directoriesUnder(dir: string): Promise<string[]> {
  const found = [dir];
  for (const name of await readdir(dir)) {
    const path = join(dir, name);
    if ((await stat(path)).isDirectory()) found.push(...(await directoriesUnder(path)));
  }
  return found;
}

/** Names in `dir` (recursively) that are temporary files of a durable write. */
export async function temporaryFilesIn(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const path = join(dir, name);
    const info = await stat(path).catch(() => undefined);
    if (info?.isDirectory()) found.push(...(await temporaryFilesIn(path)));
    else if (/\.\d+\.\d+\.tmp$/.test(name)) found.push(path);
  }
  return found;
}
