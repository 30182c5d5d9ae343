/**
 * The connection pool of a PostgreSQL store (postgres.js, loaded on first use so that commands on
 * the file store never pay for it), and the guard every query goes through: a failure of the
 * database (down, unreachable, login refused, read-only, lost connection) becomes the store's 503
 * with one line that names the database without its password.
 */
import type { Sql } from 'postgres';
import { ProblemError, storeUnavailable } from '../../api/problems.js';
import { redactUrl } from '../../config/storeLocation.js';
import { StoreError } from '../storeError.js';
import { databaseUnavailable, isDatabaseFailure } from './failures.js';
import { SchemaMismatch } from './migrations.js';

export interface ConnectOptions {
  /** Connections in the pool (a server: 10; a CLI command: 2). */
  max?: number | undefined;
}

export async function connect(url: string, options: ConnectOptions = {}): Promise<Sql> {
  const { default: postgres } = await import('postgres');
  return postgres(url, poolOptions(options));
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
  if (error instanceof ProblemError || error instanceof StoreError) return error;
  if (error instanceof SchemaMismatch) return storeUnavailable(`the PostgreSQL store ${redactUrl(url)}: ${error.message}`);
  if (isDatabaseFailure(error)) return databaseUnavailable(error, url);
  return error;
}
