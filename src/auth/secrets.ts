/**
 * Issuing credentials (issue 41): client ids and secrets, API keys and their records, with the
 * randomness and hashing the pure rules (domain/credentials.ts) leave to the shell. A secret is
 * 256 random bits, so its SHA-256 is all the store keeps: no slow hash is needed to protect it.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ulid } from 'ulid';
import type { CredentialRecord } from '../domain/credentials.js';

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Whether `secret` hashes to `hash`, compared in constant time (a missing record compares against a dummy). */
export function matchesHash(secret: string, hash: string | undefined): boolean {
  const presented = createHash('sha256').update(secret, 'utf8').digest();
  const expected = hash && /^[0-9a-f]{64}$/.test(hash) ? Buffer.from(hash, 'hex') : Buffer.alloc(32, 0xff);
  return timingSafeEqual(presented, expected) && hash !== undefined;
}

const random = () => randomBytes(32).toString('base64url');

/** A new signing secret for the store's tokens. */
export function newSigningSecret(): string {
  return randomBytes(48).toString('base64url');
}

export function newClient(name: string, now: Date): { record: CredentialRecord; clientId: string; clientSecret: string } {
  const clientId = `cl_${ulid(now.getTime())}`;
  const clientSecret = `cs_${random()}`;
  return {
    clientId,
    clientSecret,
    record: { id: clientId, kind: 'client', name, hash: sha256Hex(clientSecret), last4: clientSecret.slice(-4), createdAt: now.toISOString(), revokedAt: null },
  };
}

export function newApiKey(companyId: string, live: boolean, now: Date): { record: CredentialRecord; apiKey: string } {
  const id = ulid(now.getTime());
  const apiKey = `oway_sk_${live ? 'live' : 'test'}_${id}${random()}`;
  return { apiKey, record: { id: `key_${id}`, kind: 'key', companyId, live, hash: sha256Hex(apiKey), last4: apiKey.slice(-4), createdAt: now.toISOString(), revokedAt: null } };
}
