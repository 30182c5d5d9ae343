import { mkdtemp, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeDirectory } from '../../src/fs/makeDirectory.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'shipper-mkdir-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('makeDirectory', () => {
  it('creates missing parents and accepts an existing directory', async () => {
    const dir = join(root, 'a', 'b', 'c');
    await makeDirectory(dir);
    await makeDirectory(dir);
    expect((await stat(dir)).isDirectory()).toBe(true);
  });

  it('refuses a path whose parent is a file (ENOTDIR)', async () => {
    await writeFile(join(root, 'file'), '');
    await expect(makeDirectory(join(root, 'file', 'sub'))).rejects.toMatchObject({ code: 'ENOTDIR' });
  });

  it('refuses an existing file at the path itself', async () => {
    await writeFile(join(root, 'file'), '');
    await expect(makeDirectory(join(root, 'file'))).rejects.toMatchObject({ code: 'ENOTDIR' });
  });

  // Node's mkdir({recursive: true}) never settles for these two (it spins on ENOENT/EEXIST).
  it('fails, instead of spinning, under a dangling symlink', async () => {
    await symlink(join(root, 'missing-target'), join(root, 'dangling'));
    await expect(makeDirectory(join(root, 'dangling', 'store'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  // Linux answers ENOENT under /proc (the case that spins); elsewhere /proc is missing or not writable.
  it('fails, instead of spinning, under /proc', async () => {
    await expect(makeDirectory('/proc/shipper-no-such-dir/store')).rejects.toMatchObject({ code: process.platform === 'linux' ? 'ENOENT' : expect.stringMatching(/^E[A-Z]+$/) });
  });
});
