/** Parsers of option values shared by several commands (commander calls them while parsing). */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { MAX_PAGE_SIZE } from '../domain/limits.js';
import { decimalNumber } from '../domain/numberText.js';
import { isZipCode } from '../domain/zipCode.js';

/**
 * The values shell completion offers for an option (and help lists as its choices). What is
 * accepted stays the option's parser's to judge (or the API's): unlike commander's choices(), no
 * value is refused here, and case does not matter where the parser says so.
 */
export function offering(option: Option, values: readonly string[]): Option {
  option.argChoices = [...values];
  return option;
}

/** A repeatable option: every value, in order. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/**
 * The parser of a whole-number option from min to max, in the one number syntax (numberText.ts:
 * 1.5, 0x10, a blank and Infinity are refused). Its message says the range, unless the option
 * says it better (a port).
 */
export function wholeNumberOption(min: number, max = Infinity, message = wholeNumberRange(min, max)): (value: string) => number {
  return (value) => {
    const number = decimalNumber(value) ?? NaN;
    if (!Number.isInteger(number) || number < min || number > max) throw new InvalidArgumentError(message);
    return number;
  };
}

function wholeNumberRange(min: number, max: number): string {
  if (max !== Infinity) return `must be a whole number from ${min} to ${max}`;
  return min === 1 ? 'must be a whole number greater than 0' : `must be a whole number, ${min} or more`;
}

const parseLimit = wholeNumberOption(1, MAX_PAGE_SIZE);

/** A list's --to: not a ZIP at all is a usage error (exit 2), as every flag value that is not what the flag takes. */
export function parseZipFilter(value: string): string {
  if (!isZipCode(value.trim())) throw new InvalidArgumentError('a destination ZIP code is 5 digits, or ZIP+4 (10001, 10001-1234)');
  return value.trim();
}

export interface ListFilterOptions {
  limit: number;
  cursor?: string;
  ref?: string;
  status?: string;
  since?: string;
  until?: string;
  to?: string;
  csv?: boolean;
}

/** The filters `shipment list` and `quote list` share, as the list routes' query parameters. */
export function addListFilters<C extends Command>(command: C, statuses: readonly string[]): C {
  return command
    .option('-n, --limit <n>', `how many (1-${MAX_PAGE_SIZE})`, parseLimit, 20)
    .option('--cursor <cursor>', 'continue after this id (the nextCursor of the previous page)')
    .option('--ref <refNumber>', 'only those with this reference (case and spaces ignored)')
    .addOption(
      offering(
        new Option('--status <status>', 'only those in this status (case ignored)').argParser((value: string) => {
          const status = value.trim().toUpperCase();
          if (!statuses.includes(status)) throw new InvalidArgumentError(`must be one of ${statuses.join(', ')}`);
          return status;
        }),
        statuses.map((status) => status.toLowerCase()),
      ),
    )
    .option('--since <date>', 'created on or after this day (UTC): YYYY-MM-DD, an instant, or words (yesterday, monday, -7, 11/20, Nov 20)')
    .option('--until <date>', 'created on or before this day (the whole day, UTC), written as --since')
    .option('--to <zip>', 'only those going to this destination ZIP', parseZipFilter)
    .option('--csv', 'CSV on stdout for spreadsheets: every match, page after page (an explicit --limit caps the rows)');
}

/** --limit as typed, or undefined for the default page size (commander knows where a value came from). */
export function explicitLimit(command: Command, options: ListFilterOptions): number | undefined {
  return command.getOptionValueSource('limit') === 'cli' ? options.limit : undefined;
}

export function listQueryFromOptions(options: ListFilterOptions) {
  return {
    limit: options.limit,
    cursor: options.cursor,
    refNumber: options.ref,
    status: options.status as never,
    since: options.since,
    until: options.until,
    to: options.to,
  };
}
