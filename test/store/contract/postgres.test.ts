/**
 * The storage ports' contract on the PostgreSQL store: one migrated database for the file, its
 * tables emptied before each test (a new database per test costs a CREATE DATABASE each).
 */
import { migrate } from '../../../src/store/postgres/migrations.js';
import { PostgresStore } from '../../../src/store/postgres/postgresStore.js';
import { testDatabase } from '../../helpers/postgres.js';
import { storeContract } from './suite.js';

let url: Promise<string> | undefined;

storeContract('PostgreSQL store', async () => {
  url ??= testDatabase().then(async (created) => {
    const store = await PostgresStore.open({ url: created, max: 1 });
    await migrate(store.sql);
    await store.close();
    return created;
  });
  const store = await PostgresStore.open({ url: await url, max: 4 });
  await store.sql`truncate shipments, quotes, counters, idempotency_keys, shipment_events, fuel_prices, saved_locations, audited_bills, print_runs, credentials, auth_signing_key, auth_failures`;
  return { store, cleanup: () => store.close() };
});
