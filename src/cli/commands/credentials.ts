/**
 * `shipper credentials add-client|add-key|list|revoke` (issue 41 item 3): the operator's commands
 * on the store's clients and API keys. A secret or key is printed once, when it is made; the store
 * keeps its SHA-256 only, and `list` never shows more than its last 4 characters. `serve` on the
 * same store (file or PostgreSQL) enforces what these write at its next request.
 */
import type { Command } from 'commander';
import type { CommandContext, ContextFactory } from '../context.js';
import type { ShipperCommand } from '../examples.js';
import { CliError, UsageError } from '../errors.js';

async function parsed<T>(
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: Array<{ message: string }> } } },
  value: unknown,
  what: string,
): Promise<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw new UsageError(`${what}: ${result.error.issues.map((issue) => issue.message).join('; ')}`);
  return result.data;
}

export async function runAddClient(ctx: CommandContext, name: string): Promise<void> {
  const [{ clientNameSchema }, { newClient }] = await Promise.all([import('../../domain/credentials.js'), import('../../auth/secrets.js')]);
  const clientName = await parsed(clientNameSchema, name, 'NAME');
  const [store, clock] = await Promise.all([ctx.store(), ctx.clock()]);
  const { record, clientId, clientSecret } = newClient(clientName, clock());
  await store.credentials.add(record);
  if (ctx.io.options.json) return ctx.io.json({ clientId, clientSecret, name: record.name, createdAt: record.createdAt });
  ctx.io.out(`clientId      ${clientId}`);
  ctx.io.out(`clientSecret  ${clientSecret}`);
  ctx.io.info(`Client "${record.name}" added. The secret is shown this once: the store keeps only its hash.`);
}

export async function runAddKey(ctx: CommandContext, company: string, options: { live?: boolean }): Promise<void> {
  const [{ companyIdSchema }, { newApiKey }] = await Promise.all([import('../../domain/credentials.js'), import('../../auth/secrets.js')]);
  const companyId = await parsed(companyIdSchema, company, 'COMPANY');
  const [store, clock] = await Promise.all([ctx.store(), ctx.clock()]);
  const { record, apiKey } = newApiKey(companyId, options.live === true, clock());
  await store.credentials.add(record);
  if (ctx.io.options.json) return ctx.io.json({ id: record.id, apiKey, companyId, live: record.live, createdAt: record.createdAt });
  ctx.io.out(`apiKey  ${apiKey}`);
  ctx.io.info(`Key ${record.id} of company ${companyId} (${record.live ? 'live' : 'sandbox'}) added. It is shown this once: the store keeps only its hash.`);
}

export async function runListCredentials(ctx: CommandContext): Promise<void> {
  const store = await ctx.store();
  const records = await store.credentials.list();
  // Never a secret: ids, names, companies and the last 4 characters.
  const rows = records.map((record) => ({
    id: record.id,
    kind: record.kind,
    ...(record.kind === 'client' ? { name: record.name } : { companyId: record.companyId, live: record.live === true }),
    hint: `****${record.last4}`,
    createdAt: record.createdAt,
    revokedAt: record.revokedAt,
  }));
  if (ctx.io.options.json) return ctx.io.json({ credentials: rows });
  if (rows.length === 0) return ctx.io.info('No clients and no keys: shipper serve on this store is an open sandbox.');
  ctx.io.out(
    ctx.io.table(
      ['ID', 'KIND', 'NAME / COMPANY', 'SECRET', 'CREATED', 'REVOKED'],
      records.map((record) => [
        record.id,
        record.kind === 'key' ? (record.live ? 'live key' : 'test key') : 'client',
        (record.kind === 'client' ? record.name : record.companyId) ?? '',
        `****${record.last4}`,
        record.createdAt,
        record.revokedAt ?? '',
      ]),
    ),
  );
}

export async function runRevoke(ctx: CommandContext, id: string): Promise<void> {
  const [store, clock] = await Promise.all([ctx.store(), ctx.clock()]);
  const before = await store.credentials.get(id);
  if (!before) throw new CliError(`no client or key ${JSON.stringify(id.slice(0, 80))} in the store ${store.location} (shipper credentials list names them)`, 'NOT_FOUND');
  const record = await store.credentials.revoke(id, clock().toISOString());
  const already = before.revokedAt !== null;
  if (ctx.io.options.json) return ctx.io.json({ id, kind: record!.kind, revokedAt: record!.revokedAt, alreadyRevoked: already });
  ctx.io.info(already ? `${id} was already revoked (${before.revokedAt})` : `Revoked ${id}: shipper serve refuses it from its next request`);
}

export function registerCredentialsCommands(program: ShipperCommand, context: ContextFactory): void {
  const credentials = program
    .command('credentials')
    .description("the store's clients and API keys for shipper serve: add-client, add-key, list, revoke")
    .examples(
      'shipper credentials add-client "Acme integration"',
      'shipper credentials add-key acme --json',
      'shipper credentials list',
      'shipper credentials revoke key_01JD0000000000000000000000',
    )
    .addHelpText('after', '\nSecrets and keys are shown once and stored as hashes. A store with no client and no key is an open sandbox; see docs/credentials.md.');
  credentials
    .command('add-client')
    .argument('<name>', 'who the client is for (a team, a customer)')
    .description('add a client: prints its clientId and clientSecret, once')
    .examples('shipper credentials add-client "Acme integration" --json')
    .action(async (name: string, _options: unknown, command: Command) => runAddClient(context(command), name));
  credentials
    .command('add-key')
    .argument('<company>', 'the company the key belongs to (letters, digits, ., - and _)')
    .option('--live', 'a production key (oway_sk_live_...); else a sandbox key (oway_sk_test_...)')
    .description("add a company's API key: prints it, once")
    .examples('shipper credentials add-key acme', 'shipper credentials add-key acme --live --json')
    .action(async (company: string, options: { live?: boolean }, command: Command) => runAddKey(context(command), company, options));
  credentials
    .command('list')
    .description('the clients and keys (never a secret: the last 4 characters at most)')
    .examples('shipper credentials list --json')
    .action(async (_options: unknown, command: Command) => runListCredentials(context(command)));
  credentials
    .command('revoke')
    .argument('<id>', 'a client id (cl_...) or key id (key_...), as list shows')
    .description('revoke a client or a key: serve refuses it from its next request')
    .examples('shipper credentials revoke cl_01JD0000000000000000000000')
    .action(async (id: string, _options: unknown, command: Command) => runRevoke(context(command), id));
}
