/**
 * The store a location names: a PostgreSQL URL is the PostgreSQL store (src/store/postgres/), a
 * directory the file store. Loaded on first use.
 */
import type { StoreLocation } from '../config/storeLocation.js';
import type { ShipperStore } from './ports.js';

export interface OpenLocationOptions {
  /** A PostgreSQL store migrates a database that is behind when prepared (serve), instead of refusing it. */
  migrate?: boolean | undefined;
  /** Connections a PostgreSQL store may open (a server: 10, a command: 2). */
  connections?: number | undefined;
  /** Told what a file store did that its user should know (its journal cut). */
  onWarning?: ((item: { code: 'STORE_JOURNAL_CUT'; message: string }) => void) | undefined;
}

export async function openStoreAt(location: StoreLocation, options: OpenLocationOptions = {}): Promise<ShipperStore> {
  if (location.kind === 'postgres') {
    const { PostgresStore } = await import('./postgres/postgresStore.js');
    return PostgresStore.open({ url: location.url, max: options.connections ?? 2, migrateOnPrepare: options.migrate });
  }
  const { openStore } = await import('./open.js');
  return openStore(location.dir, { onWarning: options.onWarning });
}
