/**
 * A store failure: a record that cannot be read or written, a store that cannot be locked. Its
 * message names what failed (for the operator's log and the CLI's stderr); the API turns it into a
 * 500 without that detail (records.ts guardStore).
 */
import { printable } from '../printable.js';
import { ShipperError, type ErrorCode } from '../domain/errors.js';

export class StoreError extends ShipperError {
  readonly code: ErrorCode = 'STORE_FAILURE';

  constructor(
    message: string,
    /** What failed (a record's location in the store), for logs. */
    readonly subject?: string,
  ) {
    // Names and contents come from outside: never a control character on a terminal.
    super(printable(message));
    this.name = 'StoreError';
  }
}

/** The store is read-only (found when it was prepared): a write is refused before it touches a file. */
export class StoreReadOnlyError extends StoreError {
  override readonly code: ErrorCode = 'STORE_READ_ONLY';

  constructor(message: string, subject?: string) {
    super(message, subject);
    this.name = 'StoreReadOnlyError';
  }
}

/**
 * The store cannot be reached now (its database is down, unreachable, read-only, or of another
 * schema version): the API answers 503 with Retry-After, the CLI exits 5. The message names the
 * store without its password.
 */
export class StoreUnavailableError extends StoreError {
  override readonly code: ErrorCode = 'STORE_UNAVAILABLE';

  constructor(message: string) {
    super(message);
    this.name = 'StoreUnavailableError';
  }
}
