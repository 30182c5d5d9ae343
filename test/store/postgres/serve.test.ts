/**
 * `shipper serve --store postgres://...` as a team runs it: two servers on one database booking at
 * once (every 200 a distinct order and BOL number, none lost, numbers without a gap), a database
 * that goes away (503 with Retry-After, then served again without a restart), and a connection
 * lost in the middle of a booking (nothing half-booked, no number used).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import { tempDir } from '../../helpers/cli.js';
import { runInProcess } from '../../helpers/inProcess.js';
import { PALLETS, PUBLISHED_PICKUP, PUBLISHED_NYC } from '../../helpers/fixtures.js';
import { postgresServerUrl, testDatabase } from '../../helpers/postgres.js';
import { startServe, type ServeProcess } from '../../helpers/serve.js';
import { MIGRATIONS } from '../../../src/store/postgres/migrations.js';

const servers: ServeProcess[] = [];
let admin: postgres.Sql;
const cleanups: Array<() => Promise<void>> = [];

async function serveOn(url: string): Promise<ServeProcess> {
  const { dir, cleanup } = await tempDir();
  cleanups.push(cleanup);
  const server = await startServe({ store: url, env: { SHIPPER_CONFIG_DIR: dir } });
  servers.push(server);
  return server;
}

const booking = (refNumber: string) => ({ refNumber, pickupAddress: PUBLISHED_PICKUP, deliveryAddress: PUBLISHED_NYC, orderComponents: [PALLETS] });

async function post(server: ServeProcess, path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/v1/shipper${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  admin = postgres(await postgresServerUrl(), { max: 1, onnotice: () => undefined });
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await admin?.end();
  await Promise.all(cleanups.map((cleanup) => cleanup()));
});

describe('shipper serve on PostgreSQL', () => {
  it('two servers started together on a new database migrate it once and book concurrently without a duplicate, a loss or a gap', async () => {
    const url = await testDatabase();
    const [one, two] = await Promise.all([serveOn(url), serveOn(url)]);
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, index) => post(index % 2 ? one : two, '/shipment', booking(`PO-${index}`), { 'idempotency-key': `booking-${index}` })),
    );
    // A retried request (same key, either server) answers the same booking.
    const retried = await post(one, '/shipment', booking('PO-2'), { 'idempotency-key': 'booking-2' });

    const created = answers.filter((answer) => answer.status === 200).map((answer) => answer.body);
    expect(answers.map((answer) => answer.status)).toEqual(Array(60).fill(200));
    const orders = created.map((shipment) => shipment.orderNumber as string);
    const bols = created.map((shipment) => shipment.bolNumber as string);
    expect(new Set(orders).size).toBe(60);
    expect(new Set(bols).size).toBe(60);
    expect([...orders].sort()).toEqual(Array.from({ length: 60 }, (_, index) => `SO-${String(index + 1).padStart(6, '0')}`));
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(retried.body.orderNumber).toBe(answers[2]!.body.orderNumber);

    const sql = postgres(url, { max: 1 });
    const rows = await sql<Array<{ order_number: string }>>`select order_number from shipments order by order_number`;
    const [migrations] = await sql<Array<{ n: number }>>`select count(*)::int as n from shipper_migrations`;
    await sql.end();
    expect(rows.map((row) => row.order_number)).toEqual([...orders].sort());
    // Each migration applied once (MIGRATIONS: the schema's versions).
    expect(migrations!.n).toBe(MIGRATIONS.length);
  });

  it('books a quote once across two servers: the same quote booked on both at once is one 200 and 409s', async () => {
    const url = await testDatabase();
    const [one, two] = await Promise.all([serveOn(url), serveOn(url)]);
    const quote = await post(one, '/quote', { pickupAddress: PUBLISHED_PICKUP, deliveryAddress: PUBLISHED_NYC, orderComponents: [PALLETS] });
    expect(quote.status).toBe(200);
    const attempts = await Promise.all(Array.from({ length: 8 }, (_, index) => post(index % 2 ? one : two, '/shipment', { ...booking(`PO-q-${index}`), quoteId: quote.body.id })));
    const statuses = attempts.map((attempt) => attempt.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
  });

  it('answers 503 with Retry-After while its database is away, without the password in its log, and serves again when it is back', async () => {
    const url = await testDatabase();
    const server = await serveOn(url);
    expect((await post(server, '/quote', { pickupAddress: PUBLISHED_PICKUP, deliveryAddress: PUBLISHED_NYC, orderComponents: [PALLETS] })).status).toBe(200);
    const name = new URL(url).pathname.slice(1);
    await admin.unsafe(`alter database ${name} allow_connections false`);
    await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${name}`;
    try {
      const away = await post(server, '/shipment', booking('PO-away'));
      expect(away.status).toBe(503);
      expect(away.headers.get('retry-after')).toBe('5');
      expect(away.body).toMatchObject({ type: 'urn:shipper:problem:store-unavailable', status: 503 });
      expect(JSON.stringify(away.body)).not.toContain('postgres://');
    } finally {
      await admin.unsafe(`alter database ${name} allow_connections true`);
    }
    expect((await post(server, '/shipment', booking('PO-back'))).status).toBe(200);
    expect(server.stderr()).toMatch(/503 .*the PostgreSQL store postgres:\/\/postgres:\*\*\*\*@127\.0\.0\.1:\d+\/\w+ /);
    expect(server.stderr()).not.toContain(new URL(url).password);
  });

  it('refuses to start on a database that is down: one line, exit 5, no password', async () => {
    const down = new URL(await testDatabase());
    down.port = '1';
    // A start-up error (it never listens): in process, as in test/cli/serve.test.ts.
    const result = await runInProcess(['--store', down.href, 'serve', '--port', '0']);
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/^shipper: the PostgreSQL store postgres:\/\/postgres:\*\*\*\*@127\.0\.0\.1:1\/\w+ is not accepting connections \(connection refused\)\n$/);
    expect(result.stdout).toBe('');
  });

  it('leaves nothing half-booked when connections are lost in the middle of bookings, and goes on serving', async () => {
    const url = await testDatabase();
    const server = await serveOn(url);
    const name = new URL(url).pathname.slice(1);
    let cut = 0;
    let cutting = true;
    // The database drops connections in the middle of their work (a network cut, a failover): any
    // backend of the database running a statement or holding a transaction open. Idle in a
    // transaction alone lasts too briefly to be caught on a fast (or a loaded) machine.
    const cutter = (async () => {
      while (cutting) {
        const rows =
          await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${name} and application_name = 'shipper' and (state = 'active' or state like 'idle in transaction%')`;
        cut += rows.length;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const answers: Array<Awaited<ReturnType<typeof post>>> = [];
    for (let round = 0; round < 60 && (cut === 0 || answers.length < 60); round++) {
      answers.push(...(await Promise.all(Array.from({ length: 12 }, (_, index) => post(server, '/shipment', booking(`PO-${round}-${index}`))))));
    }
    cutting = false;
    await cutter;
    expect(cut).toBeGreaterThan(0);
    const statuses = new Set(answers.map((answer) => answer.status));
    expect([...statuses].every((status) => status === 200 || status === 503)).toBe(true);
    // Still serving: a booking now succeeds. A pooled connection terminated at the last moment is
    // only found dead when next used: that request answers 503 (nothing booked) and the next one
    // gets another connection, as a client retrying after Retry-After would. serve's pool holds 16
    // connections (cli/context.ts), and the last round of cuts may have caught any of them: each
    // may cost one 503, so the retries outnumber the pool.
    let after = await post(server, '/shipment', booking('PO-after'));
    for (let attempt = 0; attempt < 40 && after.status === 503; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      after = await post(server, '/shipment', booking('PO-after'));
    }
    expect(after.status, JSON.stringify(after.body)).toBe(200);

    const booked = answers.filter((answer) => answer.status === 200).map((answer) => answer.body.orderNumber as string);
    const sql = postgres(url, { max: 1 });
    const rows = await sql<Array<{ order_number: string; record: { ssccs: string[] } }>>`select order_number, record from shipments order by order_number`;
    const [counter] = await sql<Array<{ last: number }>>`select last::int from counters where name = 'orders'`;
    await sql.end();
    const stored = rows.map((row) => row.order_number);
    // Every acknowledged booking is there, whole (its SSCCs with it); numbers without a gap or a duplicate.
    for (const number of [...booked, after.body.orderNumber as string]) expect(stored).toContain(number);
    expect(rows.every((row) => row.record.ssccs.length > 0)).toBe(true);
    expect(stored).toEqual(Array.from({ length: stored.length }, (_, index) => `SO-${String(index + 1).padStart(6, '0')}`));
    expect(counter!.last).toBe(stored.length);
  });
});
