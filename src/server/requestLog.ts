/**
 * The log of `shipper serve` with pino: one JSON line per request (time, level, request id,
 * operation, method, path, status, duration, bytes, remote address), plus start-up, store,
 * readiness and shutdown events. `pretty` writes the same events as one human line each (the
 * access-log line of earlier versions, with the request id after the time). Never a body, a
 * header, a secret or a password: query parameters that look secret are masked, database URLs
 * lose their password before they get here.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { pino, type Level, type Logger } from 'pino';
import type { LogFormat, LogLevel } from './defaults.js';
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
   * to it through pino's asynchronous destination (sonic-boom), gathered up to 4 KiB or a quarter
   * of a second and written at once, off the event loop (one write on libuv's thread pool for
   * many requests, one at a time, in order); `flush()` writes what is left before the process exits.
   */
  fd?: number | undefined;
}

const FLUSH_BYTES = 4096;
const FLUSH_INTERVAL_MS = 250;

export interface ServeLogger {
  logger: Logger;
  /**
   * Writes out what the asynchronous destination still holds, in order, and resolves once it is
   * written: the last call before the process exits (no line may be logged after it).
   */
  flush(): Promise<void>;
}

/**
 * Where the request lines of each logger of createServeLogger go: their bytes are written into it
 * directly, as the JSON pino would write (see putRequestLine).
 */
const LINES = new WeakMap<Logger, LineBytes>();

export function createServeLogger(options: ServeLoggerOptions): ServeLogger {
  // Asynchronous: a line costs the request no system call (written a few kilobytes at a time), and
  // a slow reader of stderr (a full pipe) holds one thread of the pool, not the event loop.
  const destination =
    options.format === 'json' && options.fd !== undefined ? pino.destination({ dest: options.fd, sync: false, minLength: FLUSH_BYTES, contentMode: 'buffer' }) : undefined;
  // In buffer mode the destination takes Buffers (sonic-boom's types know only strings).
  const gathered = destination
    ? new LineBytes(FLUSH_BYTES, (bytes, length) => (destination as unknown as { write(bytes: Buffer): unknown }).write(Buffer.from(bytes.subarray(0, length))))
    : undefined;
  if (gathered && destination) {
    // Before pino's own flush of the destination at exit (registered with it, so earlier: prepended).
    process.prependListener('beforeExit', gathered.handOver);
    process.prependListener('exit', gathered.handOver);
    setInterval(() => {
      gathered.handOver();
      destination.flush();
    }, FLUSH_INTERVAL_MS).unref();
  }
  const written = options.format === 'json' ? options.write : (line: string) => options.write(prettyLine(line));
  const logger = pino(
    {
      level: options.level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    gathered ?? { write: written },
  );
  // Without the asynchronous destination, each request line is handed over as a string at once.
  LINES.set(logger, gathered ?? new LineBytes(0, (bytes, length) => written(bytes.toString('utf8', 0, length))));
  return {
    logger,
    async flush() {
      if (!destination) return;
      if (gathered) {
        gathered.handOver();
        process.off('beforeExit', gathered.handOver);
        process.off('exit', gathered.handOver);
      }
      // The write under way first (its callback comes once it is written; an error, stderr gone,
      // ends the wait too), then what is left at once: written after it, so the lines keep their order.
      await new Promise<void>((resolve) => destination.flush(() => resolve()));
      try {
        destination.flushSync();
      } catch {
        // Stderr is gone: nothing to save.
      }
    },
  };
}

/** Room for a line beyond its strings' own bytes (the field names, the time, the numbers). */
const LINE_FRAME = 320;

/**
 * The bytes of the log's lines not yet handed over: the request lines are written into one reused
 * buffer as UTF-8 JSON, byte by byte (the ASCII of ids, names and addresses as it is; a string
 * with anything JSON escapes or any non-ASCII character through JSON.stringify), pino's own lines
 * (start-up, store, drain) as the strings pino makes, in the order they come. Once `gather` bytes
 * are held (4 KiB: about sixteen request lines), they are handed over in one piece, copied (the
 * asynchronous destination writes them while the buffer takes the next lines); `handOver()`
 * hands over what is held at once (the timer, flush, the process's exit). Nothing is made per
 * request: no string, no object, no closure.
 */
export class LineBytes {
  private bytes = Buffer.allocUnsafe(64 * 1024);
  private length = 0;

  constructor(
    private readonly gather: number,
    private readonly handTo: (bytes: Buffer, length: number) => void,
  ) {}

  /** A line as a string (pino's stream interface). */
  write(line: string): boolean {
    this.room(line.length * 3);
    this.length += this.bytes.write(line, this.length, 'utf8');
    this.lineEnded();
    return true;
  }

  readonly handOver = (): void => {
    const length = this.length;
    if (length === 0) return;
    this.length = 0;
    this.handTo(this.bytes, length);
  };

  /** After each line: handed over once enough is held. */
  lineEnded(): void {
    if (this.length >= this.gather) this.handOver();
  }

  /** Makes room for `needed` more bytes (a larger buffer, rarely: a line is a few hundred bytes). */
  room(needed: number): void {
    if (this.length + needed <= this.bytes.length) return;
    const larger = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.length + needed));
    this.bytes.copy(larger, 0, 0, this.length);
    this.bytes = larger;
  }

  /** Text known to be printable ASCII without `"` or a backslash (the line's own field names and punctuation). */
  ascii(text: string): void {
    const bytes = this.bytes;
    let at = this.length;
    for (let i = 0; i < text.length; i++) bytes[at++] = text.charCodeAt(i);
    this.length = at;
  }

  /** A JSON string: its ASCII as it is, else what JSON.stringify makes of it, as UTF-8. */
  string(text: string): void {
    const bytes = this.bytes;
    const start = this.length;
    let at = start;
    bytes[at++] = 0x22;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code < 0x20 || code === 0x22 || code === 0x5c || code > 0x7e) {
        this.length = start + bytes.write(JSON.stringify(text), start, 'utf8');
        return;
      }
      bytes[at++] = code;
    }
    bytes[at++] = 0x22;
    this.length = at;
  }

  /** A whole number of at most 2^53 as JSON writes it. */
  integer(value: number): void {
    if (!Number.isSafeInteger(value) || value < 0) {
      this.ascii(JSON.stringify(value));
      return;
    }
    const bytes = this.bytes;
    let digits = 1;
    for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits++;
    let at = this.length + digits;
    this.length = at;
    let rest = value;
    do {
      bytes[--at] = 0x30 + (rest % 10);
      rest = Math.floor(rest / 10);
    } while (rest > 0);
  }

  /** Milliseconds rounded to hundredths, as JSON writes Math.round(ms * 100) / 100 (12, 1.5, 0.25). */
  hundredths(ms: number): void {
    const scaled = Math.round(ms * 100);
    if (!Number.isSafeInteger(scaled) || scaled < 0) {
      this.ascii(JSON.stringify(scaled / 100));
      return;
    }
    const whole = Math.floor(scaled / 100);
    const fraction = scaled - whole * 100;
    this.integer(whole);
    if (fraction === 0) return;
    const bytes = this.bytes;
    bytes[this.length++] = 0x2e;
    bytes[this.length++] = 0x30 + Math.floor(fraction / 10);
    if (fraction % 10 !== 0) bytes[this.length++] = 0x30 + (fraction % 10);
  }
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
  const lines = LINES.get(logger);
  // One function for every request (whenAnswered): what it needs is on the exchange.
  const answered: Answered = (req, res, exchange) => {
    const aborted = !res.writableFinished;
    const status = res.headersSent ? res.statusCode : undefined;
    const durationMs = exchange.ended - exchange.started;
    const bytes = aborted ? 0 : (exchange.bytes ?? 0);
    // A load balancer probes every few seconds: its answered probes and scrapes are debug lines.
    const routine = PROBE_OPERATIONS.has(exchange.operation) && status !== undefined && status < 400;
    const level: Level = status !== undefined && status >= 500 ? 'error' : aborted ? 'warn' : routine ? 'debug' : 'info';
    if (lines) {
      if (logger.isLevelEnabled(level)) putRequestLine(lines, level, exchange, req, status, durationMs, bytes, aborted);
    } else {
      const entry = {
        event: 'request',
        reqId: exchange.requestId,
        operation: exchange.operation,
        method: req.method,
        path: loggablePath(req.url),
        status,
        durationMs: Math.round(durationMs * 100) / 100,
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
    exchange.requestId = typeof sent === 'string' && USABLE_REQUEST_ID.test(sent) ? sent : randomUUID();
    whenAnswered(req, res, answered);
    next(req, res);
  };
  return { layer, settled };
}

let timeMs = 0;
let timeIso = '';
/**
 * A request's line as pino writes it with createServeLogger's options (level label, ISO time, the
 * fields in this order, undefined ones left out, then msg), written as bytes into the log's buffer
 * without pino: its generic serialization of the entry object, the ISO time made anew for each
 * line and the level and hook look-ups were most of what the JSON log cost a cached GET, and the
 * line's text then cost a copy of it into a string and its encoding. The time's text is made once
 * per millisecond; the request id, operation, method and address are ASCII that JSON leaves as it
 * is (checked byte by byte: anything else goes through JSON.stringify); the duration in hundredths
 * of a millisecond, as Math.round(ms * 100) / 100 prints.
 */
function putRequestLine(out: LineBytes, level: Level, exchange: Exchange, req: IncomingMessage, status: number | undefined, durationMs: number, bytes: number, aborted: boolean): void {
  const now = Date.now();
  if (now !== timeMs) {
    timeMs = now;
    timeIso = new Date(now).toISOString();
  }
  const path = loggablePath(req.url);
  const method = req.method;
  const remoteAddress = req.socket.remoteAddress;
  const principal = exchange.principal?.keyId ? exchange.principal : undefined;
  const failure = exchange.failure;
  // Each string may take up to 6 bytes a character once escaped (\u001f); the rest is bounded.
  out.room(
    LINE_FRAME +
      6 *
        (exchange.requestId.length +
          exchange.operation.length +
          (method?.length ?? 0) +
          path.length +
          (remoteAddress?.length ?? 0) +
          (principal ? principal.companyId.length + principal.keyId!.length : 0) +
          (failure?.length ?? 0)),
  );
  out.ascii('{"level":"');
  out.ascii(level);
  out.ascii('","time":"');
  out.ascii(timeIso);
  out.ascii('","event":"request","reqId":');
  out.string(exchange.requestId);
  out.ascii(',"operation":');
  out.string(exchange.operation);
  if (method !== undefined) {
    out.ascii(',"method":');
    out.string(method);
  }
  out.ascii(',"path":');
  out.string(path);
  if (status !== undefined) {
    out.ascii(',"status":');
    out.integer(status);
  }
  out.ascii(',"durationMs":');
  out.hundredths(durationMs);
  out.ascii(',"bytes":');
  out.integer(bytes);
  if (remoteAddress !== undefined) {
    out.ascii(',"remoteAddress":');
    out.string(remoteAddress);
  }
  if (principal) {
    out.ascii(',"companyId":');
    out.string(principal.companyId);
    out.ascii(',"keyId":');
    out.string(principal.keyId!);
  }
  if (aborted) out.ascii(',"aborted":true');
  if (failure) {
    out.ascii(',"error":');
    out.string(failure);
  }
  out.ascii(',"msg":"request"}\n');
  out.lineEnded();
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
