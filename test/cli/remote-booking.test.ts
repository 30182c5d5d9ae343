/**
 * Issue 20, item 18: remote mode when the answer to a booking is lost after the server booked it
 * (a connection cut off, a timeout). A real `shipper serve` behind a proxy in this process that
 * forwards the booking and then cuts the client off (or holds the answer back). The CLI (main()
 * in process, a client like any other to the server and the proxy) says the shipment may exist, how to check, and the key that makes a re-run safe; a retry that
 * the server answers from its idempotency record never says "--idempotency-key undefined".
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Shipment } from '../../src/domain/schemas.js';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inProcess.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';
import { withContact } from '../helpers/fixtures.js';

const NOW = '2026-11-24T15:00:00Z';
const SHIPPER = withContact('name=Acme DC,address1=2100 S Halsted St,city=Chicago,state=IL,zip=60608');
const CONSIGNEE = withContact('name=Store 12,address1=1 Penn Plaza,city=New York,state=NY,zip=10001');

type Behaviour = 'forward' | 'cut' | 'cut-once' | 'hold';

let dir: string;
let cleanup: () => Promise<void>;
let serve: ServeProcess;
let proxy: Server;
let proxyUrl: string;
let behaviour: Behaviour = 'forward';
let bookingsSeen = 0;

/** Forwards to the server; for a booking, then cuts the client off or holds the answer, as `behaviour` says. */
function forward(request: IncomingMessage, response: ServerResponse): void {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const target = new URL(request.url!, serve.url);
    const upstream = httpRequest(target, { method: request.method, headers: { ...request.headers, host: target.host } }, (answer) => {
      const body: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => body.push(chunk));
      answer.on('end', () => {
        const booking = request.method === 'POST' && target.pathname === '/v1/shipper/shipment';
        if (booking) bookingsSeen++;
        const cut = booking && (behaviour === 'cut' || (behaviour === 'cut-once' && bookingsSeen === 1));
        // Booked by the server; the client never hears of it.
        if (cut) return request.socket.destroy();
        if (booking && behaviour === 'hold') return; // the client times out first
        response.writeHead(answer.statusCode!, answer.headers);
        response.end(Buffer.concat(body));
      });
    });
    upstream.end(Buffer.concat(chunks));
  });
}

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('shipper-remote-booking-'));
  serve = await startServe({ store: join(dir, 'server'), env: { SHIPPER_NOW: NOW } });
  proxy = createServer(forward);
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
  await serve.stop();
  await cleanup();
});

const ship = (baseUrl: string, extra: string[], env: Record<string, string> = {}) =>
  runInProcess(
    [
      '--base-url',
      baseUrl,
      '--store',
      join(dir, 'client'),
      'ship',
      '--shipper',
      SHIPPER,
      '--consignee',
      CONSIGNEE,
      '-c',
      'pallets=1,weight=500,dims=48x40x48,desc=Parts',
      ...extra,
    ],
    {
      env: { SHIPPER_NOW: NOW, ...env },
    },
  );

async function withRef(ref: string): Promise<Shipment[]> {
  const response = await fetch(`${serve.url}/v1/shipper/shipment?refNumber=${encodeURIComponent(ref)}&limit=100`);
  return ((await response.json()) as Page<Shipment>).items;
}

describe('a booking whose answer is lost (remote mode)', () => {
  it('retried by the client and answered from the server’s record: booked once, said in words, never "undefined"', async () => {
    behaviour = 'cut-once';
    bookingsSeen = 0;
    const result = await ship(proxyUrl, ['--ref', 'PO-18A']);
    expect(result.code, result.stderr).toBe(0);
    expect(bookingsSeen).toBe(2);
    expect(result.stderr).not.toContain('undefined');
    expect(result.stderr).toContain('the server had booked this shipment on an earlier attempt whose answer was lost: this is that booking, nothing new was booked');
    expect(await withRef('PO-18A')).toHaveLength(1);
  });

  it('cut off on every attempt: exit 3, the shipment may exist, how to check, and the key that makes a re-run safe', async () => {
    behaviour = 'cut';
    const lost = await ship(proxyUrl, ['--ref', 'PO-18B'], { SHIPPER_RETRIES: '1' });
    expect(lost.code).toBe(3);
    expect(lost.stderr).toMatch(/broke off the connection during POST \/v1\/shipper\/shipment \(2 attempts\)/);
    expect(lost.stderr).not.toMatch(/range header|other side closed/i);
    expect(lost.stderr).toContain('The shipment may have been booked all the same: check with shipper shipment list --ref PO-18B');
    const key = /run the same command again with --idempotency-key (ship-[0-9a-f-]{36}): it books at most once/.exec(lost.stderr)?.[1];
    expect(key, lost.stderr).toBeDefined();
    // The server did book it, once (both attempts carried the same key).
    expect(await withRef('PO-18B')).toHaveLength(1);

    // The same command with the key: the booking already made, nothing new.
    const again = await ship(serve.url, ['--ref', 'PO-18B', '--idempotency-key', key!, '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(`already booked with --idempotency-key ${key}: nothing new was booked`);
    expect(JSON.parse(again.stdout).id).toBe((await withRef('PO-18B'))[0]!.id);
    expect(await withRef('PO-18B')).toHaveLength(1);
  });

  it('a timeout after sending says the same, with the user’s own key when given', async () => {
    behaviour = 'hold';
    const held = await ship(proxyUrl, ['--ref', 'PO-18C', '--idempotency-key', 'po-18c-try-1'], { SHIPPER_TIMEOUT_MS: '1000', SHIPPER_RETRIES: '0' });
    expect(held.code).toBe(3);
    expect(held.stderr).toMatch(/did not answer POST \/v1\/shipper\/shipment within 1 s/);
    expect(held.stderr).toContain('The shipment may have been booked all the same: check with shipper shipment list --ref PO-18C');
    expect(held.stderr).toContain('run the same command again (same --idempotency-key): it books at most once');
  });

  it('no connection at all (nothing was sent): no word of a booking that may exist (the boundary)', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refused = await ship(url, ['--ref', 'PO-18D'], { SHIPPER_RETRIES: '0' });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/connection refused/);
    expect(refused.stderr).not.toMatch(/may have been booked|idempotency-key/);
  });
});
