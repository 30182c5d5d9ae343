/**
 * Booking integrity over HTTP (issue 11), as a client of `shipper serve` sees it: status codes,
 * problem bodies with paths and did-you-mean, X-Shipper-Warning headers, and no order number
 * spent on a refused booking. The server runs in process on a free loopback port.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENTATION_PREFIX_WARNING } from '../../src/domain/bolNumber.js';
import { LocalApi } from '../../src/api/local.js';
import { createShipperServer, type ShipperServer } from '../../src/server/server.js';
import { tempDir } from '../helpers/cli.js';
import { publishedStops } from '../helpers/fixtures.js';

// Described: the freight check has nothing to say about it (these tests are about other warnings).
const COMPONENT = { palletCount: 2, poundsWeight: 1200, dimensions: { length: 48, width: 40, height: 48 }, description: 'Machine parts' };
const QUOTE = { ...publishedStops(), orderComponents: [COMPONENT] };
const SHIPPER = { name: 'Acme Tools', address1: '233 S Wacker Dr', city: 'Chicago', state: 'IL', zipCode: '60601', contactPerson: 'Dana Ruiz', phoneNumber: '+13125550100' };
const CONSIGNEE = { name: 'Hudson Supply', address1: '350 5th Ave', city: 'New York', state: 'NY', zipCode: '10001', contactPerson: 'Sam Ortiz', phoneNumber: '+12125550123' };
const SHIPMENT = { pickupAddress: SHIPPER, deliveryAddress: CONSIGNEE, orderComponents: [COMPONENT] };

let server: ShipperServer;
let base: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const temp = await tempDir('shipper-integrity-http-');
  cleanup = temp.cleanup;
  server = createShipperServer({ api: new LocalApi({ storeDir: temp.dir, now: () => new Date('2026-11-23T15:00:00.000Z') }) });
  base = `http://127.0.0.1:${(await server.listen(0, '127.0.0.1')).port}`;
});
afterAll(async () => {
  await server.close(100);
  await cleanup();
});

async function post(path: string, body: unknown | string) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    warnings: response.headers.get('x-shipper-warning'),
    text,
    json: JSON.parse(text) as Record<string, any>,
  };
}

describe('POST with a typo', () => {
  it('is a 400 naming the path of the unknown field and the field meant, and creates nothing', async () => {
    const answer = await post('/v1/shipper/quote', { ...QUOTE, accesorials: ['LIFTGATE_DELIVERY'], orderComponents: [{ ...COMPONENT, descripton: 'Pumps' }] });
    expect(answer.status).toBe(400);
    expect(answer.type).toBe('application/problem+json; charset=utf-8');
    expect(answer.json.violations).toEqual(
      expect.arrayContaining([
        { field: 'accesorials', reason: 'unknown field accesorials (did you mean accessorials?)' },
        { field: 'orderComponents[0].descripton', reason: 'unknown field descripton (did you mean description?)' },
      ]),
    );
    const shipment = await post('/v1/shipper/shipment', { ...SHIPMENT, pickupAddress: { ...SHIPPER, zipcode: '60601' } });
    expect(shipment.status).toBe(400);
    expect(shipment.json.violations).toEqual([{ field: 'pickupAddress.zipcode', reason: 'unknown field zipcode (did you mean zipCode?)' }]);
    const list = await fetch(`${base}/v1/shipper/shipment?limit=5`).then((response) => response.json() as Promise<{ items: unknown[] }>);
    expect(list.items).toEqual([]);
  });

  it("in a batch envelope is a 400 of the envelope; in an item, that item's problem", async () => {
    const envelope = await post('/v1/shipper/shipment-batch', { items: [{ request: SHIPMENT, idempotencyKy: 'k-1' }] });
    expect(envelope.status).toBe(400);
    expect(envelope.json.violations).toEqual([{ field: 'items[0].idempotencyKy', reason: 'unknown field idempotencyKy (did you mean idempotencyKey?)' }]);
    const preview = await post('/v1/shipper/shipment-preview', { items: [{ request: SHIPMENT }, { request: { ...SHIPMENT, refnumber: 'PO-1' } }] });
    expect(preview.status).toBe(200);
    expect(preview.json.items.map((item: { ok: boolean }) => item.ok)).toEqual([true, false]);
    expect(preview.json.items[1].problem.violations).toEqual([{ field: 'refnumber', reason: 'unknown field refnumber (did you mean refNumber?)' }]);
  });
});

describe('POST with absurd numbers', () => {
  it('is a 400 stating each limit, never a 200 with a null price; no order number is spent', async () => {
    const before = await post('/v1/shipper/shipment', { ...SHIPMENT, refNumber: 'BEFORE' });
    expect(before.status).toBe(200);
    // Written as JSON numbers: 1e308 is a double, 5e-324 the smallest one; 1e400 reads as Infinity.
    const body = JSON.stringify({ ...SHIPMENT, orderComponents: [{ ...COMPONENT, dimensions: { length: 48, width: 40, height: 48 } }] })
      .replace('"poundsWeight":1200', '"poundsWeight":1e308')
      .replace('"height":48', '"height":5e-324');
    const refused = await post('/v1/shipper/shipment', body);
    expect(refused.status).toBe(400);
    expect(refused.json.violations).toEqual([
      { field: 'orderComponents[0].poundsWeight', reason: 'poundsWeight must be at most 45,000 lb (the legal payload of a 53 ft trailer)' },
      { field: 'orderComponents[0].dimensions.height', reason: 'height must be at least 1 in' },
    ]);
    const infinite = await post('/v1/shipper/quote', JSON.stringify(QUOTE).replace('"poundsWeight":1200', '"poundsWeight":1e400'));
    expect(infinite.status).toBe(400);
    expect(infinite.json.violations).toEqual([{ field: 'orderComponents[0].poundsWeight', reason: 'poundsWeight must be a finite number' }]);
    const after = await post('/v1/shipper/shipment', { ...SHIPMENT, refNumber: 'AFTER' });
    expect(Number(after.json.orderNumber.slice(3))).toBe(Number(before.json.orderNumber.slice(3)) + 1);
  });

  it('beyond standard LTL is a 200 with an X-Shipper-Warning naming volume LTL or truckload', async () => {
    const quote = await post('/v1/shipper/quote', { ...QUOTE, orderComponents: [{ palletCount: 13, poundsWeight: 9000, dimensions: { length: 48, width: 40, height: 48 } }] });
    expect(quote.status).toBe(200);
    expect(Number.isSafeInteger(quote.json.quotedPriceInCents)).toBe(true);
    expect(decodeURIComponent(quote.warnings!)).toMatch(/^BEYOND_LTL beyond standard LTL: 13 pallets \(standard LTL takes up to 12\)\. .*volume LTL or truckload/);
    const plain = await post('/v1/shipper/quote', QUOTE);
    expect(plain.warnings).toBeNull();
  });
});

describe('POST with an address that contradicts its ZIP', () => {
  it("is a 400 on the state, naming the ZIP's place; a city the ZIP does not name is a warning", async () => {
    const refused = await post('/v1/shipper/shipment', { ...SHIPMENT, deliveryAddress: { ...CONSIGNEE, city: 'Chicago', state: 'IL' } });
    expect(refused.status).toBe(400);
    expect(refused.json.violations).toEqual([{ field: 'deliveryAddress.state', reason: 'IL does not match ZIP 10001, which is in New York, NY; correct the state or the ZIP' }]);
    const warned = await post('/v1/shipper/shipment', { ...SHIPMENT, deliveryAddress: { ...CONSIGNEE, city: 'Brooklyn' } });
    expect(warned.status).toBe(200);
    // One X-Shipper-Warning per warning: the city, then the numbers' GS1 prefix (this server has none of its own).
    const warnings = decodeURIComponent(warned.warnings!);
    expect(
      warnings.startsWith(
        'ADDRESS_CITY_MISMATCH Brooklyn is not the USPS city of ZIP 10001 (New York, NY); check the address, carriers route by the ZIP (deliveryAddress.city), DOCUMENTATION_PREFIX ',
      ),
    ).toBe(true);
    expect(warnings.endsWith(DOCUMENTATION_PREFIX_WARNING)).toBe(true);
  });

  it('is an item problem in the batch and preview extensions', async () => {
    const wrong = { ...SHIPMENT, pickupAddress: { ...SHIPPER, state: 'WI' } };
    for (const path of ['/v1/shipper/shipment-preview', '/v1/shipper/shipment-batch']) {
      const answer = await post(path, { items: [{ request: wrong }] });
      expect(answer.status, path).toBe(200);
      expect(answer.json.items[0].problem.violations, path).toEqual([
        { field: 'pickupAddress.state', reason: 'WI does not match ZIP 60601, which is in Chicago, IL; correct the state or the ZIP' },
      ]);
    }
  });
});
