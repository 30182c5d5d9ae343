/**
 * Batches over any ShipperApi: the implementation's own batch method when it has one (LocalApi),
 * else one call per item with a few in flight (a remote server: POST /v1/shipper/shipment with
 * an Idempotency-Key header per shipment, POST /v1/shipper/quote to price one).
 */
import type { Quote, Shipment } from '../domain/schemas.js';
import { quoteRequestForShipment, shipmentFieldOfQuoteField } from '../domain/shipment.js';
import { shipmentRequestSchema } from '../domain/schemas.js';
import { parseRequest } from '../domain/validation.js';
import { mapInOrder } from '../concurrency.js';
import { constraintViolation, ProblemError } from './problems.js';
import type { ApiResult, BatchOutcome, ShipmentBatchItem, ShipperApi } from './types.js';

/** Requests in flight at once in the per-item fallback: enough to hide latency, few enough to be polite. */
export const FALLBACK_CONCURRENCY = 8;

export async function bookShipments(api: ShipperApi, items: ShipmentBatchItem[]): Promise<Array<BatchOutcome<Shipment>>> {
  if (api.createShipments) return api.createShipments(items);
  return bookShipmentsOneByOne(api, items);
}

/** One createShipment per item, a few in flight: for a server without the batch extension. */
export async function bookShipmentsOneByOne(api: ShipperApi, items: ShipmentBatchItem[]): Promise<Array<BatchOutcome<Shipment>>> {
  return mapInOrder(items, FALLBACK_CONCURRENCY, (item) =>
    outcomeOf(() => api.createShipment(item.request, { idempotencyKey: item.idempotencyKey })),
  );
}

export async function previewShipments(api: ShipperApi, requests: unknown[]): Promise<Array<BatchOutcome<Quote>>> {
  if (api.previewShipments) return api.previewShipments(requests);
  return previewShipmentsOneByOne(api, requests);
}

/**
 * One quote per shipment (GET for a quoteId): for a server without the preview extension. Quoting
 * creates quotes on that server, a side effect the preview extension does not have.
 */
export async function previewShipmentsOneByOne(api: ShipperApi, requests: unknown[]): Promise<Array<BatchOutcome<Quote>>> {
  return mapInOrder(requests, FALLBACK_CONCURRENCY, async (raw): Promise<BatchOutcome<Quote>> => {
    const parsed = parseRequest(shipmentRequestSchema, raw);
    if (!parsed.ok) return { ok: false, problem: constraintViolation(parsed.violations).problem };
    const request = parsed.value;
    const outcome = await outcomeOf(() => (request.quoteId ? api.getQuote(request.quoteId) : api.createQuote(quoteRequestForShipment(request))));
    if (outcome.ok || !outcome.problem.violations) return outcome;
    // The server judged a quote request: name the shipment fields the user wrote.
    const violations = outcome.problem.violations.map((violation) => ({ ...violation, field: shipmentFieldOfQuoteField(violation.field) }));
    return { ok: false, problem: { ...outcome.problem, violations } };
  });
}

/**
 * A rejection of this one item (4xx: invalid, unknown, conflicting) becomes its outcome; anything
 * else (server error, network, authentication, rate limit) concerns every item and is thrown.
 */
async function outcomeOf<T>(call: () => Promise<ApiResult<T>>): Promise<BatchOutcome<T>> {
  try {
    const result = await call();
    return { ok: true, data: result.data, warnings: result.warnings, replayed: result.replayed ?? false };
  } catch (error) {
    if (error instanceof ProblemError && isItemRejection(error.status)) return { ok: false, problem: error.problem };
    throw error;
  }
}

function isItemRejection(status: number): boolean {
  return status >= 400 && status < 500 && status !== 401 && status !== 403 && status !== 429;
}
