/**
 * What every command gets: the IO layer, the global options, and the one API (local or remote),
 * created on first use so that commands which never need it (help, config) never load it.
 */
import type { ShipperApi } from '../api/types.js';
import { UsageError } from './errors.js';
import type { IO } from './output.js';

export interface GlobalOptions {
  json: boolean;
  quiet: boolean;
  color: boolean;
  store?: string | undefined;
  tariff?: string | undefined;
  remote: boolean;
  baseUrl?: string | undefined;
  sandbox: boolean;
  apiKey?: string | undefined;
}

export class CommandContext {
  private apiPromise: Promise<ShipperApi> | undefined;

  constructor(
    readonly io: IO,
    readonly globals: GlobalOptions,
    readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  get mode(): 'local' | 'remote' {
    return this.globals.remote || this.globals.sandbox || this.globals.baseUrl ? 'remote' : 'local';
  }

  api(): Promise<ShipperApi> {
    this.apiPromise ??= this.createApi();
    return this.apiPromise;
  }

  private async createApi(): Promise<ShipperApi> {
    if (this.mode === 'remote') {
      throw new UsageError('remote mode is not available yet');
    }
    const [{ LocalApi }, { resolveStoreDir }] = await Promise.all([import('../api/local.js'), import('../store/location.js')]);
    return new LocalApi({
      storeDir: resolveStoreDir(this.globals.store, this.env),
      tariffFile: this.globals.tariff ?? this.env.SHIPPER_TARIFF,
      now: clockFromEnv(this.env),
    });
  }

  async close(): Promise<void> {
    if (this.apiPromise) await (await this.apiPromise.catch(() => undefined))?.close();
  }
}

/**
 * SHIPPER_NOW=<ISO instant> starts the clock at that instant (it keeps running), for reproducible
 * demos and CI jobs that must quote "next Friday" on a fixed calendar.
 */
export function clockFromEnv(env: NodeJS.ProcessEnv): () => Date {
  if (!env.SHIPPER_NOW) return () => new Date();
  const start = Date.parse(env.SHIPPER_NOW);
  if (Number.isNaN(start)) throw new UsageError(`SHIPPER_NOW=${env.SHIPPER_NOW} is not an ISO-8601 instant`);
  const offset = start - Date.now();
  return () => new Date(Date.now() + offset);
}
