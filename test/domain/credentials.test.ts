/** The pure rules of issue 41's credentials: the brute-force throttle, key ids, masking, scopes. */
import { describe, expect, it } from 'vitest';
import { hasScope, keyIdOf, masked, throttle } from '../../src/domain/credentials.js';
import { newApiKey, newClient, matchesHash } from '../../src/auth/secrets.js';

describe('throttle: 5 failures a minute', () => {
  const now = 1_000_000;
  it('allows 4 failures, refuses the 5th within the window until the oldest leaves it', () => {
    expect(throttle([now - 4, now - 3, now - 2, now - 1], now)).toEqual({ allowed: true });
    expect(throttle([now - 59_000, now - 3, now - 2, now - 1, now], now)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(throttle([now - 10_000, now - 3, now - 2, now - 1, now], now)).toEqual({ allowed: false, retryAfterSeconds: 50 });
  });
  it('forgets failures older than a minute (the boundary included)', () => {
    expect(throttle([now - 60_000, now - 3, now - 2, now - 1, now], now)).toEqual({ allowed: true });
  });
  it('counts failures another instance noted with a clock ahead, never asking to wait over a minute', () => {
    expect(throttle([now + 90_000, now + 90_001, now + 90_002, now + 90_003, now + 90_004], now)).toEqual({ allowed: false, retryAfterSeconds: 60 });
  });
});

describe('secrets and keys', () => {
  const now = new Date('2026-11-23T15:00:00Z');
  it('issues keys by the published convention whose id is read back from the key', () => {
    const test = newApiKey('acme', false, now);
    const live = newApiKey('acme', true, now);
    expect(test.apiKey).toMatch(/^oway_sk_test_/);
    expect(live.apiKey).toMatch(/^oway_sk_live_/);
    expect(keyIdOf(test.apiKey)).toBe(test.record.id);
    expect(keyIdOf(`${test.apiKey}x`)).toBeUndefined();
    expect(keyIdOf('')).toBeUndefined();
    expect(JSON.stringify(test.record)).not.toContain(test.apiKey);
    expect(matchesHash(test.apiKey, test.record.hash)).toBe(true);
    expect(matchesHash(live.apiKey, test.record.hash)).toBe(false);
    expect(matchesHash(test.apiKey, undefined)).toBe(false);
    expect(matchesHash(test.apiKey, 'not hex')).toBe(false);
  });
  it('keeps no secret of a client in its record', () => {
    const client = newClient('Acme', now);
    expect(JSON.stringify(client.record)).not.toContain(client.clientSecret);
    expect(client.record.last4).toBe(client.clientSecret.slice(-4));
  });
  it('masks to **** and at most the last 4 characters', () => {
    expect(masked('oway_sk_test_0123456789abcd')).toBe('****abcd');
    expect(masked('short')).toBe('****');
    expect(masked(undefined)).toBe('');
  });
  it('reads scopes as space-separated words', () => {
    expect(hasScope('shipper dev', 'shipper')).toBe(true);
    expect(hasScope('shippers dev', 'shipper')).toBe(false);
    expect(hasScope(['shipper'], 'shipper')).toBe(false);
  });
});
