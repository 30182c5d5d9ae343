/**
 * The OpenAPI 3.1 document of the Shipper Freight API, generated from the zod schemas in
 * domain/schemas.ts (zod 4's own JSON Schema output, which is the 2020-12 dialect that OpenAPI 3.1
 * uses): no hand-written copy of any schema. Request bodies are described as clients send them
 * (zod "input" side), responses as the service answers (zod "output" side).
 *
 * `x-extension: true` marks what this implementation adds to the published v1 document: the
 * operations that SPEC section 3 calls extensions (and the two the CLI needs), and the fields
 * beyond those the seed names.
 */
import { z } from 'zod';
import { DEFAULT_PROFILES } from '../config/settings.js';
import {
  addressSchema,
  bolTemplateInfoSchema,
  dimensionsSchema,
  orderComponentInputSchema,
  pageSchema,
  placeInputSchema,
  placeSchema,
  priceBreakdownSchema,
  problemDetailSchema,
  quoteRequestSchema,
  quoteSchema,
  ratedOrderComponentSchema,
  shipmentRequestSchema,
  shipmentSchema,
  shipmentBatchRequestSchema,
  shipmentBatchResultSchema,
  shipmentPreviewRequestSchema,
  shipmentPreviewResultSchema,
  storedAddressSchema,
  storedDimensionsSchema,
  transitRequestSchema,
  transitTableSchema,
  violationSchema,
} from '../domain/schemas.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './types.js';
import { apiPaths, apiPathTemplates, JSON_TYPE, OPENAPI_PATH, PDF_TYPE, PROBLEM_TYPE } from './wire.js';

type JsonObject = Record<string, unknown>;
type Io = 'input' | 'output';

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });

/** Schemas that get their own component, per side. A schema used on both sides must come out the same. */
const REQUEST_COMPONENTS: Record<string, z.ZodType> = {
  QuoteRequest: quoteRequestSchema,
  ShipmentRequest: shipmentRequestSchema,
  OrderComponent: orderComponentInputSchema,
  PlaceInput: placeInputSchema,
  AddressInput: addressSchema,
  DimensionsInput: dimensionsSchema,
  TransitRequest: transitRequestSchema,
  ShipmentBatchRequest: shipmentBatchRequestSchema,
  ShipmentPreviewRequest: shipmentPreviewRequestSchema,
};

const RESPONSE_COMPONENTS: Record<string, z.ZodType> = {
  Quote: quoteSchema,
  QuotePage: pageSchema(quoteSchema),
  Shipment: shipmentSchema,
  ShipmentPage: pageSchema(shipmentSchema),
  RatedOrderComponent: ratedOrderComponentSchema,
  Place: placeSchema,
  Address: storedAddressSchema,
  Dimensions: storedDimensionsSchema,
  PriceBreakdown: priceBreakdownSchema,
  BolTemplate: bolTemplateInfoSchema,
  BolTemplateList: z.object({ items: z.array(bolTemplateInfoSchema) }),
  TransitTable: transitTableSchema,
  ShipmentBatchResult: shipmentBatchResultSchema,
  ShipmentPreviewResult: shipmentPreviewResultSchema,
  ProblemDetail: problemDetailSchema,
  Violation: violationSchema,
};

/** The fields the seed document names; every other property of these components is an extension. */
const SEED_FIELDS: Record<string, string[]> = {
  Quote: ['id', 'quotedPriceInCents', 'quoteExpirationTime', 'transitDays', 'estimatedDeliveryDate'],
  QuoteRequest: ['orderComponents'],
  ShipmentRequest: ['orderComponents', 'refNumber'],
  OrderComponent: ['palletCount', 'poundsWeight', 'dimensions', 'palletDimensions', 'description', 'nmfcCode', 'packagingType', 'pieceCount'],
  RatedOrderComponent: ['palletCount', 'poundsWeight', 'dimensions', 'description', 'nmfcCode', 'packagingType', 'pieceCount', 'freightClass'],
  Dimensions: ['length', 'width', 'height'],
  DimensionsInput: ['length', 'width', 'height'],
  ProblemDetail: ['violations'],
  Violation: ['field'],
};
/** Components the seed does not show at all (it leaves the shipment response "not shown"). */
const EXTENSION_COMPONENTS = new Set([
  'QuotePage',
  'Shipment',
  'ShipmentPage',
  'BolTemplate',
  'BolTemplateList',
  'TransitRequest',
  'TransitTable',
  'ShipmentBatchRequest',
  'ShipmentBatchResult',
  'ShipmentPreviewRequest',
  'ShipmentPreviewResult',
]);

function jsonSchemaOf(registry: Record<string, z.ZodType>, io: Io): Record<string, JsonObject> {
  const ids = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(registry)) ids.add(schema, { id });
  const { schemas } = z.toJSONSchema(ids, {
    io,
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
    override: (ctx) => tidy(ctx.zodSchema, ctx.jsonSchema as JsonObject, io),
  });
  return Object.fromEntries(
    Object.entries(schemas).map(([id, schema]) => {
      const { $id: _id, $schema: _dialect, ...rest } = schema as JsonObject;
      return [id, rest];
    }),
  );
}

/** Per-node touch-ups of zod's output, so the document says what the service does. */
function tidy(zodSchema: unknown, json: JsonObject, io: Io): void {
  const def = (zodSchema as { _zod: { def: { type: string; in?: z.ZodType; out?: { _zod: { def: { type: string } } } } } })._zod.def;
  // A transform's output type is unknown to JSON Schema; what the service stores and answers has
  // the shape of the transform's input (normalised strings, null for absent optional text).
  if (io === 'output' && def.type === 'pipe' && def.out?._zod.def.type === 'transform' && def.in) {
    const { $schema: _dialect, ...inner } = z.toJSONSchema(def.in, {
      io,
      unrepresentable: 'any',
      override: (ctx) => tidy(ctx.zodSchema, ctx.jsonSchema as JsonObject, io),
    }) as JsonObject;
    Object.assign(json, inner);
  }
  // zod bounds every integer by the safe-integer range: noise in a document for people.
  if (json.type === 'integer' || (Array.isArray(json.type) && json.type.includes('integer'))) {
    if (json.minimum === Number.MIN_SAFE_INTEGER) delete json.minimum;
    if (json.maximum === Number.MAX_SAFE_INTEGER) delete json.maximum;
  }
  // Responses grow additively (SEED 9.2): clients must accept fields they do not know yet.
  if (io === 'output' && json.additionalProperties === false) delete json.additionalProperties;
}

function markExtensions(components: Record<string, JsonObject>): void {
  for (const [id, schema] of Object.entries(components)) {
    if (EXTENSION_COMPONENTS.has(id)) {
      schema['x-extension'] = true;
      continue;
    }
    const seed = SEED_FIELDS[id];
    const properties = schema.properties as Record<string, JsonObject> | undefined;
    if (!seed || !properties) continue;
    for (const [name, property] of Object.entries(properties)) {
      if (!seed.includes(name)) property['x-extension'] = true;
    }
  }
}

function components(): Record<string, JsonObject> {
  const requests = jsonSchemaOf(REQUEST_COMPONENTS, 'input');
  const responses = jsonSchemaOf(RESPONSE_COMPONENTS, 'output');
  for (const [id, schema] of Object.entries(requests)) {
    const other = responses[id];
    if (other && JSON.stringify(other) !== JSON.stringify(schema)) {
      throw new Error(`OpenAPI component ${id} differs between requests and responses; give each side its own id`);
    }
  }
  const all = { ...responses, ...requests };
  markExtensions(all);
  return Object.fromEntries(Object.entries(all).sort(([a], [b]) => a.localeCompare(b)));
}

// -----------------------------------------------------------------------------------------------
// Operations

const problemContent = { [PROBLEM_TYPE]: { schema: ref('ProblemDetail') } };
const problemResponse = (description: string) => ({ description, content: problemContent });

const PROBLEM_RESPONSES = {
  BadRequest: problemResponse(
    'Constraint Violation (every invalid field at once in `violations[]`, each `field` written like `orderComponents[0].pieceCount`), or a body that is not JSON',
  ),
  Unauthorized: problemResponse('Missing or wrong API key (only when the server requires one)'),
  NotFound: problemResponse('Unknown id or route'),
  Conflict: problemResponse('The quote expired, or the shipment does not match the quoted freight (`violations[]` name the fields)'),
  PayloadTooLarge: problemResponse('The request body is larger than the server accepts'),
  UnsupportedMediaType: problemResponse('The request body is not `application/json`'),
  IdempotencyKeyReused: problemResponse('The Idempotency-Key was already used with a different request body'),
  InternalError: problemResponse('The service failed; never carries a stack trace'),
};
const use = (name: keyof typeof PROBLEM_RESPONSES) => ({ $ref: `#/components/responses/${name}` });

const writeHeaders = {
  Location: { description: 'Path of the created resource', schema: { type: 'string' } },
  'Idempotent-Replayed': {
    description: '`true` when the Idempotency-Key matched an earlier request with the same body: the resource is that request\'s, nothing new was created',
    schema: { type: 'string', enum: ['true'] },
  },
  Deprecation: {
    description:
      'RFC 9745: present when the request used a deprecated field (`palletDimensions`); the value is the date the deprecation took effect',
    schema: { type: 'string', example: '@1767225600' },
  },
  Link: { description: 'With Deprecation: `rel="deprecation"` points at this document', schema: { type: 'string' } },
  'X-Shipper-Warning': {
    description: 'One human-readable warning per header (e.g. the deprecated field and what to send instead), %-encoded outside printable ASCII',
    schema: { type: 'string' },
    'x-extension': true,
  },
};

const idempotencyKeyParameter = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a POST safe to retry: the same key with the same body answers the resource created the first time instead of creating a second one; the same key with another body is a 422.',
  schema: { type: 'string', pattern: '^[\\x21-\\x7E]{1,255}$' },
  'x-extension': true,
};

const pageParameters = [
  {
    name: 'limit',
    in: 'query',
    required: false,
    description: `Page size, 1 to ${MAX_PAGE_SIZE}`,
    schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
  },
  { name: 'cursor', in: 'query', required: false, description: '`nextCursor` of the previous page', schema: { type: 'string' } },
];

const idParameter = (name: string, description: string) => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,128}$' },
});

const jsonBody = (id: string) => ({ required: true, content: { [JSON_TYPE]: { schema: ref(id) } } });
const jsonResponse = (description: string, id: string, headers?: JsonObject) => ({
  description,
  ...(headers ? { headers } : {}),
  content: { [JSON_TYPE]: { schema: ref(id) } },
});

function paths(): JsonObject {
  const quoteId = idParameter('quoteId', 'The quote id');
  const shipmentId = idParameter('shipmentId', 'The shipment id');
  return {
    [apiPaths.quotes]: {
      post: {
        operationId: 'createQuote',
        tags: ['Quotes'],
        summary: 'Quote a shipment: price, expiry, transit days and ETA, freight class from density',
        parameters: [idempotencyKeyParameter],
        requestBody: jsonBody('QuoteRequest'),
        responses: {
          201: jsonResponse('The quote', 'Quote', writeHeaders),
          400: use('BadRequest'),
          401: use('Unauthorized'),
          413: use('PayloadTooLarge'),
          415: use('UnsupportedMediaType'),
          422: use('IdempotencyKeyReused'),
          500: use('InternalError'),
        },
      },
      get: {
        operationId: 'listQuotes',
        tags: ['Quotes'],
        summary: 'Quotes, newest first',
        'x-extension': true,
        parameters: pageParameters,
        responses: { 200: jsonResponse('A page of quotes', 'QuotePage'), 400: use('BadRequest'), 401: use('Unauthorized'), 500: use('InternalError') },
      },
    },
    [apiPathTemplates.quote]: {
      get: {
        operationId: 'getQuote',
        tags: ['Quotes'],
        summary: 'A quote, including transitDays and estimatedDeliveryDate',
        parameters: [quoteId],
        responses: { 200: jsonResponse('The quote', 'Quote'), 401: use('Unauthorized'), 404: use('NotFound'), 500: use('InternalError') },
      },
    },
    [apiPaths.shipments]: {
      post: {
        operationId: 'createShipment',
        tags: ['Shipments'],
        summary: 'Book a shipment, against a quote (`quoteId`) or quoting first on the shipper-to-consignee lane',
        parameters: [idempotencyKeyParameter],
        requestBody: jsonBody('ShipmentRequest'),
        responses: {
          201: jsonResponse('The booked shipment', 'Shipment', writeHeaders),
          400: use('BadRequest'),
          401: use('Unauthorized'),
          404: problemResponse('The `quoteId` names no quote'),
          409: use('Conflict'),
          413: use('PayloadTooLarge'),
          415: use('UnsupportedMediaType'),
          422: use('IdempotencyKeyReused'),
          500: use('InternalError'),
        },
      },
      get: {
        operationId: 'listShipments',
        tags: ['Shipments'],
        summary: 'Shipments, newest first',
        'x-extension': true,
        parameters: pageParameters,
        responses: { 200: jsonResponse('A page of shipments', 'ShipmentPage'), 400: use('BadRequest'), 401: use('Unauthorized'), 500: use('InternalError') },
      },
    },
    [apiPathTemplates.shipment]: {
      get: {
        operationId: 'getShipment',
        tags: ['Shipments'],
        summary: 'A shipment',
        'x-extension': true,
        parameters: [shipmentId],
        responses: { 200: jsonResponse('The shipment', 'Shipment'), 401: use('Unauthorized'), 404: use('NotFound'), 500: use('InternalError') },
      },
    },
    [apiPathTemplates.bol]: {
      get: {
        operationId: 'getBillOfLading',
        tags: ['Shipments'],
        summary: 'The Bill of Lading of a shipment as PDF',
        'x-extension': true,
        parameters: [
          shipmentId,
          { name: 'template', in: 'query', required: false, description: 'BOL template name (default `standard`)', schema: { type: 'string' } },
        ],
        responses: {
          200: { description: 'The BOL', content: { [PDF_TYPE]: { schema: { type: 'string', contentMediaType: PDF_TYPE } } } },
          400: problemResponse('Unknown or malformed template name (`violations[].field` is `template`)'),
          401: use('Unauthorized'),
          404: use('NotFound'),
          500: use('InternalError'),
        },
      },
    },
    [apiPaths.transit]: {
      post: {
        operationId: 'transitTimes',
        tags: ['Quotes'],
        summary: 'Transit days and ETAs from one origin to many destinations over several pickup days; quotes and stores nothing',
        'x-extension': true,
        requestBody: jsonBody('TransitRequest'),
        responses: {
          200: jsonResponse('One lane per destination, one row per pickup day', 'TransitTable'),
          400: use('BadRequest'),
          401: use('Unauthorized'),
          413: use('PayloadTooLarge'),
          415: use('UnsupportedMediaType'),
          500: use('InternalError'),
        },
      },
    },
    [apiPaths.shipmentBatch]: {
      post: {
        operationId: 'createShipments',
        tags: ['Shipments'],
        summary: 'Book up to 500 shipments in order, each by the rules of POST /v1/shipper/shipment (with its own idempotencyKey)',
        description:
          'One outcome per item, in order: the shipment (with `replayed` when its idempotencyKey matched an earlier booking) or the ProblemDetail a single POST would have answered. A 400 concerns the envelope only.',
        'x-extension': true,
        requestBody: jsonBody('ShipmentBatchRequest'),
        responses: {
          200: jsonResponse('One outcome per item', 'ShipmentBatchResult'),
          400: use('BadRequest'),
          401: use('Unauthorized'),
          413: use('PayloadTooLarge'),
          415: use('UnsupportedMediaType'),
          500: use('InternalError'),
        },
      },
    },
    [apiPaths.shipmentPreview]: {
      post: {
        operationId: 'previewShipments',
        tags: ['Shipments'],
        summary: 'Validate and price up to 500 shipment requests without booking or storing anything',
        'x-extension': true,
        requestBody: jsonBody('ShipmentPreviewRequest'),
        responses: {
          200: jsonResponse('The quote each item would be booked on, or its ProblemDetail', 'ShipmentPreviewResult'),
          400: use('BadRequest'),
          401: use('Unauthorized'),
          413: use('PayloadTooLarge'),
          415: use('UnsupportedMediaType'),
          500: use('InternalError'),
        },
      },
    },
    [apiPaths.bolTemplates]: {
      get: {
        operationId: 'listBolTemplates',
        tags: ['Shipments'],
        summary: 'The BOL templates the server can render',
        'x-extension': true,
        responses: { 200: jsonResponse('The templates', 'BolTemplateList'), 401: use('Unauthorized'), 500: use('InternalError') },
      },
    },
    [OPENAPI_PATH]: {
      get: {
        operationId: 'getApiDescription',
        tags: ['Meta'],
        summary: 'This document',
        security: [],
        responses: { 200: { description: 'The OpenAPI 3.1 document', content: { [JSON_TYPE]: { schema: { type: 'object' } } } } },
      },
    },
  };
}

let cached: JsonObject | undefined;

/** The document; built once per process (some 20 ms of zod work, on the first request) and shared. */
export function openApiDocument(): JsonObject {
  cached ??= {
    openapi: '3.1.0',
    info: {
      title: 'Shipper Freight API',
      version: '1.0.0',
      summary: 'LTL freight quotes with transit time, shipments and Bills of Lading',
      description: [
        'Quotes (price, expiry, transit days, ETA, freight class computed from density) and shipments, each carrying `orderComponents[]`.',
        'Errors are RFC 9457 problem details (`application/problem+json`); validation errors have status 400, title "Constraint Violation" and list every invalid field in `violations[]`.',
        'Lengths are inches, weights pounds, money integer cents, dates `YYYY-MM-DD`, instants ISO-8601 UTC.',
        '`x-extension: true` marks operations and fields that this implementation adds to the published v1 document.',
      ].join('\n\n'),
    },
    servers: [
      { url: DEFAULT_PROFILES.production.baseUrl, description: 'Production' },
      { url: DEFAULT_PROFILES.sandbox.baseUrl, description: 'Sandbox: the same API, for tests and integrations' },
    ],
    security: [{ bearerAuth: [] }, {}],
    tags: [
      { name: 'Quotes' },
      { name: 'Shipments' },
      { name: 'Meta' },
    ],
    paths: paths(),
    components: {
      schemas: components(),
      responses: PROBLEM_RESPONSES,
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'API key as a Bearer token; required by servers that were given one (`shipper serve --api-key`)',
        },
      },
    },
  };
  return cached;
}
