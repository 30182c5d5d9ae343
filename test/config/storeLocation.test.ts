/**
 * A PostgreSQL store URL the driver could not read is refused where the store location is read,
 * with the store location's message (exit 2, one line, no password), never the driver's own throw
 * ("unexpected error: URI malformed"). No database is needed: the URL is refused before any.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { parseStoreLocation, StoreLocationError } from '../../src/config/storeLocation.js';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inProcess.js';

const INVALID = /^shipper: the store \S+ is not a valid PostgreSQL URL \(postgres:\/\/user@host:5432\/database\)/;

describe('a store URL with a %-escape that does not decode', () => {
  it.each([
    ['the user', 'postgres://%zz@127.0.0.1:1/db'],
    ['the password', 'postgres://shipper:hunter2%zz@127.0.0.1:1/db'],
    ['the host', 'postgres://shipper@%zz:1/db'],
    ['a lone % at the end of the user', 'postgres://shipper%@127.0.0.1:1/db'],
    ['a byte that is not UTF-8', 'postgresql://%C3%28@127.0.0.1:1/db'],
    ['the user, a NUL that decodes', 'postgres://a%00b@127.0.0.1:1/db'],
  ])('in %s is the store location message, exit 2, one line (%s)', async (_, url) => {
    const result = await runInProcess(['--store', url, 'db', 'status']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(INVALID);
    expect(result.stderr).not.toMatch(/unexpected error|URI malformed|\n\s+at /);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).not.toContain('hunter2');
    expect(result.stdout).toBe('');
  });

  it('is refused by config set and in SHIPPER_STORE the same way, and config set writes nothing', async () => {
    const { dir, cleanup } = await tempDir();
    try {
      const set = await runInProcess(['config', 'set', 'store', 'postgres://%zz@127.0.0.1:1/db'], { env: { SHIPPER_CONFIG_DIR: dir } });
      expect(set.code).toBe(2);
      expect(set.stderr).toMatch(/^shipper: store: the store \S+ is not a valid PostgreSQL URL/);
      expect(readdirSync(dir)).toEqual([]);
      const env = await runInProcess(['shipment', 'list'], { env: { SHIPPER_STORE: 'postgres://%zz@127.0.0.1:1/db' } });
      expect(env.code).toBe(2);
      expect(env.stderr).toMatch(INVALID);
      expect(env.stderr).not.toMatch(/unexpected error/);
    } finally {
      await cleanup();
    }
  });

  it('keeps URLs whose escapes decode (the boundary: %25, %40, %3A, UTF-8)', () => {
    for (const url of ['postgres://us%40er:p%25ss%3Aword@127.0.0.1:5432/db', 'postgres://%C3%A9mile@db.internal/shipper', 'postgres://shipper@db.internal/%zz']) {
      expect(parseStoreLocation(url)).toEqual({ kind: 'postgres', url });
    }
    expect(() => parseStoreLocation('postgres://%zz@127.0.0.1:1/db')).toThrow(StoreLocationError);
  });
});

describe('a store URL the driver would take but not use', () => {
  it('with an escaped comma in the host (a second host slipped past the URL check) is the store location message, not a connection without end', async () => {
    const result = await runInProcess(['--store', 'postgres://u@h%2Cx:1/db', 'db', 'status']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(INVALID);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('with a target_session_attrs the driver does not know names the values it takes, exit 2, not "unexpected error"', async () => {
    const result = await runInProcess(['--store', 'postgres://u:hunter2@127.0.0.1:1/db?target_session_attrs=bogus', 'db', 'status']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^shipper: the store postgres:\/\/u:\*\*\*\*@127\.0\.0\.1:1\/db\?target_session_attrs=bogus asks for target_session_attrs=bogus: it is one of read-write, read-only, primary, standby, prefer-standby/,
    );
    expect(result.stderr).not.toMatch(/unexpected error|hunter2/);
  });

  it('keeps every target_session_attrs the driver takes (the boundary)', () => {
    for (const attrs of ['read-write', 'read-only', 'primary', 'standby', 'prefer-standby']) {
      expect(parseStoreLocation(`postgres://u@127.0.0.1:1/db?target_session_attrs=${attrs}`).kind).toBe('postgres');
    }
    expect(() => parseStoreLocation('postgres://u@127.0.0.1:1/db?target_session_attrs=any')).toThrow(StoreLocationError);
  });
});

describe('a PG* variable the driver does not take', () => {
  it('PGTARGETSESSIONATTRS=bogus is a setting to correct (exit 2, one line naming the store), not "unexpected error"', async () => {
    // The driver reads the PG* variables from the process's own environment.
    vi.stubEnv('PGTARGETSESSIONATTRS', 'bogus');
    const result = await runInProcess(['--store', 'postgres://u:hunter2@127.0.0.1:1/db', 'db', 'status']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^shipper: the store postgres:\/\/u:\*\*\*\*@127\.0\.0\.1:1\/db cannot be opened: target_session_attrs bogus is not supported/);
    expect(result.stderr).not.toMatch(/unexpected error|hunter2/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});
