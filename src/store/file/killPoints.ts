/**
 * Kill points for the crash tests (test/faults/journal.test.ts): with SHIPPER_KILL_AT set to one
 * of these names, the process kills itself with SIGKILL at that point of a commit, as a power cut
 * or `kill -9` would stop it. Unset (always, outside the tests) it costs one environment read.
 */
export type KillPoint = 'journal-write' | 'after-journal' | 'during-apply' | 'during-compaction';

/** The kill at `point` when the tests asked for it, else undefined. */
export function killPoint(point: KillPoint): (() => never) | undefined {
  if (process.env.SHIPPER_KILL_AT !== point) return undefined;
  return () => {
    process.kill(process.pid, 'SIGKILL');
    // SIGKILL is not delivered synchronously everywhere: never go on.
    for (;;) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
  };
}
