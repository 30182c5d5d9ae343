/**
 * `shipper db migrate|status` through the CLI (main() in process; serve.test.ts runs the built
 * binary on PostgreSQL), the store chosen by --store, SHIPPER_STORE
 * or `config set store`; a database that cannot be used is one line and exit 5, and its password
 * is never printed (config list/get, errors).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import { tempDir } from '../../helpers/cli.js';
import { runInProcess } from '../../helpers/inProcess.js';
import { testDatabase } from '../../helpers/postgres.js';

let url: string;
let password: string;
let configDir: string;
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  url = await testDatabase();
  password = decodeURIComponent(new URL(url).password);
  const temp = await tempDir();
  configDir = temp.dir;
  cleanups.push(temp.cleanup);
});
afterAll(async () => {
  await Promise.all(cleanups.map((cleanup) => cleanup()));
});

function expectNoSecret(result: { stdout: string; stderr: string }) {
  expect(result.stdout).not.toContain(password);
  expect(result.stderr).not.toContain(password);
}

describe('shipper db', () => {
  it('says a new database is behind, migrates it once, then says it is up to date (SHIPPER_STORE)', async () => {
    const env = { SHIPPER_STORE: url };
    const before = await runInProcess(['db', 'status'], { env });
    expect(before.code).toBe(0);
    expect(before.stdout).toMatch(/Schema version 0 of 6: behind/);
    expect(before.stdout).toContain('pending  1 initial');
    expect(before.stdout).toContain('pending  2 print_runs');
    expect(before.stdout).toContain('pending  3 credentials');
    expect(before.stdout).toContain('pending  4 published_wire');
    expect(before.stdout).toContain('pending  5 companies');
    expect(before.stdout).toContain('pending  6 appointment_documents');
    expect(before.stdout).toContain('postgres://postgres:****@127.0.0.1');
    expectNoSecret(before);

    const migrated = await runInProcess(['db', 'migrate'], { env });
    expect(migrated).toMatchObject({ code: 0, stdout: 'Migrated the database to schema version 6 (applied 1, 2, 3, 4, 5, 6)\n' });
    const again = await runInProcess(['--json', 'db', 'migrate'], { env });
    expect(JSON.parse(again.stdout)).toEqual({ applied: [], current: 6, latest: 6 });
    const status = await runInProcess(['--json', 'db', 'status'], { env });
    expect(JSON.parse(status.stdout)).toMatchObject({
      state: 'up to date',
      current: 6,
      latest: 6,
      pending: [],
      applied: [
        { version: 1, name: 'initial' },
        { version: 2, name: 'print_runs' },
        { version: 3, name: 'credentials' },
        { version: 4, name: 'published_wire' },
        { version: 5, name: 'companies' },
        { version: 6, name: 'appointment_documents' },
      ],
    });
    expectNoSecret(status);
  });

  it('takes the database from the config file, and never shows its password there', async () => {
    const env = { SHIPPER_CONFIG_DIR: configDir };
    const set = await runInProcess(['config', 'set', 'store', url], { env });
    expect(set.code).toBe(0);
    expectNoSecret(set);
    const list = await runInProcess(['--json', 'config', 'list'], { env });
    const listed = JSON.parse(list.stdout);
    expect(listed.settings.store).toBe(url.replace(`:${new URL(url).password}@`, ':****@'));
    expect(listed.effective.store).toBe(listed.settings.store);
    expect(listed.sources.store).toBe('config');
    expectNoSecret(list);
    expectNoSecret(await runInProcess(['config', 'list'], { env }));
    expectNoSecret(await runInProcess(['config', 'get', 'store'], { env }));
    const status = await runInProcess(['--json', 'db', 'status'], { env });
    expect(JSON.parse(status.stdout)).toMatchObject({ state: 'up to date' });
  });

  it('is one line and exit 5, without the password, when the database is down, refuses the login or does not exist', async () => {
    const down = new URL(url);
    down.port = '1';
    const wrong = new URL(url);
    wrong.password = 'wrong-secret-42';
    const missing = new URL(url);
    missing.pathname = '/no_such_db';
    for (const [target, line] of [
      [down.href, /is not accepting connections/],
      [wrong.href, /refused the login/],
      [missing.href, /does not exist/],
    ] as const) {
      const result = await runInProcess(['--store', target, 'db', 'status']);
      expect(result.code).toBe(5);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(line);
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(result.stderr).not.toContain('wrong-secret-42');
      expectNoSecret(result);
    }
  });

  it('refuses a database a newer shipper migrated (exit 5, one line)', async () => {
    const newer = await testDatabase();
    expect((await runInProcess(['--store', newer, 'db', 'migrate'])).code).toBe(0);
    const sql = postgres(newer, { max: 1 });
    await sql`insert into shipper_migrations (version, name) values (7, 'from the future')`;
    await sql.end();
    const migrate = await runInProcess(['--store', newer, 'db', 'migrate']);
    expect(migrate.code).toBe(5);
    expect(migrate.stderr).toMatch(/schema is version 7, newer than this shipper's 6: .*upgrade shipper/);
    const status = await runInProcess(['--store', newer, 'db', 'status']);
    expect(status.code).toBe(5);
    expect(status.stdout).toMatch(/newer than this shipper/);
  });

  it('is a usage error on a directory store, and a bad URL is refused by config set', async () => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    const result = await runInProcess(['--store', dir, 'db', 'status']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/db commands are for a PostgreSQL store/);
    const bad = await runInProcess(['config', 'set', 'store', 'postgres://user:hunter2@[bad/x'], { env: { SHIPPER_CONFIG_DIR: configDir } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/not a valid PostgreSQL URL/);
    expect(bad.stderr).not.toContain('hunter2');
  });
});
