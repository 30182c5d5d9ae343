/**
 * The run's PostgreSQL server (started by test/helpers/postgresSetup.ts) and a fresh database per
 * test file: `const url = await testDatabase()` in a beforeAll.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import postgres from 'postgres';

let serverUrl: Promise<string> | undefined;

/** The superuser URL of the run's server, once it accepts connections. */
export function postgresServerUrl(): Promise<string> {
  serverUrl ??= (async () => {
    const stateDir = process.env.SHIPPER_TEST_PG_STATE;
    if (!stateDir) throw new Error('no PostgreSQL server for this run: vitest.config.ts must list test/helpers/postgresSetup.ts in globalSetup');
    const deadline = Date.now() + 120_000;
    for (;;) {
      const ready = join(stateDir, 'server.json');
      if (existsSync(ready)) return (JSON.parse(readFileSync(ready, 'utf8')) as { url: string }).url;
      const failed = join(stateDir, 'error.txt');
      if (existsSync(failed)) throw new Error(readFileSync(failed, 'utf8'));
      if (Date.now() > deadline) throw new Error('PostgreSQL did not start within 120 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return serverUrl;
}

/** The URL of a new, empty database on the run's server. */
export async function testDatabase(): Promise<string> {
  const url = new URL(await postgresServerUrl());
  const name = `shipper_${randomBytes(6).toString('hex')}`;
  const admin = postgres(url.href, { max: 1, onnotice: () => undefined });
  try {
    await admin.unsafe(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  url.pathname = `/${name}`;
  return url.href;
}
