/**
 * `--since` and `--until` of the lists and the spend report, written as `--pickup-date` is:
 * `2026-11-20`, an instant, or words and US dates (`yesterday`, `monday`, `-7`, `11/20`, `Nov 20`).
 * Days are UTC days, as the lists count them; a weekday is the last one. Unreadable text is a usage
 * error (exit 2).
 */
import type { CommandContext } from './context.js';
import { parseUserDate, utcDateOf } from '../domain/dates.js';
import { UsageError } from './errors.js';

/** An instant as the API takes it (the API judges it). */
const INSTANT = /^\d{4}-\d{2}-\d{2}T/;

export function listDateFromFlag(value: string, flag: string, today: string): string {
  const text = value.trim();
  if (INSTANT.test(text)) return text;
  const parsed = parseUserDate(text, today, { past: true });
  if (!parsed.ok) throw new UsageError(`${flag}: ${parsed.message}`);
  return parsed.date;
}

/** The options with --since and --until as the API takes them, counted from today (UTC, the caller's clock). */
export async function withListDates<T extends { since?: string | undefined; until?: string | undefined }>(ctx: CommandContext, options: T): Promise<T> {
  if (options.since === undefined && options.until === undefined) return options;
  const today = utcDateOf((await ctx.clock())());
  return {
    ...options,
    ...(options.since !== undefined ? { since: listDateFromFlag(options.since, '--since', today) } : {}),
    ...(options.until !== undefined ? { until: listDateFromFlag(options.until, '--until', today) } : {}),
  };
}
