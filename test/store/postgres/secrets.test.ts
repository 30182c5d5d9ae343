/**
 * A PostgreSQL password stays out of other local users' sight: a password in the store URL (or an
 * API key) is gone from the process's command line (/proc/PID/cmdline, what `ps` shows) once the
 * arguments are read, and the password can come from a password file (PGPASSFILE, ~/.pgpass) as
 * libpq reads it, beside PGPASSWORD.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPassword } from '../../../src/store/postgres/passwordFile.js';
import { runCli, tempDir } from '../../helpers/cli.js';
import { testDatabase } from '../../helpers/postgres.js';
import { startServe } from '../../helpers/serve.js';

let url: URL;
let password: string;
let bare: string;
let home: string;
const cleanups: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  url = new URL(await testDatabase());
  password = decodeURIComponent(url.password);
  const withoutPassword = new URL(url.href);
  withoutPassword.password = '';
  bare = withoutPassword.href;
  const temp = await tempDir();
  cleanups.push(temp.cleanup);
  home = temp.dir;
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const database = () => url.pathname.slice(1);
/** A password file line for the test database: host:port:database:user:password. */
const line = (pass = password, db = database()) => `${url.hostname}:${url.port}:${db}:postgres:${pass}`;

/** `db status` on the URL without a password, HOME at a directory of its own, PGPASSWORD unset. */
async function statusWith(env: Record<string, string | undefined> = {}) {
  const dir = join(home, `home-${Math.random().toString(36).slice(2)}`);
  mkdirSync(dir);
  return { dir, run: () => runCli(['--store', bare, 'db', 'status'], { env: { HOME: dir, PGPASSWORD: undefined, PGPASSFILE: undefined, ...env } }) };
}

function writePassFile(path: string, text: string, mode: number) {
  writeFileSync(path, text);
  chmodSync(path, mode);
}

describe('the process title', () => {
  it("shows neither the store URL's password nor the API key while shipper serve runs", async () => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    const server = await startServe({ store: url.href, globalArgs: ['--api-key', 'api-key-not-for-ps-0001'], env: { SHIPPER_CONFIG_DIR: dir } });
    cleanups.push(() => server.stop());
    // Listening: the arguments were read long ago.
    const cmdline = readFileSync(`/proc/${server.child.pid}/cmdline`, 'latin1');
    expect(cmdline).not.toContain(password);
    expect(cmdline).not.toContain('api-key-not-for-ps-0001');
    expect(cmdline).toContain('shipper');
    expect(cmdline).toContain(`postgres://postgres:****@${url.host}`);
    expect(cmdline).toMatch(/--api-key \*\*\*\* serve/);
    // It serves on the password it was given.
    expect((await fetch(`${server.url}/v1/shipper/health`)).status).toBeLessThan(500);
    expect(await server.stop()).toBe(0);
  });
});

describe('a password file', () => {
  it('~/.pgpass (0600) gives the password of the first line that matches', async () => {
    const { dir, run } = await statusWith();
    writePassFile(join(dir, '.pgpass'), `# comment\n${line('wrong', 'other_db')}\n${line()}\n*:*:*:*:also-wrong\n`, 0o600);
    const result = await run();
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Schema version/);
  });

  it('PGPASSFILE names another file; wildcards match; a read-only 0400 file is used', async () => {
    const { dir, run } = await statusWith({ PGPASSFILE: join(home, 'named-pgpass') });
    writePassFile(join(home, 'named-pgpass'), `*:${url.port}:*:postgres:${password}\r\n`, 0o400);
    // ~/.pgpass is not read when PGPASSFILE names a file.
    writePassFile(join(dir, '.pgpass'), `${line('wrong')}\n`, 0o600);
    const result = await run();
    expect(result.code).toBe(0);
  });

  it('is ignored when its group or others may read it (0640, 0604): the refused login says so, in one line', async () => {
    for (const mode of [0o640, 0o604]) {
      const { dir, run } = await statusWith();
      writePassFile(join(dir, '.pgpass'), `${line()}\n`, mode);
      const result = await run();
      expect(result.code).toBe(5);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(/refused the login \(wrong user or password\); the password file ~\/\.pgpass was ignored: its group or others may read it \(chmod 600 it/);
      expect(result.stderr).not.toContain(password);
      expect(result.stderr).not.toContain(dir);
    }
  });

  it('is not read when PGPASSWORD is set (it comes first, as in libpq), nor when the URL has a password', async () => {
    const { dir, run } = await statusWith({ PGPASSWORD: 'wrong-password-from-env' });
    writePassFile(join(dir, '.pgpass'), `${line()}\n`, 0o600);
    const result = await run();
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/refused the login/);
    expect(result.stderr).not.toContain('password file');
    const withUrlPassword = await runCli(['--store', url.href, 'db', 'status'], { env: { HOME: dir, PGPASSWORD: undefined } });
    expect(withUrlPassword.code).toBe(0);
  });

  it('a directory, an empty file or no matching line: the login is refused, exit 5, no stack trace', async () => {
    const directory = await statusWith({ PGPASSFILE: home });
    const asDirectory = await directory.run();
    expect(asDirectory.code).toBe(5);
    expect(asDirectory.stderr).toMatch(/the password file PGPASSFILE names is not a plain file and was ignored/);
    const empty = await statusWith();
    writePassFile(join(empty.dir, '.pgpass'), '', 0o600);
    const none = await empty.run();
    expect(none.code).toBe(5);
    expect(none.stderr).toMatch(/refused the login/);
    expect(none.stderr).not.toMatch(/\n\s+at |password file/);
  });
});

describe('findPassword (the lines as libpq reads them)', () => {
  const target = { host: 'db.internal', port: 5432, database: 'shipper', user: 'ops' };
  it('matches field by field, * anywhere, the first match wins', () => {
    expect(findPassword('db.internal:5432:shipper:ops:secret\n', target)).toBe('secret');
    expect(findPassword('other:5432:shipper:ops:no\n*:*:*:ops:yes\ndb.internal:5432:shipper:ops:late', target)).toBe('yes');
    expect(findPassword('db.internal:5433:shipper:ops:no\n', target)).toBeUndefined();
    expect(findPassword('db.internal:5432:shipper:opsx:no\ndb.internal:5432:shipper:op:no', target)).toBeUndefined();
  });
  it('reads \\: and \\\\ as : and \\, ends the password at an unescaped :, skips comments and short lines', () => {
    expect(findPassword('db.internal:5432:shipper:ops:pa\\:ss\\\\word:ignored\n', target)).toBe('pa:ss\\word');
    expect(findPassword('db.internal:5432:ship\\:per:ops:x\n', { ...target, database: 'ship:per' })).toBe('x');
    expect(findPassword('#db.internal:5432:shipper:ops:commented\ndb.internal:5432\n\n', target)).toBeUndefined();
    expect(findPassword('db.internal:5432:shipper:ops:\n', target)).toBe('');
    expect(findPassword('*:*:*:*:crlf\r\n', target)).toBe('crlf');
  });
});
