/**
 * A document that could not be printed: one line naming the printer and what to do, exit 7
 * (ERRORS.PRINT_FAILURE). Nothing is reported printed that the spooler or the socket did not accept.
 */
import { ShipperError, type ErrorCode } from '../domain/errors.js';

export class PrintError extends ShipperError {
  readonly code: ErrorCode = 'PRINT_FAILURE';

  constructor(
    message: string,
    /** What the operator does about it: appended to the line. */
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'PrintError';
  }

  override line(): string {
    return this.hint ? `${this.message}; ${this.hint}` : this.message;
  }
}
