/** `shipper serve`: the local engine and store as the Shipper Freight API over HTTP. */
import type { AddressInfo } from 'node:net';
import type { Command } from 'commander';
import { warning, type Warning } from '../../domain/warnings.js';
import { InvalidArgumentError, Option } from 'commander';
import { DOCUMENTATION_PREFIX_WARNING, GS1_COMPANY_PREFIX_RULE, isGs1CompanyPrefix } from '../../domain/bolNumber.js';
import { isLoopbackHost, OPENAPI_PATH } from '../../api/wire.js';
import type { CommandContext } from '../context.js';
import type { ShipperApi } from '../../api/types.js';
import { CliError, UsageError } from '../errors.js';
import type { ContextFactory } from '../context.js';
import { offering, wholeNumberOption } from '../optionParsers.js';
import { serveEnvironmentHelp, withServeEnvironment } from './serveEnv.js';
import { DEFAULT_DRAIN_DELAY_MS, DEFAULT_DRAIN_TIMEOUT_MS, DEFAULT_READY_TIMEOUT_MS, DEFAULT_TIMEOUTS, LOG_LEVELS, type LogFormat, type LogLevel } from '../../server/defaults.js';
import type { ShipperCommand } from '../examples.js';

export interface ServeOptions {
  host: string;
  port: number;
  /** The global --api-key, when it was given on the command line (not SHIPPER_API_KEY). */
  apiKey?: string | undefined;
  bodyLimit: number;
  /** The server's public base URL, for the document download links it answers (default: the Host of the request). */
  publicUrl?: string | undefined;
  /** Quotes and shipments kept in memory for GETs; 0: none. */
  cacheSize: number;
  /** GS1 company prefix of the BOL numbers this server issues (over the settings). */
  bolCompanyPrefix?: string | undefined;
  /** The token endpoint's throttle takes the client's address from X-Forwarded-For (a proxy in front is trusted). */
  trustProxy?: boolean | undefined;
  /** How long /readyz says 503 while the server still serves, after SIGTERM/SIGINT (ms). */
  drainDelay: number;
  /** How long requests in flight may take to finish once the listener is closed (ms). */
  drainTimeout: number;
  /** The old name of --drain-timeout. */
  shutdownGrace?: number | undefined;
  readyTimeout: number;
  headersTimeout: number;
  requestTimeout: number;
  keepAliveTimeout: number;
  /** The probes and metrics on a port of their own. */
  adminPort?: number | undefined;
  adminHost: string;
  /** json, pretty; default: pretty on a terminal, json otherwise. */
  log?: LogFormat | undefined;
  logLevel?: LogLevel | undefined;
  /** false: no /metrics (and no cost of counting). */
  metrics: boolean;
}

export const DEFAULT_PORT = 8787;

const parsePort = wholeNumberOption(0, 65535, 'must be a port number from 0 to 65535 (0: any free port)');
const parseCount = wholeNumberOption(0);
const parsePositiveInteger = wholeNumberOption(1);

function parseCompanyPrefix(value: string): string {
  if (!isGs1CompanyPrefix(value.trim())) throw new InvalidArgumentError(GS1_COMPANY_PREFIX_RULE);
  return value.trim();
}

/** A duration: milliseconds (5000), or with a unit (500ms, 5s, 2m). */
function durationOption(min: number): (value: string) => number {
  return (value) => {
    const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m)?\s*$/i.exec(value);
    const factor = { ms: 1, s: 1000, m: 60_000 }[(match?.[2] ?? 'ms').toLowerCase() as 'ms' | 's' | 'm'];
    const ms = match ? Math.round(Number(match[1]) * factor) : NaN;
    if (!Number.isFinite(ms) || ms < min || ms > 3_600_000)
      throw new InvalidArgumentError(`must be a duration from ${min} ms to 1 hour: milliseconds (5000) or with a unit (500ms, 5s, 2m)`);
    return ms;
  };
}

function parseLogFormat(value: string): LogFormat {
  const format = value.trim().toLowerCase();
  if (format !== 'json' && format !== 'pretty') throw new InvalidArgumentError('must be json or pretty');
  return format;
}

function parseLogLevel(value: string): LogLevel {
  const level = value.trim().toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(level)) throw new InvalidArgumentError(`must be one of ${LOG_LEVELS.join(', ')}`);
  return level as LogLevel;
}

export async function runServe(ctx: CommandContext, options: ServeOptions, signals: NodeJS.EventEmitter = process): Promise<void> {
  const { globals, io } = ctx;
  if (globals.remote || globals.sandbox || globals.baseUrl) {
    throw new UsageError('shipper serve serves the local engine and store; --remote, --sandbox and --base-url do not apply');
  }
  if (options.adminPort !== undefined && options.adminPort !== 0 && options.adminPort === options.port && options.adminHost === options.host) {
    throw new UsageError(`--admin-port ${options.adminPort} is the API's port: give the admin port a port of its own`);
  }
  const settings = await ctx.settings();
  const apiKey = options.apiKey ?? settings.serveApiKey;
  const stderr = io.streams.stderr;
  const { createServeLogger, requestLogLayer } = await import('../../server/requestLog.js');
  const format: LogFormat = options.log ?? (stderr.isTTY ? 'pretty' : 'json');
  const { logger, flush } = createServeLogger({
    format,
    level: options.logLevel ?? (io.options.quiet ? 'warn' : 'info'),
    write: (line) => stderr.write(line),
    fd: stderr === process.stderr ? 2 : undefined,
  });
  const warn = (item: Pick<Warning, 'code' | 'message'>) => (format === 'json' ? logger.warn({ event: 'warning', code: item.code }, item.message) : io.warn(item));

  const api = await ctx.localApi({ cacheEntries: options.cacheSize, bolCompanyPrefix: options.bolCompanyPrefix, serve: true });
  // A bad tariff, bad carrier agreements or an unusable store fail now, not at the first request (a database behind is migrated).
  await api.loadTariff();
  await api.agreements.load();
  await api.store.prepare();

  const [{ createShipperServer }, { Probes }, { observabilityRoutes, createAdminServer }, { drainOnSignals }] = await Promise.all([
    import('../../server/server.js'),
    import('../../server/probes.js'),
    import('../../server/observability.js'),
    import('../../server/drain.js'),
  ]);
  const metrics = options.metrics ? new (await import('../../server/metrics.js')).ServeMetrics() : undefined;
  if (metrics) metrics.instrumentStore(api.store);
  const probes = new Probes({
    checkStore: () => api.store.readiness(),
    timeoutMs: options.readyTimeout,
    onChange: (verdict) => {
      if (verdict.ready) logger.info({ event: 'readiness', ready: true }, 'ready');
      else logger.warn({ event: 'readiness', ready: false, reason: verdict.reason, ...(verdict.internal ? { error: verdict.internal } : {}) }, `not ready: ${verdict.detail}`);
    },
  });
  metrics?.trackReadiness(async () => (await probes.readiness()).ready);
  const timeouts = { headersMs: options.headersTimeout, requestMs: options.requestTimeout, keepAliveMs: options.keepAliveTimeout };
  const logged = logger.isLevelEnabled('debug') || logger.isLevelEnabled('info') || logger.isLevelEnabled('error');
  const requestLog = logged ? requestLogLayer(logger) : undefined;
  const outerLayers = [...(requestLog ? [requestLog.layer] : []), ...(metrics ? [metrics.layer()] : [])];
  const admin = options.adminPort === undefined ? undefined : createAdminServer({ probes, metrics, layers: outerLayers, timeouts });
  const { ServeAuth } = await import('../../server/auth.js');
  const clock = await ctx.clock();
  const auth = new ServeAuth({ credentials: api.store.credentials, legacyKey: apiKey, now: () => clock().getTime(), trustProxy: options.trustProxy });
  const openSandbox = await auth.open();
  const instrumented = (engine: ShipperApi) => (metrics ? metrics.instrumentApi(engine) : engine);
  // Each company's engine (LocalApi.forCompany keeps them), instrumented once.
  const companyApis = new WeakMap<ShipperApi, ShipperApi>();
  const service = createShipperServer({
    api: instrumented(api),
    apiFor: (principal) => {
      const view = api.forCompany({ companyId: principal.companyId, keyId: principal.keyId });
      let served = companyApis.get(view);
      if (!served) companyApis.set(view, (served = instrumented(view)));
      return served;
    },
    apiKey,
    auth,
    bodyLimitBytes: options.bodyLimit,
    publicUrl: options.publicUrl,
    timeouts,
    layers: [...outerLayers, ...(admin ? [] : [observabilityRoutes({ probes, metrics, apiKey })])],
    onStoreWarning: (message) => logger.warn({ event: 'store-warning' }, message),
    onInternalError: settings.debug
      ? (error) => logger.error({ event: 'internal-error', error: error instanceof Error ? error.stack : String(error) }, 'internal error')
      : undefined,
  });

  let address;
  let adminAddress;
  try {
    address = await listenOrExplain(() => service.listen(options.port, options.host), '--port', options.port, options.host);
    if (admin) adminAddress = await listenOrExplain(() => admin.listen(options.adminPort!, options.adminHost), '--admin-port', options.adminPort!, options.adminHost);
  } catch (error) {
    await service.close(0);
    throw error;
  }

  // Signals are handled before the URL is printed: whoever reads the URL may stop the server at once.
  // Runs until SIGINT or SIGTERM; then the drain (server/drain.ts), and a second signal cuts it short.
  const stopped = drainOnSignals({
    signals,
    service,
    probes,
    admin,
    delayMs: options.drainDelay,
    timeoutMs: options.shutdownGrace ?? options.drainTimeout,
    events: {
      started: (signal) =>
        logger.info(
          { event: 'drain', signal, drainDelayMs: options.drainDelay, drainTimeoutMs: options.shutdownGrace ?? options.drainTimeout },
          `${signal}: finishing requests in flight, then stopping`,
        ),
      closing: () => logger.info({ event: 'drain', step: 'closing' }, 'no longer accepting connections; waiting for requests in flight'),
      forced: (signal) => logger.warn({ event: 'drain', signal, step: 'forced' }, `${signal} again: cutting requests in flight`),
    },
  });

  const url = urlOf(address);
  const adminUrl = adminAddress ? urlOf(adminAddress) : undefined;
  const readOnly = api.store.readOnly;
  if (io.options.json)
    io.json({
      url,
      store: api.store.location,
      apiKeyRequired: Boolean(apiKey) || !openSandbox,
      openSandbox: openSandbox && !apiKey,
      ...(adminUrl ? { adminUrl } : {}),
      ...(readOnly !== undefined ? { readOnly: true } : {}),
    });
  logger.info(
    {
      event: 'listening',
      url,
      ...(adminUrl ? { adminUrl } : {}),
      store: api.store.location,
      apiKeyRequired: Boolean(apiKey),
      ...(readOnly !== undefined ? { readOnly: true } : {}),
      log: format,
      metrics: Boolean(metrics),
    },
    `the Shipper Freight API on ${url} (store ${api.store.location}${readOnly !== undefined ? ', read-only' : ''}${apiKey ? ', API key required' : ''})`,
  );
  logger.info(
    { event: 'endpoints', openapi: `${url}${OPENAPI_PATH}` },
    `OpenAPI document at ${url}${OPENAPI_PATH}; probes and metrics at ${adminUrl ?? url} (/healthz, /readyz${metrics ? ', /metrics' : ''}); Ctrl-C stops`,
  );
  if (readOnly !== undefined) {
    warn(
      warning(
        'STORE_READ_ONLY',
        `the store ${api.store.location} is read-only (${readOnly}): reads are answered, every write is refused with 503 Store Read-Only until the store is writable again`,
      ),
    );
  }
  // Also with --json (stdout has the URL): the operator should know who may call.
  if (openSandbox && !apiKey)
    logger.info(
      { event: 'auth', openSandbox: true },
      'open sandbox: the store has no client and no key, so every token request succeeds and calls without credentials belong to the default company (shipper credentials add-client, add-key)',
    );
  else
    logger.info(
      { event: 'auth', openSandbox: false },
      `${openSandbox ? 'the API key of --api-key' : 'client credentials, a bearer token (POST /v1/auth/token) and an API key (x-oway-api-key)'} required on /v1/shipper/**`,
    );
  if (api.numbering.usesDocumentationPrefix) warn(warning('DOCUMENTATION_PREFIX', DOCUMENTATION_PREFIX_WARNING));
  if (!isLoopbackHost(options.host) && !apiKey && openSandbox) {
    warn(
      warning(
        'SERVE_WITHOUT_API_KEY',
        `listening on ${options.host} without an API key: anyone who can reach this address can book shipments; start with SHIPPER_SERVE_API_KEY or --api-key`,
      ),
    );
  }
  const { forced } = await stopped;
  // The lines of the requests cut short come before the last word.
  await requestLog?.settled();
  await api.store.close().then(
    () => logger.debug({ event: 'store', step: 'closed', store: api.store.location }, 'store closed'),
    (error: unknown) => logger.warn({ event: 'store', step: 'close-failed', error: error instanceof Error ? error.message : String(error) }, 'closing the store failed'),
  );
  logger.info({ event: 'stopped', forced }, 'stopped');
  await flush();
}

function urlOf(address: AddressInfo): string {
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

async function listenOrExplain(listen: () => Promise<AddressInfo>, flag: string, port: number, host: string): Promise<AddressInfo> {
  try {
    return await listen();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new CliError(`port ${port} on ${host} is in use; pick another with ${flag} (0: any free port)`, 'USAGE');
    if (code === 'EACCES') throw new CliError(`not allowed to listen on ${host}:${port}; ports below 1024 need privileges`, 'USAGE');
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new CliError(`cannot listen on ${host}: no such local address`, 'USAGE');
    throw error;
  }
}

export function registerServeCommands(program: ShipperCommand, context: ContextFactory): void {
  const serve = program
    .command('serve')
    .description('serve the Shipper Freight API over HTTP, backed by the local engine and store')
    .option('--host <host>', 'address to listen on (loopback by default)', '127.0.0.1')
    .option('--port <port>', 'port (0: any free port)', parsePort, DEFAULT_PORT)
    .option('--admin-port <port>', 'serve /healthz, /readyz and /metrics on this port instead of the API port (0: any free port)', parsePort)
    .option('--admin-host <host>', 'address of the admin port', '127.0.0.1')
    .option('--public-url <url>', 'the base URL clients reach this server at, for the download links it answers (default: http:// and the Host a request names)', parsePublicUrl)
    .option('--body-limit <bytes>', 'largest request body accepted (larger: 413)', parsePositiveInteger, 1024 * 1024)
    .option('--cache-size <n>', 'quotes and shipments kept in memory for GETs (they never change once written; 0: none)', parseCount, 10_000)
    .option('--bol-company-prefix <digits>', 'GS1 company prefix of the BOL numbers this server issues (else the setting bolCompanyPrefix)', parseCompanyPrefix)
    .option('--trust-proxy', 'a proxy in front sets X-Forwarded-For: the token endpoint throttles by its last address')
    .option('--drain-delay <duration>', 'after SIGTERM/SIGINT, how long /readyz says 503 while requests are still served', durationOption(0), DEFAULT_DRAIN_DELAY_MS)
    .option('--drain-timeout <duration>', 'then, how long requests in flight may take to finish before they are cut', durationOption(0), DEFAULT_DRAIN_TIMEOUT_MS)
    .addOption(new Option('--shutdown-grace <ms>', 'old name of --drain-timeout').argParser(durationOption(0)).hideHelp())
    .option('--ready-timeout <duration>', "how long the store may take to answer /readyz's check", durationOption(1), DEFAULT_READY_TIMEOUT_MS)
    .option('--headers-timeout <duration>', 'time a client has to send the request headers', durationOption(1), DEFAULT_TIMEOUTS.headersMs)
    .option('--request-timeout <duration>', 'time a client has to send the whole request', durationOption(1), DEFAULT_TIMEOUTS.requestMs)
    .option(
      '--keep-alive-timeout <duration>',
      "how long an idle keep-alive connection stays open (above your load balancer's idle timeout)",
      durationOption(1),
      DEFAULT_TIMEOUTS.keepAliveMs,
    )
    .addOption(offering(new Option('--log <format>', 'log format: json or pretty (default: pretty on a terminal, json otherwise)').argParser(parseLogFormat), ['json', 'pretty']))
    .addOption(offering(new Option('--log-level <level>', 'least level logged (default: info; warn with --quiet)').argParser(parseLogLevel), [...LOG_LEVELS]))
    .option('--no-metrics', 'no /metrics (nothing counted)')
    .examples(
      'shipper serve',
      'shipper --store ./ci-store serve --port 0 --json',
      'SHIPPER_SERVE_API_KEY=s3cret shipper serve --host 0.0.0.0 --port 8080 --admin-port 9090 --admin-host 0.0.0.0',
      'SHIPPER_STORE=postgres://shipper@db/shipper SHIPPER_PORT=8080 SHIPPER_LOG=json shipper serve',
    );
  serve
    .addHelpText(
      'after',
      () => `
Credentials: once the store has a client or a key (shipper credentials add-client, add-key), every
/v1/shipper/** call needs a bearer token from POST /v1/auth/token and a company key in
x-oway-api-key (docs/credentials.md); a store without any is an open sandbox.
API key: with the global --api-key KEY (or env SHIPPER_SERVE_API_KEY) every request needs
"Authorization: Bearer KEY" (401 otherwise); the OpenAPI document and the probes stay public,
/metrics on the API port needs the key too. SHIPPER_API_KEY, the client's key, is not used by serve.
--store, --tariff and SHIPPER_NOW apply as for local commands. Durations: milliseconds or 500ms, 5s, 2m.

Logs: one line per request and the server's events on stderr, JSON (pino) or pretty; never a
body, a header or a secret. Probes: GET /healthz (the process answers), GET /readyz (the store
answers and its schema is current; 503 as soon as a drain starts). With --json the listening URL
is printed on stdout as {"url": ...}. Stopping: SIGTERM or SIGINT drains (docs/operations.md).

Environment (a flag given on the command line wins):
${serveEnvironmentHelp(serve)}`,
    )
    .action(async (options: Omit<ServeOptions, 'apiKey'>, command: Command) => {
      // --api-key is a global option: commander parses it on the program wherever it appears.
      const root = command.parent!;
      const apiKey = root.getOptionValueSource('apiKey') === 'cli' ? (root.opts() as { apiKey?: string }).apiKey : undefined;
      const ctx = context(command);
      return runServe(ctx, { ...withServeEnvironment(command, options, ctx.env), apiKey });
    });
}

/** An http(s) URL without query or fragment: the links are it and a path. */
function parsePublicUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError('must be a URL, e.g. https://freight.example.com');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash || url.username || url.password) {
    throw new InvalidArgumentError('must be an http(s) URL without query, fragment or credentials');
  }
  return url.href.replace(/\/+$/, '');
}
