/**
 * A client no one here wrote, against `shipper serve`: the official TypeScript SDK (vendored,
 * test/vendor/oway-sdk) quotes, books, reads the order by its order number, confirms, tracks and
 * cancels, through a proxy that checks every request and every answer against the published
 * document with openapi-backend (test/helpers/publishedMock.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Oway } from '../vendor/oway-sdk/index.js';
import { PUBLISHED_DELIVERY, PUBLISHED_PICKUP } from '../helpers/fixtures.js';
import { startPublishedProxy, type PublishedServer } from '../helpers/publishedMock.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';
import { readPdf } from '../bol/pdf-reader.js';

// A Wednesday afternoon in Chicago: Thursday is a business day.
const NOW = '2026-11-18T18:00:00.000Z';

const pickupAddress = PUBLISHED_PICKUP;
const deliveryAddress = { ...PUBLISHED_DELIVERY, liftgateRequired: true };
// Two pallets, 1,200 lb in all: a client written from the published document sends the component's weight (poundsWeight sums over components at confirm).
const orderComponents = [{ palletCount: 2, poundsWeight: 1200, palletDimensions: [48, 40, 48] }];

let dir: string;
let serve: ServeProcess;
let proxy: PublishedServer;
let oway: Oway;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'shipper-sdk-'));
  serve = await startServe({ store: join(dir, 'store'), env: { SHIPPER_NOW: NOW, SHIPPER_CONFIG_DIR: join(dir, 'config') } });
  proxy = await startPublishedProxy(serve.url);
  oway = new Oway({ clientId: 'client', clientSecret: 'secret', apiKey: 'oway_sk_test_sandbox', baseUrl: proxy.url, maxRetries: 0, timeout: 300_000 });
});

afterAll(async () => {
  await proxy?.close();
  await serve?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('the official SDK against shipper serve', () => {
  it('quotes, books, reads by order number, confirms, tracks and cancels; every request and answer as published', async () => {
    const quote = (await oway.quotes.create({ pickupAddress, deliveryAddress, orderComponents, requiredPickupDate: '2026-11-19T15:00:00Z' } as never)) as Record<string, unknown>;
    expect(quote.quotedPriceInCents).toEqual(expect.any(Number));
    // The published QuoteResponse's fields, and ours beside them: the class from the density of 1,200 lb over two 48x40x48 pallets.
    expect(quote).toMatchObject({ transitDays: expect.any(Number), estimatedDeliveryDate: expect.any(String), requiredPickupDate: '2026-11-19' });
    expect((quote.orderComponents as Array<{ densityPcf: number }>)[0]!.densityPcf).toBe(11.25);
    // deliveryAddress.liftgateRequired prices as LIFTGATE_DELIVERY.
    expect(quote.accessorials).toEqual(['LIFTGATE_DELIVERY']);
    expect(await oway.quotes.retrieve(quote.id as string)).toMatchObject({ id: quote.id, quotedPriceInCents: quote.quotedPriceInCents });

    const shipment = (await oway.shipments.create({
      quoteId: quote.id,
      pickupAddress,
      deliveryAddress,
      orderComponents,
      description: 'Machine parts, crated',
      poNumber: 'PO-7001',
    } as never)) as Record<string, unknown>;
    // As published: created INITIALIZED, CONFIRMED by the confirm.
    expect(shipment).toMatchObject({
      orderNumber: expect.stringMatching(/^SO-\d{6}$/),
      orderStatus: 'INITIALIZED',
      totalPriceInCents: quote.quotedPriceInCents,
      companyId: 'default',
      description: 'Machine parts, crated',
      poNumber: 'PO-7001',
    });
    const orderNumber = shipment.orderNumber as string;
    expect(await oway.shipments.retrieve(orderNumber)).toMatchObject({ id: shipment.id, orderNumber, orderStatus: 'INITIALIZED' });
    expect(await oway.shipments.confirm(orderNumber)).toMatchObject({ orderNumber, orderStatus: 'CONFIRMED' });
    // The estimated pickup: the pickup day at the stop's openTime, 10:00 when not given, in Chicago (CST).
    expect(await oway.shipments.tracking(orderNumber)).toMatchObject({
      id: shipment.id,
      orderNumber,
      orderStatus: 'CONFIRMED',
      estimatedPickupDate: '2026-11-19T16:00:00.000Z',
      estimatedDeliveryDate: expect.any(String),
    });
    await oway.shipments.cancel(orderNumber);
    expect(await oway.shipments.retrieve(orderNumber)).toMatchObject({ orderNumber, orderStatus: 'CANCELLED' });

    const exchanges = proxy.requests.filter((request) => request.path !== '/v1/auth/token');
    expect(exchanges.map(({ method, operationId, status }) => `${method} ${operationId} ${status}`)).toEqual([
      'POST requestQuote 200',
      'GET getQuote 200',
      'POST createShipment 200',
      'GET getShipment 200',
      'PUT confirmShipment 200',
      'GET trackShipment 200',
      'PUT cancelShipment 200',
      'GET getShipment 200',
    ]);
    expect(proxy.requests.flatMap((request) => request.requestErrors.map((error) => `${request.method} ${request.path}: ${error}`))).toEqual([]);
    expect(proxy.requests.flatMap((request) => request.responseErrors.map((error) => `${request.method} ${request.path}: ${error}`))).toEqual([]);
  });

  it('reads a multi-pallet component sent the published way as its total weight, holds it to the published limits, and defaults omitted dimensions', async () => {
    // Three pallets of 2,500 lb, sent as the component's weight: 7,500 lb in all, the most three pallets may weigh.
    const full = (await oway.quotes.create({
      pickupAddress,
      deliveryAddress,
      orderComponents: [{ palletCount: 3, poundsWeight: 7500, dimensions: { length: 48, width: 40, height: 48 } }],
    } as never)) as Record<string, unknown>;
    expect((full.orderComponents as Array<Record<string, unknown>>)[0]).toMatchObject({ palletCount: 3, poundsWeight: 7500 });
    // One pound more is 2,500.33 lb a pallet: the published 400, naming the field.
    const heavy = await oway.quotes
      .create({ pickupAddress, deliveryAddress, orderComponents: [{ palletCount: 3, poundsWeight: 7501, dimensions: { length: 48, width: 40, height: 48 } }] } as never)
      .then(
        () => undefined,
        (error: unknown) => error as { statusCode?: number; message: string },
      );
    expect(heavy?.statusCode).toBe(400);
    // Without dimensions the published default pallet, 40x48x60 in, with a coded warning.
    const assumed = (await oway.quotes.create({ pickupAddress, deliveryAddress, orderComponents: [{ palletCount: 2, poundsWeight: 1000 }] } as never)) as Record<string, unknown>;
    expect((assumed.orderComponents as Array<Record<string, unknown>>)[0]!.dimensions).toEqual({ length: 40, width: 48, height: 60 });
    expect((assumed.warnings as Array<{ code: string }>).map((warning) => warning.code)).toContain('DIMENSIONS_ASSUMED');
    const refused = proxy.requests.filter((request) => request.operationId === 'requestQuote' && request.status === 400);
    expect(refused).toHaveLength(1);
    // A request the published document takes, refused by the limits its confirm states.
    expect(refused.flatMap((request) => request.requestErrors)).toEqual([]);
  });

  it('confirms and cancels through PUT without a body though the client says Content-Type: application/json', async () => {
    const quote = (await oway.quotes.create({ pickupAddress, deliveryAddress, orderComponents } as never)) as { id: string };
    const shipment = (await oway.shipments.create({ quoteId: quote.id, pickupAddress, deliveryAddress, orderComponents, description: 'Parts' } as never)) as {
      orderNumber: string;
    };
    const put = (path: string) => fetch(`${serve.url}/v1/shipper/shipment/${shipment.orderNumber}/${path}`, { method: 'PUT', headers: { 'content-type': 'application/json' } });
    expect((await put('confirm')).status).toBe(200);
    // Only an INITIALIZED order confirms: a second confirm is the published 400.
    const twice = await put('confirm');
    expect(twice.status).toBe(400);
    expect(await twice.json()).toMatchObject({ status: 400, reason: 'invalid_state', detail: expect.stringContaining('order is not in INITIALIZED state') });
    const cancelled = await put('cancel');
    expect(cancelled.status).toBe(200);
    expect(await cancelled.json()).toMatchObject({ orderStatus: 'CANCELLED' });
    // A cancelled order has no pickup to expect.
    const tracking = (await (await fetch(`${serve.url}/v1/shipper/shipment/${shipment.orderNumber}/tracking`)).json()) as Record<string, unknown>;
    expect(tracking).toMatchObject({ orderStatus: 'CANCELLED' });
    expect(tracking).not.toHaveProperty('estimatedPickupDate');
    // Confirming a cancelled order is refused as the published confirm refuses a state other than INITIALIZED.
    const refused = await put('confirm');
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ status: 400, reason: 'invalid_state' });
  });

  it('moves the order on with the carrier’s events, and refuses to cancel freight picked up (400 invalid_state, as published)', async () => {
    const quote = (await oway.quotes.create({ pickupAddress, deliveryAddress, orderComponents } as never)) as { id: string };
    const shipment = (await oway.shipments.create({ quoteId: quote.id, pickupAddress, deliveryAddress, orderComponents, description: 'Parts' } as never)) as {
      orderNumber: string;
    };
    // An X12 AT7 AF (departed the pickup) through the events extension, an hour before the server's clock.
    const events = await fetch(`${serve.url}/v1/shipper/shipment/${shipment.orderNumber}/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ events: [{ occurredAt: '2026-11-18T11:00:00-06:00', statusCode: 'AF' }] }),
    });
    expect(events.status, await events.clone().text()).toBe(200);
    expect(await oway.shipments.tracking(shipment.orderNumber)).toMatchObject({ orderStatus: 'PICKED_UP', actualPickupDate: '2026-11-18T17:00:00.000Z' });
    const refused = await fetch(`${serve.url}/v1/shipper/shipment/${shipment.orderNumber}/cancel`, { method: 'PUT' });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ status: 400, reason: 'invalid_state' });
    expect(await oway.shipments.retrieve(shipment.orderNumber)).toMatchObject({ orderStatus: 'PICKED_UP' });
  });

  it('fetches the BOL and the labels by their download links, and reads the invoice once delivered; every answer as published', async () => {
    const before = proxy.requests.length;
    const quote = (await oway.quotes.create({ pickupAddress, deliveryAddress, orderComponents } as never)) as { id: string };
    const shipment = (await oway.shipments.create({ quoteId: quote.id, pickupAddress, deliveryAddress, orderComponents, description: 'Parts', poNumber: 'PO-7002' } as never)) as {
      orderNumber: string;
      bolNumber: string;
    };
    const bol = await oway.shipments.document(shipment.orderNumber, 'BOL');
    expect(bol).toMatchObject({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/v1\/shipper\/shipment\/sh_\w+\/document\/BILL_OF_LADING\/download\?/) });
    const bolPdf = await fetch(bol.url);
    expect(bolPdf.status).toBe(200);
    const bolText = (await readPdf(new Uint8Array(await bolPdf.arrayBuffer()))).pages.map((page) => page.text).join('\n');
    expect(bolText).toContain(shipment.bolNumber);
    const labels = await fetch((await oway.shipments.document(shipment.orderNumber, 'LABEL')).url);
    expect(labels.status).toBe(200);
    expect((await readPdf(new Uint8Array(await labels.arrayBuffer()))).pages).toHaveLength(2);

    // Delivered: picked up and delivered by the carrier's events (the events extension).
    const events = await fetch(`${serve.url}/v1/shipper/shipment/${shipment.orderNumber}/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        events: [
          { occurredAt: '2026-11-18T09:00:00-06:00', statusCode: 'AF' },
          { occurredAt: '2026-11-18T11:00:00-06:00', statusCode: 'D1' },
        ],
      }),
    });
    expect(events.status, await events.clone().text()).toBe(200);
    const invoice = (await oway.shipments.invoice(shipment.orderNumber)) as Record<string, unknown>;
    expect(invoice).toMatchObject({ orderNumber: shipment.orderNumber, poNumber: 'PO-7002', totalPieces: 2, totalWeight: 1200, deliveryDate: '2026-11-18T17:00:00.000Z' });
    const invoicePdf = await fetch((await oway.shipments.document(shipment.orderNumber, 'INVOICE')).url);
    expect(invoicePdf.status).toBe(200);
    expect(
      Buffer.from(await invoicePdf.arrayBuffer())
        .subarray(0, 5)
        .toString('latin1'),
    ).toBe('%PDF-');

    const exchanges = proxy.requests.slice(before).filter((request) => request.path !== '/v1/auth/token');
    expect(exchanges.filter((request) => request.operationId !== null).map(({ method, operationId, status }) => `${method} ${operationId} ${status}`)).toEqual([
      'POST requestQuote 200',
      'POST createShipment 200',
      'GET getDocument 200',
      'GET getDocument 200',
      'GET getInvoice 200',
      'GET getDocument 200',
    ]);
    // The client's aliases BOL and LABEL are outside the published enum: the only request errors, accepted beyond the published document.
    const requestErrors = exchanges.flatMap((request) => request.requestErrors.map((error) => `${request.method} ${request.path}: ${error}`));
    expect(
      requestErrors.filter((error) => !/\/document\/(BOL|LABEL): .*documentType/.test(error) && !/no operation of the published document is GET .*\/download$/.test(error)),
    ).toEqual([]);
    expect(requestErrors.some((error) => /\/document\/BOL: /.test(error))).toBe(true);
    expect(exchanges.flatMap((request) => request.responseErrors.map((error) => `${request.method} ${request.path}: ${error}`))).toEqual([]);
  });
});
