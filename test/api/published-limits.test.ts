/**
 * The published limits and defaults applied at quote and create (issue 40; publishedLimits.ts):
 * 1 to 51 pallets, 1 to 2,500 lb per pallet (poundsWeight is the component's total), pallet sizes
 * (60x52x94 standard, beyond it a warning; 62x62x94 with a liftgate; never beyond 95x95x96), and
 * omitted dimensions as the published 40x48x60 with a coded warning. Through the engine, over
 * HTTP and through the CLI (in process: the same program); and the limits as settings.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalApi } from '../../src/api/local.js';
import type { Warning } from '../../src/domain/warnings.js';
import type { QuoteRequestInput } from '../../src/domain/schemas.js';
import { violationsOf } from '../contract/expect.js';
import { tempDir } from '../helpers/cli.js';
import { serveInProcess } from '../helpers/inProcessServer.js';
import { runInProcess } from '../helpers/inProcess.js';
import { shipmentRequest, WEDNESDAY } from '../helpers/fixtures.js';

const DIMS = { length: 48, width: 40, height: 48 };
const lane = (orderComponents: unknown[], flags: Record<string, unknown> = {}) =>
  ({
    pickupAddress: { zipCode: '60608', ...flags },
    deliveryAddress: { zipCode: '10001' },
    orderComponents,
  }) as QuoteRequestInput;

let store: { dir: string; cleanup: () => Promise<void> };
let api: LocalApi;
beforeAll(async () => {
  store = await tempDir();
  api = new LocalApi({ storeDir: store.dir, now: () => new Date(WEDNESDAY) });
});
afterAll(() => store.cleanup());

const codes = (warnings: Warning[]) => warnings.map((warning) => warning.code);

describe('pallets per order: 1 to 51', () => {
  it('quotes 51 pallets and refuses 52, on the order (all components together)', async () => {
    expect((await api.createLaneQuote(lane([{ palletCount: 51, poundsWeight: 40_800, dimensions: DIMS }]))).data.orderComponents[0]!.palletCount).toBe(51);
    const violations = await violationsOf(
      api.createLaneQuote(
        lane([
          { palletCount: 26, poundsWeight: 2600, dimensions: DIMS },
          { palletCount: 26, poundsWeight: 2600, dimensions: DIMS },
        ]),
      ),
    );
    expect(violations).toEqual([{ field: 'orderComponents', reason: expect.stringContaining('52 pallets together; an order has at most 51 pallets') }]);
  });
});

describe('pounds per pallet: 1 to 2,500 (poundsWeight / palletCount)', () => {
  it('takes 2,500 lb a pallet and refuses 2,501, naming the line', async () => {
    expect((await api.createLaneQuote(lane([{ palletCount: 2, poundsWeight: 5000, dimensions: DIMS }]))).data.quotedPriceInCents).toBeGreaterThan(0);
    const violations = await violationsOf(api.createLaneQuote(lane([{ palletCount: 1, poundsWeight: 2501, dimensions: DIMS }])));
    expect(violations).toEqual([{ field: 'orderComponents[0].poundsWeight', reason: expect.stringContaining('a pallet weighs at most 2,500 lb') }]);
  });

  it('reads a multi-pallet component as its total weight: 3 pallets of 7,500 lb pass, not 7,500 lb each', async () => {
    const { data } = await api.createLaneQuote(lane([{ palletCount: 3, poundsWeight: 7500, dimensions: DIMS }]));
    expect(data.orderComponents[0]).toMatchObject({ palletCount: 3, poundsWeight: 7500 });
  });
});

describe('pallet sizes', () => {
  it('60x52x94 is standard; 61 long is oversize, a coded warning, still priced', async () => {
    expect(codes((await api.createLaneQuote(lane([{ palletCount: 1, poundsWeight: 500, dimensions: { length: 60, width: 52, height: 94 } }]))).warnings)).not.toContain(
      'OVERSIZE_PALLET',
    );
    const over = await api.createLaneQuote(lane([{ palletCount: 1, poundsWeight: 500, dimensions: { length: 61, width: 52, height: 94 } }]));
    expect(over.warnings.find((warning) => warning.code === 'OVERSIZE_PALLET')).toMatchObject({ field: 'orderComponents[0].dimensions', line: 0 });
  });

  it('with a liftgate 62x62x94 passes and 63 wide is refused (by the address flag or the accessorial code)', async () => {
    expect(
      (await api.createLaneQuote(lane([{ palletCount: 1, poundsWeight: 500, dimensions: { length: 62, width: 62, height: 94 } }], { liftgateRequired: true }))).data.id,
    ).toMatch(/^qt_/);
    for (const quote of [
      lane([{ palletCount: 1, poundsWeight: 500, dimensions: { length: 62, width: 63, height: 94 } }], { liftgateRequired: true }),
      { ...lane([{ palletCount: 1, poundsWeight: 500, dimensions: { length: 62, width: 63, height: 94 } }]), accessorials: ['LIFTGATE_DELIVERY'] },
    ]) {
      expect(await violationsOf(api.createLaneQuote(quote))).toEqual([{ field: 'orderComponents[0].dimensions', reason: expect.stringContaining('the largest a liftgate takes') }]);
    }
    // Without a liftgate the same pallet is only oversize.
    expect(codes((await api.createLaneQuote(lane([{ palletCount: 1, poundsWeight: 500, dimensions: { length: 62, width: 63, height: 94 } }]))).warnings)).toContain(
      'OVERSIZE_PALLET',
    );
  });

  it('95x95x96 is the largest carried; 96x95x96 is refused', async () => {
    expect(codes((await api.createLaneQuote(lane([{ palletCount: 1, poundsWeight: 500, dimensions: { length: 95, width: 95, height: 96 } }]))).warnings)).toContain(
      'OVERSIZE_PALLET',
    );
    expect(await violationsOf(api.createLaneQuote(lane([{ palletCount: 1, poundsWeight: 500, dimensions: { length: 96, width: 95, height: 96 } }])))).toEqual([
      { field: 'orderComponents[0].dimensions', reason: expect.stringContaining('beyond 95x95x96 in, the largest pallet carried') },
    ]);
  });
});

describe('dimensions omitted or given in part', () => {
  it('omitted: the published 40x48x60 in, with DIMENSIONS_ASSUMED on the line', async () => {
    const { data, warnings } = await api.createLaneQuote(lane([{ palletCount: 1, poundsWeight: 500 }]));
    expect(data.orderComponents[0]!.dimensions).toEqual({ length: 40, width: 48, height: 60 });
    expect(warnings.find((warning) => warning.code === 'DIMENSIONS_ASSUMED')).toMatchObject({ field: 'orderComponents[0].dimensions', line: 0 });
  });

  it('in part: a violation on the missing measure, never the default', async () => {
    const violations = await violationsOf(api.createLaneQuote(lane([{ palletCount: 1, poundsWeight: 500, dimensions: { length: 48, width: 40 } }])));
    expect(violations.map((violation) => violation.field)).toEqual(['orderComponents[0].dimensions.height']);
  });

  it('a shipment booked without dimensions is booked at the default, with the warning', async () => {
    const { data, warnings } = await api.createShipment(shipmentRequest({ refNumber: 'PO-DEFAULT-DIMS', orderComponents: [{ palletCount: 2, poundsWeight: 1000 }] }));
    expect(data.orderComponents[0]!.dimensions).toEqual({ length: 40, width: 48, height: 60 });
    expect(codes(warnings)).toContain('DIMENSIONS_ASSUMED');
  });

  it('a shipment beyond the limits is refused and nothing is booked', async () => {
    const before = (await api.listShipments()).data.items.length;
    const violations = await violationsOf(
      api.createShipment(shipmentRequest({ refNumber: 'PO-HEAVY', orderComponents: [{ palletCount: 1, poundsWeight: 3000, dimensions: DIMS }] })),
    );
    expect(violations).toEqual([{ field: 'orderComponents[0].poundsWeight', reason: expect.stringContaining('at most 2,500 lb') }]);
    expect((await api.listShipments()).data.items.length).toBe(before);
  });
});

describe('the limits are settings', () => {
  it('an override of the engine (the config file`s limits) replaces the published value, the others stay', async () => {
    const other = await tempDir();
    try {
      const strict = new LocalApi({ storeDir: other.dir, now: () => new Date(WEDNESDAY), limits: { maxPalletsPerOrder: 10 } });
      expect(await violationsOf(strict.createLaneQuote(lane([{ palletCount: 11, poundsWeight: 1100, dimensions: DIMS }])))).toEqual([
        { field: 'orderComponents', reason: expect.stringContaining('at most 10 pallets') },
      ]);
      expect(await violationsOf(strict.createLaneQuote(lane([{ palletCount: 1, poundsWeight: 2501, dimensions: DIMS }])))).toHaveLength(1);
    } finally {
      await other.cleanup();
    }
  });

  it('the CLI reads them from the config file, and refuses a bad one', async () => {
    const dir = await tempDir();
    try {
      const config = join(dir.dir, 'config.json');
      await writeFile(config, JSON.stringify({ limits: { maxPoundsPerPallet: 1000 } }));
      const env = { SHIPPER_CONFIG_DIR: dir.dir, SHIPPER_NOW: WEDNESDAY };
      const refused = await runInProcess(['--store', join(dir.dir, 'store'), 'quote', '--from', '60608', '--to', '10001', '-c', 'pallets=1,weight=1200,dims=48x40x48'], { env });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('a pallet weighs at most 1,000 lb');
      expect(refused.stderr).toContain('orderComponents[0].poundsWeight');
      expect(refused.stderr).not.toMatch(/\n\s+at /);
      await writeFile(config, JSON.stringify({ limits: { maxPoundsPerPallet: -1 } }));
      const bad = await runInProcess(['--store', join(dir.dir, 'store'), 'quote', '--from', '60608', '--to', '10001', '-c', 'pallets=1,weight=500,dims=48x40x48'], { env });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('limits.maxPoundsPerPallet');
    } finally {
      await dir.cleanup();
    }
  });
});

describe('through the CLI', () => {
  it('quotes without dims (default and warning), refuses 52 pallets and a pallet of 2,501 lb, each with one clear line', async () => {
    const dir = await tempDir();
    try {
      const cli = (args: string[]) => runInProcess(['--store', dir.dir, ...args], { env: { SHIPPER_NOW: WEDNESDAY } });
      const assumed = await cli(['quote', '--from', '60608', '--to', '10001', '-c', 'pallets=2,weight=1000', '--json']);
      expect(assumed.code, assumed.stderr).toBe(0);
      const quoted = JSON.parse(assumed.stdout) as { orderComponents: Array<{ dimensions: unknown }>; warnings: Warning[] };
      expect(quoted.orderComponents[0]!.dimensions).toEqual({ length: 40, width: 48, height: 60 });
      expect(codes(quoted.warnings)).toContain('DIMENSIONS_ASSUMED');
      const many = await cli(['quote', '--from', '60608', '--to', '10001', '-c', 'pallets=52,weight=5200,dims=48x40x48']);
      expect(many.code).toBe(1);
      expect(many.stderr).toContain('an order has at most 51 pallets');
      const heavy = await cli(['quote', '--from', '60608', '--to', '10001', '-c', 'pallets=1,weight=2501,dims=48x40x48']);
      expect(heavy.code).toBe(1);
      expect(heavy.stderr.trim().split('\n')).toHaveLength(1);
      expect(heavy.stderr).toContain('a pallet weighs at most 2,500 lb');
    } finally {
      await dir.cleanup();
    }
  });
});

describe('over HTTP', () => {
  const server = serveInProcess(() => api);
  // The freight limits of a lane: the lane quote (the published quote wants whole addresses, see test/server/http.test.ts).
  const post = (body: unknown) => server.post('/v1/shipper/lane-quote', body);

  it('answers 400 with the violation for 52 pallets and 200 with the default and its warning without dimensions', async () => {
    const refused = await post(lane([{ palletCount: 52, poundsWeight: 5200, dimensions: DIMS }]));
    expect(refused.status).toBe(400);
    expect(refused.body.violations).toEqual([{ field: 'orderComponents', reason: expect.stringContaining('at most 51 pallets') }]);
    const assumed = await post(lane([{ palletCount: 1, poundsWeight: 500 }]));
    expect(assumed.status).toBe(200);
    expect((assumed.body.orderComponents as Array<{ dimensions: unknown }>)[0]!.dimensions).toEqual({ length: 40, width: 48, height: 60 });
    expect(codes(assumed.body.warnings as Warning[])).toContain('DIMENSIONS_ASSUMED');
  });
});
