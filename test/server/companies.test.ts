/**
 * Issue 41 item 2 against a real `shipper serve`, on the file store and on PostgreSQL: a second
 * company's key sees none of the first's records. Company B's key tries every operation on company
 * A's quote and shipment and is refused (403, as the published document answers), A's records are
 * unchanged afterwards (GET quote answers 404, as published), B's lists are empty, B's Idempotency-Keys are its own, and the writes carry
 * the key that made them (createdBy, updatedBy), which the operator reads with the local CLI.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inProcess.js';
import { testDatabase } from '../helpers/postgres.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';
import { FUEL_TABLE, WORKED_AGREEMENT, WORKED_BASE_RATES, writeAgreement } from '../agreements/fixtures.js';
import { call, cli as cliAt, company as companyAt, type Company } from '../helpers/companies.js';
import { publishedStops } from '../helpers/fixtures.js';

const T0 = '2026-11-23T15:00:00Z';

const PICKUP = { name: 'Acme Chicago DC', address1: '2100 S Halsted St', city: 'Chicago', state: 'IL', zipCode: '60608', contactPerson: 'Dana Reyes', phoneNumber: '+13125550100' };
const DELIVERY = { name: 'Store 12', address1: '1 Penn Plaza', city: 'New York', state: 'NY', zipCode: '10001', contactPerson: 'Lee Park', phoneNumber: '+12125550100' };
const QUOTE = {
  pickupAddress: PICKUP,
  deliveryAddress: DELIVERY,
  requiredPickupDate: '2026-11-24',
  orderComponents: [{ palletCount: 2, poundsWeight: 1200, dimensions: { length: 48, width: 40, height: 48 } }],
};
const shipmentBody = (quoteId?: string) => ({ ...QUOTE, ...(quoteId ? { quoteId } : {}), description: 'Machine parts', refNumber: 'PO-7001' });

const cleanups: Array<() => Promise<void>> = [];
const servers: ServeProcess[] = [];

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  for (const cleanup of cleanups) await cleanup();
});

const cli = (store: string, args: string[]) => cliAt(store, args, T0);
const company = (store: string, server: ServeProcess, name: string) => companyAt(store, server, name, T0);

const STORES: Array<{ name: string; open: () => Promise<string> }> = [
  {
    name: 'file store',
    open: async () => {
      const { dir, cleanup } = await tempDir('shipper-companies-');
      cleanups.push(cleanup);
      return dir;
    },
  },
  {
    name: 'PostgreSQL',
    open: async () => {
      const url = await testDatabase();
      const migrated = await runInProcess(['--store', url, 'db', 'migrate']);
      expect(migrated.code, migrated.stderr).toBe(0);
      return url;
    },
  },
];

describe.each(STORES)('companies on serve: $name', ({ name, open }) => {
  let store: string;
  let server: ServeProcess;
  let a: Company;
  let b: Company;
  let quoteId: string;
  let shipment: Record<string, unknown>;
  let events: unknown;

  beforeAll(async () => {
    store = await open();
    const { dir, cleanup } = await tempDir('shipper-companies-config-');
    cleanups.push(cleanup);
    server = await startServe({ store, env: { SHIPPER_CONFIG_DIR: dir, SHIPPER_NOW: T0 } });
    servers.push(server);
    a = await company(store, server, 'acme');
    b = await company(store, server, 'globex');

    const quote = await call(server, a, 'POST', '/v1/shipper/quote', QUOTE);
    expect(quote.status, quote.text).toBe(200);
    quoteId = quote.json().id as string;
    expect(quote.json()).toMatchObject({ companyId: 'acme', createdBy: a.keyId });
    // A second quote of A's, booked below, and a shipment to cancel, confirm and track.
    const booked = await call(server, a, 'POST', '/v1/shipper/shipment', shipmentBody(quoteId), { 'idempotency-key': 'order-1' });
    expect(booked.status, booked.text).toBe(200);
    shipment = booked.json();
    expect(shipment).toMatchObject({ companyId: 'acme', createdBy: a.keyId });
    const tracked = await call(server, a, 'POST', `/v1/shipper/shipment/${String(shipment.id)}/events`, {
      events: [{ occurredAt: '2026-11-23T08:40:00-06:00', statusCode: 'X3' }],
    });
    expect(tracked.status, tracked.text).toBe(200);
    const read = await call(server, a, 'GET', `/v1/shipper/shipment/${String(shipment.id)}`);
    shipment = read.json();
    events = (await call(server, a, 'GET', `/v1/shipper/shipment/${String(shipment.id)}/events`)).json();
  });

  it("refuses every operation of another company's key on A's records with 403, and changes nothing", async () => {
    const id = String(shipment.id);
    const orderNumber = String(shipment.orderNumber);
    // Another company's quote is not found, as the published GET quote answers (its 403 is the key's alone).
    const quote = await call(server, b, 'GET', `/v1/shipper/quote/${quoteId}`);
    expect(quote.status, quote.text).toBe(404);
    expect(quote.text).not.toContain('acme');
    const refused: Array<[string, string, unknown?]> = [
      ['GET', `/v1/shipper/shipment/${orderNumber}`],
      ['GET', `/v1/shipper/shipment/${id}`],
      ['PUT', `/v1/shipper/shipment/${orderNumber}/confirm`],
      ['PUT', `/v1/shipper/shipment/${orderNumber}/cancel`],
      ['PUT', `/v1/shipper/shipment/${id}/cancel`],
      ['GET', `/v1/shipper/shipment/${orderNumber}/tracking`],
      ['GET', `/v1/shipper/shipment/${id}/events`],
      ['POST', `/v1/shipper/shipment/${id}/events`, { events: [{ occurredAt: '2026-11-23T08:50:00-06:00', statusCode: 'D1' }] }],
      ['PATCH', `/v1/shipper/shipment/${orderNumber}`, { proNumber: null }],
      ['GET', `/v1/shipper/shipment/${id}/bol`],
      ['GET', `/v1/shipper/shipment/${id}/labels`],
      ['GET', `/v1/shipper/shipment/${id}/invoice`],
      ['GET', `/v1/shipper/shipment/${orderNumber}/invoice/detail`],
      ['GET', `/v1/shipper/shipment/${orderNumber}/document/BILL_OF_LADING`],
      ['GET', `/v1/shipper/shipment/${orderNumber}/document/SHIPPING_LABEL`],
      ['POST', `/v1/shipper/shipment/${id}/tender`, { format: 'x12-204' }],
      // Booking on A's quote.
      ['POST', '/v1/shipper/shipment', shipmentBody(quoteId)],
    ];
    for (const [method, path, body] of refused) {
      const answer = await call(server, b, method, path, body);
      expect([method, path, answer.status], answer.text).toEqual([method, path, 403]);
      expect(answer.json()).toMatchObject({ status: 403, reason: 'forbidden' });
      expect(answer.text).not.toContain('acme');
    }
    // The invoice as a PDF, the published path with Accept: refused the same way.
    expect((await call(server, b, 'GET', `/v1/shipper/shipment/${id}/invoice`, undefined, { accept: 'application/pdf' })).status).toBe(403);
    // A carrier file naming A's shipment: that item is refused, as a single POST would be.
    const batch = await call(server, b, 'POST', '/v1/shipper/shipment-events', {
      items: [{ shipmentId: id, events: [{ occurredAt: '2026-11-23T08:50:00-06:00', statusCode: 'D1' }] }],
    });
    expect(batch.status, batch.text).toBe(200);
    expect(batch.json().items).toMatchObject([{ ok: false, problem: { status: 403 } }]);

    // The appointment operations answer another company's order as one that does not exist (404), as published.
    const appointment = `/v1/shipper/shipment/${orderNumber}/appointment/PICKUP`;
    for (const [method, path, body] of [
      ['GET', appointment],
      ['PUT', appointment, { channel: 'PHONE', contacts: [{ name: 'Maria Lopez' }] }],
      ['DELETE', `${appointment}/document/PACKING_SLIP`],
      ['GET', `${appointment}/pdf`],
    ] as Array<[string, string, unknown?]>) {
      const answer = await call(server, b, method, path, body);
      expect([method, path, answer.status], answer.text).toEqual([method, path, 404]);
      expect(answer.text).not.toContain('acme');
    }
    const form = new FormData();
    form.append('file', new Blob([Buffer.from('%PDF-1.4\n%%EOF\n')], { type: 'application/pdf' }), 'slip.pdf');
    const upload = await fetch(`${server.url}${appointment}/document/PACKING_SLIP`, { method: 'POST', headers: b.headers, body: form });
    expect(upload.status, await upload.clone().text()).toBe(404);
    // A's records as they were.
    expect((await call(server, a, 'GET', `/v1/shipper/shipment/${id}`)).json()).toEqual(shipment);
    expect((await call(server, a, 'GET', `/v1/shipper/shipment/${id}/events`)).json()).toEqual(events);
    expect((await call(server, a, 'GET', `/v1/shipper/quote/${quoteId}`)).json()).toMatchObject({ id: quoteId, status: 'BOOKED', bookings: [{ shipmentId: id }] });
  });

  it("shows B none of A's records in lists and searches", async () => {
    for (const path of [
      '/v1/shipper/shipment',
      `/v1/shipper/shipment?orderNumber=${String(shipment.orderNumber)}`,
      `/v1/shipper/shipment?bolNumber=${String(shipment.bolNumber)}`,
      '/v1/shipper/shipment?refNumber=PO-7001',
      '/v1/shipper/quote',
      '/v1/shipper/quote?refNumber=PO-7001',
    ]) {
      const answer = await call(server, b, 'GET', path);
      expect([path, answer.status], answer.text).toEqual([path, 200]);
      expect([path, answer.json().items]).toEqual([path, []]);
    }
    const own = await call(server, a, 'GET', '/v1/shipper/shipment');
    expect((own.json().items as Array<{ id: string }>).map((item) => item.id)).toEqual([shipment.id]);
  });

  it("keeps B's Idempotency-Keys its own, its numbers unique across companies, and stamps who wrote what", async () => {
    // A's key sent by B with another body is B's first use of it: a new order, not A's answer nor a 409.
    const other = await call(server, b, 'POST', '/v1/shipper/shipment', { ...shipmentBody(), refNumber: 'GX-1' }, { 'idempotency-key': 'order-1' });
    expect(other.status, other.text).toBe(200);
    const mine = other.json();
    expect(mine).toMatchObject({ companyId: 'globex', createdBy: b.keyId, refNumber: 'GX-1' });
    expect(mine.id).not.toBe(shipment.id);
    expect(mine.orderNumber).not.toBe(shipment.orderNumber);
    expect(mine.bolNumber).not.toBe(shipment.bolNumber);
    expect(((await call(server, b, 'GET', '/v1/shipper/shipment')).json().items as Array<{ id: string }>).map((item) => item.id)).toEqual([mine.id]);
    // A cannot read it either.
    expect((await call(server, a, 'GET', `/v1/shipper/shipment/${String(mine.orderNumber)}`)).status).toBe(403);

    // B's change is B's: updatedBy names its key.
    const cancelled = await call(server, b, 'PUT', `/v1/shipper/shipment/${String(mine.orderNumber)}/cancel`);
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.json()).toMatchObject({ orderStatus: 'CANCELLED', createdBy: b.keyId, updatedBy: b.keyId });

    // The operator (the local CLI on the store) reads every company's records and who wrote them.
    const listed = await cli(store, ['--json', 'shipment', 'list']);
    expect(listed.code, listed.stderr).toBe(0);
    const rows = (JSON.parse(listed.stdout) as { items: Array<Record<string, unknown>> }).items;
    expect(rows.map((row) => [row.orderNumber, row.companyId, row.createdBy, row.updatedBy ?? null]).sort()).toEqual(
      [
        [shipment.orderNumber, 'acme', a.keyId, a.keyId],
        [mine.orderNumber, 'globex', b.keyId, b.keyId],
      ].sort(),
    );
  });

  it("signs a download link for one order: B's own link pointed at A's order is refused", async () => {
    const [own] = (await call(server, b, 'GET', '/v1/shipper/shipment')).json().items as Array<{ id: string; orderNumber: string }>;
    const link = (await call(server, b, 'GET', `/v1/shipper/shipment/${own!.orderNumber}/document/BILL_OF_LADING`)).json().downloadLink as string;
    expect(link).toContain(own!.id);
    expect((await fetch(link)).status).toBe(200);
    const forged = await fetch(link.replace(own!.id, String(shipment.id)));
    expect(forged.status).toBe(403);
    expect(await forged.text()).not.toContain('acme');
  });

  if (name === 'PostgreSQL') {
    it('keeps the company in an indexed column of shipments and quotes', async () => {
      const sql = postgres(store, { max: 1, onnotice: () => undefined });
      try {
        const shipments = await sql<Array<{ company_id: string }>>`select company_id from shipments order by id`;
        expect(shipments.map((row) => row.company_id)).toEqual(['acme', 'globex']);
        const quotes = await sql<Array<{ company_id: string }>>`select company_id from quotes`;
        expect(quotes.map((row) => row.company_id)).toEqual(['acme']);
        const indexes = await sql<Array<{ indexname: string }>>`select indexname from pg_indexes where indexname in ('shipments_company', 'quotes_company') order by indexname`;
        expect(indexes.map((row) => row.indexname)).toEqual(['quotes_company', 'shipments_company']);
      } finally {
        await sql.end();
      }
    });
  }
});

describe("carrier agreements of a company (the file store; agreements are the server's files)", () => {
  let server: ServeProcess;
  let store: string;
  let acme: Company;
  let globex: Company;
  const NOW = '2026-11-30T15:00:00Z';
  const rates = {
    pickupAddress: { zipCode: '60601' },
    deliveryAddress: { zipCode: '10001' },
    requiredPickupDate: '2026-12-02',
    orderComponents: [{ palletCount: 4, poundsWeight: 4200, dimensions: { length: 48, width: 40, height: 72 } }],
  };

  beforeAll(async () => {
    const { dir, cleanup } = await tempDir('shipper-company-agreements-');
    cleanups.push(cleanup);
    const agreements = join(dir, 'agreements');
    // TSTC for every company; TWOC acme's alone; a second TSTC agreement would clash, a second TWOC for globex alone would not.
    writeAgreement(agreements, 'tstc', { 'agreement.json': WORKED_AGREEMENT, 'base-rates.csv': WORKED_BASE_RATES, 'fuel.json': FUEL_TABLE });
    writeAgreement(agreements, 'twoc', {
      'agreement.json': { ...WORKED_AGREEMENT, scac: 'TWOC', carrierName: 'Second Carrier', agreement: 'TWO-1', companyIds: ['acme'], discount: { percent: '60' } },
      'base-rates.csv': WORKED_BASE_RATES,
      'fuel.json': FUEL_TABLE,
    });
    store = join(dir, 'store');
    await writeFile(join(dir, 'diesel.csv'), 'week,usdPerGallon\n2026-11-30,3.712\n');
    const imported = await cliAt(store, ['fuel', 'import', join(dir, 'diesel.csv')], NOW);
    expect(imported.code, imported.stderr).toBe(0);
    server = await startServe({ store, globalArgs: ['--tariffs', agreements], env: { SHIPPER_CONFIG_DIR: join(dir, 'config'), SHIPPER_NOW: NOW } });
    servers.push(server);
    acme = await companyAt(store, server, 'acme', NOW);
    globex = await companyAt(store, server, 'globex', NOW);
  });

  it("prices each company with its own agreements and those of every company; rate shopping's quotes are the caller's", async () => {
    const shopped = async (who: Company) => {
      const answer = await call(server, who, 'POST', '/v1/shipper/rates', rates);
      expect(answer.status, answer.text).toBe(200);
      return answer.json() as { items: Array<{ id: string; companyId: string; carrier: { scac: string } }> };
    };
    const forAcme = await shopped(acme);
    expect(forAcme.items.map((item) => item.carrier.scac).sort()).toEqual(['TSTC', 'TWOC']);
    const forGlobex = await shopped(globex);
    expect(forGlobex.items.map((item) => item.carrier.scac)).toEqual(['TSTC']);
    expect(forGlobex.items.map((item) => item.companyId)).toEqual(['globex']);

    // The quote rate shopping stored is globex's: it reads it, acme does not find it.
    const quoteId = forGlobex.items[0]!.id;
    expect((await call(server, globex, 'GET', `/v1/shipper/quote/${quoteId}`)).json()).toMatchObject({ id: quoteId, companyId: 'globex', createdBy: globex.keyId });
    expect((await call(server, acme, 'GET', `/v1/shipper/quote/${quoteId}`)).status).toBe(404);

    // Asking for acme's carrier by name: globex has no agreement with it.
    const named = await call(server, globex, 'POST', '/v1/shipper/quote', { ...rates, ...publishedStops(), carrierScac: 'TWOC' });
    expect(named.status, named.text).toBeGreaterThanOrEqual(400);
    expect(named.text).toContain('TWOC');
    expect((await call(server, acme, 'POST', '/v1/shipper/quote', { ...rates, ...publishedStops(), carrierScac: 'TWOC' })).json()).toMatchObject({
      companyId: 'acme',
      carrier: { scac: 'TWOC' },
    });

    // The accessorials list names the carriers a company prices with.
    const carriersOf = async (who: Company) =>
      ((await call(server, who, 'GET', '/v1/shipper/accessorials')).json() as { carriers: Array<{ scac: string }> }).carriers.map((carrier) => carrier.scac).sort();
    expect(await carriersOf(acme)).toEqual(['TSTC', 'TWOC']);
    expect(await carriersOf(globex)).toEqual(['TSTC']);
  });
});
