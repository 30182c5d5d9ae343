import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RecordFiles as JsonStore } from '../../src/store/file/recordFiles.js';
import { StoreError } from '../../src/store/storeError.js';
import { tempDir } from '../helpers/cli.js';

describe('JsonStore.putMany', () => {
  it('writes every record whole, as put() would, and leaves no temporary file', async () => {
    const { dir, cleanup } = await tempDir('shipper-store-');
    try {
      const store = new JsonStore(dir);
      const records = Array.from({ length: 150 }, (_, index) => ({ id: `r${String(index).padStart(3, '0')}`, record: { index, text: 'é'.repeat(index) } }));
      await store.putMany('things', records, 8);
      const names = await readdir(join(dir, 'things'));
      expect(names).toHaveLength(150);
      expect(names.every((name) => name.endsWith('.json'))).toBe(true);
      const schema = z.object({ index: z.number(), text: z.string() });
      expect(await store.get('things', 'r149', schema)).toEqual({ index: 149, text: 'é'.repeat(149) });
      await store.put('things', 'single', { index: -1, text: '' });
      expect(await readFile(join(dir, 'things', 'r007.json'), 'utf8')).toBe(`${JSON.stringify({ index: 7, text: 'é'.repeat(7) }, null, 2)}\n`);
      expect((await store.listIds('things', { limit: 1000 })).ids).toHaveLength(151);
    } finally {
      await cleanup();
    }
  });

  it('first removes the temporary files of killed writers, and keeps those of live processes', async () => {
    const { dir, cleanup } = await tempDir('shipper-store-');
    try {
      const store = new JsonStore(dir);
      await store.put('things', 'old', { index: 0, text: '' });
      const deadPid = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
      const orphan = `r900.json.${deadPid}.1.tmp`;
      const live = `r901.json.${process.ppid}.1.tmp`; // the test runner's parent: alive
      const unrelated = 'notes.txt';
      for (const name of [orphan, live, unrelated]) await writeFile(join(dir, 'things', name), '{"half":');
      // Nothing to write (a re-run of a finished import) still sweeps.
      await store.putMany('things', []);
      expect((await readdir(join(dir, 'things'))).sort()).toEqual(['notes.txt', 'old.json', live].sort());
      await store.putMany('things', [{ id: 'new', record: { index: 1, text: '' } }]);
      expect((await readdir(join(dir, 'things'))).sort()).toEqual(['new.json', 'notes.txt', 'old.json', live].sort());
    } finally {
      await cleanup();
    }
  });

  it('fails as a StoreError naming the directory, removing its temporary files, when a record cannot be written', async () => {
    const { dir, cleanup } = await tempDir('shipper-store-');
    try {
      const store = new JsonStore(dir);
      await mkdir(join(dir, 'things'));
      // A directory where a record's file should go: that one rename fails.
      await mkdir(join(dir, 'things', 'r2.json'));
      await writeFile(join(dir, 'things', 'r2.json', 'keep'), 'x');
      const error = await store
        .putMany(
          'things',
          [1, 2, 3].map((index) => ({ id: `r${index}`, record: { index } })),
        )
        .then(
          () => undefined,
          (caught: unknown) => caught,
        );
      expect(error).toBeInstanceOf(StoreError);
      expect((error as Error).message).toContain(join(dir, 'things'));
      expect((await readdir(join(dir, 'things'))).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    } finally {
      await cleanup();
    }
  });
});
