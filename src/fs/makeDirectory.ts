/**
 * `mkdir -p` that always settles. Node's own `mkdir(dir, { recursive: true })` spins forever at
 * 100 % CPU when a parent exists but cannot hold children while the kernel answers ENOENT (a path
 * under /proc or /sys, a dangling symlink): it takes ENOENT for "parent missing", creates the
 * parent (EEXIST), and retries without end. Here an ENOENT after the parent is in place is final.
 */
import { lstat, mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

export async function makeDirectory(path: string): Promise<void> {
  const dir = resolve(path);
  try {
    await mkdir(dir);
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return assertDirectory(dir, error as Error);
    if (code !== 'ENOENT') throw error;
  }
  const parent = dirname(dir);
  if (parent === dir) throw Object.assign(new Error(`${dir}: no such file or directory`), { code: 'ENOENT' });
  await makeDirectory(parent);
  try {
    // A second ENOENT, now that the parent exists, is the kernel's final word: no retry.
    await mkdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    await assertDirectory(dir, error as Error);
  }
}

async function assertDirectory(dir: string, existsError: Error): Promise<void> {
  const info = await stat(dir).catch(() => undefined);
  if (info?.isDirectory()) return;
  if (!info && (await lstat(dir).catch(() => undefined))?.isSymbolicLink()) {
    throw Object.assign(new Error(`${dir} is a symbolic link to a missing directory`), { code: 'ENOENT', cause: existsError });
  }
  throw Object.assign(new Error(`${dir} exists and is not a directory`), { code: 'ENOTDIR', cause: existsError });
}
