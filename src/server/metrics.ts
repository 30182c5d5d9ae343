/**
 * `GET /metrics`: the Prometheus text format from prom-client. Requests by operation (the
 * operations table's name, never the raw path), method and status; latency by operation; requests
 * in flight; store calls and their latency; bookings, cancellations and idempotent replays; the
 * default process and event-loop metrics. Every label takes a bounded set of values: no ids, no
 * order numbers, no company names. Loaded by `shipper serve` only (prom-client is not a start-up cost).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Registry, type Metric } from 'prom-client';
import type { ApiResult, ShipperApi } from '../api/types.js';
import { exchangeOf, sendPlain, startedAt, whenAnswered, type Answered, type Layer } from './exchange.js';

export const METRICS_PATH = '/metrics';

/** The methods a request is counted by (any other is 'other'), by their index. */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'other'] as const;
const OTHER_METHOD = METHODS.length - 1;
/** Seconds: from a cached GET (well under a millisecond) to a slow PDF or a batch. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const STORE_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
/** The store's repositories whose calls are counted (the ports of store/ports.ts). */
const REPOSITORIES = ['shipments', 'quotes', 'idempotency', 'imports', 'events', 'fuelPrices', 'locations', 'auditedBills'] as const;

/** One sample as prom-client's registry writes it out. */
interface Sample {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

/**
 * What prom-client's registry reads of a metric at the scrape (`get()`); the counters and
 * histograms of every request are counted in plain numbers, not in prom-client's own metrics,
 * whose `inc` and `observe` (their `labels(...)` children too) check and hash the label values
 * on every call: at thousands of requests a second that was most of what metrics cost.
 */
abstract class Tally<Cell extends { labels: Record<string, string> }> {
  readonly aggregator = 'sum';
  readonly #cells = new Map<string, Cell>();
  abstract readonly type: 'counter' | 'histogram';

  constructor(
    readonly name: string,
    readonly help: string,
    registry: Registry,
  ) {
    registry.registerMetric(this as unknown as Metric);
  }

  protected abstract create(labels: Record<string, string>): Cell;
  protected abstract samples(cell: Cell): Sample[];

  /** The cell of one label set (`key` names it uniquely; `labels` makes its labels the first time). A cell never counted is not written out. */
  cell(key: string, labels: () => Record<string, string>): Cell {
    let cell = this.#cells.get(key);
    if (!cell) this.#cells.set(key, (cell = this.create(labels())));
    return cell;
  }

  get(): Promise<{ name: string; help: string; type: string; aggregator: string; values: Sample[] }> {
    const values = [...this.#cells.values()].flatMap((cell) => this.samples(cell));
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values });
  }
}

interface CounterCell {
  labels: Record<string, string>;
  value: number;
}

class TalliedCounter extends Tally<CounterCell> {
  readonly type = 'counter';
  protected create(labels: Record<string, string>): CounterCell {
    return { labels, value: 0 };
  }
  protected samples(cell: CounterCell): Sample[] {
    return cell.value === 0 ? [] : [{ labels: cell.labels, value: cell.value }];
  }
}

interface HistogramCell {
  labels: Record<string, string>;
  /** Observations per bucket (not cumulative), the last one past the highest bound. */
  counts: number[];
  sum: number;
  count: number;
}

class TalliedHistogram extends Tally<HistogramCell> {
  readonly type = 'histogram';
  constructor(
    name: string,
    help: string,
    registry: Registry,
    private readonly bounds: readonly number[],
  ) {
    super(name, help, registry);
  }
  protected create(labels: Record<string, string>): HistogramCell {
    return { labels, counts: new Array<number>(this.bounds.length + 1).fill(0), sum: 0, count: 0 };
  }
  observe(cell: HistogramCell, seconds: number): void {
    let bucket = 0;
    while (bucket < this.bounds.length && seconds > this.bounds[bucket]!) bucket++;
    cell.counts[bucket]!++;
    cell.sum += seconds;
    cell.count++;
  }
  protected samples(cell: HistogramCell): Sample[] {
    if (cell.count === 0) return [];
    let cumulative = 0;
    const samples: Sample[] = this.bounds.map((le, bucket) => {
      cumulative += cell.counts[bucket]!;
      return { labels: { ...cell.labels, le }, value: cumulative, metricName: `${this.name}_bucket` };
    });
    samples.push(
      { labels: { ...cell.labels, le: '+Inf' }, value: cell.count, metricName: `${this.name}_bucket` },
      { labels: cell.labels, value: cell.sum, metricName: `${this.name}_sum` },
      { labels: cell.labels, value: cell.count, metricName: `${this.name}_count` },
    );
    return samples;
  }
}

export class ServeMetrics {
  readonly registry = new Registry();
  readonly #requests = new TalliedCounter('shipper_http_requests_total', 'HTTP requests answered, by operation (operations table name), method and status', this.registry);
  readonly #latency = new TalliedHistogram(
    'shipper_http_request_duration_seconds',
    'Time from the request to the last byte of the answer, by operation',
    this.registry,
    LATENCY_BUCKETS,
  );
  #inFlight = 0;
  /** Per operation: its latency's cell and its request counters' cells by method and status (status × 8 + method's index). */
  readonly #operations = new Map<string, { latency: HistogramCell; requests: Map<number, CounterCell> }>();
  readonly #storeCalls = new TalliedCounter(
    'shipper_store_calls_total',
    'Calls into the store, by call (repository.method or withTransaction) and outcome (ok, error)',
    this.registry,
  );
  readonly #storeLatency = new TalliedHistogram(
    'shipper_store_call_duration_seconds',
    'Time of a store call (a unit of work includes waiting for the store lock), by call',
    this.registry,
    STORE_BUCKETS,
  );
  readonly bookings = new Counter({ name: 'shipper_bookings_total', help: 'Shipments booked (a replayed request books nothing)', registers: [this.registry] });
  readonly cancellations = new Counter({ name: 'shipper_cancellations_total', help: 'Shipments cancelled', registers: [this.registry] });
  readonly replays = new Counter({
    name: 'shipper_idempotent_replays_total',
    help: 'Requests answered from the idempotency store (same Idempotency-Key and body), by operation',
    labelNames: ['operation'] as const,
    registers: [this.registry],
  });

  constructor() {
    // The gauge reads the count at the scrape: nothing of prom-client's runs per request.
    const inFlight = () => this.#inFlight;
    new Gauge({
      name: 'shipper_http_requests_in_flight',
      help: 'Requests being answered now',
      registers: [this.registry],
      collect() {
        this.set(inFlight());
      },
    });
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 20 });
  }

  /**
   * `shipper_ready`: what /readyz would answer, checked at each scrape (1: 200, 0: 503), so it is
   * right even where nothing probes the instance.
   */
  trackReadiness(ready: () => Promise<boolean>): void {
    new Gauge({
      name: 'shipper_ready',
      help: '1 when /readyz answers 200, 0 when it answers 503 (draining, store down or behind), checked at the scrape',
      registers: [this.registry],
      async collect() {
        this.set((await ready()) ? 1 : 0);
      },
    });
  }

  /** Counts every request that reaches the layers (the probes and /metrics too), once its answer is over. */
  layer(): Layer {
    // One function for every request (whenAnswered): the request's start and end are the exchange's.
    const answered: Answered = (req, res, exchange) => {
      this.#inFlight--;
      const { operation } = exchange;
      const index = METHODS.indexOf(req.method as (typeof METHODS)[number]);
      const methodIndex = index === -1 ? OTHER_METHOD : index;
      // A response that never got its headers out (the client went away first) has no status: 499, as nginx says.
      const status = res.headersSent ? res.statusCode : 499;
      let cells = this.#operations.get(operation);
      if (!cells) this.#operations.set(operation, (cells = { latency: this.#latency.cell(operation, () => ({ operation })), requests: new Map() }));
      let requests = cells.requests.get(status * 8 + methodIndex);
      if (!requests) {
        const method = METHODS[methodIndex]!;
        requests = this.#requests.cell(`${operation} ${method} ${status}`, () => ({ operation, method, status: String(status) }));
        cells.requests.set(status * 8 + methodIndex, requests);
      }
      requests.value++;
      this.#latency.observe(cells.latency, (exchange.ended - exchange.started) / 1e3);
    };
    return (next) => (req, res) => {
      startedAt(exchangeOf(req));
      this.#inFlight++;
      whenAnswered(req, res, answered);
      next(req, res);
    };
  }

  /** Answers GET /metrics; false for any other path. */
  answer(req: IncomingMessage, res: ServerResponse, pathname: string): boolean {
    if (pathname !== METRICS_PATH) return false;
    exchangeOf(req).operation = 'metrics';
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendPlain(req, res, 405, JSON.stringify({ type: 'about:blank', title: 'Method Not Allowed', status: 405, instance: pathname }), 'application/problem+json; charset=utf-8', {
        allow: 'GET, HEAD',
      });
      return true;
    }
    this.registry
      .metrics()
      .then((text) => sendPlain(req, res, 200, text, this.registry.contentType))
      .catch(() => res.destroy());
    return true;
  }

  /**
   * Counts bookings, cancellations and replays where they happen: around the engine's calls, so a
   * batch of 40 shipments counts 40 and a replayed booking none.
   */
  instrumentApi(api: ShipperApi): ShipperApi {
    const after = <T>(result: Promise<ApiResult<T>>, count: (answer: ApiResult<T>) => void): Promise<ApiResult<T>> =>
      result.then((answer) => {
        count(answer);
        return answer;
      });
    const single = (operation: string, target: Counter | undefined) => (answer: ApiResult<unknown>) => {
      if (answer.replayed) this.replays.labels(operation).inc();
      else target?.inc();
    };
    const counters: Record<string, (answer: ApiResult<unknown>) => void> = {
      createShipment: single('createShipment', this.bookings),
      cancelShipment: single('cancelShipment', this.cancellations),
      createQuote: single('createQuote', undefined),
      createLaneQuote: single('createLaneQuote', undefined),
      addShipmentEvents: single('addShipmentEvents', undefined),
      createShipments: (answer) => {
        const items = (answer.data as { items?: Array<{ ok: boolean; replayed?: boolean }> }).items ?? [];
        const replayed = items.filter((item) => item.ok && item.replayed).length;
        const booked = items.filter((item) => item.ok && !item.replayed).length;
        if (replayed > 0) this.replays.labels('createShipments').inc(replayed);
        if (booked > 0) this.bookings.inc(booked);
      },
    };
    // Methods are bound to the engine itself: inside them `this` is never the stand-in (whose
    // fields would then be read through its prototype, and written to it).
    return standIn(api, (name, method) => {
      const count = counters[name];
      return count ? (...args: unknown[]) => after(method.apply(api, args) as Promise<ApiResult<unknown>>, count) : method.bind(api);
    });
  }

  /**
   * Times the store's calls as the engine makes them: the store's repositories are replaced by
   * proxies whose methods time the real ones, called on the real repository (so a repository's
   * own calls to its helpers are neither counted nor changed), and withTransaction likewise.
   * Calls inside a unit of work are part of its time, not counted apart.
   */
  instrumentStore(store: object): void {
    const target = store as Record<string, unknown>;
    const timed = (call: string, original: (...args: unknown[]) => unknown, self: unknown) => {
      const ok = this.#storeCalls.cell(`${call} ok`, () => ({ call, outcome: 'ok' }));
      const failed = this.#storeCalls.cell(`${call} error`, () => ({ call, outcome: 'error' }));
      const latency = this.#storeLatency.cell(call, () => ({ call }));
      const end = (started: number, outcome: CounterCell) => {
        this.#storeLatency.observe(latency, (performance.now() - started) / 1e3);
        outcome.value++;
      };
      return (...args: unknown[]) => {
        const started = performance.now();
        let result: unknown;
        try {
          result = original.apply(self, args);
        } catch (error) {
          end(started, failed);
          throw error;
        }
        // Only a plain promise is watched here: a lazy query (postgres.js's, a Promise subclass
        // that runs when awaited) is left to its caller. The caller gets the store's own promise
        // and the timing hangs off it beside the caller: a promise of its own in between would cost
        // the caller's await one more turn of the microtask queue on every store call.
        if (result instanceof Promise && Object.getPrototypeOf(result) === Promise.prototype) {
          result.then(
            () => end(started, ok),
            () => end(started, failed),
          );
          return result;
        }
        end(started, ok);
        return result;
      };
    };
    if (typeof target.withTransaction === 'function') target.withTransaction = timed('withTransaction', target.withTransaction as (...args: unknown[]) => unknown, store);
    for (const name of REPOSITORIES) {
      const repository = target[name];
      if (!repository || typeof repository !== 'object') continue;
      target[name] = standIn(repository, (property, method) => timed(`${name}.${property}`, method, repository));
    }
  }
}

/**
 * An object that answers for `target`: each of its methods (its own and its classes', but
 * Object's) as `wrap` makes it, once, as an own property; any other field read through the
 * prototype, `target`, as it is now. Where a Proxy's trap runs on every property read (a store
 * call, an engine call), these are plain properties.
 */
function standIn<T extends object>(target: T, wrap: (name: string, method: (...args: unknown[]) => unknown) => unknown): T {
  const stand = Object.create(target) as Record<string, unknown>;
  for (let level: object | null = target; level && level !== Object.prototype; level = Object.getPrototypeOf(level) as object | null) {
    for (const name of Object.getOwnPropertyNames(level)) {
      if (name === 'constructor' || Object.hasOwn(stand, name)) continue;
      // Read from the target itself, not its class: a target that is a Proxy (the PostgreSQL
      // store's guarded repositories) hands out its own methods.
      if (typeof Object.getOwnPropertyDescriptor(level, name)?.value !== 'function') continue;
      const value = Reflect.get(target, name) as unknown;
      if (typeof value === 'function') stand[name] = wrap(name, value as (...args: unknown[]) => unknown);
    }
  }
  return stand as T;
}
