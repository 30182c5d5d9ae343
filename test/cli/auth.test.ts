/**
 * Issue 41 item 4: the CLI as a client of `shipper serve`'s two-layer auth. Login from flags and
 * standard input, from the official client's OWAY_* variables and at a terminal prompt; one token
 * request across invocations (and across processes started together); the refresh near expiry
 * and on a 401; status, logout and precedence; no secret in any output of the runs.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveSettings } from '../../src/config/settings.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inProcess.js';
import { spawnCliInPty } from '../helpers/pty.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';

const T0 = '2026-11-23T15:00:00Z';
const at = (minutes: number) => new Date(Date.parse(T0) + minutes * 60_000).toISOString();

const outputs: string[] = [];
const cleanups: Array<() => Promise<void>> = [];
let store: string;
let server: ServeProcess;
let clientId: string;
let clientSecret: string;
let apiKey: string;

/** A proxy in front of serve that counts the token requests passing through it (the CLI's base URL is the proxy's). */
let proxy: Server;
let proxyUrl: string;
let tokenCount = 0;
const tokenRequests = () => tokenCount;

function startProxy(target: string): Promise<void> {
  proxy = createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/v1/auth/token') tokenCount++;
    const upstream = request(`${target}${req.url ?? '/'}`, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  return new Promise((resolve) =>
    proxy.listen(0, '127.0.0.1', () => {
      proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      resolve();
    }),
  );
}

async function configDir(): Promise<string> {
  const { dir, cleanup } = await tempDir('shipper-auth-config-');
  cleanups.push(cleanup);
  return dir;
}

async function run(args: string[], env: Record<string, string>, input?: string) {
  const result = await runInProcess(args, { env: { SHIPPER_NOW: T0, ...env }, input });
  outputs.push(result.stdout, result.stderr);
  return result;
}

beforeAll(async () => {
  const { dir, cleanup } = await tempDir('shipper-auth-store-');
  cleanups.push(cleanup);
  store = dir;
  const client = await runInProcess(['--store', store, 'credentials', 'add-client', 'CLI tests', '--json']);
  const key = await runInProcess(['--store', store, 'credentials', 'add-key', 'acme', '--json']);
  ({ clientId, clientSecret } = JSON.parse(client.stdout) as { clientId: string; clientSecret: string });
  ({ apiKey } = JSON.parse(key.stdout) as { apiKey: string });
  server = await startServe({ store, env: { SHIPPER_NOW: T0, SHIPPER_CONFIG_DIR: await configDir() } });
  await startProxy(server.url);
});

afterAll(async () => {
  await new Promise((resolve) => proxy.close(resolve));
  await server.stop();
  outputs.push(server.stderr());
  for (const cleanup of cleanups) await cleanup();
});

describe('shipper auth', () => {
  it('logs in from flags and standard input, saves the profile 0600, and reuses one token across invocations', async () => {
    const dir = await configDir();
    const env = { SHIPPER_CONFIG_DIR: dir };
    const before = tokenRequests();
    const login = await run(
      ['--profile', 'acme', '--base-url', proxyUrl, 'auth', 'login', '--client-id', clientId, '--client-secret-stdin', '--api-key-stdin', '--json'],
      env,
      `${clientSecret}\n${apiKey}\n`,
    );
    expect(login.code, login.stderr).toBe(0);
    expect(JSON.parse(login.stdout)).toMatchObject({ profile: 'acme', clientId, clientSecret: `****${clientSecret.slice(-4)}`, apiKey: `****${apiKey.slice(-4)}` });
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'tokens.json')).mode & 0o777).toBe(0o600);
    for (let round = 0; round < 3; round++) {
      const listed = await run(['--profile', 'acme', '--remote', 'shipment', 'list', '--json'], env);
      expect(listed.code, listed.stderr).toBe(0);
    }
    expect(tokenRequests() - before).toBe(1);

    const status = await run(['--profile', 'acme', 'auth', 'status', '--json'], env);
    // SHIPPER_NOW starts the clock, which keeps running: the token expires 24 hours after that, give or take the run.
    expect(JSON.parse(status.stdout)).toMatchObject({ profile: 'acme', clientId, loggedIn: true, tokenExpiresAt: expect.stringMatching(/^2026-11-24T15:0/) });
    await run(['--profile', 'acme', 'auth', 'status'], env);
    const config = await run(['--profile', 'acme', 'config', 'list', '--json'], env);
    expect(JSON.parse(config.stdout).settings['profiles.acme.clientSecret']).toBe(`****${clientSecret.slice(-4)}`);
    await run(['--profile', 'acme', 'config', 'list'], env);
  });

  it('renews the token 5 minutes before it expires, not earlier', async () => {
    const dir = await configDir();
    const env = { SHIPPER_CONFIG_DIR: dir, OWAY_BASE_URL: proxyUrl, OWAY_M2M_CLIENT_ID: clientId, OWAY_M2M_CLIENT_SECRET: clientSecret, OWAY_API_KEY: apiKey };
    expect((await run(['shipment', 'list'], env)).code).toBe(0);
    const before = tokenRequests();
    expect((await run(['shipment', 'list'], { ...env, SHIPPER_NOW: at(24 * 60 - 6) })).code).toBe(0);
    expect(tokenRequests()).toBe(before);
    expect((await run(['shipment', 'list'], { ...env, SHIPPER_NOW: at(24 * 60 - 4) })).code).toBe(0);
    expect(tokenRequests()).toBe(before + 1);
  });

  it('works from the official client variables alone; processes started together buy one token', async () => {
    const dir = await configDir();
    const env = { SHIPPER_CONFIG_DIR: dir, SHIPPER_NOW: T0, OWAY_BASE_URL: proxyUrl, OWAY_M2M_CLIENT_ID: clientId, OWAY_M2M_CLIENT_SECRET: clientSecret, OWAY_API_KEY: apiKey };
    const before = tokenRequests();
    const results = await Promise.all([1, 2, 3].map(() => runCli(['shipment', 'list', '--json'], { env })));
    for (const result of results) {
      outputs.push(result.stdout, result.stderr);
      expect(result.code, result.stderr).toBe(0);
    }
    expect(tokenRequests() - before).toBe(1);
  });

  it('refreshes once on a 401 and tries again', async () => {
    const dir = await configDir();
    const env = { SHIPPER_CONFIG_DIR: dir, OWAY_BASE_URL: proxyUrl, OWAY_M2M_CLIENT_ID: clientId, OWAY_M2M_CLIENT_SECRET: clientSecret, OWAY_API_KEY: apiKey };
    expect((await run(['shipment', 'list'], env)).code).toBe(0);
    // The cached token no longer passes (as after a change of the server's signing key).
    const file = join(dir, 'tokens.json');
    const cache = JSON.parse(readFileSync(file, 'utf8')) as Record<string, { accessToken: string; expiresAt: number }>;
    for (const entry of Object.values(cache)) entry.accessToken = `${entry.accessToken.slice(0, -4)}AAAA`;
    writeFileSync(file, JSON.stringify(cache));
    const before = tokenRequests();
    const listed = await run(['shipment', 'list', '--json'], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(tokenRequests()).toBe(before + 1);
  });

  it('refuses a wrong secret without saving anything or showing the secret, and logs out', async () => {
    const dir = await configDir();
    const env = { SHIPPER_CONFIG_DIR: dir };
    const wrong = await run(
      ['--profile', 'acme', '--base-url', proxyUrl, 'auth', 'login', '--client-id', clientId, '--client-secret-stdin', '--api-key-stdin'],
      env,
      `cs_wrong-secret-0001\n${apiKey}\n`,
    );
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toContain('refused the client credentials');
    expect(wrong.stderr).not.toContain('cs_wrong-secret-0001');
    const none = await run(['--profile', 'acme', 'auth', 'status', '--json'], env);
    expect(JSON.parse(none.stdout)).toMatchObject({ loggedIn: false, clientId: null });
    const noSecret = await run(['--profile', 'acme', '--base-url', proxyUrl, 'auth', 'login', '--client-id', clientId], env);
    expect(noSecret.code).toBe(2);

    expect(
      (
        await run(
          ['--profile', 'acme', '--base-url', proxyUrl, 'auth', 'login', '--client-id', clientId, '--client-secret-stdin', '--api-key-stdin'],
          env,
          `${clientSecret}\n${apiKey}\n`,
        )
      ).code,
    ).toBe(0);
    const logout = await run(['--profile', 'acme', 'auth', 'logout', '--json'], env);
    expect(JSON.parse(logout.stdout)).toMatchObject({ profile: 'acme', removed: ['clientId', 'clientSecret', 'apiKey'] });
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).not.toContain(clientSecret);
    expect(readFileSync(join(dir, 'tokens.json'), 'utf8')).toBe('{}\n');
  });

  it('logs in at a terminal prompt, the secrets masked as typed', async () => {
    const dir = await configDir();
    const session = spawnCliInPty(['--profile', 'tty', '--base-url', proxyUrl, 'auth', 'login'], { cwd: dir, env: { SHIPPER_CONFIG_DIR: dir, SHIPPER_NOW: T0 } });
    try {
      await session.answer('Client id', clientId);
      await session.answer('Client secret', clientSecret);
      await session.answer('Company API key', apiKey);
      expect(await session.exitCode).toBe(0);
      outputs.push(session.output());
      expect(session.output()).toContain('Logged in');
    } finally {
      session.kill();
    }
    const status = await run(['--profile', 'tty', 'auth', 'status', '--json'], { SHIPPER_CONFIG_DIR: dir });
    expect(JSON.parse(status.stdout)).toMatchObject({ clientId, loggedIn: true });
  });

  it('takes flags, then SHIPPER_*, then OWAY_*, then the profile', () => {
    const config = { profiles: { production: { baseUrl: 'http://profile.example', apiKey: 'profile-key', clientId: 'profile-id', clientSecret: 'profile-secret' } } };
    const oway = { OWAY_BASE_URL: 'http://oway.example', OWAY_API_KEY: 'oway-key', OWAY_M2M_CLIENT_ID: 'oway-id', OWAY_M2M_CLIENT_SECRET: 'oway-secret' };
    const shipper = { SHIPPER_BASE_URL: 'http://shipper.example', SHIPPER_API_KEY: 'shipper-key', SHIPPER_CLIENT_ID: 'shipper-id', SHIPPER_CLIENT_SECRET: 'shipper-secret' };
    expect(resolveSettings({}, {}, config)).toMatchObject({
      mode: 'local',
      baseUrl: 'http://profile.example',
      apiKey: 'profile-key',
      clientId: 'profile-id',
      clientSecret: 'profile-secret',
    });
    expect(resolveSettings({}, oway, config)).toMatchObject({
      mode: 'remote',
      baseUrl: 'http://oway.example',
      apiKey: 'oway-key',
      clientId: 'oway-id',
      clientSecret: 'oway-secret',
    });
    expect(resolveSettings({}, { ...oway, ...shipper }, config)).toMatchObject({
      baseUrl: 'http://shipper.example',
      apiKey: 'shipper-key',
      clientId: 'shipper-id',
      clientSecret: 'shipper-secret',
    });
    expect(resolveSettings({ apiKey: 'flag-key', baseUrl: 'http://flag.example' }, { ...oway, ...shipper }, config)).toMatchObject({
      baseUrl: 'http://flag.example',
      apiKey: 'flag-key',
    });
  });
});

afterAll(() => {
  // Every output of the runs: no secret and no key in any of them.
  expect(outputs.length).toBeGreaterThan(20);
  for (const text of outputs) for (const secret of [clientSecret, apiKey]) expect(text).not.toContain(secret);
});
