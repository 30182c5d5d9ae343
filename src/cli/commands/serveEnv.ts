/**
 * `shipper serve` configured from the environment: every flag of serve has a SHIPPER_ variable,
 * so that a unit file or a container sets it without a command line. A flag on the command line
 * wins over its variable, the variable over the default; a bad value is a usage error that names
 * the variable.
 */
import { InvalidArgumentError, type Command } from 'commander';
import { UsageError } from '../errors.js';

/** Flag (commander's attribute name) to variable, in the order `serve --help` lists them. */
export const SERVE_ENV: ReadonlyArray<readonly [option: string, variable: string]> = [
  ['host', 'SHIPPER_HOST'],
  ['port', 'SHIPPER_PORT'],
  ['adminHost', 'SHIPPER_ADMIN_HOST'],
  ['adminPort', 'SHIPPER_ADMIN_PORT'],
  ['bodyLimit', 'SHIPPER_BODY_LIMIT'],
  ['publicUrl', 'SHIPPER_PUBLIC_URL'],
  ['cacheSize', 'SHIPPER_CACHE_SIZE'],
  ['drainDelay', 'SHIPPER_DRAIN_DELAY'],
  ['drainTimeout', 'SHIPPER_DRAIN_TIMEOUT'],
  ['readyTimeout', 'SHIPPER_READY_TIMEOUT'],
  ['headersTimeout', 'SHIPPER_HEADERS_TIMEOUT'],
  ['requestTimeout', 'SHIPPER_REQUEST_TIMEOUT'],
  ['keepAliveTimeout', 'SHIPPER_KEEP_ALIVE_TIMEOUT'],
  ['log', 'SHIPPER_LOG'],
  ['logLevel', 'SHIPPER_LOG_LEVEL'],
  ['metrics', 'SHIPPER_METRICS'],
];

/** The variables of the global options serve uses (resolved with the settings, not here). */
export const SERVE_GLOBAL_ENV: ReadonlyArray<readonly [flag: string, variable: string]> = [
  ['--store', 'SHIPPER_STORE'],
  ['--tariff', 'SHIPPER_TARIFF'],
  ['--api-key (serve)', 'SHIPPER_SERVE_API_KEY'],
  ['--bol-company-prefix', 'SHIPPER_BOL_COMPANY_PREFIX'],
];

/** The options as given, with each one left at its default taken from its variable when that is set. */
export function withServeEnvironment<T extends object>(command: Command, options: T, env: NodeJS.ProcessEnv): T {
  const merged = { ...options } as Record<string, unknown>;
  for (const [name, variable] of SERVE_ENV) {
    const raw = env[variable];
    if (raw === undefined || raw === '') continue;
    const source = command.getOptionValueSource(name);
    if (source !== undefined && source !== 'default' && source !== 'implied') continue;
    const option = command.options.find((candidate) => candidate.attributeName() === name);
    if (!option) continue;
    try {
      merged[name] = option.negate || name === 'metrics' ? parseSwitch(raw) : option.parseArg ? option.parseArg(raw, undefined) : raw;
    } catch (error) {
      const reason = error instanceof InvalidArgumentError ? error.message : String(error);
      throw new UsageError(`${variable}=${raw}: ${reason}`);
    }
  }
  return merged as T;
}

function parseSwitch(value: string): boolean {
  const normalised = value.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(normalised)) return true;
  if (['0', 'false', 'no', 'off'].includes(normalised)) return false;
  throw new InvalidArgumentError('must be 1 or 0 (true or false, on or off)');
}

/** The lines `serve --help` shows. */
export function serveEnvironmentHelp(command: Command): string {
  const flagOf = (name: string) =>
    command.options.find((option) => option.attributeName() === name && !option.negate)?.long ?? command.options.find((option) => option.attributeName() === name)?.long ?? name;
  const rows = [...SERVE_ENV.map(([name, variable]) => [variable, flagOf(name)] as const), ...SERVE_GLOBAL_ENV.map(([flag, variable]) => [variable, flag] as const)];
  const width = Math.max(...rows.map(([variable]) => variable.length));
  return rows.map(([variable, flag]) => `  ${variable.padEnd(width)}  ${flag}`).join('\n');
}
