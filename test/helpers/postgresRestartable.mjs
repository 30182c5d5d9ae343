// A PostgreSQL server that a test stops and starts again (test/store/postgres/readiness.test.ts):
// initdb and start into <dir>/data, then one JSON line on stdout per step
// ({"event":"started","url":...}, {"event":"stopped"}, {"event":"error","message":...}); the lines
// "stop" and "start" on stdin stop and start it, keeping its data; stdin's end or SIGTERM stops it
// for good. A process of its own for the reason test/helpers/postgresServer.mjs gives; the
// binaries and the cluster are postgresNative.mjs's (reachable by the OS user postgres from a
// private checkout). The caller removes <dir>.
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { nativeCluster } from './postgresNative.mjs';

const [dir, port] = process.argv.slice(2);
const password = randomBytes(12).toString('hex');
let logTail = '';
const log = (text) => (logTail = (logTail + text).slice(-2000));

const say = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);
let queue = Promise.resolve();
const step = (fn) => (queue = queue.then(fn).catch((error) => say({ event: 'error', message: `${error?.message ?? error}\n${logTail}` })));
let cluster;
let ending;
const end = () =>
  (ending ??= queue
    .then(() => cluster?.stop())
    .catch(() => undefined)
    .then(() => process.exit(0)));

process.on('SIGTERM', end);
process.on('SIGINT', end);
createInterface({ input: process.stdin })
  .on('line', (line) => {
    if (line === 'stop')
      step(async () => {
        await cluster.stop();
        say({ event: 'stopped' });
      });
    if (line === 'start')
      step(async () => {
        await cluster.start();
        say({ event: 'started' });
      });
  })
  .on('close', end);

step(async () => {
  cluster = await nativeCluster({ stateDir: dir, port, password, log, flags: ['fsync=off', 'synchronous_commit=off', 'full_page_writes=off'] });
  await cluster.initialise();
  await cluster.start();
  say({ event: 'started', url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres` });
});
