/**
 * The published-wire harness judges itself: the official SDK (vendored, test/vendor/oway-sdk)
 * passes the mock's validation and reads its answers; requests and answers that break the
 * published document are caught; breakingChanges sees a change and sees none where there is none.
 */
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Oway, OwayError, type QuoteRequest } from '../vendor/oway-sdk/index.js';
import { breakingChanges } from '../helpers/publishedDiff.js';
import { PUBLISHED_DOCUMENT_PATH, startPublishedMock, startPublishedProxy, type PublishedOptions, type PublishedServer } from '../helpers/publishedMock.js';

const published = JSON.parse(readFileSync(PUBLISHED_DOCUMENT_PATH, 'utf8')) as Record<string, any>;

const address = (name: string, zipCode: string) => ({
  name,
  address1: '1531 Junipero Avenue',
  city: 'Long Beach',
  state: 'CA',
  zipCode,
  phoneNumber: '+18087857650',
  contactPerson: 'Mike Johnson',
});

const quoteRequest: QuoteRequest = {
  pickupAddress: address('Fairgrounds Distribution Center', '90804'),
  deliveryAddress: address('Harbor Receiving', '90802'),
  orderComponents: [{ palletCount: 2, poundsWeight: 500, palletDimensions: [60, 48, 40] }],
  requiredPickupDate: '2026-04-01T08:00:00Z',
};

const servers: PublishedServer[] = [];
const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  for (const close of closers.splice(0)) await close();
});

async function mock(options: PublishedOptions = {}): Promise<PublishedServer> {
  const server = await startPublishedMock(options);
  servers.push(server);
  return server;
}

/** The exchanges without the request headers they record (asserted where they matter). */
/** What the harness judged of each exchange: without the headers and the body as sent. */
const judgements = (requests: PublishedServer['requests']) => requests.map(({ headers: _headers, body: _body, ...exchange }) => exchange);

function post(url: string, body: unknown, headers: Record<string, string> = { authorization: 'Bearer t', 'x-oway-api-key': 'oway_sk_test' }) {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

describe('the published mock and the official SDK', () => {
  it.each([{ closed: false }, { closed: true }])('quotes, books, confirms, tracks, fetches a document and cancels with every request valid (%o)', async (options) => {
    const server = await mock(options);
    const oway = new Oway({ clientId: 'client', clientSecret: 'secret', apiKey: 'oway_sk_test', baseUrl: server.url, maxRetries: 0, timeout: 300_000 });

    const quote = await oway.quotes.create(quoteRequest);
    expect(quote).toMatchObject({ id: '507f1f77bcf86cd799439013', quotedPriceInCents: 125000 });
    expect(await oway.quotes.retrieve(quote.id!)).toMatchObject({ id: quote.id, quotedPriceInCents: 125000 });

    const shipment = await oway.shipments.create({ ...quoteRequest, orderComponents: quoteRequest.orderComponents, quoteId: quote.id, description: 'Electronics - fragile' });
    expect(shipment).toMatchObject({ orderNumber: 'ZKYQ5', totalPriceInCents: 125000 });
    const orderNumber = shipment.orderNumber!;
    expect(await oway.shipments.confirm(orderNumber)).toMatchObject({ orderNumber });
    expect(await oway.shipments.tracking(orderNumber)).toMatchObject({ orderNumber, orderStatus: 'PICKED_UP' });
    // The SDK types documentType as 'BOL' | 'INVOICE' | 'LABEL' and the answer as { url }; the document says BILL_OF_LADING, INVOICE, SHIPPING_LABEL, POD and { downloadLink }.
    expect(await oway.shipments.document(orderNumber, 'INVOICE')).toMatchObject({ downloadLink: 'https://s3.amazonaws.com/...' });
    expect(await oway.shipments.cancel(orderNumber)).toMatchObject({ orderNumber });

    expect(server.requests.map(({ method, operationId, status }) => `${method} ${operationId} ${status}`)).toEqual([
      'POST getToken 200',
      'POST requestQuote 200',
      'GET getQuote 200',
      'POST createShipment 200',
      'PUT confirmShipment 200',
      'GET trackShipment 200',
      'GET getDocument 200',
      'PUT cancelShipment 200',
    ]);
    expect(server.requests.flatMap((request) => request.requestErrors)).toEqual([]);
    expect(server.requests.map((request) => request.path)).toContain('/v1/shipper/shipment/ZKYQ5/document/INVOICE');
  });

  it("refuses the SDK's own 'BOL', which the document's enum does not have, naming the allowed values", async () => {
    const server = await mock();
    const oway = new Oway({ clientId: 'client', clientSecret: 'secret', apiKey: 'oway_sk_test', baseUrl: server.url, maxRetries: 0, timeout: 300_000 });
    const refused = await oway.shipments.document('ZKYQ5', 'BOL').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OwayError);
    // The SDK reads `message` and `code` from an error's body; the document's ProblemDetail has neither (title, detail, violations).
    expect(refused).toMatchObject({ statusCode: 400, message: 'Request failed with status 400', code: 'API_ERROR' });
    const [, documentRequest] = server.requests;
    expect(documentRequest).toMatchObject({ operationId: 'getDocument', status: 400 });
    expect(documentRequest!.requestErrors).toEqual([expect.stringMatching(/^\/path\/documentType .*BILL_OF_LADING, INVOICE, SHIPPING_LABEL, POD$/)]);
  });

  it('records a quote without deliveryAddress as invalid, naming the field, and answers 400', async () => {
    const server = await mock();
    const { deliveryAddress: _dropped, ...withoutDelivery } = quoteRequest;
    const response = await post(`${server.url}/v1/shipper/quote`, withoutDelivery);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { detail: string }).detail).toContain('deliveryAddress');
    expect(judgements(server.requests)).toEqual([
      {
        method: 'POST',
        path: '/v1/shipper/quote',
        operationId: 'requestQuote',
        requestErrors: ["/requestBody must have required property 'deliveryAddress'"],
        responseErrors: [],
        status: 400,
      },
    ]);
  });

  it("records a quote in shipper's own words (origin, destination) with every missing published field", async () => {
    const server = await mock();
    const response = await post(`${server.url}/v1/shipper/quote`, { origin: '90804', destination: '90802', orderComponents: quoteRequest.orderComponents });
    expect(response.status).toBe(400);
    expect(server.requests[0]!.requestErrors).toEqual(["/requestBody must have required property 'deliveryAddress'", "/requestBody must have required property 'pickupAddress'"]);
  });

  it('names a nested field and a format: a five-digit ZIP, an E.164 phone number, a date-time', async () => {
    const server = await mock();
    await post(`${server.url}/v1/shipper/quote`, {
      ...quoteRequest,
      pickupAddress: { ...quoteRequest.pickupAddress, zipCode: '9080', phoneNumber: '562-555-0100' },
      requiredPickupDate: '2026-04-01',
    });
    expect(server.requests[0]!.requestErrors).toEqual([
      '/requestBody/pickupAddress/zipCode must match pattern "\\d{5}"',
      '/requestBody/pickupAddress/phoneNumber must match pattern "^\\+[1-9]\\d{1,14}$"',
      '/requestBody/requiredPickupDate must match format "date-time"',
    ]);
  });

  it('records a request without the two credentials, and a route the document does not have', async () => {
    const server = await mock();
    expect((await post(`${server.url}/v1/shipper/quote`, quoteRequest, {})).status).toBe(400);
    expect((await fetch(`${server.url}/api/v1/quotes`)).status).toBe(404);
    expect(judgements(server.requests)).toEqual([
      expect.objectContaining({
        operationId: 'requestQuote',
        requestErrors: [
          'header authorization must be "Bearer <token from POST /v1/auth/token>" (securitySchemes.bearerAuth)',
          'header x-oway-api-key is required (securitySchemes.apiKey)',
        ],
      }),
      {
        method: 'GET',
        path: '/api/v1/quotes',
        operationId: null,
        requestErrors: ['no operation of the published document is GET /api/v1/quotes'],
        responseErrors: [],
        status: 404,
      },
    ]);
  });

  it('answers a valid request by raw HTTP with the documented example', async () => {
    const server = await mock();
    const response = await post(`${server.url}/v1/shipper/quote`, quoteRequest);
    expect(response.status).toBe(200);
    // Built from the examples of QuoteResponse's properties.
    expect(await response.json()).toEqual({
      id: '507f1f77bcf86cd799439013',
      quotedPriceInCents: 125000,
      quoteExpirationTime: '2024-12-20T15:30:00Z',
      transitDays: 2,
      estimatedDeliveryDate: '2024-12-22T15:30:00Z',
    });
    expect(server.requests[0]).toMatchObject({ requestErrors: [], responseErrors: [], status: 200 });
  });
});

describe('the validating proxy', () => {
  /** A tiny target: answers every request with `status` and `body` as JSON. */
  async function target(status: number, body: unknown, contentType = 'application/json'): Promise<string> {
    const server = createServer((req, res) => {
      req.resume().on('end', () => res.writeHead(status, { 'content-type': contentType }).end(typeof body === 'string' ? body : JSON.stringify(body)));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async function proxy(to: string, options: PublishedOptions = {}): Promise<PublishedServer> {
    const server = await startPublishedProxy(to, options);
    servers.push(server);
    return server;
  }

  it('records quotedPriceInCents as a string as a response error and passes the answer on unchanged', async () => {
    const answer = { id: 'q1', quotedPriceInCents: '125000', quoteExpirationTime: '2026-04-03T08:00:00Z' };
    const server = await proxy(await target(200, answer));
    const response = await post(`${server.url}/v1/shipper/quote`, quoteRequest);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(answer);
    expect(judgements(server.requests)).toEqual([
      { method: 'POST', path: '/v1/shipper/quote', operationId: 'requestQuote', requestErrors: [], responseErrors: ['/quotedPriceInCents must be integer'], status: 200 },
    ]);
  });

  it('forwards the request as sent and finds nothing wrong with a documented answer; an undeclared query parameter is a request error', async () => {
    let seen: { method?: string; url?: string; body: string; apiKey?: string | string[] } = { body: '' };
    const to = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        seen = { method: req.method, url: req.url, body, apiKey: req.headers['x-oway-api-key'] };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'q1', quotedPriceInCents: 125000, transitDays: null }));
      });
    });
    await new Promise<void>((resolve) => to.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => to.close(() => resolve())));
    const server = await proxy(`http://127.0.0.1:${(to.address() as AddressInfo).port}`);

    await post(`${server.url}/v1/shipper/quote?dry=1`, quoteRequest);
    expect(seen).toEqual({ method: 'POST', url: '/v1/shipper/quote?dry=1', body: JSON.stringify(quoteRequest), apiKey: 'oway_sk_test' });
    // openapi-backend refuses query parameters the operation does not declare.
    expect(judgements(server.requests)).toEqual([
      {
        method: 'POST',
        path: '/v1/shipper/quote',
        operationId: 'requestQuote',
        requestErrors: ['/query must NOT have additional properties: dry'],
        responseErrors: [],
        status: 200,
      },
    ]);
    await post(`${server.url}/v1/shipper/quote`, quoteRequest);
    expect(judgements(server.requests)[1]).toEqual({
      method: 'POST',
      path: '/v1/shipper/quote',
      operationId: 'requestQuote',
      requestErrors: [],
      responseErrors: [],
      status: 200,
    });
  });

  it('records an undocumented status, an undocumented media type and a body that is not JSON', async () => {
    const created = await proxy(await target(201, { id: 'q1' }));
    await post(`${created.url}/v1/shipper/quote`, quoteRequest);
    expect(created.requests[0]!.responseErrors).toEqual(['status 201 is not documented for requestQuote (200, 400, 401, 403, 422, 500)']);

    const problemJson = await proxy(await target(400, { title: 'Constraint Violation', status: 400 }, 'application/problem+json'));
    await post(`${problemJson.url}/v1/shipper/quote`, quoteRequest);
    expect(problemJson.requests[0]!.responseErrors).toEqual(['content-type application/problem+json is not documented for requestQuote 400 (application/json)']);

    const notJson = await proxy(await target(200, '{"id":', 'application/json'));
    await post(`${notJson.url}/v1/shipper/quote`, quoteRequest);
    expect(notJson.requests[0]!.responseErrors).toEqual(['the body of requestQuote 200 is not JSON']);
  });

  it('answers 502 and records why when the target does not answer', async () => {
    const gone = createServer();
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
    const { port } = gone.address() as AddressInfo;
    await new Promise<void>((resolve) => gone.close(() => resolve()));
    const server = await proxy(`http://127.0.0.1:${port}`);
    expect((await post(`${server.url}/v1/shipper/quote`, quoteRequest)).status).toBe(502);
    expect(judgements(server.requests)).toEqual([
      expect.objectContaining({ operationId: 'requestQuote', requestErrors: [], status: 502, responseErrors: [expect.stringContaining('ECONNREFUSED')] }),
    ]);
  });

  it('with closed objects, records a field the document does not name, which the document as published lets through', async () => {
    const renamed = await target(200, { id: 'q1', priceCents: 125000 });
    const asPublished = await proxy(renamed);
    const closed = await proxy(renamed, { closed: true });
    for (const server of [asPublished, closed]) await post(`${server.url}/v1/shipper/quote`, { ...quoteRequest, origin: '90804' });
    expect(asPublished.requests[0]).toMatchObject({ requestErrors: [], responseErrors: [] });
    expect(closed.requests[0]).toMatchObject({
      requestErrors: ['/requestBody must NOT have additional properties: origin'],
      responseErrors: ['/ must NOT have additional properties: priceCents'],
    });
  });

  it('validates the request on its way through too', async () => {
    const server = await proxy(await target(200, { id: 'q1', quotedPriceInCents: 1 }));
    await post(`${server.url}/v1/shipper/quote`, { ...quoteRequest, orderComponents: [{ palletCount: 'two', poundsWeight: 500 }] });
    expect(server.requests[0]!.requestErrors).toEqual(['/requestBody/orderComponents/0/palletCount must be integer']);
  });
});

describe('breakingChanges', () => {
  const copy = () => structuredClone(published);

  it('finds nothing between the document and itself', () => {
    expect(breakingChanges(published, copy())).toEqual([]);
  });

  it('finds a request field made required', () => {
    const ours = copy();
    ours.components.schemas.QuoteRequest.required.push('requiredPickupDate');
    expect(breakingChanges(published, ours)).toEqual([
      { path: '/v1/shipper/quote', method: 'POST', description: '[Added] required status to `requiredPickupDate` in Request Body content (application/json)' },
    ]);
  });

  it('finds a response field removed, in each operation that answers with it', () => {
    const ours = copy();
    delete ours.components.schemas.QuoteResponse.properties.quotedPriceInCents;
    expect(breakingChanges(published, ours)).toEqual([
      { path: '/v1/shipper/quote', method: 'POST', description: '[Removed] property `quotedPriceInCents` in Response 200 content (application/json)' },
      { path: '/v1/shipper/quote/{quoteId}', method: 'GET', description: expect.stringContaining('quotedPriceInCents') },
    ]);
  });

  it('finds a served operation removed, and ignores the carrier API and paths outside the selection', () => {
    const ours = copy();
    delete ours.paths['/v1/shipper/shipment/{orderNumber}/cancel'];
    delete ours.paths['/v1/carrier/offers'];
    expect(breakingChanges(published, ours)).toEqual([
      { path: '/v1/shipper/shipment/{orderNumber}/cancel', method: 'PUT', description: '[Removed] operation PUT /v1/shipper/shipment/{orderNumber}/cancel' },
    ]);
    expect(breakingChanges(published, ours, { paths: ['/v1/auth/token'] })).toEqual([]);
  });
});
