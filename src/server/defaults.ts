/**
 * The defaults of `shipper serve`'s production settings, in a module without imports: the serve
 * command lists them in its help at start-up, without loading the server, pino or prom-client.
 */
export const DEFAULT_DRAIN_DELAY_MS = 5_000;
export const DEFAULT_DRAIN_TIMEOUT_MS = 10_000;
export const DEFAULT_READY_TIMEOUT_MS = 2_000;

export interface ServerTimeouts {
  /** The whole header block of a request (node:http's headersTimeout). */
  headersMs: number;
  /** The whole request, body included (requestTimeout). */
  requestMs: number;
  /** An idle keep-alive connection (keepAliveTimeout). */
  keepAliveMs: number;
}

export const DEFAULT_TIMEOUTS: ServerTimeouts = { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000 };

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export type LogFormat = 'json' | 'pretty';
