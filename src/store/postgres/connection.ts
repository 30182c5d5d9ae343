/**
 * The connection pool of a PostgreSQL store (postgres.js, loaded on first use so that commands on
 * the file store never pay for it), and the guard every query goes through: a failure of the
 * database (down, unreachable, login refused, read-only, lost connection) becomes the store's 503
 * with one line that names the database without its password.
 */
import type { Sql } from 'postgres';
import { redactDatabaseUrls, redactUrl, StoreLocationError } from '../../config/storeLocation.js';
import { StoreError, StoreUnavailableError } from '../storeError.js';
import { databaseUnavailable, isDatabaseFailure } from './failures.js';
import { passwordFromFile } from './passwordFile.js';
import { SchemaMismatch } from './migrations.js';

export interface ConnectOptions {
  /** Connections in the pool (a server: 10; a CLI command: 2). */
  max?: number | undefined;
}

export async function connect(url: string, options: ConnectOptions = {}): Promise<Sql> {
  const { default: postgres } = await import('postgres');
  surviveWritesOnClosedConnections();
  try {
    if (new URL(url).password || process.env.PGPASSWORD) return postgres(url, poolOptions(options));
    // No password given: the password file's, read when the server asks for one (as libpq reads it
    // at each connection), for the host, port, database and user the driver settled on.
    const sql: Sql = postgres(url, { ...poolOptions(options), pass: () => passwordFor(url, sql.options) });
    return sql;
  } catch (error) {
    // The driver reads its options from the URL and the PG* variables and throws on what it does
    // not take (PGTARGETSESSIONATTRS=bogus): a setting to correct, not an unexpected error.
    throw new StoreLocationError(`the store ${redactUrl(url)} cannot be opened: ${redactDatabaseUrls((error as Error).message)}`);
  }
}

/** Why the password file was not used, by store URL: said when that store refuses the login. */
const ignoredPasswordFiles = new Map<string, string>();

function passwordFor(url: string, options: Sql['options']): string {
  try {
    const host = options.host[0] ?? 'localhost';
    const found = passwordFromFile({
      // A Unix socket is "localhost" to the password file, as to libpq.
      host: host.startsWith('/') || options.path ? 'localhost' : host,
      port: options.port[0] ?? 5432,
      database: options.database,
      user: options.user,
    });
    if (found && 'ignored' in found) ignoredPasswordFiles.set(url, found.ignored);
    return found && 'password' in found ? found.password : '';
  } catch {
    // The driver calls this from a socket's handler: a throw there would not reach the caller.
    return '';
  }
}

let surviving = false;

/**
 * postgres.js 3.4.9 can throw outside any query when a connection's backend goes away in the
 * middle of a transaction (`nextWrite` on a socket it has already dropped: porsager/postgres
 * issues #1154 and #1208, fixes proposed in PRs #1168, #1176 and #1209, none released). The
 * query concerned has already been rejected (CONNECTION_CLOSED, so the unit of work rolls back
 * and its caller gets the store's 503); only the throw is left, and uncaught it would end a
 * server that should answer 503 and go on. This ignores exactly that throw; any other uncaught
 * exception ends the process as Node would (unless another handler, a test runner's, reports it).
 */
function surviveWritesOnClosedConnections(): void {
  if (surviving) return;
  surviving = true;
  process.on('uncaughtException', (error) => {
    if (isWriteOnClosedConnection(error)) return;
    if (process.listenerCount('uncaughtException') > 1) return;
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}

function isWriteOnClosedConnection(error: unknown): boolean {
  if (error instanceof TypeError && /reading 'write'/.test(error.message) && /\bnextWrite\b/.test(error.stack ?? '')) return true;
  // The same driver, when the server ends a connection while no query of it is running (a backend
  // terminated between the statements of a transaction: a failover, pg_terminate_backend), throws
  // the server's FATAL from its socket handler. The transaction's next query fails on the closed
  // connection and rolls back (503); only this throw is left.
  return isServerTermination(error);
}

/** A FATAL of the server ending the connection: admin_shutdown, crash_shutdown, cannot_connect_now (SQLSTATE class 57P). */
function isServerTermination(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && error.name === 'PostgresError' && typeof code === 'string' && /^57P0[123]$/.test(code);
}

/** The pool's options, for postgres(url, options). */
export function poolOptions(options: ConnectOptions = {}) {
  return {
    max: options.max ?? 10,
    // A database that does not answer is reported, not waited for (the driver's default is 30 s).
    connect_timeout: 10,
    idle_timeout: 30,
    // NOTICEs (CREATE TABLE IF NOT EXISTS ...) are not the user's business.
    onnotice: () => undefined,
    // Numbers of counters are bigint: read back as JS numbers (they stay far below 2^53).
    types: { bigint: { to: 20, from: [20], serialize: (value: number) => String(value), parse: (text: string) => Number(text) } },
    connection: { application_name: 'shipper' },
  };
}

/** Runs a store operation; a database failure becomes the store's 503, a schema mismatch too. */
export async function guardDatabase<T>(url: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw translateDatabaseError(error, url);
  }
}

export function translateDatabaseError(error: unknown, url: string): unknown {
  // Said with the store's name (without its password); a SchemaMismatch is itself a StoreError.
  if (error instanceof SchemaMismatch) return new StoreUnavailableError(`the PostgreSQL store ${redactUrl(url)}: ${error.message}`);
  if (error instanceof StoreError) return error;
  if (isDatabaseFailure(error)) {
    const failure = databaseUnavailable(error, url);
    const ignored = ignoredPasswordFiles.get(url);
    const refused = (error as { code?: unknown }).code === '28P01';
    return refused && ignored ? new StoreUnavailableError(`${failure.message}; ${ignored}`) : failure;
  }
  return error;
}
