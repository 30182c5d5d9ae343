/**
 * Issue 20, item 17, through the CLI (main() in process) and over HTTP (a spawned `shipper serve`): a booking for a carrier that takes
 * eBOLs is warned of what an eBOL would lack (phones, line descriptions), and `shipment update`
 * adds them before pickup, after which `tender --format ebol` writes the request.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Shipment } from '../../src/domain/schemas.js';
import { tempDir, type CliResult } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inProcess.js';
import { startServe } from '../helpers/serve.js';

/** Tuesday 2026-11-24, 09:00 in Chicago: the default pickup is Wednesday 2026-11-25. */
const NOW = '2026-11-24T15:00:00Z';
// With their contacts but no phones: the bookings are created INITIALIZED (--no-confirm) and completed by shipment update.
const SHIPPER = 'name=Acme DC,address1=2100 S Halsted St,city=Chicago,state=IL,zip=60608,contact=Dana Ruiz';
const CONSIGNEE = 'name=Store 12,address1=1 Penn Plaza,city=New York,state=NY,zip=10001,contact=Lee Chen';

let dir: string;
let cleanup: () => Promise<void>;
let env: Record<string, string>;
const cli = (args: string[], extra: Record<string, string> = {}): Promise<CliResult> =>
  runInProcess(['--store', join(dir, 'store'), ...args], { env: { ...env, ...extra }, cwd: dir });

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('shipper-ebol-ready-'));
  env = { SHIPPER_NOW: NOW, SHIPPER_CONFIG_DIR: join(dir, 'config') };
  expect((await cli(['config', 'set', 'carriers.ODFL', '{"name": "Old Dominion", "ebol": true}'])).code).toBe(0);
  expect((await cli(['config', 'set', 'carriers.RLCA', '{"name": "R+L Carriers"}'])).code).toBe(0);
});
afterAll(() => cleanup());

const book = async (extra: string[]): Promise<{ result: CliResult; shipment: Shipment }> => {
  const result = await cli([
    'ship',
    '--shipper',
    SHIPPER,
    '--consignee',
    CONSIGNEE,
    '-c',
    'pallets=1,weight=500,dims=48x40x48',
    '-c',
    'pallets=1,weight=300,dims=48x40x40',
    '--no-confirm',
    '--json',
    ...extra,
  ]);
  expect(result.code, result.stderr).toBe(0);
  return { result, shipment: JSON.parse(result.stdout) as Shipment };
};

describe('a booking for a carrier that takes eBOLs', () => {
  it('is warned of what an eBOL would lack; shipment update adds it before pickup; then the eBOL is written', async () => {
    const { result, shipment } = await book(['--scac', 'ODFL']);
    expect(result.stderr).toContain(
      'warning: [EBOL_INCOMPLETE] ODFL takes eBOL 2.1 requests and this shipment lacks what one needs: pickupAddress.phoneNumber, deliveryAddress.phoneNumber, orderComponents[0].description, orderComponents[1].description',
    );
    expect(shipment.orderStatus).toBe('INITIALIZED');
    const early = await cli(['tender', shipment.id, '--format', 'ebol', '-o', join(dir, 'early.json')]);
    expect(early.code).toBe(1);
    expect(early.stderr).toContain(`${shipment.orderNumber} is INITIALIZED: a carrier is tendered a confirmed order only; confirm it first`);

    const updated = await cli([
      'shipment',
      'update',
      shipment.orderNumber,
      '--shipper-phone',
      '312-555-0100',
      '--consignee-phone',
      '(212) 555-0188',
      '--description',
      '1=Machine parts',
      '--description',
      '2=Spare belts',
      '--order-description',
      'Machine parts and spare belts',
      '--json',
    ]);
    expect(updated.code, updated.stderr).toBe(0);
    expect(JSON.parse(updated.stdout)).toMatchObject({
      // Read as on an address: E.164.
      pickupAddress: { phoneNumber: '+13125550100', contactPerson: 'Dana Ruiz' },
      deliveryAddress: { phoneNumber: '+12125550188', contactPerson: 'Lee Chen' },
      description: 'Machine parts and spare belts',
      orderComponents: [
        { description: 'Machine parts', poundsWeight: 500 },
        { description: 'Spare belts', poundsWeight: 300 },
      ],
      // Nothing else moved.
      orderNumber: shipment.orderNumber,
      bolNumber: shipment.bolNumber,
      totalPriceInCents: shipment.totalPriceInCents,
    });

    // It has what confirm needs now: confirmed, it is tendered.
    const confirmed = await cli(['shipment', 'confirm', shipment.orderNumber, '--json']);
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect((JSON.parse(confirmed.stdout) as Shipment).orderStatus).toBe('CONFIRMED');
    const file = join(dir, 'ebol.json');
    const tender = await cli(['tender', shipment.id, '--format', 'ebol', '-o', file]);
    expect(tender.code, tender.stderr).toBe(0);
    const ebol = JSON.parse(await readFile(file, 'utf8')) as {
      origin: { contact: { phone: string } };
      destination: { contact: { phone: string } };
      commodities: { handlingUnits: Array<{ lineItems: Array<{ description: string }> }> };
    };
    expect(ebol.origin.contact.phone).toBe('3125550100');
    expect(ebol.destination.contact.phone).toBe('2125550188');
    expect(ebol.commodities.handlingUnits.map((unit) => unit.lineItems[0]!.description)).toEqual(['Machine parts', 'Spare belts']);
  });

  it('has no such warning when it lacks nothing, or when the carrier does not take eBOLs (the boundary)', async () => {
    const complete = await book([
      '--scac',
      'ODFL',
      '--shipper',
      `${SHIPPER},phone=312-555-0100`,
      '--consignee',
      `${CONSIGNEE},phone=212-555-0188`,
      '-c',
      'pallets=1,weight=200,dims=48x40x40,desc=Gears',
    ]);
    // The last --shipper and --consignee win; the two lines without desc still lack one.
    expect(complete.result.stderr).toContain('lacks what one needs: orderComponents[0].description, orderComponents[1].description');
    expect(complete.result.stderr).not.toContain('pickupAddress.phoneNumber');
    const other = await book(['--scac', 'RLCA']);
    expect(other.result.stderr).not.toMatch(/eBOL/);
  });

  it('line numbers and the pickup day are checked: no line 3 of 2; after the pickup day nothing changes', async () => {
    const { shipment } = await book(['--scac', 'ODFL']);
    const noLine = await cli(['shipment', 'update', shipment.id, '--description', '3=Castings']);
    expect(noLine.code).toBe(1);
    expect(noLine.stderr).toContain(`${shipment.orderNumber} has 2 lines: there is no line 3 (lineDescriptions[0].line)`);
    expect((await cli(['shipment', 'update', shipment.id, '--description', 'Castings'])).code).toBe(2);
    // On the pickup day itself: still allowed (the boundary).
    const onTheDay = await cli(['shipment', 'update', shipment.id, '--consignee-phone', '212-555-0199'], { SHIPPER_NOW: `${shipment.requiredPickupDate}T22:00:00Z` });
    expect(onTheDay.code, onTheDay.stderr).toBe(0);
    const dayAfter = new Date(Date.parse(`${shipment.requiredPickupDate}T15:00:00Z`) + 86_400_000).toISOString();
    const late = await cli(['shipment', 'update', shipment.id, '--consignee-phone', '212-555-0100'], { SHIPPER_NOW: dayAfter });
    expect(late.code).toBe(1);
    expect(late.stderr).toContain(`was to be picked up on ${shipment.requiredPickupDate}: its phones and line descriptions can change until the pickup day`);
    // The carrier's numbers still can change after pickup.
    expect((await cli(['shipment', 'update', shipment.id, '--trailer', '53-77'], { SHIPPER_NOW: dayAfter })).code).toBe(0);
  });

  it('over HTTP: PATCH sets phones and descriptions; an emergency phone cannot be cleared on a hazardous shipment', async () => {
    const serve = await startServe({ store: join(dir, 'served'), env: { SHIPPER_NOW: NOW } });
    try {
      const created = await fetch(`${serve.url}/v1/shipper/shipment`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          // The published create wants a contact and a phone on each stop; the PATCH below changes the shipper's.
          pickupAddress: {
            name: 'Acme DC',
            address1: '2100 S Halsted St',
            city: 'Chicago',
            state: 'IL',
            zipCode: '60608',
            contactPerson: 'Front desk',
            phoneNumber: '312-555-0199',
          },
          deliveryAddress: { name: 'Store 12', address1: '1 Penn Plaza', city: 'New York', state: 'NY', zipCode: '10001', contactPerson: 'Lee Chen', phoneNumber: '212-555-0188' },
          emergencyContactPhone: '800-424-9300',
          orderComponents: [
            {
              palletCount: 1,
              poundsWeight: 400,
              dimensions: { length: 48, width: 40, height: 40 },
              hazmat: { unNumber: 'UN1263', properShippingName: 'Paint', hazardClass: '3', packingGroup: 'III' },
            },
          ],
        }),
      });
      expect(created.status).toBe(200);
      const { id } = (await created.json()) as Shipment;
      const patch = (body: unknown) =>
        fetch(`${serve.url}/v1/shipper/shipment/${id}`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const ok = await patch({ shipperPhone: '312-555-0100', shipperContact: 'Dana Ruiz', lineDescriptions: [{ line: 1, description: 'Paint, in pails' }] });
      expect(ok.status).toBe(200);
      expect(await ok.json()).toMatchObject({
        pickupAddress: { phoneNumber: '+13125550100', contactPerson: 'Dana Ruiz' },
        orderComponents: [{ description: 'Paint, in pails', hazmat: { unNumber: 'UN1263' } }],
      });
      const cleared = await patch({ emergencyContactPhone: null });
      expect(cleared.status).toBe(400);
      expect(JSON.stringify(await cleared.json())).toContain('cannot be cleared');
      const hostile = await patch({ lineDescriptions: [{ line: 1, description: 'Paint\u001b[2J' }] });
      expect(hostile.status).toBe(400);
    } finally {
      await serve.stop();
    }
  });
});
