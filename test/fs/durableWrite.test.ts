import fs from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DurableFileWriter, FileWriteError, numberedName, removeOrphanedTemporaries, writeFileDurably, writeFilesDurably } from '../../src/fs/durableWrite.js';
import { tempDir } from '../helpers/cli.js';
import { canMount, injectShortWrites, makeReadOnly, smallDisk } from '../helpers/faults.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  vi.restoreAllMocks();
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function workDir(): Promise<string> {
  const { dir, cleanup } = await tempDir('shipper-durable-');
  cleanups.push(cleanup);
  return dir;
}

/** Bytes that differ at every position, so that a lost or repeated chunk shows. */
function pattern(size: number): Buffer {
  const bytes = Buffer.alloc(size);
  for (let index = 0; index < size; index++) bytes[index] = (index * 7 + (index >> 8)) & 0xff;
  return bytes;
}

async function failureOf(promise: Promise<unknown>): Promise<FileWriteError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(FileWriteError);
  return error as FileWriteError;
}

describe('writeFilesDurably (a batch made durable together)', () => {
  it('makes every file of the batch durable before it puts any in place, then syncs the directory once', async () => {
    const dir = await workDir();
    const files = Array.from({ length: 12 }, (_, index) => ({ file: join(dir, `BOL-${index}.pdf`), data: pattern(1000 + index) }));
    const events: string[] = [];
    const fsync = fs.fsync.bind(fs);
    vi.spyOn(fs, 'fsync').mockImplementation(((fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => {
      events.push('fsync');
      fsync(fd, callback);
    }) as never);
    const link = fs.promises.link.bind(fs.promises);
    vi.spyOn(fs.promises, 'link').mockImplementation(async (from, to) => {
      events.push(`link ${String(to).slice(dir.length + 1)}`);
      return link(from, to);
    });
    const { outcomes, failure } = await writeFilesDurably(files, { whenExists: 'refuse' });
    expect(failure).toBeUndefined();
    expect(outcomes).toEqual(files.map(({ file }) => ({ file, written: file })));
    for (const { file, data } of files) expect((await readFile(file)).equals(Buffer.from(data))).toBe(true);
    expect((await readdir(dir)).sort()).toEqual(files.map(({ file }) => file.slice(dir.length + 1)).sort());
    // 12 file fsyncs, then the 12 links, then the one directory sync.
    expect(events).toEqual([...Array<string>(12).fill('fsync'), ...files.map((_, index) => `link BOL-${index}.pdf`), 'fsync']);
  });

  it("with 'refuse' keeps a file that is there as that file's EEXIST, and writes the others", async () => {
    const dir = await workDir();
    await writeFile(join(dir, 'b.pdf'), 'kept');
    const { outcomes, failure } = await writeFilesDurably(
      ['a', 'b', 'c'].map((name) => ({ file: join(dir, `${name}.pdf`), data: Buffer.from(`new ${name}`) })),
      { whenExists: 'refuse' },
    );
    expect(failure).toBeUndefined();
    expect(outcomes.map((outcome) => ('written' in outcome ? 'written' : outcome.error.errno))).toEqual(['written', 'EEXIST', 'written']);
    expect(await readFile(join(dir, 'b.pdf'), 'utf8')).toBe('kept');
    expect((await readdir(dir)).sort()).toEqual(['a.pdf', 'b.pdf', 'c.pdf']);
  });

  it('stops at a file that cannot be written (the disk takes 0 bytes), naming it: the files before it are written, it and those after are not', async () => {
    const dir = await workDir();
    const write = fs.write.bind(fs);
    vi.spyOn(fs, 'write').mockImplementation(((...args: Parameters<typeof fs.write>) => {
      // The write of c.pdf (77 bytes, the others have 100) takes nothing; the others go through.
      if ((args[1] as unknown as Uint8Array).length === 77) return process.nextTick(args.at(-1) as (error: null, written: number) => void, null, 0);
      return (write as (...all: unknown[]) => void)(...args);
    }) as never);
    const files = ['a', 'b', 'c', 'd'].map((name) => ({ file: join(dir, `${name}.pdf`), data: pattern(name === 'c' ? 77 : 100) }));
    const { outcomes, failure } = await writeFilesDurably(files);
    expect(outcomes).toEqual(files.slice(0, 2).map(({ file }) => ({ file, written: file })));
    expect(failure).toBeInstanceOf(FileWriteError);
    expect(failure!.message).toBe(`cannot write ${join(dir, 'c.pdf')}: the file system took 0 of 77 bytes`);
    expect((await readdir(dir)).sort()).toEqual(['a.pdf', 'b.pdf']);
    for (const { file, data } of files.slice(0, 2)) expect((await readFile(file)).equals(Buffer.from(data))).toBe(true);
  });
});

describe('writeFileDurably', () => {
  it('writes the exact bytes, leaves no temporary file, and replaces by default', async () => {
    const dir = await workDir();
    const file = join(dir, 'a.bin');
    for (const size of [0, 1, 65_535, 65_536, 65_537, 1_000_000]) {
      expect(await writeFileDurably(file, pattern(size))).toBe(file);
      expect((await readFile(file)).equals(pattern(size))).toBe(true);
    }
    expect(await readdir(dir)).toEqual(['a.bin']);
  });

  it('finishes a file whose every write is short (1 byte, 1,000 bytes at a time)', async () => {
    const dir = await workDir();
    for (const most of [1, 1000]) {
      const restore = injectShortWrites(most);
      const size = most === 1 ? 5_000 : 300_000;
      try {
        await writeFileDurably(join(dir, `short-${most}.bin`), pattern(size));
      } finally {
        restore();
      }
      expect((await readFile(join(dir, `short-${most}.bin`))).equals(pattern(size))).toBe(true);
    }
    expect((await readdir(dir)).sort()).toEqual(['short-1.bin', 'short-1000.bin']);
  });

  it('fails, naming the file, when the file system takes 0 bytes, and leaves nothing', async () => {
    const dir = await workDir();
    vi.spyOn(fs, 'write').mockImplementation(((_fd: number, _b: unknown, _o: number, _l: number, _p: unknown, callback: (e: null, n: number) => void) =>
      process.nextTick(callback, null, 0)) as never);
    const error = await failureOf(writeFileDurably(join(dir, 'zero.pdf'), pattern(10)));
    expect(error.message).toBe(`cannot write ${join(dir, 'zero.pdf')}: the file system took 0 of 10 bytes`);
    expect(await readdir(dir)).toEqual([]);
  });

  it('refuses a file whose size after fsync is not what was written (a file system that lost bytes)', async () => {
    const dir = await workDir();
    const realFstat = fs.fstat.bind(fs) as (...args: unknown[]) => void;
    vi.spyOn(fs, 'fstat').mockImplementation(((fd: number, callback: (e: unknown, s?: fs.Stats) => void) =>
      realFstat(fd, (error: unknown, stats: fs.Stats) => callback(error, Object.assign(stats, { size: stats.size - 1 })))) as never);
    const error = await failureOf(writeFileDurably(join(dir, 'lost.pdf'), pattern(100)));
    expect(error.errno).toBe('ESHORT');
    expect(error.message).toBe(`cannot write ${join(dir, 'lost.pdf')}: the file holds 99 of the 100 bytes written`);
    expect(await readdir(dir)).toEqual([]);
  });

  it.each(['injected', 'best'] as const)(
    'on a full disk (%s: a real tmpfs when this process may mount one): the error names the file, the old file stays whole, nothing partial is left',
    async (mode) => {
      const disk = await smallDisk(64 * 1024, mode);
      cleanups.push(disk.cleanup);
      expect(disk.kind).toBe(mode === 'best' && canMount() ? 'tmpfs' : 'injected');
      const file = join(disk.dir, 'bol.pdf');
      await writeFileDurably(file, pattern(20_000));
      // 20,000 + 60,000 bytes do not fit in 64 KiB: the new version fails part-way.
      const error = await failureOf(writeFileDurably(file, pattern(60_000)));
      expect(error.errno).toBe('ENOSPC');
      expect(error.message).toBe(`cannot write ${file}: no space left on the disk`);
      expect((await readFile(file)).equals(pattern(20_000))).toBe(true);
      expect(await readdir(disk.dir)).toEqual(['bol.pdf']);
    },
  );

  it("whenExists 'refuse' keeps the file that is there; 'number' takes the next free name", async () => {
    const dir = await workDir();
    const file = join(dir, 'orders.rejected.csv');
    await writeFile(file, 'being fixed by a person');
    const refused = await failureOf(writeFileDurably(file, 'new', { whenExists: 'refuse' }));
    expect(refused.errno).toBe('EEXIST');
    expect(refused.message).toBe(`cannot write ${file}: the file exists`);
    expect(await writeFileDurably(file, 'second', { whenExists: 'number' })).toBe(join(dir, 'orders.rejected-2.csv'));
    expect(await writeFileDurably(file, 'third', { whenExists: 'number' })).toBe(join(dir, 'orders.rejected-3.csv'));
    expect(await readFile(file, 'utf8')).toBe('being fixed by a person');
    expect((await readdir(dir)).sort()).toEqual(['orders.rejected-2.csv', 'orders.rejected-3.csv', 'orders.rejected.csv']);
    expect(numberedName('/x/bols/BOL-SO-000001.pdf', 12)).toBe('/x/bols/BOL-SO-000001-12.pdf');
    expect(numberedName('/x/noext', 2)).toBe('/x/noext-2');
  });

  it('two writers racing for one name without replacing: exactly one wins', async () => {
    const dir = await workDir();
    const file = join(dir, 'race.pdf');
    const results = await Promise.allSettled(Array.from({ length: 8 }, (_, index) => writeFileDurably(file, `writer ${index}`, { whenExists: 'refuse' })));
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    expect(await readFile(file, 'utf8')).toMatch(/^writer \d$/);
    expect(await readdir(dir)).toEqual(['race.pdf']);
  });

  it('names the file and the reason in a read-only directory or a missing one', async () => {
    const dir = await workDir();
    const locked = join(dir, 'locked');
    await mkdir(locked);
    const readOnly = await makeReadOnly(locked);
    try {
      const error = await failureOf(writeFileDurably(join(locked, 'x.pdf'), 'x'));
      expect(error.message).toBe(`cannot write ${join(locked, 'x.pdf')}: ${readOnly.kind === 'bind-mount' ? 'the file system is read-only' : 'permission denied'}`);
    } finally {
      await readOnly.restore();
    }
    expect(await readdir(locked)).toEqual([]);
    const missing = await failureOf(writeFileDurably(join(dir, 'nope', 'x.pdf'), 'x'));
    expect(missing.message).toBe(`cannot write ${join(dir, 'nope', 'x.pdf')}: the directory does not exist`);
    const directory = await failureOf(writeFileDurably(locked, 'x'));
    expect(directory.message).toBe(`cannot write ${locked}: a directory has that name`);
  });

  it('never prints a control character of a file name', async () => {
    const error = await failureOf(writeFileDurably('/nonexistent-\u001b[2J/x.pdf', 'x'));
    expect(error.message).not.toMatch(/\u001b/);
    expect(error.message).toContain('\\x1B[2J');
  });
});

describe('DurableFileWriter (streaming)', () => {
  it('appears only at commit, whole, across the flush boundary', async () => {
    const dir = await workDir();
    const file = join(dir, 'stream.csv');
    const writer = await DurableFileWriter.open(file);
    const chunks = [pattern(65_535), pattern(1), pattern(65_536), pattern(200_000), Buffer.alloc(0), pattern(3)];
    for (const chunk of chunks) await writer.write(chunk);
    expect(await readdir(dir)).not.toContain('stream.csv');
    expect(writer.bytes).toBe(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
    expect(await writer.commit()).toBe(file);
    expect((await readFile(file)).equals(Buffer.concat(chunks))).toBe(true);
    expect(await readdir(dir)).toEqual(['stream.csv']);
  });

  it('discard leaves nothing; a full disk during the stream leaves nothing and names the file', async () => {
    const dir = await workDir();
    const discarded = await DurableFileWriter.open(join(dir, 'gone.csv'));
    await discarded.write('a,b\r\n');
    await discarded.discard();
    expect(await readdir(dir)).toEqual([]);

    const disk = await smallDisk(128 * 1024);
    cleanups.push(disk.cleanup);
    const file = join(disk.dir, 'big.rejected.csv');
    const writer = await DurableFileWriter.open(file, { whenExists: 'number' });
    const error = await failureOf(
      (async () => {
        for (let index = 0; index < 10; index++) await writer.write(pattern(50_000));
        await writer.commit();
      })(),
    );
    expect(error.message).toBe(`cannot write ${file}: no space left on the disk`);
    expect(await readdir(disk.dir)).toEqual([]);
  });
});

describe('removeOrphanedTemporaries', () => {
  it('removes the temporary files of dead writers only', async () => {
    const dir = await workDir();
    const dead = 2 ** 22 + 17; // above pid_max on Linux: no such process
    const names = [`BOL-SO-000001.pdf.${dead}.1.tmp`, `BOL-SO-000002.pdf.${process.pid}.2.tmp`, 'BOL-SO-000003.pdf', `notes.${dead}.txt`];
    await Promise.all(names.map((name) => writeFile(join(dir, name), 'x')));
    expect(await removeOrphanedTemporaries(dir)).toBe(1);
    expect((await readdir(dir)).sort()).toEqual([`BOL-SO-000002.pdf.${process.pid}.2.tmp`, 'BOL-SO-000003.pdf', `notes.${dead}.txt`].sort());
  });
});
