/** `shipper config get|set|unset|list|path`: settings kept with conf, API keys never shown in full. */
import { settingsList } from '../topics/config.js';
import type { Command } from 'commander';
import { chmodSync } from 'node:fs';
import type { CommandContext } from '../context.js';
import { CliError, UsageError } from '../errors.js';
import type { ContextFactory } from '../context.js';
import type { ShipperCommand } from '../examples.js';
import { makeDirectory } from '../../fs/makeDirectory.js';

// zod and the settings modules load on use, not when the program is built.
const settingsModule = () => import('../../config/settings.js');
const settingKindsModule = () => import('../../config/settingKinds.js');

/** Shown in help; the parsers of these keys are SETTING_KINDS in config/settingKinds.ts. */
const SETTINGS_HELP = `\nSettings:\n${settingsList(100).join('\n')}`;

/** `baseUrl` and `apiKey` alone mean those of the profile in effect. */
async function canonicalKey(ctx: CommandContext, key: string): Promise<string> {
  if (key === 'baseUrl' || key === 'apiKey') return `profiles.${(await ctx.settings()).profile}.${key}`;
  return key;
}

async function kindOf(key: string) {
  const { settingKindOf, SETTING_KINDS } = await settingKindsModule();
  const kind = settingKindOf(key);
  if (!kind) {
    throw new UsageError(`unknown setting ${key}`, `settings: ${SETTING_KINDS.map((candidate) => candidate.key).join(', ')}, baseUrl, apiKey`);
  }
  return kind;
}

async function display(key: string, value: unknown): Promise<string> {
  if (value === undefined) return '';
  const [{ maskSecret }, { settingKindOf }] = await Promise.all([settingsModule(), settingKindsModule()]);
  if (settingKindOf(key)?.secret && typeof value === 'string') return maskSecret(value);
  // A database URL's password is never shown.
  if (key === 'store' && typeof value === 'string') return (await import('../../config/storeLocation.js')).redactUrl(value);
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function getPath(object: unknown, key: string): unknown {
  let current = object;
  for (const part of key.split('.')) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, part)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** conf, loaded only here: it owns writing the file (atomically, owner-only). */
export async function openConf(ctx: CommandContext) {
  const [{ default: Conf }, { dir, file }] = await Promise.all([import('conf'), ctx.configLocation()]);
  // conf would create the directory with mkdirSync({recursive}), which never returns for some paths (see makeDirectory).
  await makeDirectory(dir).catch((error: Error) => {
    throw new UsageError(`cannot create the config directory ${dir}: ${error.message}`, 'set SHIPPER_CONFIG_DIR to a writable directory');
  });
  try {
    return new Conf<Record<string, unknown>>({ projectName: 'shipper', cwd: dir, configFileMode: 0o600 });
  } catch (error) {
    throw new UsageError(`cannot open the config file ${file}: ${(error as Error).message}`, 'fix or remove the file');
  }
}

async function storedConfig(ctx: CommandContext) {
  const [{ readConfigFile }, { file }] = await Promise.all([settingsModule(), ctx.configLocation()]);
  return readConfigFile(file);
}

async function readStdin(ctx: CommandContext): Promise<string> {
  if (ctx.io.streams.stdin.isTTY) throw new UsageError('give the value, or pipe it on stdin with -');
  let text = '';
  for await (const chunk of ctx.io.streams.stdin as AsyncIterable<Buffer | string>) text += chunk.toString();
  return text.replace(/\r?\n$/, '');
}

export async function runConfigSet(ctx: CommandContext, rawKey: string, rawValue: string): Promise<void> {
  const key = await canonicalKey(ctx, rawKey);
  const kind = await kindOf(key);
  const text = rawValue === '-' ? await readStdin(ctx) : rawValue;
  const parsed = kind.value.safeParse(text);
  if (!parsed.success) {
    // Inside a JSON value (x12, carriers.<SCAC>) the issue's path names the field: x12.senderId.
    const issue = parsed.error.issues[0]!;
    throw new UsageError(`${[key, ...issue.path].join('.')}: ${issue.message}`);
  }

  const conf = await openConf(ctx);
  const { configFileSchema } = await settingsModule();
  // The whole file must stay valid for the schema every command reads it with.
  const next = structuredClone(conf.store);
  setPath(next, key, parsed.data);
  const check = configFileSchema.safeParse(next);
  if (!check.success) throw new UsageError(`${key}: ${check.error.issues[0]!.message}`);
  conf.set(key, parsed.data);
  chmodSync(conf.path, 0o600);
  const shown = await display(key, parsed.data);
  if (ctx.io.options.json) return ctx.io.json({ key, value: shown });
  ctx.io.info(`${key} = ${shown}`);
}

function setPath(object: Record<string, unknown>, key: string, value: unknown): void {
  const parts = key.split('.');
  let current = object;
  for (const part of parts.slice(0, -1)) {
    const next = current[part];
    if (typeof next !== 'object' || next === null) current[part] = {};
    current = current[part] as Record<string, unknown>;
  }
  current[parts.at(-1)!] = value;
}

export async function runConfigUnset(ctx: CommandContext, rawKey: string): Promise<void> {
  const key = await canonicalKey(ctx, rawKey);
  await kindOf(key);
  const conf = await openConf(ctx);
  conf.delete(key);
  chmodSync(conf.path, 0o600);
  if (ctx.io.options.json) return ctx.io.json({ key, removed: true });
  ctx.io.info(`${key} removed`);
}

export async function runConfigGet(ctx: CommandContext, rawKey: string): Promise<void> {
  const key = await canonicalKey(ctx, rawKey);
  await kindOf(key);
  const value = getPath(await storedConfig(ctx), key);
  if (value === undefined) throw new CliError(`${key} is not set`, 'REJECTED');
  const shown = await display(key, value);
  if (ctx.io.options.json) return ctx.io.json({ key, value: shown });
  ctx.io.out(shown);
}

export async function runConfigList(ctx: CommandContext): Promise<void> {
  const [{ maskSecret }, { describeStoreLocation }] = await Promise.all([settingsModule(), import('../../config/storeLocation.js')]);
  const path = (await ctx.configLocation()).file;
  const stored = await Promise.all(flatten(await storedConfig(ctx)).map(async ([key, value]) => [key, await display(key, value)] as const));
  const settings = await ctx.settings();
  const effective = {
    mode: settings.mode,
    profile: settings.profile,
    baseUrl: settings.baseUrl ?? null,
    apiKey: settings.apiKey ? maskSecret(settings.apiKey) : null,
    timeoutMs: settings.timeoutMs,
    retries: settings.retries,
    service: settings.service,
    store: describeStoreLocation(settings.storeLocation),
  };
  if (ctx.io.options.json) {
    return ctx.io.json({
      path,
      settings: Object.fromEntries(stored),
      effective,
      sources: settings.sources,
    });
  }
  ctx.io.out(`Config file ${path}`);
  ctx.io.out(
    stored.length === 0
      ? '  (no settings)'
      : ctx.io.fittedTable(
          ['Setting', 'Value'],
          stored.map(([key, value]) => [key, value]),
          [
            { shrink: [1], min: 20 },
            { shrink: [0], min: 16 },
          ],
        ),
  );
  ctx.io.out('');
  ctx.io.out('In effect (flags > environment > config file > defaults):');
  ctx.io.out(
    ctx.io.fittedTable(
      ['Setting', 'Value', 'From'],
      Object.entries(effective).map(([key, value]) => [key, value === null ? '-' : String(value), settings.sources[key as keyof typeof settings.sources]]),
      [{ shrink: [1], min: 20 }],
    ),
  );
}

function flatten(object: unknown, prefix = ''): Array<[string, unknown]> {
  if (typeof object !== 'object' || object === null || Array.isArray(object)) return [[prefix, object]];
  return Object.entries(object).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? flatten(value, path) : [[path, value] as [string, unknown]];
  });
}

export function registerConfigCommands(program: ShipperCommand, context: ContextFactory): void {
  const config = program
    .command('config')
    .description('settings: mode, profiles (base URL, API key), store, tariff, timeouts')
    .examples('shipper config set profiles.sandbox.apiKey - < sandbox.key', 'shipper config set profile sandbox', 'shipper config set mode remote', 'shipper config list')
    .addHelpText(
      'after',
      `${SETTINGS_HELP}

Resolution: flags > environment (SHIPPER_MODE, SHIPPER_PROFILE, SHIPPER_BASE_URL, SHIPPER_API_KEY,
SHIPPER_TIMEOUT_MS, SHIPPER_RETRIES, SHIPPER_STORE, SHIPPER_TARIFF) > config file > defaults.
The file is readable by its owner only; API keys are never printed in full.
SHIPPER_CONFIG_DIR moves the file (e.g. for CI). Every variable: shipper help environment.`,
    );

  config
    .command('get <key>')
    .description('print one setting (API keys masked)')
    .examples('shipper config get mode', 'shipper --sandbox config get apiKey')
    .action(async (key: string, _options: unknown, command: Command) => runConfigGet(context(command), key));
  config
    .command('set <key> <value>')
    .description('store a setting (value - reads it from stdin)')
    .examples('shipper config set mode remote', 'shipper config set profiles.sandbox.apiKey - < sandbox.key', `shipper config set carriers.ODFL '{"name": "Old Dominion"}'`)
    .addHelpText('after', SETTINGS_HELP)
    .action(async (key: string, value: string, _options: unknown, command: Command) => runConfigSet(context(command), key, value));
  config
    .command('unset <key>')
    .description('remove a setting')
    .examples('shipper config unset profiles.sandbox.apiKey')
    .action(async (key: string, _options: unknown, command: Command) => runConfigUnset(context(command), key));
  config
    .command('list')
    .description('the stored settings and those in effect, with where each comes from')
    .examples('shipper config list', 'shipper config list --json | jq .sources')
    .action(async (_options: unknown, command: Command) => runConfigList(context(command)));
  config
    .command('path')
    .description('where the config file is')
    .examples('$EDITOR "$(shipper config path)"')
    .action(async (_options: unknown, command: Command) => {
      const ctx = context(command);
      const path = (await ctx.configLocation()).file;
      if (ctx.io.options.json) return ctx.io.json({ path });
      ctx.io.out(path);
    });
}
