/** Request limits shared by the zod schemas and the CLI, kept free of zod so the CLI's start-up stays light. */
export const MAX_TRANSIT_DESTINATIONS = 1000;
export const MAX_TRANSIT_PICKUP_DAYS = 60;
/** Shipments per request of the batch extensions (POST /v1/shipper/shipment-batch, /shipment-preview). */
export const MAX_BATCH_ITEMS = 500;
/** Idempotency keys (header or body): printable ASCII, no spaces, at most 255 characters; hashed, never a file name. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7E]{1,255}$/;
/** Pages of the list operations. */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 500;
