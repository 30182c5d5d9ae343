/**
 * The work one request may ask for is bounded: lanes x days of a transit table, order components
 * over the items of a batch. On the limit, one over, and absurd; in the schemas (so the CLI, the
 * engine and OpenAPI know them), over HTTP, through the CLI, and RemoteApi keeping to them.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/api/openapi.js';
import { RemoteApi } from '../../src/api/remote.js';
import { MAX_BATCH_COMPONENTS, MAX_TRANSIT_LANE_DAYS } from '../../src/domain/limits.js';
import { shipmentBatchRequestSchema, shipmentPreviewRequestSchema, transitRequestSchema } from '../../src/domain/schemas.js';
import { parseRequest } from '../../src/domain/validation.js';
import { tempDir } from '../helpers/cli.js';
import { PUBLISHED_PICKUP, PUBLISHED_NYC } from '../helpers/fixtures.js';
import { runInProcess } from '../helpers/inProcess.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';

const transit = (destinations: number, pickupDays: number) => ({
  origin: { zipCode: '60601' },
  destinations: Array.from({ length: destinations }, () => ({ zipCode: '10001' })),
  pickupDate: '2026-11-24',
  pickupDays,
});
const component = { palletCount: 1, poundsWeight: 100, dimensions: { length: 48, width: 40, height: 48 } };
const batch = (items: number, componentsEach: number, extra = 0) => ({
  items: Array.from({ length: items }, (_, index) => ({
    request: { pickupAddress: PUBLISHED_PICKUP, deliveryAddress: PUBLISHED_NYC, orderComponents: Array(componentsEach + (index === 0 ? extra : 0)).fill(component) },
  })),
});

describe('the limits in the schemas', () => {
  it(`transit: at most ${MAX_TRANSIT_LANE_DAYS} lane-days`, () => {
    expect(MAX_TRANSIT_LANE_DAYS).toBe(5000);
    for (const [destinations, days] of [
      [1000, 5],
      [100, 50],
      [5000 / 40, 40],
      [1000, 1],
      [1, 60],
    ]) {
      expect(parseRequest(transitRequestSchema, transit(destinations!, days!)).ok, `${destinations} x ${days}`).toBe(true);
    }
    for (const [destinations, days, laneDays] of [
      [101, 50, '5,050'],
      [1000, 6, '6,000'],
      [1000, 60, '60,000'],
    ] as const) {
      const parsed = parseRequest(transitRequestSchema, transit(destinations, days));
      expect(parsed.ok).toBe(false);
      if (parsed.ok) continue;
      expect(parsed.violations).toEqual([
        {
          field: 'pickupDays',
          reason: `${destinations.toLocaleString('en-US')} destinations x ${days} pickup days is ${laneDays} lane-days; at most 5,000 per request (fewer destinations or days per request)`,
        },
      ]);
    }
  });

  it(`batches: at most ${MAX_BATCH_COMPONENTS} order components over all items`, () => {
    for (const schema of [shipmentBatchRequestSchema, shipmentPreviewRequestSchema]) {
      expect(parseRequest(schema, batch(5, 1000)).ok).toBe(true);
      expect(parseRequest(schema, batch(500, 10)).ok).toBe(true);
      for (const [body, total] of [
        [batch(5, 1000, 1), '5,001'],
        [batch(500, 1000), '500,000'],
      ] as const) {
        const parsed = parseRequest(schema, body);
        expect(parsed.ok).toBe(false);
        if (!parsed.ok) {
          expect(parsed.violations).toEqual([{ field: 'items', reason: `the items hold ${total} order components; at most 5,000 per request (send fewer items per request)` }]);
        }
      }
      // Items that are not requests count nothing: each is refused on its own later.
      expect(parseRequest(schema, { items: [{ request: null }, { request: { orderComponents: 'x' } }] }).ok).toBe(true);
    }
  });

  it('OpenAPI states them', () => {
    const schemas = (openApiDocument() as { components: { schemas: Record<string, Record<string, unknown>> } }).components.schemas;
    expect(schemas.TransitRequest).toMatchObject({ 'x-max-lane-days': 5000, description: expect.stringContaining('5,000 lane-days') });
    expect(schemas.ShipmentBatchRequest).toMatchObject({ 'x-max-order-components': 5000 });
    expect(schemas.ShipmentPreviewRequest).toMatchObject({ 'x-max-order-components': 5000 });
  });
});

describe('over HTTP (shipper serve)', () => {
  let work: { dir: string; cleanup: () => Promise<void> };
  let serve: ServeProcess;
  beforeAll(async () => {
    work = await tempDir('shipper-limits-');
    serve = await startServe({ store: join(work.dir, 'store'), env: { SHIPPER_NOW: '2026-11-23T15:00:00Z' } });
  });
  afterAll(async () => {
    await serve.stop();
    await work.cleanup();
  });
  const post = (path: string, body: unknown) => fetch(`${serve.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('transit on the limit answers, bounded; one over and absurd are a 400 naming pickupDays', async () => {
    for (const [destinations, days] of [
      [1000, 5],
      [100, 50],
    ]) {
      const answer = await post('/v1/shipper/transit', transit(destinations!, days!));
      expect(answer.status).toBe(200);
      const body = await answer.text();
      // 1,000 x 60 answered 20.6 MB before; the limit keeps an answer under 2 MB.
      expect(body.length).toBeLessThan(2 * 1024 * 1024);
      expect((JSON.parse(body) as { lanes: unknown[] }).lanes).toHaveLength(destinations!);
    }
    for (const [destinations, days] of [
      [101, 50],
      [1000, 60],
    ]) {
      const answer = await post('/v1/shipper/transit', transit(destinations!, days!));
      expect(answer.status).toBe(400);
      const problem = (await answer.json()) as { violations: Array<{ field: string; message: string }> };
      expect(problem.violations.map((violation) => violation.field)).toEqual(['pickupDays']);
    }
  });

  it('a batch one component over is a 400 naming items, and nothing is booked', async () => {
    const over = await post('/v1/shipper/shipment-batch', batch(5, 1000, 1));
    expect(over.status).toBe(400);
    expect(((await over.json()) as { violations: Array<{ field: string }> }).violations.map((violation) => violation.field)).toEqual(['items']);
    const list = (await (await fetch(`${serve.url}/v1/shipper/shipment`)).json()) as { items: unknown[] };
    expect(list.items).toEqual([]);
  });

  it('RemoteApi splits a batch of 5,500 components (under its byte budget) into requests the server takes', async () => {
    const api = new RemoteApi({ baseUrl: serve.url });
    try {
      const items = batch(11, 500).items;
      const outcomes = (await api.previewShipments({ items: items.map((item) => ({ request: item.request })) })).data.items;
      expect(outcomes).toHaveLength(11);
      for (const outcome of outcomes) {
        if (!outcome.ok) expect(outcome.problem.detail ?? '').not.toMatch(/order components; at most/);
      }
    } finally {
      await api.close();
    }
  });
});

describe('through the CLI', () => {
  it('transit with too many lanes x days exits 1 with the limit in words', async () => {
    const { dir, cleanup } = await tempDir('shipper-limits-cli-');
    try {
      const zips = join(dir, 'zips.txt');
      await writeFile(zips, `${Array(101).fill('10001').join('\n')}\n`);
      const result = await runInProcess(['--store', join(dir, 'store'), 'transit', '--from', '60601', '--to', zips, '--days', '50', '--csv']);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        'shipper: 101 destinations x 50 pickup days is 5,050 lane-days; at most 5,000 per request (fewer destinations or days per request) (pickupDays)\n',
      );
    } finally {
      await cleanup();
    }
  });
});
