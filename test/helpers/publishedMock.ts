/**
 * The published Oway Shipper API document (reference/oway-shipper-api.openapi.json) as a real
 * HTTP server on a free loopback port, judged by openapi-backend, a validator we did not write:
 *
 * - startPublishedMock(): validates every request against the document and answers from its
 *   examples and schemas (mockResponseForOperation); a request that breaks it gets a 400
 *   ProblemDetail listing the errors; a route the document does not have, a 404.
 * - startPublishedProxy(target): forwards every request to `target` (an origin such as
 *   `shipper serve`'s URL; a path in it is not kept), passes its answer back unchanged and
 *   validates both the request and the answer (status, media type, body) against the document.
 *
 * Both take { closed: true } (PublishedOptions) and record each exchange in `requests`.
 * openapi-backend refuses a query parameter the operation does not declare. The document
 * declares its two credentials (securitySchemes: a Bearer token from POST /v1/auth/token and the
 * `x-oway-api-key` header, each described as required) without a `security` requirement that a
 * validator could read, so they are checked here, by hand, on every operation but getToken.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { OpenAPIBackend, type Document, type Operation } from 'openapi-backend';
import addFormatsModule from 'ajv-formats';

export const PUBLISHED_DOCUMENT_PATH = join(import.meta.dirname, '..', '..', 'reference', 'oway-shipper-api.openapi.json');

/** One exchange as the published document judges it. */
export interface WireExchange {
  method: string;
  /** The path as requested, without the query. */
  path: string;
  /** The published operation the request matched, or null (the document has no such route). */
  operationId: string | null;
  /** What is wrong with the request, one sentence each ('/requestBody must have required property ...'). */
  requestErrors: string[];
  /** What is wrong with the answer (undocumented status, media type or body). */
  responseErrors: string[];
  status: number;
  /** The request's headers as they came (names in lower case). */
  headers: IncomingHttpHeaders;
  /** The request's body as the client sent it (UTF-8 text), empty without one. */
  body: string;
}

export interface PublishedServer {
  url: string;
  requests: WireExchange[];
  close(): Promise<void>;
}

// ajv-formats is CommonJS with an `exports.default`; under NodeNext its default import is the module object.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: unknown) => void;

export interface PublishedOptions {
  /**
   * Objects closed: a property the document does not name is an error, in a request body and in an
   * answer. The published schemas allow any other property and require none in their answers, so
   * without this an answer with `priceCents` instead of `quotedPriceInCents` passes.
   */
  closed?: boolean;
}

const loaded = new Map<boolean, Promise<OpenAPIBackend>>();

/** The document under openapi-backend (closed or as published), loaded once per worker. */
export function publishedApi(options: PublishedOptions = {}): Promise<OpenAPIBackend> {
  const closed = options.closed ?? false;
  if (!loaded.has(closed)) loaded.set(closed, load(closed));
  return loaded.get(closed)!;
}

async function load(closed: boolean): Promise<OpenAPIBackend> {
  const definition = JSON.parse(readFileSync(PUBLISHED_DOCUMENT_PATH, 'utf8')) as Document;
  if (closed) close(definition);
  const api = new OpenAPIBackend({
    definition,
    // Without quick, init() validates the document and refuses it: the carrier schemas write exclusiveMaximum as a number (OpenAPI 3.1's form) in a 3.0.1 document.
    quick: true,
    ajvOpts: { allErrors: true },
    customizeAjv: (ajv) => {
      addFormats(ajv); // date-time, email, uri... (int32 and int64 stay unknown formats, ignored)
      return ajv;
    },
  });
  await api.init();
  return api;
}

/** additionalProperties: false on every schema that lists properties and says nothing of others (the document has no allOf, oneOf or anyOf). */
function close(node: unknown): void {
  if (typeof node !== 'object' || node === null) return;
  const schema = node as Record<string, unknown>;
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'example' || key === 'examples') continue;
    if (key === 'properties' && typeof value === 'object' && value !== null) Object.values(value).forEach(close);
    else close(value);
  }
  if (typeof schema.properties === 'object' && schema.properties !== null && schema.additionalProperties === undefined) schema.additionalProperties = false;
}

export interface MockOptions {
  /**
   * An operation's example answer changed as the service would answer it (by operationId): the
   * published example of createShipment is CONFIRMED, while the service creates INITIALIZED.
   * The result is still the published schema's (a test can check it with the proxy).
   */
  amend?: Record<string, (example: unknown) => unknown>;
  /** An operation the service refuses (by operationId), with this ProblemDetail (its status the answer's). */
  refuse?: Record<string, { status: number; title: string; detail: string; reason?: string; violations?: Array<{ field: string; reason: string }> }>;
}

/** Starts the mock: the published document's examples, behind its request validation. */
export function startPublishedMock(options: PublishedOptions & MockOptions = {}): Promise<PublishedServer> {
  return listen(
    options,
    async (api, incoming, operation, requestErrors) => {
      if (!operation) return answer(404, problem(404, 'Not Found', `no operation of the published document is ${incoming.method} ${incoming.path}`));
      if (requestErrors.length > 0) return answer(400, problem(400, 'Bad Request', requestErrors.join('; ')));
      const { status, mock } = api.mockResponseForOperation(operation.operationId!);
      const refusal = options.refuse?.[operation.operationId!];
      if (refusal) return answer(refusal.status, refusal);
      const amend = options.amend?.[operation.operationId!];
      const body = amend && mock !== undefined ? amend(mock) : mock;
      return body === undefined ? { status, contentType: undefined, body: Buffer.alloc(0) } : answer(status, body);
    },
    false,
  );
}

/** Starts a validating proxy in front of `target` (a base URL such as `shipper serve`'s). */
export function startPublishedProxy(target: string, options: PublishedOptions = {}): Promise<PublishedServer> {
  return listen(
    options,
    async (_api, incoming) => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(incoming.headers)) {
        if (value === undefined || HOP_BY_HOP.has(name)) continue;
        for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
      }
      const response = await fetch(new URL(incoming.url, target), {
        method: incoming.method,
        headers,
        body: incoming.body.length > 0 ? incoming.body : undefined,
        redirect: 'manual',
      });
      return {
        status: response.status,
        contentType: response.headers.get('content-type') ?? undefined,
        body: Buffer.from(await response.arrayBuffer()),
        headers: response.headers,
      };
    },
    true,
  );
}

interface Incoming {
  method: string;
  url: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

interface Outgoing {
  status: number;
  contentType: string | undefined;
  body: Buffer;
  headers?: Headers;
}

type Responder = (api: OpenAPIBackend, incoming: Incoming, operation: Operation | undefined, requestErrors: string[]) => Promise<Outgoing>;

const HOP_BY_HOP = new Set(['host', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'upgrade', 'proxy-connection', 'te', 'trailer']);

/** judgeAnswers: the proxy's answers come from the target and are validated; the mock's come from the document itself. */
async function listen(options: PublishedOptions, respond: Responder, judgeAnswers: boolean): Promise<PublishedServer> {
  const api = await publishedApi(options);
  const requests: WireExchange[] = [];

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      // A fault of the harness itself is an answer the test sees, not a hang.
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`published-wire harness: ${String(error)}`);
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = req.url ?? '/';
    const incoming: Incoming = { method: req.method ?? 'GET', url, path: url.split('?')[0]!, headers: req.headers, body: Buffer.concat(chunks) };
    const exchange: WireExchange = {
      method: incoming.method,
      path: incoming.path,
      operationId: null,
      requestErrors: [],
      responseErrors: [],
      status: 0,
      headers: req.headers,
      body: incoming.body.toString('utf8'),
    };
    requests.push(exchange);

    const request = {
      method: incoming.method,
      path: incoming.path,
      query: url.includes('?') ? url.slice(url.indexOf('?') + 1) : '',
      headers: incoming.headers as Record<string, string | string[]>,
      body: incoming.body.length > 0 ? incoming.body.toString('utf8') : undefined,
    };
    const operation = api.matchOperation(request);
    exchange.operationId = operation?.operationId ?? null;
    if (operation) exchange.requestErrors.push(...checkRequest(api, operation, request));
    else exchange.requestErrors.push(`no operation of the published document is ${incoming.method} ${incoming.path}`);

    let outgoing: Outgoing;
    try {
      outgoing = await respond(api, incoming, operation, exchange.requestErrors);
    } catch (error) {
      // The target did not answer (refused, reset): a 502 the test sees, and an error it can read.
      const cause = (error as { cause?: unknown }).cause;
      exchange.responseErrors.push(`no answer: ${String(error)}${cause ? ` (${String(cause)})` : ''}`);
      exchange.status = 502;
      res.writeHead(502, { 'content-type': 'text/plain' }).end(exchange.responseErrors[0]);
      return;
    }
    exchange.status = outgoing.status;
    if (operation && judgeAnswers) exchange.responseErrors.push(...checkResponse(api, operation, outgoing));

    const headers: Record<string, string> = {};
    outgoing.headers?.forEach((value, name) => {
      if (!HOP_BY_HOP.has(name) && name !== 'content-encoding') headers[name] = value;
    });
    if (outgoing.contentType) headers['content-type'] = outgoing.contentType;
    res.writeHead(outgoing.status, headers);
    res.end(outgoing.body);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

type ValidatedRequest = { method: string; path: string; query: string; headers: Record<string, string | string[]>; body: string | undefined };

function checkRequest(api: OpenAPIBackend, operation: Operation, request: ValidatedRequest): string[] {
  const errors = (api.validateRequest(request, operation).errors ?? []).map(describe);
  const contentType = mediaType(header(request.headers, 'content-type'));
  const documented = Object.keys((operation.requestBody as { content?: object } | undefined)?.content ?? {});
  if (request.body !== undefined && documented.length > 0 && !documented.some((type) => mediaTypeMatches(type, contentType))) {
    errors.push(`content-type ${contentType ?? '(none)'} is not one the document accepts (${documented.join(', ')})`);
  }
  if (operation.operationId !== 'getToken') {
    if (!/^Bearer \S+$/i.test(header(request.headers, 'authorization') ?? ''))
      errors.push('header authorization must be "Bearer <token from POST /v1/auth/token>" (securitySchemes.bearerAuth)');
    if (!header(request.headers, 'x-oway-api-key')) errors.push('header x-oway-api-key is required (securitySchemes.apiKey)');
  }
  return errors;
}

function checkResponse(api: OpenAPIBackend, operation: Operation, outgoing: Outgoing): string[] {
  const { operationId } = operation;
  const responses = (operation.responses ?? {}) as Record<string, { content?: Record<string, unknown> }>;
  const documented = responses[String(outgoing.status)] ?? responses[`${String(outgoing.status)[0]}XX`] ?? responses.default;
  if (!documented) return [`status ${outgoing.status} is not documented for ${operationId} (${Object.keys(responses).join(', ')})`];
  const types = Object.keys(documented.content ?? {});
  if (types.length === 0) return outgoing.body.length > 0 ? [`status ${outgoing.status} of ${operationId} is documented without a body, and one came`] : [];
  const contentType = mediaType(outgoing.contentType);
  if (!types.some((type) => mediaTypeMatches(type, contentType)))
    return [`content-type ${contentType ?? '(none)'} is not documented for ${operationId} ${outgoing.status} (${types.join(', ')})`];
  if (!contentType?.endsWith('json')) return [];
  let body: unknown;
  try {
    body = JSON.parse(outgoing.body.toString('utf8'));
  } catch {
    return [`the body of ${operationId} ${outgoing.status} is not JSON`];
  }
  return (api.validateResponse(body, operation, outgoing.status).errors ?? []).map(describe);
}

/** An Ajv error as one sentence that names its field: '/requestBody/pickupAddress must have required property 'zipCode''. */
function describe(error: { instancePath?: string; message?: string; params?: unknown }): string {
  const { allowedValues, additionalProperty } = (error.params ?? {}) as { allowedValues?: unknown[]; additionalProperty?: string };
  const which = allowedValues ? `: ${allowedValues.join(', ')}` : additionalProperty ? `: ${additionalProperty}` : '';
  return `${error.instancePath || '/'} ${error.message ?? 'is invalid'}${which}`;
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function mediaType(contentType: string | undefined): string | undefined {
  return contentType?.split(';')[0]!.trim().toLowerCase() || undefined;
}

function mediaTypeMatches(documented: string, actual: string | undefined): boolean {
  if (documented === '*/*') return true;
  if (!actual) return false;
  const [type, subtype] = documented.toLowerCase().split('/');
  const [actualType, actualSubtype] = actual.split('/');
  return (type === '*' || type === actualType) && (subtype === '*' || subtype === actualSubtype);
}

function problem(status: number, title: string, detail: string): object {
  return { type: 'about:blank', title, status, detail };
}

function answer(status: number, body: unknown): Outgoing {
  return { status, contentType: 'application/json', body: Buffer.from(JSON.stringify(body)) };
}
