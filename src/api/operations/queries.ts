/** Query and body schemas more than one resource's operations use: pages, periods, filters, an empty body. */
import { z } from 'zod';
import { isoDateSchema } from '../../domain/schemas.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../domain/limits.js';
import { ZIP_CODE_PATTERN } from '../../domain/zipCode.js';
import { DATE_PATTERN } from '../../domain/dates.js';
import { onFirstUse } from '../../domain/schemaOnFirstUse.js';
import { once } from './spec.js';

const limitQuery = () =>
  z.coerce
    .number({ error: `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}` })
    .int({ message: `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}` })
    .min(1, { message: `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}` })
    .max(MAX_PAGE_SIZE, { message: `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}` })
    .optional()
    .meta({ description: `Page size, 1 to ${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE})` });

export const pageQuery = once(() => ({
  limit: limitQuery(),
  cursor: z.string().optional().meta({ description: '`nextCursor` of the previous page' }),
}));

/** A day (from 00:00 UTC) or an instant; `until` includes the whole day it names. */
const dayOrInstant = (what: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2}))?$/, { message: `${what} is a date YYYY-MM-DD or an ISO-8601 instant, e.g. 2026-11-23`, abort: true })
    .refine((value) => !Number.isNaN(Date.parse(value)) && isoDateSchema.safeParse(value.slice(0, 10)).success, {
      error: (issue) => `${what} ${String(issue.input)} is not a day of the calendar`,
    })
    .optional();

/** A `since`/`until` day (UTC) or instant as a range of instants; `until` includes its whole day. */
export function createdRange(since: string | undefined, until: string | undefined): { from?: number; to?: number } {
  const isDay = (value: string) => DATE_PATTERN.test(value);
  return {
    ...(since !== undefined ? { from: Date.parse(isDay(since) ? `${since}T00:00:00Z` : since) } : {}),
    ...(until !== undefined ? { to: isDay(until) ? Date.parse(`${until}T00:00:00Z`) + 86_400_000 - 1 : Date.parse(until) } : {}),
  };
}

/** A period that ends before it starts matches nothing: refused, so that a swapped pair is noticed. */
export const orderedPeriod = (query: { since?: string | undefined; until?: string | undefined }, ctx: z.RefinementCtx) => {
  const { from, to } = createdRange(query.since, query.until);
  if (from !== undefined && to !== undefined && to < from) {
    ctx.addIssue({ code: 'custom', path: ['until'], message: `until ${query.until} is before since ${query.since}: the period is empty` });
  }
};

export const createdFilters = once(() => ({
  since: dayOrInstant('since').meta({ description: 'Created on or after this day (UTC) or instant' }),
  until: dayOrInstant('until').meta({ description: 'Created on or before this day (UTC, the whole day) or instant' }),
  to: z
    .string()
    .regex(ZIP_CODE_PATTERN, { message: 'to is a destination ZIP code: 5 digits, or ZIP+4 (10001, 10001-1234)' })
    .optional()
    .meta({ description: "Destination ZIP code (the consignee's)" }),
  refNumber: z.string().max(64).optional().meta({ description: 'The customer reference (case and spaces ignored); for quotes, those booked under it' }),
}));

/** Up to 100 carrier keys, comma-separated: the audit of carriers' bills looks shipments up by PRO or BOL number. */
export const keyListFilter = (what: string, pattern: RegExp, example: string) =>
  z
    .string()
    .regex(pattern, { message: `${what} takes up to 100 numbers separated by commas, e.g. ${example}` })
    .optional();
export const MAX_KEY_FILTER_VALUES = 100;

/** A PUT that takes no body: none, an empty one, or JSON null or {} (clients send Content-Type: application/json regardless). */
export const emptyBodySchema = onFirstUse(() =>
  z
    .strictObject({})
    .nullish()
    .transform(() => undefined),
);
