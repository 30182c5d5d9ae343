/**
 * `shipper serve`: the Shipper Freight API over HTTP, mapping each request onto a ShipperApi
 * (the local engine and store). Built on node:http: seven routes need no framework, and owning
 * the request path keeps every status code, header and ProblemDetail exactly as SPEC 3 wants
 * (413 while streaming, 415, 405 with Allow) at the cost of no dependency and no start-up time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openApiDocument } from '../api/openapi.js';
import { JSON_TYPE, mediaTypeOf, OPENAPI_PATH, operations, pathOf, PROBLEM_TYPE, type BodySpec, type OperationName, type OperationSpec } from '../api/operations.js';
import { redactDatabaseUrls } from '../config/storeLocation.js';
import { publishedAddressViolations } from '../domain/publishedAddress.js';
import { constraintViolation, internalError, makeProblem, notFound, ProblemError, ShipperError, STORE_RETRY_AFTER_SECONDS } from '../api/problems.js';
import type { ApiResult, ShipperApi } from '../api/types.js';
import {
  DEPRECATION_HEADER,
  encodeWarningHeader,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_PATTERN,
  IDEMPOTENT_REPLAYED_HEADER,
  PALLET_DIMENSIONS_DEPRECATED_AT,
  WARNING_HEADER,
  WARNINGS_IN_BODY,
} from '../api/wire.js';
import type { ProblemDetail } from '../domain/schemas.js';
import { deprecationWarnings, parseRequest } from '../domain/validation.js';
import { answerClientErrors } from './clientError.js';
import { DEFAULT_TIMEOUTS, type ServerTimeouts } from './defaults.js';
import { compose, exchangeOf, writeHead, type Exchange, type Layer } from './exchange.js';
import { malformedJsonDetail } from './jsonSyntax.js';
import { matchRoute, requestUrl, type RequestTarget } from './routes.js';
import { readUpload } from './multipart.js';
import type { Principal, ServeAuth } from './auth.js';
import { TOKEN_PATH } from '../domain/credentials.js';

export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;
export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;
/** Deeper JSON than this is no request of this API (and would cost recursion elsewhere). */
const MAX_JSON_DEPTH = 32;

export interface ShipperServerOptions {
  api: ShipperApi;
  /**
   * The engine as the caller's company sees it (issue 41 item 2), for a request that auth let in;
   * without it (or without auth) every request is served by `api`.
   */
  apiFor?: ((principal: Principal) => ShipperApi) | undefined;
  /** When set, every API request needs `Authorization: Bearer <apiKey>` (the OpenAPI document stays public). */
  apiKey?: string | undefined;
  /** The two-layer auth (issue 41): POST /v1/auth/token and the checks of every API call; over apiKey when given. */
  auth?: ServeAuth | undefined;
  bodyLimitBytes?: number;
  /** One access-log line per request; none when absent. */
  accessLog?: ((line: string) => void) | undefined;
  /** Failures inside the service (500s), for the operator; never sent to the client. */
  onInternalError?: ((error: unknown) => void) | undefined;
  /** What a damaged record's warning says (it names a file), for the operator; else the access log gets it. */
  onStoreWarning?: ((message: string) => void) | undefined;
  /** Layers around the dispatch (probes, metrics, request log), the first outermost (exchange.ts). */
  layers?: readonly Layer[] | undefined;
  timeouts?: Partial<ServerTimeouts> | undefined;
  /**
   * The server's public base URL (`https://freight.example.com`), for the links it answers (the
   * document download links); default: http:// and the Host the request named.
   */
  publicUrl?: string | undefined;
}

export interface ShipperServer {
  readonly server: Server;
  listen(port: number, host: string): Promise<AddressInfo>;
  /** From now on every answer closes its connection (a drain has begun; the server still serves). */
  drain(): void;
  /** Stops accepting, lets in-flight requests finish (up to graceMs), then closes what is left. */
  close(graceMs?: number): Promise<void>;
}

interface Reply {
  status: number;
  headers?: Record<string, string | string[]>;
  json?: unknown;
  /** A pre-serialised JSON body (the OpenAPI document). */
  text?: string;
  bytes?: Uint8Array;
  contentType?: string;
}

export function createShipperServer(options: ShipperServerOptions): ShipperServer {
  const serverLog = options.accessLog;
  const warningLog = options.onStoreWarning ?? (serverLog ? (message: string) => serverLog(`${new Date().toISOString()} warning: ${message}`) : undefined);
  const bodyLimit = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  const publicUrl = options.publicUrl;
  const expectedKeyDigest = options.apiKey ? sha256(options.apiKey) : undefined;
  let closing = false;
  let openApiText: string | undefined;

  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const serverOptions = { keepAliveTimeout: timeouts.keepAliveMs, headersTimeout: timeouts.headersMs, requestTimeout: timeouts.requestMs };
  const server = createServer(serverOptions, compose(options.layers ?? [], serveRequest));

  function serveRequest(req: IncomingMessage, res: ServerResponse): void {
    const url = requestUrl(req.url);
    // What failed inside and the body's size are the exchange's: the layers (log, metrics) read them there.
    const exchange = exchangeOf(req);
    if (options.accessLog) {
      const log = options.accessLog;
      const started = process.hrtime.bigint();
      let logged = false;
      const write = () => {
        if (logged) return;
        logged = true;
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        const status = res.writableFinished ? String(res.statusCode) : `${res.headersSent ? res.statusCode : '-'} aborted`;
        const error = exchange.failure ? ` error=${JSON.stringify(exchange.failure)}` : '';
        log(`${new Date().toISOString()} ${req.socket.remoteAddress ?? '-'} "${req.method} ${loggablePath(url)}" ${status} ${exchange.bytes ?? 0} ${ms.toFixed(1)}ms${error}`);
      };
      res.once('finish', write);
      res.once('close', write);
    }
    // One reaction for both outcomes: a chain of catch and then costs every request two more promises.
    handle(req, url).then(
      (reply) => answer(req, res, url, reply),
      (error: unknown) => answer(req, res, url, failureReply(error, exchange)),
    );
  }

  /** The reply to a request whose handling failed; what happened inside goes to the exchange (the operator's log), never to the client. */
  function failureReply(error: unknown, exchange: Exchange): Reply {
    if (error instanceof ShipperError) {
      const { problem } = error;
      if (problem.status >= 500) exchange.failure = error.internalDetail ?? problem.detail ?? problem.title;
      // The store is unavailable (its database is down): the client may come back.
      if (problem.status === 503) return { ...problemReply(problem), headers: { 'retry-after': String(STORE_RETRY_AFTER_SECONDS) } };
      return problemReply(problem);
    }
    exchange.failure = redactDatabaseUrls(error instanceof Error ? error.message : String(error));
    options.onInternalError?.(error);
    return problemReply(internalError().problem);
  }

  function answer(req: IncomingMessage, res: ServerResponse, url: RequestTarget, reply: Reply): void {
    try {
      send(req, res, url, reply);
    } catch (error) {
      // Writing failed (the client went away): nothing left to tell it.
      const exchange = exchangeOf(req);
      exchange.failure ??= error instanceof Error ? error.message : String(error);
      res.destroy();
    }
  }

  answerClientErrors(server);

  async function handle(req: IncomingMessage, url: RequestTarget): Promise<Reply> {
    if (options.auth && url.pathname === TOKEN_PATH) return tokenReply(options.auth, req);
    const match = matchRoute(req.method ?? 'GET', url.pathname, req.headers.accept);
    exchangeOf(req).operation = match.kind === 'operation' ? match.operation : match.kind;
    if (match.kind === 'not-found') throw makeProblem(404, 'not-found', 'Not Found', `no route ${req.method} ${truncateForDetail(url.pathname)}`);
    if (match.kind === 'method-not-allowed') {
      const problem = makeProblem(405, 'method-not-allowed', 'Method Not Allowed', `${req.method} is not allowed on ${url.pathname}; use ${match.allow.join(', ')}`);
      return { ...problemReply(problem.problem), headers: { allow: match.allow.join(', ') } };
    }
    if (match.kind === 'bad-id') throw notFound(match.resource, JSON.stringify(truncateForDetail(match.id)));
    if (match.kind === 'openapi') {
      openApiText ??= JSON.stringify(openApiDocument());
      return { status: 200, text: openApiText, headers: { 'cache-control': 'public, max-age=300' } };
    }

    // A signed download link carries its own credential, checked by the operation.
    if ((operations[match.operation] as OperationSpec).public) return dispatch(match.operation, match.params, req, url);
    if (options.auth) {
      const checked = options.auth.authenticate(req);
      const outcome = checked instanceof Promise ? await checked : checked;
      if (!outcome.ok) {
        const problem = outcome.status === 401 ? makeProblem(401, 'unauthorized', 'Unauthorized', outcome.detail) : makeProblem(403, 'forbidden', 'Forbidden', outcome.detail);
        return { ...problemReply(problem.problem), headers: outcome.status === 401 ? { 'www-authenticate': 'Bearer realm="shipper"' } : {} };
      }
    } else if (expectedKeyDigest && !authorized(req.headers.authorization, expectedKeyDigest)) {
      const problem = makeProblem(401, 'unauthorized', 'Unauthorized', 'missing or wrong API key: send Authorization: Bearer <key>');
      return { ...problemReply(problem.problem), headers: { 'www-authenticate': 'Bearer realm="shipper"' } };
    }
    // Awaited, not returned: an async function that returns a promise settles two microtask turns later.
    return await dispatch(match.operation, match.params, req, url);
  }

  /** Who answers a request: its company's engine once auth attached a principal, else the one engine. */
  function apiOf(req: IncomingMessage): ShipperApi {
    const principal = options.apiFor && exchangeOf(req).principal;
    return principal ? options.apiFor!(principal) : options.api;
  }

  /** POST /v1/auth/token: the published body `{error, errorDescription}` for every refusal (400 for a body that is no JSON object). */
  async function tokenReply(auth: ServeAuth, req: IncomingMessage): Promise<Reply> {
    if (req.method !== 'POST') return { status: 405, headers: { allow: 'POST' }, json: { error: 'invalid_request', errorDescription: `use POST ${TOKEN_PATH}` } };
    let body: unknown;
    try {
      body = await readJsonBody(req, bodyLimit);
    } catch (error) {
      if (!(error instanceof ProblemError)) throw error;
      return { status: error.problem.status === 413 ? 413 : 400, json: { error: 'invalid_request', errorDescription: error.problem.detail ?? error.problem.title } };
    }
    return auth.issueToken(body, req);
  }

  /**
   * Any operation, by the calling convention of ShipperApi: the path parameters, the body (JSON,
   * 415/413/400 as SPEC 3 says), then the options: query parameters (checked by the operation's
   * schema) and the Idempotency-Key where the operation honours one.
   */
  async function dispatch(name: OperationName, params: string[], req: IncomingMessage, url: RequestTarget): Promise<Reply> {
    const spec: OperationSpec = operations[name];
    const options: Record<string, unknown> = readQuery(spec, url);
    if (spec.idempotent) options.idempotencyKey = readIdempotencyKey(req);
    const body = spec.body?.multipart
      ? await readUpload(req, spec.body.multipart.field, spec.body.multipart.maxBytes)
      : spec.body
        ? await readJsonBody(req, bodyLimit, spec.body.optional)
        : undefined;
    if (spec.body?.publishedAddresses) refuseLessThanPublished(spec.body, body);
    const args: unknown[] = [...params, ...(spec.body ? [body] : []), options];
    const api = apiOf(req);
    const method = api[name] as unknown as (...args: unknown[]) => Promise<ApiResult<unknown>>;
    const result = servedWarnings(await method.apply(api, args), warningLog);
    const kept = KEPT_ANSWERS.has(name) ? keptAnswer(result) : undefined;
    if (kept) return { status: spec.response.status, headers: kept.headers, text: kept.text };
    const headers = warningHeaders(result);
    if ('mediaType' in spec.response) {
      headers['content-disposition'] = `inline; filename="${spec.response.fileName(params, options)}"`;
      return { status: spec.response.status, headers, bytes: result.data as Uint8Array, contentType: mediaTypeOf(spec.response, options) };
    }
    if (!('schema' in spec.response)) return { status: spec.response.status, headers };
    if (spec.serverLinks) {
      const base = baseUrlOf(req, publicUrl);
      const data = { ...(result.data as Record<string, unknown>) };
      for (const field of spec.serverLinks) if (typeof data[field] === 'string') data[field] = `${base}${data[field] as string}`;
      result.data = data;
    }
    if (spec.location) {
      const created = result.data as { id: string };
      headers.location = pathOf(operations[spec.location as OperationName], [created.id]);
    }
    if (result.replayed) headers[IDEMPOTENT_REPLAYED_HEADER] = 'true';
    if (body !== undefined && !spec.body?.multipart && deprecationWarnings(body).length > 0) {
      headers[DEPRECATION_HEADER] = `@${PALLET_DIMENSIONS_DEPRECATED_AT}`;
      headers.link = `<${OPENAPI_PATH}>; rel="deprecation"; type="${JSON_TYPE}"`;
    }
    // A quote or a shipment carries the call's warnings whole in its body too (wire.ts).
    const json = WARNINGS_IN_BODY.has(spec.response.id) ? { ...(result.data as object), warnings: result.warnings } : result.data;
    if (KEPT_ANSWERS.has(name)) return { status: spec.response.status, headers, text: keepAnswer(result, headers, json) };
    return { status: spec.response.status, headers, json };
  }

  /**
   * Writes the reply (its body size goes to the exchange). A JSON body goes to node:http as
   * the string it is: node:http then sends it in one write with the header block, where a Buffer
   * (a copy of the text) is a second chunk of a writev.
   */
  function send(req: IncomingMessage, res: ServerResponse, url: RequestTarget, reply: Reply): void {
    let payload: Buffer | string;
    let length: number;
    let contentType = reply.contentType ?? JSON_TYPE;
    if (reply.status === 204) {
      payload = '';
      length = 0;
    } else if (reply.bytes) {
      payload = Buffer.from(reply.bytes.buffer, reply.bytes.byteOffset, reply.bytes.byteLength);
      length = payload.byteLength;
    } else {
      const json = reply.json as ProblemDetail | undefined;
      if (contentType === PROBLEM_TYPE && json && json.instance === undefined) json.instance = url.pathname;
      payload = reply.text ?? JSON.stringify(reply.json);
      length = Buffer.byteLength(payload, 'utf8');
      contentType = `${contentType}; charset=utf-8`;
    }
    const headers: Record<string, string | string[] | number> =
      reply.status === 204
        ? { 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' }
        : { 'content-type': contentType, 'content-length': length, 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' };
    if (reply.headers) for (const name in reply.headers) headers[name] = reply.headers[name]!;
    // While shutting down, every answer closes its connection, so keep-alive clients let go; so
    // does a 413, whose body is not read further. Another answer that did not need the body (404,
    // 405, 415, 401) reads and drops it, up to the body limit: closing with unread bytes resets the
    // connection, and a reset can make the client's side drop this answer before it is read.
    if (closing || (!req.complete && reply.status === 413)) headers.connection = 'close';
    else if (!req.complete) {
      let dropped = 0;
      req.on('data', (chunk: Buffer) => {
        dropped += chunk.byteLength;
        if (dropped > bodyLimit) req.socket.destroy();
      });
      req.resume();
    }
    writeHead(req, res, reply.status, headers);
    const head = req.method === 'HEAD';
    exchangeOf(req).bytes = head ? 0 : length;
    res.end(head ? undefined : payload);
  }

  return {
    server,
    listen(port, host) {
      return new Promise((resolve, reject) => {
        const onError = (error: Error) => reject(error);
        server.once('error', onError);
        server.listen(port, host, () => {
          server.off('error', onError);
          resolve(server.address() as AddressInfo);
        });
      });
    },
    drain() {
      closing = true;
    },
    close(graceMs = DEFAULT_SHUTDOWN_GRACE_MS) {
      closing = true;
      return new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        force.unref();
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      });
    },
  };
}

// -----------------------------------------------------------------------------------------------

/** A host as a Host header may name it (a name or an address, and a port): anything else is not put in a link. */
const HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** Where links point: the configured public URL, else this server as the request reached it. */
function baseUrlOf(req: IncomingMessage, publicUrl: string | undefined): string {
  if (publicUrl) return publicUrl.replace(/\/+$/, '');
  const host = req.headers.host;
  if (host && HOST.test(host)) return `http://${host}`;
  const address = req.socket.localAddress ?? '127.0.0.1';
  return `http://${address.includes(':') ? `[${address}]` : address}:${req.socket.localPort ?? 80}`;
}

function problemReply(problem: ProblemDetail): Reply {
  return { status: problem.status, json: { ...problem }, contentType: PROBLEM_TYPE };
}

/**
 * A damaged record's warning names its place in the store (a file path): the operator's log gets
 * that, the client a sentence without it (SPEC: never a path over HTTP).
 */
function servedWarnings(result: ApiResult<unknown>, log: ((message: string) => void) | undefined): ApiResult<unknown> {
  if (!result.warnings.some((item) => item.code === 'RECORD_UNREADABLE')) return result;
  const warnings = result.warnings.map((item) => {
    if (item.code !== 'RECORD_UNREADABLE') return item;
    log?.(item.message);
    return { ...item, message: 'a damaged record of the store was left out of this answer; the server log names it' };
  });
  return { ...result, warnings };
}

/**
 * Reads whose engine answers the same object while the record and what it answers stay (a quote
 * while its bookings and status stay, quotes.ts answerOnce; a shipment while its record stays,
 * FileStore.splitStored), with the same warnings: their answer's JSON text and Warning headers
 * are made once per object and warnings (a cached GET then serializes nothing). An answer is never
 * changed once answered; a new object (the record changed, the clock turned a quote EXPIRED, a
 * company's view copied it) or other warnings make a new text.
 */
const KEPT_ANSWERS: ReadonlySet<OperationName> = new Set(['getQuote', 'getShipment']);
const keptAnswers = new WeakMap<object, { warnings: ApiResult<unknown>['warnings']; headers: Record<string, string | string[]>; text: string }>();

function keptAnswer(result: ApiResult<unknown>): { headers: Record<string, string | string[]>; text: string } | undefined {
  if (typeof result.data !== 'object' || result.data === null) return undefined;
  const kept = keptAnswers.get(result.data);
  if (!kept || kept.warnings.length !== result.warnings.length) return undefined;
  for (let index = 0; index < kept.warnings.length; index++) if (kept.warnings[index] !== result.warnings[index]) return undefined;
  return kept;
}

function keepAnswer(result: ApiResult<unknown>, headers: Record<string, string | string[]>, json: unknown): string {
  const text = JSON.stringify(json);
  if (typeof result.data === 'object' && result.data !== null) keptAnswers.set(result.data, { warnings: [...result.warnings], headers, text });
  return text;
}

function warningHeaders(result: ApiResult<unknown>): Record<string, string | string[]> {
  return result.warnings.length > 0 ? { [WARNING_HEADER]: result.warnings.map(encodeWarningHeader) } : {};
}

export function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** Compares digests with timingSafeEqual: equal lengths, and the time taken says nothing about the key. */
export function authorized(header: string | undefined, expectedDigest: Buffer): boolean {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header ?? '');
  const presented = sha256(match?.[1] ?? '');
  return timingSafeEqual(presented, expectedDigest) && match !== null;
}

function isJsonMediaType(header: string | undefined): boolean {
  if (!header) return false;
  // What nearly every client sends: no parameters to read.
  if (header === JSON_TYPE) return true;
  const [type, ...parameters] = header.split(';').map((part) => part.trim().toLowerCase());
  if (type !== JSON_TYPE && !/^application\/[a-z0-9.+-]+\+json$/.test(type ?? '')) return false;
  const charset = parameters.find((parameter) => parameter.startsWith('charset='));
  return charset === undefined || /^charset="?utf-8"?$/.test(charset);
}

/** The request body as JSON: 415 when it is not JSON, 413 past the limit, 400 when malformed. */
async function readJsonBody(req: IncomingMessage, limit: number, optional = false): Promise<unknown> {
  // An optional body may be left out entirely (no Content-Type, no bytes).
  if (optional && !req.headers['content-type'] && (req.headers['content-length'] === undefined || req.headers['content-length'] === '0') && !req.headers['transfer-encoding']) {
    return undefined;
  }
  if (!isJsonMediaType(req.headers['content-type'])) {
    throw makeProblem(415, 'unsupported-media-type', 'Unsupported Media Type', `send the request body as ${JSON_TYPE} (got ${req.headers['content-type'] ?? 'no Content-Type'})`);
  }
  const tooLarge = () => makeProblem(413, 'payload-too-large', 'Payload Too Large', `the request body is larger than ${limit} bytes`);
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge();

  const body = await readBody(req, limit, tooLarge);
  const text = body.toString('utf8');
  const blank = text.trim() === '';
  if (blank && optional) return undefined;
  if (blank) throw makeProblem(400, 'malformed-json', 'Malformed JSON', 'the request body is empty; send a JSON object');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // Where, not V8's message: that quotes the body back.
    throw makeProblem(400, 'malformed-json', 'Malformed JSON', malformedJsonDetail(text));
  }
  if (exceedsDepth(json, MAX_JSON_DEPTH)) {
    throw makeProblem(400, 'malformed-json', 'Malformed JSON', `the request body nests deeper than ${MAX_JSON_DEPTH} levels`);
  }
  return json;
}

/**
 * On a published create the stops are the published Address (publishedAddress.ts): a stop that
 * lacks a required field is a 400 naming each, beside the body's other violations (parsed again
 * only on this path), before the engine, which takes less in process, sees it.
 */
function refuseLessThanPublished(spec: BodySpec, body: unknown): void {
  const missing = publishedAddressViolations(body, spec.publishedAddresses);
  if (missing.length === 0) return;
  const parsed = parseRequest(spec.schema, body);
  const faulted = new Set(parsed.ok ? [] : parsed.violations.map((violation) => violation.field));
  throw constraintViolation([...(parsed.ok ? [] : parsed.violations), ...missing.filter((violation) => !faulted.has(violation.field))]);
}

/**
 * Collects the body with plain listeners rather than async iteration: leaving a `for await` early
 * destroys the request, and with it the socket the 413 must still be written to.
 */
function readBody(req: IncomingMessage, limit: number, tooLarge: () => ProblemError): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) {
        cleanup();
        req.pause();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onClose = () => {
      cleanup();
      reject(new Error('the client closed the connection before sending the whole body'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

function exceedsDepth(value: unknown, budget: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (budget === 0) return true;
  for (const item of Array.isArray(value) ? value : Object.values(value)) if (exceedsDepth(item, budget - 1)) return true;
  return false;
}

function readIdempotencyKey(req: IncomingMessage): string | undefined {
  const value = req.headers[IDEMPOTENCY_KEY_HEADER];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(value)) {
    throw constraintViolation([{ field: 'Idempotency-Key', reason: 'must be 1 to 255 printable ASCII characters without spaces' }]);
  }
  return value;
}

/** Query parameters as the operation's schema reads them: unknown ones are refused, not ignored. */
function readQuery(spec: OperationSpec, url: RequestTarget): Record<string, unknown> {
  // No query string (most requests): no parameters to collect.
  const raw: Record<string, string> = url.search === '' ? {} : Object.fromEntries(url.searchParams);
  if (!spec.query) {
    const unknown = Object.keys(raw);
    if (unknown.length > 0) throw constraintViolation(unknown.map((name) => ({ field: name, reason: `unknown query parameter ${name}` })));
    return {};
  }
  const parsed = parseRequest(spec.query, raw);
  if (!parsed.ok) throw constraintViolation(parsed.violations);
  return parsed.value as Record<string, unknown>;
}

function truncateForDetail(text: string): string {
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** The path and query for the access log, with the values of secret-looking parameters hidden. */
function loggablePath(url: RequestTarget): string {
  if (!url.search) return url.pathname;
  const params = new URLSearchParams(url.search);
  for (const key of [...params.keys()]) if (/key|token|secret|passw|auth/i.test(key)) params.set(key, '***');
  return `${url.pathname}?${params.toString()}`;
}
