/** Parsers of option values shared by several commands (commander calls them while parsing). */
import { InvalidArgumentError } from 'commander';
import { MAX_PAGE_SIZE } from '../domain/limits.js';

/** A repeatable option: every value, in order. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export function parseLimit(value: string): number {
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) throw new InvalidArgumentError(`must be a whole number from 1 to ${MAX_PAGE_SIZE}`);
  return limit;
}
