/**
 * Address phones as the published Address writes them, E.164 (issue 40; domain/phone.ts): a US
 * number as people write it is read and answered as `+13125550100`; what is no phone number is a
 * violation on the field's path. Through the engine, over HTTP and through the CLI.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalApi } from '../../src/api/local.js';
import { violationsOf } from '../contract/expect.js';
import { tempDir } from '../helpers/cli.js';
import { serveInProcess } from '../helpers/inProcessServer.js';
import { PUBLISHED_NYC, PUBLISHED_PICKUP, shipmentRequest, WEDNESDAY, withContact } from '../helpers/fixtures.js';
import { runInProcess } from '../helpers/inProcess.js';

let store: { dir: string; cleanup: () => Promise<void> };
let api: LocalApi;
beforeAll(async () => {
  store = await tempDir();
  api = new LocalApi({ storeDir: store.dir, now: () => new Date(WEDNESDAY) });
});
afterAll(() => store.cleanup());

describe('address phones in E.164', () => {
  it.each([
    ['312-555-0100', '+13125550100'],
    ['(312) 555-0100', '+13125550100'],
    ['1 312 555 0100', '+13125550100'],
    ['+13125550100', '+13125550100'],
    ['+15551234567', '+15551234567'],
  ])('books %j as %j', async (written, e164) => {
    const { data } = await api.createShipment(shipmentRequest({ refNumber: null, pickupAddress: { ...PUBLISHED_PICKUP, phoneNumber: written } }));
    expect(data.pickupAddress.phoneNumber).toBe(e164);
    expect((await api.getShipment(data.id)).data.pickupAddress.phoneNumber).toBe(e164);
  });

  it('keeps an absent or empty phone as null in the engine, which takes a draft order (confirm asks for the phone)', async () => {
    const { phoneNumber: _phone, ...withoutPhone } = PUBLISHED_NYC;
    const { data } = await api.createShipment(shipmentRequest({ refNumber: null, pickupAddress: { ...PUBLISHED_PICKUP, phoneNumber: '' }, deliveryAddress: withoutPhone }));
    expect(data.pickupAddress.phoneNumber).toBeNull();
    expect(data.deliveryAddress.phoneNumber).toBeNull();
    expect(data.orderStatus).toBe('INITIALIZED');
  });

  it.each(['call the front desk', '12', '3.12555E+09', '312-555-01000000'])('refuses %j on pickupAddress.phoneNumber, with the way to write it', async (garbage) => {
    const violations = await violationsOf(api.createShipment(shipmentRequest({ pickupAddress: { ...PUBLISHED_PICKUP, phoneNumber: garbage } })));
    expect(violations).toEqual([{ field: 'pickupAddress.phoneNumber', reason: expect.stringContaining('write it as +13125550100 or 312-555-0100') }]);
  });

  it('refuses an extension rather than dropping it, and says where it goes', async () => {
    const violations = await violationsOf(api.createShipment(shipmentRequest({ deliveryAddress: { ...PUBLISHED_NYC, phoneNumber: '212-555-0199 x12' } })));
    expect(violations).toEqual([{ field: 'deliveryAddress.phoneNumber', reason: expect.stringContaining('has an extension (12)') }]);
  });

  it('reads the phone of a quote stop too', async () => {
    const violations = await violationsOf(
      api.createLaneQuote({
        pickupAddress: { zipCode: '60608', phoneNumber: 'nope' },
        deliveryAddress: { zipCode: '10001' },
        orderComponents: [{ palletCount: 1, poundsWeight: 500 }],
      }),
    );
    expect(violations.map((violation) => violation.field)).toEqual(['pickupAddress.phoneNumber']);
  });
});

describe('over HTTP', () => {
  const server = serveInProcess(() => api);
  const post = (body: unknown) => server.post('/v1/shipper/shipment', body);

  it('answers the phone as E.164, and 400 naming the field for one that is not a phone', async () => {
    const booked = await post(shipmentRequest({ refNumber: null, pickupAddress: { ...PUBLISHED_PICKUP, phoneNumber: '312-555-0100' } }));
    expect(booked.status).toBe(200);
    expect((booked.body.pickupAddress as Record<string, unknown>).phoneNumber).toBe('+13125550100');
    const refused = await post(shipmentRequest({ pickupAddress: { ...PUBLISHED_PICKUP, phoneNumber: 'call the front desk' } }));
    expect(refused.status).toBe(400);
    expect(refused.body.violations).toEqual([{ field: 'pickupAddress.phoneNumber', reason: expect.any(String) }]);
    // The published create requires the phone: an empty one is none.
    const empty = await post(shipmentRequest({ pickupAddress: { ...PUBLISHED_PICKUP, phoneNumber: '' } }));
    expect(empty.status).toBe(400);
    expect(empty.body.violations).toEqual([{ field: 'pickupAddress.phoneNumber', reason: 'phoneNumber is required' }]);
  });
});

describe('through the CLI', () => {
  it('takes a phone as people write it and books it as E.164; a bad one is one clear line, exit 1', async () => {
    const dir = await tempDir();
    try {
      const cli = (args: string[]) => runInProcess(['--store', dir.dir, ...args], { env: { SHIPPER_NOW: WEDNESDAY } });
      const shipper = withContact('name="Acme DC",address1="2100 S Halsted St",city=Chicago,state=IL,zip=60608,phone=312-555-0100');
      const consignee = withContact('name="Store 12",address1="1 Penn Plaza",city="New York",state=NY,zip=10001');
      const booked = await cli(['ship', '--shipper', shipper, '--consignee', consignee, '-c', 'pallets=1,weight=500,dims=48x40x48,desc=Parts', '--json']);
      expect(booked.code, booked.stderr).toBe(0);
      expect((JSON.parse(booked.stdout) as { pickupAddress: { phoneNumber: string } }).pickupAddress.phoneNumber).toBe('+13125550100');
      const bad = await cli(['ship', '--shipper', shipper.replace('312-555-0100', 'front-desk'), '--consignee', consignee, '-c', 'pallets=1,weight=500,dims=48x40x48,desc=Parts']);
      expect(bad.code).toBe(1);
      expect(bad.stderr.trim().split('\n')).toHaveLength(1);
      expect(bad.stderr).toContain('pickupAddress.phoneNumber');
      expect(bad.stderr).not.toMatch(/\n\s+at /);
    } finally {
      await dir.cleanup();
    }
  });
});
