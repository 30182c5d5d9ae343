/**
 * Security probes against the built `shipper serve` (a real process): the API key is required
 * when set, path traversal in ids and template names reaches nothing, oversized and deeply
 * nested bodies are refused early, and no answer or access-log line ever carries the key, a
 * server path or a stack trace. Plus the config file: owner-only whatever the umask.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdir, readFile, stat } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalApi } from '../../src/api/local.js';
import { BIN, ISOLATED_SETTINGS, ROOT, tempDir } from '../helpers/cli.js';
import { PALLETS, PUBLISHED_PICKUP, PUBLISHED_NYC } from '../helpers/fixtures.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';

const KEY = 'sk_test_Zr8pQ2xW9vLm4NcT7bYh';
let work: { dir: string; cleanup: () => Promise<void> };
let store: string;
let serve: ServeProcess;
let shipmentId: string;
/** Every answer of every probe, for the checks at the end. */
const answers: Array<{ probe: string; status: number; headers: string; body: string }> = [];

beforeAll(async () => {
  work = await tempDir('shipper-security-');
  store = join(work.dir, 'store');
  const outcome = (
    await new LocalApi({ storeDir: store }).createShipments({
      items: [{ request: { refNumber: 'SEC-1', pickupAddress: PUBLISHED_PICKUP, deliveryAddress: PUBLISHED_NYC, orderComponents: [PALLETS] } }],
    })
  ).data.items[0]!;
  shipmentId = outcome.ok ? outcome.data.id : expect.fail('booking failed');
  serve = await startServe({ store, globalArgs: ['--api-key', KEY] });
});
afterAll(async () => {
  await serve.stop();
  await work.cleanup();
});

/** A raw HTTP request: the path goes out exactly as written (no URL normalisation of `..`). */
function raw(
  method: string,
  path: string,
  options: { headers?: Record<string, string | number>; body?: string | Buffer; auth?: boolean } = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const { port, hostname } = new URL(serve.url);
  const headers = { ...(options.auth === false ? {} : { authorization: `Bearer ${KEY}` }), ...options.headers };
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, method, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        const answer = { status: res.statusCode!, headers: res.headers as Record<string, unknown>, body };
        answers.push({ probe: `${method} ${path.slice(0, 120)}`, status: answer.status, headers: JSON.stringify(res.headers), body });
        resolve(answer);
      });
    });
    // A server that answers 413 early may close before the whole body is sent: that is fine.
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)));
    if (options.body !== undefined) req.end(options.body);
    else req.end();
  });
}

const json = { 'content-type': 'application/json' };
const quoteBody = JSON.stringify({ pickupAddress: PUBLISHED_PICKUP, deliveryAddress: PUBLISHED_NYC, orderComponents: [PALLETS] });

describe('the API key', () => {
  const routes: Array<[string, string, string?]> = [
    ['GET', '/v1/shipper/quote'],
    ['POST', '/v1/shipper/quote', quoteBody],
    ['GET', '/v1/shipper/shipment'],
    ['GET', '/v1/shipper/shipment/SHIPMENT'],
    ['GET', '/v1/shipper/shipment/SHIPMENT/bol'],
    ['POST', '/v1/shipper/shipment', '{}'],
    ['GET', '/v1/shipper/bol-templates'],
    ['POST', '/v1/shipper/transit', '{}'],
    ['POST', '/v1/shipper/shipment-batch', '{"items":[]}'],
    ['POST', '/v1/shipper/shipment-preview', '{"items":[]}'],
  ];
  const wrong: Array<[string, Record<string, string>]> = [
    ['no Authorization', {}],
    ['a wrong key', { authorization: 'Bearer sk_test_wrong' }],
    ['the key with one character changed', { authorization: `Bearer ${KEY.slice(0, -1)}X` }],
    ['the key in other case', { authorization: `Bearer ${KEY.toUpperCase()}` }],
    ['the key as a prefix', { authorization: `Bearer ${KEY}${KEY}` }],
    ['Basic instead of Bearer', { authorization: `Basic ${Buffer.from(`x:${KEY}`).toString('base64')}` }],
    ['an empty Bearer', { authorization: 'Bearer ' }],
    ['the key in another header', { 'x-api-key': KEY }],
  ];

  it.each(routes)('%s %s: 401 without the right key, whatever is sent instead; with it, not 401', async (method, template, body) => {
    const path = template.replace('SHIPMENT', shipmentId);
    for (const [, headers] of wrong) {
      const answer = await raw(method, path, { auth: false, headers: { ...json, ...headers }, ...(body ? { body } : {}) });
      expect(answer.status).toBe(401);
      expect(answer.headers['www-authenticate']).toBe('Bearer realm="shipper"');
    }
    const query = await raw(method, `${path}?api_key=${KEY}`, { auth: false, headers: json, ...(body ? { body } : {}) });
    expect(query.status).toBe(401);
    const right = await raw(method, path, { headers: json, ...(body ? { body } : {}) });
    expect(right.status).not.toBe(401);
    expect(right.status).toBeLessThan(500);
  });

  it('the OpenAPI document stays public', async () => {
    expect((await raw('GET', '/api-docs/shipper-v1', { auth: false })).status).toBe(200);
  });
});

describe('path traversal', () => {
  const ids = [
    '..%2F..%2Fcounters%2Forders',
    '..%2f..%2f..%2fetc%2fpasswd',
    '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    '..%252F..%252Fetc%252Fpasswd',
    '..%5C..%5Cwindows%5Cwin.ini',
    '..',
    '.',
    '%2e%2e',
    'sh_x%00.json',
    '%00',
    'sh_01M8..%2F..%2Fquotes',
    '%E2%80%AE%1B%5B2J',
    'a'.repeat(4000),
  ];

  it.each(ids.map((id) => [id.length > 40 ? `of ${id.length} characters` : id, id]))('an id %s is a 404, never a file outside the collection', async (_label, id) => {
    for (const path of [`/v1/shipper/quote/${id}`, `/v1/shipper/shipment/${id}`, `/v1/shipper/shipment/${id}/bol`]) {
      const answer = await raw('GET', path);
      expect(answer.status, path).toBe(404);
      expect(answer.body).not.toMatch(/root:|\[extensions\]|"last":/);
    }
  });

  it('raw `..` segments never climb out of the API', async () => {
    for (const path of [
      '/v1/shipper/quote/../../../etc/passwd',
      '/v1/shipper/../../counters/orders.json',
      '/../../etc/passwd',
      '//etc/passwd',
      '/v1/shipper/quote/..%2F..%2F..%2Fetc%2Fpasswd',
    ]) {
      const answer = await raw('GET', path);
      expect(answer.status, path).toBe(404);
      expect(answer.body).not.toMatch(/root:|"last":/);
    }
    // Resolved like a URL: it stays inside the API (the quote list).
    const inside = await raw('GET', '/v1/shipper/shipment/../quote');
    expect(inside.status).toBe(200);
    expect(Object.keys(JSON.parse(inside.body))).toEqual(['items', 'nextCursor']);
  });

  const templates = [
    '../../etc/passwd',
    '..%2F..%2Fetc%2Fpasswd',
    '%2e%2e%2fstandard',
    'standard%00',
    'standard/../standard',
    '/etc/passwd',
    '..\\..\\standard',
    'standard.json',
    'a'.repeat(65),
    '%1B%5B2J',
  ];
  it.each(templates)('a BOL template %s is a 400 on template, never a file read', async (template) => {
    const answer = await raw('GET', `/v1/shipper/shipment/${shipmentId}/bol?template=${template}`);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).violations).toEqual([{ field: 'template', reason: 'template names are letters, digits, - and _ (at most 64)' }]);
  });

  it('a template name that fits the pattern but names no template is a clear 4xx', async () => {
    for (const template of ['CON', 'nope', 'a'.repeat(64)]) {
      const answer = await raw('GET', `/v1/shipper/shipment/${shipmentId}/bol?template=${template}`);
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
    }
  });
});

describe('bodies', () => {
  it('larger than the limit: 413, declared or streamed', async () => {
    const declared = await raw('POST', '/v1/shipper/quote', { headers: { ...json, 'content-length': 5 * 1024 * 1024 }, body: 'x'.repeat(1000) });
    expect(declared.status).toBe(413);
    const streamed = await raw('POST', '/v1/shipper/quote', { headers: { ...json, 'transfer-encoding': 'chunked' }, body: `{"a":"${'x'.repeat(2 * 1024 * 1024)}"}` });
    expect(streamed.status).toBe(413);
  });

  it('deeply nested: 400 past 32 levels, also at a million levels', async () => {
    const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const at32 = await raw('POST', '/v1/shipper/quote', { headers: json, body: nested(32) });
    expect(at32.status).toBe(400);
    expect(JSON.parse(at32.body).title).toBe('Constraint Violation');
    for (const body of [nested(33), nested(100_000), `${'['.repeat(500_000)}${']'.repeat(500_000)}`]) {
      const answer = await raw('POST', '/v1/shipper/quote', { headers: json, body });
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body).detail).toBe('the request body nests deeper than 32 levels');
    }
  });

  it('hostile shapes are 4xx, never 500', async () => {
    const bodies = [
      '',
      'null',
      '[]',
      '"x"',
      '{"__proto__": {"polluted": true}, "pickupAddress": {"zipCode": "60601"}}',
      '{"constructor": {"prototype": {"polluted": true}}}',
      JSON.stringify({ pickupAddress: { zipCode: '60601' }, deliveryAddress: { zipCode: '10001' }, orderComponents: Array(20_000).fill({ palletCount: 'x' }) }),
      '{"pickupAddress": {"zipCode": 1e999}}',
      Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]).toString('latin1'),
      `{"refNumber": "\u001b[2J\u001b]0;x\u0007"}`,
    ];
    for (const body of bodies) {
      const answer = await raw('POST', '/v1/shipper/quote', { headers: json, body });
      expect(answer.status, body.slice(0, 60)).toBeGreaterThanOrEqual(400);
      expect(answer.status, body.slice(0, 60)).toBeLessThan(500);
    }
    expect((await raw('POST', '/v1/shipper/quote', { headers: { 'content-type': 'text/plain' }, body: quoteBody })).status).toBe(415);
    expect((await raw('POST', '/v1/shipper/quote', { headers: { ...json, 'idempotency-key': 'k'.repeat(256) }, body: quoteBody })).status).toBe(400);
    // The server still answers normally after all of it.
    expect((await raw('POST', '/v1/shipper/quote', { headers: json, body: quoteBody })).status).toBe(200);
  });
});

describe('what the server lets out', () => {
  it('no answer and no access-log line holds the key, a server path or a stack trace; no probe made a 500', () => {
    expect(answers.length).toBeGreaterThan(150);
    const secrets = [KEY, store, work.dir, tmpdir(), ROOT, 'node_modules', '/home/', '/root/'];
    for (const answer of answers) {
      expect(answer.status, answer.probe).toBeLessThan(500);
      for (const secret of secrets) {
        expect(answer.body.includes(secret) || answer.headers.includes(secret), `${answer.probe} shows ${secret}`).toBe(false);
      }
      expect(answer.body).not.toMatch(/\n\s+at |Error: /);
    }
    const log = serve.stderr();
    expect(log.split('\n').filter((line) => line.includes('"GET ') || line.includes('"POST ')).length).toBeGreaterThan(150);
    for (const secret of [KEY, KEY.slice(-8)]) expect(log).not.toContain(secret);
    expect(log).toContain('api_key=***');
    expect(log).not.toMatch(/\u001b/);
  });
});

describe('the config file', () => {
  it('is owner-only (0600) whatever the umask, also when an older file was world-readable', async () => {
    const configDir = join(work.dir, 'config');
    await mkdir(configDir);
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...ISOLATED_SETTINGS, SHIPPER_CONFIG_DIR: configDir };
    for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
    const setKey = async (value: string) => {
      // umask 000: a file created without an explicit mode would be rw-rw-rw-.
      const child = spawn('sh', ['-c', `umask 000; exec "${process.execPath}" "${BIN}" config set profiles.sandbox.apiKey -`], { env, cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
      child.stdin.end(value);
      const [code] = (await once(child, 'exit')) as [number];
      expect(code).toBe(0);
    };
    await setKey(KEY);
    const pathResult = spawn(process.execPath, [BIN, 'config', 'path'], { env });
    let file = '';
    pathResult.stdout.setEncoding('utf8').on('data', (chunk: string) => (file += chunk));
    await once(pathResult, 'exit');
    file = file.trim();
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    await chmod(file, 0o644);
    await setKey(`${KEY}2`);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8')).profiles.sandbox.apiKey).toBe(`${KEY}2`);
  });
});
