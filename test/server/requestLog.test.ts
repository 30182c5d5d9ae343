/**
 * The request log's line as bytes (src/server/requestLog.ts): what the byte writer makes is what
 * JSON.stringify makes of the same values (escapes, non-ASCII, lone surrogates, numbers), a
 * request's line parses with every field of issue 42 in pino's order, and the lines come out
 * whole and in order, pino's own lines among them, however they are gathered. The spawned
 * server's log is test/server/production.test.ts.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { compose, exchangeOf, sendPlain } from '../../src/server/exchange.js';
import { createServeLogger, LineBytes, requestLogLayer } from '../../src/server/requestLog.js';

/** A LineBytes whose hand-overs are kept as text. */
function collected(gather: number): { lines: LineBytes; handed: string[] } {
  const handed: string[] = [];
  const lines = new LineBytes(gather, (bytes, length) => handed.push(bytes.toString('utf8', 0, length)));
  return { lines, handed };
}

describe('the byte writer of the request log', () => {
  it('writes each string as JSON.stringify does, the ASCII as it is and the rest escaped or UTF-8', () => {
    const texts = ['', 'plain-ascii_0123', 'a "quoted" \\ path', 'line\nbreak\ttab\u0000nul\u001f', 'déjà vu ±2 days', '日本語', 'emoji 🚚 truck', 'lone \ud800 surrogate', '\u007f del', 'x'.repeat(5000) + 'é'];
    for (const text of texts) {
      const { lines, handed } = collected(0);
      lines.room(text.length * 6 + 2);
      lines.string(text);
      lines.lineEnded();
      expect(handed).toEqual([JSON.stringify(text)]);
    }
  });

  it('writes whole numbers and hundredths of a millisecond as JSON prints Math.round(ms * 100) / 100', () => {
    const values = [0, 0.004, 0.005, 0.05, 0.1, 0.99, 0.994, 0.999, 1, 1.1, 1.25, 9.999, 10, 12.3456, 99.995, 100, 1234.5, 60000.01, 1e9 + 0.07];
    for (const ms of values) {
      const { lines, handed } = collected(0);
      lines.room(64);
      lines.hundredths(ms);
      lines.lineEnded();
      expect(handed, String(ms)).toEqual([JSON.stringify(Math.round(ms * 100) / 100)]);
    }
    for (const whole of [0, 7, 10, 200, 404, 1234567, 2 ** 53 - 1]) {
      const { lines, handed } = collected(0);
      lines.room(64);
      lines.integer(whole);
      lines.lineEnded();
      expect(handed).toEqual([String(whole)]);
    }
  });

  it('hands over once enough is gathered, in order, and what is left on handOver; a line larger than its buffer grows it', () => {
    const { lines, handed } = collected(100);
    lines.write('{"n":1}\n');
    expect(handed).toEqual([]);
    const long = `{"text":"${'y'.repeat(200_000)}"}\n`;
    lines.write(long);
    expect(handed).toEqual([`{"n":1}\n${long}`]);
    lines.write('{"n":2}\n');
    lines.handOver();
    lines.handOver();
    expect(handed).toEqual([`{"n":1}\n${long}`, '{"n":2}\n']);
  });
});

describe('the request line', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
  });

  /** A server with the request-log layer only; `answer` plays the dispatch. */
  async function logged(format: 'json' | 'pretty', answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; output: string[]; logger: ReturnType<typeof createServeLogger>['logger'] }> {
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
    expect(Object.keys(line)).toEqual(['level', 'time', 'event', 'reqId', 'operation', 'method', 'path', 'status', 'durationMs', 'bytes', 'remoteAddress', 'companyId', 'keyId', 'error', 'msg']);
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
