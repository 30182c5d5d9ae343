/**
 * What a PostgreSQL failure means to the user, in one line: the database is down, unreachable,
 * refuses the login, is read-only or has the wrong schema. Each is the store's 503 (the server
 * answers it with Retry-After; the CLI exits 5 with the line). The line names the database by its
 * URL without the password, and never carries a stack trace or the driver's internals.
 */
import { redactDatabaseUrls, redactUrl } from '../../config/storeLocation.js';
import { printable } from '../../printable.js';
import { StoreUnavailableError } from '../storeError.js';

/** A failure the database itself explains (SQLSTATE) or the driver's connection codes. */
interface DriverError {
  code?: string;
  message?: string;
  errno?: string;
}

/** Connection failures: the database may come back, so the answer is 503 with Retry-After. */
const CONNECTION_CODES: Record<string, string> = {
  ECONNREFUSED: 'is not accepting connections (connection refused)',
  ECONNRESET: 'closed the connection',
  ENOTFOUND: 'cannot be found (unknown host)',
  EAI_AGAIN: 'cannot be found (the host name did not resolve)',
  EHOSTUNREACH: 'is unreachable (no route to host)',
  ENETUNREACH: 'is unreachable (network unreachable)',
  ETIMEDOUT: 'did not answer in time',
  CONNECT_TIMEOUT: 'did not answer in time',
  CONNECTION_CLOSED: 'closed the connection',
  CONNECTION_ENDED: 'closed the connection',
  CONNECTION_DESTROYED: 'closed the connection',
  EPIPE: 'closed the connection',
};

/** SQLSTATEs (PostgreSQL appendix A) that are about the database, not the request. */
const SQLSTATES: Record<string, string> = {
  '28P01': 'refused the login (wrong user or password)',
  '28000': 'refused the login (no pg_hba.conf entry or the role may not log in)',
  '3D000': 'does not exist (create it first: createdb)',
  '25006': 'is read-only (a standby, or default_transaction_read_only is on): it cannot take writes',
  '57P01': 'was shut down by its administrator',
  '57P02': 'is restarting after a crash',
  '57P03': 'is starting up or shutting down',
  '53300': 'has no connection slot left (too many connections)',
  '53100': 'has no disk space left',
  '42501': 'refused the role the rights it needs (grant it ownership of the database)',
  '08006': 'lost the connection',
  '08001': 'cannot be connected to',
  '08004': 'refused the connection',
  // At connection time: ALTER DATABASE ... ALLOW_CONNECTIONS false (a database being moved or restored).
  '55000': 'is not accepting connections now',
};

export function isDatabaseFailure(error: unknown): boolean {
  const code = (error as DriverError | undefined)?.code;
  return typeof code === 'string' && (code in CONNECTION_CODES || code in SQLSTATES || code.startsWith('08') || code.startsWith('57P') || code.startsWith('53'));
}

/** The one line for a failure of the database at url (password redacted). */
export function describeDatabaseFailure(error: unknown, url: string): string {
  const { code, message } = (error ?? {}) as DriverError;
  const where = `the PostgreSQL store ${redactUrl(url)}`;
  const what = (code && (CONNECTION_CODES[code] ?? SQLSTATES[code])) ?? `failed: ${message ?? String(error)}`;
  // The driver's text may quote what it was given: no password and no control character gets out.
  return printable(redactDatabaseUrls(`${where} ${what}`));
}

/** The store's 503 (StoreUnavailableError): the client is told to come back, the operator's log says why. */
export function databaseUnavailable(error: unknown, url: string): StoreUnavailableError {
  return new StoreUnavailableError(describeDatabaseFailure(error, url));
}
