/**
 * What the layers around the dispatch of operations share about one request (its operation's
 * name, its request id, what failed inside), and how they are stacked: a layer takes the next
 * handler and returns one that runs before and after it. The dispatch (server.ts) only names the
 * operation it matched and the failure it met; probes, metrics, logs and the drain live in their
 * own modules.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;
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
  /** Who made the request, once authenticated (server/auth.ts): its key and company, for the log and the records' scoping. */
  principal?: { companyId: string; keyId: string | null; clientId: string | null } | undefined;
  /** What the layers run once the answer is over (whenAnswered): one 'close' listener for them all. */
  answered?: Array<() => void> | undefined;
}

/** Kept on the request itself (a symbol no one else uses), not in a WeakMap: one per request adds up in garbage collection. */
const EXCHANGE = Symbol('shipper.exchange');
type WithExchange = IncomingMessage & { [EXCHANGE]?: Exchange };

export function exchangeOf(req: IncomingMessage): Exchange {
  return ((req as WithExchange)[EXCHANGE] ??= { operation: 'unmatched', requestId: '', failure: undefined, answered: undefined });
}

/**
 * Runs `done` once the answer is over: sent in full, or cut (the client went away). Node emits
 * 'close' on every response, after 'finish' when there is one, so one listener, shared by all
 * the layers of a request, sees both ends (a listener per layer and event cost a cached GET
 * measurably).
 */
export function whenAnswered(req: IncomingMessage, res: ServerResponse, done: () => void): void {
  const exchange = exchangeOf(req);
  if (exchange.answered) {
    exchange.answered.push(done);
    return;
  }
  const answered = (exchange.answered = [done]);
  res.on('close', () => {
    for (const callback of answered) callback();
  });
}

/** The first layer is the outermost: it sees the request first and the response last. */
export function compose(layers: readonly Layer[], core: Handler): Handler {
  return layers.reduceRight<Handler>((next, layer) => layer(next), core);
}

/** A small JSON answer written by a layer (probes, metrics), with the headers every answer of serve has. */
export function sendPlain(req: IncomingMessage, res: ServerResponse, status: number, body: string, contentType: string, headers: Record<string, string> = {}): void {
  const payload = Buffer.from(body, 'utf8');
  res.writeHead(status, {
    'content-type': contentType,
    'content-length': payload.byteLength,
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(req.method === 'HEAD' ? undefined : payload);
}
