/**
 * GET /v1/shipper/shipment/{id}/invoice over HTTP against the built `shipper serve`: JSON by
 * default, PDF when the Accept header prefers it (RFC 9110 content negotiation), problems as
 * application/problem+json whatever was asked; the OpenAPI document describes both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RemoteApi } from '../../src/api/remote.js';
import type { Shipment } from '../../src/domain/schemas.js';
import { acceptQuality, matchRoute } from '../../src/server/routes.js';
import { tempDir } from '../helpers/cli.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';
import { shipmentRequest } from '../contract/expect.js';

describe('acceptQuality', () => {
  it('the q of the most specific range that covers the type', () => {
    expect(acceptQuality(undefined, 'application/pdf')).toBe(1);
    expect(acceptQuality('application/pdf', 'application/pdf')).toBe(1);
    expect(acceptQuality('application/pdf', 'application/json')).toBe(0);
    expect(acceptQuality('*/*;q=0.2, application/pdf;q=0.9', 'application/json')).toBe(0.2);
    expect(acceptQuality('application/*;q=0.3, application/pdf;q=0.9', 'application/pdf')).toBe(0.9);
    expect(acceptQuality('application/*;q=0.3, application/pdf;q=0.9', 'application/json')).toBe(0.3);
    expect(acceptQuality('Application/PDF; Q=0.5', 'application/pdf')).toBe(0.5);
    expect(acceptQuality('application/pdf;q=abc', 'application/pdf')).toBe(0);
    expect(acceptQuality('text/html', 'application/json')).toBe(0);
  });

  it('picks the invoice operation by Accept; the first (JSON) on a tie or when neither is wanted', () => {
    const path = '/v1/shipper/shipment/sh_1/invoice';
    const operation = (accept?: string) => {
      const match = matchRoute('GET', path, accept);
      return match.kind === 'operation' ? match.operation : match.kind;
    };
    expect(operation()).toBe('getInvoice');
    expect(operation('application/pdf')).toBe('renderInvoice');
    expect(operation('application/pdf, application/problem+json;q=0.9')).toBe('renderInvoice');
    expect(operation('application/json, application/pdf')).toBe('getInvoice');
    expect(operation('application/pdf;q=0.5, application/json')).toBe('getInvoice');
    expect(operation('*/*')).toBe('getInvoice');
    expect(operation('text/html')).toBe('getInvoice');
    expect(matchRoute('HEAD', path, 'application/pdf')).toMatchObject({ operation: 'renderInvoice' });
    expect(matchRoute('POST', path)).toEqual({ kind: 'method-not-allowed', allow: ['GET', 'HEAD'] });
  });
});

describe('the invoice route over HTTP', () => {
  let store: { dir: string; cleanup: () => Promise<void> };
  let server: ServeProcess;
  let shipment: Shipment;
  let cancelled: Shipment;

  beforeAll(async () => {
    store = await tempDir('shipper-invoice-http-');
    server = await startServe({ store: store.dir, env: { SHIPPER_NOW: '2026-11-23T15:00:00.000Z' } });
    const api = new RemoteApi({ baseUrl: server.url, retries: 0 });
    shipment = (await api.createShipment(shipmentRequest({ accessorials: ['APPOINTMENT'] }))).data;
    cancelled = (await api.createShipment(shipmentRequest())).data;
    await api.cancelShipment(cancelled.id, {});
    await api.close();
  });
  afterAll(async () => {
    await server?.stop();
    await store?.cleanup();
  });

  const get = (id: string, accept?: string, method = 'GET') => fetch(`${server.url}/v1/shipper/shipment/${id}/invoice`, { method, headers: accept ? { accept } : {} });

  it('answers JSON by default and to */*: shipper’s invoice on .../invoice/detail; the published one (.../invoice) waits for the delivery', async () => {
    for (const accept of [undefined, '*/*', 'application/json']) {
      const published = await get(shipment.id, accept);
      expect(published.status).toBe(400);
      expect(await published.json()).toMatchObject({ reason: 'invalid_state' });
      const response = await fetch(`${server.url}/v1/shipper/shipment/${shipment.id}/invoice/detail`, { headers: accept ? { accept } : {} });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const invoice = (await response.json()) as { invoiceNumber: string; totals: { totalInCents: number } };
      expect(invoice.invoiceNumber).toBe(shipment.orderNumber.replace('SO-', 'INV-'));
      expect(invoice.totals.totalInCents).toBe(shipment.totalPriceInCents);
    }
  });

  it('answers the PDF when Accept prefers it, named after the shipment', async () => {
    const response = await get(shipment.id, 'application/pdf');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(`inline; filename="invoice-${shipment.id}.pdf"`);
    expect(
      Buffer.from(await response.arrayBuffer())
        .subarray(0, 5)
        .toString('latin1'),
    ).toBe('%PDF-');
    // JSON preferred: the published invoice, which a booked order does not have yet (a problem, not the PDF).
    expect((await get(shipment.id, 'application/pdf;q=0.4, application/json;q=0.8')).headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const head = await get(shipment.id, 'application/pdf', 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('application/pdf');
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it('answers problems as application/problem+json, also to a client that asked for PDF', async () => {
    for (const accept of [undefined, 'application/pdf']) {
      const response = await get(cancelled.id, accept);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
      expect(((await response.json()) as { detail: string }).detail).toMatch(/was cancelled on \d{4}-\d{2}-\d{2}: it has no invoice$/);
    }
    expect((await get('sh_01JD3Y7T9Q2W5E8R1T4Y7V0H3Z', 'application/pdf')).status).toBe(404);
    expect((await get('..%2Fshipments', 'application/pdf')).status).toBe(404);
    const post = await get(shipment.id, undefined, 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('the OpenAPI document has one operation with both media types, and the list’s key filters', async () => {
    const doc = (await (await fetch(`${server.url}/api-docs/shipper-v1`)).json()) as {
      paths: Record<string, Record<string, { operationId: string; responses: Record<string, { content: Record<string, unknown> }>; parameters?: Array<{ name: string }> }>>;
    };
    const invoice = doc.paths['/v1/shipper/shipment/{orderNumber}/invoice']!;
    expect(Object.keys(invoice)).toEqual(['get']);
    expect(invoice.get!.operationId).toBe('getInvoice');
    expect(Object.keys(invoice.get!.responses['200']!.content)).toEqual(['application/json', 'application/pdf']);
    const parameters = doc.paths['/v1/shipper/shipment']!.get!.parameters!.map((parameter) => parameter.name);
    expect(parameters).toEqual(expect.arrayContaining(['proNumber', 'bolNumber']));
  });
});
