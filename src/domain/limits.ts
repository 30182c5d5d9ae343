/** Request limits shared by the zod schemas and the CLI, kept free of zod so the CLI's start-up stays light. */
export const MAX_TRANSIT_DESTINATIONS = 1000;
export const MAX_TRANSIT_PICKUP_DAYS = 60;
/**
 * Lanes x pickup days of one transit request: what bounds its answer (about 340 bytes of JSON per
 * lane and day, closed days included: at most about 1.7 MB; 1,000 lanes x 60 days was 20.6 MB).
 * 1,000 lanes for one day, 100 lanes for 50 days, 1,000 lanes for 5 days fit.
 */
export const MAX_TRANSIT_LANE_DAYS = 5000;
/** Shipments per request of the batch extensions (POST /v1/shipper/shipment-batch, /shipment-preview). */
export const MAX_BATCH_ITEMS = 500;
/**
 * Order components over all the items of one batch request (one shipment alone may have 1,000):
 * bounds the work and the answer of a request (500 items of 1,000 components were 500,000).
 */
export const MAX_BATCH_COMPONENTS = 5000;
/** Idempotency keys (header or body): printable ASCII, no spaces, at most 255 characters; hashed, never a file name. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7E]{1,255}$/;
