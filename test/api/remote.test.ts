/**
 * RemoteApi against scripted loopback servers: retries (what, when, how long), timeouts, the
 * Idempotency-Key of POSTs, ProblemDetails, garbage, warnings and keep-alive.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ProblemError, RemoteError } from '../../src/api/problems.js';
import { RemoteApi, retryAfterMs, type RemoteApiOptions } from '../../src/api/remote.js';
import { encodeHeaderText, encodeWarningHeader } from '../../src/api/wire.js';

const QUOTE = {
  id: 'qt_01JD3Y7T9Q2W5E8R1T4Y7U0I3Z',
  quotedPriceInCents: 12345,
  quoteExpirationTime: '2026-11-30T15:00:00.000Z',
  transitDays: 2,
  estimatedDeliveryDate: '2026-11-26T22:00:00.000Z',
  requiredPickupDate: '2026-11-24',
  pickupAddress: { zipCode: '60601', countryCode: 'US', city: 'Chicago', state: 'IL' },
  deliveryAddress: { zipCode: '10001', countryCode: 'US', city: 'New York', state: 'NY' },
  miles: 838,
  accessorials: [],
  orderComponents: [
    {
      palletCount: 1,
      poundsWeight: 500,
      dimensions: { length: 48, width: 40, height: 48 },
      description: null,
      nmfcCode: null,
      packagingType: null,
      pieceCount: null,
      hazmat: null,
      densityPcf: 9.38,
      freightClass: '100',
    },
  ],
  priceBreakdown: { linehaulInCents: 1, discountInCents: 0, minimumChargeApplied: false, fuelSurchargeInCents: 0, accessorialsInCents: [] },
  createdAt: '2026-11-23T15:00:00.000Z',
  companyId: 'default',
};

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  connection: number;
}

type Step = (req: IncomingMessage, res: ServerResponse) => void;

const json =
  (status: number, body: unknown, headers: Record<string, string | string[]> = {}): Step =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
const problem =
  (status: number, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Step =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/problem+json', ...headers });
    res.end(JSON.stringify({ type: 'urn:x', title: 'T', status, detail: `detail ${status}`, ...extra }));
  };
const text =
  (status: number, body: string, type = 'text/html'): Step =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': type });
    res.end(body);
  };
const reset: Step = (req) => req.socket.destroy();
const hang: Step = () => undefined;

const servers: Server[] = [];
const apis: RemoteApi[] = [];

afterEach(async () => {
  await Promise.all(apis.splice(0).map((api) => api.close()));
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A server that answers request n with steps[n] (the last step repeats). */
async function script(...steps: Step[]): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  let connections = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body, connection: (req.socket as unknown as { id: number }).id });
      steps[Math.min(seen.length - 1, steps.length - 1)]!(req, res);
    });
  });
  server.on('connection', (socket) => ((socket as unknown as { id: number }).id = ++connections));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

function client(url: string, options: Partial<RemoteApiOptions> = {}): { api: RemoteApi; waits: number[] } {
  const waits: number[] = [];
  const api = new RemoteApi({ baseUrl: url, retries: 2, random: () => 0.5, sleep: async (ms) => waits.push(ms), ...options });
  apis.push(api);
  return { api, waits };
}

async function failure(call: Promise<unknown>): Promise<Error> {
  return call.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: Error) => error,
  );
}

describe('retries', () => {
  it('retries a GET after 503, waiting what Retry-After says', async () => {
    const { url, seen } = await script(problem(503, {}, { 'retry-after': '2' }), json(200, QUOTE));
    const { api, waits } = client(url);
    expect((await api.getQuote(QUOTE.id)).data).toEqual(QUOTE);
    expect(seen).toHaveLength(2);
    expect(waits).toEqual([2000]);
  });

  it('retries a GET after 429 with exponential backoff and full jitter when there is no Retry-After', async () => {
    const { url, seen } = await script(problem(429), problem(429), json(200, QUOTE));
    const { api, waits } = client(url, { retryBaseMs: 200 });
    await api.getQuote(QUOTE.id);
    expect(seen).toHaveLength(3);
    expect(waits).toEqual([100, 200]); // random 0.5 of 200, then of 400
  });

  it('retries a GET after a connection reset', async () => {
    const { url, seen } = await script(reset, json(200, QUOTE));
    const { api } = client(url);
    expect((await api.getQuote(QUOTE.id)).data.id).toBe(QUOTE.id);
    expect(seen).toHaveLength(2);
  });

  it('retries a POST with the same Idempotency-Key, generated when the caller gave none', async () => {
    const { url, seen } = await script(reset, problem(503), json(201, QUOTE));
    const { api } = client(url);
    await api.createQuote({ any: 'body' } as never);
    expect(seen).toHaveLength(3);
    const keys = seen.map((request) => request.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys).size).toBe(1);
    expect(seen.every((request) => request.body === '{"any":"body"}')).toBe(true);

    await api.createQuote({ any: 'body' } as never, { idempotencyKey: 'mine-1' });
    expect(seen.at(-1)!.headers['idempotency-key']).toBe('mine-1');
  });

  it('retries a 408, 500, 502 and 504 as a 503, with one request id over the attempts', async () => {
    for (const status of [408, 500, 502, 504]) {
      const { url, seen } = await script(problem(status), json(200, QUOTE));
      expect((await client(url).api.getQuote(QUOTE.id)).data.id).toBe(QUOTE.id);
      expect(seen, String(status)).toHaveLength(2);
      const ids = seen.map((request) => request.headers['x-request-id']);
      expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/);
      expect(new Set(ids).size).toBe(1);
    }
  });

  it('names the server’s reason and request id in the error line, and sends a new id per call', async () => {
    const { url, seen } = await script(problem(409, { reason: 'idempotency_key_conflict', detail: 'key used' }, { 'x-request-id': 'req-7f3a' }));
    const error = (await failure(client(url).api.getQuote(QUOTE.id))) as ProblemError;
    expect(error.requestId).toBe('req-7f3a');
    expect(error.line()).toBe('key used (reason idempotency_key_conflict, request req-7f3a)');
    await failure(client(url).api.getQuote(QUOTE.id));
    expect(seen[0]!.headers['x-request-id']).not.toBe(seen[1]!.headers['x-request-id']);
    const plain = await script(text(502, 'Bad gateway'), text(502, 'Bad gateway'), (_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html', 'x-request-id': 'edge-9' });
      res.end('Bad gateway');
    });
    expect((await failure(client(plain.url).api.getQuote(QUOTE.id))).message).toMatch(/HTTP 502 and no problem details \(request edge-9\)$/);
  });

  it('does not retry a 400 or a timeout', async () => {
    const slow = await script(hang, json(200, QUOTE));
    const error = await failure(client(slow.url, { timeoutMs: 200 }).api.getQuote(QUOTE.id));
    expect(error).toBeInstanceOf(RemoteError);
    expect(error.message).toMatch(/did not answer GET \/v1\/shipper\/quote\/qt_\w+ within 0\.2 s/);
    expect(slow.seen).toHaveLength(1);
  });

  it('gives up after the retries and reports the last answer', async () => {
    const { url, seen } = await script(problem(503, { detail: 'maintenance until 16:00' }));
    const error = await failure(client(url).api.getQuote(QUOTE.id));
    expect(seen).toHaveLength(3);
    expect(error).toBeInstanceOf(ProblemError);
    expect((error as ProblemError).problem).toMatchObject({ status: 503, detail: 'maintenance until 16:00' });
  });

  it('does not wait for a Retry-After longer than it is willing to', async () => {
    const { url, seen } = await script(problem(429, {}, { 'retry-after': '3600' }));
    const { api, waits } = client(url);
    expect(((await failure(api.getQuote(QUOTE.id))) as ProblemError).status).toBe(429);
    expect(seen).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-23T15:00:00Z');
    expect(retryAfterMs('7', now)).toBe(7000);
    expect(retryAfterMs('Mon, 23 Nov 2026 15:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });
});

describe('failures as one clear message', () => {
  it('a server that is down: connection refused, after the retries', async () => {
    const { url } = await script(json(200, QUOTE));
    servers[0]!.close();
    servers.splice(0);
    await new Promise((resolve) => setTimeout(resolve, 10));
    const { api, waits } = client(url);
    const error = await failure(api.getQuote(QUOTE.id));
    expect(error).toBeInstanceOf(RemoteError);
    expect(error.message).toBe(`cannot reach ${url}: connection refused (3 attempts); is the server running?`);
    expect(waits).toHaveLength(2);
  });

  it('garbage: not JSON, or JSON that is not a quote', async () => {
    const html = await script(text(200, '<html>hello</html>'));
    expect((await failure(client(html.url).api.getQuote(QUOTE.id))).message).toMatch(/with something that is not JSON \(HTTP 200\)/);
    const wrong = await script(json(200, { ...QUOTE, quotedPriceInCents: 'a lot' }));
    const error = await failure(client(wrong.url).api.getQuote(QUOTE.id));
    expect(error).toBeInstanceOf(RemoteError);
    expect(error.message).toMatch(/with JSON that is not a quote \(quotedPriceInCents: /);
  });

  it('an error page without problem details', async () => {
    const { url } = await script(text(502, '<h1>Bad Gateway</h1>'));
    const error = await failure(client(url, { retries: 0 }).api.getQuote(QUOTE.id));
    expect(error).toBeInstanceOf(RemoteError);
    expect(error.message).toBe(`${url} answered GET /v1/shipper/quote/${QUOTE.id} with HTTP 502 and no problem details`);
  });

  it('a 404 without problem details is a wrong base URL, not an unknown quote', async () => {
    const { url } = await script(text(404, 'Cannot GET'));
    const error = await failure(client(`${url}/wrong`).api.getQuote(QUOTE.id));
    expect(error).toBeInstanceOf(RemoteError);
    expect(error.message).toMatch(/is http:\/\/127\.0\.0\.1:\d+\/wrong the base URL of a Shipper Freight API\?$/);
  });

  it('a ProblemDetail becomes the same ProblemError as locally, violations and all', async () => {
    const violations = [{ field: 'orderComponents[0].pieceCount', reason: 'pieceCount must be 0 or more' }];
    const { url } = await script(problem(400, { title: 'Constraint Violation', violations }));
    const error = await failure(client(url).api.createQuote({} as never));
    expect(error).toBeInstanceOf(ProblemError);
    expect((error as ProblemError).problem).toEqual({ type: 'urn:x', title: 'Constraint Violation', status: 400, detail: 'detail 400', violations });
  });

  it('sends the API key as Bearer, and a bare 401 says to check it', async () => {
    const { url, seen } = await script(text(401, 'nope', 'text/plain'));
    const error = await failure(client(url, { apiKey: 'k-123' }).api.listQuotes());
    expect(seen[0]!.headers.authorization).toBe('Bearer k-123');
    expect(error).toBeInstanceOf(ProblemError);
    expect((error as ProblemError).status).toBe(401);
    expect(error.message).toMatch(/refused the API key \(HTTP 401\); check --api-key, SHIPPER_API_KEY/);
  });
});

describe('answers', () => {
  it('turns X-Shipper-Warning headers into coded warnings (SERVER_WARNING without a code), and a bare Deprecation into one', async () => {
    const sent = [
      { code: 'DENSITY_MARGIN', message: 'first: ünïcode 100%' },
      { code: 'BEYOND_LTL', message: 'second' },
    ];
    const { url } = await script(
      json(201, QUOTE, { 'x-shipper-warning': [...sent.map(encodeWarningHeader), encodeHeaderText('a foreign server: no code')], deprecation: '@1767225600' }),
      json(201, QUOTE, { deprecation: 'true' }),
    );
    const { api } = client(url);
    expect((await api.createQuote({} as never)).warnings).toEqual([...sent, { code: 'SERVER_WARNING', message: 'a foreign server: no code' }]);
    expect((await api.createQuote({} as never)).warnings).toEqual([
      { code: 'SERVER_WARNING', message: 'the server marked this request as using a deprecated feature (Deprecation: true)' },
    ]);
  });

  it("takes a quote's warnings whole from its body, over the headers, and leaves them out of the data", async () => {
    const whole = { code: 'WIDE_FREIGHT', message: 'wide', line: 0, detail: { widthInches: 72 } };
    const { url } = await script(json(201, { ...QUOTE, warnings: [whole] }, { 'x-shipper-warning': encodeWarningHeader(whole) }));
    const { api } = client(url);
    const answer = await api.createQuote({} as never);
    expect(answer.warnings).toEqual([whole]);
    expect(answer.data).not.toHaveProperty('warnings');
  });

  it('keeps the connection alive between calls and honours a base URL with a path', async () => {
    const { url, seen } = await script(json(200, { items: [QUOTE], nextCursor: null }));
    const { api } = client(`${url}/freight/`);
    for (let i = 0; i < 6; i++) await api.listQuotes({ limit: 5, cursor: 'qt_0' });
    expect(seen.map((request) => request.url)).toEqual(Array(6).fill('/freight/v1/shipper/quote?limit=5&cursor=qt_0'));
    // Sockets are reused (undici may open a second one while the first is being released).
    expect(new Set(seen.map((request) => request.connection)).size).toBeLessThanOrEqual(2);
  });

  it('downloads a BOL only when it is a PDF', async () => {
    const pdf: Step = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.end('%PDF-1.7 fake');
    };
    const { url, seen } = await script(pdf, text(200, '<html>'));
    const { api } = client(url);
    const { data } = await api.renderBol('sh_1', { template: 'partner' });
    expect(Buffer.from(data).toString()).toBe('%PDF-1.7 fake');
    expect(seen[0]!.url).toBe('/v1/shipper/shipment/sh_1/bol?template=partner');
    expect((await failure(api.renderBol('sh_1'))).message).toMatch(/not a PDF/);
  });
});

describe('batches', () => {
  const shipmentRequest = (ref: string) => ({
    refNumber: ref,
    pickupAddress: { name: 'A', address1: '1 A St', city: 'Chicago', state: 'IL', zipCode: '60601' },
    deliveryAddress: { name: 'B', address1: '2 B St', city: 'New York', state: 'NY', zipCode: '10001' },
    orderComponents: [{ palletCount: 1, poundsWeight: 500, dimensions: { length: 48, width: 40, height: 48 } }],
  });
  const refusal = { ok: false, problem: { type: 'urn:x', title: 'T', status: 400, detail: 'no' } };

  it('books in requests of at most 100 items, in order, every item with an idempotency key', async () => {
    let seen: Seen[] = [];
    const answerEach: Step = (_req, res) => {
      const { items } = JSON.parse(seen.at(-1)!.body) as { items: unknown[] };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ items: items.map(() => refusal) }));
    };
    const server = await script(answerEach);
    seen = server.seen;
    const { api } = client(server.url);
    const items = Array.from({ length: 250 }, (_, index) => ({ request: shipmentRequest(`R-${index}`), ...(index === 7 ? { idempotencyKey: 'mine-7' } : {}) }));
    const outcomes = (await api.createShipments({ items })).data.items;
    expect(outcomes).toHaveLength(250);
    expect(outcomes.every((outcome) => !outcome.ok && outcome.problem.detail === 'no')).toBe(true);
    expect(seen.map((request) => request.url)).toEqual(Array(3).fill('/v1/shipper/shipment-batch'));
    const sent = seen.flatMap((request) => (JSON.parse(request.body) as { items: Array<{ request: { refNumber: string }; idempotencyKey: string }> }).items);
    expect(seen.map((request) => (JSON.parse(request.body) as { items: unknown[] }).items.length)).toEqual([100, 100, 50]);
    expect(sent.map((item) => item.request.refNumber)).toEqual(items.map((item) => item.request.refNumber));
    expect(sent[7]!.idempotencyKey).toBe('mine-7');
    expect(new Set(sent.map((item) => item.idempotencyKey)).size).toBe(250);
  });

  it('falls back to one request per item on a server without the extension, and remembers it', async () => {
    const { url, seen } = await script(problem(404), json(201, QUOTE));
    const { api } = client(url);
    const outcomes = (await api.previewShipments({ items: [{ request: shipmentRequest('A') }, { request: shipmentRequest('B') }] })).data.items;
    expect(outcomes.map((outcome) => outcome.ok && outcome.data.id)).toEqual([QUOTE.id, QUOTE.id]);
    // Stops without a contact and a phone are a lane: serve's lane quote prices them.
    expect(seen.map((request) => request.url)).toEqual(['/v1/shipper/shipment-preview', '/v1/shipper/lane-quote', '/v1/shipper/lane-quote']);
    // Whole published stops go to the published quote, as sent.
    const whole = {
      ...shipmentRequest('C'),
      pickupAddress: { ...shipmentRequest('C').pickupAddress, contactPerson: 'Ann', phoneNumber: '+13125550100' },
      deliveryAddress: { ...shipmentRequest('C').deliveryAddress, contactPerson: 'Bo', phoneNumber: '+12125550100' },
    };
    await api.previewShipments({ items: [{ request: whole }] });
    expect(seen.map((request) => request.url).slice(3)).toEqual(['/v1/shipper/quote']);
    expect(JSON.parse(seen[3]!.body)).toMatchObject({ pickupAddress: whole.pickupAddress, deliveryAddress: whole.deliveryAddress });
  });

  it('refuses an answer with another number of results, and reports a refused envelope', async () => {
    const { url } = await script(json(200, { items: [refusal] }), problem(401));
    const { api } = client(url);
    expect(await failure(api.createShipments({ items: [{ request: shipmentRequest('A') }, { request: shipmentRequest('B') }] }))).toBeInstanceOf(RemoteError);
    const unauthorized = await failure(api.createShipments({ items: [{ request: shipmentRequest('A') }] }));
    expect(unauthorized).toBeInstanceOf(ProblemError);
    expect((unauthorized as ProblemError).status).toBe(401);
  });
});

describe('the published service', () => {
  const CONFIRMED = { id: '67b6c5fcfbf1be6b24127646', orderNumber: 'ZKYQ5', orderStatus: 'CONFIRMED', totalPriceInCents: 125000 };
  const already = (state: string) => problem(400, { detail: `order is already ${state}`, reason: 'invalid_state' });

  it('reads an answer with the published fields alone and names what it lacks', async () => {
    const { url } = await script(json(200, { ...CONFIRMED, unknownField: { nested: true } }));
    const result = await client(url, { publishedOnly: true }).api.getShipment('ZKYQ5');
    expect(result.data).toMatchObject(CONFIRMED);
    expect(result.unanswered).toEqual(expect.arrayContaining(['pickupAddress', 'orderComponents', 'bolNumber']));
  });

  it('refuses such an answer from a server taken for shipper serve, saying how to read it', async () => {
    const { url } = await script(json(200, CONFIRMED));
    const error = await failure(client(url).api.getShipment('ZKYQ5'));
    expect(error).toBeInstanceOf(RemoteError);
    expect(error.message).toContain('set SHIPPER_SERVICE=published');
  });

  it('counts a retried confirm answered "already confirmed" as done when the order is confirmed', async () => {
    const { url, seen } = await script(problem(503), already('CONFIRMED'), json(200, CONFIRMED));
    const result = await client(url, { publishedOnly: true }).api.confirmShipment('ZKYQ5');
    expect(result.data).toMatchObject({ orderNumber: 'ZKYQ5', orderStatus: 'CONFIRMED' });
    expect(seen.map((request) => `${request.method} ${request.url}`)).toEqual([
      'PUT /v1/shipper/shipment/ZKYQ5/confirm',
      'PUT /v1/shipper/shipment/ZKYQ5/confirm',
      'GET /v1/shipper/shipment/ZKYQ5',
    ]);
  });

  it('counts a retried cancel answered "already cancelled" as done only when the order is cancelled', async () => {
    const done = await script(problem(502), already('CANCELLED'), json(200, { ...CONFIRMED, orderStatus: 'CANCELLED' }));
    expect((await client(done.url, { publishedOnly: true }).api.cancelShipment('ZKYQ5')).data).toMatchObject({ orderStatus: 'CANCELLED' });
    const refused = await script(problem(502), problem(400, { detail: 'order is PICKED_UP: it cannot be cancelled' }), json(200, { ...CONFIRMED, orderStatus: 'PICKED_UP' }));
    const error = (await failure(client(refused.url, { publishedOnly: true }).api.cancelShipment('ZKYQ5'))) as ProblemError;
    expect(error.problem.detail).toBe('order is PICKED_UP: it cannot be cancelled');
    expect(refused.seen).toHaveLength(3);
  });

  it('leaves a refusal of a confirm sent once as it is, without asking again', async () => {
    const { url, seen } = await script(already('CONFIRMED'), json(200, CONFIRMED));
    const error = (await failure(client(url, { publishedOnly: true }).api.confirmShipment('ZKYQ5'))) as ProblemError;
    expect(error.status).toBe(400);
    expect(seen).toHaveLength(1);
  });

  it('refuses an extension before sending anything', async () => {
    const { url, seen } = await script(json(200, {}));
    const error = await failure(client(url, { publishedOnly: true }).api.listShipments({}));
    expect(error.message).toBe(`${url} speaks the Oway Shipper API as published, which has no GET /v1/shipper/shipment: that is an extension of shipper serve; nothing was sent`);
    expect(seen).toEqual([]);
  });

  it('says an extension is not offered when a server answers it 404', async () => {
    const { url } = await script(problem(404, { detail: 'no route GET /v1/shipper/shipment' }, { 'x-request-id': 'r-1' }));
    const error = await failure(client(url).api.listShipments({}));
    expect(error.message).toBe(
      `${url} does not offer GET /v1/shipper/shipment (HTTP 404): it is an extension of shipper serve, which the Oway Shipper API as published does not have (request r-1)`,
    );
  });
});
