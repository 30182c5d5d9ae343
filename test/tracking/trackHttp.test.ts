/**
 * Tracking over HTTP (`shipper serve`'s server in process, on the local engine): GET and POST
 * /v1/shipper/shipment/{id}/events with their problems and the Idempotency-Key as for bookings,
 * trackingStatus on the shipment and the list filter; and the CLI in remote mode against it,
 * reading answers back through the operations' own schemas.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalApi } from '../../src/api/local.js';
import { shipmentSchema } from '../../src/domain/schemas.js';
import { shipmentTrackingSchema } from '../../src/domain/tracking.js';
import { shipmentEventsBatchResultSchema, shipmentEventsResultSchema } from '../../src/domain/trackingRequests.js';
import { createShipperServer, type ShipperServer } from '../../src/server/server.js';
import { tempDir } from '../helpers/cli.js';
import { PALLETS, PUBLISHED_PICKUP, PUBLISHED_NYC } from '../helpers/fixtures.js';
import { runInProcess } from '../helpers/inProcess.js';

const agent = new Agent({ keepAliveTimeout: 1000 });
const clock = { now: new Date('2026-11-23T15:00:00Z') };
let server: ShipperServer;
let base: string;
let cleanup: () => Promise<void>;
let shipmentId: string;

async function call(method: 'GET' | 'POST' | 'PUT' | 'PATCH', path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await request(`${base}${path}`, {
    dispatcher: agent,
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.body.text();
  return {
    status: response.statusCode,
    headers: response.headers,
    json: () => JSON.parse(text) as Record<string, unknown> & { violations?: Array<{ field: string; reason: string }> },
  };
}

const events = (id = shipmentId) => `/v1/shipper/shipment/${id}/events`;

beforeAll(async () => {
  const temp = await tempDir('shipper-track-http-');
  cleanup = temp.cleanup;
  server = createShipperServer({ api: new LocalApi({ storeDir: temp.dir, now: () => clock.now }) });
  base = `http://127.0.0.1:${(await server.listen(0, '127.0.0.1')).port}`;
  const booked = await call('POST', '/v1/shipper/shipment', {
    refNumber: 'PO-4471',
    pickupAddress: PUBLISHED_PICKUP,
    deliveryAddress: PUBLISHED_NYC,
    orderComponents: [PALLETS],
    carrier: { name: 'Old Dominion', scac: 'ODFL' },
    proNumber: '1234567897',
  });
  expect(booked.status).toBe(200);
  shipmentId = shipmentSchema.parse(booked.json()).id;
  clock.now = new Date('2026-11-30T18:00:00Z');
});

afterAll(async () => {
  await server.close(100);
  await agent.close();
  await cleanup();
});

describe('POST and GET /v1/shipper/shipment/{id}/events', () => {
  it('records events, maps codes to milestones, answers the tracking; the shipment carries trackingStatus', async () => {
    const posted = await call('POST', events(), {
      events: [
        { occurredAt: '2026-11-24T14:10:00-06:00', statusCode: 'AF', place: { city: 'Chicago', state: 'IL', zipCode: '60608' }, source: 'x12-214' },
        { occurredAt: '2026-11-30T07:15:00-05:00', statusCode: 'X6', place: { city: 'New York', state: 'NY' }, timeZone: 'America/New_York' },
        { occurredAt: '2026-11-25T06:00:00-05:00', milestone: 'ESTIMATE', estimatedDeliveryAt: '2026-11-30T12:00:00-05:00', note: 'carrier ETA' },
      ],
    });
    expect(posted.status).toBe(200);
    const result = shipmentEventsResultSchema.parse(posted.json());
    expect(result.added.map((event) => [event.statusCode, event.milestone, event.occurredAt, event.timeZone, event.source])).toEqual([
      ['AF', 'PICKED_UP', '2026-11-24T20:10:00.000Z', 'America/Chicago', 'x12-214'],
      ['X6', 'OUT_FOR_DELIVERY', '2026-11-30T12:15:00.000Z', 'America/New_York', 'api'],
      [null, 'ESTIMATE', '2026-11-25T11:00:00.000Z', null, 'api'],
    ]);
    expect(result).toMatchObject({ duplicates: 0, tracking: { trackingStatus: 'OUT_FOR_DELIVERY', carrierEstimatedDeliveryDate: '2026-11-30T17:00:00.000Z' } });

    const got = await call('GET', events());
    expect(got.status).toBe(200);
    const tracking = shipmentTrackingSchema.parse(got.json());
    expect(tracking.events.map((event) => event.statusCode)).toEqual(['AF', null, 'X6']);
    expect(tracking.punctuality).toMatchObject({ status: 'ON_TIME', basis: 'CARRIER_ETA', promisedDate: '2026-11-30' });
    const shipment = shipmentSchema.parse((await call('GET', `/v1/shipper/shipment/${shipmentId}`)).json());
    expect(shipment).toMatchObject({ trackingStatus: 'OUT_FOR_DELIVERY', carrierEstimatedDeliveryDate: '2026-11-30T17:00:00.000Z', deliveredAt: null });
    const list = (await call('GET', '/v1/shipper/shipment?tracking=in-transit')).json() as { items: Array<{ id: string }> };
    expect(list.items.map((item) => item.id)).toEqual([shipmentId]);
    expect(((await call('GET', '/v1/shipper/shipment?tracking=delivered')).json() as { items: unknown[] }).items).toEqual([]);
  });

  it('an event sent again is dropped; an older event arriving later does not demote the status', async () => {
    const again = await call('POST', events(), { events: [{ occurredAt: '2026-11-30T12:15:00Z', statusCode: 'X6', place: { city: 'New York', state: 'NY' } }] });
    expect(shipmentEventsResultSchema.parse(again.json())).toMatchObject({ added: [], duplicates: 1 });
    const older = await call('POST', events(), { events: [{ occurredAt: '2026-11-25T02:05:00-05:00', statusCode: 'X4', place: { city: 'Columbus', state: 'OH' } }] });
    expect(shipmentEventsResultSchema.parse(older.json()).tracking.trackingStatus).toBe('OUT_FOR_DELIVERY');
  });

  it('Idempotency-Key: the same key and body answer the same events (replayed), another body is a 409 idempotency_key_conflict', async () => {
    const body = { events: [{ occurredAt: '2026-11-30T10:02:00-05:00', statusCode: 'X1', note: 'at the dock' }] };
    const first = await call('POST', events(), body, { 'idempotency-key': 'x1-at-dock' });
    expect(first.status).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const firstAdded = shipmentEventsResultSchema.parse(first.json()).added;
    expect(firstAdded).toHaveLength(1);
    const replay = await call('POST', events(), body, { 'idempotency-key': 'x1-at-dock' });
    expect(replay.status).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(shipmentEventsResultSchema.parse(replay.json()).added.map((event) => event.id)).toEqual(firstAdded.map((event) => event.id));
    const other = await call('POST', events(), { events: [{ occurredAt: '2026-11-30T10:03:00-05:00', statusCode: 'X1' }] }, { 'idempotency-key': 'x1-at-dock' });
    expect(other.status).toBe(409);
    expect(other.json()).toMatchObject({ reason: 'idempotency_key_conflict' });
  });

  it('refuses DELIVERED on a client word, events 2 hours ahead, times without an offset, unknown fields: 400 with every violation', async () => {
    const answer = await call('POST', events(), {
      events: [
        { occurredAt: '2026-11-30T10:45:00-05:00', milestone: 'DELIVERED' },
        { occurredAt: '2026-11-30T20:01:00Z', statusCode: 'X6' },
        { occurredAt: '2026-11-30T10:45:00', statusCode: 'D1' },
        { occurredAt: '2026-11-30T10:45:00Z', statusCode: 'D1', signedBy: 'J. Doe' },
        { occurredAt: '2026-11-30T10:45:00Z' },
      ],
    });
    expect(answer.status).toBe(400);
    expect(answer.json().violations!.map((violation) => violation.field)).toEqual(['events[2].occurredAt', 'events[3].signedBy', 'events[4].statusCode']);
    // The schema's violations first; the rules that need the shipment come once the request is well-formed.
    const rules = await call('POST', events(), {
      events: [
        { occurredAt: '2026-11-30T10:45:00-05:00', milestone: 'DELIVERED' },
        { occurredAt: '2026-11-30T20:01:00Z', statusCode: 'X6' },
      ],
    });
    expect(rules.status).toBe(400);
    expect(rules.json().violations).toEqual([
      { field: 'events[0].milestone', reason: 'DELIVERED comes only from the carrier: statusCode D1 (X12 AT7, completed unloading) or the ITV Delivered milestone' },
      {
        field: 'events[1].occurredAt',
        reason: "2026-11-30T20:01:00Z is more than 2 hours ahead of the clock (2026-11-30T18:00:00.000Z): the carrier's clock or time zone is wrong",
      },
    ]);
    expect((await call('GET', events())).json()).toMatchObject({ trackingStatus: 'AT_DELIVERY' });
  });

  it('404 for an unknown shipment, 409 for a cancelled one', async () => {
    expect((await call('GET', events('sh_01JD3Y7T9Q2W5E8R1T4Y7U0I3Z'))).status).toBe(404);
    expect((await call('POST', events('nope'), { events: [{ occurredAt: '2026-11-30T10:45:00Z', statusCode: 'X6' }] })).status).toBe(404);
    const other = shipmentSchema.parse(
      (await call('POST', '/v1/shipper/shipment', { pickupAddress: PUBLISHED_PICKUP, deliveryAddress: PUBLISHED_NYC, orderComponents: [PALLETS] })).json(),
    );
    expect((await call('PUT', `/v1/shipper/shipment/${other.id}/cancel`)).status).toBe(200);
    const refused = await call('POST', events(other.id), { events: [{ occurredAt: '2026-11-30T10:45:00Z', statusCode: 'X6' }] });
    expect(refused.status).toBe(409);
    expect(refused.json().detail).toMatch(/cancelled: it takes no tracking events/);
  });
});

describe('POST /v1/shipper/shipment-events (many shipments, one unit of work)', () => {
  it('answers each item as a single POST would: recorded, not found, a violation', async () => {
    const answer = await call('POST', '/v1/shipper/shipment-events', {
      items: [
        { shipmentId, events: [{ occurredAt: '2026-11-30T09:40:00-05:00', statusCode: 'AJ' }] },
        { shipmentId: 'sh_01JD3Y7T9Q2W5E8R1T4Y7U0I3Z', events: [{ occurredAt: '2026-11-30T10:40:00Z', statusCode: 'X6' }] },
        { shipmentId, events: [{ occurredAt: '2026-11-30T23:59:00Z', statusCode: 'X6' }] },
      ],
    });
    expect(answer.status).toBe(200);
    const { items } = shipmentEventsBatchResultSchema.parse(answer.json());
    expect(items.map((item) => (item.ok ? ['ok', item.added.map((event) => event.milestone), item.trackingStatus] : ['problem', item.problem.status]))).toEqual([
      ['ok', ['OUT_FOR_DELIVERY'], 'AT_DELIVERY'],
      ['problem', 404],
      ['problem', 400],
    ]);
    expect((await call('POST', '/v1/shipper/shipment-events', { items: [] })).status).toBe(400);
  });
});

describe('remote mode: the CLI against the server', () => {
  it('track import sends the carrier messages to the server, and track reads the timeline back', async () => {
    const fixture = fileURLToPath(new URL('fixtures/odfl-214-b.edi', import.meta.url));
    const env = { SHIPPER_NOW: '2026-11-30T18:00:00Z', SHIPPER_CONFIG_DIR: join(fixture, '..', 'no-config') };
    const imported = await runInProcess(['--base-url', base, '--json', 'track', 'import', fixture], { env });
    expect(imported.code).toBe(1);
    expect(JSON.parse(imported.stdout)).toMatchObject({ messages: 4, added: 2, duplicates: 1, unmatched: [{ keys: 'PRO 9999999999 (ODFL), reference SOMETHING-ELSE' }] });
    const tracked = await runInProcess(['--base-url', base, 'track', '--pro', '1234567897'], { env });
    expect(tracked.code).toBe(0);
    expect(tracked.stdout).toContain('Tracking:     DELIVERED  D1 Delivered (unloading completed), NEW YORK, NY, Mon 2026-11-30 10:45 EST');
    const shipment = shipmentSchema.parse((await call('GET', `/v1/shipper/shipment/${shipmentId}`)).json());
    expect(shipment).toMatchObject({ trackingStatus: 'DELIVERED', deliveredAt: '2026-11-30T15:45:00.000Z' });
  });
});
