/**
 * The log of `shipper serve` with pino: one JSON line per request (time, level, request id,
 * operation, method, path, status, duration, bytes, remote address), plus start-up, store,
 * readiness and shutdown events. `pretty` writes the same events as one human line each (the
 * access-log line of earlier versions, with the request id after the time). Never a body, a
 * header, a secret or a password: query parameters that look secret are masked, database URLs
 * lose their password before they get here.
 */
import { randomUUID } from 'node:crypto';
import { pino, type Level, type Logger } from 'pino';
import type { LogFormat, LogLevel } from './defaults.js';
import { TurnWriter } from './logWriter.js';
import { exchangeOf, REQUEST_ID_HEADER, startedAt, whenAnswered, type Answered, type Exchange, type Layer } from './exchange.js';

/** A client's request id is kept when it is this (the characters of UUIDs, ULIDs, trace ids); otherwise one is made. */
const PROBE_OPERATIONS = new Set(['healthz', 'readyz', 'metrics']);
const USABLE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

export interface ServeLoggerOptions {
  format: LogFormat;
  level: LogLevel;
  write: (line: string) => void;
  /**
   * The file descriptor `write` ends in, when it is the process's own stderr: JSON lines then go
   * to it gathered per turn of the event loop, one synchronous write each (logWriter.ts).
   */
  fd?: number | undefined;
}

export interface ServeLogger {
  logger: Logger;
  /** Writes out the lines of the current turn: the last call before the process exits (no line may be logged after it). */
  flush(): Promise<void>;
}

/**
 * The stream each logger of createServeLogger writes to: the request lines are written to it
 * directly, as the JSON pino would write (see RequestLine).
 */
const STREAMS = new WeakMap<Logger, TurnWriter | { write(line: string): unknown }>();

export function createServeLogger(options: ServeLoggerOptions): ServeLogger {
  const turns = options.format === 'json' && options.fd !== undefined ? new TurnWriter(options.fd) : undefined;
  if (turns) process.prependListener('exit', () => turns.writeOut(true));
  const stream = turns ?? (options.format === 'json' ? { write: options.write } : { write: (line: string) => options.write(prettyLine(line)) });
  const logger = pino(
    {
      level: options.level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    stream,
  );
  STREAMS.set(logger, stream);
  return {
    logger,
    flush() {
      turns?.writeOut(true);
      return Promise.resolve();
    },
  };
}

/**
 * One line per request once its answer is over (or the client went away), and the X-Request-Id
 * header on every answer. `settled()`: every request begun has its line (a drain waits for the
 * lines of the requests it cut before the server's last word).
 */
export function requestLogLayer(logger: Logger): { layer: Layer; settled(): Promise<void> } {
  let open = 0;
  let waiting: Array<() => void> = [];
  const settled = () => (open === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiting.push(resolve)));
  const stream = STREAMS.get(logger);
  // One function for every request (whenAnswered): what it needs is on the exchange.
  const answered: Answered = (req, res, exchange) => {
    const aborted = !res.writableFinished;
    const status = res.headersSent ? res.statusCode : undefined;
    const duration = Math.round((exchange.ended - exchange.started) * 100) / 100;
    const bytes = aborted ? 0 : (exchange.bytes ?? 0);
    // A load balancer probes every few seconds: its answered probes and scrapes are debug lines.
    const routine = PROBE_OPERATIONS.has(exchange.operation) && status !== undefined && status < 400;
    const level: Level = status !== undefined && status >= 500 ? 'error' : aborted ? 'warn' : routine ? 'debug' : 'info';
    if (stream) {
      if (logger.isLevelEnabled(level)) {
        const line = new RequestLine(Date.now(), level, exchange, req.method, req.url, req.socket.remoteAddress, status, duration, bytes, aborted);
        // Gathered per turn: made text when the turn's lines are joined (logWriter.ts), else now.
        if (stream instanceof TurnWriter) stream.write(line);
        else stream.write(line.toString());
      }
    } else {
      const entry = {
        event: 'request',
        reqId: exchange.requestId,
        operation: exchange.operation,
        method: req.method,
        path: loggablePath(req.url),
        status,
        durationMs: duration,
        bytes,
        remoteAddress: req.socket.remoteAddress,
        // Each request is attributable to its key (issue 41): ids, never the key itself.
        ...(exchange.principal?.keyId ? { companyId: exchange.principal.companyId, keyId: exchange.principal.keyId } : {}),
        ...(aborted ? { aborted: true } : {}),
        ...(exchange.failure ? { error: exchange.failure } : {}),
      };
      logger[level](entry, 'request');
    }
    if (--open === 0 && waiting.length > 0) {
      const resolved = waiting;
      waiting = [];
      resolved.forEach((resolve) => resolve());
    }
  };
  const layer: Layer = (next) => (req, res) => {
    open++;
    const exchange = exchangeOf(req);
    startedAt(exchange);
    const sent = req.headers[REQUEST_ID_HEADER];
    // Sent with the answer's headers (exchange.ts writeHead).
    exchange.requestId = typeof sent === 'string' && USABLE_REQUEST_ID.test(sent) ? sent : newRequestId();
    whenAnswered(req, res, answered);
    next(req, res);
  };
  return { layer, settled };
}

/**
 * A request id for a request that sent none: a version 4 UUID whose first 80 bits are a random
 * UUID's, drawn once per process (and again if the counter wraps), and whose last 48 count the
 * process's requests. Unique across instances (74 random bits), in order within one, and made as
 * one short string where crypto.randomUUID assembles twenty.
 */
let idPrefix = '';
let idCount = 0;
const ID_COUNTER_LIMIT = 2 ** 48;
function newRequestId(): string {
  if (idPrefix === '' || idCount === ID_COUNTER_LIMIT) {
    idPrefix = randomUUID().slice(0, 24);
    idCount = 0;
  }
  return idPrefix + (idCount++).toString(16).padStart(12, '0');
}

/** The line's beginning up to the request id, for the current millisecond and level (made once per millisecond and level). */
let headMs = 0;
let heads = new Map<Level, string>();
/** `","operation":...,"method":...,"path":` by operation, then method, made once each (bounded values; the names are kept strings, no key is made per line). */
const MIDDLES = new Map<string, Map<string | undefined, string>>();
/** The last client address and its JSON text (a keep-alive connection sends many requests). */
let lastAddress: string | undefined;
let lastAddressJson = '';

function headOf(level: Level, now: number): string {
  if (now !== headMs) {
    headMs = now;
    heads = new Map();
  }
  let head = heads.get(level);
  if (head === undefined) heads.set(level, (head = `{"level":"${level}","time":"${new Date(now).toISOString()}","event":"request","reqId":"`));
  return head;
}

function middleOf(operation: string, method: string | undefined): string {
  let byMethod = MIDDLES.get(operation);
  if (byMethod === undefined) {
    byMethod = new Map();
    if (MIDDLES.size < 512) MIDDLES.set(operation, byMethod);
  }
  let middle = byMethod.get(method);
  if (middle === undefined) {
    middle = `","operation":${JSON.stringify(operation)}${method === undefined ? '' : `,"method":${JSON.stringify(method)}`},"path":`;
    if (byMethod.size < 64) byMethod.set(method, middle);
  }
  return middle;
}

/**
 * A request's line as pino writes it with createServeLogger's options (level label, ISO time, the
 * fields in this order, undefined ones left out, then msg), built without pino: its generic
 * serialization of the entry object, the ISO time made anew for each line and the level and
 * hook look-ups were most of what the JSON log cost a cached GET. What repeats is made once: the
 * beginning per millisecond and level, the operation and method per pair (few: the operations
 * table's names), the client's address per address; the line is then a few pieces joined. The
 * request id needs no escaping (a UUID made here, or one that matched USABLE_REQUEST_ID, whose
 * characters JSON leaves as they are).
 *
 * What the line says is read when the answer is over; the text is made by `toString()`, which the
 * turn's writer calls when it joins the turn's lines: the lines of a turn are then made one after
 * the other, with the same code and the same pieces warm.
 */
class RequestLine {
  constructor(
    private readonly time: number,
    private readonly level: Level,
    /** Final once the answer is over: its operation, request id, key and failure do not change. */
    private readonly exchange: Exchange,
    private readonly method: string | undefined,
    private readonly url: string | undefined,
    private readonly remoteAddress: string | undefined,
    private readonly status: number | undefined,
    private readonly durationMs: number,
    private readonly bytes: number,
    private readonly aborted: boolean,
  ) {}

  toString(): string {
    const { exchange, remoteAddress, status, aborted } = this;
    if (remoteAddress !== lastAddress) {
      lastAddress = remoteAddress;
      lastAddressJson = remoteAddress === undefined ? '' : `,"remoteAddress":${JSON.stringify(remoteAddress)}`;
    }
    const principal = exchange.principal?.keyId ? `,"companyId":${JSON.stringify(exchange.principal.companyId)},"keyId":${JSON.stringify(exchange.principal.keyId)}` : '';
    const tail = aborted || exchange.failure ? `${aborted ? ',"aborted":true' : ''}${exchange.failure ? `,"error":${JSON.stringify(exchange.failure)}` : ''}` : '';
    return `${headOf(this.level, this.time)}${exchange.requestId}${middleOf(exchange.operation, this.method)}${JSON.stringify(loggablePath(this.url))}${status === undefined ? '' : `,"status":${status}`},"durationMs":${this.durationMs},"bytes":${this.bytes}${lastAddressJson}${principal}${tail},"msg":"request"}\n`;
  }
}

/** The path and query, with the values of secret-looking parameters hidden (as the text access log did). */
export function loggablePath(target = '/'): string {
  const queryAt = target.indexOf('?');
  if (queryAt === -1) return target;
  const params = new URLSearchParams(target.slice(queryAt + 1));
  for (const key of [...params.keys()]) if (/key|token|secret|passw|auth/i.test(key)) params.set(key, '***');
  return `${target.slice(0, queryAt)}?${params.toString()}`;
}

interface LogEntry {
  time?: string;
  level?: string;
  msg?: string;
  event?: string;
  reqId?: string;
  method?: string;
  path?: string;
  status?: number;
  bytes?: number;
  durationMs?: number;
  remoteAddress?: string;
  aborted?: boolean;
  error?: string;
  keyId?: string;
  companyId?: string;
}

/** pino's JSON line as a human line: a request as the access log has always said it, an event as `shipper serve: ...`. */
function prettyLine(json: string): string {
  let entry: LogEntry;
  try {
    entry = JSON.parse(json) as LogEntry;
  } catch {
    return json;
  }
  if (entry.event === 'request') {
    const status = entry.aborted ? `${entry.status ?? '-'} aborted` : String(entry.status);
    const error = entry.error ? ` error=${JSON.stringify(entry.error)}` : '';
    const key = entry.keyId ? ` key=${entry.keyId} company=${entry.companyId}` : '';
    return `${entry.time} ${entry.reqId} ${entry.remoteAddress ?? '-'} "${entry.method} ${entry.path}" ${status} ${entry.bytes} ${(entry.durationMs ?? 0).toFixed(1)}ms${key}${error}\n`;
  }
  if (entry.event === 'store-warning') return `${entry.time} warning: ${entry.msg}\n`;
  if (entry.level === 'warn' && entry.event === 'warning') return `warning: ${entry.msg}\n`;
  const error = entry.error ? `: ${entry.error}` : '';
  return `shipper serve: ${entry.msg}${error}\n`;
}
