/**
 * The order's life as published through the CLI (issue 40, item 3), in both modes: `ship` creates
 * and confirms in one step; a request that cannot be confirmed is refused before anything is
 * written (exit 2, every missing field and where to give it); `--no-confirm` stops at INITIALIZED;
 * `shipment confirm` confirms later and refuses a second time (exit 1); a retried
 * `--idempotency-key` of a confirmed order is done; tender waits for the confirm. Spawned
 * processes (the real bin/shipper.js) against a store of their own and a `shipper serve`.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Shipment } from '../../src/domain/schemas.js';
import { runCli, tempDir, type CliResult } from '../helpers/cli.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';
import { DELIVERY_CONTACT, withContact } from '../helpers/fixtures.js';

const NOW = { SHIPPER_NOW: '2026-11-23T15:00:00Z' };
const BARE_SHIPPER = 'name=Acme DC,address1=2100 S Halsted St,city=Chicago,state=IL,zip=60608';
const BARE_CONSIGNEE = 'name=Store 12,address1=1 Penn Plaza,city=New York,state=NY,zip=10001';
const SHIPPER = withContact(BARE_SHIPPER);
const CONSIGNEE = withContact(BARE_CONSIGNEE, DELIVERY_CONTACT);
const LINE = 'pallets=2,weight=1200,dims=48x40x48,desc=Machine parts';

let work: { dir: string; cleanup: () => Promise<void> };
let server: ServeProcess;

beforeAll(async () => {
  work = await tempDir('shipper-lifecycle-');
  server = await startServe({ store: join(work.dir, 'served'), env: NOW });
});
afterAll(async () => {
  await server?.stop();
  await work?.cleanup();
});

type Mode = 'local' | 'remote';

function cli(mode: Mode, args: string[]): Promise<CliResult> {
  const where = mode === 'local' ? ['--store', join(work.dir, 'local')] : ['--base-url', server.url, '--store', join(work.dir, 'client')];
  return runCli([...where, ...args], { env: NOW, cwd: work.dir });
}

async function json<T>(mode: Mode, args: string[]): Promise<T> {
  const result = await cli(mode, [...args, '--json']);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as T;
}

const orderNumbers = async (mode: Mode): Promise<string[]> =>
  (await json<{ items: Shipment[] }>(mode, ['shipment', 'list', '--limit', '500'])).items.map((item) => item.orderNumber);

describe.each(['local', 'remote'] as const)('%s mode', (mode) => {
  it('ship creates and confirms in one step: CONFIRMED, said so; confirming again is refused (exit 1, invalid_state) and changes nothing', async () => {
    const people = await cli(mode, ['ship', '--shipper', SHIPPER, '--consignee', CONSIGNEE, '-c', LINE, '--ref', `ONE-${mode}`]);
    expect(people.code, people.stderr).toBe(0);
    expect(people.stdout).toMatch(/^Confirmed shipment sh_\w+ {2}SO-\d{6} {2}CONFIRMED/);

    const shipment = await json<Shipment>(mode, ['ship', '--shipper', SHIPPER, '--consignee', CONSIGNEE, '-c', LINE, '--ref', `TWO-${mode}`]);
    expect(shipment).toMatchObject({ orderStatus: 'CONFIRMED', description: 'Machine parts' });
    expect(shipment.pickupAddress).toMatchObject({ contactPerson: 'Dana Ruiz', phoneNumber: '+13125550100' });

    const again = await cli(mode, ['shipment', 'confirm', shipment.orderNumber]);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toContain(`order is not in INITIALIZED state: ${shipment.orderNumber} is CONFIRMED, only an INITIALIZED order can be confirmed`);
    expect((await json<Shipment>(mode, ['shipment', 'get', shipment.orderNumber])).updatedAt).toBe(shipment.updatedAt);
  });

  it('ship without contacts, phones or a description books nothing: exit 2, every missing field and where to give it, the list unchanged', async () => {
    const before = await orderNumbers(mode);
    const refused = await cli(mode, [
      'ship',
      '--shipper',
      BARE_SHIPPER,
      '--consignee',
      withContact(BARE_CONSIGNEE).replace(/,phone=[^,]*$/, ''),
      '-c',
      'pallets=1,weight=500,dims=48x40x48',
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    const message = refused.stderr;
    expect(message).toMatch(/^shipper: the order could not be confirmed as published, so nothing was booked; it lacks:\n/);
    expect(message).toContain('pickupAddress.contactPerson: contactPerson is required (the name of the contact at this location); give it with contact= in --shipper');
    expect(message).toContain('pickupAddress.phoneNumber: phoneNumber is required');
    expect(message).toContain('deliveryAddress.phoneNumber: phoneNumber is required');
    expect(message).not.toContain('deliveryAddress.contactPerson');
    expect(message).toContain('description: description must not be empty (what the shipment holds); give it with --description TEXT, or desc= on a -c line');
    expect(message).toContain('--no-confirm');
    expect(message).not.toMatch(/\n\s+at |\x1b/);
    expect(await orderNumbers(mode)).toEqual(before);
  });

  it('ship --no-confirm creates it INITIALIZED and says how to confirm; tender waits for the confirm; shipment confirm then confirms it', async () => {
    const created = await cli(mode, ['ship', '--shipper', BARE_SHIPPER, '--consignee', BARE_CONSIGNEE, '-c', 'pallets=1,weight=500,dims=48x40x48', '--no-confirm']);
    expect(created.code, created.stderr).toBe(0);
    const orderNumber = /SO-\d{6}/.exec(created.stdout)![0];
    expect(created.stdout).toMatch(/^Created shipment \(INITIALIZED\) sh_\w+ {2}SO-\d{6} {2}INITIALIZED/);
    expect(created.stdout).toContain(`Not confirmed (--no-confirm): confirm it with  shipper shipment confirm ${orderNumber}`);

    const tender = await cli(mode, ['tender', orderNumber, '--format', 'ebol', '-o', join(work.dir, `early-${mode}.json`)]);
    expect(tender.code).toBe(1);
    expect(tender.stderr).toContain(`${orderNumber} is INITIALIZED: a carrier is tendered a confirmed order only; confirm it first`);

    // Confirm names what it lacks and leaves it INITIALIZED.
    const lacking = await cli(mode, ['shipment', 'confirm', orderNumber]);
    expect(lacking.code).toBe(1);
    expect(lacking.stderr).toContain('(pickupAddress.contactPerson)');
    expect((await json<Shipment>(mode, ['shipment', 'get', orderNumber])).orderStatus).toBe('INITIALIZED');

    // shipment update gives it what confirm needs; then it confirms.
    const completed = await cli(mode, [
      'shipment',
      'update',
      orderNumber,
      '--shipper-contact',
      'Dana Ruiz',
      '--shipper-phone',
      '312-555-0100',
      '--consignee-contact',
      'Lee Chen',
      '--consignee-phone',
      '212-555-0188',
      '--order-description',
      'Castings',
    ]);
    expect(completed.code, completed.stderr).toBe(0);
    const confirmed = await json<Shipment>(mode, ['shipment', 'confirm', orderNumber]);
    expect(confirmed).toMatchObject({ orderNumber, orderStatus: 'CONFIRMED', description: 'Castings' });
  });

  it('ship --idempotency-key run again: the create replays the confirmed order, nothing new is booked or confirmed; -q prints its id', async () => {
    const key = `life-${mode}-${Date.now()}`;
    const args = ['ship', '--shipper', SHIPPER, '--consignee', CONSIGNEE, '-c', LINE, '--idempotency-key', key];
    const first = await json<Shipment>(mode, args);
    expect(first.orderStatus).toBe('CONFIRMED');
    const count = (await orderNumbers(mode)).length;
    const again = await cli(mode, ['-q', ...args]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe(`${first.id}\n`);
    const people = await cli(mode, args);
    expect(people.code, people.stderr).toBe(0);
    expect(people.stderr).toContain(`already booked with --idempotency-key ${key}: nothing new was booked`);
    expect(people.stdout).toMatch(new RegExp(`^Shipment ${first.id} {2}${first.orderNumber} {2}CONFIRMED`));
    expect((await orderNumbers(mode)).length).toBe(count);
    expect(await json<Shipment>(mode, ['shipment', 'get', first.orderNumber])).toMatchObject({ orderStatus: 'CONFIRMED', updatedAt: first.updatedAt });
  });
});
