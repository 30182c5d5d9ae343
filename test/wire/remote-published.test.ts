/**
 * Remote mode as a client of the published service (issue 40, item 5): every CLI command that has
 * a published operation runs as a spawned `bin/shipper.js` against a mock of the published
 * document (openapi-backend validates each request; the answers are the document's examples), with
 * SHIPPER_SERVICE=published, as for Oway's own hosts. Every request must validate, carry an
 * x-request-id (POSTs an Idempotency-Key), and the command must print what the mock answered.
 * Commands the published document lacks, and a quote from ZIP codes alone, are refused before
 * anything is sent.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { RemoteApi } from '../../src/api/remote.js';
import { startPublishedMock, type PublishedServer } from '../helpers/publishedMock.js';
import { shipmentsCsv } from '../helpers/csv.js';
import { writeFile } from 'node:fs/promises';

let server: PublishedServer;
let home: { dir: string; cleanup: () => Promise<void> };

beforeAll(async () => {
  // The service creates an order INITIALIZED (its example of the create's answer is a CONFIRMED one).
  server = await startPublishedMock({ amend: { createShipment: (example) => ({ ...(example as object), orderStatus: 'INITIALIZED' }) } });
  home = await tempDir();
});
afterAll(async () => {
  await server.close();
  await home.cleanup();
});
beforeEach(() => {
  server.requests.length = 0;
});

const env = () => ({
  SHIPPER_CLIENT_ID: 'client',
  SHIPPER_CLIENT_SECRET: 'secret',
  SHIPPER_API_KEY: 'oway_sk_test_remote',
  SHIPPER_SERVICE: 'published',
  SHIPPER_CONFIG_DIR: `${home.dir}/config`,
  SHIPPER_STORE: `${home.dir}/store`,
});
const cli = (args: string[]) => runCli(['--base-url', server.url, ...args], { env: env() });

const SHIPPER = 'name=Acme DC,address1=2100 S Halsted St,city=Chicago,state=IL,zip=60608,contact=Ann Lee,phone=+13125550100';
// A phone as people type it: sent as E.164, which the published pattern requires (every request is validated).
const CONSIGNEE = 'name=Store 12,address1=1 Penn Plaza,city=New York,state=NY,zip=10001,contact=Bo Diaz,phone=(212) 555-0100';
const COMPONENT = 'pallets=2,weight=1200,dims=48x40x48,desc=Machine parts';

/** The published operations the mock matched, in order, after the token request(s). */
const operationsSent = () => server.requests.filter((request) => request.operationId !== 'getToken').map((request) => `${request.method} ${request.operationId}`);

function expectEveryRequestValid(): void {
  expect(server.requests.length).toBeGreaterThan(0);
  for (const request of server.requests) {
    expect(request.requestErrors, `${request.method} ${request.path}`).toEqual([]);
    expect(request.operationId).not.toBeNull();
    expect(request.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  }
}

const QUOTE_FIELDS = /507f1f77bcf86cd799439013[\s\S]*quotedPriceInCents\s+\$1,250\.00[\s\S]*transitDays\s+2/;
const SHIPMENT_FIELDS = /ZKYQ5[\s\S]*orderStatus\s+CONFIRMED[\s\S]*totalPriceInCents\s+\$1,250\.00/;

describe('remote mode against the published document', () => {
  it('quotes from a saved location to an address given as flags', async () => {
    const add = await runCli(
      [
        'location',
        'add',
        'chicago-dc',
        '--name',
        'Acme DC',
        '--street1',
        '2100 S Halsted St',
        '--city',
        'Chicago',
        '--state',
        'IL',
        '--zip',
        '60608',
        '--contact',
        'Ann Lee',
        '--phone',
        '+13125550100',
      ],
      { env: env() },
    );
    expect(add.stderr).toBe('');
    expect(add.code).toBe(0);

    const result = await cli(['quote', '--from', 'chicago-dc', '--to', CONSIGNEE, '-c', COMPONENT]);
    expect(result.stderr).toContain('not shown: ');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(QUOTE_FIELDS);
    expectEveryRequestValid();
    expect(operationsSent()).toEqual(['POST requestQuote']);
    const sent = server.requests.find((request) => request.operationId === 'requestQuote')!;
    expect(sent.headers['idempotency-key']).toBeTruthy();
  });

  it('quotes between two addresses given as flags, with --json the answer as it came', async () => {
    const result = await cli(['quote', '--from', SHIPPER, '--to', CONSIGNEE, '-c', COMPONENT, '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ id: '507f1f77bcf86cd799439013', quotedPriceInCents: 125000, transitDays: 2, estimatedDeliveryDate: '2024-12-22T15:30:00Z' });
    // What shipper's own view would show and the published answer lacks is named, not invented.
    expect(result.stderr).toMatch(/published fields only; not shown: .*pickupAddress.*priceBreakdown/);
    expectEveryRequestValid();
    expect(operationsSent()).toEqual(['POST requestQuote']);
  });

  it('refuses a quote from ZIP codes alone, naming the fields the service needs, and sends nothing', async () => {
    const result = await cli(['quote', '--from', '60601', '--to', '10001', '-c', COMPONENT]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--from lacks name, address1, city, state, contactPerson, phoneNumber; --to lacks name, address1, city, state, contactPerson, phoneNumber');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(server.requests).toEqual([]);
  });

  it('refuses a quote with one full address and one ZIP, naming the stop that lacks', async () => {
    const result = await cli(['quote', '--from', SHIPPER, '--to', '10001', '-c', COMPONENT]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--to lacks name, address1');
    expect(result.stderr).not.toContain('--from lacks');
    expect(server.requests).toEqual([]);
  });

  it('gets a quote', async () => {
    const result = await cli(['quote', 'get', '507f1f77bcf86cd799439013']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(QUOTE_FIELDS);
    expectEveryRequestValid();
    expect(operationsSent()).toEqual(['GET getQuote']);
  });

  it('books with ship: create with an Idempotency-Key and the description the published create requires, then confirm', async () => {
    const result = await cli(['ship', '--quote', '507f1f77bcf86cd799439013', '--shipper', SHIPPER, '--consignee', CONSIGNEE, '-c', COMPONENT]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Confirmed shipment ZKYQ5/);
    expect(result.stdout).toMatch(SHIPMENT_FIELDS);
    expectEveryRequestValid();
    const sent = server.requests.filter((request) => request.operationId !== 'getToken');
    expect(sent[0]).toMatchObject({ method: 'GET', operationId: 'getQuote' });
    const create = sent.find((request) => request.operationId === 'createShipment')!;
    expect(create.headers['idempotency-key']).toMatch(/^ship-/);
    // Created INITIALIZED, so confirmed with the published PUT, by its order number, after the create.
    expect(operationsSent()).toEqual(['GET getQuote', 'POST createShipment', 'PUT confirmShipment']);
    expect(sent.find((request) => request.operationId === 'confirmShipment')!.path).toBe('/v1/shipper/shipment/ZKYQ5/confirm');
  });

  it('ship --no-confirm creates it and stops: INITIALIZED, nothing confirmed, and how to confirm it', async () => {
    const result = await cli(['ship', '--quote', '507f1f77bcf86cd799439013', '--shipper', SHIPPER, '--consignee', CONSIGNEE, '-c', COMPONENT, '--no-confirm']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Created shipment \(INITIALIZED\) ZKYQ5/);
    expect(result.stdout).toContain('shipper shipment confirm ZKYQ5');
    expectEveryRequestValid();
    expect(operationsSent()).toEqual(['GET getQuote', 'POST createShipment']);
  });

  it('a confirm the service refuses after the create: exit 1, the order was created and left INITIALIZED, with the service’s violations', async () => {
    const initialized = (example: unknown) => ({ ...(example as object), orderStatus: 'INITIALIZED' });
    const refusing = await startPublishedMock({
      amend: { createShipment: initialized, getShipment: initialized },
      refuse: {
        confirmShipment: {
          status: 400,
          title: 'Bad Request',
          detail: 'confirm checks failed',
          reason: 'validation_error',
          violations: [{ field: 'pickupAddress.openTime', reason: 'the dock is closed on the pickup day' }],
        },
      },
    });
    try {
      const result = await runCli(['--base-url', refusing.url, 'ship', '--quote', '507f1f77bcf86cd799439013', '--shipper', SHIPPER, '--consignee', CONSIGNEE, '-c', COMPONENT], {
        env: env(),
      });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(
        'ZKYQ5 was created and left INITIALIZED: its confirm was refused (pickupAddress.openTime: the dock is closed on the pickup day); once that is put right, confirm it with shipper shipment confirm ZKYQ5, or cancel it with shipper shipment cancel ZKYQ5',
      );
      expect(refusing.requests.filter((request) => request.operationId !== 'getToken').map((request) => request.operationId)).toEqual([
        'getQuote',
        'createShipment',
        'confirmShipment',
        // Read to see whether it was confirmed all the same (a replayed create): it was not.
        'getShipment',
      ]);
    } finally {
      await refusing.close();
    }
  });

  it('a batch asked to confirm (import) sends one published create and then one confirm per order; a refused confirm is a NOT_CONFIRMED warning', async () => {
    const api = publishedClient(server.url);
    const request = {
      quoteId: '507f1f77bcf86cd799439013',
      ...publishedStops('+13125550100', '+12125550100'),
      orderComponents: [{ palletCount: 2, poundsWeight: 1200, dimensions: { length: 48, width: 40, height: 48 }, description: 'Machine parts' }],
    };
    const { data } = await api.createShipments({
      items: [
        { request, confirm: true },
        { request, confirm: true },
      ],
    });
    expect(data.items.map((item) => item.ok && item.data.orderStatus)).toEqual(['CONFIRMED', 'CONFIRMED']);
    expectEveryRequestValid();
    const writes = operationsSent().filter((operation) => !operation.startsWith('GET'));
    expect(writes.filter((operation) => operation === 'POST createShipment')).toHaveLength(2);
    expect(writes.filter((operation) => operation === 'PUT confirmShipment')).toHaveLength(2);
    // Each confirm after its own create (they run side by side).
    expect(writes.indexOf('PUT confirmShipment')).toBeGreaterThan(writes.indexOf('POST createShipment'));

    const initialized = (example: unknown) => ({ ...(example as object), orderStatus: 'INITIALIZED' });
    const refusing = await startPublishedMock({
      amend: { createShipment: initialized, getShipment: initialized },
      refuse: {
        confirmShipment: { status: 400, title: 'Bad Request', detail: 'confirm checks failed', violations: [{ field: 'description', reason: 'description is required' }] },
      },
    });
    try {
      const other = publishedClient(refusing.url);
      const [outcome] = (await other.createShipments({ items: [{ request, confirm: true }] })).data.items;
      expect(outcome).toMatchObject({ ok: true, data: { orderNumber: 'ZKYQ5', orderStatus: 'INITIALIZED' } });
      if (!outcome?.ok) throw new Error('created above');
      expect(outcome.warnings).toEqual([
        expect.objectContaining({ code: 'NOT_CONFIRMED', message: expect.stringContaining('ZKYQ5 was created INITIALIZED, not confirmed: it lacks description') }),
      ]);
    } finally {
      await refusing.close();
    }
  });

  it('imports a file: each order checked on the published quote with its whole stops, then created and confirmed; every request valid', async () => {
    const file = `${home.dir}/orders.csv`;
    await writeFile(file, shipmentsCsv(2, 2, 'PO', { contacts: true }));
    const result = await cli(['--json', 'import', file]);
    expect(result.code, result.stderr).toBe(0);
    expectEveryRequestValid();
    const operations = operationsSent();
    expect(operations.filter((operation) => operation === 'POST requestQuote')).toHaveLength(2);
    expect(operations.filter((operation) => operation === 'POST createShipment')).toHaveLength(2);
    expect(operations.filter((operation) => operation === 'PUT confirmShipment')).toHaveLength(2);
    // The check's quote carries the stops whole, as the file gives them (the phone as E.164).
    const quote = server.requests.find((request) => request.operationId === 'requestQuote')!;
    expect(JSON.parse(quote.body)).toMatchObject({
      pickupAddress: { contactPerson: 'Dana Ruiz', phoneNumber: '+13125550100' },
      deliveryAddress: { contactPerson: 'Lee Chen', phoneNumber: '+12125550188' },
    });
  });

  it('a dry run checks each order on the published quote, creates nothing, and says what the confirm would find', async () => {
    const file = `${home.dir}/dry.csv`;
    await writeFile(file, shipmentsCsv(2, 1, 'DR', { contacts: true }));
    const result = await cli(['--json', 'import', file, '--dry-run']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout), result.stdout + result.stderr).toMatchObject({ summary: { valid: 2, confirmed: 2, initialized: 0 } });
    expectEveryRequestValid();
    expect(operationsSent().filter((operation) => !operation.startsWith('GET'))).toEqual(['POST requestQuote', 'POST requestQuote']);

    // An order whose lines say nothing of what they hold: the published confirm needs a description.
    const api = publishedClient(server.url);
    const request = {
      ...publishedStops('312-555-0100', '212-555-0100'),
      orderComponents: [{ palletCount: 2, poundsWeight: 1200, dimensions: { length: 48, width: 40, height: 48 } }],
    };
    const { data } = await api.previewShipments({ items: [{ request, confirm: true }, { request }] });
    const [asked, notAsked] = data.items;
    expect(asked?.ok && asked.warnings.map((warning) => [warning.code, warning.detail?.fields])).toEqual([['NOT_CONFIRMED', 'description']]);
    expect(notAsked?.ok && notAsked.warnings.map((warning) => warning.code)).toEqual([]);
  });

  it('refuses to import, sending nothing, a file whose orders lack the contacts and phones the published create requires', async () => {
    const file = `${home.dir}/no-contacts.csv`;
    await writeFile(file, shipmentsCsv(2, 1, 'NC'));
    const result = await cli(['import', file]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/pickupAddress\.contactPerson/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(operationsSent()).toEqual([]);
  });

  it('gets, confirms and cancels a shipment by its order number', async () => {
    const get = await cli(['shipment', 'get', 'ZKYQ5']);
    expect(get.code).toBe(0);
    expect(get.stdout).toMatch(SHIPMENT_FIELDS);
    const json = await cli(['shipment', 'get', 'ZKYQ5', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ orderNumber: 'ZKYQ5', orderStatus: 'CONFIRMED', totalPriceInCents: 125000, companyId: '67c0dfa95bff090747660465' });
    const confirm = await cli(['shipment', 'confirm', 'ZKYQ5']);
    expect(confirm.code).toBe(0);
    expect(confirm.stdout).toMatch(/^Confirmed shipment ZKYQ5/);
    expect(confirm.stdout).toMatch(SHIPMENT_FIELDS);
    const cancel = await cli(['shipment', 'cancel', 'ZKYQ5']);
    expect(cancel.code).toBe(0);
    expect(cancel.stdout).toMatch(/^Cancelled shipment ZKYQ5/);
    expectEveryRequestValid();
    expect(operationsSent()).toEqual(['GET getShipment', 'GET getShipment', 'PUT confirmShipment', 'GET getShipment', 'PUT cancelShipment']);
  });

  it('tracks with the published tracking', async () => {
    const result = await cli(['track', 'ZKYQ5']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Tracking ZKYQ5[\s\S]*orderStatus\s+PICKED_UP[\s\S]*actualPickupDate\s+2024-12-23T10:30:00Z[\s\S]*estimatedDeliveryDate\s+2024-12-25T12:00:00Z/);
    expect(result.stderr).toContain('not shown: trackingStatus');
    expectEveryRequestValid();
    expect(operationsSent()).toEqual(['GET trackShipment']);
  });

  it.each([
    ['transit', ['transit', '--from', '60601', '--to', '10001'], 'POST /v1/shipper/transit'],
    ['shipment list', ['shipment', 'list'], 'GET /v1/shipper/shipment'],
    ['quote list', ['quote', 'list'], 'GET /v1/shipper/quote'],
    ['tender', ['tender', 'ZKYQ5', '--format', 'x12-204', '-o', '-'], '/v1/shipper/shipment/{'],
  ])('refuses %s, an extension, before sending anything', async (_name, args, path) => {
    const result = await cli(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('speaks the Oway Shipper API as published, which has no');
    expect(result.stderr).toContain(path);
    expect(result.stderr).toContain('an extension of shipper serve; nothing was sent');
    expect(server.requests.filter((request) => request.operationId !== 'getToken')).toEqual([]);
  });
});

/** A client of Oway's service (the published wire only) at `baseUrl`, with a fixed token and no retries. */
function publishedClient(baseUrl: string): RemoteApi {
  return new RemoteApi({ baseUrl, apiKey: 'oway_sk_test_remote', token: { get: async () => 'token', refresh: async () => 'token' }, publishedOnly: true, retries: 0 });
}

/** Whole published stops, Chicago to New York, with the phones as given. */
function publishedStops(pickupPhone: string, deliveryPhone: string) {
  return {
    pickupAddress: { name: 'Acme DC', address1: '2100 S Halsted St', city: 'Chicago', state: 'IL', zipCode: '60608', contactPerson: 'Ann Lee', phoneNumber: pickupPhone },
    deliveryAddress: { name: 'Store 12', address1: '1 Penn Plaza', city: 'New York', state: 'NY', zipCode: '10001', contactPerson: 'Bo Diaz', phoneNumber: deliveryPhone },
  };
}
