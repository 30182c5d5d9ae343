/**
 * Settings: what the config file may hold, where it is, and how flags, environment and config
 * resolve into the settings a command runs with (flags > env > config > defaults).
 *
 * Every command reads the config to learn its mode, so this path stays cheap: the file (conf's
 * file, at conf's location, in conf's JSON format) is read with plain fs; the conf package itself
 * is loaded only by `shipper config ...`, which writes it.
 */
import { existsSync, readFileSync, renameSync, rmdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { carrierProfilesSchema, type CarrierProfiles } from '../domain/carrierProfile.js';
import { DEFAULT_PROFILES, defaultServiceKind, SERVICE_KINDS, type ServiceKind } from '../domain/apiServers.js';
import { GS1_COMPANY_PREFIX_PATTERN, GS1_COMPANY_PREFIX_RULE, isGs1CompanyPrefix } from '../domain/bolNumber.js';
import { decimalNumber } from '../domain/numberText.js';
import { parseStoreLocation, StoreLocationError, type StoreLocation } from './storeLocation.js';
import { ShipperError, type ErrorCode } from '../domain/errors.js';

export function defaultBaseUrl(profile: string): string | undefined {
  return Object.hasOwn(DEFAULT_PROFILES, profile) ? DEFAULT_PROFILES[profile as keyof typeof DEFAULT_PROFILES].baseUrl : undefined;
}
export const DEFAULT_PROFILE = 'production';
export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_RETRIES = 2;

export const profileNameSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, { message: 'profile names are letters, digits, - and _ (at most 64)' });

export const baseUrlSchema = z
  .string()
  .trim()
  .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), { message: 'must be an http:// or https:// URL' })
  .transform((value) => value.replace(/\/+$/, ''));

export const modeSchema = z.enum(['local', 'remote'], { error: 'must be local or remote' });

const profileSchema = z.object({
  baseUrl: baseUrlSchema.optional(),
  apiKey: z.string().min(1).optional(),
  /** Client credentials (shipper auth login): they buy the bearer token; the apiKey is the company's key. */
  clientId: z.string().min(1).optional(),
  clientSecret: z.string().min(1).optional(),
});

const palletSizeSchema = z.strictObject({ length: z.number().positive(), width: z.number().positive(), height: z.number().positive() });
/**
 * The limits "subject to change, these are configurable" (the published confirm): pallets per order,
 * pounds per pallet and the three pallet sizes. The quote lifetime is the tariff's
 * (`quoteLifetimeHours`, the published 48 by default); the default pallet is the published one.
 */
const limitsSchema = z.strictObject({
  minPalletsPerOrder: z.number().int().min(1).optional(),
  maxPalletsPerOrder: z.number().int().min(1).optional(),
  minPoundsPerPallet: z.number().positive().optional(),
  maxPoundsPerPallet: z.number().positive().optional(),
  standardPallet: palletSizeSchema.optional(),
  liftgatePallet: palletSizeSchema.optional(),
  oversizePallet: palletSizeSchema.optional(),
});

/** The config file. Unknown keys are kept (a newer shipper may have written them). */
export const configFileSchema = z.looseObject({
  mode: modeSchema.optional(),
  profile: profileNameSchema.optional(),
  store: z.string().min(1).optional(),
  tariff: z.string().min(1).optional(),
  /** The carrier agreement directory (`samples`: the shipped samples). */
  tariffs: z.string().min(1).optional(),
  timeoutMs: z.number().int().min(100).max(600_000).optional(),
  bolCompanyPrefix: z.string().regex(GS1_COMPANY_PREFIX_PATTERN, { message: GS1_COMPANY_PREFIX_RULE }).optional(),
  ssccExtensionDigit: z.number().int().min(0).max(9).optional(),
  carriers: carrierProfilesSchema.optional(),
  /** X12 interchange settings shared by every carrier (sender ids, separators, usage); checked when a file is written. */
  x12: z.record(z.string(), z.unknown()).optional(),
  /** eBOL request settings (test flag, requestor role, accounts); checked when a file is written. */
  ebol: z.record(z.string(), z.unknown()).optional(),
  retries: z.number().int().min(0).max(10).optional(),
  /** What the remote server offers: `published` (Oway's operations alone) or `serve` (shipper serve's extensions too). */
  service: z.enum(SERVICE_KINDS).optional(),
  /** The published freight limits of the local engine (publishedLimits.ts), each defaulting to the published value. */
  limits: limitsSchema.optional(),
  profiles: z.record(z.string(), profileSchema).optional(),
});
export type ConfigFile = z.output<typeof configFileSchema>;

/** A setting (flag, environment, config file) that cannot be used: a usage error, exit 2. */
export class ConfigError extends ShipperError {
  readonly code: ErrorCode = 'CONFIG';

  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/**
 * `<name>` in the platform's config directory, where env-paths (conf's resolver) places it, but
 * from the environment given (tests and `shipper help environment` name the same variables).
 */
export function platformConfigDir(name: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  const home = env.HOME || homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Preferences', name);
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), name, 'Config');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), name);
}

/** The config directory: `SHIPPER_CONFIG_DIR` (tests, CI), else `shipper` in the platform's config directory. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SHIPPER_CONFIG_DIR) return resolve(env.SHIPPER_CONFIG_DIR);
  return platformConfigDir('shipper', env);
}

/** Where shipper 0.1 kept it: conf's default name, `shipper-nodejs` (none with SHIPPER_CONFIG_DIR). */
export function legacyConfigDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env.SHIPPER_CONFIG_DIR ? undefined : platformConfigDir('shipper-nodejs', env);
}

export const configFilePath = (env: NodeJS.ProcessEnv = process.env): string => join(configDir(env), 'config.json');

export interface ConfigLocation {
  /** The directory conf writes in and the file every command reads. */
  dir: string;
  file: string;
  /** Said once, when the file was just moved from the old place (or is read there because it could not be). */
  notice?: string;
}

/**
 * The config file in use. A file at the old place (`shipper-nodejs`) while the new place has none
 * is moved to the new place, once, and said so; when it cannot be moved (a read-only home, another
 * file system) it is read where it is, and the notice says why.
 */
export async function settleConfigLocation(env: NodeJS.ProcessEnv = process.env): Promise<ConfigLocation> {
  const dir = configDir(env);
  const file = join(dir, 'config.json');
  const legacyDir = legacyConfigDir(env);
  const legacyFile = legacyDir && join(legacyDir, 'config.json');
  if (!legacyFile || existsSync(file) || !existsSync(legacyFile)) return { dir, file };
  try {
    const { makeDirectory } = await import('../fs/makeDirectory.js');
    await makeDirectory(dir);
    // Not over a file that appeared meanwhile (another shipper moving it at the same moment).
    if (existsSync(file)) return { dir, file };
    renameSync(legacyFile, file);
    try {
      rmdirSync(legacyDir); // only when empty: anything else there is not ours to remove
    } catch {
      // kept
    }
    return { dir, file, notice: `moved the config file from ${legacyFile} to ${file} (the config directory is now named shipper)` };
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return { dir: legacyDir, file: legacyFile, notice: `reading the config file at its old place ${legacyFile}: it could not be moved to ${file} (${reason}); move it yourself` };
  }
}

/** The config file's settings; none when there is no file. A damaged file is a ConfigError naming it. */
export function readConfigFile(file: string): ConfigFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new ConfigError(`cannot read the config file ${file}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ConfigError(`the config file ${file} is not valid JSON; fix it or remove it (shipper config path)`);
  }
  const parsed = configFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`the config file ${file} has a bad setting ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return parsed.data;
}

// -----------------------------------------------------------------------------------------------
// Resolution

export interface SettingFlags {
  remote?: boolean | undefined;
  local?: boolean | undefined;
  sandbox?: boolean | undefined;
  baseUrl?: string | undefined;
  /** From the command line only (commander folds SHIPPER_API_KEY into the same option). */
  apiKey?: string | undefined;
  profile?: string | undefined;
  store?: string | undefined;
  tariff?: string | undefined;
  tariffs?: string | undefined;
}

export type SettingSource = 'flag' | 'env' | 'config' | 'default';

/**
 * Everything a command runs with, resolved once per process: commands and the parts they build
 * (the local engine, the address book, the clock) read it from here and nowhere else.
 */
export interface Settings {
  mode: 'local' | 'remote';
  profile: string;
  baseUrl: string | undefined;
  apiKey: string | undefined;
  /** Client credentials: flags of auth login, SHIPPER_CLIENT_ID/SECRET, OWAY_M2M_CLIENT_ID/SECRET, the profile. */
  clientId: string | undefined;
  clientSecret: string | undefined;
  timeoutMs: number;
  retries: number;
  /**
   * What the remote server offers: `published`, the operations of the published document alone
   * (Oway's hosts by default), or `serve`, shipper serve's extensions too (any other base URL).
   */
  service: ServiceKind;
  /**
   * The local store directory, absolute: --store, SHIPPER_STORE, the config's store, the data
   * directory. When the store is a database, the data directory (saved locations stay there).
   */
  store: string;
  /** Where the engine's records are: the store directory, or the PostgreSQL database --store names. */
  storeLocation: StoreLocation;
  tariff: string | undefined;
  /** The carrier agreement directory, absolute, or `samples` (the shipped samples); undefined: the tariff prices alone. */
  tariffs: string | undefined;
  /** SHIPPER_NOW as milliseconds since the epoch: the clock starts there (and keeps running). */
  clockStart: number | undefined;
  /** The key `shipper serve` asks of clients (its --api-key flag is applied by serve). */
  serveApiKey: string | undefined;
  /** GS1 company prefix of BOL numbers (and SSCCs); undefined: GS1's documentation prefix. */
  bolCompanyPrefix: string | undefined;
  /** SHIPPER_DEBUG: stack traces of unexpected errors on stderr. */
  debug: boolean;
  /** The extension digit of the SSCCs of pallet labels (0-9). */
  ssccExtensionDigit: number;
  /** The config's overrides of the published freight limits (publishedLimits.ts); empty: the published values. */
  limits: NonNullable<ConfigFile['limits']>;
  /** What the shipper knows of each carrier, by SCAC (PRO block, cut-off, X12 ids). */
  carriers: CarrierProfiles;
  x12: Record<string, unknown>;
  ebol: Record<string, unknown>;
  sources: Record<'mode' | 'profile' | 'baseUrl' | 'apiKey' | 'timeoutMs' | 'retries' | 'service' | 'store' | 'bolCompanyPrefix', SettingSource>;
}

/** Where the store lives when nothing says otherwise: the user's data directory. */
export function defaultStoreDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  // Where env-paths puts `data`, from the environment main() is given, as platformConfigDir does.
  const home = env.HOME || homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'shipper');
  if (platform === 'win32') return join(env.LOCALAPPDATA || join(home, 'AppData', 'Local'), 'shipper', 'Data');
  return join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'shipper');
}

type Candidate<T> = [SettingSource, T | undefined];

function first<T>(...candidates: Candidate<T>[]): [SettingSource, T | undefined] {
  for (const candidate of candidates) if (candidate[1] !== undefined && candidate[1] !== '') return candidate;
  return ['default', undefined];
}

function envInteger(env: NodeJS.ProcessEnv, name: string, min: number, max: number): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = decimalNumber(raw) ?? NaN;
  if (!Number.isInteger(value) || value < min || value > max) throw new ConfigError(`${name}=${raw} must be a whole number from ${min} to ${max}`);
  return value;
}

/** Pure: the settings that flags, environment and config file give, highest first. */
export function resolveSettings(flags: SettingFlags, env: NodeJS.ProcessEnv, config: ConfigFile): Settings {
  if (flags.local && (flags.remote || flags.sandbox || flags.baseUrl)) {
    throw new ConfigError('--local cannot be combined with --remote, --sandbox or --base-url');
  }
  if (flags.sandbox && flags.profile && flags.profile !== 'sandbox') {
    throw new ConfigError(`--sandbox selects the sandbox profile; it cannot be combined with --profile ${flags.profile}`);
  }
  const envMode = env.SHIPPER_MODE ? env.SHIPPER_MODE.trim().toLowerCase() : undefined;
  if (envMode !== undefined && !modeSchema.safeParse(envMode).success) throw new ConfigError(`SHIPPER_MODE=${env.SHIPPER_MODE} must be local or remote`);

  const [modeSource, mode] = first<'local' | 'remote'>(
    ['flag', flags.local ? 'local' : flags.remote || flags.sandbox || flags.baseUrl ? 'remote' : undefined],
    ['env', envMode as 'local' | 'remote' | undefined],
    ['env', env.SHIPPER_BASE_URL ? 'remote' : undefined],
    ['env', env.OWAY_BASE_URL ? 'remote' : undefined],
    ['config', config.mode],
  );

  const [profileSource, profileName] = first<string>(['flag', flags.sandbox ? 'sandbox' : flags.profile], ['env', env.SHIPPER_PROFILE], ['config', config.profile]);
  const profile = profileName ?? DEFAULT_PROFILE;
  if (!profileNameSchema.safeParse(profile).success) throw new ConfigError(`profile "${profile}": profile names are letters, digits, - and _`);
  const stored = config.profiles?.[profile];

  const [baseUrlSource, rawBaseUrl] = first<string>(
    ['flag', flags.baseUrl],
    ['flag', flags.sandbox ? (stored?.baseUrl ?? DEFAULT_PROFILES.sandbox.baseUrl) : undefined],
    ['env', env.SHIPPER_BASE_URL],
    ['env', env.OWAY_BASE_URL],
    ['config', stored?.baseUrl],
    ['default', defaultBaseUrl(profile)],
  );
  let baseUrl: string | undefined;
  if (rawBaseUrl !== undefined) {
    const parsed = baseUrlSchema.safeParse(rawBaseUrl);
    if (!parsed.success) throw new ConfigError(`base URL ${rawBaseUrl} (from ${describeSource(baseUrlSource, 'baseUrl')}) must be an http:// or https:// URL`);
    baseUrl = parsed.data;
  }

  // The official client's variables (OWAY_*) after shipper's own: a team that has them set needs nothing new.
  const [apiKeySource, apiKey] = first<string>(['flag', flags.apiKey], ['env', env.SHIPPER_API_KEY], ['env', env.OWAY_API_KEY], ['config', stored?.apiKey]);
  const [, clientId] = first<string>(['env', env.SHIPPER_CLIENT_ID], ['env', env.OWAY_M2M_CLIENT_ID], ['config', stored?.clientId]);
  const [, clientSecret] = first<string>(['env', env.SHIPPER_CLIENT_SECRET], ['env', env.OWAY_M2M_CLIENT_SECRET], ['config', stored?.clientSecret]);
  const [timeoutSource, timeoutMs] = first<number>(['env', envInteger(env, 'SHIPPER_TIMEOUT_MS', 100, 600_000)], ['config', config.timeoutMs]);
  const [retriesSource, retries] = first<number>(['env', envInteger(env, 'SHIPPER_RETRIES', 0, 10)], ['config', config.retries]);
  const envService = env.SHIPPER_SERVICE ? env.SHIPPER_SERVICE.trim().toLowerCase() : undefined;
  if (envService !== undefined && !(SERVICE_KINDS as readonly string[]).includes(envService)) {
    throw new ConfigError(`SHIPPER_SERVICE=${env.SHIPPER_SERVICE} must be ${SERVICE_KINDS.join(' or ')}`);
  }
  const [serviceSource, service] = first<ServiceKind>(['env', envService as ServiceKind | undefined], ['config', config.service]);
  const [storeSource, store] = first<string>(['flag', flags.store], ['env', env.SHIPPER_STORE], ['config', config.store]);
  const [prefixSource, bolCompanyPrefix] = first<string>(['env', env.SHIPPER_BOL_COMPANY_PREFIX?.trim()], ['config', config.bolCompanyPrefix]);
  if (bolCompanyPrefix !== undefined && !isGs1CompanyPrefix(bolCompanyPrefix)) {
    throw new ConfigError(`SHIPPER_BOL_COMPANY_PREFIX=${bolCompanyPrefix}: ${GS1_COMPANY_PREFIX_RULE}`);
  }
  let storeLocation: StoreLocation;
  try {
    storeLocation = store ? parseStoreLocation(store) : { kind: 'file', dir: defaultStoreDir(env) };
  } catch (error) {
    if (error instanceof StoreLocationError) throw new ConfigError(`${error.message} (from ${describeSource(storeSource, 'store')})`);
    throw error;
  }
  let clockStart: number | undefined;
  if (env.SHIPPER_NOW) {
    clockStart = Date.parse(env.SHIPPER_NOW);
    if (Number.isNaN(clockStart)) throw new ConfigError(`SHIPPER_NOW=${env.SHIPPER_NOW} is not an ISO-8601 instant`);
  }

  return {
    mode: mode ?? 'local',
    profile,
    baseUrl,
    apiKey,
    clientId,
    clientSecret,
    timeoutMs: timeoutMs ?? DEFAULT_TIMEOUT_MS,
    retries: retries ?? DEFAULT_RETRIES,
    service: service ?? defaultServiceKind(baseUrl),
    store: storeLocation.kind === 'file' ? storeLocation.dir : defaultStoreDir(env),
    storeLocation,
    tariff: flags.tariff ?? env.SHIPPER_TARIFF ?? config.tariff,
    tariffs: agreementsSetting(flags.tariffs || env.SHIPPER_TARIFFS || config.tariffs),
    clockStart,
    serveApiKey: env.SHIPPER_SERVE_API_KEY || undefined,
    bolCompanyPrefix,
    debug: Boolean(env.SHIPPER_DEBUG),
    ssccExtensionDigit: config.ssccExtensionDigit ?? 0,
    limits: config.limits ?? {},
    carriers: config.carriers ?? {},
    x12: config.x12 ?? {},
    ebol: config.ebol ?? {},
    sources: {
      mode: modeSource,
      profile: profileSource,
      baseUrl: baseUrlSource,
      apiKey: apiKeySource,
      timeoutMs: timeoutSource,
      retries: retriesSource,
      service: serviceSource,
      store: storeSource,
      bolCompanyPrefix: prefixSource,
    },
  };
}

/** `samples` names the shipped sample agreements; anything else is a directory, made absolute. */
function agreementsSetting(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  return value === 'samples' ? value : resolve(value);
}

function describeSource(source: SettingSource, key: string): string {
  return { flag: `--${key === 'baseUrl' ? 'base-url' : key}`, env: 'the environment', config: 'the config file', default: 'the defaults' }[source];
}

/** API keys are never printed in full: the last 4 characters of a long key, nothing of a short one. */
export function maskSecret(secret: string): string {
  return secret.length >= 12 ? `****${secret.slice(-4)}` : '****';
}
