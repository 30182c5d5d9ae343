/**
 * `shipper db migrate|status`: the schema of a PostgreSQL store (docs/postgres.md), and
 * `shipper store export|import`: every record of a store as JSON lines, to move between stores.
 */
import type { Command } from 'commander';
import type { CommandContext, ContextFactory } from '../context.js';
import { CliError, ExitCode, UsageError } from '../errors.js';

/** The PostgreSQL URL of the store in effect; a directory store has no schema to migrate. */
async function databaseUrl(ctx: CommandContext): Promise<string> {
  const { storeLocation } = await ctx.settings();
  if (storeLocation.kind !== 'postgres') {
    throw new UsageError(
      `the store is a directory (${storeLocation.dir}), which has no schema to migrate`,
      'db commands are for a PostgreSQL store: --store postgres://user@host/db',
    );
  }
  return storeLocation.url;
}

/** Runs fn on a connection to the store's database; a database failure is one line, exit 5. */
async function onDatabase<T>(url: string, fn: (sql: import('postgres').Sql) => Promise<T>): Promise<T> {
  const [{ connect, translateDatabaseError }, { ProblemError }] = await Promise.all([import('../../store/postgres/connection.js'), import('../../api/problems.js')]);
  const sql = await connect(url, { max: 1 });
  try {
    return await fn(sql);
  } catch (error) {
    const translated = translateDatabaseError(error, url);
    if (translated instanceof ProblemError) throw new CliError(translated.internalDetail ?? translated.message, ExitCode.local);
    throw translated;
  } finally {
    await sql.end({ timeout: 5 }).catch(() => undefined);
  }
}

export async function runDbMigrate(ctx: CommandContext): Promise<void> {
  const url = await databaseUrl(ctx);
  const { migrate } = await import('../../store/postgres/migrations.js');
  const { applied, status } = await onDatabase(url, (sql) => migrate(sql));
  if (ctx.io.options.json) return ctx.io.json({ applied, current: status.current, latest: status.latest });
  ctx.io.info(
    applied.length === 0
      ? `The database is at schema version ${status.current}: nothing to migrate`
      : `Migrated the database to schema version ${status.current} (applied ${applied.join(', ')})`,
  );
}

export async function runDbStatus(ctx: CommandContext): Promise<void> {
  const url = await databaseUrl(ctx);
  const [{ schemaStatus }, { redactUrl }] = await Promise.all([import('../../store/postgres/migrations.js'), import('../../config/storeLocation.js')]);
  const status = await onDatabase(url, (sql) => schemaStatus(sql));
  const state = status.current > status.latest ? 'newer than this shipper' : status.current < status.latest ? 'behind' : 'up to date';
  if (ctx.io.options.json) return ctx.io.json({ database: redactUrl(url), state, ...status });
  ctx.io.out(`Database ${redactUrl(url)}`);
  ctx.io.out(`Schema version ${status.current} of ${status.latest}: ${state}`);
  for (const migration of status.applied) ctx.io.out(`  applied  ${migration.version} ${migration.name} (${migration.appliedAt})`);
  for (const migration of status.pending) ctx.io.out(`  pending  ${migration.version} ${migration.name}`);
  if (status.current < status.latest) ctx.io.info('Run shipper db migrate (or start shipper serve, which migrates) to bring it up to date.');
  if (status.current > status.latest)
    throw new CliError(`the database's schema is newer than this shipper (version ${status.current}, this shipper knows ${status.latest}): upgrade shipper`, ExitCode.local);
}

export function registerDbCommands(program: Command, context: ContextFactory): void {
  const db = program
    .command('db')
    .description('the schema of a PostgreSQL store: migrate, status')
    .addHelpText('after', '\nThe store is a database when --store (SHIPPER_STORE, config store) is a postgres:// URL; see docs/postgres.md.');
  db.command('migrate')
    .description('bring the database to this shipper schema (safe to run again, and from several servers at once)')
    .addHelpText('after', '\nExample:\n  $ SHIPPER_STORE=postgres://shipper@db.internal/shipper shipper db migrate')
    .action(async (_options: unknown, command: Command) => runDbMigrate(context(command)));
  db.command('status')
    .description('the schema version of the database, and what this shipper would apply')
    .addHelpText('after', '\nExample:\n  $ shipper --store postgres://shipper@db.internal/shipper db status --json')
    .action(async (_options: unknown, command: Command) => runDbStatus(context(command)));
}
