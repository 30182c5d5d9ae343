/**
 * Rate shopping and carrier quotes over HTTP against the built `shipper serve --tariffs DIR`:
 * POST /v1/shipper/rates, a quote request naming carrierScac, booking it, the OpenAPI document,
 * and remote mode (`shipper --base-url URL quote --carrier all`).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalApi } from '../../src/api/local.js';
import { RemoteApi } from '../../src/api/remote.js';
import { accessorialListSchema } from '../../src/domain/accessorials.js';
import { ratesSchema } from '../../src/domain/rates.js';
import { quoteSchema, shipmentSchema } from '../../src/domain/schemas.js';
import { runInProcess } from '../helpers/inProcess.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';
import { FUEL_TABLE, WORKED_AGREEMENT, WORKED_BASE_RATES, writeAgreement } from './fixtures.js';

let dir: string;
let server: ServeProcess;
const NOW = '2026-11-30T15:00:00Z';
const freight = (poundsWeight: number, height: number, palletCount = 1) => ({ palletCount, poundsWeight, dimensions: { length: 48, width: 40, height } });
const request = (extra: Record<string, unknown> = {}) => ({
  pickupAddress: { zipCode: '60601' },
  deliveryAddress: { zipCode: '10001' },
  requiredPickupDate: '2026-12-02',
  orderComponents: [freight(4200, 72, 4)],
  accessorials: ['NOTIFY'],
  ...extra,
});
const post = (path: string, body: unknown) => fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'shipper-rates-http-'));
  const agreements = join(dir, 'agreements');
  writeAgreement(agreements, 'tstc', { 'agreement.json': WORKED_AGREEMENT, 'base-rates.csv': WORKED_BASE_RATES, 'fuel.json': FUEL_TABLE });
  // A second carrier: dearer (60 % off), no FAK, no NOTIFY charge, a carrier transit row.
  writeAgreement(agreements, 'twoc', {
    'agreement.json': {
      ...WORKED_AGREEMENT,
      scac: 'TWOC',
      carrierName: 'Second Carrier',
      agreement: 'TWO-1',
      discount: { percent: '60' },
      fak: [],
      accessorials: { LIFTGATE_DELIVERY: { amountInCents: 9500 } },
    },
    'base-rates.csv': WORKED_BASE_RATES.replace(',125,', ',85,'),
    'transit.csv': 'origin_zip3,dest_zip3,days,service\n600-699,100-199,2,I\n',
  });
  const store = join(dir, 'store');
  await writeFile(join(dir, 'diesel.csv'), 'week,usdPerGallon\n2026-11-30,3.712\n');
  const imported = await runInProcess(['--store', store, 'fuel', 'import', join(dir, 'diesel.csv')]);
  expect(imported.code, imported.stderr).toBe(0);
  server = await startServe({ store, globalArgs: ['--tariffs', agreements], env: { SHIPPER_NOW: NOW } });
});
afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('POST /v1/shipper/rates', () => {
  it('answers every carrier that prices the shipment, cheapest first, each an ordinary stored quote', async () => {
    const response = await post('/v1/shipper/rates', request({ accessorials: [] }));
    expect(response.status).toBe(200);
    const rates = ratesSchema.parse(await response.json());
    expect(rates.items.map((quote) => quote.carrier)).toEqual([
      { scac: 'TSTC', name: 'Test Carrier Lines' },
      { scac: 'TWOC', name: 'Second Carrier' },
    ]);
    const [cheapest, second] = rates.items;
    expect(cheapest!.quotedPriceInCents).toBe(98278 - 5600);
    expect(rates.cheapestQuoteId).toBe(cheapest!.id);
    // TWOC has a carrier row of 2 days; TSTC none, estimated from distance: the fastest is the fewer days.
    expect(second!.pricedBy).toMatchObject({ kind: 'AGREEMENT', service: 'INTERLINE', transitEstimated: false });
    expect(cheapest!.pricedBy).toMatchObject({ service: null, transitEstimated: true });
    const fastest = [...rates.items].sort((a, b) => a.transitDays! - b.transitDays! || a.quotedPriceInCents - b.quotedPriceInCents)[0]!;
    expect(rates.fastestQuoteId).toBe(fastest.id);
    const stored = await fetch(`${server.url}/v1/shipper/quote/${second!.id}`);
    expect(quoteSchema.parse(await stored.json())).toMatchObject({ id: second!.id, quotedPriceInCents: second!.quotedPriceInCents, carrier: { scac: 'TWOC' } });
  });

  it('a carrier without the requested accessorial, or not loaded, is a line of uncovered', async () => {
    const response = await post('/v1/shipper/rates', request({ carrierScacs: ['twoc', 'NONE', 'TSTC'] }));
    const rates = ratesSchema.parse(await response.json());
    expect(rates.items.map((quote) => quote.carrier!.scac)).toEqual(['TSTC']);
    expect(rates.items[0]!.quotedPriceInCents).toBe(98278);
    expect(rates.uncovered).toEqual([
      { carrier: { scac: 'NONE', name: 'NONE' }, agreement: null, reason: 'no agreement with this carrier is loaded' },
      { carrier: { scac: 'TWOC', name: 'Second Carrier' }, agreement: 'TWO-1', reason: 'the agreement has no charge for NOTIFY' },
    ]);
  });

  it('a bad request is a constraint violation with did-you-mean', async () => {
    const response = await post('/v1/shipper/rates', { ...request(), carrierScacss: ['TSTC'] });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ violations: [{ field: 'carrierScacss', reason: 'unknown field carrierScacss (did you mean carrierScacs?)' }] });
  });
});

describe('a quote request naming carrierScac', () => {
  it('is priced by that agreement and books on that carrier', async () => {
    const response = await post('/v1/shipper/lane-quote', request({ carrierScac: 'TSTC' }));
    expect(response.status).toBe(200);
    const quote = quoteSchema.parse(await response.json());
    expect(quote).toMatchObject({ quotedPriceInCents: 98278, carrier: { scac: 'TSTC' }, pricedBy: { agreement: 'TST-2026-001', ratedAsPounds: 5000 } });
    const address = (name: string, zipCode: string, city: string, state: string) => ({
      name,
      address1: '1 Main St',
      city,
      state,
      zipCode,
      contactPerson: 'Dana Ruiz',
      phoneNumber: '+13125550100',
    });
    const booked = await post('/v1/shipper/shipment', {
      quoteId: quote.id,
      pickupAddress: address('Acme', '60601', 'Chicago', 'IL'),
      deliveryAddress: address('Store', '10001', 'New York', 'NY'),
      orderComponents: [freight(4200, 72, 4)],
    });
    expect(booked.status).toBe(200);
    const shipment = shipmentSchema.parse(await booked.json());
    expect(shipment).toMatchObject({ carrier: { scac: 'TSTC', name: 'Test Carrier Lines' }, totalPriceInCents: 98278 });
    // The carrier's documents name it: the pallet labels (ZPL) carry its name and SCAC.
    const labels = await fetch(`${server.url}/v1/shipper/shipment/${shipment.id}/labels?format=zpl`);
    expect(labels.status).toBe(200);
    expect(await labels.text()).toMatch(/Test Carrier Lines|TSTC/);
  });

  it('an unknown carrier or an uncovered lane is a violation on carrierScac', async () => {
    const unknown = await post('/v1/shipper/lane-quote', request({ carrierScac: 'ZZZ' }));
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ violations: [{ field: 'carrierScac', reason: 'no agreement with ZZZ; loaded: TSTC, TWOC' }] });
    const lane = await post('/v1/shipper/lane-quote', request({ carrierScac: 'TSTC', deliveryAddress: { zipCode: '90210' } }));
    expect(await lane.json()).toMatchObject({ violations: [{ field: 'carrierScac', reason: 'TSTC (Test Carrier Lines) gives no price: no base rates for lane 606 -> 902' }] });
  });
});

describe('GET /v1/shipper/accessorials with carrier agreements', () => {
  it("lists the tariff's codes, then those only carriers price, each with the carriers' charges; and the carriers", async () => {
    const response = await fetch(`${server.url}/v1/shipper/accessorials`);
    expect(response.status).toBe(200);
    const list = accessorialListSchema.parse(await response.json());
    expect(list.carriers).toEqual([
      { scac: 'TSTC', name: 'Test Carrier Lines', agreement: 'TST-2026-001' },
      { scac: 'TWOC', name: 'Second Carrier', agreement: 'TWO-1' },
    ]);
    expect(list.items.find((item) => item.code === 'LIFTGATE_DELIVERY')).toEqual({
      code: 'LIFTGATE_DELIVERY',
      description: 'Liftgate at delivery',
      amountInCents: 7500,
      carriers: [
        { scac: 'TSTC', amountInCents: 9500, byLength: null },
        { scac: 'TWOC', amountInCents: 9500, byLength: null },
      ],
    });
    // NOTIFY: no tariff charge (a quote needs carrierScac), described by the agreement.
    expect(list.items.at(-1)).toEqual({
      code: 'NOTIFY',
      description: 'Notify before delivery',
      amountInCents: null,
      carriers: [{ scac: 'TSTC', amountInCents: 5600, byLength: null }],
    });
    expect(list.items.find((item) => item.code === 'APPOINTMENT')?.carriers).toEqual([]);
  });

  it('RemoteApi answers what the engine answers in this process with the same agreements', async () => {
    const remote = new RemoteApi({ baseUrl: server.url, retries: 0 });
    const local = new LocalApi({ storeDir: join(dir, 'local-store'), agreementsDir: join(dir, 'agreements') });
    try {
      expect((await remote.listAccessorials()).data).toEqual((await local.listAccessorials()).data);
    } finally {
      await remote.close();
    }
  });
});

describe('the OpenAPI document and remote mode', () => {
  it('describes POST /v1/shipper/rates', async () => {
    const document = (await (await fetch(`${server.url}/api-docs/shipper-v1`)).json()) as { paths: Record<string, Record<string, { operationId?: string }>> };
    expect(document.paths['/v1/shipper/rates']?.post?.operationId).toBe('shopRates');
  });

  it('shipper --base-url URL quote --carrier all prints the same table from the server', async () => {
    const result = await runInProcess(
      [
        '--base-url',
        server.url,
        '--json',
        'quote',
        '--from',
        '60601',
        '--to',
        '10001',
        '--pickup-date',
        '2026-12-02',
        '-c',
        'pallets=4,weight=4200,dims=48x40x72',
        '--carrier',
        'all',
      ],
      {
        env: { SHIPPER_NOW: NOW },
      },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(
      quoteSchema
        .array()
        .parse(JSON.parse(result.stdout))
        .map((quote) => quote.carrier!.scac),
    ).toEqual(['TSTC', 'TWOC']);
  });
});
