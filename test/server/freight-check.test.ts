/**
 * The freight check over HTTP (`shipper serve`'s server in process): each rule on, just below and
 * just above its threshold in POST /quote's `warnings[]`, the X-Shipper-Warning headers (`CODE
 * message`), GET /quote/{id}, a booking that adds `stackable: false` to a quote's line, the preview
 * extension; the price at stake read against the tariff's rating.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalApi } from '../../src/api/local.js';
import { decodeWarningHeader } from '../../src/api/wire.js';
import { quoteSchema, shipmentSchema } from '../../src/domain/schemas.js';
import type { Warning } from '../../src/domain/warnings.js';
import { createShipperServer, type ShipperServer } from '../../src/server/server.js';
import { tempDir } from '../helpers/cli.js';
import { publishedStops } from '../helpers/fixtures.js';
import { BOUNDARY_CASES, componentJson, expectedAtRisk } from '../helpers/freightCases.js';

let server: ShipperServer;
let base: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const temp = await tempDir('shipper-freight-check-http-');
  cleanup = temp.cleanup;
  server = createShipperServer({ api: new LocalApi({ storeDir: temp.dir, now: () => new Date('2026-11-23T15:00:00.000Z') }) });
  base = `http://127.0.0.1:${(await server.listen(0, '127.0.0.1')).port}`;
});
afterAll(async () => {
  await server.close(100);
  await cleanup();
});

const LANE = publishedStops('60601', '30301');
const SHIPPER = {
  name: 'Acme',
  address1: '100 N State St',
  city: 'Chicago',
  state: 'IL',
  zipCode: '60601',
  countryCode: 'US',
  contactPerson: 'Dana Ruiz',
  phoneNumber: '+13125550100',
};
const CONSIGNEE = {
  name: 'Peach Supply',
  address1: '1 Peachtree St NE',
  city: 'Atlanta',
  state: 'GA',
  zipCode: '30301',
  countryCode: 'US',
  contactPerson: 'Lee Park',
  phoneNumber: '+14045550100',
};

async function call(method: 'GET' | 'POST', path: string, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    ...(body !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
  });
  const json = (await response.json()) as Record<string, any>;
  const headers = (response.headers.get('x-shipper-warning') ?? '').split(', ').filter(Boolean);
  return { status: response.status, json, headers };
}

describe('POST /v1/shipper/quote: each rule on its threshold, just below and just above', () => {
  for (const boundary of BOUNDARY_CASES) {
    it(`${boundary.code}, ${boundary.name}: ${boundary.warns ? 'warned' : 'not warned'}`, async () => {
      const answer = await call('POST', '/v1/shipper/quote', { ...LANE, orderComponents: boundary.lines.map(componentJson) });
      if (boundary.refused) {
        expect(answer.status).toBe(400);
        expect(answer.json.violations).toEqual([{ field: 'orderComponents[0].dimensions', reason: expect.stringContaining('beyond 95x95x96 in') }]);
        return;
      }
      expect(answer.status).toBe(200);
      const quote = quoteSchema.parse(answer.json);
      const warnings = (answer.json.warnings as Warning[]).filter((item) => item.code === boundary.code);
      expect(warnings.length > 0, JSON.stringify(answer.json.warnings)).toBe(boundary.warns);
      // The header carries the same warnings as `CODE message`.
      expect(answer.headers.map((value) => decodeWarningHeader(value).code).filter((code) => code === boundary.code)).toHaveLength(warnings.length);
      for (const item of warnings) {
        expect(item.priceAtStake, item.message).toBeDefined();
        expect(item.priceAtStake!.quotedPriceInCents).toBe(quote.quotedPriceInCents);
        expect(item.priceAtStake!.atRiskPriceInCents).toBe(expectedAtRisk(quote, item));
        expect(item.priceAtStake!.differenceInCents).toBe(item.priceAtStake!.atRiskPriceInCents - quote.quotedPriceInCents);
      }
    });
  }
});

describe('the check on what the API answers', () => {
  it('GET /quote/{id} answers the same warnings; a booking that says a line is not stackable earns NON_STACKABLE_HEIGHT', async () => {
    const created = await call('POST', '/v1/shipper/quote', { ...LANE, orderComponents: [{ ...componentJson({ pallets: 1, weight: 400, dims: [48, 40, 48], desc: 'Cases' }) }] });
    expect(created.json.warnings).toEqual([]);
    const fetched = await call('GET', `/v1/shipper/quote/${created.json.id}`);
    expect(fetched.json.warnings).toEqual([]);
    const booked = await call('POST', '/v1/shipper/shipment', {
      quoteId: created.json.id,
      pickupAddress: SHIPPER,
      deliveryAddress: CONSIGNEE,
      orderComponents: [{ ...componentJson({ pallets: 1, weight: 400, dims: [48, 40, 48], desc: 'Cases' }), stackable: false }],
    });
    expect(booked.status, JSON.stringify(booked.json)).toBe(200);
    const shipment = shipmentSchema.parse(booked.json);
    expect(shipment.orderComponents[0]!.stackable).toBe(false);
    const check = (booked.json.warnings as Warning[]).find((item) => item.code === 'NON_STACKABLE_HEIGHT')!;
    expect(check).toMatchObject({ line: 0, field: 'orderComponents[0].stackable', detail: { heightInches: 48, ratedHeightInches: 96 } });
    expect(check.priceAtStake!.atRiskPriceInCents).toBe(expectedAtRisk(shipment, check));
    const again = await call('GET', `/v1/shipper/shipment/${shipment.id}`);
    expect((again.json.warnings as Warning[]).map((item) => item.code)).toContain('NON_STACKABLE_HEIGHT');
  });

  it('the preview extension checks each item with what its request says of the lines', async () => {
    const item = (stackable: boolean) => ({
      request: { pickupAddress: SHIPPER, deliveryAddress: CONSIGNEE, orderComponents: [componentJson({ pallets: 1, weight: 400, dims: [48, 40, 48], desc: 'Cases', stackable })] },
    });
    const answer = await call('POST', '/v1/shipper/shipment-preview', { items: [item(true), item(false)] });
    expect(answer.status).toBe(200);
    const codes = (answer.json.items as Array<{ warnings: Warning[] }>).map((outcome) => outcome.warnings.map((warning) => warning.code));
    expect(codes[0]).not.toContain('NON_STACKABLE_HEIGHT');
    expect(codes[1]).toContain('NON_STACKABLE_HEIGHT');
  });

  it('refuses a stackable that is not true or false, on its path', async () => {
    const answer = await call('POST', '/v1/shipper/quote', { ...LANE, orderComponents: [{ ...componentJson({ pallets: 1, weight: 400, dims: [48, 40, 48] }), stackable: 'no' }] });
    expect(answer.status).toBe(400);
    expect(answer.json.violations).toEqual([{ field: 'orderComponents[0].stackable', reason: 'stackable is true or false' }]);
  });

  it('the OpenAPI document has the Warning component, warnings[] on Quote and Shipment, and stackable on a line', async () => {
    const document = (await (await fetch(`${base}/api-docs/shipper-v1`)).json()) as { components: { schemas: Record<string, any> } };
    const { schemas } = document.components;
    expect(schemas.Warning.properties).toHaveProperty('code');
    expect(schemas.Warning.properties).toHaveProperty('priceAtStake');
    expect(JSON.stringify(schemas.Quote.properties.warnings)).toContain('#/components/schemas/Warning');
    expect(JSON.stringify(schemas.Shipment.properties.warnings)).toContain('#/components/schemas/Warning');
    expect(schemas.OrderComponent.properties.stackable.type).toBe('boolean');
  });
});
