/** `shipper ship`, `shipper shipment get|list` and `shipper location ...`, run as a user runs them (in process). */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidBolNumber } from '../../src/domain/bolNumber.js';
import type { Page, Quote, Shipment } from '../../src/domain/schemas.js';
import { tempDir, type CliResult } from '../helpers/cli.js';
import { storeInProcess } from '../helpers/inProcess.js';
import { WEDNESDAY, CHICAGO_DC_FLAGS, withContact } from '../helpers/fixtures.js';

let store: { dir: string; cleanup: () => Promise<void> };
let shipper: (args: string[], env?: Record<string, string>) => Promise<CliResult>;

beforeAll(async () => {
  store = await tempDir('shipper-ship-');
  const cli = storeInProcess(store.dir);
  shipper = (args, env = {}) => cli(args, { env: { SHIPPER_NOW: WEDNESDAY, ...env } });
  for (const args of [
    ['location', 'add', 'chicago-dc', ...CHICAGO_DC_FLAGS, '--contact', 'Dana Ruiz', '--phone', '312-555-0100'],
    [
      'location',
      'add',
      'NYC-Store',
      '--name',
      'Store 12',
      '--address1',
      '1 Penn Plaza',
      '--address2',
      'Suite 200',
      '--city',
      'New York',
      '--state',
      'ny',
      '--zip',
      '10001',
      '--contact',
      'Lee Chen',
      '--phone',
      '212-555-0188',
    ],
  ]) {
    const result = await shipper(args);
    expect(result.code, result.stderr).toBe(0);
  }
});
afterAll(() => store.cleanup());

function noStackTrace(result: CliResult): void {
  expect(result.stderr).not.toMatch(/\n\s+at /);
}

async function quote(components = ['pallets=2,weight=1200,dims=48x40x48,desc=Parts'], env?: Record<string, string>): Promise<Quote> {
  const result = await shipper(['quote', '--from', '60608', '--to', '10001', ...components.flatMap((spec) => ['-c', spec]), '--json'], env);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Quote;
}

describe('shipper location', () => {
  it('lists, shows and removes saved locations; names are case-insensitive', async () => {
    const list = await shipper(['location', 'list']);
    expect(list.stdout).toMatch(/chicago-dc\s+│ Acme Chicago DC\s+│ 2100 S Halsted St, Chicago, IL 60608/);
    const show = await shipper(['location', 'show', 'nyc-store', '--json']);
    expect(JSON.parse(show.stdout)).toMatchObject({ name: 'NYC-Store', address: { state: 'NY', address2: 'Suite 200', countryCode: 'US' } });
    await shipper(['location', 'add', 'temp', '--name', 'T', '--address1', 'S', '--city', 'C', '--state', 'IL', '--zip', '60601']);
    const again = await shipper(['location', 'add', 'TEMP', '--name', 'T', '--address1', 'S', '--city', 'C', '--state', 'IL', '--zip', '60601']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/exists already; add --replace/);
    expect((await shipper(['location', 'remove', 'temp'])).code).toBe(0);
    expect((await shipper(['location', 'show', 'temp'])).code).toBe(4);
  });

  it('refuses an invalid address with every problem named and saves nothing', async () => {
    const result = await shipper(['location', 'add', 'bad', '--name', 'X', '--city', 'Chicago', '--state', 'Illinois', '--zip', '6060']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/address1 is required \(address1\)/);
    expect(result.stderr).toMatch(/must be a 2-letter state code \(state\)/);
    expect(result.stderr).toMatch(/must be a 5-digit US ZIP code \(ZIP\+4 accepted\) \(zipCode\)/);
    noStackTrace(result);
    expect((await shipper(['location', 'show', 'bad'])).code).toBe(4);
  });

  it('refuses a ZIP that does not exist, with the other problems, and a state that disagrees with the ZIP; warns about the city', async () => {
    const unknown = await shipper(['location', 'add', 'nowhere', '--name', 'X', '--address1', '1 Main St', '--city', 'Y', '--state', 'ZZZ', '--zip', '00000']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe('shipper: must be a 2-letter state code (state); unknown ZIP 00000 (zipCode)');
    expect((await shipper(['location', 'show', 'nowhere'])).code).toBe(4);
    const mismatch = await shipper(['location', 'add', 'typo', '--name', 'X', '--address1', '1 Main St', '--city', 'Chicago', '--state', 'WI', '--zip', '60601']);
    expect(mismatch.code).toBe(1);
    expect(mismatch.stderr.trim()).toBe('shipper: WI does not match ZIP 60601, which is in Chicago, IL; correct the state or the ZIP (state)');
    expect((await shipper(['location', 'show', 'typo'])).code).toBe(4);
    const otherCity = await shipper(['location', 'add', 'typo', '--name', 'X', '--address1', '1 Main St', '--city', 'Evanston', '--state', 'il', '--zip', '60601']);
    expect(otherCity.code).toBe(0);
    expect(otherCity.stderr).toContain(
      'warning: [ADDRESS_CITY_MISMATCH] Evanston is not the USPS city of ZIP 60601 (Chicago, IL); check the address, carriers route by the ZIP (city)',
    );
    expect((await shipper(['location', 'remove', 'typo'])).code).toBe(0);
  });
});

/** `shipper ship --quote ID` from the saved Chicago DC to the saved New York store, with more flags. */
const shipSaved = (quoteId: string, more: string[]) => shipper(['ship', '--quote', quoteId, '--shipper', 'chicago-dc', '--consignee', 'nyc-store', ...more]);

describe('shipper ship --quote', () => {
  it('books the quote with saved locations, a reference, instructions and per-line details; the class printed is the quoted one', async () => {
    const quoted = await quote(['pallets=2,weight=1200,dims=48x40x48,desc=Parts', 'pallets=1,weight=300,dims=48x40x40,desc=Parts']);
    const result = await shipSaved(quoted.id, [
      '--ref',
      'PO-4711',
      '--special-instructions',
      'Call ahead',
      '-c',
      'pallets=2,weight=1200,dims=48x40x48,desc="Machine parts, boxed",nmfc=161030,pkg=crates,pieces=10',
      '-c',
      'pallets=1,weight=300,dims=48x40x40,pieces=0,desc=Parts',
      '--json',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const shipment = JSON.parse(result.stdout) as Shipment;
    expect(shipment).toMatchObject({
      quoteId: quoted.id,
      refNumber: 'PO-4711',
      specialInstructions: 'Call ahead',
      totalPriceInCents: quoted.quotedPriceInCents,
      orderStatus: 'CONFIRMED',
    });
    expect(shipment.orderNumber).toMatch(/^SO-\d{6}$/);
    expect(isValidBolNumber(shipment.bolNumber)).toBe(true);
    expect(shipment.pickupAddress).toMatchObject({ name: 'Acme Chicago DC', contactPerson: 'Dana Ruiz' });
    expect(shipment.orderComponents.map((component) => component.freightClass)).toEqual(quoted.orderComponents.map((component) => component.freightClass));
    expect(shipment.orderComponents[0]).toMatchObject({ description: 'Machine parts, boxed', nmfcCode: '161030', packagingType: 'crates', pieceCount: 10 });
    expect(shipment.orderComponents[1]!.pieceCount).toBe(0);

    const shown = await shipper(['shipment', 'get', shipment.id]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(shipment.orderNumber);
    expect(shown.stdout).toContain(shipment.bolNumber);
    expect(shown.stdout).toMatch(/│ 1 │ 2\s+│ 1,200\s+│ 48x40x48\s+│ 92\.5\s+│ 10\s+│ crates\s+│ 161030 │ Machine parts, boxed/);
  });

  it('takes the quoted freight when no --component is given', async () => {
    const quoted = await quote();
    const result = await shipper(['ship', '--quote', quoted.id, '--shipper', 'chicago-dc', '--consignee', 'nyc-store', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as Shipment).orderComponents[0]).toMatchObject({ palletCount: 2, poundsWeight: 1200, freightClass: '92.5' });
  });

  it('is exit 4 for an unknown quote, exit 1 for an expired one and for different freight, with the fields named', async () => {
    const unknown = await shipper(['ship', '--quote', 'qt_01JD3Y7T9Q2W5E8R1T4Y7U0I3P', '--shipper', 'chicago-dc', '--consignee', 'nyc-store']);
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toMatch(/quote qt_01JD3Y7T9Q2W5E8R1T4Y7U0I3P not found/);

    const quoted = await quote();
    const mismatch = await shipSaved(quoted.id, ['-c', 'pallets=3,weight=1200,dims=48x40x50,desc=Parts', '--json']);
    expect(mismatch.code).toBe(1);
    const problem = JSON.parse(mismatch.stdout) as { status: number; violations: Array<{ field: string }> };
    expect(problem.status).toBe(400);
    expect(problem.violations.map((violation) => violation.field)).toEqual(['orderComponents[0].palletCount', 'orderComponents[0].dimensions.height']);

    // 169 hours later a quote (48 h, the published 2 days) for a pickup day after that has expired.
    const aheadId = JSON.parse(
      (await shipper(['quote', '--from', '60608', '--to', '10001', '-c', 'pallets=2,weight=1200,dims=48x40x48,desc=Parts', '--pickup-date', '2026-11-30', '--json'])).stdout,
    ).id as string;
    const later = new Date(Date.parse(WEDNESDAY) + 169 * 3_600_000).toISOString();
    const expired = await shipper(['ship', '--quote', aheadId, '--shipper', 'chicago-dc', '--consignee', 'nyc-store'], { SHIPPER_NOW: later });
    expect(expired.code).toBe(1);
    expect(expired.stderr).toMatch(/expired at .*; request a new quote/);
    noStackTrace(expired);
    // The first quote's pickup day (Thursday) ended first: that is what closed it, and the refusal says so.
    const passed = await shipper(['ship', '--quote', quoted.id, '--shipper', 'chicago-dc', '--consignee', 'nyc-store'], { SHIPPER_NOW: later });
    expect(passed.code).toBe(1);
    expect(passed.stderr).toContain(`quote ${quoted.id} is for pickup on ${quoted.requiredPickupDate}, which has passed`);
  });
});

describe('shipper ship in one step', () => {
  it('quotes and books with inline addresses and accessorials', async () => {
    const result = await shipper([
      'ship',
      '--shipper',
      'chicago-dc',
      '--consignee',
      withContact('name="Store 9",address1="5 Main St, Unit 2",city=Boston,state=MA,zip=02110,contact=Jo,phone=617-555-0101'),
      '-c',
      'pallets=1,weight=500,dims=48x40x60,desc=Parts',
      '-a',
      'liftgate-delivery',
      '--pickup-date',
      '2026-11-20',
      '--json',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const shipment = JSON.parse(result.stdout) as Shipment;
    expect(shipment).toMatchObject({ requiredPickupDate: '2026-11-20', accessorials: ['LIFTGATE_DELIVERY'] });
    expect(shipment.deliveryAddress).toMatchObject({ name: 'Store 9', address1: '5 Main St, Unit 2', zipCode: '02110', contactPerson: 'Jo' });
    const quoted = await shipper(['quote', 'get', shipment.quoteId, '--json']);
    expect(JSON.parse(quoted.stdout)).toMatchObject({ id: shipment.quoteId, quotedPriceInCents: shipment.totalPriceInCents });
  });

  it('refuses a freight class in the input (exit 1, the field named) and books nothing', async () => {
    const before = await readdir(join(store.dir, 'shipments'));
    const result = await shipper(['ship', '--shipper', 'chicago-dc', '--consignee', 'nyc-store', '-c', 'pallets=1,weight=500,dims=48x40x60,class=70,desc=Parts']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/freightClass is computed from density at quote time and cannot be sent \(orderComponents\[0\]\.freightClass\)/);
    expect(await readdir(join(store.dir, 'shipments'))).toEqual(before);
  });

  it('is a usage error (exit 2) without addresses or freight, and not found (exit 4) for an unknown location', async () => {
    const missing = await shipper(['ship', '-c', 'pallets=1,weight=500,dims=48x40x60,desc=Parts']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/missing --shipper NAME\|ADDRESS, --consignee NAME\|ADDRESS/);
    const unknown = await shipper(['ship', '--shipper', 'atlantis', '--consignee', 'nyc-store', '-c', 'pallets=1,weight=500,dims=48x40x60,desc=Parts']);
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toMatch(/--shipper atlantis: no saved location of that name; see/);
    // A mistyped name: the saved one it most likely means.
    const typo = await shipper(['ship', '--shipper', 'chicago-d', '--consignee', 'nyc-store', '-c', 'pallets=1,weight=500,dims=48x40x60,desc=Parts']);
    expect(typo.code).toBe(4);
    expect(typo.stderr).toContain('--shipper chicago-d: no saved location of that name (did you mean chicago-dc?); see `shipper location list`');
    const consignee = await shipper(['ship', '--shipper', 'chicago-dc', '--consignee', 'nyc-stroe', '-c', 'pallets=1,weight=500,dims=48x40x60,desc=Parts']);
    expect(consignee.stderr).toContain('--consignee nyc-stroe: no saved location of that name (did you mean NYC-Store?)');
    const lane = await shipper(['ship', '--from', '60601', '--shipper', 'chicago-dc', '--consignee', 'nyc-store', '-c', 'pallets=1,weight=500,dims=48x40x60,desc=Parts']);
    expect(lane.code).toBe(2);
    expect(lane.stderr).toMatch(/--from 60601 differs from the shipper's ZIP 60608/);
  });

  it('books once per idempotency key', async () => {
    const args = ['ship', '--shipper', 'chicago-dc', '--consignee', 'nyc-store', '-c', 'pallets=1,weight=700,dims=48x40x60,desc=Parts', '--idempotency-key', 'job-42', '--json'];
    const first = JSON.parse((await shipper(args)).stdout) as Shipment;
    const again = await shipper(args);
    expect((JSON.parse(again.stdout) as Shipment).id).toBe(first.id);
  });
});

describe('shipper shipment list / get', () => {
  it('lists newest first with order number, ref, lane, pallets, weight, price, transit days and ETA; --limit and --json', async () => {
    // Its own store on the real clock: SHIPPER_NOW restarts at the same instant in every run, so
    // ids (which sort by time) of separate runs would not follow the booking order.
    const own = await tempDir('shipper-list-');
    try {
      const cli = storeInProcess(own.dir);
      for (const [ref, weight] of [
        ['L-1', '500'],
        ['L-2', '900'],
        ['L-3', '1300'],
      ] as const) {
        const booked = await cli([
          'ship',
          '--ref',
          ref,
          '--shipper',
          withContact('name=A,address1=1 A St,city=Chicago,state=IL,zip=60608'),
          '--consignee',
          withContact('name=B,address1=2 B St,city=New York,state=NY,zip=10001'),
          '-c',
          `pallets=2,weight=${weight},dims=48x40x48,desc=Parts`,
        ]);
        expect(booked.code, booked.stderr).toBe(0);
      }
      const table = await cli(['shipment', 'list', '--limit', '2']);
      expect(table.code).toBe(0);
      const lines = table.stdout.split('\n');
      for (const column of ['Shipment', 'Order', 'Ref', 'Lane', 'Pallets', 'Weight (lb)', 'Price', 'Transit days', 'ETA']) expect(lines[1]).toContain(column);
      expect(lines[3]).toMatch(/│ SO-000003 │ CONFIRMED\s+│ L-3\s+│ Chicago, IL → New York, NY\s+│ 2\s+│ 1,300\s+│ \$[\d,.]+\s+│ \d\s+│ \w{3} \d{4}-\d\d-\d\d 17:00 E[SD]T/);
      expect(lines[4]).toContain('SO-000002'); // compact: no rule between rows
      expect(table.stdout).not.toContain('SO-000001');
      expect(table.stdout).toMatch(/More: shipper shipment list --cursor sh_/);

      const page = JSON.parse((await cli(['shipment', 'list', '--json'])).stdout) as Page<Shipment>;
      expect(page.items.map((shipment) => shipment.refNumber)).toEqual(['L-3', 'L-2', 'L-1']);
      expect(page.nextCursor).toBeNull();
    } finally {
      await own.cleanup();
    }
  });

  it('is exit 4 for an unknown shipment and exit 2 for a bad --limit', async () => {
    const unknown = await shipper(['shipment', 'get', 'sh_01JD3Y7T9Q2W5E8R1T4Y7U0I3P', '--json']);
    expect(unknown.code).toBe(4);
    expect(JSON.parse(unknown.stdout)).toMatchObject({ status: 404, title: 'Not Found' });
    expect((await shipper(['shipment', 'list', '--limit', '0'])).code).toBe(2);
  });
});

describe('errors of the address book with --json', () => {
  it('are ProblemDetails on stdout with the exit code of their status', async () => {
    const unknown = await shipper(['location', 'show', 'nowhere', '--json']);
    expect(unknown.code).toBe(4);
    expect(JSON.parse(unknown.stdout)).toMatchObject({ status: 404, detail: expect.stringContaining('no saved location named nowhere') });
    const twice = await shipper(['location', 'add', 'chicago-dc', '--name', 'X', '--address1', 'Y', '--city', 'Z', '--state', 'IL', '--zip', '60601', '--json']);
    expect(twice.code).toBe(1);
    expect(JSON.parse(twice.stdout)).toMatchObject({ status: 409 });
    const ship = await shipper(['ship', '--shipper', 'nowhere', '--consignee', 'nyc-store', '-c', 'pallets=1,weight=500,dims=48x40x60,desc=Parts', '--json']);
    expect(ship.code).toBe(4);
    expect(JSON.parse(ship.stdout)).toMatchObject({ status: 404 });
  });
});
