/**
 * RemoteApi: the ShipperApi over HTTP with undici, against `shipper serve` or any server that
 * speaks the Shipper Freight API. Loaded only in remote mode (undici costs ~95 ms to import).
 *
 * - One keep-alive connection pool per process, with connect, header and body timeouts.
 * - Retries with exponential backoff and full jitter on connection failures, 429 and 503
 *   (waiting what Retry-After says): always for GETs, for POSTs only because every POST carries
 *   an Idempotency-Key, so a retried POST cannot book twice on a server that honours the key.
 *   A timeout after the request reached the server is not retried: a slow server gets no more load.
 * - Answers are checked against the same zod schemas the local engine uses: a server that answers
 *   garbage is a RemoteError (exit 3), and ProblemDetails become the same ProblemError as locally.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { z } from 'zod';
import {
  bolTemplateInfoSchema,
  pageSchema,
  problemDetailSchema,
  quoteSchema,
  shipmentBatchResultSchema,
  shipmentPreviewResultSchema,
  shipmentSchema,
  transitTableSchema,
  type Page,
  type ProblemDetail,
  type Quote,
  type Shipment,
  type TransitTable,
} from '../domain/schemas.js';
import { MAX_BATCH_COMPONENTS } from '../domain/limits.js';
import { formatFieldPath } from '../domain/validation.js';
import { PROBLEM_TYPE_BASE, ProblemError, RemoteError } from './problems.js';
import { bookShipmentsOneByOne, previewShipmentsOneByOne } from './batch.js';
import type { ApiResult, BatchOutcome, BolTemplateInfo, ListQuery, ShipmentBatchItem, ShipperApi, WriteOptions } from './types.js';
import {
  apiPaths,
  decodeHeaderText,
  DEPRECATION_HEADER,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  JSON_TYPE,
  PDF_TYPE,
  WARNING_HEADER,
} from './wire.js';

export interface RemoteApiOptions {
  baseUrl: string;
  apiKey?: string | undefined;
  /** Connect, first-byte and between-bytes timeout of one attempt. */
  timeoutMs?: number | undefined;
  /** Extra attempts after the first, for retryable failures. */
  retries?: number | undefined;
  /** First backoff step; each further attempt doubles it (capped), with full jitter. */
  retryBaseMs?: number | undefined;
  retryMaxMs?: number | undefined;
  /** A Retry-After longer than this is not waited for: the 429/503 is reported instead. */
  maxRetryAfterMs?: number | undefined;
  userAgent?: string | undefined;
  random?: () => number;
  /** How to wait between attempts (tests record the waits instead of sleeping). */
  sleep?: (ms: number) => Promise<unknown>;
}

type Method = 'GET' | 'POST';

interface Exchange {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** Connection-level failures: the request may not have reached the server, so trying again is safe. */
const RETRYABLE_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);
const RETRYABLE_STATUSES = new Set([429, 503]);
const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

const bolTemplateListSchema = z.object({ items: z.array(bolTemplateInfoSchema) });
const quotePageSchema = pageSchema(quoteSchema);
const shipmentPageSchema = pageSchema(shipmentSchema);

export class RemoteApi implements ShipperApi {
  readonly mode = 'remote' as const;
  private readonly baseUrl: string;
  private readonly origin: string;
  private readonly agent: Agent;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly retryBaseMs: number;
  private readonly retryMaxMs: number;
  private readonly maxRetryAfterMs: number;
  private readonly random: () => number;
  private readonly sleep: (ms: number) => Promise<unknown>;

  constructor(private readonly options: RemoteApiOptions) {
    const url = new URL(options.baseUrl);
    this.baseUrl = url.href.replace(/\/+$/, '');
    this.origin = url.origin;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.retries = options.retries ?? 2;
    this.retryBaseMs = options.retryBaseMs ?? 250;
    this.retryMaxMs = options.retryMaxMs ?? 4_000;
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? 30_000;
    this.random = options.random ?? Math.random;
    this.sleep = options.sleep ?? sleep;
    this.agent = new Agent({
      connect: { timeout: Math.min(this.timeoutMs, 10_000) },
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
      keepAliveTimeout: 10_000,
      maxResponseSize: MAX_RESPONSE_BYTES,
    });
  }

  async createQuote(body: unknown, options: WriteOptions = {}): Promise<ApiResult<Quote>> {
    return this.json('POST', apiPaths.quotes, quoteSchema, 'a quote', { body, idempotencyKey: options.idempotencyKey });
  }

  async getQuote(id: string): Promise<ApiResult<Quote>> {
    return this.json('GET', apiPaths.quote(id), quoteSchema, 'a quote');
  }

  async listQuotes(query: ListQuery = {}): Promise<ApiResult<Page<Quote>>> {
    return this.json('GET', apiPaths.quotes, quotePageSchema, 'a page of quotes', { query: pageQuery(query) });
  }

  async createShipment(body: unknown, options: WriteOptions = {}): Promise<ApiResult<Shipment>> {
    return this.json('POST', apiPaths.shipments, shipmentSchema, 'a shipment', { body, idempotencyKey: options.idempotencyKey });
  }

  async getShipment(id: string): Promise<ApiResult<Shipment>> {
    return this.json('GET', apiPaths.shipment(id), shipmentSchema, 'a shipment');
  }

  async listShipments(query: ListQuery = {}): Promise<ApiResult<Page<Shipment>>> {
    return this.json('GET', apiPaths.shipments, shipmentPageSchema, 'a page of shipments', { query: pageQuery(query) });
  }

  async renderBol(id: string, options: { template?: string | undefined } = {}): Promise<ApiResult<Uint8Array>> {
    const path = apiPaths.bol(id);
    const exchange = await this.exchange('GET', path, { query: options.template ? { template: options.template } : {}, accept: PDF_TYPE });
    if (!isSuccess(exchange.status)) throw this.failure('GET', path, exchange);
    if (mediaType(exchange.headers) !== PDF_TYPE || exchange.body.subarray(0, 5).toString('latin1') !== '%PDF-') {
      throw new RemoteError(`${this.origin} answered GET ${path} with something that is not a PDF`);
    }
    return { data: new Uint8Array(exchange.body), warnings: warningsOf(exchange.headers) };
  }

  async listBolTemplates(): Promise<ApiResult<BolTemplateInfo[]>> {
    const { data, warnings } = await this.json('GET', apiPaths.bolTemplates, bolTemplateListSchema, 'a list of BOL templates');
    return { data: data.items, warnings };
  }

  async transitTimes(body: unknown): Promise<ApiResult<TransitTable>> {
    return this.json('POST', apiPaths.transit, transitTableSchema, 'a transit table', { body });
  }

  /**
   * Books through the batch extension (POST /v1/shipper/shipment-batch): requests of up to 100
   * shipments, one after another, so the server numbers them in the caller's order and takes its
   * lock once per request. A server without the extension (404/405/501 on the first request) gets
   * one POST /v1/shipper/shipment per item instead. Every item carries a key (the caller's, or a
   * fresh one), so retrying a batch request cannot book an item twice.
   */
  async createShipments(items: ShipmentBatchItem[]): Promise<Array<BatchOutcome<Shipment>>> {
    const keyed = items.map((item) => ({ request: item.request, idempotencyKey: item.idempotencyKey ?? randomUUID() }));
    const outcomes = await this.inBatches(apiPaths.shipmentBatch, keyed, shipmentBatchResultSchema, 'shipment batch results');
    return outcomes ?? bookShipmentsOneByOne(this, keyed);
  }

  /** Prices without booking through POST /v1/shipper/shipment-preview; else one quote per shipment. */
  async previewShipments(requests: unknown[]): Promise<Array<BatchOutcome<Quote>>> {
    const outcomes = await this.inBatches(apiPaths.shipmentPreview, requests.map((request) => ({ request })), shipmentPreviewResultSchema, 'shipment preview results');
    return outcomes ?? previewShipmentsOneByOne(this, requests);
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  // ---------------------------------------------------------------------------------------------

  /** Per batch path: false once the server answered that it has no such route. */
  private readonly batchExtensions = new Map<string, boolean>();

  /** Sends items in order, in requests of at most BATCH_REQUEST_ITEMS and about BATCH_REQUEST_BYTES; undefined: no such extension. */
  private async inBatches<S extends z.ZodType<{ items: unknown[] }>>(
    path: string,
    items: unknown[],
    schema: S,
    what: string,
  ): Promise<Array<z.output<S>['items'][number]> | undefined> {
    if (this.batchExtensions.get(path) === false) return undefined;
    const outcomes: Array<z.output<S>['items'][number]> = [];
    for (const part of requestParts(items)) {
      const exchange = await this.exchange('POST', path, { bodyText: `{"items":[${part.join(',')}]}`, accept: JSON_TYPE });
      if (outcomes.length === 0 && !this.batchExtensions.has(path)) {
        const unsupported = exchange.status === 404 || exchange.status === 405 || exchange.status === 501;
        this.batchExtensions.set(path, !unsupported);
        if (unsupported) return undefined;
      }
      if (!isSuccess(exchange.status)) throw this.failure('POST', path, exchange);
      const { data } = this.parseAnswer('POST', path, exchange, schema, what);
      if (data.items.length !== part.length) {
        throw new RemoteError(`${this.origin} answered POST ${path} with ${data.items.length} results for ${part.length} items`);
      }
      outcomes.push(...data.items);
    }
    return outcomes;
  }

  private async json<S extends z.ZodType>(
    method: Method,
    path: string,
    schema: S,
    what: string,
    options: { body?: unknown; idempotencyKey?: string | undefined; query?: Record<string, string> } = {},
  ): Promise<ApiResult<z.output<S>>> {
    const exchange = await this.exchange(method, path, { ...options, accept: JSON_TYPE });
    if (!isSuccess(exchange.status)) throw this.failure(method, path, exchange);
    return this.parseAnswer(method, path, exchange, schema, what);
  }

  /** A 2xx JSON answer checked against the schema the local engine answers with. */
  private parseAnswer<S extends z.ZodType>(method: Method, path: string, exchange: Exchange, schema: S, what: string): ApiResult<z.output<S>> {
    let json: unknown;
    try {
      json = JSON.parse(exchange.body.toString('utf8'));
    } catch {
      throw new RemoteError(`${this.origin} answered ${method} ${path} with something that is not JSON (HTTP ${exchange.status}); is ${this.baseUrl} a Shipper Freight API?`);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new RemoteError(`${this.origin} answered ${method} ${path} with JSON that is not ${what} (${formatFieldPath(issue.path)}: ${issue.message})`);
    }
    const result: ApiResult<z.output<S>> = { data: parsed.data, warnings: warningsOf(exchange.headers) };
    if (method === 'POST') result.replayed = exchange.headers[IDEMPOTENT_REPLAYED_HEADER] === 'true';
    return result;
  }

  /** One request, retried as the module comment says; resolves with any HTTP answer. */
  private async exchange(
    method: Method,
    path: string,
    options: { body?: unknown; bodyText?: string; idempotencyKey?: string | undefined; query?: Record<string, string>; accept: string },
  ): Promise<Exchange> {
    const search = new URLSearchParams(options.query ?? {}).toString();
    const url = `${this.baseUrl}${path}${search ? `?${search}` : ''}`;
    const headers: Record<string, string> = { accept: `${options.accept}, application/problem+json;q=0.9`, 'user-agent': this.options.userAgent ?? 'shipper' };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    let body: string | undefined;
    if (method === 'POST') {
      body = options.bodyText ?? JSON.stringify(options.body ?? null);
      headers['content-type'] = `${JSON_TYPE}; charset=utf-8`;
      // Every POST carries a key: the one the caller chose, or a fresh one for this call, so that
      // the retries of this call are the same request to the server.
      headers[IDEMPOTENCY_KEY_HEADER] = options.idempotencyKey ?? randomUUID();
    }

    for (let attempt = 0; ; attempt++) {
      const canRetry = attempt < this.retries;
      try {
        const response = await request(url, { dispatcher: this.agent, method, headers, body });
        if (canRetry && RETRYABLE_STATUSES.has(response.statusCode)) {
          const wait = retryAfterMs(response.headers['retry-after']) ?? this.backoff(attempt);
          if (wait <= this.maxRetryAfterMs) {
            await response.body.dump();
            await this.sleep(wait);
            continue;
          }
        }
        const bytes = Buffer.from(await response.body.arrayBuffer());
        return { status: response.statusCode, headers: response.headers, body: bytes };
      } catch (error) {
        const code = errorCode(error);
        if (canRetry && code !== undefined && RETRYABLE_ERROR_CODES.has(code)) {
          await this.sleep(this.backoff(attempt));
          continue;
        }
        throw this.networkError(error, method, path, attempt + 1);
      }
    }
  }

  /** Full jitter: a random wait between 0 and the exponential step. */
  private backoff(attempt: number): number {
    return Math.round(this.random() * Math.min(this.retryMaxMs, this.retryBaseMs * 2 ** attempt));
  }

  private networkError(error: unknown, method: Method, path: string, attempts: number): RemoteError {
    const code = errorCode(error);
    const tries = attempts > 1 ? ` (${attempts} attempts)` : '';
    const seconds = `${formatSeconds(this.timeoutMs)}`;
    const host = new URL(this.origin).host;
    switch (code) {
      case 'ECONNREFUSED':
        return new RemoteError(`cannot reach ${this.origin}: connection refused${tries}; is the server running?`);
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
        return new RemoteError(`cannot reach ${this.origin}: host ${host} not found`);
      case 'UND_ERR_CONNECT_TIMEOUT':
        return new RemoteError(`cannot reach ${this.origin}: no connection within ${formatSeconds(Math.min(this.timeoutMs, 10_000))}${tries}`);
      case 'UND_ERR_HEADERS_TIMEOUT':
        return new RemoteError(`${this.origin} did not answer ${method} ${path} within ${seconds} (set SHIPPER_TIMEOUT_MS to wait longer)`);
      case 'UND_ERR_BODY_TIMEOUT':
        return new RemoteError(`${this.origin} stopped sending its answer to ${method} ${path} for ${seconds}`);
      case 'UND_ERR_RES_EXCEEDED_MAX_SIZE':
        return new RemoteError(`${this.origin} answered ${method} ${path} with more than ${MAX_RESPONSE_BYTES / 1024 / 1024} MiB`);
      default: {
        const detail = error instanceof Error ? error.message : String(error);
        return new RemoteError(`${method} ${this.origin}${path} failed${tries}: ${detail}${code && !detail.includes(code) ? ` (${code})` : ''}`);
      }
    }
  }

  /** A non-2xx answer as the same ProblemError the local engine throws, when it carries one. */
  private failure(method: Method, path: string, exchange: Exchange): Error {
    const problem = problemOf(exchange);
    const { status } = exchange;
    if (status === 401 || status === 403) {
      // The server's words (e.g. "send Authorization: Bearer <key>") are for HTTP clients; a CLI user needs the flag.
      return new ProblemError({
        type: `${PROBLEM_TYPE_BASE}unauthorized`,
        title: 'Unauthorized',
        ...problem,
        status,
        detail: this.options.apiKey
          ? `${this.origin} refused the API key (HTTP ${status}); check --api-key, SHIPPER_API_KEY or the profile's apiKey (shipper config)`
          : `${this.origin} wants an API key (HTTP ${status}); pass --api-key, set SHIPPER_API_KEY or the profile's apiKey (shipper config)`,
      });
    }
    if (problem) return new ProblemError(problem);
    if (status === 404) {
      return new RemoteError(`${this.origin} has no ${method} ${path} (HTTP 404 without problem details); is ${this.baseUrl} the base URL of a Shipper Freight API?`);
    }
    return new RemoteError(`${this.origin} answered ${method} ${path} with HTTP ${status} and no problem details`);
  }
}

function pageQuery({ limit, cursor }: ListQuery): Record<string, string> {
  return { ...(limit !== undefined ? { limit: String(limit) } : {}), ...(cursor !== undefined ? { cursor } : {}) };
}

const isSuccess = (status: number) => status >= 200 && status < 300;

/** Batch requests stay well under a server's body limit (1 MiB by default for `shipper serve`). */
const BATCH_REQUEST_ITEMS = 100;
const BATCH_REQUEST_BYTES = 512 * 1024;

/** Items as JSON texts, grouped in order into request bodies; an item larger than the byte budget goes alone. */
function* requestParts(items: unknown[]): Generator<string[]> {
  let part: string[] = [];
  let bytes = 0;
  let components = 0;
  for (const item of items) {
    const text = JSON.stringify(item);
    // The server also bounds the order components of a request (MAX_BATCH_COMPONENTS).
    const own = (item as { request?: { orderComponents?: unknown } }).request?.orderComponents;
    const count = Array.isArray(own) ? own.length : 0;
    if (part.length > 0 && (part.length === BATCH_REQUEST_ITEMS || bytes + text.length > BATCH_REQUEST_BYTES || components + count > MAX_BATCH_COMPONENTS)) {
      yield part;
      part = [];
      bytes = 0;
      components = 0;
    }
    part.push(text);
    bytes += text.length + 1;
    components += count;
  }
  if (part.length > 0) yield part;
}

function header(headers: Exchange['headers'], name: string): string[] {
  const value = headers[name];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

function mediaType(headers: Exchange['headers']): string {
  return (header(headers, 'content-type')[0] ?? '').split(';')[0]!.trim().toLowerCase();
}

/** The warnings the server sent; a bare Deprecation header still becomes one. */
export function warningsOf(headers: Exchange['headers']): string[] {
  const warnings = header(headers, WARNING_HEADER).map(decodeHeaderText);
  const deprecation = header(headers, DEPRECATION_HEADER)[0];
  if (warnings.length === 0 && deprecation !== undefined) {
    warnings.push(`the server marked this request as using a deprecated feature (Deprecation: ${deprecation})`);
  }
  return warnings;
}

/** RFC 9457 body, leniently: a foreign server may leave out `type` (it defaults to about:blank). */
function problemOf(exchange: Exchange): ProblemDetail | undefined {
  const type = mediaType(exchange.headers);
  if (!type.endsWith('json')) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(exchange.body.toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof json !== 'object' || json === null) return undefined;
  const record = json as Record<string, unknown>;
  if (typeof record.title !== 'string' && typeof record.detail !== 'string') return undefined;
  const parsed = problemDetailSchema.safeParse({
    type: 'about:blank',
    title: `HTTP ${exchange.status}`,
    ...record,
    status: exchange.status,
  });
  return parsed.success ? parsed.data : undefined;
}

/** Retry-After in delay-seconds or as an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || text.trim() === '') return undefined;
  if (/^\d+$/.test(text.trim())) return Number(text.trim()) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, cause } = error as { code?: unknown; cause?: unknown };
  if (typeof code === 'string') return code;
  return cause ? errorCode(cause) : undefined;
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
