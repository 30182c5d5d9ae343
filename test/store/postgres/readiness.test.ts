/**
 * `shipper serve`'s probes on PostgreSQL: /readyz 200 while the database answers and its
 * migrations are current, 503 when they are not, 503 while the PostgreSQL server is stopped and
 * 200 again once it is back, without a restart of serve. The stop and start need a server of
 * this file's own (test/helpers/postgresRestartable.mjs): the run's shared one serves every file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../../helpers/cli.js';
import { PALLETS, PUBLISHED_PICKUP, PUBLISHED_NYC } from '../../helpers/fixtures.js';
import { testDatabase } from '../../helpers/postgres.js';
import { startServe, type ServeProcess } from '../../helpers/serve.js';

const servers: ServeProcess[] = [];
const cleanups: Array<() => Promise<void>> = [];

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop('SIGKILL')));
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function serveOn(url: string): Promise<ServeProcess> {
  const { dir, cleanup } = await tempDir();
  cleanups.push(cleanup);
  const server = await startServe({ store: url, env: { SHIPPER_CONFIG_DIR: dir } });
  servers.push(server);
  return server;
}

async function readyz(server: ServeProcess): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${server.url}/readyz`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const booking = { refNumber: 'PO-READY', pickupAddress: PUBLISHED_PICKUP, deliveryAddress: PUBLISHED_NYC, orderComponents: [PALLETS] };

describe('serve on PostgreSQL: the probes', () => {
  it('/healthz 200, /readyz 200 on a current schema and 503 (store-schema) while the database is at another version', async () => {
    const url = await testDatabase();
    const server = await serveOn(url);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(await readyz(server)).toEqual({ status: 200, body: { status: 'ready' } });

    const sql = postgres(url, { max: 1, onnotice: () => undefined });
    try {
      // A newer shipper migrated the database: this one must not take traffic.
      await sql`insert into shipper_migrations (version, name) values (9999, 'from the future')`;
      const ahead = await readyz(server);
      expect(ahead.status).toBe(503);
      expect(ahead.body).toMatchObject({ type: 'urn:shipper:problem:not-ready', reason: 'store-schema', status: 503 });
      expect(JSON.stringify(ahead.body)).not.toContain('postgres://');
      await sql`delete from shipper_migrations where version = 9999`;
    } finally {
      await sql.end();
    }
    expect((await readyz(server)).status).toBe(200);
    // The store's calls are timed on PostgreSQL too, without changing what they do.
    const booked = await fetch(`${server.url}/v1/shipper/shipment`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(booking) });
    expect(booked.status).toBe(200);
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toMatch(/^shipper_store_calls_total\{call="withTransaction",outcome="ok"\} [1-9]\d*$/m);
    expect(metrics).toMatch(/^shipper_bookings_total 1$/m);
    expect(server.stderr()).toMatch(
      /shipper serve: not ready: the store's schema is not this version's: its migrations are not current: the PostgreSQL store postgres:\/\/postgres:\*\*\*\*@/,
    );
  });
});

describe('serve on PostgreSQL: a server that stops and comes back', () => {
  let database: ChildProcess;
  const lines: Array<Record<string, unknown>> = [];
  let databaseUrl: string;

  const event = (name: string, after: number) =>
    vi.waitFor(
      () => {
        const failed = lines.slice(after).find((line) => line.event === 'error');
        if (failed) throw new Error(String(failed.message));
        expect(lines.slice(after).some((line) => line.event === name)).toBe(true);
      },
      { timeout: 120_000, interval: 50 },
    );

  beforeAll(async () => {
    // Where the run's shared server lives: a directory the OS user postgres may write into.
    const base = process.env.SHIPPER_TEST_PG_STATE ? dirname(process.env.SHIPPER_TEST_PG_STATE) : tmpdir();
    const dir = mkdtempSync(join(base, 'shipper-pg-restart-'));
    chmodSync(dir, 0o777);
    const port = await new Promise<number>((resolve, reject) => {
      const probe = createServer().once('error', reject);
      probe.listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    database = spawn(process.execPath, [join(import.meta.dirname, '../../helpers/postgresRestartable.mjs'), dir, String(port)], {
      stdio: ['pipe', 'pipe', 'ignore'],
      env: { ...process.env, TMPDIR: dir },
    });
    const exited = new Promise<void>((resolve) => database.once('exit', () => resolve()));
    cleanups.push(async () => {
      database.stdin!.end();
      await exited;
      rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    });
    let buffer = '';
    database.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      const complete = buffer.split('\n');
      buffer = complete.pop()!;
      lines.push(...complete.map((line) => JSON.parse(line) as Record<string, unknown>));
    });
    await event('started', 0);
    databaseUrl = String(lines.find((line) => line.url)!.url);
  }, 180_000);

  it('/readyz is 503 while PostgreSQL is stopped and 200 again once it is back, without restarting serve', { timeout: 180_000 }, async () => {
    const server = await serveOn(databaseUrl);
    expect((await readyz(server)).status).toBe(200);
    expect((await fetch(`${server.url}/v1/shipper/shipment`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(booking) })).status).toBe(200);

    let seen = lines.length;
    database.stdin!.write('stop\n');
    await event('stopped', seen);
    const down = await readyz(server);
    expect(down.status).toBe(503);
    expect(['store-unavailable', 'store-timeout']).toContain(down.body.reason);
    expect(down.body).toMatchObject({ type: 'urn:shipper:problem:not-ready', status: 503 });
    // The process itself is alive.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    // And says so to Prometheus.
    expect(await (await fetch(`${server.url}/metrics`)).text()).toMatch(/^shipper_ready 0$/m);

    seen = lines.length;
    database.stdin!.write('start\n');
    await event('started', seen);
    // Ready again, by itself: the same serve process, its pool reconnected.
    await vi.waitFor(async () => expect((await readyz(server)).status).toBe(200), { timeout: 60_000, interval: 100 });
    expect(server.child.exitCode).toBeNull();
    expect(await (await fetch(`${server.url}/metrics`)).text()).toMatch(/^shipper_ready 1$/m);
    expect(
      (
        await fetch(`${server.url}/v1/shipper/shipment`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ...booking, refNumber: 'PO-BACK' }),
        })
      ).status,
    ).toBe(200);

    const log = server.stderr();
    expect(log).toMatch(/shipper serve: not ready: the store is unavailable/);
    expect(log).not.toContain(new URL(databaseUrl).password);
  });
});
