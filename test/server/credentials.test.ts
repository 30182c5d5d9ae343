/**
 * Issue 41 items 1 and 3 against a real `shipper serve`, on the file store and on PostgreSQL:
 * credentials made by `shipper credentials`, the token endpoint (right and wrong credentials,
 * malformed bodies, brute force answered 429), the checks of /v1/shipper/** (missing, malformed,
 * forged, wrong-scope and expired tokens, missing, unknown and revoked keys), the open sandbox of
 * a store without credentials, and `serve --api-key` as one sandbox company's key. Every output
 * of the runs is searched for the secrets they made.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inProcess.js';
import { testDatabase } from '../helpers/postgres.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';

const T0 = '2026-11-23T15:00:00Z';
const at = (hours: number) => new Date(Date.parse(T0) + hours * 3_600_000).toISOString();

interface Made {
  clientId: string;
  clientSecret: string;
  apiKey: string;
  keyId: string;
}

/** Everything the runs printed or logged, searched for secrets at the end. */
const outputs: string[] = [];
const cleanups: Array<() => Promise<void>> = [];
const servers: ServeProcess[] = [];

/** Stops it and waits for the end of its stderr (the exit comes before the last of the pipe is read). */
async function stopped(server: ServeProcess): Promise<void> {
  await server.stop();
  const stderr = server.child.stderr!;
  if (!stderr.closed) await new Promise((resolve) => stderr.once('close', resolve));
}

afterAll(async () => {
  await Promise.all(servers.map(stopped));
  for (const cleanup of cleanups) await cleanup();
});

async function cli(store: string, args: string[], env: Record<string, string> = {}) {
  const result = await runInProcess(['--store', store, ...args], { env: { SHIPPER_NOW: T0, ...env } });
  return result;
}

async function serve(store: string, options: { now?: string; globalArgs?: string[]; serveArgs?: string[] } = {}): Promise<ServeProcess> {
  const { dir, cleanup } = await tempDir('shipper-creds-serve-');
  cleanups.push(cleanup);
  const server = await startServe({ store, env: { SHIPPER_CONFIG_DIR: dir, SHIPPER_NOW: options.now ?? T0 }, globalArgs: options.globalArgs, serveArgs: options.serveArgs });
  servers.push(server);
  return server;
}

async function token(server: ServeProcess, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/v1/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, retryAfter: response.headers.get('retry-after'), json: JSON.parse(text) as Record<string, unknown> };
}

async function list(server: ServeProcess, headers: Record<string, string>) {
  const response = await fetch(`${server.url}/v1/shipper/shipment`, { headers });
  const json = (await response.json()) as Record<string, unknown>;
  return { status: response.status, json };
}

async function makeCredentials(store: string, company = 'acme'): Promise<Made> {
  const client = await cli(store, ['credentials', 'add-client', `${company} integration`, '--json']);
  expect(client.code, client.stderr).toBe(0);
  const key = await cli(store, ['credentials', 'add-key', company, '--json']);
  expect(key.code, key.stderr).toBe(0);
  const { clientId, clientSecret } = JSON.parse(client.stdout) as Made;
  const { apiKey, id } = JSON.parse(key.stdout) as { apiKey: string; id: string };
  return { clientId, clientSecret, apiKey, keyId: id };
}

const STORES: Array<{ name: string; open: () => Promise<{ store: string; signingSecret: () => Promise<string> }> }> = [
  {
    name: 'file store',
    open: async () => {
      const { dir, cleanup } = await tempDir('shipper-creds-store-');
      cleanups.push(cleanup);
      return { store: dir, signingSecret: async () => (JSON.parse(readFileSync(join(dir, 'credentials', '.signing-key.json'), 'utf8')) as { secret: string }).secret };
    },
  },
  {
    name: 'PostgreSQL',
    open: async () => {
      const url = await testDatabase();
      const migrated = await runInProcess(['--store', url, 'db', 'migrate']);
      expect(migrated.code, migrated.stderr).toBe(0);
      return {
        store: url,
        signingSecret: async () => {
          const sql = postgres(url, { max: 1, onnotice: () => undefined });
          try {
            const [row] = await sql<Array<{ secret: string }>>`select secret from auth_signing_key`;
            return row!.secret;
          } finally {
            await sql.end();
          }
        },
      };
    },
  },
];

describe.each(STORES)('credentials on serve: $name', ({ open }) => {
  let store: string;
  let signingSecret: () => Promise<string>;
  let made: Made;
  let server: ServeProcess;
  let accessToken: string;

  beforeAll(async () => {
    ({ store, signingSecret } = await open());
    made = await makeCredentials(store);
    server = await serve(store);
    expect(JSON.parse(server.stdout())).toMatchObject({ apiKeyRequired: true, openSandbox: false });
  });

  afterAll(async () => {
    // Stopped first: the log is flushed before the process exits.
    await Promise.all(servers.map(stopped));
    outputs.push(...servers.map((one) => one.stderr()));
    // Each request is attributable to its key: the log names the key's id and company, never the key.
    expect(server.stderr()).toMatch(new RegExp(`"GET /v1/shipper/shipment" 200 .* key=${made.keyId} company=acme`));
    const secrets = [made.clientSecret, made.apiKey, accessToken];
    for (const text of outputs) for (const secret of secrets) if (secret) expect(text).not.toContain(secret);
  });

  it('lists clients and keys without a secret; stored as hashes only', async () => {
    const listed = await cli(store, ['credentials', 'list', '--json']);
    outputs.push(listed.stdout, listed.stderr);
    expect(listed.code).toBe(0);
    const { credentials } = JSON.parse(listed.stdout) as { credentials: Array<Record<string, unknown>> };
    expect(credentials.map((record) => record.id).sort()).toEqual([made.clientId, made.keyId].sort());
    expect(credentials.find((record) => record.id === made.keyId)).toMatchObject({ kind: 'key', companyId: 'acme', live: false, hint: `****${made.apiKey.slice(-4)}` });
    const table = await cli(store, ['credentials', 'list']);
    outputs.push(table.stdout, table.stderr);
    expect(table.stdout).toContain(made.clientId);
    expect(made.apiKey).toMatch(/^oway_sk_test_/);
  });

  it('answers a token for the right credentials: a JWT for 24 hours with scope shipper', async () => {
    const answer = await token(server, { clientId: made.clientId, clientSecret: made.clientSecret });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ tokenType: 'Bearer', expiresIn: 86400 });
    accessToken = answer.json.accessToken as string;
    const payload = JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString('utf8')) as { scope: string; exp: number; iat: number; sub: string };
    expect(payload.scope.split(' ')).toContain('shipper');
    expect(payload.sub).toBe(made.clientId);
    expect(payload.exp - payload.iat).toBe(86400);
    expect(payload.iat).toBe(Date.parse(T0) / 1000);
  });

  it('refuses wrong credentials with 401 and malformed requests with 400, in the published body', async () => {
    const wrong = await token(server, { clientId: made.clientId, clientSecret: `${made.clientSecret.slice(0, -1)}x` }, { 'x-forwarded-for': '198.51.100.1' });
    expect(wrong).toMatchObject({ status: 401, json: { error: 'invalid_client' } });
    expect(typeof wrong.json.errorDescription).toBe('string');
    const unknown = await token(server, { clientId: 'cl_01M98ETM4ZKNFB88Z44X5670SF', clientSecret: made.clientSecret });
    expect(unknown.status).toBe(401);
    for (const body of ['{', '[]', '{"clientId": "x"}', JSON.stringify({ clientId: 'x'.repeat(10_000), clientSecret: 'y' }), '{"clientId": 1, "clientSecret": 2}']) {
      const answer = await token(server, body);
      expect(answer.status, body.slice(0, 40)).toBe(400);
      expect(answer.json).toMatchObject({ error: 'invalid_request' });
    }
  });

  it('lets a valid token with a known key through, attributed to its company', async () => {
    const answer = await list(server, { authorization: `Bearer ${accessToken}`, 'x-oway-api-key': made.apiKey });
    expect(answer.status).toBe(200);
  });

  it('names the key and its company in the JSON request log, never the key or the token', async () => {
    const json = await serve(store, { serveArgs: ['--log', 'json'] });
    const answer = await list(json, { authorization: `Bearer ${accessToken}`, 'x-oway-api-key': made.apiKey });
    expect(answer.status).toBe(200);
    await stopped(json);
    const requests = json
      .stderr()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.event === 'request');
    expect(requests).toContainEqual(expect.objectContaining({ path: '/v1/shipper/shipment', status: 200, companyId: 'acme', keyId: made.keyId }));
    expect(json.stderr()).not.toContain(made.apiKey);
    expect(json.stderr()).not.toContain(accessToken);
  });

  it('refuses missing, malformed, forged and wrong-scope tokens, and missing or unknown keys', async () => {
    const key = { 'x-oway-api-key': made.apiKey };
    expect((await list(server, key)).status).toBe(401);
    expect((await list(server, { ...key, authorization: 'Bearer not.a.token' })).status).toBe(401);
    expect((await list(server, { ...key, authorization: 'Basic abc' })).status).toBe(401);
    const now = Date.parse(T0) / 1000;
    const forged = await new SignJWT({ scope: 'shipper dev' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('shipper serve')
      .setSubject(made.clientId)
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(new TextEncoder().encode('a-secret-that-is-not-the-stores-one-000000000000'));
    expect((await list(server, { ...key, authorization: `Bearer ${forged}` })).status).toBe(401);
    const secret = new TextEncoder().encode(await signingSecret());
    const wrongScope = await new SignJWT({ scope: 'dev' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('shipper serve')
      .setSubject(made.clientId)
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(secret);
    const scoped = await list(server, { ...key, authorization: `Bearer ${wrongScope}` });
    expect(scoped.status).toBe(403);
    expect(scoped.json.detail).toContain('scope');
    const bearer = { authorization: `Bearer ${accessToken}` };
    expect((await list(server, bearer)).status).toBe(403);
    expect((await list(server, { ...bearer, 'x-oway-api-key': `${made.apiKey.slice(0, -1)}Z` })).status).toBe(403);
    expect((await list(server, { ...bearer, 'x-oway-api-key': 'oway_sk_test_' })).status).toBe(403);
    expect((await list(server, { ...bearer, 'x-oway-api-key': 'x'.repeat(5000) })).status).toBe(403);
  });

  it('refuses an expired token (clock 25 hours on) and accepts it on its last hour, on another instance of the same store', async () => {
    const later = await serve(store, { now: at(23) });
    const headers = { authorization: `Bearer ${accessToken}`, 'x-oway-api-key': made.apiKey };
    expect((await list(later, headers)).status).toBe(200);
    const expired = await serve(store, { now: at(25) });
    const refused = await list(expired, headers);
    expect(refused.status).toBe(401);
    outputs.push(later.stderr(), expired.stderr());
  });

  it('answers 429 with Retry-After after 5 failures a minute from one client id and address, and counts per client id', async () => {
    const bad = { clientId: made.clientId, clientSecret: 'cs_wrong' };
    // One failure above, from 198.51.100.1 (forwarded, but this server trusts no proxy: the socket's address).
    const trusted = await serve(store, { serveArgs: ['--trust-proxy'] });
    const from = (address: string) => ({ 'x-forwarded-for': address });
    for (let attempt = 1; attempt <= 5; attempt++) expect((await token(trusted, bad, from('203.0.113.7'))).status).toBe(401);
    const blocked = await token(trusted, { clientId: made.clientId, clientSecret: made.clientSecret }, from('203.0.113.7'));
    expect(blocked.status).toBe(429);
    expect(Number(blocked.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(blocked.retryAfter)).toBeLessThanOrEqual(60);
    expect(blocked.json).toMatchObject({ error: 'too_many_requests' });
    // Another address, and the same address for another client id, are not blocked.
    expect((await token(trusted, { clientId: made.clientId, clientSecret: made.clientSecret }, from('203.0.113.8'))).status).toBe(200);
    // The counters are in the store: another instance on it blocks the same address too.
    const second = await serve(store, { serveArgs: ['--trust-proxy'] });
    expect((await token(second, { clientId: made.clientId, clientSecret: made.clientSecret }, from('203.0.113.7'))).status).toBe(429);
    outputs.push(trusted.stderr(), second.stderr());
  });

  it('refuses a revoked key and the tokens of a revoked client at once', async () => {
    const other = await makeCredentials(store, 'globex');
    const fresh = await token(server, { clientId: other.clientId, clientSecret: other.clientSecret });
    const headers = { authorization: `Bearer ${fresh.json.accessToken as string}`, 'x-oway-api-key': other.apiKey };
    expect((await list(server, headers)).status).toBe(200);
    const revokeKey = await cli(store, ['credentials', 'revoke', other.keyId]);
    outputs.push(revokeKey.stdout, revokeKey.stderr);
    expect(revokeKey.code).toBe(0);
    expect((await list(server, headers)).status).toBe(403);
    const revokeClient = await cli(store, ['credentials', 'revoke', other.clientId, '--json']);
    expect(JSON.parse(revokeClient.stdout)).toMatchObject({ id: other.clientId, alreadyRevoked: false });
    expect((await list(server, { ...headers, 'x-oway-api-key': made.apiKey })).status).toBe(401);
    expect((await token(server, { clientId: other.clientId, clientSecret: other.clientSecret })).status).toBe(401);
    const again = await cli(store, ['credentials', 'revoke', other.clientId, '--json']);
    expect(JSON.parse(again.stdout)).toMatchObject({ alreadyRevoked: true });
    const missing = await cli(store, ['credentials', 'revoke', 'key_nothing']);
    expect(missing.code).toBe(4);
    for (const result of [revokeClient, again, missing]) outputs.push(result.stdout, result.stderr);
    for (const text of outputs) for (const secret of [other.clientSecret, other.apiKey]) expect(text).not.toContain(secret);
  });

  it('keeps serve --api-key KEY working as the default company key beside the credentials', async () => {
    const legacy = await serve(store, { globalArgs: ['--api-key', 'legacy-sandbox-key-0001'] });
    expect((await list(legacy, { authorization: 'Bearer legacy-sandbox-key-0001' })).status).toBe(200);
    expect((await list(legacy, { authorization: 'Bearer legacy-sandbox-key-0002' })).status).toBe(401);
    expect((await list(legacy, { authorization: `Bearer ${accessToken}`, 'x-oway-api-key': made.apiKey })).status).toBe(200);
    outputs.push(legacy.stderr());
    expect(legacy.stderr()).not.toContain('legacy-sandbox-key-0001');
  });
});

describe('an open sandbox: a store without clients or keys', () => {
  it('grants any token request, serves calls without credentials, and says so at start-up', async () => {
    const { dir, cleanup } = await tempDir('shipper-creds-open-');
    cleanups.push(cleanup);
    const server = await serve(dir);
    expect(JSON.parse(server.stdout())).toMatchObject({ apiKeyRequired: false, openSandbox: true });
    const answer = await token(server, { clientId: 'anyone', clientSecret: 'anything' });
    expect(answer.status).toBe(200);
    expect((await list(server, {})).status).toBe(200);
    expect((await list(server, { authorization: `Bearer ${answer.json.accessToken as string}` })).status).toBe(200);
    expect((await token(server, '{"clientId": ')).status).toBe(400);
    const listed = await cli(dir, ['credentials', 'list']);
    expect(listed.stdout + listed.stderr).toContain('open sandbox');
    // Once a client exists the sandbox is closed, without a restart.
    await makeCredentials(dir);
    expect((await list(server, {})).status).toBe(401);
    // Its start-up notice, in the log (flushed by the time it has stopped).
    await stopped(server);
    expect(server.stderr()).toContain('open sandbox');
  });

  it('refuses an absurd company or client name', async () => {
    const { dir, cleanup } = await tempDir('shipper-creds-names-');
    cleanups.push(cleanup);
    for (const args of [
      ['add-key', '../etc'],
      ['add-key', 'a'.repeat(65)],
      ['add-client', '\u0007bell'],
      ['add-client', ' '],
      ['add-client', 'n'.repeat(101)],
    ]) {
      const result = await runInProcess(['--store', dir, 'credentials', ...args]);
      expect(result.code, args.join(' ')).toBe(2);
    }
    const edge = await runInProcess(['--store', dir, 'credentials', 'add-key', 'a'.repeat(64), '--live', '--json']);
    expect(edge.code).toBe(0);
    expect((JSON.parse(edge.stdout) as { apiKey: string }).apiKey).toMatch(/^oway_sk_live_/);
  });
});
