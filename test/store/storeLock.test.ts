import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireLock, HANDOVER_LIMIT, processStart, releaseLingeringLock, StoreBusyError, takeOver, type LockOwner } from '../../src/store/file/storeLock.js';
import { tempDir } from '../helpers/cli.js';
import { bundleScript } from '../helpers/bundle.js';
import { makeReadOnly } from '../helpers/faults.js';

let work: { dir: string; cleanup: () => Promise<void> };
let worker: string;
let case_ = 0;
const children: ChildProcess[] = [];

beforeAll(async () => {
  work = await tempDir('shipper-lock-');
  worker = await bundleScript('test/helpers/lockWorker.ts', work.dir);
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await work.cleanup();
});

/** A fresh locks directory and the lock path in it. */
async function lockPath(): Promise<{ dir: string; lock: string }> {
  const dir = join(work.dir, `case-${++case_}`);
  await mkdir(dir);
  return { dir, lock: join(dir, 'orders.lock') };
}

/** A pid that is certainly dead: a child that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await once(child, 'exit');
  return child.pid!;
}

/** A lock left at `lock` by `owner` (as a killed holder leaves it), refreshed at `refreshed`. */
async function plantLock(lock: string, owner: Partial<LockOwner>, refreshed = new Date()): Promise<LockOwner> {
  const full: LockOwner = { pid: 1, host: hostname(), boot: null, pidNamespace: null, started: null, token: 'a1b2c3d4e5f6a7b8c9d0e1f2', since: new Date().toISOString(), ...owner };
  await mkdir(lock);
  await writeFile(join(lock, 'owner.json'), JSON.stringify(full));
  await utimes(join(lock, 'owner.json'), refreshed, refreshed);
  return full;
}

const own = async (lock: string) => JSON.parse(await readFile(join(lock, 'owner.json'), 'utf8')) as LockOwner;
const inAnHour = () => new Date(Date.now() + 3_600_000);
const thisNamespace = async () => (await import('node:fs')).readlinkSync('/proc/self/ns/pid');
const thisBoot = async () => (await readFile('/proc/sys/kernel/random/boot_id', 'utf8')).trim();

async function startHolder(lock: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [worker, lock, 'hold'], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  expect(chunk.toString()).toBe('locked\n');
  return child;
}

async function kill(child: ChildProcess): Promise<void> {
  child.kill('SIGKILL');
  if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
}

describe('the store lock', () => {
  it('is taken and released; callers in one process wait their turn, in order', async () => {
    const { dir, lock } = await lockPath();
    const order: string[] = [];
    const first = await acquireLock(lock);
    expect((await own(lock)).pid).toBe(process.pid);
    const second = acquireLock(lock).then((release) => (order.push('second'), release));
    const third = acquireLock(lock).then((release) => (order.push('third'), release));
    await new Promise((resolve) => setTimeout(resolve, 20));
    order.push('first releases');
    await first();
    await (
      await second
    )();
    await (
      await third
    )();
    expect(order).toEqual(['first releases', 'second', 'third']);
    expect(await readdir(dir)).toEqual([]);
  });

  it('passes from one caller of this process to the next without being released while callers wait, and is released when none does', async () => {
    const { dir, lock } = await lockPath();
    const first = await acquireLock(lock);
    const token = (await own(lock)).token;
    const second = acquireLock(lock);
    await first();
    const releaseSecond = await second;
    // The same lock directory, the same owner: handed over, not taken again.
    expect((await own(lock)).token).toBe(token);
    await releaseSecond();
    expect(await readdir(dir)).toEqual([]);
    const third = await acquireLock(lock);
    expect((await own(lock)).token).not.toBe(token);
    await third();
  });

  it("kept a moment for a caller that comes just after the release (a server's next batch), then released; released at once when asked (a server that stops)", async () => {
    const { dir, lock } = await lockPath();
    const taken = Date.now();
    const first = await acquireLock(lock, { lingerMs: 60_000 });
    const token = (await own(lock)).token;
    await first();
    // No caller waited at the release: the lock is kept (within a hand-over's 200 ms from its taking).
    const second = await acquireLock(lock, { lingerMs: 60_000 });
    if (Date.now() - taken < 200) expect((await own(lock)).token).toBe(token);
    await second();
    // Nobody comes: released at the latest 200 ms after it was taken.
    while ((await readdir(dir)).length > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    const third = await acquireLock(lock, { lingerMs: 60_000 });
    expect((await own(lock)).token).not.toBe(token);
    await third();
    await releaseLingeringLock(lock);
    expect(await readdir(dir)).toEqual([]);
    // Without lingerMs, released at once as before.
    await (
      await acquireLock(lock)
    )();
    expect(await readdir(dir)).toEqual([]);
  });

  it(`lets other processes in after at most ${HANDOVER_LIMIT} hand-overs, however many callers of this process wait`, async () => {
    const { dir, lock } = await lockPath();
    const callers = [await acquireLock(lock)];
    const tokens = [(await own(lock)).token];
    // The first, then HANDOVER_LIMIT + 1 more queued behind it: the last cannot get it by hand-over.
    const queued = Array.from({ length: HANDOVER_LIMIT + 1 }, () => acquireLock(lock));
    for (const next of queued) {
      await callers.at(-1)!();
      callers.push(await next);
      tokens.push((await own(lock)).token);
    }
    await callers.at(-1)!();
    // The same owner for at most the first holder and HANDOVER_LIMIT hand-overs (fewer only if 200 ms
    // passed on a busy machine), then released and taken anew.
    const runs = tokens.reduce<number[]>(
      (lengths, token, index) => (index > 0 && token === tokens[index - 1] ? [...lengths.slice(0, -1), lengths.at(-1)! + 1] : [...lengths, 1]),
      [],
    );
    expect(Math.max(...runs)).toBeLessThanOrEqual(HANDOVER_LIMIT + 1);
    expect(runs.length).toBeGreaterThan(1);
    expect(await readdir(dir)).toEqual([]);
  });

  it('a live holder in another process: busy, naming it; once it is killed, taken over at once (not by its age)', async () => {
    const { lock } = await lockPath();
    const holder = await startHolder(lock);
    const busy = await acquireLock(lock, { waitMs: 0 }).then(
      () => undefined,
      (error: unknown) => error,
    );
    // Busy, not broken: a server answers 503 with Retry-After (the STORE_BUSY row of the error table).
    expect(busy).toBeInstanceOf(StoreBusyError);
    expect((busy as StoreBusyError).code).toBe('STORE_BUSY');
    expect((busy as Error).message).toMatch(new RegExp(`^the store is busy: ${lock} is held by process ${holder.pid} on ${hostname()} since \\d{4}-`));
    await kill(holder);
    // Refreshed "in an hour": no staleness rule can explain the takeover, only the dead pid.
    await utimes(join(lock, 'owner.json'), inAnHour(), inAnHour());
    const release = await acquireLock(lock, { waitMs: 0 });
    expect((await own(lock)).pid).toBe(process.pid);
    await release();
  });

  it('takes over at once a holder whose pid now belongs to another process, or that ran before a reboot', async () => {
    const reused = await lockPath();
    // pid 1 lives, but was not started at tick "1": the pid was reused.
    await plantLock(reused.lock, { pid: 1, started: '1', boot: await thisBoot(), pidNamespace: await thisNamespace() }, inAnHour());
    await (
      await acquireLock(reused.lock, { waitMs: 0 })
    )();

    const rebooted = await lockPath();
    await plantLock(rebooted.lock, { pid: 1, started: processStart(1), boot: 'another-boot', pidNamespace: await thisNamespace() }, inAnHour());
    await (
      await acquireLock(rebooted.lock, { waitMs: 0 })
    )();

    // The same live pid 1 with its real start time, on this boot: a live holder.
    const live = await lockPath();
    await plantLock(live.lock, { pid: 1, started: processStart(1), boot: await thisBoot(), pidNamespace: await thisNamespace() });
    await expect(acquireLock(live.lock, { waitMs: 0 })).rejects.toThrow(/is held by process 1 /);
  });

  it('a holder on another host (or in another pid namespace) is taken over only when not refreshed for the stale time', async () => {
    for (const owner of [{ host: 'another-host' }, { pidNamespace: 'pid:[1]' }]) {
      const fresh = await lockPath();
      await plantLock(fresh.lock, { ...owner, pid: await deadPid() }, new Date(Date.now() - 9_000));
      await expect(acquireLock(fresh.lock, { waitMs: 0, staleMs: 10_000 })).rejects.toThrow(/the store is busy/);
      const stale = await lockPath();
      await plantLock(stale.lock, { ...owner, pid: 1 }, new Date(Date.now() - 11_000));
      await (
        await acquireLock(stale.lock, { waitMs: 0, staleMs: 10_000 })
      )();
    }
  });

  it('a lock directory without a readable owner goes by its age', async () => {
    const fresh = await lockPath();
    await mkdir(fresh.lock);
    await writeFile(join(fresh.lock, 'owner.json'), '{"pid": 12'); // cut off by a crash
    await expect(acquireLock(fresh.lock, { waitMs: 0 })).rejects.toThrow(/the store is busy/);
    const old = new Date(Date.now() - 60_000);
    await utimes(join(fresh.lock, 'owner.json'), old, old);
    await (
      await acquireLock(fresh.lock, { waitMs: 0 })
    )();
  });

  it('the takeover race: of two contenders that judged the same owner dead, only one moves the lock', async () => {
    const { dir, lock } = await lockPath();
    const dead = await plantLock(lock, { pid: await deadPid(), boot: await thisBoot(), pidNamespace: await thisNamespace() });
    const tombstone = `${lock}.dead-${dead.token}`;
    // A wins the takeover and takes the lock...
    expect(await takeOver(lock, tombstone)).toBe(true);
    const release = await acquireLock(lock, { waitMs: 0 });
    const mine = (await own(lock)).token;
    // ...B, who read the same dead owner before A acted, acts now: it must not move A's lock.
    expect(await takeOver(lock, tombstone)).toBe(false);
    expect((await own(lock)).token).toBe(mine);
    expect((await own(tombstone)).token).toBe(dead.token);
    await release();
    expect(await readdir(dir)).toEqual([`orders.lock.dead-${dead.token}`]);
  });

  it('release leaves a lock that is no longer its own (taken over from another host meanwhile)', async () => {
    const { lock } = await lockPath();
    const release = await acquireLock(lock);
    const owner = await own(lock);
    await writeFile(join(lock, 'owner.json'), JSON.stringify({ ...owner, host: 'another-host', token: 'ffffffffffffffffffffffff' }));
    await release();
    expect((await own(lock)).token).toBe('ffffffffffffffffffffffff');
  });

  it('says at once what is wrong with a lock path that is a file, or a store that cannot be written', async () => {
    const file = await lockPath();
    await writeFile(file.lock, 'not a lock');
    // The default wait is 60 s: this must fail now, not after it.
    await expect(acquireLock(file.lock)).rejects.toThrow(`cannot lock the store: ${file.lock} is a file, not a lock directory (shipper never writes one there); remove it`);

    const readOnly = await lockPath();
    const undo = await makeReadOnly(readOnly.dir);
    try {
      await expect(acquireLock(readOnly.lock)).rejects.toThrow(
        `cannot lock the store in ${readOnly.dir}: ${undo.kind === 'bind-mount' ? 'the file system is read-only' : 'permission denied'}`,
      );
    } finally {
      await undo.restore();
    }
  });
});

/**
 * Real processes: a holder is SIGKILLed with the lock, then contenders start together and count
 * under the lock. Two holders at once would lose increments or interleave enter/exit lines.
 * SHIPPER_FAULT_RUNS=N repeats the kill-and-contend cycle N times (default 2).
 */
describe('the store lock across processes', () => {
  const runs = Math.max(1, Number(process.env.SHIPPER_FAULT_RUNS ?? 2));
  it(`after a SIGKILL of its holder, contenders take it over at once and never hold it together (${runs} runs)`, { timeout: 30_000 + runs * 3_000 }, async () => {
    for (let run = 0; run < runs; run++) {
      const { dir, lock } = await lockPath();
      const counter = join(dir, 'counter');
      const log = join(dir, 'log');
      await writeFile(counter, '0');
      await writeFile(log, '');
      const holder = await startHolder(lock);
      await kill(holder);
      await utimes(join(lock, 'owner.json'), inAnHour(), inAnHour());
      const contenders = 3;
      const times = 15;
      const running = Array.from({ length: contenders }, () => {
        const child = spawn(process.execPath, [worker, lock, 'count', counter, String(times), log], { stdio: ['ignore', 'pipe', 'pipe'] });
        children.push(child);
        let stderr = '';
        child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
        return once(child, 'exit').then(([code]) => (code === 0 ? 0 : `${code} ${stderr.trim().split('\n').slice(0, 3).join(' | ')}`));
      });
      const codes = await Promise.all(running);
      // Enough to tell what happened when a run of a long campaign fails.
      const story = async () => `run ${run}: exits ${codes.join(',')}; ${dir}: ${(await readdir(dir)).join(' ')}; log:\n${await readFile(log, 'utf8')}`;
      expect(codes, await story()).toEqual(Array(contenders).fill(0));
      expect(Number(await readFile(counter, 'utf8')), await story()).toBe(contenders * times);
      const lines = (await readFile(log, 'utf8')).trim().split('\n');
      expect(lines, await story()).toHaveLength(2 * contenders * times);
      for (let index = 0; index < lines.length; index += 2) {
        expect(lines[index], await story()).toMatch(/^enter \d+$/);
        expect(lines[index + 1], await story()).toBe(lines[index]!.replace('enter', 'exit'));
      }
      // Exactly one takeover of the dead holder's lock, and no lock left behind.
      expect(
        (await readdir(dir)).filter((name) => name.startsWith('orders.lock')).map((name) => name.replace(/-[0-9a-f]+$/, '')),
        await story(),
      ).toEqual(['orders.lock.dead']);
    }
  });
});
