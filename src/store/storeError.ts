/**
 * A store failure: a record that cannot be read or written, a store that cannot be locked. Its
 * message names what failed (for the operator's log and the CLI's stderr); the API turns it into a
 * 500 without that detail (records.ts guardStore).
 */
import { printable } from '../printable.js';

export class StoreError extends Error {
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
