/**
 * What every command gets (the factory of the GitHub CLI): the IO layer, the global options, the
 * settings resolved once, and the parts built from them on first use: the one API (local or
 * remote), the store in use, the clock, the ZIP geodata and the saved locations. Commands that
 * never need them (help, config) never load them.
 */
import type { Command } from 'commander';
import { warning } from '../domain/warnings.js';
import { printable } from '../printable.js';
import type { LocalApi } from '../api/local.js';
import type { ShipperStore } from '../store/ports.js';
import type { OpenLocationOptions } from '../store/openLocation.js';
import { UsageError } from '../api/problems.js';
import type { ShipperApi } from '../api/types.js';
import { isLoopbackHost, serverRootOf } from '../api/wire.js';
import type { ConfigLocation, Settings } from '../config/settings.js';
import type { ZipLookup } from '../domain/zipCode.js';
import type { LocationBook } from '../store/locations.js';
import type { IO } from './output.js';

export interface GlobalOptions {
  json: boolean;
  quiet: boolean;
  color: boolean;
  store?: string | undefined;
  tariff?: string | undefined;
  tariffs?: string | undefined;
  remote: boolean;
  /** Local mode even when the config or SHIPPER_MODE says remote. */
  local?: boolean | undefined;
  baseUrl?: string | undefined;
  sandbox: boolean;
  apiKey?: string | undefined;
  /** Config profile (base URL and API key) for remote mode. */
  profile?: string | undefined;
}

/** Turns a parsed command into its context (program.ts owns the one instance). */
export type ContextFactory = (command: Command) => CommandContext;

export class CommandContext {
  private apiPromise: Promise<ShipperApi> | undefined;
  private localApiPromise: Promise<LocalApi> | undefined;
  private storePromise: Promise<ShipperStore> | undefined;
  private openedStore: ShipperStore | undefined;
  private resolved: Settings | undefined;
  private zipDirectory: ZipLookup | undefined;
  private configPromise: Promise<ConfigLocation> | undefined;

  constructor(
    readonly io: IO,
    readonly globals: GlobalOptions,
    readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  /**
   * Flags > environment > config file > defaults, resolved once. The config file is read with
   * plain fs (a few hundred microseconds); the module (and zod) is imported on first use so that
   * --version and --help never load it.
   */
  async settings(): Promise<Settings> {
    if (!this.resolved) {
      const { globals, env } = this;
      const { readConfigFile, resolveSettings } = await import('../config/settings.js');
      const { file } = await this.configLocation();
      this.resolved = resolveSettings(
        {
          remote: globals.remote,
          local: globals.local,
          sandbox: globals.sandbox,
          baseUrl: globals.baseUrl,
          apiKey: globals.apiKey,
          profile: globals.profile,
          store: globals.store,
          tariff: globals.tariff,
          tariffs: globals.tariffs,
        },
        env,
        readConfigFile(file),
      );
    }
    return this.resolved;
  }

  /** The config file in use; one left at the old place (shipper-nodejs) is moved first, saying so once on stderr. */
  configLocation(): Promise<ConfigLocation> {
    this.configPromise ??= import('../config/settings.js').then(async ({ settleConfigLocation }) => {
      const location = await settleConfigLocation(this.env);
      // It names paths (from the environment): their control characters as escapes (printable.ts).
      if (location.notice) this.io.streams.stderr.write(`shipper: ${printable(location.notice)}\n`);
      return location;
    });
    return this.configPromise;
  }

  /** The mode in effect, for exit codes; before the settings were read, what the flags say. */
  get mode(): 'local' | 'remote' {
    if (this.resolved) return this.resolved.mode;
    return this.globals.remote || this.globals.sandbox || this.globals.baseUrl ? 'remote' : 'local';
  }

  /** The clock: SHIPPER_NOW=<instant> starts it there (it keeps running), for demos and CI jobs. */
  async clock(): Promise<() => Date> {
    const { clockStart } = await this.settings();
    if (clockStart === undefined) return () => new Date();
    const offset = clockStart - Date.now();
    return () => new Date(Date.now() + offset);
  }

  /** The ZIP geodata (one small file per 3-digit prefix, read on first lookup). */
  async zips(): Promise<ZipLookup> {
    if (!this.zipDirectory) {
      const { ZipDirectory } = await import('../geo/zipDirectory.js');
      this.zipDirectory = new ZipDirectory();
    }
    return this.zipDirectory;
  }

  /**
   * The store in use (--store, SHIPPER_STORE, the config's store, else the data directory): the
   * file store of a directory or the PostgreSQL database of a URL, opened once per command. The
   * engine, fuel prices, saved locations and audited bills all go through it: no command opens
   * another (test/architecture/storeAccess.test.ts).
   */
  store(): Promise<ShipperStore> {
    return this.openStore({});
  }

  /** The first caller's options win: the engine's (serve: more connections, migrate, cache) when it opens the store. */
  private openStore(options: OpenLocationOptions): Promise<ShipperStore> {
    this.storePromise ??= (async () => {
      const [settings, { openStoreAt }] = await Promise.all([this.settings(), import('../store/openLocation.js')]);
      this.openedStore = await openStoreAt(settings.storeLocation, { ...options, onWarning: (item) => this.io.warn(item) });
      return this.openedStore;
    })();
    return this.storePromise;
  }

  /** Saved locations: the address book in the store in use, also in remote mode (they are the user's own). */
  async locations(): Promise<LocationBook> {
    const [{ LocationBook }, store] = await Promise.all([import('../store/locations.js'), this.store()]);
    return new LocationBook(store.locations);
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
    const root = serverRootOf(settings.baseUrl);
    if (root !== settings.baseUrl)
      this.io.warn(warning('BASE_URL_ROOT', `the base URL is the server's root: using ${root}, not ${settings.baseUrl} (the API's paths start with /v1/shipper)`));
    const url = new URL(root);
    if (settings.apiKey && url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
      this.io.warn(warning('API_KEY_OVER_HTTP', `the API key is sent over plain http to ${url.host}; use https`));
    }
    // undici is loaded only here: local commands never pay for it.
    const { RemoteApi } = await import('../api/remote.js');
    return new RemoteApi({
      baseUrl: root,
      apiKey: settings.apiKey,
      token: await this.tokenSource(settings, root),
      timeoutMs: settings.timeoutMs,
      retries: settings.retries,
      publishedOnly: settings.service === 'published',
      userAgent: `shipper (node ${process.version})`,
    });
  }

  /** Client credentials' tokens (shipper auth login, SHIPPER_CLIENT_ID/SECRET, OWAY_M2M_CLIENT_ID/SECRET), cached beside the config file; none without credentials. */
  async tokenSource(settings: Settings, baseUrl: string) {
    if (!settings.clientId || !settings.clientSecret) return undefined;
    const [{ TokenSource }, { dir }, clock] = await Promise.all([import('../auth/tokenSource.js'), this.configLocation(), this.clock()]);
    return new TokenSource({ baseUrl, clientId: settings.clientId, clientSecret: settings.clientSecret }, dir, () => clock().getTime());
  }

  /** The local engine on the resolved store, whatever the mode (`shipper serve` exposes it). */
  localApi(options: { cacheEntries?: number; bolCompanyPrefix?: string | undefined; serve?: boolean } = {}): Promise<LocalApi> {
    this.localApiPromise ??= (async () => {
      const [settings, { LocalApi }, now, zips] = await Promise.all([this.settings(), import('../api/local.js'), this.clock(), this.zips()]);
      // A server keeps more connections to a PostgreSQL store and migrates it when it is behind; a file store caches records.
      const store = await this.openStore({ migrate: options.serve, connections: options.serve ? 16 : 2, cacheEntries: options.cacheEntries });
      return new LocalApi({
        store,
        storeDir: settings.store,
        tariffFile: settings.tariff,
        agreementsDir: settings.tariffs,
        bolCompanyPrefix: options.bolCompanyPrefix ?? settings.bolCompanyPrefix,
        zips,
        now,
        cacheEntries: options.cacheEntries,
        storeWarning: (item) => this.io.warn(item),
        carriers: settings.carriers,
        ssccExtensionDigit: settings.ssccExtensionDigit,
        limits: settings.limits,
        x12: settings.x12,
        ebol: settings.ebol,
        served: options.serve,
      });
    })();
    return this.localApiPromise;
  }

  async close(): Promise<void> {
    if (this.apiPromise) await (await this.apiPromise.catch(() => undefined))?.close();
    // A database store's connections, so that the process can end.
    await this.openedStore?.close().catch(() => undefined);
  }
}
