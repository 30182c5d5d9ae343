/** ServeAuth in process: the key and company attached to an authenticated request (what issue 41 item 2 scopes records by). */
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { newApiKey, newClient } from '../../src/auth/secrets.js';
import type { CredentialRecord } from '../../src/domain/credentials.js';
import { principalOf, ServeAuth } from '../../src/server/auth.js';
import type { CredentialRepository } from '../../src/store/ports.js';

function memoryCredentials(records: CredentialRecord[]): CredentialRepository {
  let secret: string | undefined;
  const failures = new Map<string, number[]>();
  return {
    get: async (id) => records.find((record) => record.id === id),
    add: async (record) => void records.push(record),
    list: async () => [...records],
    revoke: async () => undefined,
    signingSecret: async (candidate) => (secret ??= candidate),
    addFailure: async (bucket, at) => void failures.set(bucket, [...(failures.get(bucket) ?? []), at]),
    failures: async (bucket, since) => (failures.get(bucket) ?? []).filter((at) => at >= since),
  };
}

const request = (headers: Record<string, string>) => ({ headers, socket: { remoteAddress: '127.0.0.1' } }) as unknown as IncomingMessage;

describe('ServeAuth', () => {
  const now = new Date('2026-11-23T15:00:00Z');
  it('attaches the key and its company to an authenticated request, and nothing to a refused one', async () => {
    const client = newClient('Acme', now);
    const key = newApiKey('acme', false, now);
    const auth = new ServeAuth({ credentials: memoryCredentials([client.record, key.record]), now: () => now.getTime() });
    const issued = await auth.issueToken({ clientId: client.clientId, clientSecret: client.clientSecret }, request({}));
    const { accessToken } = issued.json as { accessToken: string };
    const ok = request({ authorization: `Bearer ${accessToken}`, 'x-oway-api-key': key.apiKey });
    expect(await auth.authenticate(ok)).toMatchObject({ ok: true });
    expect(principalOf(ok)).toEqual({ companyId: 'acme', keyId: key.record.id, clientId: client.clientId });
    const refused = request({ authorization: `Bearer ${accessToken}` });
    expect(await auth.authenticate(refused)).toMatchObject({ ok: false, status: 403 });
    expect(principalOf(refused)).toBeUndefined();
  });

  it('puts calls of an open sandbox and of serve --api-key in the default company', async () => {
    const open = new ServeAuth({ credentials: memoryCredentials([]), now: () => now.getTime() });
    const anonymous = request({});
    expect(await open.authenticate(anonymous)).toMatchObject({ ok: true });
    expect(principalOf(anonymous)).toEqual({ companyId: 'default', keyId: null, clientId: null });
    const legacy = new ServeAuth({ credentials: memoryCredentials([]), legacyKey: 'legacy-key-0001', now: () => now.getTime() });
    expect(await legacy.authenticate(request({}))).toMatchObject({ ok: false, status: 401 });
    const withKey = request({ authorization: 'Bearer legacy-key-0001' });
    expect(await legacy.authenticate(withKey)).toMatchObject({ ok: true });
    expect(principalOf(withKey)?.companyId).toBe('default');
  });

  it('answers an open sandbox at once when the store tells it is empty, and checks again once it is not', async () => {
    const records: CredentialRecord[] = [];
    const credentials = { ...memoryCredentials(records), emptyNow: () => records.length === 0 };
    const auth = new ServeAuth({ credentials, now: () => now.getTime() });
    const anonymous = request({});
    const outcome = auth.authenticate(anonymous);
    expect(outcome).not.toBeInstanceOf(Promise);
    expect(outcome).toMatchObject({ ok: true });
    expect(principalOf(anonymous)).toEqual({ companyId: 'default', keyId: null, clientId: null });
    // Another process adds a key: the next call is checked, and refused without credentials.
    records.push(newApiKey('acme', false, now).record);
    const next = auth.authenticate(request({}));
    expect(next).toBeInstanceOf(Promise);
    expect(await next).toMatchObject({ ok: false, status: 401 });
    // The store closed for good: even a store that says empty again is not asked.
    records.length = 0;
    expect(auth.authenticate(request({}))).toBeInstanceOf(Promise);
  });
});
