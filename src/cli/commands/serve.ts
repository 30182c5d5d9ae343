/** `shipper serve`: the local engine and store as the Shipper Freight API over HTTP. */
import type { Command } from 'commander';
import { warning } from '../../domain/warnings.js';
import { InvalidArgumentError } from 'commander';
import { DOCUMENTATION_PREFIX_WARNING, GS1_COMPANY_PREFIX_RULE, isGs1CompanyPrefix } from '../../domain/bolNumber.js';
import { isLoopbackHost, OPENAPI_PATH } from '../../api/wire.js';
import type { CommandContext } from '../context.js';
import { CliError, UsageError } from '../errors.js';
import type { ContextFactory } from '../context.js';
import { wholeNumberOption } from '../optionParsers.js';
import type { ShipperCommand } from '../examples.js';

export interface ServeOptions {
  host: string;
  port: number;
  /** The global --api-key, when it was given on the command line (not SHIPPER_API_KEY). */
  apiKey?: string | undefined;
  bodyLimit: number;
  shutdownGrace: number;
  /** Quotes and shipments kept in memory for GETs; 0: none. */
  cacheSize: number;
  /** GS1 company prefix of the BOL numbers this server issues (over the settings). */
  bolCompanyPrefix?: string | undefined;
  /** The token endpoint's throttle takes the client's address from X-Forwarded-For (a proxy in front is trusted). */
  trustProxy?: boolean | undefined;
}

export const DEFAULT_PORT = 8787;

const parsePort = wholeNumberOption(0, 65535, 'must be a port number from 0 to 65535 (0: any free port)');
const parseCount = wholeNumberOption(0);
const parsePositiveInteger = wholeNumberOption(1);

function parseCompanyPrefix(value: string): string {
  if (!isGs1CompanyPrefix(value.trim())) throw new InvalidArgumentError(GS1_COMPANY_PREFIX_RULE);
  return value.trim();
}

export async function runServe(ctx: CommandContext, options: ServeOptions, signals: NodeJS.EventEmitter = process): Promise<void> {
  const { globals, io } = ctx;
  if (globals.remote || globals.sandbox || globals.baseUrl) {
    throw new UsageError('shipper serve serves the local engine and store; --remote, --sandbox and --base-url do not apply');
  }
  const settings = await ctx.settings();
  const apiKey = options.apiKey ?? settings.serveApiKey;
  const api = await ctx.localApi({ cacheEntries: options.cacheSize, bolCompanyPrefix: options.bolCompanyPrefix, serve: true });
  // A bad tariff, bad carrier agreements or an unusable store fail now, not at the first request (a database behind is migrated).
  await api.loadTariff();
  await api.agreements.load();
  await api.store.prepare();

  const { createShipperServer } = await import('../../server/server.js');
  const { ServeAuth } = await import('../../server/auth.js');
  const clock = await ctx.clock();
  const auth = new ServeAuth({ credentials: api.store.credentials, legacyKey: apiKey, now: () => clock().getTime(), trustProxy: options.trustProxy });
  const openSandbox = await auth.open();
  const stderr = io.streams.stderr;
  const service = createShipperServer({
    api,
    apiKey,
    auth,
    bodyLimitBytes: options.bodyLimit,
    accessLog: io.options.quiet ? undefined : (line) => stderr.write(`${line}\n`),
    onInternalError: settings.debug ? (error) => stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`) : undefined,
  });

  let address;
  try {
    address = await service.listen(options.port, options.host);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new CliError(`port ${options.port} on ${options.host} is in use; pick another with --port (0: any free port)`, 'USAGE');
    if (code === 'EACCES') throw new CliError(`not allowed to listen on ${options.host}:${options.port}; ports below 1024 need privileges`, 'USAGE');
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new CliError(`cannot listen on ${options.host}: no such local address`, 'USAGE');
    throw error;
  }

  // Signals are handled before the URL is printed: whoever reads the URL may stop the server at once.
  // Runs until SIGINT or SIGTERM; then in-flight requests finish, and a second signal cuts them off.
  const stopped = new Promise<void>((resolve) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) {
        service.server.closeAllConnections();
        return;
      }
      stopping = true;
      if (!io.options.quiet) stderr.write(`shipper serve: ${signal}: finishing requests in flight, then stopping\n`);
      void service.close(options.shutdownGrace).then(() => {
        signals.off('SIGINT', onInt);
        signals.off('SIGTERM', onTerm);
        resolve();
      });
    };
    const onInt = () => stop('SIGINT');
    const onTerm = () => stop('SIGTERM');
    signals.on('SIGINT', onInt);
    signals.on('SIGTERM', onTerm);
  });

  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  const readOnly = api.store.readOnly;
  if (io.options.json) io.json({ url, store: api.store.location, apiKeyRequired: Boolean(apiKey) || !openSandbox, openSandbox: openSandbox && !apiKey, ...(readOnly !== undefined ? { readOnly: true } : {}) });
  else {
    stderr.write(
      `shipper serve: the Shipper Freight API on ${url} (store ${api.store.location}${readOnly !== undefined ? ', read-only' : ''}${apiKey ? ', API key required' : ''})\n`,
    );
    stderr.write(`shipper serve: OpenAPI document at ${url}${OPENAPI_PATH}; Ctrl-C stops\n`);
  }
  if (readOnly !== undefined) {
    io.warn(
      warning(
        'STORE_READ_ONLY',
        `the store ${api.store.location} is read-only (${readOnly}): reads are answered, every write is refused with 503 Store Read-Only until the store is writable again`,
      ),
    );
  }
  // Also with --json (stdout has the URL): the operator should know who may call.
  if (!io.options.quiet) {
    stderr.write(
      openSandbox && !apiKey
        ? 'shipper serve: open sandbox: the store has no client and no key, so every token request succeeds and calls without credentials belong to the default company (shipper credentials add-client, add-key)\n'
        : `shipper serve: ${openSandbox ? 'the API key of --api-key' : 'client credentials, a bearer token (POST /v1/auth/token) and an API key (x-oway-api-key)'} required on /v1/shipper/**\n`,
    );
  }
  if (api.numbering.usesDocumentationPrefix) io.warn(warning('DOCUMENTATION_PREFIX', DOCUMENTATION_PREFIX_WARNING));
  if (!isLoopbackHost(options.host) && !apiKey && openSandbox) {
    io.warn(
      warning(
        'SERVE_WITHOUT_API_KEY',
        `listening on ${options.host} without an API key: anyone who can reach this address can book shipments; start with SHIPPER_SERVE_API_KEY or --api-key`,
      ),
    );
  }
  await stopped;
  if (!io.options.quiet) stderr.write('shipper serve: stopped\n');
}

export function registerServeCommands(program: ShipperCommand, context: ContextFactory): void {
  program
    .command('serve')
    .description('serve the Shipper Freight API over HTTP, backed by the local engine and store')
    .option('--host <host>', 'address to listen on (loopback by default)', '127.0.0.1')
    .option('--port <port>', 'port (0: any free port)', parsePort, DEFAULT_PORT)
    .option('--body-limit <bytes>', 'largest request body accepted (larger: 413)', parsePositiveInteger, 1024 * 1024)
    .option('--cache-size <n>', 'quotes and shipments kept in memory for GETs (they never change once written; 0: none)', parseCount, 10_000)
    .option('--bol-company-prefix <digits>', 'GS1 company prefix of the BOL numbers this server issues (else the setting bolCompanyPrefix)', parseCompanyPrefix)
    .option('--trust-proxy', 'a proxy in front sets X-Forwarded-For: the token endpoint throttles by its last address')
    .option('--shutdown-grace <ms>', 'how long requests in flight may take to finish after SIGINT/SIGTERM', parsePositiveInteger, 10_000)
    .examples('shipper serve', 'shipper --store ./ci-store serve --port 0 --json', 'SHIPPER_SERVE_API_KEY=s3cret shipper serve --host 0.0.0.0 --port 8080')
    .addHelpText(
      'after',
      `
Credentials: once the store has a client or a key (shipper credentials add-client, add-key), every
/v1/shipper/** call needs a bearer token from POST /v1/auth/token and a company key in
x-oway-api-key (docs/credentials.md); a store without any is an open sandbox.
API key: with the global --api-key KEY (or env SHIPPER_SERVE_API_KEY) every request needs
"Authorization: Bearer KEY" (401 otherwise), the default company's key; the OpenAPI document stays public. SHIPPER_API_KEY,
the client's key, is not used by serve. --store, --tariff and SHIPPER_NOW apply as for local commands.
One access-log line per request goes to stderr (--quiet: none). With --json the listening URL is
printed on stdout as {"url": ...}.`,
    )
    .action(async (options: Omit<ServeOptions, 'apiKey'>, command: Command) => {
      // --api-key is a global option: commander parses it on the program wherever it appears.
      const root = command.parent!;
      const apiKey = root.getOptionValueSource('apiKey') === 'cli' ? (root.opts() as { apiKey?: string }).apiKey : undefined;
      return runServe(context(command), { ...options, apiKey });
    });
}
