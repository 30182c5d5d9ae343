/**
 * Every operation of the Shipper Freight API, declared once (a table per resource in operations/): method, path, path parameters, query
 * and body schemas, success response, error statuses. Derived from this table:
 * - the ShipperApi interface (types.ts), which both implementations satisfy;
 * - the server's routing and dispatch (server/routes.ts, server/server.ts);
 * - the remote client's calls (api/remote.ts);
 * - the OpenAPI `paths` (api/openapi.ts);
 * - the MCP tools of `shipper mcp` (mcp/tools.ts).
 * (`shipper serve` keeps recently read records in memory below the API, in the store, so no
 * operation needs to say anything about caching.)
 *
 * Calling convention of a ShipperApi method, the same for every operation:
 *   api.op(...pathParameters, body?, options?)
 * where options holds the query parameters and, for operations that honour it, idempotencyKey.
 *
 * Pure: zod schemas only, no I/O.
 */
import { appointmentOperations } from './operations/appointments.js';
import { documentOperations } from './operations/documents.js';
import { quoteOperations } from './operations/quotes.js';
import { shipmentOperations } from './operations/shipments.js';
import { trackingOperations } from './operations/tracking.js';

export { API_PREFIX, JSON_TYPE, OPENAPI_PATH, PDF_TYPE, PROBLEM_TYPE } from './wire.js';
export * from './operations/spec.js';
export { createdRange, MAX_KEY_FILTER_VALUES } from './operations/queries.js';
export { ZPL_TYPE } from './operations/documents.js';
export type { ShipmentListQuery } from './operations/shipments.js';

export const operations = {
  ...quoteOperations,
  ...shipmentOperations,
  ...trackingOperations,
  ...documentOperations,
  ...appointmentOperations,
};

export type Operations = typeof operations;
export type OperationName = keyof Operations;
export const OPERATION_NAMES = Object.keys(operations) as OperationName[];
