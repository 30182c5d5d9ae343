import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RecordFiles as JsonStore } from '../../src/store/file/recordFiles.js';
import { StoreError } from '../../src/store/storeError.js';
import { tempDir } from '../helpers/cli.js';

const recordSchema = z.object({ id: z.string(), value: z.number() });
let dir: string;
let cleanup: () => Promise<void>;
let store: JsonStore;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  store = new JsonStore(dir);
});
afterEach(() => cleanup());

describe('JsonStore', () => {
  it('writes one file per record and reads it back', async () => {
    await store.put('things', 'a1', { id: 'a1', value: 1 });
    expect(await store.get('things', 'a1', recordSchema)).toEqual({ id: 'a1', value: 1 });
    expect(JSON.parse(await readFile(join(dir, 'things', 'a1.json'), 'utf8'))).toEqual({ id: 'a1', value: 1 });
    expect(await store.get('things', 'missing', recordSchema)).toBeUndefined();
  });

  it('leaves no temporary files behind after writes', async () => {
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.put('things', `r${i}`, { id: `r${i}`, value: i })));
    const names = await readdir(join(dir, 'things'));
    expect(names.filter((name) => !name.endsWith('.json'))).toEqual([]);
    expect(names).toHaveLength(20);
  });

  it('resolves every concurrent put only once its record is readable, also in waves that share directory syncs', async () => {
    for (let wave = 0; wave < 3; wave++) {
      const ids = Array.from({ length: 40 }, (_, i) => `w${wave}-${i}`);
      await Promise.all(
        ids.map(async (id, i) => {
          await store.put('things', id, { id, value: i });
          // Resolved means renamed into place: a fresh store object reads it.
          expect(await new JsonStore(dir).get('things', id, recordSchema)).toEqual({ id, value: i });
        }),
      );
    }
    expect((await readdir(join(dir, 'things'))).filter((name) => name.endsWith('.json'))).toHaveLength(120);
  });

  it('reports a record that cannot be written as a StoreError naming the file, and leaves no temporary file', async () => {
    await store.put('things', 'x', { id: 'x', value: 1 });
    const { mkdir } = await import('node:fs/promises');
    // A directory where the record file would go: the rename fails.
    await mkdir(join(dir, 'things', 'blocked.json'));
    await expect(store.put('things', 'blocked', { id: 'blocked', value: 2 })).rejects.toThrow(/cannot write .*blocked\.json/);
    expect((await readdir(join(dir, 'things'))).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('names the damaged file and keeps the other records readable', async () => {
    await store.put('things', 'good', { id: 'good', value: 1 });
    await writeFile(join(dir, 'things', 'bad.json'), '{"id": "bad", "val');
    await expect(store.get('things', 'bad', recordSchema)).rejects.toThrow(StoreError);
    await expect(store.get('things', 'bad', recordSchema)).rejects.toThrow(join(dir, 'things', 'bad.json'));
    await writeFile(join(dir, 'things', 'wrong.json'), '{"id": 3}');
    await expect(store.get('things', 'wrong', recordSchema)).rejects.toThrow(/wrong\.json is damaged/);
    expect(await store.get('things', 'good', recordSchema)).toEqual({ id: 'good', value: 1 });
  });

  it('refuses ids that could escape the collection directory', async () => {
    for (const id of ['../x', 'a/b', '', '..', 'x.json\u0000']) {
      await expect(store.get('things', id, recordSchema)).rejects.toThrow(/bad record id/);
    }
  });

  it('lists ids newest first (ids sort by time), with a limit and a cursor', async () => {
    for (const id of ['a', 'b', 'c', 'd', 'e']) await store.put('things', id, { id, value: 0 });
    expect(await store.listIds('things', { limit: 2 })).toEqual({ ids: ['e', 'd'], more: true });
    expect(await store.listIds('things', { limit: 2, before: 'd' })).toEqual({ ids: ['c', 'b'], more: true });
    expect(await store.listIds('things', { limit: 2, before: 'b' })).toEqual({ ids: ['a'], more: false });
    expect(await store.listIds('nothing-yet', { limit: 2 })).toEqual({ ids: [], more: false });
  });

  it('keeps a mark beside the records, never listed as one', async () => {
    await store.put('things', 'a', { id: 'a', value: 1 });
    await store.putMark('things', 'high-water', { last: 7 });
    expect(await store.getMark('things', 'high-water', z.object({ last: z.number() }))).toEqual({ last: 7 });
    expect((await store.listIds('things', { limit: 10 })).ids).toEqual(['a']);
    expect(await store.getMark('things', 'other', z.object({}))).toBeUndefined();
  });

  it('answers a cached record again only while its file is the same file', async () => {
    const cached = new JsonStore(dir, { cacheEntries: 2 });
    await store.put('things', 'a', { id: 'a', value: 1 });
    expect(await cached.get('things', 'a', recordSchema)).toEqual({ id: 'a', value: 1 });
    expect(cached.cachedRecords).toBe(1);
    // Another writer (another process, or another store object) replaces the file: the next read sees it.
    await store.put('things', 'a', { id: 'a', value: 2 });
    expect(await cached.get('things', 'a', recordSchema)).toEqual({ id: 'a', value: 2 });
    await store.put('things', 'b', { id: 'b', value: 3 });
    await store.put('things', 'c', { id: 'c', value: 4 });
    await cached.get('things', 'b', recordSchema);
    await cached.get('things', 'c', recordSchema);
    expect(cached.cachedRecords).toBe(2);
    const { unlink } = await import('node:fs/promises');
    await unlink(join(dir, 'things', 'c.json'));
    expect(await cached.get('things', 'c', recordSchema)).toBeUndefined();
  });
});
