/**
 * `shipper serve` in production (issue 42), as a real process over real sockets on the file
 * store: the probes, /metrics read by a third-party Prometheus text parser, the admin port, JSON
 * request logs without secrets, the graceful drain (in the order of its events, never by the
 * clock) and the SHIPPER_ variables of serve's flags. PostgreSQL's readiness is
 * test/store/postgres/readiness.test.ts.
 */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import parsePrometheus from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { OPERATION_NAMES } from '../../src/api/operations.js';
import { tempDir } from '../helpers/cli.js';
import { publishedStops, shipmentRequest } from '../helpers/fixtures.js';
import { runInProcess } from '../helpers/inProcess.js';
import { startServe, type ServeOptions, type ServeProcess } from '../helpers/serve.js';

const QUOTE = {
  ...publishedStops(),
  orderComponents: [{ palletCount: 1, poundsWeight: 500, dimensions: { length: 48, width: 40, height: 48 } }],
};
const JSON_LOG = { SHIPPER_LOG: 'json' };
const NOT_OPERATIONS = ['openapi', 'not-found', 'method-not-allowed', 'bad-id', 'unmatched', 'healthz', 'readyz', 'metrics'];

let root: string;
let cleanup: () => Promise<void>;
let storeCount = 0;
const running: ServeProcess[] = [];

beforeAll(async () => {
  ({ dir: root, cleanup } = await tempDir());
});
afterAll(async () => {
  await Promise.all(running.map((server) => server.stop('SIGKILL')));
  await cleanup();
});

async function serve(options: Omit<ServeOptions, 'store'> & { store?: string } = {}): Promise<ServeProcess> {
  const server = await startServe({ store: options.store ?? join(root, `store-${++storeCount}`), ...options });
  running.push(server);
  return server;
}

const json = (body: unknown, headers: Record<string, string> = {}) => ({ method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

type Counters = Map<string, number>;

/** The counters and gauges of /metrics, read by parse-prometheus-text-format, keyed `name{label="value",...}` (labels sorted). */
function readMetrics(text: string): { values: Counters; families: ReturnType<typeof parsePrometheus> } {
  const families = parsePrometheus(text);
  const values: Counters = new Map();
  for (const family of families) {
    if (family.type !== 'COUNTER' && family.type !== 'GAUGE') continue;
    for (const sample of family.metrics) {
      const labels = Object.entries(sample.labels ?? {})
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, value]) => `${key}="${value}"`)
        .join(',');
      values.set(`${family.name}{${labels}}`, Number(sample.value));
    }
  }
  return { values, families };
}

async function scrape(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${url}/metrics`, { headers });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await response.text();
  return { text, ...readMetrics(text) };
}

function changes(before: Counters, after: Counters, prefix: string): Record<string, number> {
  const moved: Record<string, number> = {};
  for (const [key, value] of after) {
    if (!key.startsWith(prefix)) continue;
    const delta = value - (before.get(key) ?? 0);
    if (delta !== 0) moved[key] = delta;
  }
  return moved;
}

/** Every stderr line as JSON (it fails on a line that is not). */
function logLines(server: ServeProcess): Array<Record<string, unknown>> {
  return server
    .stderr()
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Waits for a log line (an event, not a time). */
async function logged(server: ServeProcess, match: (line: Record<string, unknown>) => boolean): Promise<number> {
  let index = -1;
  await vi.waitFor(
    () => {
      index = logLines(server).findIndex(match);
      expect(index).toBeGreaterThanOrEqual(0);
    },
    { timeout: 30_000, interval: 20 },
  );
  return index;
}

/** The exit code of a server told to stop already (no further signal). */
function exitCode(server: ServeProcess): Promise<number | null> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return Promise.resolve(server.child.exitCode);
  return new Promise((resolve) => server.child.once('exit', (code) => resolve(code)));
}

/** A connection to the server, accepted before anything else happens; its whole answer when it closes. */
async function openConnection(url: string): Promise<{ socket: Socket; answer: Promise<string> }> {
  const { port } = new URL(url);
  const socket = connect(Number(port), '127.0.0.1');
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let text = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  const answer = new Promise<string>((resolve) => socket.once('close', () => resolve(text)));
  return { socket, answer };
}

describe('serve: the probes on the file store', () => {
  it('/healthz answers 200; /readyz 200 while the store is usable, 503 with a ProblemDetail while it is not, 200 again when it is back', async () => {
    const store = join(root, 'probed-store');
    const server = await serve({ store });
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });
    const head = await fetch(`${server.url}/readyz`, { method: 'HEAD' });
    expect([head.status, await head.text()]).toEqual([200, '']);
    const post = await fetch(`${server.url}/readyz`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');

    // The store's directory replaced by a file: the store cannot be used.
    await rename(store, `${store}.away`);
    await writeFile(store, 'not a directory');
    try {
      const down = await fetch(`${server.url}/readyz`);
      expect(down.status).toBe(503);
      expect(down.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
      const problem = (await down.json()) as Record<string, unknown>;
      expect(problem).toMatchObject({ type: 'urn:shipper:problem:not-ready', status: 503, reason: 'store-unavailable', instance: '/readyz' });
      expect(JSON.stringify(problem)).not.toContain(root);
      // The process still answers.
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      await rm(store);
      await rename(`${store}.away`, store);
    }
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    // The human log says why it was not ready, with the path (the operator's, not the client's).
    expect(server.stderr()).toMatch(/shipper serve: not ready: the store is unavailable.*: cannot use the store directory/);
    expect(server.stderr()).toContain('shipper serve: ready');
  });
});

describe('serve: /metrics', () => {
  it('counts exactly the requests sent, by operation, method and status, with bounded labels; bookings, cancellations and replays; store calls; default metrics', async () => {
    const server = await serve();
    const before = await scrape(server.url);

    const quotes = [];
    for (let index = 0; index < 3; index++) {
      const response = await fetch(`${server.url}/v1/shipper/quote`, json(QUOTE));
      expect(response.status).toBe(200);
      quotes.push((await response.json()) as { id: string });
    }
    for (let index = 0; index < 2; index++) expect((await fetch(`${server.url}/v1/shipper/quote/${quotes[index]!.id}`)).status).toBe(200);
    expect((await fetch(`${server.url}/v1/shipper/quote/Q-unknown-0001`)).status).toBe(404);
    const booking = shipmentRequest({ refNumber: 'PO-METRICS-1', pickupAddress: { ...shipmentRequest().pickupAddress, name: 'Metrics Company Inc' } });
    const booked = await fetch(`${server.url}/v1/shipper/shipment`, json(booking, { 'idempotency-key': 'metrics-booking-1' }));
    expect(booked.status).toBe(200);
    const shipment = (await booked.json()) as { id: string; orderNumber: string; bolNumber: string };
    const replayed = await fetch(`${server.url}/v1/shipper/shipment`, json(booking, { 'idempotency-key': 'metrics-booking-1' }));
    expect([replayed.status, replayed.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    expect((await fetch(`${server.url}/v1/shipper/shipment/${shipment.id}/cancel`, { method: 'PUT' })).status).toBe(200);
    expect((await fetch(`${server.url}/no/such/${shipment.id}`)).status).toBe(404);

    const after = await scrape(server.url);
    expect(changes(before.values, after.values, 'shipper_http_requests_total')).toEqual({
      'shipper_http_requests_total{method="POST",operation="createQuote",status="200"}': 3,
      'shipper_http_requests_total{method="GET",operation="getQuote",status="200"}': 2,
      'shipper_http_requests_total{method="GET",operation="getQuote",status="404"}': 1,
      'shipper_http_requests_total{method="POST",operation="createShipment",status="200"}': 2,
      'shipper_http_requests_total{method="PUT",operation="cancelShipment",status="200"}': 1,
      'shipper_http_requests_total{method="GET",operation="not-found",status="404"}': 1,
      // The first scrape; the second is still in flight while it renders.
      'shipper_http_requests_total{method="GET",operation="metrics",status="200"}': 1,
    });
    expect(changes(before.values, after.values, 'shipper_bookings_total')).toEqual({ 'shipper_bookings_total{}': 1 });
    expect(changes(before.values, after.values, 'shipper_cancellations_total')).toEqual({ 'shipper_cancellations_total{}': 1 });
    expect(changes(before.values, after.values, 'shipper_idempotent_replays_total')).toEqual({ 'shipper_idempotent_replays_total{operation="createShipment"}': 1 });
    expect(after.values.get('shipper_http_requests_in_flight{}')).toBe(1);
    expect(after.values.get('shipper_ready{}')).toBe(1);

    // Store calls: counted, by call names of the ports only.
    const storeCalls = [...after.values].filter(([key]) => key.startsWith('shipper_store_calls_total'));
    expect(storeCalls.reduce((sum, [, value]) => sum + value, 0)).toBeGreaterThan(0);
    for (const [key] of storeCalls) expect(key).toMatch(/^shipper_store_calls_total\{call="(withTransaction|[a-zA-Z]+\.[a-zA-Z]+)",outcome="(ok|error)"\}$/);
    expect(after.values.has('shipper_store_calls_total{call="withTransaction",outcome="ok"}')).toBe(true);

    // Latency: a histogram by operation (the parser reads its type; its count per operation is read from the text).
    expect(after.families.find((family) => family.name === 'shipper_http_request_duration_seconds')?.type).toBe('HISTOGRAM');
    expect(after.families.find((family) => family.name === 'shipper_store_call_duration_seconds')?.type).toBe('HISTOGRAM');
    expect(after.text).toMatch(/^shipper_http_request_duration_seconds_count\{operation="createQuote"\} 3$/m);

    // Default process and event-loop metrics.
    for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes']) {
      expect(after.families.map((family) => family.name)).toContain(name);
    }

    // Bounded labels: operation names, never an id, an order number or a company name.
    const sampleLines = after.text.split('\n').filter((line) => line.startsWith('shipper_'));
    for (const secret of [shipment.id, shipment.orderNumber, shipment.bolNumber, quotes[0]!.id, 'Metrics Company', 'PO-METRICS', 'metrics-booking-1', '/no/such']) {
      expect(after.text).not.toContain(secret);
    }
    for (const line of sampleLines) {
      const operation = /operation="([^"]*)"/.exec(line)?.[1];
      if (operation !== undefined) expect([...OPERATION_NAMES, ...NOT_OPERATIONS]).toContain(operation);
    }
  });

  it('is on an admin port of its own with --admin-port (with the probes, nothing else), and needs the API key on the API port', async () => {
    const key = 'admin-test-key-0123456789';
    const server = await serve({ globalArgs: ['--api-key', key], serveArgs: ['--admin-port', '0'] });
    const adminUrl = server.started.adminUrl as string;
    expect(adminUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(adminUrl).not.toBe(server.url);
    for (const path of ['/metrics', '/healthz', '/readyz']) expect((await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(404);
    expect((await fetch(`${adminUrl}/healthz`)).status).toBe(200);
    expect((await fetch(`${adminUrl}/readyz`)).status).toBe(200);
    expect((await fetch(`${server.url}/v1/shipper/quote`, json(QUOTE, { authorization: `Bearer ${key}` }))).status).toBe(200);
    const metrics = await scrape(adminUrl);
    expect(metrics.values.get('shipper_http_requests_total{method="POST",operation="createQuote",status="200"}')).toBe(1);
    const other = await fetch(`${adminUrl}/v1/shipper/quote`);
    expect(other.status).toBe(404);
    expect(((await other.json()) as { type: string }).type).toBe('urn:shipper:problem:not-found');

    // Without an admin port: the probes are public on the API port, /metrics needs the key.
    const open = await serve({ globalArgs: ['--api-key', key] });
    expect((await fetch(`${open.url}/readyz`)).status).toBe(200);
    expect((await fetch(`${open.url}/healthz`)).status).toBe(200);
    const refused = await fetch(`${open.url}/metrics`);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="shipper"');
    await scrape(open.url, { authorization: `Bearer ${key}` });
  });
});

describe('serve: logs', () => {
  it('writes JSON lines off a terminal, each request with the request id the client sent or got, and never a secret, a body or a token', async () => {
    const key = 'log-test-api-key-5f3e9a';
    const bodySecret = 'BODY-SECRET-7c1d';
    const tokenSecret = 'TOKEN-SECRET-99ab';
    // No SHIPPER_LOG: the default off a terminal.
    const server = await serve({ globalArgs: ['--api-key', key], env: { SHIPPER_LOG: undefined } });
    const auth = { authorization: `Bearer ${key}` };
    const sent = await fetch(`${server.url}/v1/shipper/quote`, json(QUOTE, { ...auth, 'x-request-id': 'client-req-0001' }));
    expect(sent.status).toBe(200);
    expect(sent.headers.get('x-request-id')).toBe('client-req-0001');
    const booking = await fetch(`${server.url}/v1/shipper/shipment`, json(shipmentRequest({ refNumber: 'PO-LOG-1', specialInstructions: bodySecret }), auth));
    expect(booking.status).toBe(200);
    const given = booking.headers.get('x-request-id')!;
    // An unusable id (a space, a line break) is replaced, not logged.
    const replaced = await fetch(`${server.url}/v1/shipper/quote?limit=1`, { headers: { ...auth, 'x-request-id': 'bad id' } });
    const made = replaced.headers.get('x-request-id')!;
    // Made ids are version 4 UUIDs, distinct, in the order the server made them (one process's counter).
    for (const id of [given, made]) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(made > given).toBe(true);
    expect((await fetch(`${server.url}/v1/shipper/quote?limit=1&token=${tokenSecret}`, { headers: auth })).status).toBe(400);
    expect((await fetch(`${server.url}/v1/shipper/quote`, json(QUOTE, { authorization: `Bearer wrong-${key}` }))).status).toBe(401);
    expect(await server.stop()).toBe(0);

    const lines = logLines(server);
    const requests = lines.filter((line) => line.event === 'request');
    expect(requests).toHaveLength(5);
    for (const line of requests) {
      expect(Object.keys(line)).toEqual(expect.arrayContaining(['time', 'level', 'reqId', 'operation', 'method', 'path', 'status', 'durationMs', 'bytes', 'remoteAddress']));
      expect(line.remoteAddress).toBe('127.0.0.1');
      expect(typeof line.durationMs).toBe('number');
      expect(new Date(line.time as string).toISOString()).toBe(line.time);
    }
    expect(requests[0]).toMatchObject({ reqId: 'client-req-0001', operation: 'createQuote', method: 'POST', status: 200, level: 'info' });
    expect(requests[0]!.bytes).toBe(Number(sent.headers.get('content-length')));
    expect(requests[1]).toMatchObject({ reqId: given, operation: 'createShipment', status: 200 });
    expect(requests[2]).toMatchObject({ reqId: replaced.headers.get('x-request-id'), operation: 'listQuotes', status: 200 });
    expect(requests[3]).toMatchObject({ operation: 'listQuotes', status: 400, path: '/v1/shipper/quote?limit=1&token=***' });
    expect(requests[4]).toMatchObject({ operation: 'createQuote', status: 401 });
    // Start-up, readiness and shutdown are events of their own.
    expect(lines.map((line) => line.event)).toEqual(expect.arrayContaining(['listening', 'drain', 'stopped']));
    const text = server.stderr();
    for (const secret of [key, bodySecret, tokenSecret, 'bad id']) expect(text).not.toContain(secret);
  });
});

describe('serve: the log on SIGTERM', () => {
  it('loses no line: every request answered before the signal has its line, each once, and the last word is the last line', async () => {
    const server = await serve({ env: JSON_LOG, serveArgs: ['--drain-delay', '0'] });
    const sent: string[] = [];
    // Many more lines than the destination gathers for one write (4 KiB), 16 requests at a time.
    for (let batch = 0; batch < 40; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 16 }, (_, index) =>
          fetch(`${server.url}/v1/shipper/quote/qt_01JD3Y7T9Q2W5E8R1T4Y7U0I3Z`, { headers: { 'x-request-id': `sigterm-${batch}-${index}` } }),
        ),
      );
      for (const answer of answers) {
        expect(answer.status).toBe(404);
        sent.push(answer.headers.get('x-request-id')!);
        await answer.arrayBuffer();
      }
    }
    expect(await server.stop('SIGTERM')).toBe(0);
    // The exit can come before the last of the pipe is read.
    const stderr = server.child.stderr!;
    if (!stderr.closed) await new Promise((resolve) => stderr.once('close', resolve));

    const lines = logLines(server);
    const logged = lines.filter((line) => line.event === 'request').map((line) => line.reqId as string);
    expect(logged).toHaveLength(sent.length);
    expect(new Set(logged)).toEqual(new Set(sent));
    expect(lines.at(-1)).toMatchObject({ event: 'stopped', forced: false });
  });
});

describe('serve: the graceful drain', () => {
  it('on SIGTERM: readiness 503 at once while requests are still served; after the delay new connections are refused; the slow request in flight completes with 200; exit 0', async () => {
    const server = await serve({ env: JSON_LOG, serveArgs: ['--drain-delay', '2s', '--drain-timeout', '60s'] });
    const preview = JSON.stringify({ items: [{ request: shipmentRequest({ refNumber: 'PO-SLOW' }) }] });
    // A slow request: its body half sent before the signal.
    const slow = await openConnection(server.url);
    slow.socket.write(
      `POST /v1/shipper/shipment-preview HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(preview)}\r\n\r\n${preview.slice(0, 20)}`,
    );
    // Requests begun before the signal (their headers not yet complete), answered after it.
    const probe = await openConnection(server.url);
    probe.socket.write('GET /readyz HTTP/1.1\r\nHost: x\r\n');
    const work = await openConnection(server.url);
    work.socket.write('GET /v1/shipper/quote?limit=1 HTTP/1.1\r\nHost: x\r\n');

    server.child.kill('SIGTERM');
    const drainStarted = await logged(server, (line) => line.event === 'drain' && line.signal === 'SIGTERM');
    probe.socket.write('\r\n');
    work.socket.write('\r\n');
    const [readiness, served] = await Promise.all([probe.answer, work.answer]);
    expect(readiness).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n/);
    expect(readiness).toContain('"reason":"draining"');
    expect(served).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    // Every answer during the drain closes its connection.
    expect(served).toMatch(/\r\nConnection: close\r\n/i);

    const closing = await logged(server, (line) => line.event === 'drain' && line.step === 'closing');
    const refused = await fetch(`${server.url}/healthz`).then(
      () => 'answered',
      (error: Error & { cause?: { code?: string } }) => error.cause?.code,
    );
    expect(refused).toBe('ECONNREFUSED');

    slow.socket.write(preview.slice(20));
    expect(await slow.answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(await exitCode(server)).toBe(0);

    const lines = logLines(server);
    const stopped = lines.findIndex((line) => line.event === 'stopped');
    const readyzLine = lines.findIndex((line) => line.event === 'request' && line.operation === 'readyz');
    const slowLine = lines.findIndex((line) => line.event === 'request' && line.operation === 'previewShipments');
    expect(lines[readyzLine]).toMatchObject({ status: 503 });
    expect(lines[slowLine]).toMatchObject({ status: 200 });
    // The order of events: drain, 503 while serving, listener closed, the slow request done, stopped.
    expect(drainStarted).toBeLessThan(readyzLine);
    expect(readyzLine).toBeLessThan(closing);
    expect(closing).toBeLessThan(slowLine);
    expect(slowLine).toBeLessThan(stopped);
    expect(lines[stopped]).toMatchObject({ forced: false });
  });

  it('cuts a request still in flight after the drain timeout and exits 0; a second signal ends the drain at once', async () => {
    const stuck = await serve({ env: JSON_LOG, serveArgs: ['--drain-delay', '0', '--drain-timeout', '200ms'] });
    const hanging = await openConnection(stuck.url);
    hanging.socket.write('POST /v1/shipper/quote HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"origin"');
    await vi.waitFor(() => expect(stuck.child.pid).toBeDefined());
    expect(await stuck.stop('SIGTERM')).toBe(0);
    expect(await hanging.answer).toBe('');
    const stuckLines = logLines(stuck);
    expect(stuckLines.at(-1)).toMatchObject({ event: 'stopped', forced: false });
    // The cut request is logged as such, before the server says it stopped.
    expect(stuckLines.find((line) => line.event === 'request')).toMatchObject({ operation: 'createQuote', aborted: true, level: 'warn' });

    // A delay far longer than the test: only the second signal can end it.
    const twice = await serve({ env: JSON_LOG, serveArgs: ['--drain-delay', '10m'] });
    twice.child.kill('SIGINT');
    await logged(twice, (line) => line.event === 'drain' && line.signal === 'SIGINT');
    expect((await fetch(`${twice.url}/readyz`)).status).toBe(503);
    expect(await twice.stop('SIGTERM')).toBe(0);
    const lines = logLines(twice);
    expect(lines.find((line) => line.step === 'forced')).toMatchObject({ signal: 'SIGTERM', level: 'warn' });
    expect(lines.at(-1)).toMatchObject({ event: 'stopped', forced: true });
  });
});

describe('serve: configuration from the environment', () => {
  it('takes every serve flag from its SHIPPER_ variable (a flag on the command line wins), refuses a bad one by name, and lists them in --help', async () => {
    const server = await serve({
      env: { SHIPPER_LOG: 'json', SHIPPER_ADMIN_PORT: '0', SHIPPER_METRICS: '0', SHIPPER_PORT: '1', SHIPPER_LOG_LEVEL: 'debug', SHIPPER_DRAIN_DELAY: '0' },
    });
    // --port 0 on the command line (the helper's) wins over SHIPPER_PORT=1.
    expect(new URL(server.url).port).not.toBe('1');
    const adminUrl = server.started.adminUrl as string;
    expect(adminUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${adminUrl}/readyz`)).status).toBe(200);
    // SHIPPER_METRICS=0: no /metrics anywhere.
    expect((await fetch(`${adminUrl}/metrics`)).status).toBe(404);
    expect(await server.stop()).toBe(0);
    const lines = logLines(server);
    // debug: the probe's own line (info would leave it out).
    expect(lines.find((line) => line.operation === 'readyz')).toMatchObject({ level: 'debug', status: 200 });
    expect(lines.find((line) => line.event === 'listening')).toMatchObject({ metrics: false, log: 'json' });

    const store = join(root, 'env-store');
    await mkdir(store, { recursive: true });
    for (const [variable, value] of [
      ['SHIPPER_DRAIN_DELAY', 'soon'],
      ['SHIPPER_PORT', '70000'],
      ['SHIPPER_LOG', 'xml'],
      ['SHIPPER_METRICS', 'maybe'],
    ] as const) {
      const refused = await runInProcess(['--store', store, 'serve'], { env: { [variable]: value } });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`${variable}=${value}: `);
    }
    const help = await runInProcess(['serve', '--help']);
    for (const variable of [
      'SHIPPER_HOST',
      'SHIPPER_PORT',
      'SHIPPER_ADMIN_PORT',
      'SHIPPER_DRAIN_DELAY',
      'SHIPPER_DRAIN_TIMEOUT',
      'SHIPPER_LOG',
      'SHIPPER_LOG_LEVEL',
      'SHIPPER_STORE',
    ]) {
      expect(help.stdout).toMatch(new RegExp(`^  ${variable} +--`, 'm'));
    }
  });
});
