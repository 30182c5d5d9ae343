/**
 * `shipper db migrate|status`: the schema of a PostgreSQL store (docs/postgres.md), and
 * `shipper store export|import`: every record of a store as JSON lines, to move between stores.
 */
import type { Command } from 'commander';
import type { CommandContext, ContextFactory } from '../context.js';
import type { ShipperCommand } from '../examples.js';
import { CliError, UsageError } from '../errors.js';
import { plural } from '../output.js';

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

/** Runs fn on a connection to the store's database; a database failure is the store's (one line, exit 5). */
async function onDatabase<T>(url: string, fn: (sql: import('postgres').Sql) => Promise<T>): Promise<T> {
  const { connect, translateDatabaseError } = await import('../../store/postgres/connection.js');
  const sql = await connect(url, { max: 1 });
  try {
    return await fn(sql);
  } catch (error) {
    throw translateDatabaseError(error, url);
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
    throw new CliError(`the database's schema is newer than this shipper (version ${status.current}, this shipper knows ${status.latest}): upgrade shipper`, 'LOCAL_FAILURE');
}

export function registerDbCommands(program: ShipperCommand, context: ContextFactory): void {
  const db = program
    .command('db')
    .description('the schema of a PostgreSQL store: migrate, status')
    .examples('shipper --store postgres://shipper@db.internal/shipper db status', 'SHIPPER_STORE=postgres://shipper@db.internal/shipper shipper db migrate')
    .addHelpText('after', '\nThe store is a database when --store (SHIPPER_STORE, config store) is a postgres:// URL; see docs/postgres.md.');
  db.command('migrate')
    .description('bring the database to this shipper schema (safe to run again, and from several servers at once)')
    .examples('SHIPPER_STORE=postgres://shipper@db.internal/shipper shipper db migrate')
    .action(async (_options: unknown, command: Command) => runDbMigrate(context(command)));
  db.command('status')
    .description('the schema version of the database, and what this shipper would apply')
    .examples('shipper --store postgres://shipper@db.internal/shipper db status --json')
    .action(async (_options: unknown, command: Command) => runDbStatus(context(command)));
}

// ---------------------------------------------------------------------------------------------
// shipper store export|import

/** The store in effect, prepared (a database at this shipper's schema); the context closes it. */
async function preparedStore(ctx: CommandContext) {
  const store = await ctx.store();
  await store.prepare();
  return store;
}

export async function runStoreExport(ctx: CommandContext, options: { to: string; force?: boolean }): Promise<void> {
  const [{ createWriteStream }, { rename, rm, stat }, { dirname, basename, join, resolve }, transfer, now] = await Promise.all([
    import('node:fs'),
    import('node:fs/promises'),
    import('node:path'),
    import('../../store/transfer.js'),
    ctx.clock(),
  ]);
  const file = resolve(options.to);
  if (!options.force && (await stat(file).catch(() => undefined))) throw new UsageError(`${file} exists already; nothing was written`, 'add --force to overwrite it');
  const store = await preparedStore(ctx);
  const temporary = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  const counts: import('../../store/transfer.js').TransferCounts = {};
  try {
    const out = createWriteStream(temporary, { flags: 'wx' });
    const opened = new Promise<void>((done, fail) => out.once('open', () => done()).once('error', fail));
    await opened.catch((error: Error) => {
      throw new CliError(`cannot write ${file}: ${error.message}`, 'LOCAL_FAILURE');
    });
    const { isTransferable, exportThroughPorts } = await import('../../store/transfer.js');
    const { proBlockCounter } = await import('../../api/local/carrierNumbers.js');
    const { carriers } = await ctx.settings();
    const proBlocks = Object.entries(carriers).flatMap(([scac, carrier]) => (carrier.proRange ? [proBlockCounter(scac, carrier.proRange)] : []));
    const lines = isTransferable(store) ? store.exportLines(now()) : exportThroughPorts(store, now(), proBlocks);
    for await (const line of lines) {
      transfer.countLine(counts, line);
      if (!out.write(`${JSON.stringify(line)}\n`)) await new Promise<void>((done) => out.once('drain', () => done()));
    }
    await new Promise<void>((done, fail) => out.end((error?: Error | null) => (error ? fail(error) : done())));
    // Whole or not at all: the file appears under its name only once every line is on disk.
    const { open } = await import('node:fs/promises');
    const handle = await open(temporary, 'r');
    await handle.sync();
    await handle.close();
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  } finally {
    await store.close();
  }
  if (ctx.io.options.json) return ctx.io.json({ file, counts });
  ctx.io.info(`Exported ${describeCounts(counts)} to ${file}`);
}

export async function runStoreImport(ctx: CommandContext, file: string): Promise<void> {
  const [{ createReadStream }, { createInterface }, transfer, { resolve }] = await Promise.all([
    import('node:fs'),
    import('node:readline'),
    import('../../store/transfer.js'),
    import('node:path'),
  ]);
  const path = resolve(file);
  const input = createReadStream(path);
  await new Promise<void>((done, fail) => input.once('open', () => done()).once('error', fail)).catch((error: NodeJS.ErrnoException) => {
    // A file named on the command line that is not there is a usage error (2), as for every command.
    throw new CliError(
      `cannot read ${path}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`,
      error.code === 'ENOENT' || error.code === 'EISDIR' ? 'INPUT_FILE' : 'LOCAL_FAILURE',
    );
  });
  /** Every line checked before it is written; the first bad one stops the import (nothing written: one unit of work). */
  async function* lines(): AsyncIterable<import('../../store/transfer.js').TransferLine> {
    let number = 0;
    for await (const text of createInterface({ input, crlfDelay: Infinity })) {
      number++;
      if (text.trim() === '') continue;
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw new CliError(`${path} line ${number} is not JSON: not a shipper store export; nothing was imported`, 'REJECTED');
      }
      const parsed = transfer.transferLineSchema.safeParse(json);
      if (number === 1 && (!parsed.success || parsed.data.type !== 'header')) {
        throw new CliError(
          `${path} is not a shipper store export (its first line is not the header of format ${transfer.TRANSFER_FORMAT} version ${transfer.TRANSFER_VERSION}); nothing was imported`,
          'REJECTED',
        );
      }
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw new CliError(`${path} line ${number}: ${issue.message} (${issue.path.join('.') || 'type'}); nothing was imported`, 'REJECTED');
      }
      yield parsed.data;
    }
    if (number === 0) throw new CliError(`${path} is empty: not a shipper store export; nothing was imported`, 'REJECTED');
  }
  const store = await preparedStore(ctx);
  let counts;
  try {
    const { isTransferable, importThroughPorts } = await import('../../store/transfer.js');
    counts = await (isTransferable(store) ? store.importLines(lines()) : importThroughPorts(store, lines()));
  } finally {
    await store.close();
  }
  if (ctx.io.options.json) return ctx.io.json({ file: path, counts });
  ctx.io.info(`Imported ${describeCounts(counts)} from ${path}`);
}

function describeCounts(counts: Record<string, number | undefined>): string {
  const names: Record<string, string> = {
    shipment: 'shipment',
    quote: 'quote',
    idempotency: 'idempotency key',
    event: 'shipment event',
    fuelPrice: 'fuel price',
    location: 'saved location',
    auditedBill: 'audited bill',
    counter: 'counter',
  };
  // Counts as everywhere else: 12,013 shipments, 1 quote.
  const parts = Object.entries(names).map(([type, name]) => plural(counts[type] ?? 0, name));
  return parts.join(', ');
}

export function registerStoreCommands(program: ShipperCommand, context: ContextFactory): void {
  const store = program
    .command('store')
    .description('move every record of a store to another: export, import (JSON lines)')
    .examples('shipper --store ~/.local/share/shipper store export --to shipper.jsonl', 'shipper --store postgres://shipper@db.internal/shipper store import shipper.jsonl');
  store
    .command('export')
    .description('write every record of the store in effect (and its counters) to a file, one JSON record a line')
    .requiredOption('--to <file>', 'the file to write (whole or not at all)')
    .option('--force', 'overwrite the file if it exists')
    .examples('shipper --store ~/.local/share/shipper store export --to shipper.jsonl', 'shipper --store postgres://shipper@db.internal/shipper store import shipper.jsonl')
    .action(async (options: { to: string; force?: boolean }, command: Command) => runStoreExport(context(command), options));
  store
    .command('import <file>')
    .description('add the records of an export to the store in effect (same ids replaced; counters only raised, so no number is issued again)')
    .examples('shipper --store postgres://shipper@db.internal/shipper store import shipper.jsonl')
    .action(async (file: string, _options: unknown, command: Command) => runStoreImport(context(command), file));
}
