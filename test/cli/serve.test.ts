/**
 * `shipper serve` as a process: listening line, access log, API key sources, signals. Start-up
 * errors (it never listens) run in process.
 */
import { connect } from 'node:net';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inProcess.js';
import { startServe } from '../helpers/serve.js';
import { publishedStops } from '../helpers/fixtures.js';

const QUOTE = JSON.stringify({
  ...publishedStops(),
  orderComponents: [{ palletCount: 1, poundsWeight: 500, dimensions: { length: 48, width: 40, height: 48 } }],
});

let store: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir: store, cleanup } = await tempDir());
});
afterAll(() => cleanup());

const post = (url: string, headers: Record<string, string> = {}) =>
  fetch(`${url}/v1/shipper/quote`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: QUOTE });

describe('shipper serve', () => {
  it('prints its URL, logs one line per request, and on SIGTERM finishes the request in flight, then exits 0', async () => {
    const server = await startServe({ store });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await post(server.url)).status).toBe(200);
    expect((await fetch(`${server.url}/v1/shipper/quote?limit=1`)).status).toBe(200);

    // A POST whose body is only half sent when the signal arrives.
    const { port } = new URL(server.url);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let answer = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
    const answered = new Promise((resolve) => socket.once('close', resolve));
    socket.write(`POST /v1/shipper/quote HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(QUOTE)}\r\n\r\n${QUOTE.slice(0, 30)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const exit = server.stop('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.write(QUOTE.slice(30));
    await answered;
    expect(await exit).toBe(0);
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK/);

    const lines = server.stderr().trim().split('\n');
    const access = lines.filter((line) => /^\d{4}-\d{2}-\d{2}T/.test(line));
    expect(access).toHaveLength(3);
    expect(access[0]).toMatch(/ 127\.0\.0\.1 "POST \/v1\/shipper\/quote" 200 \d+ [\d.]+ms$/);
    expect(access[1]).toMatch(/"GET \/v1\/shipper\/quote\?limit=1" 200 /);
    expect(lines).toContain('shipper serve: SIGTERM: finishing requests in flight, then stopping');
    expect(lines.at(-1)).toBe('shipper serve: stopped');
  });

  it('stops on SIGINT too', async () => {
    const server = await startServe({ store });
    expect(await server.stop('SIGINT')).toBe(0);
  });

  it('requires the key given with --api-key or SHIPPER_SERVE_API_KEY, and never logs it; SHIPPER_API_KEY is the client’s', async () => {
    const key = 'serve-key-0123456789';
    for (const options of [{ globalArgs: ['--api-key', key] }, { env: { SHIPPER_SERVE_API_KEY: key } }]) {
      const server = await startServe({ store, ...options });
      try {
        expect((await post(server.url)).status).toBe(401);
        expect((await post(server.url, { authorization: `Bearer ${key}` })).status).toBe(200);
      } finally {
        await server.stop();
      }
      expect(server.stderr()).not.toContain(key);
    }
    const open = await startServe({ store, env: { SHIPPER_API_KEY: key } });
    try {
      expect((await post(open.url)).status).toBe(200);
    } finally {
      await open.stop();
    }
  });

  it('says so when the port is taken (exit 2), and refuses remote flags (exit 2)', async () => {
    const server = await startServe({ store });
    try {
      const { port } = new URL(server.url);
      const taken = await runInProcess(['--store', store, 'serve', '--port', port]);
      expect(taken.code).toBe(2);
      expect(taken.stderr).toBe(`shipper: port ${port} on 127.0.0.1 is in use; pick another with --port (0: any free port)\n`);
    } finally {
      await server.stop();
    }
    const remote = await runInProcess(['--store', store, '--base-url', 'http://127.0.0.1:1', 'serve', '--port', '0']);
    expect(remote.code).toBe(2);
    expect(remote.stderr).toMatch(/serves the local engine and store/);
    const badPort = await runInProcess(['--store', store, 'serve', '--port', '70000']);
    expect(badPort.code).toBe(2);
  });

  it('fails at start-up, not at the first request, on a store it cannot create (exit 5)', async () => {
    const blocker = join(store, 'a-file');
    await writeFile(blocker, '');
    const result = await runInProcess(['--store', join(blocker, 'store'), 'serve', '--port', '0']);
    expect(result.code).toBe(5);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^shipper: cannot use the store directory .*a-file\/store: .*not a directory/);
  });

  it('fails at start-up, not at the first request, on a bad tariff (exit 5)', async () => {
    const tariff = join(store, 'bad-tariff.json');
    await writeFile(tariff, '{"not": "a tariff"}');
    const result = await runInProcess(['--store', store, '--tariff', tariff, 'serve', '--port', '0']);
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/^shipper: the tariff .*bad-tariff\.json is invalid/);
  });
});
