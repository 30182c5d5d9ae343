/**
 * `shipper serve`'s HTTP layer in process (createShipperServer on a free loopback port, backed by
 * the local engine on a temporary store): every status code and header SPEC 3 and the issue name.
 */
import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalApi } from '../../src/api/local.js';
import type { ShipperApi } from '../../src/api/types.js';
import { quoteSchema } from '../../src/domain/schemas.js';
import { createShipperServer, type ShipperServer } from '../../src/server/server.js';
import { tempDir } from '../helpers/cli.js';
import { publishedStops } from '../helpers/fixtures.js';

const QUOTE = {
  ...publishedStops(),
  orderComponents: [{ palletCount: 2, poundsWeight: 1200, dimensions: { length: 48, width: 40, height: 48 } }],
};

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: () => Record<string, unknown>;
}

const agent = new Agent({ keepAliveTimeout: 1000 });

async function call(base: string, method: string, path: string, options: { headers?: Record<string, string>; body?: string | Readable } = {}): Promise<Answer> {
  const response = await request(`${base}${path}`, { dispatcher: agent, method: method as 'GET', headers: options.headers, body: options.body });
  const text = await response.body.text();
  return { status: response.statusCode, headers: response.headers, text, json: () => JSON.parse(text) as Record<string, unknown> };
}

const postJson = (base: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  call(base, 'POST', path, { headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

function expectProblem(answer: Answer, status: number, title?: string): Record<string, unknown> {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toBe('application/problem+json; charset=utf-8');
  const problem = answer.json();
  expect(problem).toMatchObject({ status, type: expect.stringMatching(/^urn:shipper:problem:/), title: title ?? expect.any(String), detail: expect.any(String) });
  expect(problem.instance).toEqual(expect.stringMatching(/^\//));
  expect(answer.text).not.toMatch(/\n\s+at |\.ts:\d|\.js:\d/);
  return problem;
}

/** Sends raw bytes and resolves with everything the server answered before closing. */
function rawRequest(base: string, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(base).port), '127.0.0.1', () => socket.write(bytes));
    let answer = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
    socket.on('close', () => resolve(answer)).on('error', reject);
  });
}

let cleanup: () => Promise<void>;
let service: ShipperServer;
let base: string;
const log: string[] = [];

async function start(api: ShipperApi, options: { apiKey?: string; bodyLimitBytes?: number; log?: string[] } = {}) {
  const server = createShipperServer({
    api,
    apiKey: options.apiKey,
    bodyLimitBytes: options.bodyLimitBytes,
    accessLog: options.log ? (line) => options.log!.push(line) : undefined,
  });
  const address = await server.listen(0, '127.0.0.1');
  return { server, base: `http://127.0.0.1:${address.port}` };
}

beforeAll(async () => {
  const temp = await tempDir();
  cleanup = temp.cleanup;
  ({ server: service, base } = await start(new LocalApi({ storeDir: temp.dir }), { bodyLimitBytes: 64 * 1024, log }));
});

afterAll(async () => {
  await service.close(100);
  await agent.close();
  await cleanup();
});

describe('quotes over HTTP', () => {
  it('POST answers 200, the Quote exactly as the body, and Location', async () => {
    const answer = await postJson(base, '/v1/shipper/quote', QUOTE);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    const body = answer.json();
    // Every field of the schema but the carrier's, which only a quote priced by a carrier agreement
    // has, and the key that asked for it (a server without credentials has none).
    expect(Object.keys(body).sort()).toEqual(
      Object.keys(quoteSchema.shape)
        .filter((key) => key !== 'carrier' && key !== 'createdBy')
        .sort(),
    );
    expect(answer.headers.location).toBe(`/v1/shipper/quote/${String(body.id)}`);
    expect(answer.headers.deprecation).toBeUndefined();

    const read = await call(base, 'GET', answer.headers.location as string);
    expect(read.status).toBe(200);
    expect(read.json()).toEqual(body);
  });

  it('marks palletDimensions with Deprecation (RFC 9745), a deprecation Link and the warning text', async () => {
    const answer = await postJson(base, '/v1/shipper/quote', {
      ...QUOTE,
      orderComponents: [{ palletCount: 1, poundsWeight: 500, palletDimensions: [48, 40, 48], description: 'Parts' }],
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.deprecation).toBe('@1767225600');
    expect(answer.headers.link).toBe('</api-docs/shipper-v1>; rel="deprecation"; type="application/json"');
    expect(decodeURIComponent(String(answer.headers['x-shipper-warning']))).toMatch(
      /^DEPRECATED_PALLET_DIMENSIONS palletDimensions is deprecated .* \(orderComponents\[0\]\.palletDimensions\)$/,
    );
    // The body carries the same warning whole, with its code and field.
    expect(answer.json().warnings).toContainEqual(expect.objectContaining({ code: 'DEPRECATED_PALLET_DIMENSIONS', field: 'orderComponents[0].palletDimensions' }));
  });

  it('answers HEAD like GET without a body', async () => {
    const { json } = await postJson(base, '/v1/shipper/quote', QUOTE);
    const head = await call(base, 'HEAD', `/v1/shipper/quote/${String(json().id)}`);
    expect(head.status).toBe(200);
    expect(Number(head.headers['content-length'])).toBeGreaterThan(100);
    expect(head.text).toBe('');
  });

  it('lists with limit and cursor, and refuses a bad limit with 400', async () => {
    const page = await call(base, 'GET', '/v1/shipper/quote?limit=1');
    expect(page.status).toBe(200);
    expect((page.json().items as unknown[]).length).toBe(1);
    for (const limit of ['0', 'abc', '501', '1.5']) {
      const problem = expectProblem(await call(base, 'GET', `/v1/shipper/quote?limit=${limit}`), 400, 'Constraint Violation');
      expect(problem.violations).toEqual([{ field: 'limit', reason: expect.any(String) }]);
    }
  });
});

describe('errors as application/problem+json', () => {
  it('400 with every violation and its path', async () => {
    const problem = expectProblem(
      await postJson(base, '/v1/shipper/quote', {
        ...QUOTE,
        orderComponents: [
          { palletCount: 1, poundsWeight: 1, dimensions: { length: 1, width: 1, height: 1 }, pieceCount: -1 },
          { palletCount: 1, dimensions: { length: 48 } },
        ],
      }),
      400,
      'Constraint Violation',
    );
    // Dimensions may be omitted (the published default), not given in part.
    expect((problem.violations as Array<{ field: string }>).map((violation) => violation.field)).toEqual(
      expect.arrayContaining(['orderComponents[0].pieceCount', 'orderComponents[1].poundsWeight', 'orderComponents[1].dimensions.width', 'orderComponents[1].dimensions.height']),
    );
  });

  it('400 for malformed, empty or absurdly nested JSON', async () => {
    const post = (body: string) => call(base, 'POST', '/v1/shipper/quote', { headers: { 'content-type': 'application/json' }, body });
    expect(expectProblem(await post('{"origin": '), 400, 'Malformed JSON').detail).toMatch(/not valid JSON/);
    expectProblem(await post(''), 400, 'Malformed JSON');
    expectProblem(await post(`${'['.repeat(40)}${']'.repeat(40)}`), 400, 'Malformed JSON');
  });

  it('415 when the body is not declared as JSON', async () => {
    const body = JSON.stringify(QUOTE);
    expectProblem(await call(base, 'POST', '/v1/shipper/quote', { body }), 415, 'Unsupported Media Type');
    expectProblem(await call(base, 'POST', '/v1/shipper/quote', { headers: { 'content-type': 'text/plain' }, body }), 415);
    expectProblem(await call(base, 'POST', '/v1/shipper/shipment', { headers: { 'content-type': 'application/json; charset=iso-8859-1' }, body }), 415);
    expect((await call(base, 'POST', '/v1/shipper/quote', { headers: { 'content-type': 'application/json; charset=UTF-8' }, body })).status).toBe(200);
  });

  it('413 past the body limit, announced or streamed', async () => {
    const big = JSON.stringify({ ...QUOTE, padding: 'x'.repeat(70 * 1024) });
    expectProblem(await call(base, 'POST', '/v1/shipper/quote', { headers: { 'content-type': 'application/json' }, body: big }), 413, 'Payload Too Large');
    // Chunked, without Content-Length: the limit is enforced while reading.
    const chunks = Readable.from(
      (function* () {
        for (let i = 0; i < 20; i++) yield Buffer.from(`${i === 0 ? '["' : ''}${'y'.repeat(8 * 1024)}`);
        yield Buffer.from('"]');
      })(),
    );
    expectProblem(await call(base, 'POST', '/v1/shipper/quote', { headers: { 'content-type': 'application/json' }, body: chunks }), 413);
    // The server is still fine afterwards.
    expect((await postJson(base, '/v1/shipper/quote', QUOTE)).status).toBe(200);
  });

  it('404 for unknown routes and ids, including ids that try to leave the store', async () => {
    expectProblem(await call(base, 'GET', '/v2/shipper/quote'), 404, 'Not Found');
    expectProblem(await call(base, 'GET', '/v1/shipper/quote/'), 404);
    expectProblem(await call(base, 'GET', '/v1/shipper/nothing'), 404);
    expectProblem(await call(base, 'GET', '/v1/shipper/quote/qt_01JD3Y7T9Q2W5E8R1T4Y7U0I3Z'), 404);
    expectProblem(await call(base, 'GET', '/v1/shipper/shipment/sh_01JD3Y7T9Q2W5E8R1T4Y7U0I3Z/bol'), 404);
    for (const id of ['..%2F..%2Fpackage', 'qt_x%00', 'qt_%2F..%2Fcounters%2Forders', '..%5C..%5Cquotes']) {
      const problem = expectProblem(await call(base, 'GET', `/v1/shipper/quote/${id}`), 404, 'Not Found');
      expect(String(problem.detail)).toMatch(/^quote ".*" not found$/);
    }
    // A request target the URL parser refuses is a 404 too, not a crash.
    const raw = await rawRequest(base, 'GET http://[ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(raw).toMatch(/^HTTP\/1\.1 404 Not Found\r\n/);
    // Dot segments (also %2e) are resolved like any URL's before routing: no route, no store.
    expect(expectProblem(await call(base, 'GET', '/v1/shipper/quote/%2e%2e'), 404).detail).toBe('no route GET /v1/shipper/');
  });

  it('405 with Allow for a known path and another method', async () => {
    const answer = await call(base, 'DELETE', '/v1/shipper/quote');
    expectProblem(answer, 405, 'Method Not Allowed');
    expect(answer.headers.allow).toBe('POST, GET, HEAD');
    expect((await call(base, 'POST', '/v1/shipper/quote/qt_01JD3Y7T9Q2W5E8R1T4Y7U0I3Z')).headers.allow).toBe('GET, HEAD');
  });

  it('400 quote_mismatch when a shipment does not match its quote (as published; 409 before)', async () => {
    const { json } = await postJson(base, '/v1/shipper/quote', QUOTE);
    const address = { name: 'A', address1: 'B', city: 'C', state: 'IL', zipCode: '60601', contactPerson: 'D', phoneNumber: '+13125550100' };
    const problem = expectProblem(
      await postJson(base, '/v1/shipper/shipment', {
        quoteId: json().id,
        pickupAddress: address,
        deliveryAddress: { ...address, state: 'NY', zipCode: '10001' },
        orderComponents: [{ palletCount: 3, poundsWeight: 1200, dimensions: { length: 48, width: 40, height: 48 } }],
      }),
      400,
      'Bad Request',
    );
    expect(problem.reason).toBe('quote_mismatch');
    expect(problem.violations).toEqual([{ field: 'orderComponents[0].palletCount', reason: expect.any(String) }]);
  });
});

describe('the published Address on POST quote and POST shipment', () => {
  it('refuses a stop without the fields the published Address requires, naming each; the lane quote takes ZIP codes alone', async () => {
    const zipOnly = { pickupAddress: { zipCode: '60601' }, deliveryAddress: { ...QUOTE.deliveryAddress, phoneNumber: '  ' }, orderComponents: QUOTE.orderComponents };
    const problem = expectProblem(await postJson(base, '/v1/shipper/quote', zipOnly), 400, 'Constraint Violation');
    expect((problem.violations as Array<{ field: string }>).map((violation) => violation.field)).toEqual([
      'pickupAddress.name',
      'pickupAddress.address1',
      'pickupAddress.city',
      'pickupAddress.state',
      'pickupAddress.contactPerson',
      'pickupAddress.phoneNumber',
      'deliveryAddress.phoneNumber',
    ]);
    const lane = await postJson(base, '/v1/shipper/lane-quote', { ...zipOnly, deliveryAddress: { zipCode: '10001' } });
    expect(lane.status).toBe(200);
    expect(lane.headers.location).toBe(`/v1/shipper/quote/${String(lane.json().id)}`);
    expect((await call(base, 'GET', lane.headers.location as string)).json()).toEqual(lane.json());
  });

  it('refuses a shipment whose stops lack a contact or a phone, and books nothing', async () => {
    const before = (await call(base, 'GET', '/v1/shipper/shipment')).json().items as unknown[];
    const { contactPerson: _contact, ...noContact } = QUOTE.pickupAddress;
    const problem = expectProblem(
      await postJson(base, '/v1/shipper/shipment', {
        pickupAddress: noContact,
        deliveryAddress: QUOTE.deliveryAddress,
        orderComponents: QUOTE.orderComponents,
        description: 'Parts',
      }),
      400,
    );
    expect(problem.violations).toEqual([{ field: 'pickupAddress.contactPerson', reason: expect.stringMatching(/^contactPerson is required/) }]);
    expect((await call(base, 'GET', '/v1/shipper/shipment')).json().items).toHaveLength(before.length);
  });

  it('leaves a stop that is no object to the schema, which names it once', async () => {
    const problem = expectProblem(await postJson(base, '/v1/shipper/quote', { ...QUOTE, pickupAddress: '60601' }), 400);
    expect((problem.violations as Array<{ field: string }>).filter((violation) => violation.field.startsWith('pickupAddress'))).toHaveLength(1);
  });
});

describe('Idempotency-Key', () => {
  it('the same key and body answer the same quote; another body is a 409; a malformed key a 400', async () => {
    const first = await postJson(base, '/v1/shipper/quote', QUOTE, { 'idempotency-key': 'k-123' });
    const again = await postJson(base, '/v1/shipper/quote', QUOTE, { 'idempotency-key': 'k-123' });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.json().id).toBe(first.json().id);
    expect(again.headers.location).toBe(first.headers.location);
    expectProblem(await postJson(base, '/v1/shipper/quote', { ...QUOTE, accessorials: ['LIFTGATE_DELIVERY'] }, { 'idempotency-key': 'k-123' }), 409);
    const bad = expectProblem(await postJson(base, '/v1/shipper/quote', QUOTE, { 'idempotency-key': 'has space' }), 400);
    expect(bad.violations).toEqual([{ field: 'Idempotency-Key', reason: expect.any(String) }]);
  });
});

describe('batch extensions', () => {
  const address = { name: 'A', address1: 'B', city: 'C', state: 'IL', zipCode: '60601', contactPerson: 'D', phoneNumber: '+13125550100' };
  const shipment = (pallets: number, pieceCount = 1) => ({
    pickupAddress: address,
    deliveryAddress: { ...address, state: 'NY', zipCode: '10001' },
    orderComponents: [{ palletCount: pallets, poundsWeight: 500 * pallets, dimensions: { length: 48, width: 40, height: 48 }, pieceCount }],
  });

  it('POST /shipment-batch books in the order given, one outcome per item; a replay books nothing twice', async () => {
    const items = [
      { request: shipment(1), idempotencyKey: 'batch-a' },
      { request: shipment(2, -1), idempotencyKey: 'batch-b' },
      { request: shipment(3), idempotencyKey: 'batch-c' },
    ];
    const first = await postJson(base, '/v1/shipper/shipment-batch', { items });
    expect(first.status).toBe(200);
    const outcomes = first.json().items as Array<Record<string, any>>;
    expect(outcomes.map((outcome) => outcome.ok)).toEqual([true, false, true]);
    expect(outcomes[1]!.problem).toMatchObject({ status: 400, violations: [{ field: 'orderComponents[0].pieceCount', reason: expect.any(String) }] });
    const [a, , c] = outcomes.map((outcome) => outcome.data);
    expect(Number(c.orderNumber.slice(3))).toBe(Number(a.orderNumber.slice(3)) + 1);
    expect(a.orderComponents[0].palletCount).toBe(1);
    expect((await call(base, 'GET', `/v1/shipper/shipment/${c.id}`)).status).toBe(200);

    const again = (await postJson(base, '/v1/shipper/shipment-batch', { items })).json().items as Array<Record<string, any>>;
    expect(again.map((outcome) => [outcome.ok, outcome.replayed, outcome.data?.id])).toEqual([
      [true, true, a.id],
      [false, undefined, undefined],
      [true, true, c.id],
    ]);
  });

  it('POST /shipment-preview prices without storing anything', async () => {
    const before = (await call(base, 'GET', '/v1/shipper/quote?limit=500')).json().items as unknown[];
    const answer = await postJson(base, '/v1/shipper/shipment-preview', {
      items: [{ request: shipment(2) }, { request: { ...shipment(1), deliveryAddress: { ...address, zipCode: '00000' } } }],
    });
    expect(answer.status).toBe(200);
    const [priced, refused] = answer.json().items as Array<Record<string, any>>;
    expect(priced!.ok).toBe(true);
    expect(priced!.data.quotedPriceInCents).toBeGreaterThan(0);
    expect(refused).toMatchObject({ ok: false, problem: { status: 400, violations: [{ field: 'deliveryAddress.zipCode' }] } });
    expect((await call(base, 'GET', '/v1/shipper/quote?limit=500')).json().items).toHaveLength(before.length);
  });

  it('400 for a bad envelope: no items, too many, a malformed key; 405 for GET', async () => {
    expectProblem(await postJson(base, '/v1/shipper/shipment-batch', {}), 400);
    expectProblem(await postJson(base, '/v1/shipper/shipment-batch', { items: [] }), 400);
    const tooMany = expectProblem(await postJson(base, '/v1/shipper/shipment-preview', { items: Array.from({ length: 501 }, () => ({ request: 1 })) }), 400);
    expect(tooMany.violations).toEqual([{ field: 'items', reason: 'at most 500 items per request' }]);
    const badKey = expectProblem(await postJson(base, '/v1/shipper/shipment-batch', { items: [{ request: {}, idempotencyKey: 'has space' }] }), 400);
    expect(badKey.violations).toEqual([{ field: 'items[0].idempotencyKey', reason: expect.any(String) }]);
    expect((await call(base, 'GET', '/v1/shipper/shipment-batch')).status).toBe(405);
  });
});

describe('the API key', () => {
  let secured: { server: ShipperServer; base: string };
  let dir: { dir: string; cleanup: () => Promise<void> };

  beforeAll(async () => {
    dir = await tempDir();
    secured = await start(new LocalApi({ storeDir: dir.dir }), { apiKey: 's3cret-key-0123456789' });
  });
  afterAll(async () => {
    await secured.server.close(100);
    await dir.cleanup();
  });

  it('401 with WWW-Authenticate without the key or with a wrong one; the key opens the API', async () => {
    for (const headers of [
      {} as Record<string, string>,
      { authorization: 'Bearer wrong' },
      { authorization: 'Basic czNjcmV0' },
      { authorization: 'Bearer s3cret-key-012345678' },
    ]) {
      const answer = await postJson(secured.base, '/v1/shipper/quote', QUOTE, headers);
      expectProblem(answer, 401, 'Unauthorized');
      expect(answer.headers['www-authenticate']).toBe('Bearer realm="shipper"');
    }
    expectProblem(await call(secured.base, 'GET', '/v1/shipper/quote'), 401);
    expect((await postJson(secured.base, '/v1/shipper/quote', QUOTE, { authorization: 'Bearer s3cret-key-0123456789' })).status).toBe(200);
    expect((await call(secured.base, 'GET', '/v1/shipper/quote', { headers: { authorization: 'bearer s3cret-key-0123456789' } })).status).toBe(200);
  });

  it('keeps the OpenAPI document public', async () => {
    const answer = await call(secured.base, 'GET', '/api-docs/shipper-v1');
    expect(answer.status).toBe(200);
    expect(answer.json().openapi).toBe('3.1.0');
  });
});

describe('500', () => {
  it('answers a generic ProblemDetail, never the message or a stack; the access log has the message', async () => {
    const failing = new Proxy({} as ShipperApi, {
      get: (_target, name) => (name === 'mode' ? 'local' : () => Promise.reject(new Error('disk on fire at /secret/path'))),
    });
    const lines: string[] = [];
    const broken = await start(failing, { log: lines });
    try {
      const answer = await call(broken.base, 'GET', '/v1/shipper/quote/qt_01JD3Y7T9Q2W5E8R1T4Y7U0I3Z');
      const problem = expectProblem(answer, 500, 'Internal Server Error');
      expect(answer.text).not.toContain('secret');
      expect(problem.detail).toBe('the service failed to handle the request');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(lines.at(-1)).toMatch(/"GET \/v1\/shipper\/quote\/qt_\w+" 500 \d+ [\d.]+ms error="disk on fire at \/secret\/path"$/);
    } finally {
      await broken.server.close(100);
    }
  });
});

describe('access log', () => {
  it('writes one line per request with method, path, status, size and time, and no secrets', async () => {
    const before = log.length;
    await call(base, 'GET', '/v1/shipper/quote?limit=2&api_key=topsecret', { headers: { authorization: 'Bearer hunter2' } });
    await call(base, 'GET', '/nowhere');
    await new Promise((resolve) => setTimeout(resolve, 20));
    const lines = log.slice(before);
    expect(lines).toHaveLength(2);
    // An unknown query parameter is refused (400), and its secret-looking value still never reaches the log.
    expect(lines[0]).toMatch(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z 127\.0\.0\.1 "GET \/v1\/shipper\/quote\?limit=2&api_key=\*\*\*" 400 \d+ [\d.]+ms$/);
    expect(lines[1]).toMatch(/"GET \/nowhere" 404 /);
    expect(lines.join('\n')).not.toMatch(/topsecret|hunter2/);
  });
});

describe('keep-alive and graceful shutdown', () => {
  it('serves several requests on one connection', async () => {
    const sockets = new Set<unknown>();
    const onConnection = (socket: unknown) => sockets.add(socket);
    service.server.on('connection', onConnection);
    const single = new Agent({ connections: 1 });
    try {
      for (let i = 0; i < 3; i++) {
        const response = await request(`${base}/v1/shipper/quote?limit=1`, { dispatcher: single });
        await response.body.dump();
        expect(response.statusCode).toBe(200);
      }
      expect(sockets.size).toBeLessThanOrEqual(1);
    } finally {
      service.server.off('connection', onConnection);
      await single.close();
    }
  });

  it('finishes a request in flight when closing, then refuses new connections', async () => {
    const temp = await tempDir();
    const api = new LocalApi({ storeDir: temp.dir });
    const local = await start(api);
    const port = Number(new URL(local.base).port);
    const body = JSON.stringify(QUOTE);
    // Headers and half the body now, the rest after close() began.
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let answer = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
    const ended = new Promise((resolve) => socket.once('end', resolve));
    socket.write(`POST /v1/shipper/quote HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 40)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closed = local.server.close(5_000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.write(body.slice(40));
    await ended;
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(answer.toLowerCase()).toContain('connection: close');
    const id = /"id":"(qt_\w+)"/.exec(answer)![1]!;
    expect((await api.getQuote(id)).data.id).toBe(id);
    await expect(request(`${local.base}/v1/shipper/quote`)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await temp.cleanup();
  });
});
