/**
 * Fuzz over real HTTP against the built `shipper serve` (one server for the file, clock started at
 * FUZZ_NOW): valid requests quote, book and read back; invalid ones are ProblemDetails whose every
 * violation resolves in the body; and hostile requests (any JSON, malformed JSON, wrong content
 * types, random paths, ids, queries and methods, huge and deeply nested bodies) never get a 500,
 * every error is application/problem+json parsing as a ProblemDetail, and no answer carries a
 * stack trace, a file path or the V8 JSON parser's message. Runs, seeds: see arbitraries.ts.
 */
import { join } from 'node:path';
import { isFreightCheckCode, type Warning } from '../../src/domain/warnings.js';
import fc from 'fast-check';
import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problemDetailSchema, type Quote, type Shipment, type TransitTable } from '../../src/domain/schemas.js';
import { jsonErrorOffset, lineAndColumn } from '../../src/server/jsonSyntax.js';
import { tempDir } from '../helpers/cli.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';
import { publishedStops } from '../helpers/fixtures.js';
import {
  FUZZ_NOW,
  fuzzParameters,
  isPlainObject,
  mutatedArb,
  QUOTE_RULES,
  quoteRequestArb,
  quoteRequestFor,
  SHIPMENT_RULES,
  shipmentRequestArb,
  Tally,
  timeoutOf,
  TRANSIT_RULES,
  transitRequestArb,
  type Json,
  type Mutated,
  withPublishedParties,
  withUniquePro,
} from './arbitraries.js';
import { expectProblemAbout, expectQuoteAsRequested, expectShipmentAsRequested, expectTransitAsRequested, leaksOf, stringsOf } from './oracle.js';

const tally = new Tally('server');
let work: { dir: string; cleanup: () => Promise<void> };
let serve: ServeProcess;
const agent = new Agent({ keepAlive: true, maxSockets: 8 });
/** Ids the server gave out, for hostile requests on real resources. */
const known = { quotes: [] as string[], shipments: [] as string[] };

/** The server's own body limit (DEFAULT_BODY_LIMIT_BYTES): 1 MiB. */
const BODY_LIMIT = 1024 * 1024;
const MAX_JSON_DEPTH = 32;

beforeAll(async () => {
  work = await tempDir('shipper-fuzz-serve-');
  serve = await startServe({ store: join(work.dir, 'store'), env: { SHIPPER_NOW: FUZZ_NOW } });
});
afterAll(async () => {
  tally.flush();
  agent.destroy();
  const code = await serve?.stop();
  // Nothing failed inside the server in the whole file: no 5xx in its access log, no stack trace.
  const log = serve?.stderr() ?? '';
  await work?.cleanup();
  expect(code).toBe(0);
  expect(log.split('\n').filter((line) => /" 5\d\d /.test(line))).toEqual([]);
  expect(log).not.toMatch(/\n\s+at /);
});

interface Sent {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

/**
 * One request with node:http, which reads the answer even when the server stops reading a body
 * past its limit (undici reports the write's EPIPE instead): what a client sees of a 413.
 */
function send(sent: Sent, retried = false): Promise<Answer> {
  const { method, path, headers = {}, body } = sent;
  const { hostname, port } = new URL(serve.url);
  return new Promise((resolve, reject) => {
    let answered = false;
    // Node sends a body of OPTIONS or DELETE without framing unless it is given a length.
    const framed = body === undefined ? headers : { 'content-length': String(Buffer.byteLength(body)), ...headers };
    const req = httpRequest({ host: hostname, port, method, path, headers: framed, agent }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: res.headers['content-type'] ?? '', text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    // The server may stop reading a body it refuses (413) once it has answered: the write fails, the answer stands.
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)));
    req.on('close', () => {
      if (answered) return;
      // A kept-alive connection the server closed as this request went out (the race every HTTP
      // client meets): sent again once, on a new connection, as Node's documentation advises.
      if (req.reusedSocket && !retried) return void send(sent, true).then(resolve, reject);
      reject(new Error(`${method} ${path.slice(0, 200)}: the connection closed without an answer`));
    });
    req.end(body);
  });
}

const postJson = (path: string, body: unknown) => send({ method: 'POST', path, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** Any answer: never 5xx; an error is a ProblemDetail (its status, no leak); a JSON success parses. */
function expectWellFormed(answer: Answer, sent: Sent): unknown {
  tally.add(`status ${answer.status}`);
  const what = `${sent.method} ${sent.path.slice(0, 200)} -> ${answer.status} ${answer.text.slice(0, 300)}`;
  expect(answer.status, what).toBeLessThan(500);
  if (sent.method === 'HEAD') return undefined;
  const sentText = `${sent.method} ${decodeURIComponentSafe(sent.path)} ${JSON.stringify(sent.headers ?? {})} ${String(sent.body ?? '')}`;
  expect(leaksOf(answer.text, sentText), what).toEqual([]);
  if (answer.status >= 400) {
    expect(answer.contentType, what).toBe('application/problem+json; charset=utf-8');
    const problem = JSON.parse(answer.text) as unknown;
    const parsed = problemDetailSchema.safeParse(problem);
    expect(parsed.success, what).toBe(true);
    expect(parsed.data!.status, what).toBe(answer.status);
    expect(leaksOf(stringsOf(problem), sentText), what).toEqual([]);
    return problem;
  }
  if (answer.contentType.startsWith('application/json')) return JSON.parse(answer.text) as unknown;
  if (answer.contentType.startsWith('application/pdf')) expect(answer.text.startsWith('%PDF-'), what).toBe(true);
  return undefined;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return `${text} ${decodeURIComponent(text)}`;
  } catch {
    return text;
  }
}

function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const items = Array.isArray(value) ? value : Object.values(value);
  return 1 + items.reduce<number>((deepest, item) => Math.max(deepest, depthOf(item)), 0);
}

// ---------------------------------------------------------------------------------------------

describe('valid requests over HTTP', () => {
  it(
    'quote (200), book on the quote and quoting first (200), read back by GET, listed by BOL number',
    async () => {
      await fc.assert(
        fc.asyncProperty(shipmentRequestArb({ maxLines: 3 }).map(withPublishedParties), async (request) => {
          tally.add('valid shipment', 2);
          // A lane (ZIP codes alone) is quoted on the lane quote; the published quote wants whole addresses.
          const quoteAnswer = await postJson('/v1/shipper/lane-quote', quoteRequestFor(request));
          expect(quoteAnswer.status, quoteAnswer.text).toBe(200);
          const quote = JSON.parse(quoteAnswer.text) as Quote;
          expectQuoteAsRequested(quote, quoteRequestFor(request));
          // A GET answers the same resource, and the freight check again (the call's own warnings, such as a deprecation, are the POST's).
          const fetched = JSON.parse((await send({ method: 'GET', path: `/v1/shipper/quote/${quote.id}` })).text) as Quote;
          expect(withoutWarnings(fetched)).toEqual(withoutWarnings(quote));
          expect(fetched.warnings).toEqual(freightCheckOf(quote.warnings));
          known.quotes.push(quote.id);

          // A PRO names one shipment of its carrier: each booking gets its own.
          for (const body of [{ ...withUniquePro(request), quoteId: quote.id }, withUniquePro(request)]) {
            const answer = await postJson('/v1/shipper/shipment', body);
            expect(answer.status, answer.text).toBe(200);
            const shipment = JSON.parse(answer.text) as Shipment;
            expectShipmentAsRequested(shipment, body);
            const read = await send({ method: 'GET', path: `/v1/shipper/shipment/${shipment.id}` });
            expect(read.status).toBe(200);
            const readBack = JSON.parse(read.text) as Shipment;
            expect(withoutWarnings(readBack)).toEqual(withoutWarnings(shipment));
            expect(readBack.warnings).toEqual(freightCheckOf(shipment.warnings));
            const listed = await send({ method: 'GET', path: `/v1/shipper/shipment?bolNumber=${shipment.bolNumber}` });
            expect((JSON.parse(listed.text) as { items: Shipment[] }).items).toEqual([withoutWarnings(shipment)]);
            known.shipments.push(shipment.id);
          }
        }),
        fuzzParameters(10),
      );
    },
    timeoutOf(4_000),
  );

  it(
    'transit tables (200)',
    async () => {
      await fc.assert(
        fc.asyncProperty(transitRequestArb, async (request) => {
          tally.add('valid transit');
          const answer = await postJson('/v1/shipper/transit', request);
          expect(answer.status, answer.text).toBe(200);
          expectTransitAsRequested(JSON.parse(answer.text) as TransitTable, request);
        }),
        fuzzParameters(10),
      );
    },
    timeoutOf(2_000),
  );
});

describe('invalid requests over HTTP', () => {
  const targets = [
    { name: 'quotes', path: '/v1/shipper/lane-quote', arbitrary: mutatedArb(quoteRequestArb, QUOTE_RULES) },
    { name: 'shipments', path: '/v1/shipper/shipment', arbitrary: mutatedArb(shipmentRequestArb({ maxLines: 3 }).map(withPublishedParties), SHIPMENT_RULES) },
    { name: 'transit tables', path: '/v1/shipper/transit', arbitrary: mutatedArb(transitRequestArb, TRANSIT_RULES) },
  ];
  it.each(targets)(
    '$name: a ProblemDetail whose violations resolve in the body, or (too deep) a 400 Malformed JSON',
    async ({ path, arbitrary }) => {
      await fc.assert(
        fc.asyncProperty(arbitrary, async (mutated: Mutated) => {
          const text = JSON.stringify(mutated.request);
          const sent: Sent = { method: 'POST', path, headers: { 'content-type': 'application/json' }, body: text };
          const answer = await send(sent);
          const body = expectWellFormed(answer, sent);
          // What the server read: JSON has no undefined, NaN or Infinity.
          const input = JSON.parse(text) as unknown;
          if (depthOf(input) > MAX_JSON_DEPTH) {
            tally.add('refused: too deep');
            expect(answer.status).toBe(400);
            expect((body as { title: string }).title).toBe('Malformed JSON');
            return;
          }
          if (answer.status < 300) {
            tally.add('accepted');
            expect(mutated.certain, `accepted although ${JSON.stringify(mutated.mutations)}`).toBe(false);
            return;
          }
          tally.add('refused');
          expectProblemAbout(body, { input, mutated, sent: text });
        }),
        fuzzParameters(40),
      );
    },
    timeoutOf(3_000),
  );
});

// ---------------------------------------------------------------------------------------------
// Hostile requests

const POST_PATHS = ['/v1/shipper/quote', '/v1/shipper/shipment', '/v1/shipper/transit', '/v1/shipper/shipment-batch', '/v1/shipper/shipment-preview'];
const ID_PATHS = [
  '/v1/shipper/quote/{id}',
  '/v1/shipper/shipment/{id}',
  '/v1/shipper/shipment/{id}/bol',
  '/v1/shipper/shipment/{id}/labels',
  '/v1/shipper/shipment/{id}/invoice',
  '/v1/shipper/shipment/{id}/cancel',
  '/v1/shipper/shipment/{id}/tender',
];
const OTHER_PATHS = ['/v1/shipper/quote', '/v1/shipper/shipment', '/v1/shipper/bol-templates', '/api-docs/shipper-v1', '/', '/v1', '/v1/shipper', '/v2/shipper/quote'];

const idArb = fc.oneof(
  fc.constant('KNOWN_SHIPMENT'),
  fc.constant('KNOWN_QUOTE'),
  fc.stringMatching(/^(qt|sh)_[0-9A-Z]{26}$/),
  fc.string({ unit: 'binary', maxLength: 20 }).map(encodeURIComponent),
  fc.constantFrom('..', '%2e%2e', '..%2F..%2Fpackage.json', '%00', 'qt_%0A', 'x'.repeat(300), '%E2%80%AE', 'CON', '.', '~'),
);

const pathArb = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom(...ID_PATHS), idArb).map(([template, id]) => template.replace('{id}', id)) },
  { weight: 2, arbitrary: fc.constantFrom(...POST_PATHS, ...OTHER_PATHS) },
  { weight: 1, arbitrary: fc.webPath() },
  { weight: 1, arbitrary: fc.array(fc.string({ unit: 'binary', maxLength: 12 }).map(encodeURIComponent), { maxLength: 5 }).map((segments) => `/v1/shipper/${segments.join('/')}`) },
);

const queryArb = fc.oneof(
  { weight: 3, arbitrary: fc.constant('') },
  { weight: 2, arbitrary: fc.webQueryParameters().map((query) => (query ? `?${query}` : '')) },
  {
    weight: 2,
    arbitrary: fc
      .array(
        fc.tuple(
          fc.constantFrom('limit', 'cursor', 'orderStatus', 'since', 'until', 'to', 'refNumber', 'proNumber', 'bolNumber', 'template', 'format', 'zz', 'api_key'),
          fc.oneof(
            fc.constantFrom('0', '-1', '1e400', 'NaN', '500', '501', '1.5', '', 'BOOKED', 'pdf', 'zpl', '2026-02-30', '../x', 'x'.repeat(2000)),
            fc.string({ unit: 'binary', maxLength: 16 }),
          ),
        ),
        { maxLength: 4 },
      )
      .map((pairs) => (pairs.length ? `?${pairs.map(([key, value]) => `${key}=${encodeURIComponent(value)}`).join('&')}` : '')),
  },
);

const contentTypeArb = fc.oneof(
  { weight: 6, arbitrary: fc.constant('application/json') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'application/JSON; charset="UTF-8"',
      'application/problem+json',
      'application/vnd.shipper+json',
      'application/json; charset=latin1',
      'text/plain',
      'text/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
      '*/*',
      ';',
      'application/json;;;',
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

/** Text that is almost JSON: a JSON document with a character taken out, put in or cut off. */
const almostJsonArb = fc
  .tuple(
    fc.json({ maxDepth: 4 }),
    fc.nat(),
    fc.constantFrom('', '{', '}', '[', ']', ',', ':', '"', '\\', '\u0000', '\n', 'x', '-', '.', 'e', '01', 'tru', '\uFEFF', '\u2028'),
    fc.constantFrom('delete', 'insert', 'cut'),
  )
  .map(([json, position, char, how]) => {
    const at = json.length === 0 ? 0 : position % json.length;
    if (how === 'delete') return json.slice(0, at) + json.slice(at + 1);
    if (how === 'insert') return json.slice(0, at) + char + json.slice(at);
    return json.slice(0, at);
  });

const bodyArb = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 6 }).map((value) => JSON.stringify(value)) },
  { weight: 3, arbitrary: almostJsonArb },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      'null',
      '[]',
      '{}',
      '"x"',
      '1e400',
      '-0',
      '{"__proto__":{"polluted":1}}',
      '{"constructor":{"prototype":{}}}',
      '{"items":[]}',
      '{"items":null}',
      '{"reason":"x"}',
      '{"format":"x12-204"}',
    ),
  },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

const methodArb = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('GET', 'POST', 'PATCH', 'HEAD') },
  { weight: 2, arbitrary: fc.constantFrom('PUT', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND', 'MKCOL', 'SEARCH', 'PURGE') },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Z]{3,10}$/) },
);

const headerTextArb = fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code)), minLength: 1, maxLength: 300 });

const hostileArb = fc.record({
  method: methodArb,
  path: pathArb,
  query: queryArb,
  contentType: contentTypeArb,
  body: bodyArb,
  accept: fc.constantFrom(undefined, 'application/json', 'application/pdf', '*/*', 'text/html', 'application/pdf;q=0, */*;q=0.1', 'x'),
  idempotencyKey: fc.oneof(fc.constant(undefined), headerTextArb),
  authorization: fc.constantFrom(undefined, 'Bearer x', 'Basic eDp5', ''),
});

function hostileRequest(values: typeof hostileArb extends fc.Arbitrary<infer T> ? T : never): Sent {
  const shipment = known.shipments[values.path.length % Math.max(1, known.shipments.length)] ?? 'sh_00000000000000000000000000';
  const quote = known.quotes[values.path.length % Math.max(1, known.quotes.length)] ?? 'qt_00000000000000000000000000';
  const headers: Record<string, string> = {};
  if (values.contentType !== undefined) headers['content-type'] = values.contentType;
  if (values.accept !== undefined) headers.accept = values.accept;
  if (values.idempotencyKey !== undefined) headers['idempotency-key'] = values.idempotencyKey;
  if (values.authorization !== undefined) headers.authorization = values.authorization;
  // GET and HEAD carry no body here (clients send none); the others may.
  const body = values.method === 'GET' || values.method === 'HEAD' ? undefined : values.body;
  return {
    method: values.method,
    path: values.path.replace('KNOWN_SHIPMENT', shipment).replace('KNOWN_QUOTE', quote) + values.query,
    headers,
    ...(body === undefined ? {} : { body }),
  };
}

describe('hostile requests', () => {
  it(
    'any method, path, id, query, content type and body: never a 500, errors are ProblemDetails, nothing leaks',
    async () => {
      await fc.assert(
        fc.asyncProperty(hostileArb, async (values) => {
          tally.add('hostile request');
          const sent = hostileRequest(values);
          const answer = await send(sent);
          const problem = expectWellFormed(answer, sent);
          // Malformed JSON is refused saying where, never with V8's words (checked in expectWellFormed).
          if (isPlainObject(problem) && problem.title === 'Malformed JSON' && typeof sent.body === 'string' && sent.body.trim() !== '') {
            tally.add('malformed JSON');
            const offset = jsonErrorOffset(sent.body);
            if (offset !== undefined) {
              const { line, column } = lineAndColumn(sent.body, offset);
              expect(problem.detail).toMatch(new RegExp(`\\(line ${line}, column ${column}\\)$`));
            }
          }
        }),
        fuzzParameters(200),
      );
    },
    timeoutOf(6_000),
  );

  it(
    'malformed JSON: a 400 that says at which line and column, as JSON.parse would stop',
    async () => {
      await fc.assert(
        fc.asyncProperty(almostJsonArb, fc.constantFrom(...POST_PATHS), async (text, path) => {
          let valid = true;
          try {
            JSON.parse(text);
          } catch {
            valid = false;
          }
          fc.pre(!valid);
          tally.add('malformed JSON');
          const sent: Sent = { method: 'POST', path, headers: { 'content-type': 'application/json' }, body: text };
          const problem = expectWellFormed(await send(sent), sent) as { status: number; title: string; detail: string };
          expect(problem.status).toBe(400);
          if (text.trim() === '') return;
          expect(problem.title).toBe('Malformed JSON');
          expect(problem.detail).toMatch(/^the request body is not valid JSON(: it ends before the JSON is complete)? \(line \d+, column \d+\)$/);
        }),
        fuzzParameters(60),
      );
    },
    timeoutOf(2_000),
  );

  it(
    'huge and deeply nested bodies within and past the limit: 400 or 413, never a 500',
    async () => {
      const cases: Array<[string, string, number[]]> = [
        ['a list nested 10,000 deep', `${'['.repeat(10_000)}${']'.repeat(10_000)}`, [400]],
        ['an object nested 5,000 deep', `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`, [400]],
        ['half a megabyte of [', '['.repeat(BODY_LIMIT / 2), [400]],
        ['a description of nearly 1 MiB', JSON.stringify({ ...QUOTE, orderComponents: [{ ...QUOTE.orderComponents[0], description: 'x'.repeat(BODY_LIMIT - 500) }] }), [400]],
        ['100,000 order components', JSON.stringify({ ...QUOTE, orderComponents: Array(100_000).fill(1) }), [400]],
        ['one byte past the limit', JSON.stringify({ padding: 'y'.repeat(BODY_LIMIT) }), [413]],
        ['5 MiB', JSON.stringify(['z'.repeat(5 * BODY_LIMIT)]), [413]],
        ['a batch of 501 empty items', JSON.stringify({ items: Array(501).fill({ request: {} }) }), [400]],
        [
          'a transit table of 1,000 destinations x 60 days',
          JSON.stringify({ origin: { zipCode: '60601' }, destinations: Array(1000).fill({ zipCode: '10001' }), pickupDays: 60 }),
          [400],
        ],
      ];
      for (const [what, body, statuses] of cases) {
        for (const path of ['/v1/shipper/quote', '/v1/shipper/shipment-batch', '/v1/shipper/transit']) {
          tally.add('huge body');
          const sent: Sent = { method: 'POST', path, headers: { 'content-type': 'application/json' }, body };
          const answer = await send(sent).catch((error: Error) => {
            // Far past the limit the server stops reading and closes; a client still sending may
            // then see the connection reset before it reads the 413 (TCP drops unread data on a reset).
            if (what === '5 MiB' && /closed without an answer/.test(error.message)) return undefined;
            throw new Error(`${what}: ${error.message}`);
          });
          if (!answer) {
            tally.add('huge body: reset after 413');
            continue;
          }
          expectWellFormed(answer, { ...sent, body: body.slice(0, 1000) });
          expect(statuses, `${what} to ${path}: ${answer.status} ${answer.text.slice(0, 200)}`).toContain(answer.status);
        }
      }
      // And the server still answers.
      expect((await postJson('/v1/shipper/quote', QUOTE)).status).toBe(200);
    },
    timeoutOf(8_000),
  );
});

const QUOTE = {
  ...publishedStops(),
  orderComponents: [{ palletCount: 1, poundsWeight: 500, dimensions: { length: 48, width: 40, height: 48 } }],
};

describe('the malformed-JSON position (src/server/jsonSyntax.ts) against JSON.parse', () => {
  it(
    "is undefined exactly when JSON.parse accepts the text, and V8's position when V8 gives one",
    () => {
      fc.assert(
        fc.property(fc.oneof(almostJsonArb, fc.json(), fc.string({ unit: fc.constantFrom(...'{}[],:"\\ \n\t0123456789-+.eEtrufalsn\u0000x'), maxLength: 30 })), (text: string) => {
          tally.add('JSON position');
          let v8: Error | undefined;
          try {
            JSON.parse(text);
          } catch (error) {
            v8 = error as Error;
          }
          const offset = jsonErrorOffset(text);
          if (!v8) {
            expect(offset, JSON.stringify(text)).toBeUndefined();
            return;
          }
          expect(offset, JSON.stringify(text)).toBeDefined();
          const position = /at position (\d+)/.exec(v8.message)?.[1];
          if (position !== undefined) expect(offset, `${JSON.stringify(text)}: ${v8.message}`).toBe(Number(position));
          if (/Unexpected end of JSON input/.test(v8.message)) expect(offset).toBe(text.length);
        }),
        fuzzParameters(2000),
      );
    },
    timeoutOf(2_000),
  );

  it('examples: where the JSON stops, in lines and columns', () => {
    expect(jsonErrorOffset('{"a":}')).toBe(5);
    expect(jsonErrorOffset('[1,2')).toBe(4);
    expect(jsonErrorOffset('{"a":1}x')).toBe(7);
    expect(jsonErrorOffset('{"a":01}')).toBe(6);
    expect(jsonErrorOffset('{"a":"\u0001"}')).toBe(6);
    expect(jsonErrorOffset('{"a": [1, 2]}')).toBeUndefined();
    expect(jsonErrorOffset('\uFEFF{}')).toBe(0);
    expect(lineAndColumn('{\n"a":\n[1,,2]}', jsonErrorOffset('{\n"a":\n[1,,2]}')!)).toEqual({ line: 3, column: 4 });
    expect(jsonErrorOffset(`${'['.repeat(1_000_000)}`)).toBe(1_000_000);
  });
});

/** Bytes written on one connection as they are; everything the server answered until it closed (or `waitMs` passed). */
function rawExchange(bytes: string, waitMs = 1_500): Promise<string> {
  const { hostname, port } = new URL(serve.url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let answer = '';
    const timer = setTimeout(() => socket.end(), waitMs);
    socket.setEncoding('latin1').on('data', (chunk: string) => (answer += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(answer);
    });
    socket.write(bytes);
  });
}

describe('counterexamples the properties found (kept as plain examples)', () => {
  it('answers a method Node does not know (BREW) with a 400 ProblemDetail, not a bare 400 without a body', async () => {
    const sent: Sent = { method: 'BREW', path: '/v1/shipper/quote', headers: { 'content-type': 'application/json' }, body: '{}' };
    const answer = await send(sent);
    expect(answer).toMatchObject({ status: 400, contentType: 'application/problem+json; charset=utf-8' });
    expect(expectWellFormed(answer, sent)).toMatchObject({ type: 'urn:shipper:problem:bad-request', title: 'Bad Request', status: 400 });
    // A HEAD whose request line is what failed gets the head of that answer only.
    const head = await rawExchange('HEAD ?limit=0 HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\ncontent-type: application\/problem\+json; charset=utf-8\r\ncontent-length: \d+\r\n/);
    expect(head.endsWith('\r\n\r\n')).toBe(true);
  });

  it('reads and drops a body the answer did not need, so the answer arrives and the connection serves the next request', async () => {
    // Before: `connection: close` with the body unread; closing reset the connection, and the
    // client's side could drop the 405 before reading it.
    const answer = await rawExchange(
      'OPTIONS /v1/shipper/quote/x HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n[]' +
        'GET /v1/shipper/bol-templates HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
    expect(answer).toMatch(/\r\n\r\n\{"type":"urn:shipper:problem:method-not-allowed".*\}HTTP\/1\.1 200 OK\r\n/s);
  });

  it("answers malformed JSON with where it stops, not with V8's message that quotes the body", async () => {
    // Before: `the request body is not valid JSON: Unexpected token '\u001b', "\u001b[2J{"a":1}" is not valid JSON`.
    const sent: Sent = { method: 'POST', path: '/v1/shipper/quote', headers: { 'content-type': 'application/json' }, body: '{\n  "pickupAddress": \u001b[2J{"a":1}' };
    const problem = expectWellFormed(await send(sent), sent) as Json;
    expect(problem).toMatchObject({ status: 400, title: 'Malformed JSON', detail: 'the request body is not valid JSON (line 2, column 20)' });
    const cut: Sent = { ...sent, body: '{"pickupAddress": {"zipCode": "606' };
    expect((expectWellFormed(await send(cut), cut) as Json).detail).toBe('the request body is not valid JSON: it ends before the JSON is complete (line 1, column 35)');
  });
});

/** A Quote or Shipment answer without the call's warnings (a list's items carry none). */
function withoutWarnings<T extends { warnings?: unknown }>(answer: T): Omit<T, 'warnings'> {
  const { warnings: _warnings, ...resource } = answer;
  return resource;
}

function freightCheckOf(warnings: Warning[] | undefined): Warning[] {
  return (warnings ?? []).filter((item) => isFreightCheckCode(item.code));
}
