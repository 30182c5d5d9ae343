/**
 * The API contract suite on the PostgreSQL store: the local engine in this process on a database,
 * and RemoteApi against `shipper serve --store postgres://...` (which migrates the new database
 * at start-up). The same cases as on the file store (api.contract.test.ts).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LocalApi } from '../../src/api/local.js';
import { RemoteApi } from '../../src/api/remote.js';
import postgres from 'postgres';
import { poolOptions } from '../../src/store/postgres/connection.js';
import { migrate } from '../../src/store/postgres/migrations.js';
import { PostgresStore } from '../../src/store/postgres/postgresStore.js';
import { tempDir } from '../helpers/cli.js';
import { testDatabase } from '../helpers/postgres.js';
import { startServe } from '../helpers/serve.js';
import { CONTRACT_NOW, CONTRACT_SETTINGS, contractClock, defineContractSuite, type ContractSetup } from './suite.js';

/** A store on the database (the pool connects on its first query). */
function storeOn(url: string, stores: PostgresStore[], max = 2): PostgresStore {
  const store = new PostgresStore(postgres(url, poolOptions({ max })), { url });
  stores.push(store);
  return store;
}

/** LocalApis on the same database whose clock starts `msAgo` before CONTRACT_NOW (cases seed the past with them). */
function pastApis(url: string, dir: string, stores: PostgresStore[]) {
  return (msAgo: number) => {
    const offset = Date.parse(CONTRACT_NOW) - msAgo - Date.now();
    return new LocalApi({ storeDir: dir, store: storeOn(url, stores), now: () => new Date(Date.now() + offset), ...CONTRACT_SETTINGS });
  };
}

async function setupOn(mode: 'local' | 'remote'): Promise<ContractSetup> {
  const url = await testDatabase();
  const { dir, cleanup } = await tempDir();
  const stores: PostgresStore[] = [];
  if (mode === 'local') {
    const store = storeOn(url, stores, 4);
    await migrate(store.sql);
    const api = new LocalApi({ storeDir: dir, store, now: contractClock(), ...CONTRACT_SETTINGS });
    return {
      target: { mode, api, storeDir: dir, pastApi: pastApis(url, dir, stores) },
      teardown: async () => {
        await api.close();
        await Promise.all(stores.map((one) => one.close()));
        await cleanup();
      },
    };
  }
  await writeFile(join(dir, 'config.json'), JSON.stringify(CONTRACT_SETTINGS));
  const server = await startServe({ store: url, env: { SHIPPER_NOW: CONTRACT_NOW, SHIPPER_CONFIG_DIR: dir } });
  const api = new RemoteApi({ baseUrl: server.url, retries: 0 });
  return {
    target: { mode, api, storeDir: dir, pastApi: pastApis(url, dir, stores) },
    teardown: async () => {
      await api.close();
      await server.stop();
      await Promise.all(stores.map((one) => one.close()));
      await cleanup();
    },
  };
}

defineContractSuite('contract on PostgreSQL: local engine', () => setupOn('local'));
defineContractSuite('contract on PostgreSQL: remote mode against shipper serve', () => setupOn('remote'));
