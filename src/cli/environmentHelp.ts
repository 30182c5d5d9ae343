/**
 * `shipper help environment`: every environment variable shipper reads, what it does and what
 * beats it. A test greps the source for the variables read and finds each one here.
 */
import { wrapWords } from './topics/wrap.js';

export interface EnvironmentVariable {
  name: string;
  what: string;
  /** What wins over it, and what it wins over ("" when nothing else sets the same thing). */
  precedence: string;
}

export interface EnvironmentGroup {
  title: string;
  variables: EnvironmentVariable[];
}

export const ENVIRONMENT: EnvironmentGroup[] = [
  {
    title: 'Where data and settings live',
    variables: [
      {
        name: 'SHIPPER_STORE',
        what: 'the store: a directory, or a postgres:// URL (docs/postgres.md)',
        precedence: "--store beats it; it beats the config's store and the data directory",
      },
      {
        name: 'PGPASSWORD',
        what: 'the password of a PostgreSQL store whose URL carries none (kept out of the URL and the config file)',
        precedence: "a password in the store's URL beats it",
      },
      {
        name: 'PGPASSFILE',
        what: 'the password file of a PostgreSQL store (lines host:port:database:user:password, chmod 600; default ~/.pgpass)',
        precedence: "a password in the store's URL and PGPASSWORD beat it",
      },
      { name: 'SHIPPER_TARIFF', what: 'the tariff JSON the local engine rates with', precedence: "--tariff beats it; it beats the config's tariff and the shipped tariff" },
      {
        name: 'SHIPPER_TARIFFS',
        what: 'the carrier agreement directory of rate shopping (samples: the shipped samples)',
        precedence: "--tariffs beats it; it beats the config's tariffs",
      },
      { name: 'SHIPPER_CONFIG_DIR', what: 'the directory of config.json (CI jobs, tests)', precedence: "it beats the platform's config directory" },
      { name: 'XDG_CONFIG_HOME', what: 'Linux: the config directory is $XDG_CONFIG_HOME/shipper (default ~/.config/shipper)', precedence: 'SHIPPER_CONFIG_DIR beats it' },
      {
        name: 'XDG_DATA_HOME',
        what: 'Linux: the default store is $XDG_DATA_HOME/shipper (default ~/.local/share/shipper)',
        precedence: "--store, SHIPPER_STORE and the config's store beat it",
      },
      { name: 'HOME', what: 'where the config and data directories are when nothing above names them', precedence: '' },
      {
        name: 'APPDATA, LOCALAPPDATA',
        what: 'Windows: the config (%APPDATA%\\shipper\\Config) and data (%LOCALAPPDATA%\\shipper\\Data) directories',
        precedence: 'as XDG_CONFIG_HOME and XDG_DATA_HOME',
      },
    ],
  },
  {
    title: 'Remote mode',
    variables: [
      {
        name: 'SHIPPER_MODE',
        what: 'local or remote: where commands go',
        precedence: "--local, --remote, --base-url and --sandbox beat it; it beats SHIPPER_BASE_URL's implied remote and the config's mode",
      },
      {
        name: 'SHIPPER_BASE_URL',
        what: "the server's root URL (https://api.example.com, without /v1); implies remote mode",
        precedence: "--base-url and --sandbox beat it; it beats the profile's baseUrl",
      },
      {
        name: 'SHIPPER_PROFILE',
        what: 'the config profile remote mode uses (base URL and API key)',
        precedence: "--profile and --sandbox beat it; it beats the config's profile (default production)",
      },
      { name: 'SHIPPER_API_KEY', what: 'the API key sent to the server', precedence: "--api-key beats it; it beats OWAY_API_KEY and the profile's apiKey" },
      { name: 'SHIPPER_CLIENT_ID', what: 'the client id that buys bearer tokens (docs/credentials.md)', precedence: "it beats OWAY_M2M_CLIENT_ID and the profile's clientId" },
      {
        name: 'SHIPPER_CLIENT_SECRET',
        what: 'the client secret that buys bearer tokens (never printed)',
        precedence: "it beats OWAY_M2M_CLIENT_SECRET and the profile's clientSecret",
      },
      { name: 'OWAY_BASE_URL', what: "the official client's base URL; implies remote mode", precedence: "SHIPPER_BASE_URL beats it; it beats the profile's baseUrl" },
      { name: 'OWAY_API_KEY', what: "the official client's company API key (x-oway-api-key)", precedence: "SHIPPER_API_KEY beats it; it beats the profile's apiKey" },
      { name: 'OWAY_M2M_CLIENT_ID', what: "the official client's client id", precedence: "SHIPPER_CLIENT_ID beats it; it beats the profile's clientId" },
      { name: 'OWAY_M2M_CLIENT_SECRET', what: "the official client's client secret", precedence: "SHIPPER_CLIENT_SECRET beats it; it beats the profile's clientSecret" },
      { name: 'SHIPPER_TIMEOUT_MS', what: 'remote timeout of one attempt, in ms (100-600000; default 30000)', precedence: "it beats the config's timeoutMs" },
      { name: 'SHIPPER_RETRIES', what: 'retries of a failed remote attempt (0-10; default 2)', precedence: "it beats the config's retries" },
      {
        name: 'SHIPPER_SERVICE',
        what: "what the remote server offers: published (Oway's operations alone) or serve (shipper serve's extensions too); default published for Oway's hosts, serve for any other",
        precedence: "it beats the config's service",
      },
    ],
  },
  {
    title: 'shipper serve and booking',
    variables: [
      {
        name: 'SHIPPER_SERVE_API_KEY',
        what: 'the key shipper serve asks of clients (Authorization: Bearer KEY)',
        precedence: '--api-key beats it; serve never uses SHIPPER_API_KEY',
      },
      {
        name: 'SHIPPER_HOST',
        what: 'the address shipper serve listens on',
        precedence: '--host beats it',
      },
      {
        name: 'SHIPPER_PORT',
        what: "shipper serve's API port",
        precedence: '--port beats it',
      },
      {
        name: 'SHIPPER_ADMIN_HOST',
        what: 'the address of the admin port (probes and metrics)',
        precedence: '--admin-host beats it',
      },
      {
        name: 'SHIPPER_ADMIN_PORT',
        what: 'serve /healthz, /readyz and /metrics on this port of their own',
        precedence: '--admin-port beats it',
      },
      {
        name: 'SHIPPER_BODY_LIMIT',
        what: 'the largest request body shipper serve accepts, in bytes',
        precedence: '--body-limit beats it',
      },
      {
        name: 'SHIPPER_PUBLIC_URL',
        what: 'the base URL clients reach shipper serve at, for the download links it answers',
        precedence: '--public-url beats it',
      },
      {
        name: 'SHIPPER_CACHE_SIZE',
        what: 'quotes and shipments shipper serve keeps in memory for GETs',
        precedence: '--cache-size beats it',
      },
      {
        name: 'SHIPPER_DRAIN_DELAY',
        what: 'after SIGTERM, how long /readyz says 503 while serve still serves (5s)',
        precedence: '--drain-delay beats it',
      },
      {
        name: 'SHIPPER_DRAIN_TIMEOUT',
        what: 'then, how long requests in flight may take before they are cut (10s)',
        precedence: '--drain-timeout beats it',
      },
      {
        name: 'SHIPPER_READY_TIMEOUT',
        what: "how long the store may take to answer /readyz's check (2s)",
        precedence: '--ready-timeout beats it',
      },
      {
        name: 'SHIPPER_HEADERS_TIMEOUT',
        what: 'time a client has to send its request headers (10s)',
        precedence: '--headers-timeout beats it',
      },
      {
        name: 'SHIPPER_REQUEST_TIMEOUT',
        what: 'time a client has to send its whole request (30s)',
        precedence: '--request-timeout beats it',
      },
      {
        name: 'SHIPPER_KEEP_ALIVE_TIMEOUT',
        what: 'how long an idle keep-alive connection stays open (5s)',
        precedence: '--keep-alive-timeout beats it',
      },
      {
        name: 'SHIPPER_LOG',
        what: "shipper serve's log format: json or pretty",
        precedence: '--log beats it',
      },
      {
        name: 'SHIPPER_LOG_LEVEL',
        what: "shipper serve's least level logged (info)",
        precedence: '--log-level beats it',
      },
      {
        name: 'SHIPPER_METRICS',
        what: '0: shipper serve answers no /metrics and counts nothing',
        precedence: '--no-metrics beats it',
      },
      {
        name: 'SHIPPER_BOL_COMPANY_PREFIX',
        what: 'your GS1 company prefix (7-10 digits) for BOL numbers and SSCCs',
        precedence: "the --bol-company-prefix of shipper serve beats it; it beats the config's bolCompanyPrefix",
      },
      { name: 'SHIPPER_NOW', what: 'an ISO-8601 instant the clock starts at (it keeps running): demos and CI jobs with a fixed calendar', precedence: '' },
    ],
  },
  {
    title: 'Printing (--print)',
    variables: [
      {
        name: 'SHIPPER_PRINT_TIMEOUT_MS',
        what: 'how long --print waits for a printer or the spooler (connecting, taking the data, closing), in ms (default 10000)',
        precedence: "it beats the config's print.timeoutMs",
      },
      { name: 'PATH', what: 'where the spooler is looked for: lp, else lpr (docs/printing.md)', precedence: '' },
    ],
  },
  {
    title: 'Terminal',
    variables: [
      { name: 'NO_COLOR', what: 'set (any value): no colours', precedence: 'as --no-color' },
      { name: 'TERM', what: 'dumb: no colours and no progress bar', precedence: '' },
      { name: 'CI', what: 'set: no progress bar (CI logs are not terminals)', precedence: '' },
      { name: 'SHIPPER_DEBUG', what: 'set: the stack trace of an unexpected error on stderr', precedence: '' },
    ],
  },
  {
    title: "The store's crash tests (never needed otherwise)",
    variables: [
      { name: 'SHIPPER_JOURNAL_LIMIT', what: "bytes of the store's journal after which it is compacted (default 32 MiB)", precedence: '' },
      { name: 'SHIPPER_PENDING_LIMIT', what: 'bytes of a pending log after which it is merged into its buckets (default 2 MiB)', precedence: '' },
      {
        name: 'SHIPPER_KILL_AT',
        what: 'a kill point of the store (journal-write, after-journal, during-apply, during-compaction, during-merge[@N]): the process kills itself there',
        precedence: '',
      },
    ],
  },
];

/** The help text, wrapped to `width` columns (at least 60). */
export function environmentHelp(width = 100): string {
  const nameWidth = Math.max(...ENVIRONMENT.flatMap((group) => group.variables.map((variable) => variable.name.length))) + 2;
  const textWidth = Math.max(60, width) - nameWidth - 2;
  const wrap = (text: string): string[] => wrapWords(text, textWidth);
  const out = ['Environment variables shipper reads. Flags beat them; they beat the config file (shipper config),', 'which beats the defaults.'];
  for (const group of ENVIRONMENT) {
    out.push('', `${group.title}:`);
    for (const variable of group.variables) {
      const text = variable.precedence ? `${variable.what}. ${variable.precedence.charAt(0).toUpperCase()}${variable.precedence.slice(1)}.` : `${variable.what}.`;
      wrap(text).forEach((line, index) => out.push(`  ${(index === 0 ? variable.name : '').padEnd(nameWidth)}${line}`));
    }
  }
  out.push('', 'Example:', '  $ SHIPPER_STORE=/srv/shipper SHIPPER_NOW=2026-11-23T15:00:00Z shipper shipment list --csv');
  return `${out.join('\n')}\n`;
}
