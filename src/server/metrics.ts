/**
 * `GET /metrics`: the Prometheus text format from prom-client. Requests by operation (the
 * operations table's name, never the raw path), method and status; latency by operation; requests
 * in flight; store calls and their latency; bookings, cancellations and idempotent replays; the
 * default process and event-loop metrics. Every label takes a bounded set of values: no ids, no
 * order numbers, no company names. Loaded by `shipper serve` only (prom-client is not a start-up cost).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ApiResult, ShipperApi } from '../api/types.js';
import { exchangeOf, sendPlain, type Layer } from './exchange.js';

export const METRICS_PATH = '/metrics';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** Seconds: from a cached GET (well under a millisecond) to a slow PDF or a batch. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const STORE_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
/** The store's repositories whose calls are counted (the ports of store/ports.ts). */
const REPOSITORIES = ['shipments', 'quotes', 'idempotency', 'imports', 'events', 'fuelPrices', 'locations', 'auditedBills'] as const;

export class ServeMetrics {
  readonly registry = new Registry();
  readonly requests = new Counter({
    name: 'shipper_http_requests_total',
    help: 'HTTP requests answered, by operation (operations table name), method and status',
    labelNames: ['operation', 'method', 'status'] as const,
    registers: [this.registry],
  });
  readonly latency = new Histogram({
    name: 'shipper_http_request_duration_seconds',
    help: 'Time from the request to the last byte of the answer, by operation',
    labelNames: ['operation'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly inFlight = new Gauge({ name: 'shipper_http_requests_in_flight', help: 'Requests being answered now', registers: [this.registry] });
  readonly storeCalls = new Counter({
    name: 'shipper_store_calls_total',
    help: 'Calls into the store, by call (repository.method or withTransaction) and outcome (ok, error)',
    labelNames: ['call', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly storeLatency = new Histogram({
    name: 'shipper_store_call_duration_seconds',
    help: 'Time of a store call (a unit of work includes waiting for the store lock), by call',
    labelNames: ['call'] as const,
    buckets: STORE_BUCKETS,
    registers: [this.registry],
  });
  readonly bookings = new Counter({ name: 'shipper_bookings_total', help: 'Shipments booked (a replayed request books nothing)', registers: [this.registry] });
  readonly cancellations = new Counter({ name: 'shipper_cancellations_total', help: 'Shipments cancelled', registers: [this.registry] });
  readonly replays = new Counter({
    name: 'shipper_idempotent_replays_total',
    help: 'Requests answered from the idempotency store (same Idempotency-Key and body), by operation',
    labelNames: ['operation'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 20 });
  }

  // The labelled children, looked up once per label set instead of hashed on every request.
  readonly #requestCounters = new Map<string, { inc(): void }>();
  readonly #latencies = new Map<string, { observe(value: number): void }>();

  #requestCounter(operation: string, method: string, status: number): { inc(): void } {
    const key = `${operation} ${method} ${status}`;
    let child = this.#requestCounters.get(key);
    if (!child) this.#requestCounters.set(key, (child = this.requests.labels(operation, method, String(status))));
    return child;
  }

  #latencyOf(operation: string): { observe(value: number): void } {
    let child = this.#latencies.get(operation);
    if (!child) this.#latencies.set(operation, (child = this.latency.labels(operation)));
    return child;
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
    return (next) => (req, res) => {
      const started = process.hrtime.bigint();
      this.inFlight.inc();
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        this.inFlight.dec();
        const { operation } = exchangeOf(req);
        const method = METHODS.has(req.method ?? '') ? req.method! : 'other';
        // A response that never got its headers out (the client went away first) has no status: 499, as nginx says.
        const status = res.headersSent ? res.statusCode : 499;
        this.#requestCounter(operation, method, status).inc();
        this.#latencyOf(operation).observe(Number(process.hrtime.bigint() - started) / 1e9);
      };
      res.once('finish', finish);
      res.once('close', finish);
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
      addShipmentEvents: single('addShipmentEvents', undefined),
      createShipments: (answer) => {
        const items = (answer.data as { items?: Array<{ ok: boolean; replayed?: boolean }> }).items ?? [];
        const replayed = items.filter((item) => item.ok && item.replayed).length;
        const booked = items.filter((item) => item.ok && !item.replayed).length;
        if (replayed > 0) this.replays.labels('createShipments').inc(replayed);
        if (booked > 0) this.bookings.inc(booked);
      },
    };
    // Methods come back bound to the engine itself: inside them `this` is never the proxy (whose
    // trap would then run on every field the engine reads), and each is made once.
    const methods = new Map<PropertyKey, unknown>();
    return new Proxy(api, {
      get: (target, property) => {
        const known = methods.get(property);
        if (known) return known;
        const value = Reflect.get(target, property, target) as unknown;
        if (typeof value !== 'function') return value;
        const count = typeof property === 'string' ? counters[property] : undefined;
        const method = count
          ? (...args: unknown[]) => after(value.apply(target, args) as Promise<ApiResult<unknown>>, count)
          : (value as (...args: unknown[]) => unknown).bind(target);
        methods.set(property, method);
        return method;
      },
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
      const calls = { ok: this.storeCalls.labels(call, 'ok'), error: this.storeCalls.labels(call, 'error') };
      const latency = this.storeLatency.labels(call);
      return (...args: unknown[]) => {
        const started = process.hrtime.bigint();
        const end = () => latency.observe(Number(process.hrtime.bigint() - started) / 1e9);
        let result: unknown;
        try {
          result = original.apply(self, args);
        } catch (error) {
          end();
          calls.error.inc();
          throw error;
        }
        // Only a plain promise is awaited here: a lazy query (postgres.js's, a Promise subclass
        // that runs when awaited) is left to its caller.
        if (result instanceof Promise && Object.getPrototypeOf(result) === Promise.prototype) {
          return result.then(
            (value: unknown) => {
              end();
              calls.ok.inc();
              return value;
            },
            (error: unknown) => {
              end();
              calls.error.inc();
              throw error;
            },
          );
        }
        end();
        calls.ok.inc();
        return result;
      };
    };
    if (typeof target.withTransaction === 'function') target.withTransaction = timed('withTransaction', target.withTransaction as (...args: unknown[]) => unknown, store);
    for (const name of REPOSITORIES) {
      const repository = target[name];
      if (!repository || typeof repository !== 'object') continue;
      const methods = new Map<PropertyKey, unknown>();
      target[name] = new Proxy(repository, {
        get: (object, property) => {
          const known = methods.get(property);
          if (known) return known;
          const value = Reflect.get(object, property) as unknown;
          if (typeof value !== 'function' || typeof property !== 'string') return value;
          const method = timed(`${name}.${property}`, value as (...args: unknown[]) => unknown, object);
          methods.set(property, method);
          return method;
        },
      });
    }
  }
}
