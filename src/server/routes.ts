/**
 * Routing of `shipper serve`, derived from the operations table: method and path to an operation
 * and its path parameters. Pure. Ids are matched on the raw path segment against the store's id
 * alphabet, so no encoded `/`, `..` or other path trick ever reaches the store: such a segment is
 * simply an id that does not exist.
 */
import { OPENAPI_PATH, OPERATION_NAMES, operations, resourceOfParam, SAFE_ID, type OperationName } from '../api/operations.js';

export type RouteMatch =
  | { kind: 'operation'; operation: OperationName; params: string[] }
  | { kind: 'openapi' }
  | { kind: 'method-not-allowed'; allow: string[] }
  | { kind: 'bad-id'; resource: string; id: string }
  | { kind: 'not-found' };

interface Route {
  operation: OperationName;
  method: string;
  /** The path's segments after the leading `/`: a literal, or null for a parameter. */
  segments: ReadonlyArray<string | null>;
  params: readonly string[];
  /** Literal segments first: `/shipment-batch` before `/shipment/{id}`. */
  literals: number;
}

/**
 * The routes by their number of segments, most literal segments first: a path is compared, segment
 * by segment, with the routes of its own length only (no regular expression per route).
 */
const ROUTES_BY_LENGTH = new Map<number, Route[]>();
for (const operation of OPERATION_NAMES) {
  const spec = operations[operation];
  const segments = spec.path
    .split('/')
    .slice(1)
    .map((part) => (part.startsWith('{') ? null : part));
  const route: Route = { operation, method: spec.method, segments, params: spec.params, literals: segments.filter((part) => part !== null).length };
  const routes = ROUTES_BY_LENGTH.get(segments.length) ?? [];
  routes.push(route);
  ROUTES_BY_LENGTH.set(segments.length, routes);
}
for (const routes of ROUTES_BY_LENGTH.values()) routes.sort((a, b) => b.literals - a.literals);

/** The values of the route's parameters in `parts` (the path's segments), or undefined when the path is not the route's. */
function valuesOf(route: Route, parts: readonly string[]): string[] | undefined {
  const values: string[] = [];
  for (let index = 0; index < parts.length; index++) {
    const literal = route.segments[index];
    const part = parts[index]!;
    if (literal === null) {
      if (part === '') return undefined;
      values.push(part);
    } else if (literal !== part) return undefined;
  }
  return values;
}

function allowed(methods: string[]): string[] {
  return [...new Set(methods)].flatMap((method) => (method === 'GET' ? ['GET', 'HEAD'] : [method]));
}

/**
 * How much an Accept header wants `mediaType`: the q of the most specific range that covers it
 * (RFC 9110 12.5.1). No header wants anything.
 */
export function acceptQuality(accept: string | undefined, mediaType: string): number {
  if (!accept) return 1;
  const anySubtype = `${mediaType.split('/')[0]}/*`;
  let best = { specificity: -1, q: 0 };
  for (const part of accept.split(',')) {
    const [range = '', ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const specificity = range === mediaType ? 2 : range === anySubtype ? 1 : range === '*/*' ? 0 : -1;
    if (specificity <= best.specificity) continue;
    const q = Number(parameters.find((parameter) => parameter.startsWith('q='))?.slice(2) ?? 1);
    best = { specificity, q: Number.isFinite(q) ? q : 0 };
  }
  return best.q;
}

/** Among operations on one method and path (JSON or PDF), the one whose media type `accept` prefers; the first on a tie. */
function negotiated(routes: Route[], accept: string | undefined): Route {
  let chosen = routes[0]!;
  let quality = -1;
  for (const route of routes) {
    const response = operations[route.operation].response;
    const q = acceptQuality(accept, 'mediaType' in response ? response.mediaType : 'application/json');
    if (q > quality) [chosen, quality] = [route, q];
  }
  return chosen;
}

/**
 * Operations on paths without ids (POST quote, POST shipment, ...), matched on nearly every
 * request of a busy server: the answer does not depend on the Accept header when one route
 * answers, so it is worked out once per method and path. At most one entry per such operation.
 */
const literalMatches = new Map<string, RouteMatch>();

export function matchRoute(method: string, pathname: string, accept?: string): RouteMatch {
  const key = `${method} ${pathname}`;
  const known = literalMatches.get(key);
  if (known) return known;
  const match = findRoute(method, pathname, accept);
  if (match.kind === 'operation' && match.params.length === 0 && !match.negotiated) {
    const frozen: RouteMatch = Object.freeze({ kind: 'operation', operation: match.operation, params: Object.freeze([]) as unknown as string[] });
    literalMatches.set(key, frozen);
    return frozen;
  }
  return match.kind === 'operation' ? { kind: 'operation', operation: match.operation, params: match.params } : match;
}

function findRoute(
  method: string,
  pathname: string,
  accept?: string,
): Exclude<RouteMatch, { kind: 'operation' }> | (Extract<RouteMatch, { kind: 'operation' }> & { negotiated: boolean }) {
  const wanted = method === 'HEAD' ? 'GET' : method;
  if (pathname === OPENAPI_PATH) return wanted === 'GET' ? { kind: 'openapi' } : { kind: 'method-not-allowed', allow: ['GET', 'HEAD'] };
  // Only the routes of the most specific path shape (the most literal segments) answer this path:
  // ROUTES are sorted by that, so the first match says which, and the routes after its shape's
  // are not tried.
  const best: Array<{ route: Route; values: string[] }> = [];
  const parts = pathname.split('/');
  // A path is `/` and its segments: anything else (no leading slash) is no route's.
  if (parts[0] !== '') return { kind: 'not-found' };
  parts.shift();
  for (const route of ROUTES_BY_LENGTH.get(parts.length) ?? []) {
    if (best.length > 0 && route.literals !== best[0]!.route.literals) break;
    const values = valuesOf(route, parts);
    if (values) best.push({ route, values });
  }
  if (best.length === 0) return { kind: 'not-found' };
  const candidates = best.filter((match) => match.route.method === wanted);
  const chosen =
    candidates.length > 1
      ? negotiated(
          candidates.map((match) => match.route),
          accept,
        )
      : candidates[0]?.route;
  const hit = candidates.find((match) => match.route === chosen);
  if (!hit) return { kind: 'method-not-allowed', allow: allowed(best.map((match) => match.route.method)) };
  const bad = hit.values.findIndex((value) => !SAFE_ID.test(value));
  if (bad !== -1) return { kind: 'bad-id', resource: resourceOfParam(hit.route.params[bad]!), id: hit.values[bad]! };
  return { kind: 'operation', operation: hit.route.operation, params: hit.values, negotiated: candidates.length > 1 };
}

const URL_BASE = 'http://service.invalid';

/** What the server reads of a request's target: its path, its query string and parameters. */
export type RequestTarget = Pick<URL, 'pathname' | 'search' | 'searchParams'>;

/**
 * Whether the target is a path of plain segments (letters, digits, `_`, `-`, `~`, `.` inside a
 * segment), without a query: what nearly every request is (an id, a collection), and what the URL
 * parser would give back as it is (no dot segment, no empty one, nothing to percent-encode). One
 * pass over the characters: a regular expression with a look-ahead per segment cost a cached GET
 * more than its routing.
 */
function isPlainPath(target: string): boolean {
  if (target.length < 2 || target.charCodeAt(0) !== 0x2f) return false;
  let segmentStart = 1;
  let dots = 0;
  for (let index = 1; index <= target.length; index++) {
    const code = index === target.length ? 0x2f : target.charCodeAt(index);
    if (code === 0x2f) {
      const length = index - segmentStart;
      // An empty segment, `.` or `..`: the URL parser would change the path.
      if (length === 0 || (dots === length && length <= 2)) return false;
      segmentStart = index + 1;
      dots = 0;
    } else if (code === 0x2e) dots++;
    else if (!((code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39) || code === 0x5f || code === 0x2d || code === 0x7e)) return false;
  }
  return true;
}

/** The request target, parsed once; an absolute-form target the URL parser refuses (`GET http://[ HTTP/1.1`) is routed as "/", a 404. */
export function requestUrl(target = '/'): RequestTarget {
  // The URL parser's answer for a plain path is that path: no parser, no URL object per request.
  if (isPlainPath(target))
    return {
      pathname: target,
      search: '',
      get searchParams() {
        return new URLSearchParams();
      },
    };
  try {
    return new URL(target, URL_BASE);
  } catch {
    return new URL(`${URL_BASE}/`);
  }
}
