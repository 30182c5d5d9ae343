/** Two-layer credentials of a company on a running `shipper serve` (issue 41), and calls made with them. */
import { expect } from 'vitest';
import { runInProcess } from './inProcess.js';
import type { ServeProcess } from './serve.js';

export interface Company {
  keyId: string;
  headers: Record<string, string>;
}

export async function cli(store: string, args: string[], now: string) {
  return runInProcess(['--store', store, ...args], { env: { SHIPPER_NOW: now } });
}

/** A client and a key of `company`, and the headers of its calls (a token bought with the client). */
export async function company(store: string, server: ServeProcess, name: string, now: string): Promise<Company> {
  const client = await cli(store, ['credentials', 'add-client', `${name} integration`, '--json'], now);
  expect(client.code, client.stderr).toBe(0);
  const key = await cli(store, ['credentials', 'add-key', name, '--json'], now);
  expect(key.code, key.stderr).toBe(0);
  const { clientId, clientSecret } = JSON.parse(client.stdout) as { clientId: string; clientSecret: string };
  const { apiKey, id } = JSON.parse(key.stdout) as { apiKey: string; id: string };
  const response = await fetch(`${server.url}/v1/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clientId, clientSecret }),
  });
  expect(response.status).toBe(200);
  const { accessToken } = (await response.json()) as { accessToken: string };
  return { keyId: id, headers: { authorization: `Bearer ${accessToken}`, 'x-oway-api-key': apiKey } };
}

export interface Answer {
  status: number;
  text: string;
  json: () => Record<string, unknown>;
}

export async function call(server: ServeProcess, who: Company, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...who.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, text, json: () => JSON.parse(text) as Record<string, unknown> };
}
