/**
 * Kill points for the crash tests (test/faults/journal.test.ts): with SHIPPER_KILL_AT set to one
 * of these names (`name` or `name@N`: the N-th time this process reaches it), the process kills
 * itself with SIGKILL at that point of a commit, as `kill -9` or a power cut would stop it. Unset
 * (always, outside the tests) it costs one environment read.
 */
export type KillPoint = 'journal-write' | 'after-journal' | 'during-apply' | 'during-compaction' | 'during-merge';

const reached = new Map<KillPoint, number>();

/** The kill at `point` when the tests asked for it (and this is the time), else undefined. */
export function killPoint(point: KillPoint): (() => never) | undefined {
  const wanted = process.env.SHIPPER_KILL_AT;
  if (wanted === undefined) return undefined;
  const [name, nth = '1'] = wanted.split('@');
  if (name !== point) return undefined;
  const times = (reached.get(point) ?? 0) + 1;
  reached.set(point, times);
  if (times !== Number(nth)) return undefined;
  return () => {
    process.kill(process.pid, 'SIGKILL');
    // SIGKILL is not delivered synchronously everywhere: never go on.
    for (;;) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
  };
}
