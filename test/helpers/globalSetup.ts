/**
 * The run's temporary directories (tempDir(), os.tmpdir() in the tests and in every process they
 * start) go on a tmpfs when the machine has one with room (/dev/shm on Linux). The store fsyncs
 * every record and directory it writes; on a virtual disk those fsyncs were most of the time of the
 * import-heavy tests, and no test can observe them: a killed process loses nothing that was in
 * the page cache, and the full and read-only disks of test/faults are mounts or injected faults of
 * their own. The writes still take the same path (temporary file, fsync, rename, directory sync).
 *
 * SHIPPER_TEST_TMPDIR=<dir> picks the directory instead (`SHIPPER_TEST_TMPDIR=/tmp npm test` runs on
 * the disk); nothing is changed when TMPDIR is set already.
 */
import { mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { join } from 'node:path';

const TMPFS_MAGIC = 0x01021994;
/** A run writes a few hundred MB at most; leave the machine room to spare. */
const ROOM_NEEDED = 2 * 1024 ** 3;

function tmpfsWithRoom(dir: string): boolean {
  try {
    const stats = statfsSync(dir);
    return stats.type === TMPFS_MAGIC && stats.bavail * stats.bsize >= ROOM_NEEDED;
  } catch {
    return false;
  }
}

export default function setup(): (() => void) | undefined {
  const chosen = process.env.SHIPPER_TEST_TMPDIR;
  if (chosen) {
    process.env.TMPDIR = chosen;
    return undefined;
  }
  if (process.env.TMPDIR || !tmpfsWithRoom('/dev/shm')) return undefined;
  const dir = mkdtempSync(join('/dev/shm', 'shipper-tests-'));
  process.env.TMPDIR = dir;
  return () => {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch (error) {
      // A mount a failed test left behind (test/faults) keeps it busy: say so, fail nothing.
      console.warn(`could not remove ${dir}: ${(error as Error).message}`);
    }
  };
}
