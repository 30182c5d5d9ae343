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
import { DEFAULT_PROFILES } from '../domain/apiServers.js';
import {
  addressSchema,
  bolTemplateInfoSchema,
  dimensionsSchema,
  orderComponentInputSchema,
  placeInputSchema,
  placeSchema,
  priceBreakdownSchema,
  problemDetailSchema,
  ratedOrderComponentSchema,
  storedAddressSchema,
  storedDimensionsSchema,
  violationSchema,
} from '../domain/schemas.js';
import { warningSchema } from '../domain/warningSchema.js';
import { PUBLISHED_ADDRESS_FIELDS } from '../domain/publishedAddress.js';
import { TOKEN_LIFETIME_SECONDS, TOKEN_PATH, tokenAnswerSchema, tokenErrorSchema, tokenRequestSchema } from '../domain/credentials.js';
import { JSON_TYPE, OPENAPI_PATH, OPERATION_NAMES, operations, PROBLEM_TYPE, resourceOfParam, type BinaryResponse, type ErrorStatus, type OperationSpec } from './operations.js';

type JsonObject = Record<string, unknown>;
type Io = 'input' | 'output';

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });

/**
 * Schemas that get their own component, per side: the bodies and answers of the operations table,
 * plus the shared parts they are made of. A schema used on both sides must come out the same.
 */
function componentRegistries(): { requests: Record<string, z.ZodType>; responses: Record<string, z.ZodType> } {
  const requests: Record<string, z.ZodType> = {
    OrderComponent: orderComponentInputSchema,
    PlaceInput: placeInputSchema,
    AddressInput: addressSchema,
    DimensionsInput: dimensionsSchema,
    TokenRequest: tokenRequestSchema,
  };
  const responses: Record<string, z.ZodType> = {
    RatedOrderComponent: ratedOrderComponentSchema,
    Place: placeSchema,
    Address: storedAddressSchema,
    Dimensions: storedDimensionsSchema,
    PriceBreakdown: priceBreakdownSchema,
    BolTemplate: bolTemplateInfoSchema,
    ProblemDetail: problemDetailSchema,
    Violation: violationSchema,
    Warning: warningSchema,
    TokenResponse: tokenAnswerSchema,
    TokenErrorResponse: tokenErrorSchema,
  };
  for (const name of OPERATION_NAMES) {
    const spec: OperationSpec = operations[name];
    if (spec.body && !spec.body.multipart) requests[spec.body.id] = spec.body.schema;
    if ('schema' in spec.response) responses[spec.response.id] = spec.response.schema;
  }
  return { requests, responses };
}

/** The fields the seed document (or, for the requests, the published document) names; every other property of these components is an extension. */
const SEED_FIELDS: Record<string, string[]> = {
  Quote: ['id', 'quotedPriceInCents', 'quoteExpirationTime', 'transitDays', 'estimatedDeliveryDate'],
  // The published QuoteRequest and CreateShipmentRequest (reference/oway-shipper-api.openapi.json).
  QuoteRequest: ['pickupAddress', 'deliveryAddress', 'orderComponents', 'requiredPickupDate'],
  ShipmentRequest: [
    'quoteId',
    'pickupAddress',
    'deliveryAddress',
    'orderComponents',
    'description',
    'poNumber',
    'refNumber',
    'requiredPickupDate',
    'requiredDeliveryBy',
    'appointments',
    'shipperDispatch',
  ],
  OrderComponent: ['palletCount', 'poundsWeight', 'dimensions', 'palletDimensions', 'description', 'nmfcCode', 'packagingType', 'pieceCount'],
  RatedOrderComponent: ['palletCount', 'poundsWeight', 'dimensions', 'description', 'nmfcCode', 'packagingType', 'pieceCount', 'freightClass'],
  Dimensions: ['length', 'width', 'height'],
  DimensionsInput: ['length', 'width', 'height'],
  ProblemDetail: ['violations'],
  Violation: ['field'],
};
/**
 * Components the seed does not show at all: those of the extension operations only, the shipment
 * (the seed leaves the shipment response "not shown") and the parts only extensions use.
 */
function extensionComponents(): Set<string> {
  const seedUse = new Set<string>();
  const extensionUse = new Set<string>(['Shipment', 'BolTemplate']);
  for (const name of OPERATION_NAMES) {
    const spec: OperationSpec = operations[name];
    const ids = [spec.body?.id, 'id' in spec.response ? spec.response.id : undefined].filter((id): id is string => id !== undefined);
    for (const id of ids) (spec.extension ? extensionUse : seedUse).add(id);
  }
  return new Set([...extensionUse].filter((id) => id === 'Shipment' || !seedUse.has(id)));
}

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
  const extensions = extensionComponents();
  for (const [id, schema] of Object.entries(components)) {
    if (extensions.has(id)) {
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
  const registries = componentRegistries();
  const requests = withPublishedAddresses(jsonSchemaOf(registries.requests, 'input'));
  const responses = jsonSchemaOf(registries.responses, 'output');
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

/**
 * The stops that are the published Address on the wire (`publishedAddresses` of an operation's
 * body: the server refuses one that lacks a required field) point at `PublishedAddressInput`:
 * AddressInput with every field the published Address requires required, and those not null.
 */
function withPublishedAddresses(requests: Record<string, JsonObject>): Record<string, JsonObject> {
  const address = requests.AddressInput;
  if (!address) return requests;
  const properties = { ...(address.properties as Record<string, JsonObject>) };
  for (const field of PUBLISHED_ADDRESS_FIELDS) {
    const property = properties[field];
    const alternatives = property?.anyOf as JsonObject[] | undefined;
    if (alternatives) {
      const notNull = alternatives.filter((alternative) => alternative.type !== 'null');
      const { anyOf: _anyOf, default: _default, ...rest } = property!;
      properties[field] = notNull.length === 1 ? { ...rest, ...notNull[0] } : { ...rest, anyOf: notNull };
    }
  }
  const published: JsonObject = {
    ...address,
    description: 'The published Address: a stop of POST /v1/shipper/quote and POST /v1/shipper/shipment',
    properties,
    required: [...new Set([...((address.required as string[] | undefined) ?? []), ...PUBLISHED_ADDRESS_FIELDS])],
  };
  const patched: Record<string, JsonObject> = { ...requests, PublishedAddressInput: published };
  for (const name of OPERATION_NAMES) {
    const body = (operations[name] as OperationSpec).body;
    const component = body?.publishedAddresses ? patched[body.id] : undefined;
    if (!component) continue;
    const fields = { ...(component.properties as Record<string, JsonObject>) };
    for (const field of body!.publishedAddresses!) fields[field] = ref('PublishedAddressInput');
    const required = [...new Set([...((component.required as string[] | undefined) ?? []), ...body!.publishedAddresses!])];
    patched[body!.id] = { ...component, properties: fields, required };
  }
  return patched;
}

// -----------------------------------------------------------------------------------------------
// Operations

const problemContent = { [PROBLEM_TYPE]: { schema: ref('ProblemDetail') } };
const problemResponse = (description: string) => ({ description, content: problemContent });

const PROBLEM_RESPONSES = {
  BadRequest: problemResponse(
    'Constraint Violation (every invalid field at once in `violations[]`, each `field` written like `orderComponents[0].pieceCount`), an expired quote (`reason: quote_expired`) or freight that differs from the quote (`reason: quote_mismatch`), or a body that is not JSON',
  ),
  Unauthorized: problemResponse('Missing or wrong API key (only when the server requires one)'),
  Forbidden: problemResponse(
    "The token lacks the `shipper` scope, or the company's key (`x-oway-api-key`) is missing, unknown or revoked (a server with client credentials); the order is another company's; or a download link was altered (`reason: invalid_signature`) or has expired (`reason: link_expired`)",
  ),
  NotFound: problemResponse('Unknown id or route'),
  Conflict: problemResponse('The quote was booked already, or the Idempotency-Key was used before with another body (`reason: idempotency_key_conflict`)'),
  PayloadTooLarge: problemResponse('The request body is larger than the server accepts'),
  UnsupportedMediaType: problemResponse('The request body is not `application/json`'),
  Unprocessable: problemResponse('The request is valid but cannot be served: a lane no tariff or carrier agreement covers, or no carrier agreements to shop'),
  InternalError: problemResponse('The service failed; never carries a stack trace'),
};
/** Every media type a binary operation can answer (by `format`), each a string of its bytes. */
function binaryContent(response: BinaryResponse): JsonObject {
  const types = new Set([response.mediaType, ...Object.values(response.mediaTypes ?? {})]);
  return Object.fromEntries([...types].map((type) => [type, { schema: { type: 'string', contentMediaType: type } }]));
}

const use = (name: keyof typeof PROBLEM_RESPONSES) => ({ $ref: `#/components/responses/${name}` });

const writeHeaders = {
  Location: { description: 'Path of the created resource', schema: { type: 'string' } },
  'Idempotent-Replayed': {
    description: "`true` when the Idempotency-Key matched an earlier request with the same body: the resource is that request's, nothing new was created",
    schema: { type: 'string', enum: ['true'] },
  },
  Deprecation: {
    description: 'RFC 9745: present when the request used a deprecated field (`palletDimensions`); the value is the date the deprecation took effect',
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
    'Makes a POST safe to retry: the same key with the same body answers the resource created the first time instead of creating a second one; the same key with another body is a 409 (`reason: idempotency_key_conflict`).',
  schema: { type: 'string', pattern: '^[\\x21-\\x7E]{1,255}$' },
  'x-extension': true,
};

/** A file upload: one part, the file (its type judged by its bytes). */
const multipartBody = (field: string) => ({
  required: true,
  content: { 'multipart/form-data': { schema: { type: 'object', required: [field], properties: { [field]: { type: 'string', format: 'binary' } } } } },
});
const jsonBody = (id: string) => ({ required: true, content: { [JSON_TYPE]: { schema: ref(id) } } });
const jsonResponse = (description: string, id: string, headers?: JsonObject) => ({
  description,
  ...(headers ? { headers } : {}),
  content: { [JSON_TYPE]: { schema: ref(id) } },
});

const ERROR_RESPONSES: Record<ErrorStatus, keyof typeof PROBLEM_RESPONSES> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  422: 'Unprocessable',
  500: 'InternalError',
};

/** The OpenAPI form of a query parameter, from its zod schema (the input side: what clients send). */
function queryParameters(query: z.ZodObject): JsonObject[] {
  return Object.entries(query.shape).map(([name, schema]) => {
    const { $schema: _dialect, description, ...json } = z.toJSONSchema(schema as z.ZodType, { io: 'input', unrepresentable: 'any' }) as JsonObject;
    return { name, in: 'query', required: false, ...(description ? { description } : {}), schema: json };
  });
}

/** One path item per operation of the table, grouped by path. */
function paths(): JsonObject {
  const result: Record<string, JsonObject> = {};
  for (const name of OPERATION_NAMES) {
    const spec: OperationSpec = operations[name];
    const parameters: JsonObject[] = spec.params.map((param) => ({
      name: param,
      in: 'path',
      required: true,
      description: `The ${resourceOfParam(param)} id`,
      schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,128}$' },
    }));
    if (spec.query) parameters.push(...queryParameters(spec.query));
    if (spec.idempotent) parameters.push(idempotencyKeyParameter);
    const success =
      'schema' in spec.response
        ? jsonResponse(spec.response.description, spec.response.id, spec.location ? writeHeaders : undefined)
        : 'mediaType' in spec.response
          ? { description: spec.response.description, content: binaryContent(spec.response) }
          : { description: spec.response.description };
    const responses: JsonObject = { [spec.response.status]: success };
    for (const status of spec.errors) responses[status] = use(ERROR_RESPONSES[status]);
    // Every operation a token reaches can be refused for its scope or the company key, as published.
    if (spec.errors.includes(401)) responses[403] = use('Forbidden');
    result[spec.path] ??= {};
    // One path and method answered in several media types (the invoice: JSON or PDF by Accept): one operation, each type a content of its answer.
    const existing = result[spec.path]![spec.method.toLowerCase()] as { responses: Record<number, { content: JsonObject }> } | undefined;
    if (existing) {
      Object.assign(existing.responses[spec.response.status]!.content, 'content' in success ? success.content : {});
      continue;
    }
    result[spec.path]![spec.method.toLowerCase()] = {
      operationId: spec.operationId ?? name,
      tags: [...spec.tags],
      summary: spec.summary,
      ...(spec.description ? { description: spec.description } : {}),
      ...(spec.extension ? { 'x-extension': true } : {}),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(spec.body ? { requestBody: spec.body.multipart ? multipartBody(spec.body.multipart.field) : jsonBody(spec.body.id) } : {}),
      ...(spec.public ? { security: [] } : {}),
      responses,
    };
  }
  result[TOKEN_PATH] = { post: tokenOperation() };
  result[OPENAPI_PATH] = {
    get: {
      operationId: 'getApiDescription',
      tags: ['Meta'],
      summary: 'This document',
      security: [],
      responses: { 200: { description: 'The OpenAPI 3.1 document', content: { [JSON_TYPE]: { schema: { type: 'object' } } } } },
    },
  };
  return result;
}

/**
 * POST /v1/auth/token as published: the client credentials exchange of `shipper serve`
 * (src/server/auth.ts). It is not an operation of the ShipperApi (no command calls it, the
 * operations table does not have it, the MCP tools do not offer it): written here, beside the
 * table's paths, with the published request, answer and refusal bodies.
 */
function tokenOperation(): JsonObject {
  const refusal = (description: string) => ({ description, content: { [JSON_TYPE]: { schema: ref('TokenErrorResponse') } } });
  return {
    operationId: 'getToken',
    tags: ['Authentication'],
    summary: 'Exchange client credentials for a bearer token',
    description: `A JWT valid ${TOKEN_LIFETIME_SECONDS / 3600} h with the scopes \`shipper dev\`. A store without credentials is an open sandbox: any credentials get a token. Refusals are \`{error, errorDescription}\`, as published, not problem details.`,
    security: [],
    requestBody: jsonBody('TokenRequest'),
    responses: {
      200: jsonResponse('The token', 'TokenResponse'),
      400: refusal('The body is not `{clientId, clientSecret}` (`invalid_request`)'),
      401: refusal('Unknown client or wrong secret (`invalid_client`)'),
      429: { ...refusal('Too many failed requests for this client from this address (`too_many_requests`); see Retry-After'), 'x-extension': true },
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
    tags: [{ name: 'Authentication' }, { name: 'Quotes' }, { name: 'Shipments' }, { name: 'Tracking' }, { name: 'Appointments' }, { name: 'Meta' }],
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
