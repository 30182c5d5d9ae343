/**
 * The OpenAPI document: valid OpenAPI 3.1 (checked by an OpenAPI validator), generated from the
 * zod schemas, with every field of the seed, palletDimensions deprecated, extensions marked,
 * ProblemDetail responses and both servers; and its schemas accept what the service really
 * answers and refuse what the service refuses.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalApi } from '../../src/api/local.js';
import { openApiDocument } from '../../src/api/openapi.js';
import { DEFAULT_PROFILES } from '../../src/domain/apiServers.js';
import { createShipperServer } from '../../src/server/server.js';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inProcess.js';

type Json = Record<string, any>;

const doc = openApiDocument() as Json;
const schemas = doc.components.schemas as Json;

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document whose $refs all resolve', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(() => validator.resolveRefs()).not.toThrow();
    expect(JSON.stringify(doc)).not.toMatch(/"\$ref":"#\/components\/schemas\/(?!(\w+)")/);
    for (const match of JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/(schemas|responses)\/(\w+)"/g)) {
      expect(doc.components[match[1]!], match[0]).toHaveProperty(match[2]!);
    }
  });

  it('describes every field of the seed, with its limits', () => {
    const component = schemas.OrderComponent.properties;
    expect(Object.keys(component)).toEqual(
      expect.arrayContaining(['palletCount', 'poundsWeight', 'dimensions', 'palletDimensions', 'description', 'nmfcCode', 'packagingType', 'pieceCount']),
    );
    expect(schemas.Dimensions.required).toEqual(['length', 'width', 'height']);
    expect(schemas.Dimensions.properties.height).toMatchObject({ type: 'number', exclusiveMinimum: 0 });
    // Requests state the freight limits (a 53 ft trailer): README "Limits".
    expect(component.dimensions).toEqual({ $ref: '#/components/schemas/DimensionsInput' });
    expect(schemas.DimensionsInput.required).toEqual(['length', 'width', 'height']);
    expect(schemas.DimensionsInput.properties.length).toMatchObject({ type: 'number', minimum: 1, maximum: 636 });
    expect(schemas.DimensionsInput.properties.width).toMatchObject({ type: 'number', minimum: 1, maximum: 102 });
    expect(schemas.DimensionsInput.properties.height).toMatchObject({ type: 'number', minimum: 1, maximum: 110 });
    expect(component.poundsWeight).toMatchObject({ type: 'number', minimum: 1, maximum: 45000 });
    expect(component.palletCount).toMatchObject({ type: 'integer', minimum: 1, maximum: 60 });
    expect(schemas.QuoteRequest.properties.orderComponents).toMatchObject({ minItems: 1, maxItems: 60 });
    expect(component.description.anyOf).toContainEqual({ type: 'string', maxLength: 256 });
    expect(component.nmfcCode.anyOf).toContainEqual({ type: 'string', maxLength: 32 });
    expect(component.packagingType.anyOf).toContainEqual({ type: 'string', maxLength: 32 });
    expect(component.pieceCount.anyOf).toContainEqual({ type: 'integer', minimum: 0, maximum: 99999 });
    expect(component.freightClass).toMatchObject({ not: {} });

    const quote = schemas.Quote;
    expect(quote.required).toEqual(expect.arrayContaining(['id', 'quotedPriceInCents', 'quoteExpirationTime', 'transitDays', 'estimatedDeliveryDate']));
    expect(quote.properties.quotedPriceInCents.type).toBe('integer');
    expect(quote.properties.quoteExpirationTime.format).toBe('date-time');
    expect(quote.properties.transitDays.type).toEqual(['integer', 'null']);
    expect(quote.properties.estimatedDeliveryDate.anyOf[1]).toEqual({ type: 'null' });

    expect(schemas.ShipmentRequest.properties.refNumber).toBeDefined();
    expect(schemas.ShipmentRequest.properties.orderComponents.items).toEqual({ $ref: '#/components/schemas/OrderComponent' });
    expect(schemas.QuoteRequest.properties.orderComponents.items).toEqual({ $ref: '#/components/schemas/OrderComponent' });
    expect(schemas.ProblemDetail.properties.violations.items).toEqual({ $ref: '#/components/schemas/Violation' });
    expect(schemas.Violation.required).toEqual(['field', 'reason']);
  });

  it('says additionalProperties: false on request schemas only (responses grow additively)', () => {
    for (const id of [
      'QuoteRequest',
      'ShipmentRequest',
      'TransitRequest',
      'OrderComponent',
      'DimensionsInput',
      'PlaceInput',
      'AddressInput',
      'ShipmentBatchRequest',
      'ShipmentPreviewRequest',
    ]) {
      expect(schemas[id].additionalProperties, id).toBe(false);
    }
    expect(schemas.ShipmentBatchRequest.properties.items.items.additionalProperties).toBe(false);
    for (const id of ['Quote', 'Shipment', 'Address', 'Dimensions', 'RatedOrderComponent', 'Place']) expect(schemas[id].additionalProperties, id).toBeUndefined();
  });

  it('marks palletDimensions deprecated', () => {
    expect(schemas.OrderComponent.properties.palletDimensions).toMatchObject({ deprecated: true, type: 'array', minItems: 3, maxItems: 3 });
  });

  it('marks the extensions, and only them', () => {
    const quote = schemas.Quote.properties;
    for (const seed of ['id', 'quotedPriceInCents', 'quoteExpirationTime', 'transitDays', 'estimatedDeliveryDate']) expect(quote[seed]['x-extension']).toBeUndefined();
    for (const added of ['requiredPickupDate', 'pickupAddress', 'miles', 'orderComponents', 'priceBreakdown', 'createdAt']) expect(quote[added]['x-extension']).toBe(true);
    expect(schemas.OrderComponent.properties.pieceCount['x-extension']).toBeUndefined();
    expect(schemas.RatedOrderComponent.properties.densityPcf['x-extension']).toBe(true);
    expect(schemas.Shipment['x-extension']).toBe(true);

    const operations = Object.values(doc.paths as Json).flatMap((item: Json) => Object.values(item) as Json[]);
    const extensions = operations
      .filter((operation) => operation['x-extension'])
      .map((operation) => operation.operationId)
      .sort();
    expect(extensions).toEqual([
      'addShipmentEvents',
      'addShipmentEventsBatch',
      'createLaneQuote',
      'createShipments',
      'createTender',
      'downloadDocument',
      'getBillOfLading',
      'getInvoiceDetail',
      'listAccessorials',
      'listBolTemplates',
      'listQuotes',
      'listShipmentEvents',
      'listShipments',
      'previewShipments',
      'renderLabels',
      'shopRates',
      'transitTimes',
      'updateShipment',
    ]);
    for (const id of ['ShipmentBatchRequest', 'ShipmentBatchResult', 'ShipmentPreviewRequest', 'ShipmentPreviewResult', 'ShipmentEventsRequest', 'ShipmentTracking'])
      expect(schemas[id]['x-extension']).toBe(true);
  });

  it('has the paths of SPEC 3 and both extensions', () => {
    const paths = doc.paths as Json;
    expect(Object.keys(paths['/v1/shipper/quote']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(paths['/v1/shipper/quote/{quoteId}'])).toEqual(['get']);
    expect(Object.keys(paths['/v1/shipper/shipment']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(paths['/v1/shipper/shipment/{orderNumber}']).sort()).toEqual(['get', 'patch']);
    expect(paths['/v1/shipper/shipment/{shipmentId}']).toBeUndefined();
    expect(Object.keys(paths['/v1/shipper/shipment/{orderNumber}/confirm'])).toEqual(['put']);
    expect(Object.keys(paths['/v1/shipper/shipment/{orderNumber}/cancel'])).toEqual(['put']);
    expect(paths['/v1/shipper/shipment/{orderNumber}/tracking'].get.operationId).toBe('trackShipment');
    expect(paths['/v1/shipper/shipment/{shipmentId}/labels'].get.responses['200'].content).toHaveProperty('application/zpl');
    expect(paths['/v1/shipper/shipment/{shipmentId}/tender'].post.operationId).toBe('createTender');
    expect(paths['/v1/shipper/shipment/{shipmentId}/bol'].get.responses['200'].content).toHaveProperty('application/pdf');
    expect(paths['/v1/shipper/bol-templates'].get).toBeDefined();
    expect(paths['/v1/shipper/accessorials'].get.operationId).toBe('listAccessorials');
    expect(paths['/api-docs/shipper-v1'].get.security).toEqual([]);
  });

  it('answers errors as ProblemDetail and writes with Location and Deprecation headers', () => {
    const post = doc.paths['/v1/shipper/quote'].post;
    expect(Object.keys(post.responses).sort()).toEqual(['200', '400', '401', '403', '413', '415', '422', '500']);
    expect(Object.keys(post.responses['200'].headers)).toEqual(expect.arrayContaining(['Location', 'Deprecation', 'X-Shipper-Warning']));
    expect(post.parameters).toContainEqual(expect.objectContaining({ name: 'Idempotency-Key', in: 'header' }));
    expect(doc.paths['/v1/shipper/shipment'].post.responses['409']).toEqual({ $ref: '#/components/responses/Conflict' });
    for (const response of Object.values(doc.components.responses as Json)) {
      expect(response.content['application/problem+json'].schema).toEqual({ $ref: '#/components/schemas/ProblemDetail' });
    }
  });

  it('names the production and sandbox servers', () => {
    expect(doc.servers).toEqual([
      { url: DEFAULT_PROFILES.production.baseUrl, description: 'Production' },
      { url: DEFAULT_PROFILES.sandbox.baseUrl, description: expect.stringMatching(/^Sandbox/) },
    ]);
  });
});

describe('the schemas against the service', () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  // ajv-formats is CommonJS: its function is the default export's default under ESM interop.
  const addFormats = (formats as unknown as { default: typeof formats }).default ?? formats;
  (addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
  ajv.addSchema({ components: doc.components }, 'openapi.json');
  const validate = (component: string, value: unknown) => {
    const check = ajv.compile({ $ref: `openapi.json#/components/schemas/${component}` });
    const ok = check(value);
    return { ok, errors: check.errors };
  };
  let api: LocalApi;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const temp = await tempDir();
    cleanup = temp.cleanup;
    api = new LocalApi({ storeDir: temp.dir });
  });
  afterAll(() => cleanup());

  const request = {
    pickupAddress: { zipCode: '60601' },
    deliveryAddress: { zipCode: '10001-1234' },
    orderComponents: [{ palletCount: 1, poundsWeight: 500, dimensions: { length: 48, width: 40, height: 48 }, pieceCount: 0 }],
  };
  const address = { name: 'A', address1: 'B', city: 'C', state: 'il', zipCode: '60601', contactPerson: 'D', phoneNumber: '+13125550100' };

  it('the request schemas accept what the service accepts and refuse what it refuses', async () => {
    // POST quote takes the published Address on both stops; the lane quote (an extension) takes ZIP codes alone.
    expect(validate('QuoteRequest', request).ok).toBe(false);
    expect(validate('QuoteRequest', { ...request, pickupAddress: address, deliveryAddress: { ...address, state: 'NY', zipCode: '10001' } }).ok).toBe(true);
    const { phoneNumber: _phone, ...withoutPhone } = address;
    expect(validate('QuoteRequest', { ...request, pickupAddress: withoutPhone, deliveryAddress: { ...address, state: 'NY', zipCode: '10001' } }).ok).toBe(false);
    expect(validate('LaneQuoteRequest', request).ok).toBe(true);
    await expect(api.createLaneQuote(request)).resolves.toBeDefined();
    for (const bad of [
      { ...request, orderComponents: [{ ...request.orderComponents[0], freightClass: '70' }] },
      { ...request, orderComponents: [{ ...request.orderComponents[0], pieceCount: -1 }] },
      { ...request, orderComponents: [{ ...request.orderComponents[0], description: 'x'.repeat(257) }] },
      { ...request, orderComponents: [{ ...request.orderComponents[0], dimensions: { length: 48, width: 40, height: 0 } }] },
      { ...request, orderComponents: [] },
      // Unknown fields (a typo must not silently change a price), at every level.
      { ...request, accesorials: ['LIFTGATE_DELIVERY'] },
      { ...request, orderComponents: [{ ...request.orderComponents[0], descripton: 'Pumps' }] },
      { ...request, pickupAddress: { zipCode: '60601', zipcode: '60601' } },
      { ...request, orderComponents: [{ ...request.orderComponents[0], dimensions: { length: 48, width: 40, height: 48, depth: 1 } }] },
      // Beyond the freight limits.
      { ...request, orderComponents: [{ ...request.orderComponents[0], poundsWeight: 1e308 }] },
      { ...request, orderComponents: [{ ...request.orderComponents[0], dimensions: { length: 48, width: 103, height: 48 } }] },
    ]) {
      expect(validate('LaneQuoteRequest', bad).ok, JSON.stringify(bad).slice(0, 200)).toBe(false);
      await expect(api.createLaneQuote(bad as never)).rejects.toMatchObject({ status: 400 });
    }
  });

  it('the response schemas accept the service’s real answers', async () => {
    const { data: quote } = await api.createLaneQuote(request);
    expect(validate('Quote', quote)).toEqual({ ok: true, errors: null });
    const { data: shipment } = await api.createShipment({
      quoteId: quote.id,
      pickupAddress: address,
      deliveryAddress: { ...address, state: 'NY', zipCode: '10001' },
      orderComponents: request.orderComponents,
    });
    expect(validate('Shipment', shipment)).toEqual({ ok: true, errors: null });
    expect(validate('ShipmentRequest', { pickupAddress: address, deliveryAddress: address, orderComponents: request.orderComponents, refNumber: 'PO-1' }).ok).toBe(true);
    const { data: page } = await api.listQuotes({ limit: 2 });
    expect(validate('QuotePage', page).ok).toBe(true);
    const problem = await api.getQuote('qt_01JD3Y7T9Q2W5E8R1T4Y7U0I3Z').catch((error: { problem: unknown }) => error.problem);
    expect(validate('ProblemDetail', problem).ok).toBe(true);

    // The batch extensions: envelopes and mixed outcomes.
    const shipmentRequest = { pickupAddress: address, deliveryAddress: { ...address, state: 'NY', zipCode: '10001' }, orderComponents: request.orderComponents };
    const invalid = { ...shipmentRequest, orderComponents: [{ ...request.orderComponents[0], pieceCount: -1 }] };
    const batch = { items: [{ request: shipmentRequest, idempotencyKey: 'openapi-1' }, { request: invalid }] };
    // The document asks for valid ShipmentRequests; the service still answers an invalid one item by item.
    expect(validate('ShipmentBatchRequest', { items: [batch.items[0]] }).ok).toBe(true);
    expect(validate('ShipmentBatchRequest', batch).ok).toBe(false);
    expect(validate('ShipmentBatchRequest', { items: [] }).ok).toBe(false);
    expect(validate('ShipmentBatchRequest', { items: [{ request: shipmentRequest, idempotencyKey: 'has space' }] }).ok).toBe(false);
    const booked = (await api.createShipments({ items: batch.items })).data.items;
    expect(booked.map((outcome) => outcome.ok)).toEqual([true, false]);
    expect(validate('ShipmentBatchResult', { items: booked })).toEqual({ ok: true, errors: null });
    const previewed = (await api.previewShipments({ items: [{ request: shipmentRequest }, { request: invalid }] })).data.items;
    expect(validate('ShipmentPreviewRequest', { items: [{ request: shipmentRequest }] }).ok).toBe(true);
    expect(validate('ShipmentPreviewResult', { items: previewed })).toEqual({ ok: true, errors: null });
  });
});

describe('publishing', () => {
  it('serves the same document at /api-docs/shipper-v1 as `shipper openapi` prints', async () => {
    const temp = await tempDir();
    const server = createShipperServer({ api: new LocalApi({ storeDir: temp.dir }) });
    const { port } = await server.listen(0, '127.0.0.1');
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api-docs/shipper-v1`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const served = await response.json();
      const printed = await runInProcess(['openapi']);
      expect(printed.code).toBe(0);
      expect(printed.stderr).toBe('');
      expect(JSON.parse(printed.stdout)).toEqual(served);
      expect(served).toEqual(JSON.parse(JSON.stringify(doc)));
    } finally {
      await server.close(100);
      await temp.cleanup();
    }
  });
});
