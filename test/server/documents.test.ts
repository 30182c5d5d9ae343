/**
 * The published documents, invoice and appointments over HTTP against the built `shipper serve`
 * (issue 40): signed download links that serve answers itself (and refuses altered or expired),
 * the invoice of a delivered order, each stop's appointment requirement, and the supporting
 * documents uploaded as multipart (by their bytes, at most 10 MB, stored in the store).
 */
import { request } from 'node:http';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPdf } from '../bol/pdf-reader.js';
import { PUBLISHED_DELIVERY, PUBLISHED_PICKUP } from '../helpers/fixtures.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';

const NOW = '2026-11-18T18:00:00.000Z';
const pickupAddress = PUBLISHED_PICKUP;
const deliveryAddress = { ...PUBLISHED_DELIVERY, appointmentRequired: true };
const orderComponents = [{ palletCount: 2, poundsWeight: 1200, dimensions: { length: 48, width: 40, height: 48 }, description: 'Machine parts', packagingType: 'PLT' }];

/** A 1x1 PNG (a red pixel). */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

let dir: string;
let serve: ServeProcess;
let store: string;

interface Booked {
  id: string;
  orderNumber: string;
  bolNumber: string;
}

async function book(extra: Record<string, unknown> = {}): Promise<Booked> {
  const response = await fetch(`${serve.url}/v1/shipper/shipment`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ pickupAddress, deliveryAddress, orderComponents, description: 'Machine parts, crated', ...extra }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as Booked;
}

async function events(orderNumber: string, list: Array<{ occurredAt: string; statusCode: string }>): Promise<void> {
  const response = await fetch(`${serve.url}/v1/shipper/shipment/${orderNumber}/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ events: list }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${serve.url}${path}`, { headers });

async function pdfText(bytes: ArrayBuffer): Promise<string> {
  return (await readPdf(new Uint8Array(bytes))).pages.map((page) => page.text).join('\n');
}

function upload(orderNumber: string, stop: string, type: string, content: Uint8Array, contentType: string, filename = 'doc.pdf') {
  const form = new FormData();
  form.append('file', new Blob([content], { type: contentType }), filename);
  return fetch(`${serve.url}/v1/shipper/shipment/${orderNumber}/appointment/${stop}/document/${type}`, { method: 'POST', body: form });
}

/**
 * A multipart upload with node:http, declared by Content-Length or chunked: a server that answers
 * 413 early may close before the whole body is sent, which is fine (fetch would throw instead).
 */
function rawUpload(path: string, content: Uint8Array, chunked: boolean): Promise<number> {
  const boundary = 'shipper-test-boundary';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const { hostname, port } = new URL(serve.url);
  const headers = { 'content-type': `multipart/form-data; boundary=${boundary}`, ...(chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': body.byteLength }) };
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, method: 'POST', path, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)));
    // Chunked: in pieces, so the limit is met while streaming.
    if (chunked) for (let offset = 0; offset < body.byteLength; offset += 1024 * 1024) req.write(body.subarray(offset, offset + 1024 * 1024));
    else req.write(body);
    req.end();
  });
}

async function smallPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.addPage([200, 200]);
  return pdf.save();
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'shipper-documents-'));
  store = join(dir, 'store');
  serve = await startServe({ store, env: { SHIPPER_NOW: NOW, SHIPPER_CONFIG_DIR: join(dir, 'config') } });
});

afterAll(async () => {
  await serve?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('documents by download link', () => {
  it('answers a signed link on this server for the BOL (BOL too), which answers the PDF of that order without credentials', async () => {
    const shipment = await book();
    const response = await get(`/v1/shipper/shipment/${shipment.orderNumber}/document/BILL_OF_LADING`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as Record<string, string>;
    expect(document).toMatchObject({ filename: `bol-${shipment.orderNumber}.pdf`, fileType: 'application/pdf' });
    expect(document.url).toBe(document.downloadLink);
    expect(document.downloadLink!.startsWith(`${serve.url}/v1/shipper/shipment/${shipment.id}/document/BILL_OF_LADING/download?`)).toBe(true);
    // 15 minutes on the server's clock.
    expect(Date.parse(document.expiresAt!) - Date.parse(NOW)).toBeGreaterThanOrEqual(15 * 60_000);
    expect(Date.parse(document.expiresAt!) - Date.parse(NOW)).toBeLessThan(16 * 60_000);

    const pdf = await fetch(document.downloadLink!);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(await pdfText(await pdf.arrayBuffer())).toContain(shipment.bolNumber);

    // The official client's alias, by shipment id too.
    const alias = (await (await get(`/v1/shipper/shipment/${shipment.id}/document/BOL`)).json()) as Record<string, string>;
    expect(alias.filename).toBe(`bol-${shipment.orderNumber}.pdf`);
  });

  it('answers the labels (LABEL) as a PDF of one page per pallet', async () => {
    const shipment = await book();
    const document = (await (await get(`/v1/shipper/shipment/${shipment.orderNumber}/document/LABEL`)).json()) as Record<string, string>;
    expect(document.filename).toBe(`labels-${shipment.orderNumber}.pdf`);
    const pdf = await fetch(document.url!);
    expect(pdf.status).toBe(200);
    expect((await readPdf(new Uint8Array(await pdf.arrayBuffer()))).pages).toHaveLength(2);
  });

  it('refuses a link that was altered: another signature, another document, another shipment (403 invalid_signature)', async () => {
    const shipment = await book();
    const other = await book();
    const { downloadLink } = (await (await get(`/v1/shipper/shipment/${shipment.orderNumber}/document/BILL_OF_LADING`)).json()) as { downloadLink: string };
    const url = new URL(downloadLink);
    const signature = url.searchParams.get('signature')!;
    const tampered = [new URL(url), new URL(url.href.replace('/BILL_OF_LADING/', '/SHIPPING_LABEL/')), new URL(url.href.replace(shipment.id, other.id)), new URL(url)];
    tampered[0]!.searchParams.set('signature', `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`);
    tampered[3]!.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    for (const link of tampered) {
      const refused = await fetch(link);
      expect(refused.status, link.href).toBe(403);
      expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await refused.json()).toMatchObject({ status: 403, reason: 'invalid_signature' });
    }
    const unsigned = await fetch(`${url.origin}${url.pathname}`);
    expect(unsigned.status).toBe(403);
  });

  it('has no POD (404), refuses an unknown type (400); a cancelled order keeps its VOID BOL, and has no labels or invoice (404)', async () => {
    const shipment = await book();
    expect((await get(`/v1/shipper/shipment/${shipment.orderNumber}/document/POD`)).status).toBe(404);
    // The invoice PDF is there from booking on (the published JSON invoice waits for the delivery).
    expect((await get(`/v1/shipper/shipment/${shipment.orderNumber}/document/INVOICE`)).status).toBe(200);
    const unknown = await get(`/v1/shipper/shipment/${shipment.orderNumber}/document/PACKING_LIST`);
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { violations: Array<{ field: string }> }).violations[0]!.field).toBe('documentType');
    expect((await get(`/v1/shipper/shipment/SO-999999/document/BOL`)).status).toBe(404);
    const { url } = (await (await get(`/v1/shipper/shipment/${shipment.orderNumber}/document/LABEL`)).json()) as { url: string };
    await fetch(`${serve.url}/v1/shipper/shipment/${shipment.orderNumber}/cancel`, { method: 'PUT' });
    expect((await get(`/v1/shipper/shipment/${shipment.orderNumber}/document/LABEL`)).status).toBe(404);
    expect((await get(`/v1/shipper/shipment/${shipment.orderNumber}/document/INVOICE`)).status).toBe(404);
    // A link given before the cancellation answers by the rules of now.
    expect((await fetch(url)).status).toBe(404);
    const bol = (await (await get(`/v1/shipper/shipment/${shipment.orderNumber}/document/BOL`)).json()) as { url: string };
    expect(await pdfText(await (await fetch(bol.url)).arrayBuffer())).toContain('VOID');
  });

  it('answers the published invoice once the order is DELIVERED (400 before), and its PDF by link', async () => {
    const shipment = await book({ poNumber: 'PO-7001' });
    const early = await get(`/v1/shipper/shipment/${shipment.orderNumber}/invoice`);
    expect(early.status).toBe(400);
    expect(await early.json()).toMatchObject({ reason: 'invalid_state' });
    await events(shipment.orderNumber, [
      { occurredAt: '2026-11-18T09:00:00-06:00', statusCode: 'AF' },
      { occurredAt: '2026-11-18T11:00:00-06:00', statusCode: 'D1' },
    ]);
    const response = await get(`/v1/shipper/shipment/${shipment.orderNumber}/invoice`);
    expect(response.status).toBe(200);
    const invoice = (await response.json()) as Record<string, unknown> & { charges: Array<{ amountInCents: number }> };
    expect(invoice).toMatchObject({
      orderId: shipment.id,
      orderNumber: shipment.orderNumber,
      poNumber: 'PO-7001',
      shipDate: '2026-11-18T15:00:00.000Z',
      deliveryDate: '2026-11-18T17:00:00.000Z',
      invoiceDate: '2026-11-18T17:00:00.000Z',
      totalWeight: 1200,
      totalPieces: 2,
      lineItems: [{ description: 'Machine parts', freightClass: expect.any(String), weight: 1200, quantity: 2, packageType: 'PLT' }],
      shipper: { name: 'Acme Chicago DC', zipCode: '60608' },
    });
    expect(invoice.charges.reduce((sum, charge) => sum + charge.amountInCents, 0)).toBe(invoice.totalChargesInCents);
    // No null in the published shape (its types have none).
    expect(JSON.stringify(invoice)).not.toContain('null');
    // shipper's own invoice stays, on its extension path.
    expect(await (await get(`/v1/shipper/shipment/${shipment.id}/invoice/detail`)).json()).toMatchObject({ invoiceNumber: expect.stringMatching(/^INV-/) });

    const { url } = (await (await get(`/v1/shipper/shipment/${shipment.orderNumber}/document/INVOICE`)).json()) as { url: string };
    const pdf = await fetch(url);
    expect(pdf.status).toBe(200);
    expect(await pdfText(await pdf.arrayBuffer())).toContain(String(invoice.invoiceNumber));
  });

  it('another server on the same store honours the links of the first until they expire (403 link_expired), and needs no key for them', async () => {
    const shipment = await book();
    const { downloadLink } = (await (await get(`/v1/shipper/shipment/${shipment.orderNumber}/document/BOL`)).json()) as { downloadLink: string };
    const link = new URL(downloadLink);
    // Sixteen minutes later on the second server's clock, which requires an API key.
    const later = await startServe({
      store,
      globalArgs: ['--api-key', 'k-documents'],
      serveArgs: ['--public-url', 'http://freight.example.test/'],
      env: { SHIPPER_NOW: new Date(Date.parse(NOW) + 16 * 60_000).toISOString(), SHIPPER_CONFIG_DIR: join(dir, 'config') },
    });
    try {
      const expired = await fetch(`${later.url}${link.pathname}${link.search}`);
      expect(expired.status).toBe(403);
      expect(await expired.json()).toMatchObject({ reason: 'link_expired' });
      expect((await fetch(`${later.url}/v1/shipper/shipment/${shipment.orderNumber}/document/BOL`)).status).toBe(401);
      const fresh = (await (await fetch(`${later.url}/v1/shipper/shipment/${shipment.orderNumber}/document/BOL`, { headers: { authorization: 'Bearer k-documents' } })).json()) as {
        downloadLink: string;
      };
      // --public-url names where the links point.
      expect(fresh.downloadLink.startsWith('http://freight.example.test/v1/shipper/shipment/')).toBe(true);
      const path = new URL(fresh.downloadLink);
      const pdf = await fetch(`${later.url}${path.pathname}${path.search}`);
      expect(pdf.status).toBe(200);
      expect(await pdfText(await pdf.arrayBuffer())).toContain(shipment.bolNumber);
    } finally {
      await later.stop();
    }
  });
});

describe('appointments', () => {
  it('answers a stop’s requirement as kept, replaces it with PUT, and names where each field came from', async () => {
    const shipment = await book({ appointments: { delivery: { channel: 'PHONE', contacts: [{ name: 'Maria Lopez', phone: '+15555550101' }] } } });
    const path = `/v1/shipper/shipment/${shipment.orderNumber}/appointment`;
    expect(await (await get(`${path}/DELIVERY`)).json()).toEqual({
      channel: 'PHONE',
      contacts: [{ name: 'Maria Lopez', phone: '+15555550101' }],
      appointmentRequired: true,
      _merged: { fields: { channel: 'ORDER', portalUrl: 'NONE', contacts: 'ORDER', instructions: 'NONE', referenceNumbers: 'NONE', leadTimeHours: 'NONE' } },
    });
    expect(await (await get(`${path}/PICKUP`)).json()).toMatchObject({ appointmentRequired: false, _merged: { fields: { channel: 'NONE' } } });

    const put = (stop: string, body: unknown) =>
      fetch(`${serve.url}${path}/${stop}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const portal = { channel: 'PORTAL', portalUrl: 'https://retaillink.example.com/scheduling', instructions: 'Gate B', referenceNumbers: ['81CRR'], leadTimeHours: 24 };
    const replaced = await put('DELIVERY', portal);
    expect(replaced.status).toBe(200);
    expect(await replaced.json()).toEqual({
      ...portal,
      appointmentRequired: true,
      _merged: { fields: { channel: 'ORDER', portalUrl: 'ORDER', contacts: 'NONE', instructions: 'ORDER', referenceNumbers: 'ORDER', leadTimeHours: 'ORDER' } },
    });
    expect(await (await get(`${path}/DELIVERY`)).json()).toMatchObject(portal);

    const invalid = await put('DELIVERY', { channel: 'PORTAL', leadTimeHours: 500 });
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as { violations: Array<{ field: string }> }).violations.map((violation) => violation.field).sort()).toEqual(['leadTimeHours', 'portalUrl']);
    expect((await get(`${path}/LUNCH`)).status).toBe(400);
    expect((await get(`/v1/shipper/shipment/SO-999999/appointment/PICKUP`)).status).toBe(404);

    // Published: locked once a carrier accepted the order (here: picked up).
    await events(shipment.orderNumber, [{ occurredAt: '2026-11-18T09:00:00-06:00', statusCode: 'AF' }]);
    const locked = await put('PICKUP', { channel: 'PHONE' });
    expect(locked.status).toBe(409);
    expect(await locked.json()).toMatchObject({ reason: 'order_accepted_appointment_locked' });
    expect((await upload(shipment.orderNumber, 'PICKUP', 'PACKING_SLIP', await smallPdf(), 'application/pdf')).status).toBe(409);
  });

  it('answers the appointment PDF 404, as published for now', async () => {
    const shipment = await book();
    const response = await get(`/v1/shipper/shipment/${shipment.orderNumber}/appointment/PICKUP/pdf`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it('stores an uploaded PDF and a PNG (as a one-page PDF), refuses what its bytes are not, and deletes with 204', async () => {
    const shipment = await book();
    const documentsDir = join(store, 'appointment-documents');
    const stored = async () => (await readdir(documentsDir).catch(() => [] as string[])).filter((name) => name.startsWith(shipment.id)).sort();

    const pdf = await smallPdf();
    const first = await upload(shipment.orderNumber, 'PICKUP', 'PACKING_SLIP', pdf, 'application/pdf', 'packing-slip.pdf');
    expect(first.status, await first.clone().text()).toBe(200);
    expect(await first.json()).toMatchObject({
      id: expect.stringMatching(/^doc_/),
      stop: 'PICKUP',
      type: 'PACKING_SLIP',
      filename: 'packing-slip.pdf',
      sizeBytes: pdf.byteLength,
      contentType: 'application/pdf',
      uploadedAt: expect.any(String),
    });

    const image = await upload(shipment.orderNumber, 'DELIVERY', 'CUSTOMER_BOL', PNG, 'image/png', 'scan.PNG');
    expect(image.status, await image.clone().text()).toBe(200);
    const imageDocument = (await image.json()) as { filename: string; sizeBytes: number };
    expect(imageDocument.filename).toBe('scan.pdf');
    expect(imageDocument.sizeBytes).toBeGreaterThan(PNG.byteLength);
    expect(await stored()).toHaveLength(4);

    // A PNG that says it is a PDF, and a text file: 415, by their bytes.
    const lying = await upload(shipment.orderNumber, 'PICKUP', 'CUSTOMER_BOL', PNG, 'application/pdf', 'fake.pdf');
    expect(lying.status).toBe(415);
    expect(((await lying.json()) as { detail: string }).detail).toContain('PNG');
    const text = await upload(shipment.orderNumber, 'PICKUP', 'CUSTOMER_BOL', new TextEncoder().encode('hello'), 'application/pdf');
    expect(text.status).toBe(415);
    // The system's own type, and a JSON body instead of a form.
    const system = await upload(shipment.orderNumber, 'PICKUP', 'APPOINTMENT_DOCUMENT', pdf, 'application/pdf');
    expect(system.status).toBe(400);
    expect(await system.json()).toMatchObject({ reason: 'appointment_document_not_user_uploadable' });
    const json = await fetch(`${serve.url}/v1/shipper/shipment/${shipment.orderNumber}/appointment/PICKUP/document/CUSTOMER_BOL`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(json.status).toBe(415);
    const noFile = new FormData();
    noFile.append('note', 'no file');
    const missing = await fetch(`${serve.url}/v1/shipper/shipment/${shipment.orderNumber}/appointment/PICKUP/document/CUSTOMER_BOL`, { method: 'POST', body: noFile });
    expect(missing.status).toBe(400);

    // Over 10 MB: 413 while streaming, nothing stored.
    const huge = new Uint8Array(10 * 1024 * 1024 + 1);
    huge.set(pdf.subarray(0, 8));
    const uploadPath = `/v1/shipper/shipment/${shipment.orderNumber}/appointment/PICKUP/document/CUSTOMER_BOL`;
    expect(await rawUpload(uploadPath, huge, false)).toBe(413);
    expect(await rawUpload(uploadPath, huge, true)).toBe(413);
    expect(await stored()).toHaveLength(4);
    // Exactly 10 MB is allowed.
    const limit = huge.subarray(0, 10 * 1024 * 1024);
    expect(await rawUpload(uploadPath, limit, true)).toBe(200);
    expect(await stored()).toHaveLength(6);

    const remove = () => fetch(`${serve.url}/v1/shipper/shipment/${shipment.orderNumber}/appointment/PICKUP/document/PACKING_SLIP`, { method: 'DELETE' });
    const removed = await remove();
    expect(removed.status).toBe(204);
    expect(await removed.text()).toBe('');
    expect(await stored()).toHaveLength(4);
    expect((await remove()).status).toBe(204);
  });
});
