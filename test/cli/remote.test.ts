/**
 * Remote mode from the command line: a server that is down, slow or answers garbage is exit 3 and
 * one line; the API key from flag, env or config profile; ProblemDetails keep their exit codes.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { tempDir, type CliResult } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inProcess.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';
import { withContact } from '../helpers/fixtures.js';

const KEY = 'remote-key-0123456789';
let dirs: Array<{ dir: string; cleanup: () => Promise<void> }> = [];
let server: ServeProcess;
let serverStore: string;
let configDir: string;

/** The CLI (in process; the server is a real `shipper serve`) with its own empty config, quick to give up. */
const cli = (args: string[], env: Record<string, string> = {}) => runInProcess(args, { env: { SHIPPER_CONFIG_DIR: configDir, SHIPPER_RETRIES: '0', ...env } });

function expectOneLine(result: CliResult, code: number, pattern: RegExp): void {
  expect(result.code, result.stderr).toBe(code);
  expect(result.stderr.trimEnd().split('\n'), result.stderr).toHaveLength(1);
  expect(result.stderr).toMatch(pattern);
  expect(result.stdout).toBe('');
}

async function fakeServer(handler: Parameters<typeof createServer>[1]): Promise<{ url: string; close: () => Promise<void> }> {
  const fake: Server = createServer(handler);
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(fake.address() as AddressInfo).port}`,
    close: async () => {
      fake.closeAllConnections();
      await new Promise((resolve) => fake.close(resolve));
    },
  };
}

beforeAll(async () => {
  dirs = [await tempDir(), await tempDir()];
  serverStore = dirs[0]!.dir;
  configDir = dirs[1]!.dir;
  server = await startServe({ store: serverStore, globalArgs: ['--api-key', KEY] });
});

afterAll(async () => {
  await server.stop();
  for (const dir of dirs) await dir.cleanup();
});

describe('remote mode', () => {
  it('a server that is down: exit 3, one line', async () => {
    const down = await fakeServer(() => undefined);
    await down.close();
    expectOneLine(await cli(['--base-url', down.url, 'quote', 'list']), 3, /^shipper: cannot reach http:\/\/127\.0\.0\.1:\d+: connection refused; is the server running\?\n$/);
  });

  it('a server that is too slow: exit 3, one line', async () => {
    const slow = await fakeServer(() => undefined);
    try {
      expectOneLine(
        await cli(['--base-url', slow.url, 'quote', 'list'], { SHIPPER_TIMEOUT_MS: '300' }),
        3,
        /^shipper: http:\/\/127\.0\.0\.1:\d+ did not answer GET \/v1\/shipper\/quote within 0\.3 s/,
      );
    } finally {
      await slow.close();
    }
  });

  it('a server that answers garbage: exit 3, one line', async () => {
    const garbage = await fakeServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>It works!</html>');
    });
    try {
      expectOneLine(await cli(['--base-url', garbage.url, 'quote', 'get', 'qt_01JD3Y7T9Q2W5E8R1T4Y7U0I3Z']), 3, /with something that is not JSON/);
      // With --json the failure is a ProblemDetail on stdout too, like every other error.
      const json = await cli(['--base-url', garbage.url, '--json', 'quote', 'list']);
      expect(json.code).toBe(3);
      expect(json.stderr).toMatch(/not JSON/);
      expect(JSON.parse(json.stdout)).toMatchObject({ status: 502, title: 'Remote Failure', detail: expect.stringMatching(/not JSON/) });
    } finally {
      await garbage.close();
    }
  });

  it('a missing or wrong API key: exit 3 and what to pass', async () => {
    expectOneLine(
      await cli(['--base-url', server.url, 'quote', 'list']),
      3,
      /^shipper: http:\/\/127\.0\.0\.1:\d+ wants an API key \(HTTP 401\); pass --api-key, set SHIPPER_API_KEY/,
    );
    expectOneLine(await cli(['--base-url', server.url, '--api-key', 'wrong', 'quote', 'list']), 3, /refused the API key \(HTTP 401\); check --api-key/);
  });

  it('takes the key from the flag, SHIPPER_API_KEY or the profile in the config file', async () => {
    expect((await cli(['--base-url', server.url, '--api-key', KEY, 'quote', 'list', '--json'])).code).toBe(0);
    expect((await cli(['--base-url', server.url, 'quote', 'list', '--json'], { SHIPPER_API_KEY: KEY })).code).toBe(0);
    await mkdir(configDir, { recursive: true });
    await writeFile(join(configDir, 'config.json'), JSON.stringify({ mode: 'remote', profile: 'ci', profiles: { ci: { baseUrl: server.url, apiKey: KEY } } }));
    const fromConfig = await cli(['quote', 'list', '--json']);
    expect(fromConfig.code, fromConfig.stderr).toBe(0);
    expect(JSON.parse(fromConfig.stdout)).toHaveProperty('items');
    // --local wins over mode=remote in the config.
    const local = await cli(['--local', '--store', dirs[1]!.dir, 'quote', 'list', '--json']);
    expect(JSON.parse(local.stdout)).toEqual({ items: [], nextCursor: null });
    await writeFile(join(configDir, 'config.json'), '{}');
  });

  it('keeps the exit codes of ProblemDetails: 4 not found, 1 rejected, 3 for a server failure', async () => {
    const auth = ['--base-url', server.url, '--api-key', KEY];
    const missing = await cli([...auth, 'quote', 'get', 'qt_01JD3Y7T9Q2W5E8R1T4Y7U0I3Z']);
    // The server's request id follows the message, for its operator's log.
    expectOneLine(missing, 4, /^shipper: quote qt_01JD3Y7T9Q2W5E8R1T4Y7U0I3Z not found \(request [0-9a-f-]{36}\)\n$/);

    const rejected = await cli([...auth, '--json', 'quote', '--from', '60601', '--to', '10001', '-c', 'pallets=1,weight=0,dims=48x40x48,desc=Parts']);
    expect(rejected.code).toBe(1);
    expect(JSON.parse(rejected.stdout)).toMatchObject({ status: 400, title: 'Constraint Violation', violations: [{ field: 'orderComponents[0].poundsWeight' }] });

    // A damaged record on the server: a 500 there is a remote failure here (exit 3), not a local one (5).
    const id = 'qt_01JD3Y7T9Q2W5E8R1T4Y7V0H3Z';
    await mkdir(join(serverStore, 'quotes'), { recursive: true });
    await writeFile(join(serverStore, 'quotes', `${id}.json`), '{ damaged');
    const failed = await cli([...auth, 'quote', 'get', id]);
    expect(failed.code).toBe(3);
    // The server says that its store failed, not which file: the path is in its own log only.
    expect(failed.stderr).toMatch(/the service could not read or write its store/);
    expect(failed.stderr).not.toMatch(/\n\s+at /);
    expect(failed.stderr).not.toContain(serverStore);
    // Its log line comes through a pipe: it may arrive just after the answer.
    await vi.waitFor(() => expect(server.stderr()).toMatch(new RegExp(`${id}\\.json is damaged`)), { timeout: 5_000 });
  });

  it('names the server when its X12 settings are incomplete: a config set here changes nothing', async () => {
    const auth = ['--base-url', server.url, '--api-key', KEY];
    const booked = await cli([
      ...auth,
      '-q',
      'ship',
      '--from',
      '60608',
      '--to',
      '10001',
      '-c',
      'pallets=1,weight=500,dims=48x40x48,desc=Parts',
      '--shipper',
      withContact('name=Acme,address1=1 Main St,city=Chicago,state=IL,zip=60608,phone=312-555-0100'),
      '--consignee',
      withContact('name=Beta,address1=5 Broadway,city=New York,state=NY,zip=10001,phone=212-555-0142'),
    ]);
    expect(booked.code, booked.stderr).toBe(0);
    const id = booked.stdout.trim();
    expect((await cli([...auth, 'shipment', 'update', id, '--carrier', 'Old Dominion', '--scac', 'ODFL'])).code).toBe(0);
    const tender = await cli([...auth, 'tender', id, '--format', 'x12-204', '-o', '-']);
    expect(tender.code).toBe(1);
    expect(tender.stderr).toContain(`the X12 settings of the server ${server.url} are incomplete (x12.senderId:`);
    expect(tender.stderr).toContain('its operator sets them where shipper serve runs');
    // Nothing tells the client to change its own config: that changes nothing.
    expect(tender.stderr).not.toMatch(/set them: shipper config set/);
    // The server's own answer, what any HTTP client reads, says they are the server's.
    const answer = await fetch(`${server.url}/v1/shipper/shipment/${id}/tender`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ format: 'x12-211' }),
    });
    expect(answer.status).toBe(409);
    const problem = (await answer.json()) as { detail: string };
    expect(problem.detail).toMatch(/^the server's X12 settings are incomplete; the server's operator sets them where shipper serve runs/);
  });

  it('needs a base URL for a profile without one', async () => {
    const result = await cli(['--profile', 'acme', '--remote', 'quote', 'list']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/remote mode needs a base URL: profile "acme" has none/);
  });
});
