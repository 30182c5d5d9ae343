/**
 * Every operation of the Shipper Freight API, declared once: method, path, path parameters, query
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
import { z } from 'zod';
import {
  bolTemplateInfoSchema,
  cancelRequestSchema,
  isoDateSchema,
  pageSchema,
  quoteRequestSchema,
  quoteSchema,
  shipmentBatchRequestSchema,
  shipmentBatchResultSchema,
  shipmentPreviewRequestSchema,
  shipmentPreviewResultSchema,
  shipmentRequestSchema,
  shipmentSchema,
  shipmentUpdateSchema,
  tenderDocumentSchema,
  tenderRequestSchema,
  transitRequestSchema,
  transitTableSchema,
} from '../domain/schemas.js';
import { accessorialListSchema } from '../domain/accessorials.js';
import { invoiceSchema } from '../domain/invoice.js';
import { ratesRequestSchema, ratesSchema } from '../domain/rates.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../domain/limits.js';
import { ORDER_STATUS_FILTERS, QUOTE_STATUSES, TRACKING_FILTERS } from '../domain/statuses.js';
import { publishedTrackingSchema, shipmentTrackingSchema } from '../domain/tracking.js';
import { ZIP_CODE_PATTERN } from '../domain/zipCode.js';
import { DATE_PATTERN } from '../domain/dates.js';
import { onFirstUse } from '../domain/schemaOnFirstUse.js';
import { shipmentEventsBatchRequestSchema, shipmentEventsBatchResultSchema, shipmentEventsRequestSchema, shipmentEventsResultSchema } from '../domain/trackingRequests.js';

import { API_PREFIX, PDF_TYPE } from './wire.js';

export { API_PREFIX, JSON_TYPE, OPENAPI_PATH, PDF_TYPE, PROBLEM_TYPE } from './wire.js';

/** A named schema: `id` is its component name in the OpenAPI document. */
export interface NamedSchema<S extends z.ZodType = z.ZodType> {
  id: string;
  schema: S;
}

/** A request body; `optional`: an empty body is the same as none (the schema then reads undefined). */
export interface BodySpec<S extends z.ZodType = z.ZodType> extends NamedSchema<S> {
  optional?: boolean;
}

export type JsonResponse<S extends z.ZodType = z.ZodType> = { status: 200 | 201; description: string } & NamedSchema<S>;
/** A document that is not JSON (a PDF): the method resolves with its bytes. */
export interface BinaryResponse {
  status: 200;
  description: string;
  mediaType: string;
  /** The media type by the value of the `format` query parameter, when the operation has several. */
  mediaTypes?: Record<string, string>;
  /** The file name the server suggests (Content-Disposition), from the path parameters and the query. */
  fileName: (params: readonly string[], query: Record<string, unknown>) => string;
}

/** The media type a binary operation answers for these options (its `format`, else the default). */
export function mediaTypeOf(response: BinaryResponse, options: Record<string, unknown>): string {
  const format = options.format;
  return (typeof format === 'string' && response.mediaTypes?.[format]) || response.mediaType;
}

/** Problem statuses an operation can answer, each described once in the OpenAPI document. */
export type ErrorStatus = 400 | 401 | 404 | 409 | 413 | 415 | 422 | 500;

export interface OperationSpec {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH';
  /** Path template, parameters in braces: `/v1/shipper/quote/{quoteId}`. */
  path: string;
  /** The path parameters in the order the method takes them (ids of the store's alphabet). */
  params: readonly string[];
  /** Query parameters (strings on the wire, parsed by this schema in both implementations). */
  query?: z.ZodObject;
  body?: BodySpec;
  /** The operation honours an Idempotency-Key (header over HTTP, `idempotencyKey` option in the API). */
  idempotent?: boolean;
  response: JsonResponse | BinaryResponse;
  /** For operations that create a resource: the operation whose path, filled with its id, is the Location header. */
  location?: string;
  errors: readonly ErrorStatus[];
  summary: string;
  description?: string;
  tags: readonly string[];
  /** Not in the published v1 document: an addition of this implementation (`x-extension: true`). */
  extension: boolean;
  /** The OpenAPI operationId, when it is not the method's name. */
  operationId?: string;
}

/** An id path segment: the store's id alphabet, so no encoded `/`, `..` or other trick reaches the store. */
export const SAFE_ID = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * Query schemas are built on first use (`shipper quote` parses no list query): the operations
 * table names each with a getter.
 */
function once<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}

const limitQuery = () =>
  z.coerce
    .number({ error: `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}` })
    .int({ message: `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}` })
    .min(1, { message: `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}` })
    .max(MAX_PAGE_SIZE, { message: `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}` })
    .optional()
    .meta({ description: `Page size, 1 to ${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE})` });

const pageQuery = once(() => ({
  limit: limitQuery(),
  cursor: z.string().optional().meta({ description: '`nextCursor` of the previous page' }),
}));

/** A day (from 00:00 UTC) or an instant; `until` includes the whole day it names. */
const dayOrInstant = (what: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2}))?$/, { message: `${what} is a date YYYY-MM-DD or an ISO-8601 instant, e.g. 2026-11-23`, abort: true })
    .refine((value) => !Number.isNaN(Date.parse(value)) && isoDateSchema.safeParse(value.slice(0, 10)).success, {
      error: (issue) => `${what} ${String(issue.input)} is not a day of the calendar`,
    })
    .optional();

/** A `since`/`until` day (UTC) or instant as a range of instants; `until` includes its whole day. */
export function createdRange(since: string | undefined, until: string | undefined): { from?: number; to?: number } {
  const isDay = (value: string) => DATE_PATTERN.test(value);
  return {
    ...(since !== undefined ? { from: Date.parse(isDay(since) ? `${since}T00:00:00Z` : since) } : {}),
    ...(until !== undefined ? { to: isDay(until) ? Date.parse(`${until}T00:00:00Z`) + 86_400_000 - 1 : Date.parse(until) } : {}),
  };
}

/** A period that ends before it starts matches nothing: refused, so that a swapped pair is noticed. */
const orderedPeriod = (query: { since?: string | undefined; until?: string | undefined }, ctx: z.RefinementCtx) => {
  const { from, to } = createdRange(query.since, query.until);
  if (from !== undefined && to !== undefined && to < from) {
    ctx.addIssue({ code: 'custom', path: ['until'], message: `until ${query.until} is before since ${query.since}: the period is empty` });
  }
};

const createdFilters = once(() => ({
  since: dayOrInstant('since').meta({ description: 'Created on or after this day (UTC) or instant' }),
  until: dayOrInstant('until').meta({ description: 'Created on or before this day (UTC, the whole day) or instant' }),
  to: z
    .string()
    .regex(ZIP_CODE_PATTERN, { message: 'to is a destination ZIP code: 5 digits, or ZIP+4 (10001, 10001-1234)' })
    .optional()
    .meta({ description: "Destination ZIP code (the consignee's)" }),
  refNumber: z.string().max(64).optional().meta({ description: 'The customer reference (case and spaces ignored); for quotes, those booked under it' }),
}));

/** Up to 100 carrier keys, comma-separated: the audit of carriers' bills looks shipments up by PRO or BOL number. */
const keyListFilter = (what: string, pattern: RegExp, example: string) =>
  z
    .string()
    .regex(pattern, { message: `${what} takes up to 100 numbers separated by commas, e.g. ${example}` })
    .optional();
export const MAX_KEY_FILTER_VALUES = 100;

const shipmentListQuery = once(() =>
  z
    .strictObject({
      ...pageQuery(),
      ...createdFilters(),
      orderStatus: z
        .enum(ORDER_STATUS_FILTERS, { error: `orderStatus is one of ${ORDER_STATUS_FILTERS.join(', ')}` })
        .optional()
        .meta({ description: 'Only shipments in this order state; ACTIVE: in any state but CANCELLED' }),
      proNumber: keyListFilter('proNumber', /^[A-Za-z0-9 -]{1,24}(,[A-Za-z0-9 -]{1,24}){0,99}$/, '1234567-8,1234568-9').meta({
        description: 'Only shipments with one of these carrier PRO numbers (comma-separated, at most 100; case, spaces and dashes ignored)',
      }),
      bolNumber: keyListFilter('bolNumber', /^\d{17}(,\d{17}){0,99}$/, '06141410000000012').meta({
        description: 'Only shipments with one of these 17-digit BOL numbers (comma-separated, at most 100)',
      }),
      orderNumber: z
        .string()
        .trim()
        .regex(/^SO-?\d{1,15}$/i, { message: 'orderNumber is an order number such as SO-000123' })
        .optional()
        .meta({ description: 'Only the shipment with this order number (SO-000123; case, the dash and leading zeros ignored)' }),
      tracking: z
        .enum(TRACKING_FILTERS, { error: `tracking is one of ${TRACKING_FILTERS.join(', ')}` })
        .optional()
        .meta({
          description:
            'Where the freight is: delivered, in-transit (picked up and not yet delivered), exception, or late (delivered after the promised day, or not delivered and past it or expected after it)',
        }),
    })
    .superRefine(orderedPeriod),
);
export type ShipmentListQuery = z.output<ReturnType<typeof shipmentListQuery>>;

const quoteListQuery = once(() =>
  z
    .strictObject({
      ...pageQuery(),
      ...createdFilters(),
      status: z.enum(QUOTE_STATUSES, { error: 'status is OPEN, EXPIRED or BOOKED' }).optional().meta({ description: 'OPEN, EXPIRED or BOOKED' }),
    })
    .superRefine(orderedPeriod),
);

const templateQuery = once(() =>
  z.strictObject({
    template: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, { message: 'template names are letters, digits, - and _ (at most 64)' })
      .optional()
      .meta({ description: 'BOL template name (default `standard`)' }),
  }),
);

const labelQuery = once(() =>
  z.strictObject({
    format: z.enum(['pdf', 'zpl'], { error: 'format is pdf or zpl' }).optional().meta({ description: 'pdf (4x6 in pages, the default) or zpl (203 dpi thermal printers)' }),
  }),
);

export const ZPL_TYPE = 'application/zpl';

/** `?include=location`, which the official client sends; shipper has no GPS points to add, so it changes nothing. */
const trackingQuery = once(() =>
  z.strictObject({
    include: z.enum(['location'], { error: 'include is location' }).optional().meta({ description: 'Accepted for the official client; shipper has no location points to add' }),
  }),
);

/** A PUT that takes no body: none, an empty one, or JSON null or {} (clients send Content-Type: application/json regardless). */
const emptyBodySchema = onFirstUse(() =>
  z
    .strictObject({})
    .nullish()
    .transform(() => undefined),
);

const quotePage = onFirstUse(() => pageSchema(quoteSchema));
const shipmentPage = onFirstUse(() => pageSchema(shipmentSchema));
const bolTemplateList = onFirstUse(() => z.object({ items: z.array(bolTemplateInfoSchema) }));

const WRITE_ERRORS = [400, 401, 413, 415, 422, 500] as const;

function operation<const O extends OperationSpec>(spec: O): O {
  return spec;
}

export const operations = {
  createQuote: operation({
    method: 'POST',
    path: `${API_PREFIX}/quote`,
    params: [],
    body: { id: 'QuoteRequest', schema: quoteRequestSchema },
    idempotent: true,
    response: { status: 200, description: 'The quote', id: 'Quote', schema: quoteSchema },
    location: 'getQuote',
    errors: WRITE_ERRORS,
    summary: 'Quote a shipment: price, expiry, transit days and ETA, freight class from density',
    tags: ['Quotes'],
    extension: false,
    operationId: 'requestQuote',
  }),
  shopRates: operation({
    method: 'POST',
    path: `${API_PREFIX}/rates`,
    params: [],
    body: { id: 'RatesRequest', schema: ratesRequestSchema },
    response: { status: 200, description: 'One stored quote per carrier that prices the shipment, cheapest first, and the carriers that do not', id: 'Rates', schema: ratesSchema },
    errors: [400, 401, 413, 415, 422, 500],
    summary: 'Rate shopping: the quote request priced by every carrier agreement (or those named), cheapest first',
    description:
      'Each item is an ordinary quote (booked with POST /v1/shipper/shipment {quoteId}) carrying `carrier` and `pricedBy` (the agreement and how it rated the freight). A carrier that gives no price is a line of `uncovered`, not an error. 422 when the service has no carrier agreements.',
    tags: ['Quotes'],
    extension: true,
  }),
  listQuotes: operation({
    method: 'GET',
    path: `${API_PREFIX}/quote`,
    params: [],
    get query() {
      return quoteListQuery();
    },
    response: { status: 200, description: 'A page of quotes', id: 'QuotePage', schema: quotePage },
    errors: [400, 401, 500],
    summary: 'Quotes, newest first',
    tags: ['Quotes'],
    extension: true,
  }),
  getQuote: operation({
    method: 'GET',
    path: `${API_PREFIX}/quote/{quoteId}`,
    params: ['quoteId'],
    response: { status: 200, description: 'The quote', id: 'Quote', schema: quoteSchema },
    errors: [401, 404, 500],
    summary: 'A quote, including transitDays and estimatedDeliveryDate',
    tags: ['Quotes'],
    extension: false,
  }),
  createShipment: operation({
    method: 'POST',
    path: `${API_PREFIX}/shipment`,
    params: [],
    body: { id: 'ShipmentRequest', schema: shipmentRequestSchema },
    idempotent: true,
    response: { status: 200, description: 'The booked shipment', id: 'Shipment', schema: shipmentSchema },
    location: 'getShipment',
    errors: [400, 401, 404, 409, 413, 415, 422, 500],
    summary: 'Book a shipment, against a quote (`quoteId`) or quoting first on the shipper-to-consignee lane',
    tags: ['Shipments'],
    extension: false,
  }),
  listShipments: operation({
    method: 'GET',
    path: `${API_PREFIX}/shipment`,
    params: [],
    get query() {
      return shipmentListQuery();
    },
    response: { status: 200, description: 'A page of shipments', id: 'ShipmentPage', schema: shipmentPage },
    errors: [400, 401, 500],
    summary: 'Shipments, newest first',
    tags: ['Shipments'],
    extension: true,
  }),
  getShipment: operation({
    method: 'GET',
    path: `${API_PREFIX}/shipment/{orderNumber}`,
    params: ['orderNumber'],
    response: { status: 200, description: 'The shipment', id: 'Shipment', schema: shipmentSchema },
    errors: [401, 404, 500],
    summary: 'A shipment, by its order number (SO-000123) or its id',
    tags: ['Shipments'],
    extension: false,
  }),
  confirmShipment: operation({
    method: 'PUT',
    path: `${API_PREFIX}/shipment/{orderNumber}/confirm`,
    params: ['orderNumber'],
    body: { id: 'ConfirmRequest', schema: emptyBodySchema, optional: true },
    response: { status: 200, description: 'The confirmed shipment', id: 'Shipment', schema: shipmentSchema },
    errors: [400, 401, 404, 500],
    summary: 'Confirm an order: INITIALIZED becomes CONFIRMED after the published checks (400 with every violation otherwise); an order already confirmed is answered as it is',
    tags: ['Shipments'],
    extension: false,
  }),
  cancelShipment: operation({
    method: 'PUT',
    path: `${API_PREFIX}/shipment/{orderNumber}/cancel`,
    params: ['orderNumber'],
    body: { id: 'CancelRequest', schema: cancelRequestSchema, optional: true },
    response: { status: 200, description: 'The cancelled shipment (cancelling again answers it again)', id: 'Shipment', schema: shipmentSchema },
    errors: [400, 401, 404, 413, 415, 500],
    summary:
      'Cancel an order while it is cancellable (before pickup; a 400 invalid_state after): it becomes CANCELLED; its order and BOL numbers are never given out again, its refNumber may be booked again. The body ({reason}) is an optional extension',
    tags: ['Shipments'],
    extension: false,
  }),
  getTracking: operation({
    method: 'GET',
    path: `${API_PREFIX}/shipment/{orderNumber}/tracking`,
    params: ['orderNumber'],
    get query() {
      return trackingQuery();
    },
    response: { status: 200, description: 'The order state and its pickup and delivery dates', id: 'Tracking', schema: publishedTrackingSchema },
    errors: [400, 401, 404, 500],
    summary: 'Track an order: its state, actual pickup and delivery, estimated delivery (the events and punctuality: GET .../events)',
    tags: ['Tracking'],
    extension: false,
    operationId: 'trackShipment',
  }),
  updateShipment: operation({
    method: 'PATCH',
    // The published GET's path: one path, its parameter named once (an order number or an id).
    path: `${API_PREFIX}/shipment/{orderNumber}`,
    params: ['orderNumber'],
    body: { id: 'ShipmentUpdate', schema: shipmentUpdateSchema },
    response: { status: 200, description: 'The shipment as updated', id: 'Shipment', schema: shipmentSchema },
    errors: [400, 401, 404, 409, 413, 415, 500],
    summary: 'Record what the carrier assigns after booking: carrier, PRO, trailer and seal numbers (the freight cannot change; a cancelled shipment cannot be updated, 409)',
    tags: ['Shipments'],
    extension: true,
  }),
  listShipmentEvents: operation({
    method: 'GET',
    path: `${API_PREFIX}/shipment/{shipmentId}/events`,
    params: ['shipmentId'],
    response: {
      status: 200,
      description: 'The tracking of the shipment: its events by event time, the tracking status, the ETAs, late or on time',
      id: 'ShipmentTracking',
      schema: shipmentTrackingSchema,
    },
    errors: [401, 404, 500],
    summary: "Where the freight is: the carrier's status events of a shipment, its tracking status, the quoted and the carrier's ETA, late or on time",
    tags: ['Tracking'],
    extension: true,
  }),
  addShipmentEvents: operation({
    method: 'POST',
    path: `${API_PREFIX}/shipment/{shipmentId}/events`,
    params: ['shipmentId'],
    body: { id: 'ShipmentEventsRequest', schema: shipmentEventsRequestSchema },
    idempotent: true,
    response: {
      status: 200,
      description: 'The events recorded, the duplicates dropped, and the tracking as it now is',
      id: 'ShipmentEventsResult',
      schema: shipmentEventsResultSchema,
    },
    errors: [400, 401, 404, 409, 413, 415, 422, 500],
    summary:
      'Record status events on a shipment (a carrier message, an ops note): an event already recorded is dropped; events more than 2 hours ahead of the clock are refused; a cancelled shipment takes none (409)',
    tags: ['Tracking'],
    extension: true,
  }),
  addShipmentEventsBatch: operation({
    method: 'POST',
    path: `${API_PREFIX}/shipment-events`,
    params: [],
    body: { id: 'ShipmentEventsBatchRequest', schema: shipmentEventsBatchRequestSchema },
    response: { status: 200, description: 'One outcome per item', id: 'ShipmentEventsBatchResult', schema: shipmentEventsBatchResultSchema },
    errors: [400, 401, 413, 415, 500],
    summary: 'Record status events on up to 500 shipments in one unit of work (a carrier file), each item by the rules of POST .../events',
    description:
      'One outcome per item, in order: the events recorded and the tracking status, or the ProblemDetail a single POST would have answered. A 400 concerns the envelope only.',
    tags: ['Tracking'],
    extension: true,
  }),
  renderLabels: operation({
    method: 'GET',
    path: `${API_PREFIX}/shipment/{shipmentId}/labels`,
    params: ['shipmentId'],
    get query() {
      return labelQuery();
    },
    response: {
      status: 200,
      description: 'One GS1 logistic label per handling unit, each with its own SSCC: 4x6 in PDF pages or ZPL',
      mediaType: PDF_TYPE,
      mediaTypes: { pdf: PDF_TYPE, zpl: ZPL_TYPE },
      fileName: ([id], query) => `labels-${id}.${query.format === 'zpl' ? 'zpl' : 'pdf'}`,
    },
    errors: [400, 401, 404, 409, 500],
    summary: 'The pallet labels of a shipment (a cancelled shipment has none, 409)',
    tags: ['Shipments'],
    extension: true,
  }),
  createTender: operation({
    method: 'POST',
    path: `${API_PREFIX}/shipment/{shipmentId}/tender`,
    params: ['shipmentId'],
    body: { id: 'TenderRequest', schema: tenderRequestSchema },
    response: { status: 200, description: 'The file for the carrier, with its media type and a file name', id: 'TenderDocument', schema: tenderDocumentSchema },
    errors: [400, 401, 404, 409, 413, 415, 500],
    summary: "A file for the carrier's systems: NMFTA eBOL 2.1 request, X12 204 load tender or 211 bill of lading (X12 control numbers never repeat)",
    tags: ['Shipments'],
    extension: true,
  }),
  renderBol: operation({
    method: 'GET',
    path: `${API_PREFIX}/shipment/{shipmentId}/bol`,
    params: ['shipmentId'],
    get query() {
      return templateQuery();
    },
    response: { status: 200, description: 'The Bill of Lading as PDF', mediaType: PDF_TYPE, fileName: ([id]) => `bol-${id}.pdf` },
    errors: [400, 401, 404, 500],
    summary: 'The Bill of Lading of a shipment as PDF',
    operationId: 'getBillOfLading',
    tags: ['Shipments'],
    extension: true,
  }),
  getInvoice: operation({
    method: 'GET',
    path: `${API_PREFIX}/shipment/{shipmentId}/invoice`,
    params: ['shipmentId'],
    response: { status: 200, description: 'The invoice (JSON; `Accept: application/pdf` answers it as PDF)', id: 'Invoice', schema: invoiceSchema },
    errors: [401, 404, 500],
    summary: 'The invoice of a shipment: one line per order component with its share of the linehaul, then discount, fuel and accessorials, adding up to the booked price',
    description: "INV- and the order number's digits; dated the pickup day; billed to the party the freight charge terms name. A cancelled shipment has no invoice (404).",
    tags: ['Shipments'],
    extension: true,
  }),
  renderInvoice: operation({
    method: 'GET',
    path: `${API_PREFIX}/shipment/{shipmentId}/invoice`,
    params: ['shipmentId'],
    response: { status: 200, description: 'The invoice as PDF', mediaType: PDF_TYPE, fileName: ([id]) => `invoice-${id}.pdf` },
    errors: [401, 404, 500],
    summary: 'The invoice of a shipment as PDF (the same path, asked for with Accept: application/pdf)',
    operationId: 'getInvoicePdf',
    tags: ['Shipments'],
    extension: true,
  }),
  listBolTemplates: operation({
    method: 'GET',
    path: `${API_PREFIX}/bol-templates`,
    params: [],
    response: { status: 200, description: 'The templates', id: 'BolTemplateList', schema: bolTemplateList },
    errors: [401, 500],
    summary: 'The BOL templates the server can render',
    tags: ['Shipments'],
    extension: true,
  }),
  listAccessorials: operation({
    method: 'GET',
    path: `${API_PREFIX}/accessorials`,
    params: [],
    response: {
      status: 200,
      description: "The tariff's accessorials and those of the carrier agreements loaded, with their charges; and those carriers",
      id: 'AccessorialList',
      schema: accessorialListSchema,
    },
    errors: [401, 500],
    summary: "The accessorial codes the service prices, the tariff's and the carrier agreements', each with its charges; and the carriers whose agreements are loaded",
    description:
      'What a quote request can ask for in `accessorials`: a code with a tariff charge prices without carrierScac; one that only carriers price, with carrierScac (or POST /v1/shipper/rates) naming one of them.',
    tags: ['Quotes'],
    extension: true,
  }),
  transitTimes: operation({
    method: 'POST',
    path: `${API_PREFIX}/transit`,
    params: [],
    body: { id: 'TransitRequest', schema: transitRequestSchema },
    response: { status: 200, description: 'One lane per destination, one row per pickup day', id: 'TransitTable', schema: transitTableSchema },
    errors: [400, 401, 413, 415, 500],
    summary: 'Transit days and ETAs from one origin to many destinations over several pickup days; quotes and stores nothing',
    tags: ['Quotes'],
    extension: true,
  }),
  createShipments: operation({
    method: 'POST',
    path: `${API_PREFIX}/shipment-batch`,
    params: [],
    body: { id: 'ShipmentBatchRequest', schema: shipmentBatchRequestSchema },
    response: { status: 200, description: 'One outcome per item', id: 'ShipmentBatchResult', schema: shipmentBatchResultSchema },
    errors: [400, 401, 413, 415, 500],
    summary: 'Book up to 500 shipments in order, each by the rules of POST /v1/shipper/shipment (with its own idempotencyKey)',
    description:
      'One outcome per item, in order: the shipment (with `replayed` when its idempotencyKey matched an earlier booking) or the ProblemDetail a single POST would have answered. A 400 concerns the envelope only.',
    tags: ['Shipments'],
    extension: true,
  }),
  previewShipments: operation({
    method: 'POST',
    path: `${API_PREFIX}/shipment-preview`,
    params: [],
    body: { id: 'ShipmentPreviewRequest', schema: shipmentPreviewRequestSchema },
    response: { status: 200, description: 'The quote each item would be booked on, or its ProblemDetail', id: 'ShipmentPreviewResult', schema: shipmentPreviewResultSchema },
    errors: [400, 401, 413, 415, 500],
    summary: 'Validate and price up to 500 shipment requests without booking or storing anything',
    tags: ['Shipments'],
    extension: true,
  }),
} as const satisfies Record<string, OperationSpec>;

export type Operations = typeof operations;
export type OperationName = keyof Operations;
export const OPERATION_NAMES = Object.keys(operations) as OperationName[];

/** The path of an operation with its parameters filled in (each %-encoded). */
export function pathOf(spec: Pick<OperationSpec, 'path'>, params: readonly string[]): string {
  let index = 0;
  return spec.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(params[index++] ?? ''));
}

/** `quoteId` -> `quote`: the resource a path parameter names, for "quote X not found". */
export function resourceOfParam(param: string): string {
  return param.replace(/Id$/, '');
}
