/** `shipper serve`'s HTTP layer around an engine, in the test's own process, on a free loopback port; JSON posted to it. */
import { afterAll, beforeAll } from 'vitest';
import { request } from 'undici';
import type { ShipperApi } from '../../src/api/types.js';
import { createShipperServer, type ShipperServer } from '../../src/server/server.js';

export interface JsonAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** Starts the server before the describe's tests and stops it after; `post(path, body)` answers the status and the JSON. */
export function serveInProcess(api: () => ShipperApi): { post: (path: string, body: unknown) => Promise<JsonAnswer> } {
  let server: ShipperServer;
  let base: string;
  beforeAll(async () => {
    server = createShipperServer({ api: api() });
    base = `http://127.0.0.1:${(await server.listen(0, '127.0.0.1')).port}`;
  });
  afterAll(() => server.close(100));
  return {
    post: async (path, body) => {
      const answer = await request(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: answer.statusCode, body: (await answer.body.json()) as Record<string, unknown> };
    },
  };
}
