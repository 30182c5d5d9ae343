/**
 * What the layers around the dispatch of operations share about one request (its operation's
 * name, its request id, what failed inside), and how they are stacked: a layer takes the next
 * handler and returns one that runs before and after it. The dispatch (server.ts) only names the
 * operation it matched and the failure it met; probes, metrics, logs and the drain live in their
 * own modules.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** The request id of every answer, when the request log is on (requestLog.ts). */
export const REQUEST_ID_HEADER = 'x-request-id';
export type Layer = (next: Handler) => Handler;

export interface Exchange {
  /**
   * The operations table's name of the operation (createShipment), or what the request was
   * instead: openapi, not-found, method-not-allowed, bad-id, healthz, readyz, metrics. Never a
   * path: it labels metrics, whose labels must stay few.
   */
  operation: string;
  /** The client's X-Request-Id when it sent a usable one, else one made here ('' without the log layer). */
  requestId: string;
  /** What failed inside the service (a 5xx), for the operator's log only. */
  failure?: string | undefined;
  /** The answer's body size as sent (0 for HEAD), once written by send or sendPlain. */
  bytes?: number | undefined;
  /** Who made the request, once authenticated (server/auth.ts): its key and company, for the log and the records' scoping. */
  principal?: { companyId: string; keyId: string | null; clientId: string | null } | undefined;
  /** What the layers run once the answer is over (whenAnswered): one 'close' listener for them all. */
  answered?: Answered[] | undefined;
  /** performance.now() when the first layer saw the request (0 until a layer asks: startedAt). */
  started: number;
  /** performance.now() when the answer was over, once whenAnswered's listener ran. */
  ended: number;
}

/** What a layer runs once a request's answer is over: one function per layer, not a closure per request. */
export type Answered = (req: IncomingMessage, res: ServerResponse, exchange: Exchange) => void;

/** Kept on the request itself (a symbol no one else uses), not in a WeakMap: one per request adds up in garbage collection. */
const EXCHANGE = Symbol('shipper.exchange');
type WithExchange = IncomingMessage & { [EXCHANGE]?: Exchange };

export function exchangeOf(req: IncomingMessage): Exchange {
  return ((req as WithExchange)[EXCHANGE] ??= { operation: 'unmatched', requestId: '', failure: undefined, bytes: undefined, answered: undefined, started: 0, ended: 0 });
}

/** When the request reached the layers (the first layer to ask reads the clock; the others share it). */
export function startedAt(exchange: Exchange): number {
  if (exchange.started === 0) exchange.started = performance.now();
  return exchange.started;
}

/**
 * Writes the status and headers, with the request's X-Request-Id when it has one. The id goes in
 * writeHead's own headers, not by setHeader beforehand: a header set before writeHead sends the
 * whole answer down node:http's slower path (every header set and validated again one by one).
 */
export function writeHead(req: IncomingMessage, res: ServerResponse, status: number, headers: Record<string, string | string[] | number>): void {
  const { requestId } = exchangeOf(req);
  if (requestId) headers[REQUEST_ID_HEADER] = requestId;
  res.writeHead(status, headers);
}

/**
 * Runs `done` once the answer is over: sent in full, or cut (the client went away). Node emits
 * 'close' on every response, after 'finish' when there is one, so one listener, shared by all
 * the layers of a request, sees both ends (a listener per layer and event cost a cached GET
 * measurably). The listener is one function for every response (it finds the request as
 * `res.req`) and each layer passes the same `done` for every request: nothing is made per request
 * but the list of the layers' functions.
 */
export function whenAnswered(req: IncomingMessage, res: ServerResponse, done: Answered): void {
  const exchange = exchangeOf(req);
  if (exchange.answered) {
    exchange.answered.push(done);
    return;
  }
  exchange.answered = [done];
  res.on('close', answerOver);
}

function answerOver(this: ServerResponse): void {
  const req = this.req;
  const exchange = exchangeOf(req);
  exchange.ended = performance.now();
  for (const done of exchange.answered!) done(req, this, exchange);
}

/** The first layer is the outermost: it sees the request first and the response last. */
export function compose(layers: readonly Layer[], core: Handler): Handler {
  return layers.reduceRight<Handler>((next, layer) => layer(next), core);
}

/** A small JSON answer written by a layer (probes, metrics), with the headers every answer of serve has. */
export function sendPlain(req: IncomingMessage, res: ServerResponse, status: number, body: string, contentType: string, headers: Record<string, string> = {}): void {
  const length = Buffer.byteLength(body, 'utf8');
  writeHead(req, res, status, {
    'content-type': contentType,
    'content-length': length,
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
    ...headers,
  });
  const head = req.method === 'HEAD';
  exchangeOf(req).bytes = head ? 0 : length;
  res.end(head ? undefined : body);
}
