/**
 * Remote mode's `bol`, `labels` and `invoice -o` (issue 40, item 5): the published
 * GET .../document/{documentType}, then the download link it answers, into the file named; the
 * link is on another origin here (serve --public-url names a recording proxy), which gets no
 * credential of the client.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPdf } from '../bol/pdf-reader.js';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inProcess.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';

const KEY = 'remote-documents-key-0123456789';
const NOW = '2026-11-18T18:00:00.000Z';
let dir: { dir: string; cleanup: () => Promise<void> };
let serve: ServeProcess;
let proxy: Server;
let target = '';
const seen: Array<{ path: string; headers: IncomingHttpHeaders }> = [];

const cli = (args: string[]) =>
  runInProcess(['--base-url', serve.url, '--api-key', KEY, ...args], { env: { SHIPPER_CONFIG_DIR: join(dir.dir, 'config'), SHIPPER_RETRIES: '0' }, cwd: dir.dir });

const text = async (file: string) => (await readPdf(new Uint8Array(await readFile(file)))).pages.map((page) => page.text).join('\n');

async function book(): Promise<{ id: string; orderNumber: string; bolNumber: string }> {
  const stop = (name: string, zipCode: string, city: string, state: string, phoneNumber: string) => ({
    name,
    address1: '1 Main St',
    city,
    state,
    zipCode,
    phoneNumber,
    contactPerson: 'Dana Ruiz',
  });
  const response = await fetch(`${serve.url}/v1/shipper/shipment`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
    body: JSON.stringify({
      pickupAddress: stop('Acme', '60608', 'Chicago', 'IL', '+13125550100'),
      deliveryAddress: stop('Beta', '30336', 'Atlanta', 'GA', '+14045550199'),
      orderComponents: [{ palletCount: 2, poundsWeight: 1200, dimensions: { length: 48, width: 40, height: 48 } }],
      description: 'Parts',
    }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as { id: string; orderNumber: string; bolNumber: string };
}

beforeAll(async () => {
  dir = await tempDir('shipper-remote-documents-');
  // The links' origin: a proxy to serve that notes what each download request carried.
  proxy = createServer((req, res) => {
    seen.push({ path: req.url ?? '', headers: req.headers });
    void fetch(`${target}${req.url ?? '/'}`).then(async (answer) => {
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/octet-stream' });
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const links = `http://localhost:${(proxy.address() as AddressInfo).port}`;
  serve = await startServe({ store: join(dir.dir, 'store'), globalArgs: ['--api-key', KEY], serveArgs: ['--public-url', links], env: { SHIPPER_NOW: NOW } });
  target = serve.url;
});

afterAll(async () => {
  await serve?.stop();
  proxy?.closeAllConnections();
  await new Promise((resolve) => proxy?.close(resolve));
  await dir?.cleanup();
});

describe('documents in remote mode', () => {
  it('bol and labels fetch the PDFs through their download links, sending the links no credential', async () => {
    const shipment = await book();
    const bol = await cli(['bol', shipment.orderNumber, '-o', 'bol.pdf']);
    expect(bol.code, bol.stderr).toBe(0);
    expect(await text(join(dir.dir, 'bol.pdf'))).toContain(shipment.bolNumber);
    const labels = await cli(['labels', shipment.orderNumber, '-o', 'labels.pdf']);
    expect(labels.code, labels.stderr).toBe(0);
    expect((await readPdf(new Uint8Array(await readFile(join(dir.dir, 'labels.pdf'))))).pages).toHaveLength(2);

    expect(seen.map((request) => request.path.split('?')[0])).toEqual([
      `/v1/shipper/shipment/${shipment.id}/document/BILL_OF_LADING/download`,
      `/v1/shipper/shipment/${shipment.id}/document/SHIPPING_LABEL/download`,
    ]);
    for (const request of seen) {
      expect(request.headers.authorization).toBeUndefined();
      expect(request.headers['x-oway-api-key']).toBeUndefined();
    }
    // Written whole under the name given, no temporary file left.
    expect((await readdir(dir.dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('invoice -o writes the PDF through its link, before and after the delivery; a cancelled order has none (exit 4)', async () => {
    const shipment = await book();
    const early = await cli(['invoice', shipment.orderNumber, '-o', 'early.pdf']);
    expect(early.code, early.stderr).toBe(0);
    expect(await text(join(dir.dir, 'early.pdf'))).toContain(shipment.orderNumber.replace('SO-', 'INV-'));
    expect(seen.at(-1)!.path).toMatch(/\/document\/INVOICE\/download\?/);
    const events = await fetch(`${serve.url}/v1/shipper/shipment/${shipment.orderNumber}/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      body: JSON.stringify({ events: [{ occurredAt: '2026-11-18T11:00:00-06:00', statusCode: 'D1' }] }),
    });
    expect(events.status, await events.clone().text()).toBe(200);
    const invoice = await cli(['invoice', shipment.orderNumber, '-o', 'invoice.pdf']);
    expect(invoice.code, invoice.stderr).toBe(0);
    expect(await text(join(dir.dir, 'invoice.pdf'))).toContain(shipment.orderNumber.replace('SO-', 'INV-'));
    const cancelled = await book();
    await fetch(`${serve.url}/v1/shipper/shipment/${cancelled.orderNumber}/cancel`, { method: 'PUT', headers: { authorization: `Bearer ${KEY}` } });
    const none = await cli(['invoice', cancelled.orderNumber, '-o', 'none.pdf']);
    expect(none.code).toBe(4);
    expect(none.stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});
