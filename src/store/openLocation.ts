/**
 * The store a location names: a PostgreSQL URL is the PostgreSQL store (src/store/postgres/), a
 * directory the file store (src/store/file/). Loaded on first use, so commands that never touch
 * the store do not load it. The CLI reaches it through one door, CommandContext.store(), so that
 * every record kind (shipments, quotes, fuel prices, saved locations, audited bills) goes to the
 * store in use.
 */
import type { StoreLocation } from '../config/storeLocation.js';
import type { ShipperStore } from './ports.js';

export interface OpenLocationOptions {
  /** A PostgreSQL store migrates a database that is behind when prepared (serve), instead of refusing it. */
  migrate?: boolean | undefined;
  /** Connections a PostgreSQL store may open (a server: 16, a command: 2). */
  connections?: number | undefined;
  /** A file store keeps this many records in memory after a read (a long-running server). */
  cacheEntries?: number | undefined;
  /** Told what a file store did that its user should know (its journal cut). */
  onWarning?: ((item: { code: 'STORE_JOURNAL_CUT'; message: string }) => void) | undefined;
}

export async function openStoreAt(location: StoreLocation, options: OpenLocationOptions = {}): Promise<ShipperStore> {
  if (location.kind === 'postgres') {
    const { PostgresStore } = await import('./postgres/postgresStore.js');
    return PostgresStore.open({ url: location.url, max: options.connections ?? 2, migrateOnPrepare: options.migrate });
  }
  const { FileStore } = await import('./file/fileStore.js');
  return new FileStore(location.dir, { cacheEntries: options.cacheEntries, onWarning: options.onWarning });
}
