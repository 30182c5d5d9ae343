/**
 * What every command gets: the IO layer, the global options, and the one API (local or remote),
 * created on first use so that commands which never need it (help, config) never load it.
 */
import type { LocalApi } from '../api/local.js';
import type { ShipperApi } from '../api/types.js';
import type { Settings } from '../config/settings.js';
import { isLoopbackHost } from '../api/wire.js';
import { UsageError } from './errors.js';
import type { IO } from './output.js';

export interface GlobalOptions {
  json: boolean;
  quiet: boolean;
  color: boolean;
  store?: string | undefined;
  tariff?: string | undefined;
  remote: boolean;
  /** Local mode even when the config or SHIPPER_MODE says remote. */
  local?: boolean | undefined;
  baseUrl?: string | undefined;
  sandbox: boolean;
  apiKey?: string | undefined;
  /** Config profile (base URL and API key) for remote mode. */
  profile?: string | undefined;
}

export class CommandContext {
  private apiPromise: Promise<ShipperApi> | undefined;
  private resolved: Settings | undefined;

  constructor(
    readonly io: IO,
    readonly globals: GlobalOptions,
    readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  /**
   * Flags > environment > config file > defaults. The config file is read with plain fs (a few
   * hundred microseconds), so knowing the mode costs local commands nothing noticeable; the
   * module (and zod) is imported on first use so that --version and --help never load it.
   */
  async settings(): Promise<Settings> {
    if (!this.resolved) {
      const { globals, env } = this;
      const { ConfigError, configFilePath, readConfigFile, resolveSettings } = await import('../config/settings.js');
      try {
        this.resolved = resolveSettings(
          {
            remote: globals.remote,
            local: globals.local,
            sandbox: globals.sandbox,
            baseUrl: globals.baseUrl,
            // commander folds SHIPPER_API_KEY into --api-key; only a different value came from the flag.
            apiKey: globals.apiKey !== undefined && globals.apiKey !== env.SHIPPER_API_KEY ? globals.apiKey : undefined,
            profile: globals.profile,
            store: globals.store,
            tariff: globals.tariff,
          },
          env,
          readConfigFile(configFilePath(env)),
        );
      } catch (error) {
        if (error instanceof ConfigError) throw new UsageError(error.message);
        throw error;
      }
    }
    return this.resolved;
  }

  /** The mode in effect, for exit codes; before the settings were read, what the flags say. */
  get mode(): 'local' | 'remote' {
    if (this.resolved) return this.resolved.mode;
    return this.globals.remote || this.globals.sandbox || this.globals.baseUrl ? 'remote' : 'local';
  }

  api(): Promise<ShipperApi> {
    this.apiPromise ??= this.createApi();
    return this.apiPromise;
  }

  private async createApi(): Promise<ShipperApi> {
    const settings = await this.settings();
    if (settings.mode === 'remote') return this.createRemoteApi(settings);
    return this.localApi();
  }

  private async createRemoteApi(settings: Settings): Promise<ShipperApi> {
    if (!settings.baseUrl) {
      throw new UsageError(
        `remote mode needs a base URL: profile "${settings.profile}" has none`,
        `give --base-url URL, set SHIPPER_BASE_URL, or run: shipper config set profiles.${settings.profile}.baseUrl URL`,
      );
    }
    const url = new URL(settings.baseUrl);
    if (settings.apiKey && url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
      this.io.warn(`the API key is sent over plain http to ${url.host}; use https`);
    }
    // undici is loaded only here: local commands never pay for it.
    const { RemoteApi } = await import('../api/remote.js');
    return new RemoteApi({
      baseUrl: settings.baseUrl,
      apiKey: settings.apiKey,
      timeoutMs: settings.timeoutMs,
      retries: settings.retries,
      userAgent: `shipper (node ${process.version})`,
    });
  }

  /** The local engine on the resolved store, whatever the mode (`shipper serve` exposes it). */
  async localApi(): Promise<LocalApi> {
    const settings = await this.settings();
    const [{ LocalApi }, { resolveStoreDir }] = await Promise.all([import('../api/local.js'), import('../store/location.js')]);
    return new LocalApi({
      storeDir: resolveStoreDir(settings.store, this.env),
      tariffFile: settings.tariff,
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
