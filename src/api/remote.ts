/**
 * RemoteApi: the ShipperApi over HTTP with undici, against `shipper serve` or any server that
 * speaks the Shipper Freight API. Every method is derived from the operations table
 * (operations.ts): path, query, body, Idempotency-Key and the schema the answer is checked
 * against. Loaded only in remote mode (undici costs ~95 ms to import).
 *
 * - One keep-alive connection pool per process, with connect, header and body timeouts.
 * - Retries (undici's RetryAgent, with our own decision): exponential backoff with full jitter on
 *   connection failures, 408, 429, 500, 502, 503 and 504 (waiting what Retry-After says, up to a cap): always for GETs,
 *   for POSTs only when they carry an Idempotency-Key (every POST of this client does), so a
 *   retried POST cannot book twice on a server that honours the key. A timeout after the request
 *   reached the server is not retried: a slow server gets no more load.
 * - Answers are checked against the same zod schemas the local engine uses: a server that answers
 *   garbage is a RemoteError (exit 3), and ProblemDetails become the same ProblemError as locally.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, FormData, request, RetryAgent } from 'undici';
import type { z } from 'zod';
import { problemDetailSchema, type ProblemDetail, type Quote, type Shipment } from '../domain/schemas.js';
import { MAX_BATCH_COMPONENTS } from '../domain/limits.js';
import { formatFieldPath } from '../domain/validation.js';
import { JSON_TYPE, mediaTypeOf, OPERATION_NAMES, operations, pathOf, type OperationName, type OperationSpec, type UploadedFile } from './operations.js';
import { constraintViolation, PROBLEM_TYPE_BASE, ProblemError, RemoteError, UsageError } from './problems.js';
import { PUBLISHED_ANSWERS, unansweredFields } from './publishedAnswers.js';
import { hasPublishedStops, PUBLISHED_ADDRESS_FIELDS, publishedAddressViolations } from '../domain/publishedAddress.js';
import type { ApiResult, BatchOutcome, OperationMethods, ShipmentBatchItem, ShipperApi } from './types.js';
import { decodeWarningHeader, DEPRECATION_HEADER, IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER, WARNING_HEADER, WARNINGS_IN_BODY } from './wire.js';
import { distinctWarnings, warning, type Warning } from '../domain/warnings.js';
import { API_KEY_HEADER } from '../domain/credentials.js';
import { normalisePhoneNumber } from '../domain/phone.js';
import { orderDescriptionOf } from '../domain/orderDescription.js';

/** The request id header, as the server answers it and the official client sends it. */
const REQUEST_ID_HEADER = 'x-request-id';

const headerText = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value) || undefined;

export interface RemoteApiOptions {
  baseUrl: string;
  apiKey?: string | undefined;
  /**
   * Client credentials' bearer tokens (issue 41): when given, every call carries `Bearer <token>`
   * and the API key as `x-oway-api-key`; a 401 refreshes the token once and tries again.
   */
  token?: { get(): Promise<string>; refresh(stale: string): Promise<string> } | undefined;
  /**
   * The server offers the published operations alone (Oway's service): an extension of shipper
   * serve is refused before anything is sent, and answers are read in the published shape when
   * they lack shipper's own fields.
   */
  publishedOnly?: boolean | undefined;
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

interface Exchange {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** The request was sent more than once (a retry): its answer may be to a repetition of what was done. */
  retried?: boolean;
}

/** Where each state change leaves an order: a retried confirm or cancel answered "already so" is done when the order is there. */
const DONE_STATES: Partial<Record<OperationName, readonly string[]>> = {
  confirmShipment: ['CONFIRMED', 'ACCEPTED', 'ASSIGNED', 'PICKED_UP', 'IN_TRANSIT', 'DELIVERED'],
  cancelShipment: ['CANCELLED'],
};

/** Connection-level failures: the request may not have reached the server, so trying again is safe. */
const RETRYABLE_ERROR_CODES = ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT'];
/** 408, 429 and the 5xx a server or its proxy answers while busy or restarting: tried again (a POST only with its Idempotency-Key, which every POST of this client has). */
const RETRYABLE_STATUSES = [408, 429, 500, 502, 503, 504];
const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/** Batch requests stay well under a server's body limit (1 MiB by default for `shipper serve`). */
const BATCH_REQUEST_ITEMS = 100;
const BATCH_REQUEST_BYTES = 512 * 1024;
/** Requests in flight at once in the per-item fallback: enough to hide latency, few enough to be polite. */
const FALLBACK_CONCURRENCY = 8;

// Every operation is a method, made from the table in the constructor.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging -- the class gets these methods in its constructor
export interface RemoteApi extends OperationMethods {}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- see the interface above
export class RemoteApi implements ShipperApi {
  readonly mode = 'remote' as const;
  readonly publishedOnly: boolean;
  private readonly baseUrl: string;
  private readonly origin: string;
  private readonly agent: Agent;
  private readonly dispatcher: RetryAgent;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly retryBaseMs: number;
  private readonly retryMaxMs: number;
  private readonly maxRetryAfterMs: number;
  private readonly random: () => number;
  private readonly sleep: (ms: number) => Promise<unknown>;
  /** Per batch operation: false once the server answered that it has no such route. */
  private readonly batchExtensions = new Map<OperationName, boolean>();
  /** The x-request-id of every call that was sent again (set by retryDecision). */
  private readonly retriedCalls = new Set<string>();

  constructor(private readonly options: RemoteApiOptions) {
    const url = new URL(options.baseUrl);
    this.baseUrl = url.href.replace(/\/+$/, '');
    this.origin = url.origin;
    this.publishedOnly = options.publishedOnly ?? false;
    // The batch extensions are not asked for: one request per item from the start.
    if (this.publishedOnly) for (const name of ['createShipments', 'previewShipments'] as const) this.batchExtensions.set(name, false);
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
    this.dispatcher = new RetryAgent(this.agent, {
      // The decision is ours (see retryDecision); undici resends the request and keeps the last answer when we stop.
      throwOnError: false,
      maxRetries: this.retries,
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH'],
      statusCodes: RETRYABLE_STATUSES,
      errorCodes: RETRYABLE_ERROR_CODES,
      retry: (error, { state, opts }, callback) => this.retryDecision(error, state.counter, opts, callback),
    });
    for (const name of OPERATION_NAMES) {
      if (name in this) continue; // written by hand below (batches)
      Object.defineProperty(this, name, { value: (...args: unknown[]) => this.call(name, args), enumerable: false });
    }
  }

  /**
   * A quote on the published `POST /v1/shipper/quote` when both stops are published Addresses;
   * stops that are less (a ZIP code alone, a saved location without a phone) go to `serve`'s lane
   * quote (POST /v1/shipper/lane-quote), and to Oway's service, which has none, not at all.
   */
  async createQuote(...[body, options]: Parameters<ShipperApi['createQuote']>): ReturnType<ShipperApi['createQuote']> {
    if (hasPublishedStops(body)) return this.call('createQuote', [body, options]) as ReturnType<ShipperApi['createQuote']>;
    if (this.publishedOnly) throw this.lessThanPublished(body, 'quotes');
    return this.call('createLaneQuote', [body, options]) as ReturnType<ShipperApi['createQuote']>;
  }

  /**
   * An order on the published `POST /v1/shipper/shipment` when both stops are published
   * Addresses. One whose stops lack a contact or a phone (a draft the engine takes, which confirm
   * then asks for) goes to `serve` as the one item of its batch extension, with the same key; Oway's
   * service takes no such order.
   */
  async createShipment(...[body, options]: Parameters<ShipperApi['createShipment']>): ReturnType<ShipperApi['createShipment']> {
    // A server without the batch extension gets the published create, and says what it lacks itself.
    if (hasPublishedStops(body) || this.batchExtensions.get('createShipments') === false) {
      if (this.publishedOnly && !hasPublishedStops(body)) throw this.lessThanPublished(body, 'books');
      return this.call('createShipment', [body, options]) as ReturnType<ShipperApi['createShipment']>;
    }
    const item = { request: body, idempotencyKey: options?.idempotencyKey ?? randomUUID() };
    const batch = (await this.call('createShipments', [{ items: [item] }, {}])) as ApiResult<{ items: Array<BatchOutcome<Shipment>> }>;
    const [outcome] = batch.data.items;
    if (!outcome) throw new RemoteError(`${this.origin} answered a batch of one booking without its outcome`);
    if (!outcome.ok) throw ProblemError.fromAnswer(outcome.problem);
    return { data: outcome.data, warnings: [...outcome.warnings, ...batch.warnings], replayed: outcome.replayed ?? false };
  }

  /** A request Oway's service would refuse for its stops: each field each stop lacks, said before anything is sent (a 400 of this client's). */
  private lessThanPublished(body: unknown, what: 'quotes' | 'books'): ProblemError {
    return constraintViolation(
      publishedAddressViolations(body),
      `${this.origin} ${what} with the published Address on both stops (${PUBLISHED_ADDRESS_FIELDS.join(', ')}); nothing was sent`,
    );
  }

  /**
   * Books through the batch extension (POST /v1/shipper/shipment-batch): requests of up to 100
   * shipments, one after another, so the server numbers them in the caller's order and takes its
   * lock once per request. A server without the extension (404/405/501 on the first request) gets
   * one POST /v1/shipper/shipment per item instead. Every item carries a key (the caller's, or a
   * fresh one), so retrying a batch request cannot book an item twice.
   */
  async createShipments(body: { items: ShipmentBatchItem[] }): Promise<ApiResult<{ items: Array<BatchOutcome<Shipment>> }>> {
    const items = body.items.map((item) => ({ request: item.request, idempotencyKey: item.idempotencyKey ?? randomUUID(), ...(item.confirm ? { confirm: true } : {}) }));
    const batches = await this.inBatches('createShipments', items);
    if (batches) return { data: { items: batches.outcomes as Array<BatchOutcome<Shipment>> }, warnings: batches.warnings };
    const { mapInOrder } = await import('../concurrency.js');
    const single = await mapInOrder(items, FALLBACK_CONCURRENCY, async (item) => {
      const created = await outcomeOf(() => this.createShipment(item.request as never, { idempotencyKey: item.idempotencyKey }));
      return item.confirm && created.ok ? this.confirmCreated(created) : created;
    });
    return { data: { items: single }, warnings: [] };
  }

  /**
   * The batch's `confirm` where the server has no batch extension (Oway's service): the order just
   * created is confirmed with the published PUT .../confirm. A refusal leaves it created and
   * INITIALIZED, said by a NOT_CONFIRMED warning with the server's words (as the batch extension
   * does); an order the create answered as already further on (a replay) stays as it is.
   */
  private async confirmCreated(created: BatchOutcome<Shipment> & { ok: true }): Promise<BatchOutcome<Shipment>> {
    const { data: shipment } = created;
    if (shipment.orderStatus !== 'INITIALIZED') return created;
    try {
      const confirmed = await this.confirmShipment(shipment.orderNumber);
      return { ...created, data: confirmed.data, warnings: [...created.warnings, ...confirmed.warnings] };
    } catch (error) {
      const { notConfirmedWarning } = await import('../domain/confirmChecks.js');
      const violations =
        error instanceof ProblemError && (error.problem.violations ?? []).length > 0
          ? error.problem.violations!.map((violation) => ({ field: violation.field, reason: violation.reason }))
          : [{ field: 'confirm', reason: error instanceof Error ? error.message : String(error) }];
      return {
        ...created,
        warnings: [...created.warnings, notConfirmedWarning(violations, shipment.orderNumber)],
      };
    }
  }

  /**
   * Prices without booking through POST /v1/shipper/shipment-preview; on a server without it, one
   * quote per shipment (GET for a quoteId), which creates quotes on that server.
   */
  async previewShipments(body: { items: Array<{ request: unknown; confirm?: boolean | undefined }> }): Promise<ApiResult<{ items: Array<BatchOutcome<Quote>> }>> {
    const batches = await this.inBatches('previewShipments', body.items);
    if (batches) return { data: { items: batches.outcomes as Array<BatchOutcome<Quote>> }, warnings: batches.warnings };
    const [{ mapInOrder }, { quoteRequestForShipment }, { shipmentRequestSchema }, { parseRequest }, { notConfirmedWarning, requestConfirmViolations }] = await Promise.all([
      import('../concurrency.js'),
      import('../domain/shipment.js'),
      import('../domain/schemas.js'),
      import('../domain/validation.js'),
      import('../domain/confirmChecks.js'),
    ]);
    const single = await mapInOrder(body.items, FALLBACK_CONCURRENCY, async ({ request: raw, confirm }): Promise<BatchOutcome<Quote>> => {
      const parsed = parseRequest(shipmentRequestSchema, raw);
      if (!parsed.ok) return { ok: false, problem: constraintViolation(parsed.violations).problem };
      const request = parsed.value;
      // A quote request's fields are the shipment's (pickupAddress, deliveryAddress, ...): its violations name what the user wrote.
      // Whole stops as sent go to the published quote (Oway's service has no other); a lane to serve's lane quote.
      const sent = raw as Record<string, unknown>;
      const quote = hasPublishedStops(sent)
        ? { ...quoteRequestForShipment(request), pickupAddress: sent.pickupAddress, deliveryAddress: sent.deliveryAddress, orderComponents: sent.orderComponents }
        : quoteRequestForShipment(request);
      const outcome = await outcomeOf(() => (request.quoteId ? this.getQuote(request.quoteId) : this.createQuote(quote as never)));
      if (!confirm || !outcome.ok) return outcome;
      // What the confirm after the create would find, read from the request as shipper ship reads it (phones parsed as E.164).
      const violations = requestConfirmViolations(request, outcome.data.id);
      return violations.length === 0 ? outcome : { ...outcome, warnings: [...outcome.warnings, notConfirmedWarning(violations)] };
    });
    return { data: { items: single }, warnings: [] };
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }

  // ---------------------------------------------------------------------------------------------

  /** One operation by the calling convention of ShipperApi: path parameters, body, options. */
  private async call(name: OperationName, args: unknown[]): Promise<ApiResult<unknown>> {
    const spec: OperationSpec = operations[name];
    const params = args.slice(0, spec.params.length) as string[];
    const rest = args.slice(spec.params.length);
    const given = spec.body ? rest.shift() : undefined;
    // The published create requires a description: without one, the lines' own words, as the local engine gives.
    const body = name === 'createShipment' && this.publishedOnly ? withOrderDescription(given) : given;
    const { idempotencyKey, ...query } = (rest.shift() ?? {}) as Record<string, unknown>;
    const path = pathOf(spec, params);
    if (this.publishedOnly && spec.extension) throw this.notOffered(spec);
    const accept = 'mediaType' in spec.response ? mediaTypeOf(spec.response, query) : JSON_TYPE;
    const exchange = await this.exchange(spec.method, path, {
      body: spec.body?.multipart
        ? uploadForm(spec.body.multipart.field, body as UploadedFile)
        : spec.body && !(body === undefined && spec.body.optional)
          ? JSON.stringify(body ?? null, this.publishedOnly ? e164Phones : undefined)
          : undefined,
      idempotencyKey: typeof idempotencyKey === 'string' ? idempotencyKey : undefined,
      query: Object.fromEntries(
        Object.entries(query)
          .filter(([, value]) => value !== undefined)
          .map(([key, value]) => [key, String(value)]),
      ),
      accept,
    });
    if (!isSuccess(exchange.status)) {
      const done = await this.doneAlready(name, params, exchange);
      if (done) return done;
      throw this.failure(spec.method, path, exchange, spec);
    }
    if ('mediaType' in spec.response) return this.binaryAnswer(spec.method, path, exchange, accept);
    if (!('schema' in spec.response)) return { data: null, warnings: warningsOf(exchange.headers) };
    return this.parseAnswer(spec.method, path, exchange, spec.response.schema, spec.response.id);
  }

  /**
   * A confirm or cancel that was sent again and then refused (400 or 409, "already confirmed",
   * "already cancelled"): the first attempt may have done it and lost its answer. When the order
   * is now in the state asked for, that is the answer; otherwise the refusal stands.
   */
  private async doneAlready(name: OperationName, params: string[], exchange: Exchange): Promise<ApiResult<unknown> | undefined> {
    const states = DONE_STATES[name];
    if (!states || !exchange.retried || (exchange.status !== 400 && exchange.status !== 409)) return undefined;
    const current = await this.call('getShipment', params).catch(() => undefined);
    const state = (current?.data as { orderStatus?: unknown } | undefined)?.orderStatus;
    return typeof state === 'string' && states.includes(state) ? current : undefined;
  }

  /** An extension asked of a server that offers the published operations alone: said before anything is sent. */
  private notOffered(spec: OperationSpec): UsageError {
    return new UsageError(
      `${this.origin} speaks the Oway Shipper API as published, which has no ${spec.method} ${spec.path}: that is an extension of shipper serve; nothing was sent`,
      "run it locally (--local), or against a shipper serve (--base-url URL; SHIPPER_SERVICE=serve when the URL is not one of Oway's)",
    );
  }

  /**
   * A document by the download link the server gave (GET .../document/{documentType}): the link
   * is its own credential and may point at another origin (an object store), so no credential of
   * this client goes with it.
   */
  async download(link: string): Promise<Uint8Array> {
    let url: URL;
    try {
      url = new URL(link, `${this.baseUrl}/`);
    } catch {
      throw new RemoteError(`${this.origin} answered a download link that is no URL`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new RemoteError(`${this.origin} answered a download link that is not http(s): ${url.protocol}`);
    try {
      const response = await request(url, {
        dispatcher: this.dispatcher,
        method: 'GET',
        headers: { accept: 'application/pdf', 'user-agent': this.options.userAgent ?? 'shipper' },
      });
      const body = Buffer.from(await response.body.arrayBuffer());
      const exchange = { status: response.statusCode, headers: response.headers, body };
      if (!isSuccess(exchange.status)) throw this.failure('GET', url.pathname, exchange);
      if (body.subarray(0, 5).toString('latin1') !== '%PDF-') throw new RemoteError(`the download link of ${this.origin} answered something that is not a PDF`);
      return new Uint8Array(body);
    } catch (error) {
      if (error instanceof ProblemError || error instanceof RemoteError) throw error;
      throw this.networkError(error, 'GET', url.pathname, this.attemptsOf(error));
    }
  }

  /** Sends items in order, in requests of at most BATCH_REQUEST_ITEMS and about BATCH_REQUEST_BYTES; undefined: no such extension. */
  private async inBatches(name: 'createShipments' | 'previewShipments', items: unknown[]): Promise<{ outcomes: unknown[]; warnings: Warning[] } | undefined> {
    if (this.batchExtensions.get(name) === false) return undefined;
    const spec = operations[name];
    const outcomes: unknown[] = [];
    const warnings: Warning[] = [];
    for (const part of requestParts(items, this.publishedOnly ? e164Phones : undefined)) {
      const exchange = await this.exchange('POST', spec.path, { body: `{"items":[${part.join(',')}]}`, accept: JSON_TYPE });
      if (outcomes.length === 0 && !this.batchExtensions.has(name)) {
        const unsupported = exchange.status === 404 || exchange.status === 405 || exchange.status === 501;
        this.batchExtensions.set(name, !unsupported);
        if (unsupported) return undefined;
      }
      if (!isSuccess(exchange.status)) throw this.failure('POST', spec.path, exchange);
      const { data, warnings: answered } = this.parseAnswer('POST', spec.path, exchange, spec.response.schema, spec.response.id);
      if (data.items.length !== part.length) {
        throw new RemoteError(`${this.origin} answered POST ${spec.path} with ${data.items.length} results for ${part.length} items`);
      }
      outcomes.push(...data.items);
      warnings.push(...answered);
    }
    return { outcomes, warnings: distinctWarnings(warnings) };
  }

  private binaryAnswer(method: string, path: string, exchange: Exchange, expected: string): ApiResult<Uint8Array> {
    const pdfMagic = expected !== 'application/pdf' || exchange.body.subarray(0, 5).toString('latin1') === '%PDF-';
    if (mediaType(exchange.headers) !== expected || !pdfMagic) {
      throw new RemoteError(`${this.origin} answered ${method} ${path} with something that is not ${expected === 'application/pdf' ? 'a PDF' : expected}`);
    }
    return { data: new Uint8Array(exchange.body), warnings: warningsOf(exchange.headers) };
  }

  /** A 2xx JSON answer checked against the schema the local engine answers with. */
  private parseAnswer<S extends z.ZodType>(method: string, path: string, exchange: Exchange, schema: S, what: string): ApiResult<z.output<S>> {
    let json: unknown;
    try {
      json = JSON.parse(exchange.body.toString('utf8'));
    } catch {
      throw new RemoteError(`${this.origin} answered ${method} ${path} with something that is not JSON (HTTP ${exchange.status}); is ${this.baseUrl} a Shipper Freight API?`);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const published = PUBLISHED_ANSWERS[what]?.safeParse(json);
      if (published?.success) {
        const unanswered = unansweredFields(parsed.error.issues, published.data);
        // Oway's service answers the published fields alone: shown as they came, the rest named.
        if (this.publishedOnly && unanswered.length > 0) return { data: published.data as z.output<S>, warnings: warningsOf(exchange.headers), unanswered };
      }
      const issue = parsed.error.issues[0]!;
      const hint = published?.success && !this.publishedOnly ? `; if ${this.origin} is Oway's service, set SHIPPER_SERVICE=published` : '';
      throw new RemoteError(`${this.origin} answered ${method} ${path} with JSON that is not ${describe(what)} (${formatFieldPath(issue.path)}: ${issue.message})${hint}`);
    }
    const result: ApiResult<z.output<S>> = { data: parsed.data, warnings: warningsOf(exchange.headers) };
    // A quote or a shipment carries its warnings whole in the body: they win over the headers' short form.
    if (WARNINGS_IN_BODY.has(what) && typeof parsed.data === 'object' && parsed.data !== null && Array.isArray((parsed.data as { warnings?: unknown }).warnings)) {
      const { warnings, ...resource } = parsed.data as unknown as { warnings: Warning[] };
      result.data = resource as z.output<S>;
      result.warnings = warnings;
    }
    if (method === 'POST') result.replayed = exchange.headers[IDEMPOTENT_REPLAYED_HEADER] === 'true';
    return result;
  }

  /** One request (retried by the dispatcher as the module comment says); resolves with any HTTP answer. */
  private async exchange(
    method: string,
    path: string,
    options: { body?: string | FormData | undefined; idempotencyKey?: string | undefined; query?: Record<string, string>; accept: string },
  ): Promise<Exchange> {
    const search = new URLSearchParams(options.query ?? {}).toString();
    const url = `${this.baseUrl}${path}${search ? `?${search}` : ''}`;
    // One id per call, the same on its retries, so the server's log ties the attempts together.
    const requestId = randomUUID();
    const headers: Record<string, string> = {
      accept: `${options.accept}, application/problem+json;q=0.9`,
      'user-agent': this.options.userAgent ?? 'shipper',
      [REQUEST_ID_HEADER]: requestId,
    };
    const token = this.options.token;
    let bearer: string | undefined;
    if (token) {
      bearer = await token.get();
      headers.authorization = `Bearer ${bearer}`;
      if (this.options.apiKey) headers[API_KEY_HEADER] = this.options.apiKey;
    } else if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    if (method !== 'GET') {
      // A form sets its own multipart type, with its boundary.
      if (typeof options.body === 'string') headers['content-type'] = `${JSON_TYPE}; charset=utf-8`;
      // Every write carries a key: the one the caller chose, or a fresh one for this call, so that
      // the retries of this call are the same request to the server.
      headers[IDEMPOTENCY_KEY_HEADER] = options.idempotencyKey ?? randomUUID();
    }
    try {
      let response = await request(url, { dispatcher: this.dispatcher, method: method as 'GET', headers, body: options.body });
      if (response.statusCode === 401 && token && bearer !== undefined) {
        // The token expired or the server's signing key changed: one new token, one more try.
        await response.body.dump();
        const fresh = await token.refresh(bearer).catch((error: unknown) => Promise.reject(Object.assign(new Error('token refresh'), { tokenError: error })));
        headers.authorization = `Bearer ${fresh}`;
        response = await request(url, { dispatcher: this.dispatcher, method: method as 'GET', headers, body: options.body });
      }
      const bytes = Buffer.from(await response.body.arrayBuffer());
      const retried = this.retriedCalls.delete(requestId);
      return { status: response.statusCode, headers: response.headers, body: bytes, retried };
    } catch (error) {
      if (typeof error === 'object' && error !== null && 'tokenError' in error) throw error.tokenError;
      throw this.networkError(error, method, path, this.attemptsOf(error));
    }
  }

  /** Attempts made, as the retry decisions counted them (for "(3 attempts)" in messages). */
  private attempts = new WeakMap<object, number>();

  private attemptsOf(error: unknown): number {
    return typeof error === 'object' && error !== null ? (this.attempts.get(error) ?? 1) : 1;
  }

  /**
   * Whether undici sends the request again: `counter` is the number of answers or failures so
   * far. Retryable failures wait with full jitter (or Retry-After, up to its cap); POSTs only with
   * an Idempotency-Key.
   */
  private retryDecision(
    error: Error & { statusCode?: number; code?: string; headers?: Record<string, string | string[] | undefined> },
    counter: number,
    opts: { method?: string; headers?: unknown },
    callback: (error?: Error | null) => void,
  ): void {
    const give = () => {
      this.attempts.set(error, counter);
      callback(error);
    };
    if (counter > this.retries) return give();
    if (opts.method !== 'GET' && opts.method !== 'HEAD' && !hasHeader(opts.headers, IDEMPOTENCY_KEY_HEADER)) return give();
    let wait: number;
    if (error.code === 'UND_ERR_REQ_RETRY' && error.statusCode !== undefined) {
      if (!RETRYABLE_STATUSES.includes(error.statusCode)) return give();
      wait = retryAfterMs(error.headers?.['retry-after']) ?? this.backoff(counter - 1);
      if (wait > this.maxRetryAfterMs) return give();
    } else {
      const code = errorCode(error);
      if (code === undefined || !RETRYABLE_ERROR_CODES.includes(code)) return give();
      wait = this.backoff(counter - 1);
    }
    const requestId = headerValue(opts.headers, REQUEST_ID_HEADER);
    if (requestId !== undefined) this.retriedCalls.add(requestId);
    void this.sleep(wait).then(() => callback(null));
  }

  /** Full jitter: a random wait between 0 and the exponential step. */
  private backoff(attempt: number): number {
    return Math.round(this.random() * Math.min(this.retryMaxMs, this.retryBaseMs * 2 ** attempt));
  }

  private networkError(error: unknown, method: string, path: string, attempts: number): RemoteError {
    const code = errorCode(error);
    const tries = attempts > 1 ? ` (${attempts} attempts)` : '';
    const seconds = `${formatSeconds(this.timeoutMs)}`;
    const host = new URL(this.origin).host;
    switch (code) {
      // No connection at all: the request never reached the server.
      case 'ECONNREFUSED':
        return new RemoteError(`cannot reach ${this.origin}: connection refused${tries}; is the server running?`, false);
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
        return new RemoteError(`cannot reach ${this.origin}: host ${host} not found`, false);
      case 'UND_ERR_CONNECT_TIMEOUT':
        return new RemoteError(`cannot reach ${this.origin}: no connection within ${formatSeconds(Math.min(this.timeoutMs, 10_000))}${tries}`, false);
      case 'UND_ERR_HEADERS_TIMEOUT':
        return new RemoteError(`${this.origin} did not answer ${method} ${path} within ${seconds} (set SHIPPER_TIMEOUT_MS to wait longer)`);
      case 'UND_ERR_BODY_TIMEOUT':
        return new RemoteError(`${this.origin} stopped sending its answer to ${method} ${path} for ${seconds}`);
      case 'UND_ERR_RES_EXCEEDED_MAX_SIZE':
        return new RemoteError(`${this.origin} answered ${method} ${path} with more than ${MAX_RESPONSE_BYTES / 1024 / 1024} MiB`);
      case 'UND_ERR_SOCKET':
      case 'ECONNRESET':
      case 'EPIPE':
      case 'UND_ERR_REQ_RETRY':
        // undici's own words here ("other side closed", a retry's "range header" check) say nothing to a user.
        return new RemoteError(`${this.origin} broke off the connection during ${method} ${path}${tries}`);
      default: {
        const detail = error instanceof Error ? error.message : String(error);
        if (/range header|content-range/i.test(detail)) return new RemoteError(`${this.origin} broke off its answer to ${method} ${path}${tries}`);
        return new RemoteError(`${method} ${this.origin}${path} failed${tries}: ${detail}${code && !detail.includes(code) ? ` (${code})` : ''}`);
      }
    }
  }

  /** A non-2xx answer as the same ProblemError the local engine throws, when it carries one. */
  private failure(method: string, path: string, exchange: Exchange, spec?: OperationSpec): Error {
    const problem = problemOf(exchange);
    const { status } = exchange;
    const requestId = headerText(exchange.headers[REQUEST_ID_HEADER]);
    const withId = (text: string) => (requestId ? `${text} (request ${requestId})` : text);
    if (status === 401 || status === 403) {
      // The server's words (e.g. "send Authorization: Bearer <key>") are for HTTP clients; a CLI user needs the flag.
      return ProblemError.fromAnswer(
        {
          type: `${PROBLEM_TYPE_BASE}unauthorized`,
          title: 'Unauthorized',
          ...problem,
          status,
          detail: this.options.token
            ? `${this.origin} refused the client credentials or the API key (HTTP ${status}${problem?.detail ? `: ${problem.detail}` : ''}); check shipper auth status`
            : this.options.apiKey
              ? `${this.origin} refused the API key (HTTP ${status}); check --api-key, SHIPPER_API_KEY or the profile's apiKey (shipper config)`
              : `${this.origin} wants an API key (HTTP ${status}); pass --api-key, set SHIPPER_API_KEY or the profile's apiKey (shipper config)`,
        },
        requestId,
      );
    }
    // An extension without path parameters has no resource to be missing: a 404 is a server without it (Oway's service).
    if (status === 404 && spec?.extension && spec.params.length === 0) {
      return new UsageError(
        withId(`${this.origin} does not offer ${method} ${path} (HTTP 404): it is an extension of shipper serve, which the Oway Shipper API as published does not have`),
        'run it locally (--local), or against a shipper serve (--base-url URL)',
      );
    }
    if (problem) return ProblemError.fromAnswer(problem, requestId);
    if (status === 404) {
      return new RemoteError(withId(`${this.origin} has no ${method} ${path} (HTTP 404 without problem details); is ${this.baseUrl} the base URL of a Shipper Freight API?`));
    }
    return new RemoteError(withId(`${this.origin} answered ${method} ${path} with HTTP ${status} and no problem details`));
  }
}

/** "a quote" for the component `Quote`: what the answer should have been, in words. */
function describe(componentId: string): string {
  const words = componentId.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  if (words.endsWith(' page')) return `a page of ${words.slice(0, -5)}s`;
  if (words.endsWith(' list')) return `a list of ${words.slice(0, -5)}s`;
  if (words.endsWith(' result')) return `${words.slice(0, -7)} results`;
  return `${/^[aeiou]/.test(words) ? 'an' : 'a'} ${words}`;
}

/**
 * A rejection of this one item (4xx: invalid, unknown, conflicting) becomes its outcome; anything
 * else (server error, network, authentication, rate limit) concerns every item and is thrown.
 */
async function outcomeOf<T>(call: () => Promise<ApiResult<T>>): Promise<BatchOutcome<T>> {
  try {
    const result = await call();
    return { ok: true, data: result.data, warnings: result.warnings, replayed: result.replayed ?? false };
  } catch (error) {
    if (error instanceof ProblemError && error.status >= 400 && error.status < 500 && ![401, 403, 429].includes(error.status)) {
      return { ok: false, problem: error.problem };
    }
    throw error;
  }
}

const isSuccess = (status: number) => status >= 200 && status < 300;

/** A create request without description, given the freight lines' descriptions (orderDescriptionOf) when they have any. */
function withOrderDescription(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const request = body as { description?: unknown; orderComponents?: unknown };
  if (typeof request.description === 'string' && request.description.trim() !== '') return body;
  const described = Array.isArray(request.orderComponents) ? orderDescriptionOf(request.orderComponents as Array<{ description?: unknown }>) : undefined;
  return described === undefined ? body : { ...request, description: described };
}

/**
 * Phones as the published service takes them (E.164): `312-555-0100` as people type it is sent as
 * `+13125550100`, as the local engine reads it. What is no phone number goes as typed, for the
 * server's violation to name. Only to Oway's service: `shipper serve` reads phones as people type
 * them, and an Idempotency-Key's request is hashed as sent, so a file imported through serve and
 * again locally is recognised.
 */
function e164Phones(key: string, value: unknown): unknown {
  if ((key !== 'phoneNumber' && key !== 'phone') || typeof value !== 'string') return value;
  const read = normalisePhoneNumber(value, { accept: 'possible' });
  return read.ok && read.extension === null ? read.phoneNumber : value;
}

/** Items as JSON texts, grouped in order into request bodies; an item larger than the byte budget goes alone. */
function* requestParts(items: unknown[], replacer?: (key: string, value: unknown) => unknown): Generator<string[]> {
  let part: string[] = [];
  let bytes = 0;
  let components = 0;
  for (const item of items) {
    const text = JSON.stringify(item, replacer);
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

function headerValue(headers: unknown, name: string): string | undefined {
  if (Array.isArray(headers)) {
    for (let index = 0; index < headers.length; index += 2) if (String(headers[index]).toLowerCase() === name) return String(headers[index + 1]);
    return undefined;
  }
  if (typeof headers !== 'object' || headers === null) return undefined;
  const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === name);
  return entry === undefined ? undefined : String(entry[1]);
}

/** An upload as the multipart form the server reads: the one part, with the file's name and declared type. */
function uploadForm(field: string, file: UploadedFile): FormData {
  const form = new FormData();
  form.append(field, new Blob([file.content], { type: file.contentType }), file.filename);
  return form;
}

function hasHeader(headers: unknown, name: string): boolean {
  if (Array.isArray(headers)) {
    for (let index = 0; index < headers.length; index += 2) if (String(headers[index]).toLowerCase() === name) return true;
    return false;
  }
  return typeof headers === 'object' && headers !== null && Object.keys(headers).some((key) => key.toLowerCase() === name);
}

function header(headers: Exchange['headers'], name: string): string[] {
  const value = headers[name];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

function mediaType(headers: Exchange['headers']): string {
  return (header(headers, 'content-type')[0] ?? '').split(';')[0]!.trim().toLowerCase();
}

/** The warnings the server sent; a bare Deprecation header still becomes one. */
export function warningsOf(headers: Exchange['headers']): Warning[] {
  const warnings: Warning[] = header(headers, WARNING_HEADER).map(decodeWarningHeader);
  const deprecation = header(headers, DEPRECATION_HEADER)[0];
  if (warnings.length === 0 && deprecation !== undefined) {
    warnings.push(warning('SERVER_WARNING', `the server marked this request as using a deprecated feature (Deprecation: ${deprecation})`));
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
  const parsed = problemDetailSchema.safeParse({ type: 'about:blank', title: `HTTP ${exchange.status}`, ...record, status: exchange.status });
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
  if (typeof code === 'string' && code !== 'UND_ERR_REQ_RETRY') return code;
  return cause ? errorCode(cause) : undefined;
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
