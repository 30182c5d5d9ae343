/**
 * Issue 39, items 2 and 3: bytes after the journal's last whole line are cut (a copy kept, a
 * warning) instead of wedging the store; real damage stops writes but `store export` still exports
 * what was applied, `store check` says what `store repair` would cut, and `store repair` cuts it;
 * `store export` and `shipper serve` work on a read-only store and `store export` on a full disk.
 * Through the spawned CLI and a real `shipper serve`. A read-only store is a read-only bind mount
 * when this process may mount (root ignores permissions), else a directory without write permission
 * (test/helpers/faults.ts makeReadOnly); a full disk is a small tmpfs, else ENOSPC injected in process.
 */
import { appendFile, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Shipment } from '../../src/domain/schemas.js';
import { storeCli, tempDir, type CliResult } from '../helpers/cli.js';
import { storeInProcess } from '../helpers/inProcess.js';
import { makeReadOnly, smallDisk } from '../helpers/faults.js';
import { PALLETS, publishedStops } from '../helpers/fixtures.js';
import { runInProcess } from '../helpers/inProcess.js';
import { startServe } from '../helpers/serve.js';
import { BOOK_ONE_PALLET } from '../helpers/shipmentsRead.js';

let work: { dir: string; cleanup: () => Promise<void> };
let case_ = 0;
beforeAll(async () => {
  work = await tempDir('shipper-journal-repair-');
});
afterAll(() => work.cleanup());

/** A store with one booked shipment (through the spawned CLI). */
async function storeWithOne(): Promise<{ store: string; cli: ReturnType<typeof storeInProcess>; id: string }> {
  const store = join(work.dir, `store-${++case_}`);
  const cli = storeInProcess(store);
  const booked = await cli([...BOOK_ONE_PALLET]);
  expect(booked.code, booked.stderr).toBe(0);
  return { store, cli, id: (JSON.parse(booked.stdout) as { id: string }).id };
}

const journalOf = (store: string) => join(store, 'journal', 'journal.log');

function expectClean(result: CliResult): void {
  expect(result.stderr).not.toMatch(/\n\s+at |Error:|unexpected error/);
  expect(result.stderr).not.toMatch(/[\u0000-\u0009\u000B-\u001F\u007F]/);
}

/** Bytes that no PRNG of a test will make a whole checksummed line of (seeded: the same every run). */
function randomBytes(count: number, seed: number): Buffer {
  const bytes = Buffer.alloc(count);
  let state = seed;
  for (let index = 0; index < count; index++) {
    state = (state * 1103515245 + 12345) >>> 0;
    bytes[index] = state >>> 24;
  }
  return bytes;
}

async function cutCopies(store: string): Promise<string[]> {
  return (await readdir(join(store, 'journal'))).filter((name) => name.startsWith('cut-')).map((name) => join(store, 'journal', name));
}

async function exported(
  cli: ReturnType<typeof storeInProcess>,
  file: string,
  extra: string[] = [],
): Promise<{ result: CliResult; lines: Array<{ type: string; shipment?: Shipment }> }> {
  const result = await cli(['store', 'export', '--to', file, '--force', ...extra]);
  const lines =
    result.code === 0
      ? (await readFile(file, 'utf8'))
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as { type: string; shipment?: Shipment })
      : [];
  return { result, lines };
}

const shipmentIds = (lines: Array<{ type: string; shipment?: Shipment }>) => lines.filter((line) => line.type === 'shipment').map((line) => line.shipment!.id);

describe('bytes after the journal last whole line (never acknowledged)', () => {
  it.each([
    ['two short lines', Buffer.from('x\ny\n')],
    ['two CRLFs', Buffer.from('\r\n\r\n')],
    ['3 KiB of random bytes', randomBytes(3 * 1024, 39)],
    ['one byte without a newline', Buffer.from('x')],
  ])('%s: the next booking cuts them with a warning naming the copy; export reads every record', async (_name, junk) => {
    const { store, cli, id } = await storeWithOne();
    const before = await readFile(journalOf(store));
    await appendFile(journalOf(store), junk);

    const second = await cli([...BOOK_ONE_PALLET]);
    expect(second.code, second.stderr).toBe(0);
    expectClean(second);
    const [copy] = await cutCopies(store);
    expect(copy).toBeDefined();
    expect(await readFile(copy!)).toEqual(junk);
    expect(second.stderr).toContain(
      `warning: [STORE_JOURNAL_CUT] the store's journal ${journalOf(store)} ended in ${junk.length} byte${junk.length === 1 ? '' : 's'} after its last whole line, which no command wrote whole (never acknowledged): cut, and kept in ${copy}\n`,
    );
    // The journal is the lines it had and the new booking's, whole.
    const after = await readFile(journalOf(store));
    expect(after.subarray(0, before.length)).toEqual(before);
    expect(after.at(-1)).toBe(0x0a);
    expect(after.subarray(before.length, before.length + 9).toString('latin1')).toMatch(/^[0-9a-f]{8} $/);

    const { result, lines } = await exported(cli, join(work.dir, `export-${case_}.jsonl`));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain('warning');
    expect(shipmentIds(lines).sort()).toEqual([id, (JSON.parse(second.stdout) as { id: string }).id].sort());
    expect((await cli(['store', 'check'])).stdout).toContain('sound: nothing to apply, nothing to repair');
  });

  it.each([
    ['two short lines', Buffer.from('x\ny\n')],
    ['3 KiB of random bytes', randomBytes(3 * 1024, 39)],
  ])('%s: store check says the next write cuts them (exit 0), and cuts nothing itself', async (_name, junk) => {
    const { store, cli } = await storeWithOne();
    const before = await readFile(journalOf(store));
    await appendFile(journalOf(store), junk);
    const check = await cli(['store', 'check']);
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toContain(`${junk.length.toLocaleString('en-US')} byte${junk.length === 1 ? '' : 's'} at byte ${before.length}, after the last whole line`);
    expect(check.stdout).toContain('the next write cuts them and keeps a copy');
    expect(JSON.parse((await cli(['store', 'check', '--json'])).stdout)).toMatchObject({
      tail: { at: before.length, bytes: junk.length, torn: false },
      damage: null,
      repairNeeded: false,
    });
    expect(await readFile(journalOf(store))).toEqual(Buffer.concat([before, junk]));
    expect(await cutCopies(store)).toEqual([]);
  });

  it('a line torn by a kill (the start of a whole line) is cut silently, as before, and no copy is kept', async () => {
    const { store, cli } = await storeWithOne();
    const line = await readFile(journalOf(store));
    await appendFile(journalOf(store), line.subarray(0, Math.floor(line.length / 2)));
    expect((await cli(['store', 'check'])).stdout).toContain('a line a stopped command was writing (never acknowledged): the next write cuts it');
    const second = await cli([...BOOK_ONE_PALLET]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).not.toContain('STORE_JOURNAL_CUT');
    expect(await cutCopies(store)).toEqual([]);
  });
});

describe('a damaged journal (a bad line with a whole line after it)', () => {
  it('writes exit 5 naming store check; export exports what was applied; check says what repair cuts (exit 5); repair cuts it, keeping the copy; writes work again', async () => {
    const { store, cli, id } = await storeWithOne();
    const before = await readFile(journalOf(store));
    // Garbage, then a whole line (a copy of the first; a booking that confirms writes two): damage, not a tail.
    const damage = Buffer.concat([Buffer.from('garbage\n'), before.subarray(0, before.indexOf('\n') + 1)]);
    await appendFile(journalOf(store), damage);

    const refused = await cli([...BOOK_ONE_PALLET]);
    expect(refused.code).toBe(5);
    expectClean(refused);
    expect(refused.stderr).toContain(
      `shipper: the store's journal ${journalOf(store)} is damaged at byte ${before.length} (8 bytes that are no journal line, then 1 whole line); every record written before it reads, and shipper store export exports them; shipper store check says what shipper store repair would cut\n`,
    );

    const { result, lines } = await exported(cli, join(work.dir, `damaged-${case_}.jsonl`));
    expect(result.code, result.stderr).toBe(0);
    expect(shipmentIds(lines)).toEqual([id]);
    expect(result.stderr).toContain(
      `warning: [RECORD_UNREADABLE] the store's journal ${journalOf(store)} is damaged at byte ${before.length}: exported every record written before it`,
    );

    const check = await cli(['store', 'check', '--json']);
    expect(check.code).toBe(5);
    expect(JSON.parse(check.stdout)).toEqual({
      journal: journalOf(store),
      bytes: before.length + damage.length,
      applied: before.length,
      pendingLines: 0,
      tail: null,
      damage: { at: before.length, bytes: 8, linesAfter: 1 },
      repairNeeded: true,
    });
    expect((await cli(['store', 'check'])).stdout).toContain(
      `shipper store repair would apply the lines before byte ${before.length} and cut the journal from there (${damage.length.toLocaleString('en-US')} bytes, kept in a copy beside it)`,
    );
    // Checking wrote nothing.
    expect(await readFile(journalOf(store))).toEqual(Buffer.concat([before, damage]));

    const repair = await cli(['store', 'repair']);
    expect(repair.code, repair.stderr).toBe(0);
    const [copy] = await cutCopies(store);
    expect(await readFile(copy!)).toEqual(damage);
    expect(repair.stdout).toBe(`Cut ${damage.length.toLocaleString('en-US')} bytes from byte ${before.length} of the journal ${journalOf(store)}; they are kept in ${copy}\n`);
    expect(await readFile(journalOf(store))).toEqual(before);

    const check2 = await cli(['store', 'check']);
    expect(check2.code).toBe(0);
    const again = await cli([...BOOK_ONE_PALLET]);
    expect(again.code, again.stderr).toBe(0);
    const nothing = await cli(['store', 'repair', '--json']);
    expect(nothing.code).toBe(0);
    expect(JSON.parse(nothing.stdout)).toMatchObject({ applied: 0, cut: null, found: { damage: null, tail: null } });
  });

  it('store check and repair of a directory that holds no store: exit 4, and no store is made there', async () => {
    const missing = join(work.dir, `no-store-${++case_}`);
    for (const command of ['check', 'repair']) {
      const result = await runInProcess(['--store', missing, 'store', command]);
      expect(result.code).toBe(4);
      expect(result.stderr).toBe(`shipper: there is no store at ${missing}\n`);
    }
    await expect(readdir(missing)).rejects.toThrow(/ENOENT/);
  });

  it('store check and repair refuse a PostgreSQL store with one line (exit 2)', async () => {
    const result = await runInProcess(['--store', 'postgres://nobody@127.0.0.1:1/none', 'store', 'check']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'shipper: the store is a PostgreSQL database, which keeps no journal of its own to check or repair (store check and store repair are for a directory store)\n',
    );
  });
});

/**
 * A store whose journal holds a whole line its files do not: its second booking was killed after
 * the line was durable and before its files were written (SHIPPER_KILL_AT, killPoints.ts).
 */
async function storeWithPendingLine(store = join(work.dir, `store-${++case_}`)): Promise<{ store: string; cli: ReturnType<typeof storeInProcess>; applied: string }> {
  const cli = storeInProcess(store);
  const booked = await cli([...BOOK_ONE_PALLET]);
  expect(booked.code, booked.stderr).toBe(0);
  // Killed at a kill point: a process of its own.
  const killed = await storeCli(store)([...BOOK_ONE_PALLET], { env: { SHIPPER_KILL_AT: 'after-journal' } });
  expect(killed.code).not.toBe(0);
  expect(killed.stdout).toBe('');
  return { store, cli, applied: (JSON.parse(booked.stdout) as { id: string }).id };
}

describe('a read-only store', () => {
  it('store export exports the applied records and the journal pending line without writing; check reads it; repair says read-only (exit 5)', async () => {
    const { store, cli, applied } = await storeWithPendingLine();
    const journal = await readFile(journalOf(store));
    const readOnly = await makeReadOnly(store);
    try {
      const { result, lines } = await exported(cli, join(work.dir, `read-only-${case_}.jsonl`));
      expect(result.code, result.stderr).toBe(0);
      expectClean(result);
      // The killed booking's shipment, from the journal's pending line: it is in no file.
      expect(shipmentIds(lines)).toHaveLength(2);
      expect(shipmentIds(lines)).toContain(applied);
      expect(shipmentIds(lines).filter((id) => id !== applied)).toHaveLength(1);
      expect(lines.filter((line) => line.type === 'counter')).toContainEqual({ type: 'counter', name: 'orders', last: 2 });
      const check = await cli(['store', 'check']);
      expect(check.code, check.stderr).toBe(0);
      expect(check.stdout).toContain('1 whole line not applied yet (committed by a command that stopped): the next write applies it');
      const repair = await cli(['store', 'repair']);
      expect(repair.code).toBe(5);
      expect(repair.stderr).toMatch(
        /^shipper: the store .* is read-only \((the file system is read-only|permission denied)\): it is read, and nothing is written to it until it is writable again\n$/,
      );
    } finally {
      await readOnly.restore();
    }
    expect(await readFile(journalOf(store))).toEqual(journal);
    expect(await cutCopies(store)).toEqual([]);
  });

  it('shipper serve starts, answers reads, refuses writes with 503 Store Read-Only (no path), and writes again once the store is writable', async () => {
    const { store, id } = await storeWithOne();
    const readOnly = { current: undefined as Awaited<ReturnType<typeof makeReadOnly>> | undefined };
    readOnly.current = await makeReadOnly(store);
    let serve: Awaited<ReturnType<typeof startServe>> | undefined;
    try {
      // Started inside the try: a server that does not start must not leave the mount behind.
      serve = await startServe({ store });
      const call = async (method: string, path: string, body?: unknown) => {
        const answer = await fetch(`${serve!.url}${path}`, { method, headers: { 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
        return { status: answer.status, retryAfter: answer.headers.get('retry-after'), text: await answer.text() };
      };
      // Written right after the URL: waited for, as the server's output arrives.
      await new Promise<void>((resolve) => {
        const seen = () => /warning: \[STORE_READ_ONLY\] the store .* is read-only/.test(serve!.stderr()) && resolve();
        serve!.child.stderr!.on('data', seen);
        // Whatever it wrote, by the time it has written its other warning (or ended).
        serve!.child.stderr!.on('data', () => /DOCUMENTATION_PREFIX/.test(serve!.stderr()) && resolve());
        serve!.child.once('exit', () => resolve());
        seen();
      });
      expect(serve!.stderr()).toMatch(/warning: \[STORE_READ_ONLY\] the store .* is read-only \((the file system is read-only|permission denied)\)/);
      expect((await call('GET', `/v1/shipper/shipment/${id}`)).status).toBe(200);
      const quote = { ...publishedStops(), orderComponents: [PALLETS] };
      const writes = [await call('POST', '/v1/shipper/quote', quote), await call('POST', '/v1/shipper/shipment', { ...publishedStops(), orderComponents: [PALLETS] })];
      for (const answer of writes) {
        expect(answer.status, answer.text).toBe(503);
        expect(answer.retryAfter).not.toBeNull();
        expect(JSON.parse(answer.text)).toEqual({
          type: 'urn:shipper:problem:store-read-only',
          title: 'Store Read-Only',
          status: 503,
          detail: "the service's store is read-only: it answers reads and refuses every write until its operator makes the store writable again",
          instance: expect.any(String),
        });
        for (const secret of [store, work.dir, 'EROFS', 'EACCES']) expect(answer.text).not.toContain(secret);
      }
      await readOnly.current.restore();
      readOnly.current = undefined;
      const booked = await call('POST', '/v1/shipper/quote', quote);
      expect(booked.status, booked.text).toBe(200);
    } finally {
      await readOnly.current?.restore();
      await serve?.stop();
    }
  });
});

describe('a store on a full disk', () => {
  it.each(['best', 'injected'] as const)('%s: store export exports every record, the pending line too, to a file on another disk', async (mode) => {
    const disk = await smallDisk(8 * 1024 * 1024, mode);
    try {
      const { store, applied } = await storeWithPendingLine(join(disk.dir, 'store'));
      const cli = (args: string[]) => runInProcess(['--store', store, ...args]);
      // The disk full: a file takes what is left (tmpfs), or no write succeeds any more (injected).
      if (disk.kind === 'tmpfs') await writeFile(join(disk.dir, 'filler'), Buffer.alloc(16 * 1024 * 1024)).catch(() => undefined);
      else disk.grow(0);
      expect((await cli([...BOOK_ONE_PALLET])).code).toBe(5);

      const file = join(work.dir, `full-${++case_}.jsonl`);
      const result = await cli(['store', 'export', '--to', file]);
      expect(result.code, result.stderr).toBe(0);
      const ids = (await readFile(file, 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { type: string; shipment?: { id: string } })
        .filter((line) => line.type === 'shipment')
        .map((line) => line.shipment!.id);
      expect(ids).toHaveLength(2);
      expect(ids).toContain(applied);
    } finally {
      await disk.cleanup();
    }
  });
});
