/**
 * The store a location names. Today every location is a directory: the file store
 * (src/store/file/). Loaded on first use, so commands that never touch the store do not load it.
 */
import type { ShipperStore } from './ports.js';

export interface OpenStoreOptions {
  /** Records kept in memory after a read (a long-running server). */
  cacheEntries?: number | undefined;
  /** Told what the store did that its user should know (a file store's journal cut). */
  onWarning?: ((item: { code: 'STORE_JOURNAL_CUT'; message: string }) => void) | undefined;
}

export async function openStore(location: string, options: OpenStoreOptions = {}): Promise<ShipperStore> {
  const { FileStore } = await import('./file/fileStore.js');
  return new FileStore(location, options);
}
