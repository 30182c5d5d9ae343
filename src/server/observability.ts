/**
 * Where the probes and the metrics are answered: on the API's port (a layer before the dispatch
 * of operations; /metrics then needs the API key when the server has one), or on an admin port of
 * their own (`--admin-port`, `--admin-host`) so that metrics need not be public.
 */
import { createServer, type IncomingMessage, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PROBLEM_TYPE } from '../api/operations.js';
import { makeProblem } from '../api/problems.js';
import { compose, exchangeOf, sendPlain, type Layer } from './exchange.js';
import { METRICS_PATH, type ServeMetrics } from './metrics.js';
import { HEALTHZ_PATH, READYZ_PATH, type Probes } from './probes.js';
import type { ServerTimeouts } from './defaults.js';
import { authorized, sha256 } from './server.js';

export interface ObservabilityOptions {
  probes: Probes;
  /** None: /metrics is not served here. */
  metrics?: ServeMetrics | undefined;
  /** On the API's port, /metrics needs `Authorization: Bearer <apiKey>` when the server has one (the probes never do). */
  apiKey?: string | undefined;
}

function pathnameOf(target = '/'): string {
  const queryAt = target.indexOf('?');
  return queryAt === -1 ? target : target.slice(0, queryAt);
}

/** Answers /healthz, /readyz and /metrics; false for another path. */
function answer(options: ObservabilityOptions, keyDigest: Buffer | undefined, req: IncomingMessage, res: ServerResponse): boolean {
  const pathname = pathnameOf(req.url);
  if (pathname === HEALTHZ_PATH || pathname === READYZ_PATH) {
    exchangeOf(req).operation = pathname.slice(1);
    return options.probes.answer(req, res, pathname);
  }
  if (!options.metrics || pathname !== METRICS_PATH) return false;
  if (keyDigest && !authorized(req.headers.authorization, keyDigest)) {
    exchangeOf(req).operation = 'metrics';
    const problem = makeProblem(401, 'unauthorized', 'Unauthorized', 'missing or wrong API key: send Authorization: Bearer <key>').problem;
    sendPlain(req, res, 401, JSON.stringify({ ...problem, instance: pathname }), `${PROBLEM_TYPE}; charset=utf-8`, { 'www-authenticate': 'Bearer realm="shipper"' });
    return true;
  }
  return options.metrics.answer(req, res, pathname);
}

/** The probes and metrics as a layer in front of the API's dispatch. */
export function observabilityRoutes(options: ObservabilityOptions): Layer {
  const keyDigest = options.apiKey ? sha256(options.apiKey) : undefined;
  return (next) => (req, res) => {
    if (!answer(options, keyDigest, req, res)) next(req, res);
  };
}

export interface AdminServer {
  readonly server: Server;
  listen(port: number, host: string): Promise<AddressInfo>;
  close(): Promise<void>;
}

/** The admin port: the probes and the metrics, nothing else (404 for any other path), no API key. */
export function createAdminServer(options: ObservabilityOptions & { layers?: readonly Layer[]; timeouts: ServerTimeouts }): AdminServer {
  const routes: ObservabilityOptions = { probes: options.probes, metrics: options.metrics };
  const server = createServer(
    { keepAliveTimeout: options.timeouts.keepAliveMs, headersTimeout: options.timeouts.headersMs, requestTimeout: options.timeouts.requestMs },
    compose(options.layers ?? [], (req, res) => {
      if (answer(routes, undefined, req, res)) return;
      exchangeOf(req).operation = 'not-found';
      const pathname = pathnameOf(req.url);
      const problem = makeProblem(404, 'not-found', 'Not Found', `the admin port serves ${HEALTHZ_PATH}, ${READYZ_PATH} and /metrics only`).problem;
      sendPlain(req, res, 404, JSON.stringify({ ...problem, instance: pathname.slice(0, 80) }), `${PROBLEM_TYPE}; charset=utf-8`);
    }),
  );
  return {
    server,
    listen(port, host) {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve(server.address() as AddressInfo);
        });
      });
    },
    close() {
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
