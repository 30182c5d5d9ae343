/**
 * The request log's line, built without pino (src/server/requestLog.ts): it parses with every
 * field of issue 42 in pino's order, a path, a company id and a failure with quotes, line breaks
 * and non-ASCII escaped as JSON.stringify does, pino's own lines before and after it in order;
 * the pretty line. The spawned server's log (stderr, the asynchronous destination) is
 * test/server/production.test.ts.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { compose, exchangeOf, sendPlain } from '../../src/server/exchange.js';
import { createServeLogger, requestLogLayer } from '../../src/server/requestLog.js';

describe('the request line', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
  });

  /** A server with the request-log layer only; `answer` plays the dispatch. */
  async function logged(
    format: 'json' | 'pretty',
    answer: (req: IncomingMessage, res: ServerResponse) => void,
  ): Promise<{ url: string; output: string[]; logger: ReturnType<typeof createServeLogger>['logger'] }> {
    const output: string[] = [];
    const { logger } = createServeLogger({ format, level: 'info', write: (line) => output.push(line) });
    const { layer } = requestLogLayer(logger);
    server = createServer(compose([layer], answer));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, output, logger };
  }

  it("parses with issue 42's fields in pino's order, the path, principal and failure escaped where they need it", async () => {
    const { url, output, logger } = await logged('json', (req, res) => {
      const exchange = exchangeOf(req);
      exchange.operation = 'getQuote';
      exchange.principal = { companyId: 'comp-é"1', keyId: 'key-1', clientId: null };
      exchange.failure = 'store said: "no"\nnext line ±';
      sendPlain(req, res, 503, '{"status":503}', 'application/json');
    });
    logger.info({ event: 'listening' }, 'before');
    const response = await fetch(`${url}/v1/shipper/quote/%22q%C3%A9?token=abc&x=%22`, { headers: { 'x-request-id': 'trace-0001' } });
    expect(response.status).toBe(503);
    await response.text();
    await waitFor(() => output.length >= 2);
    logger.info({ event: 'stopped' }, 'after');
    expect(output).toHaveLength(3);
    const events = output.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events.map((line) => line.msg)).toEqual(['before', 'request', 'after']);
    const line = events[1]!;
    expect(Object.keys(line)).toEqual([
      'level',
      'time',
      'event',
      'reqId',
      'operation',
      'method',
      'path',
      'status',
      'durationMs',
      'bytes',
      'remoteAddress',
      'companyId',
      'keyId',
      'error',
      'msg',
    ]);
    expect(line).toMatchObject({
      level: 'error',
      event: 'request',
      reqId: 'trace-0001',
      operation: 'getQuote',
      method: 'GET',
      path: '/v1/shipper/quote/%22q%C3%A9?token=***&x=%22',
      status: 503,
      bytes: 14,
      remoteAddress: '127.0.0.1',
      companyId: 'comp-é"1',
      keyId: 'key-1',
      error: 'store said: "no"\nnext line ±',
    });
    expect(new Date(line.time as string).toISOString()).toBe(line.time);
    expect(line.durationMs).toBeGreaterThanOrEqual(0);
    expect(output[1]!.endsWith('}\n')).toBe(true);
    expect(output[1]!.split('\n')).toHaveLength(2);
    expect(output[1]).not.toContain('abc');
  });

  it('writes the human line in pretty format', async () => {
    const { url, output } = await logged('pretty', (req, res) => {
      exchangeOf(req).operation = 'healthz-like';
      sendPlain(req, res, 200, '{"ok":true}', 'application/json');
    });
    await (await fetch(`${url}/x`, { headers: { 'x-request-id': 'pretty-1' } })).text();
    await waitFor(() => output.length >= 1);
    expect(output[0]).toMatch(/^\d{4}-\d\d-\d\dT\S+Z pretty-1 127\.0\.0\.1 "GET \/x" 200 11 \d+\.\dms\n$/);
  });
});

/** Waits for the answer's 'close' to have logged (an event, polled each turn; the test's own timeout bounds it). */
async function waitFor(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setImmediate(resolve));
}
