/**
 * `shipper auth login|status|logout` (issue 41 item 4): the CLI as a client of the published
 * two-layer auth. Login takes the client id and secret and the company's API key (flags for ids,
 * standard input or the environment for secrets, never a flag value that `ps` would show; a prompt
 * on a terminal), buys a token to check them, and saves them in the profile (--profile, --sandbox).
 * Nothing here prints a secret, a key or a token: `****` and the last 4 characters at most.
 */
import type { Command } from 'commander';
import type { CommandContext, ContextFactory } from '../context.js';
import type { ShipperCommand } from '../examples.js';
import { UsageError } from '../errors.js';

export interface LoginOptions {
  clientId?: string | undefined;
  clientSecretStdin?: boolean | undefined;
  apiKeyStdin?: boolean | undefined;
}

/** Questions of an interactive login (the terminal's by default; tests script them). */
interface LoginPrompter {
  input(message: string): Promise<string>;
  secret(message: string): Promise<string>;
}

async function terminalPrompter(ctx: CommandContext): Promise<LoginPrompter> {
  const prompts = await import('@inquirer/prompts');
  const context = { input: ctx.io.streams.stdin, output: ctx.io.streams.stderr };
  const required = (value: string) => (value.trim() === '' ? 'required' : true);
  return {
    input: (message) => prompts.input({ message, validate: required }, context),
    secret: (message) => prompts.password({ message, mask: '*', validate: required }, context),
  };
}

/** Standard input's lines: the secret first, then the key, when both come from it. */
async function stdinLines(ctx: CommandContext): Promise<string[]> {
  let text = '';
  for await (const chunk of ctx.io.streams.stdin as AsyncIterable<Buffer | string>) text += chunk.toString();
  return text.split(/\r?\n/).map((line) => line.trim());
}

export async function runAuthLogin(ctx: CommandContext, options: LoginOptions, prompter?: LoginPrompter): Promise<void> {
  const settings = await ctx.settings();
  const { masked } = await import('../../domain/credentials.js');
  const interactive = Boolean(ctx.io.streams.stdin.isTTY);
  if ((options.clientSecretStdin || options.apiKeyStdin) && interactive)
    throw new UsageError('--client-secret-stdin and --api-key-stdin read a pipe, not a terminal', 'echo "$SECRET" | shipper auth login ... --client-secret-stdin');
  const lines = options.clientSecretStdin || options.apiKeyStdin ? await stdinLines(ctx) : [];
  let asker: LoginPrompter | undefined = prompter;
  const prompt = async () => (asker ??= await terminalPrompter(ctx));

  let clientId = options.clientId ?? settings.clientId;
  if (!clientId && interactive) clientId = (await (await prompt()).input('Client id')).trim();
  let clientSecret = options.clientSecretStdin ? lines.shift() : settings.clientSecret;
  if (!clientSecret && interactive && !options.clientSecretStdin) clientSecret = (await (await prompt()).secret('Client secret')).trim();
  let apiKey = options.apiKeyStdin ? lines.shift() : settings.apiKey;
  if (!apiKey && interactive && !options.apiKeyStdin) apiKey = (await (await prompt()).secret('Company API key (x-oway-api-key)')).trim();
  if (!clientId) throw new UsageError('no client id', 'give --client-id ID, set SHIPPER_CLIENT_ID or OWAY_M2M_CLIENT_ID, or run shipper auth login on a terminal');
  if (!clientSecret) throw new UsageError('no client secret', 'pipe it with --client-secret-stdin, or set SHIPPER_CLIENT_SECRET or OWAY_M2M_CLIENT_SECRET (never a flag value)');
  if (!apiKey) throw new UsageError('no API key', 'pipe it with --api-key-stdin (after the secret), or set SHIPPER_API_KEY or OWAY_API_KEY');
  if (!settings.baseUrl) throw new UsageError(`profile "${settings.profile}" has no base URL`, 'give --base-url URL, set SHIPPER_BASE_URL or OWAY_BASE_URL');

  // Checked before anything is saved: a token is bought (and cached for the next command).
  const [{ TokenSource }, { dir }, clock, { serverRootOf }] = await Promise.all([
    import('../../auth/tokenSource.js'),
    ctx.configLocation(),
    ctx.clock(),
    import('../../api/wire.js'),
  ]);
  const baseUrl = serverRootOf(settings.baseUrl);
  const tokens = new TokenSource({ baseUrl, clientId, clientSecret }, dir, () => clock().getTime());
  await tokens.get();
  const expires = await tokens.cached();

  const { openConf } = await import('./config.js');
  const { chmodSync } = await import('node:fs');
  const conf = await openConf(ctx);
  const prefix = `profiles.${settings.profile}`;
  conf.set(`${prefix}.baseUrl`, baseUrl);
  conf.set(`${prefix}.clientId`, clientId);
  conf.set(`${prefix}.clientSecret`, clientSecret);
  conf.set(`${prefix}.apiKey`, apiKey);
  chmodSync(conf.path, 0o600);
  const summary = {
    profile: settings.profile,
    baseUrl,
    clientId,
    clientSecret: masked(clientSecret),
    apiKey: masked(apiKey),
    tokenExpiresAt: expires ? new Date(expires.expiresAt).toISOString() : null,
  };
  if (ctx.io.options.json) return ctx.io.json(summary);
  ctx.io.info(`Logged in to ${baseUrl} as ${clientId} (profile ${settings.profile}; key ${summary.apiKey}). Remote commands of this profile now use these credentials.`);
}

export async function runAuthStatus(ctx: CommandContext): Promise<void> {
  const settings = await ctx.settings();
  const { masked } = await import('../../domain/credentials.js');
  let token: { expiresAt: number } | undefined;
  if (settings.baseUrl && settings.clientId && settings.clientSecret) {
    const { serverRootOf } = await import('../../api/wire.js');
    token = await (await ctx.tokenSource(settings, serverRootOf(settings.baseUrl)))?.cached();
  }
  const status = {
    profile: settings.profile,
    mode: settings.mode,
    baseUrl: settings.baseUrl ?? null,
    clientId: settings.clientId ?? null,
    clientSecret: settings.clientSecret ? masked(settings.clientSecret) : null,
    apiKey: settings.apiKey ? masked(settings.apiKey) : null,
    loggedIn: Boolean(settings.clientId && settings.clientSecret),
    tokenExpiresAt: token ? new Date(token.expiresAt).toISOString() : null,
  };
  if (ctx.io.options.json) return ctx.io.json(status);
  ctx.io.out(`Profile      ${status.profile} (${status.mode} mode)`);
  ctx.io.out(`Base URL     ${status.baseUrl ?? '-'}`);
  ctx.io.out(`Client id    ${status.clientId ?? '- (not logged in: shipper auth login)'}`);
  ctx.io.out(`Secret       ${status.clientSecret ?? '-'}`);
  ctx.io.out(`API key      ${status.apiKey ?? '-'}`);
  ctx.io.out(`Token        ${status.tokenExpiresAt ? `cached, expires ${status.tokenExpiresAt}` : 'none cached (the next remote command gets one)'}`);
}

export async function runAuthLogout(ctx: CommandContext): Promise<void> {
  const settings = await ctx.settings();
  if (settings.baseUrl && settings.clientId && settings.clientSecret) {
    const { serverRootOf } = await import('../../api/wire.js');
    await (await ctx.tokenSource(settings, serverRootOf(settings.baseUrl)))?.forget();
  }
  const { openConf } = await import('./config.js');
  const { chmodSync } = await import('node:fs');
  const conf = await openConf(ctx);
  const prefix = `profiles.${settings.profile}`;
  const had = ['clientId', 'clientSecret', 'apiKey'].filter((key) => conf.has(`${prefix}.${key}`));
  for (const key of had) conf.delete(`${prefix}.${key}`);
  chmodSync(conf.path, 0o600);
  if (ctx.io.options.json) return ctx.io.json({ profile: settings.profile, removed: had });
  ctx.io.info(
    had.length > 0 ? `Logged out of profile ${settings.profile}: its client credentials, API key and cached token are removed` : `Profile ${settings.profile} held no credentials`,
  );
}

export function registerAuthCommands(program: ShipperCommand, context: ContextFactory): void {
  const auth = program
    .command('auth')
    .description('client credentials of remote mode: login, status, logout')
    .examples('shipper --base-url http://127.0.0.1:8787 auth login', 'shipper --profile acme auth status', 'shipper --profile acme auth logout')
    .addHelpText(
      'after',
      "\nPrecedence: flags, then SHIPPER_*, then the official client's OWAY_* variables (OWAY_M2M_CLIENT_ID, OWAY_M2M_CLIENT_SECRET, OWAY_API_KEY, OWAY_BASE_URL), then the profile. See docs/credentials.md.",
    );
  auth
    .command('login')
    .description('check client credentials and an API key against the server and save them in the profile')
    .option('--client-id <id>', 'the client id (else SHIPPER_CLIENT_ID, OWAY_M2M_CLIENT_ID, or a prompt)')
    .option('--client-secret-stdin', 'read the client secret from the first line of standard input')
    .option('--api-key-stdin', 'read the API key from standard input (the line after the secret)')
    .examples(
      'shipper --profile acme --base-url https://freight.example.com auth login',
      'printf "%s\\n%s\\n" "$SECRET" "$KEY" | shipper --profile acme --base-url http://127.0.0.1:8787 auth login --client-id cl_01JD0000000000000000000000 --client-secret-stdin --api-key-stdin',
    )
    .action(async (options: LoginOptions, command: Command) => runAuthLogin(context(command), options));
  auth
    .command('status')
    .description('the credentials in effect (masked) and the cached token')
    .examples('shipper auth status --json')
    .action(async (_options: unknown, command: Command) => runAuthStatus(context(command)));
  auth
    .command('logout')
    .description("remove the profile's client credentials, API key and cached token")
    .examples('shipper --profile acme auth logout')
    .action(async (_options: unknown, command: Command) => runAuthLogout(context(command)));
}
