/**
 * The route table of `shipper serve`: method and path to an operation. Pure. Ids are matched on
 * the raw path segment against the store's id alphabet, so no encoded `/`, `..` or other path
 * trick ever reaches the store: such a segment is simply an id that does not exist.
 */
import { API_PREFIX, OPENAPI_PATH } from '../api/wire.js';

export type Operation =
  | 'createQuote'
  | 'listQuotes'
  | 'getQuote'
  | 'createShipment'
  | 'listShipments'
  | 'getShipment'
  | 'getBol'
  | 'listBolTemplates'
  | 'transitTimes'
  | 'createShipments'
  | 'previewShipments'
  | 'openapi';

export type RouteMatch =
  | { kind: 'operation'; operation: Operation; id: string }
  | { kind: 'method-not-allowed'; allow: string[] }
  | { kind: 'bad-id'; resource: 'quote' | 'shipment'; id: string }
  | { kind: 'not-found' };

const SAFE_ID = /^[A-Za-z0-9_-]{1,128}$/;

type MethodTable = Partial<Record<'GET' | 'POST', Operation>>;

function pick(methods: MethodTable, method: string, id = ''): RouteMatch {
  const operation = methods[(method === 'HEAD' ? 'GET' : method) as 'GET' | 'POST'];
  if (operation) return { kind: 'operation', operation, id };
  const allow = Object.keys(methods).flatMap((name) => (name === 'GET' ? ['GET', 'HEAD'] : [name]));
  return { kind: 'method-not-allowed', allow };
}

export function matchRoute(method: string, pathname: string): RouteMatch {
  if (pathname === OPENAPI_PATH) return pick({ GET: 'openapi' }, method);
  if (!pathname.startsWith(`${API_PREFIX}/`)) return { kind: 'not-found' };
  const segments = pathname.slice(API_PREFIX.length + 1).split('/');
  const [collection, id, sub] = segments;
  if (segments.length > 3) return { kind: 'not-found' };

  if (collection === 'bol-templates' && segments.length === 1) return pick({ GET: 'listBolTemplates' }, method);
  if (collection === 'transit' && segments.length === 1) return pick({ POST: 'transitTimes' }, method);
  if (collection === 'shipment-batch' && segments.length === 1) return pick({ POST: 'createShipments' }, method);
  if (collection === 'shipment-preview' && segments.length === 1) return pick({ POST: 'previewShipments' }, method);
  if (collection !== 'quote' && collection !== 'shipment') return { kind: 'not-found' };
  const resource = collection;

  if (id === undefined) {
    return resource === 'quote' ? pick({ POST: 'createQuote', GET: 'listQuotes' }, method) : pick({ POST: 'createShipment', GET: 'listShipments' }, method);
  }
  if (sub !== undefined && (resource !== 'shipment' || sub !== 'bol')) return { kind: 'not-found' };
  const methods: MethodTable = sub === 'bol' ? { GET: 'getBol' } : { GET: resource === 'quote' ? 'getQuote' : 'getShipment' };
  const match = pick(methods, method);
  if (match.kind !== 'operation') return match;
  if (!SAFE_ID.test(id)) return { kind: 'bad-id', resource, id };
  return { ...match, id };
}
